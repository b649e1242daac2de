/**
 * Which spellings of an id other than its digits a server took as that id (src/spec/inputs/ids.ts, verdict exact):
 * taking them or not is the server's choice, never judged; this says which it took, per endpoint, method and
 * encoding, so that an auditor sees a lenient parser in the report (the SPELLINGS_OBSERVED requirements).
 */
import { ID_KINDS } from '../../spec/inputs/ids.ts';
import type { SentCell } from './cell.ts';

/** The id the spellings are shown for: 10 reads as `+10`, `010`, `0xa`, `1_0`. */
const SHOWN_FOR = 10;

/** A cell's spelling as it would be of id 10, with its kind: `plus-sign +10`. */
function spelling(c: SentCell): string {
  const k = ID_KINDS.find((x) => x.kind === c.spec.kind);
  const textual = c.spec.way === 'path' || c.spec.encoding !== 'json';
  const s = textual ? k?.text?.(SHOWN_FOR) : k?.json?.(SHOWN_FOR);
  return s === undefined ? c.spec.kind : `${c.spec.kind} ${s}`;
}

/**
 * One observation of the exact spellings among `cells` (the other cells are left out): for each place they were
 * sent (`where`: an endpoint, with its method and encoding), those taken, and how many of those sent; a cell whose
 * effect no answer or read showed (a request refused whole for another entry in it, a read that failed) is named
 * apart, never counted as refused.
 */
export function spellingsTaken(cells: readonly SentCell[], where: (c: SentCell) => string): string {
  const places = new Map<string, SentCell[]>();
  for (const c of cells) {
    if (c.naming !== 'exact' || c.dropped !== undefined || c.exchange === undefined) continue;
    places.set(where(c), [...(places.get(where(c)) ?? []), c]);
  }
  if (places.size === 0) return 'no spelling of an id other than its digits was sent';
  const lines = [...places].map(([place, sent]) => {
    const shown = sent.filter((c) => c.taken !== undefined);
    const took = shown.filter((c) => c.taken === true);
    const open = sent.filter((c) => c.taken === undefined);
    const parts = [
      ...(shown.length === 0
        ? []
        : took.length
          ? [`took ${took.map(spelling).join(', ')} (${took.length} of ${shown.length})`]
          : [`took none of ${shown.length}`]),
      ...(open.length ? [`whether it took ${open.map(spelling).join(', ')} did not show`] : []),
    ];
    return `${place}: ${parts.join('; ')}`;
  });
  return `spellings shown as of id ${SHOWN_FOR}. ${lines.join('; ')}`;
}
