/**
 * Judging a record's cells by a read made after a round: the oracles of a value a server took (stored as
 * sent, readable) and of one it must not have kept (limits, unchanged), from what the read shows of each
 * field. PATCH and the bulk ways judge through here; only how a cell was taken differs (a PATCH's status,
 * a bulk item's effect as the read shows it).
 */
import type { ReceivedResponse } from '../../client/transport.ts';
import { CASE_FIELDS, CUSTOMER_FIELDS, stableFields } from '../cases.ts';
import { deepEqual } from '../assert.ts';
import type { Exchange } from '../../results/exchange.ts';
import type { OracleName } from '../../spec/inputs/matrix.ts';
import { UNCHANGED, type Stored } from '../../spec/inputs/stored.ts';
import {
  carriesMarker,
  type CellVerdict,
  describeStored,
  failed,
  judge as judgeCell,
  label,
  notJudged,
  pass,
  short,
  shows,
  type SentCell,
} from './cell.ts';
import type { RecordRound } from './plan.ts';

/** Where a field shows in a read of the case: on the case, or on its nested customer. */
export type Shown = 'case' | 'customer';

export interface FieldRef {
  name: string;
  on: Shown;
}

/** A read of a record: its body when it answered 200 with the case, else why not. */
export interface RecordRead {
  body?: Record<string, unknown>;
  res?: ReceivedResponse;
  problem?: string;
}

/** A field's value as a read shows it (undefined: the read leaves it out). */
export function valueIn(body: Record<string, unknown>, f: FieldRef): unknown {
  const holder = f.on === 'case' ? body : (body.customer as Record<string, unknown> | undefined);
  return holder && typeof holder === 'object' ? holder[f.name] : undefined;
}

/** The fields a round leaves alone, as two reads compare (updated_at, and origin_url with external_id, aside). */
export function untouched(body: Record<string, unknown>, touched: readonly FieldRef[]): Record<string, unknown> {
  const onCase = new Set(touched.filter((f) => f.on === 'case').map((f) => f.name));
  if (onCase.has('external_id')) onCase.add('origin_url');
  const onCustomer = new Set(touched.filter((f) => f.on === 'customer').map((f) => f.name));
  const rest = stableFields(body, CASE_FIELDS);
  for (const k of onCase) delete rest[k];
  const customer = body.customer;
  if (customer && typeof customer === 'object' && !Array.isArray(customer)) {
    const c = stableFields(customer as Record<string, unknown>, CUSTOMER_FIELDS);
    for (const k of onCustomer) delete c[k];
    rest.customer = c;
  }
  return rest;
}

/**
 * Records a verdict on a cell: a cell that names a record (an id in another spelling) is judged by the
 * own-record oracle wherever a value cell is judged by limits, unchanged or stored.
 */
function judge(c: SentCell, o: OracleName, v: CellVerdict): void {
  judgeCell(c, c.naming && (o === 'limits' || o === 'unchanged' || o === 'stored') ? 'own-record' : o, v);
}

/** What a read may show for a reader the server took; a file part a server ignores leaves the field as it was. */
export function storedOf(cell: SentCell): Stored {
  const stored = cell.expect && cell.expect.verdict !== 'reject' ? cell.expect.stored : UNCHANGED;
  return cell.spec.encoding === 'multipart-file' ? { as: 'one-of', options: [stored, UNCHANGED] } : stored;
}

/**
 * Tells which of `suspects` (inputs taken before a read that failed) leaves a record unreadable: each is given
 * alone to a fresh record (`alone` sends it and reads that record; undefined when it was not taken alone).
 * Costs requests only where a read failed; without it, every input of the round would take the blame.
 */
export async function isolateUnreadable(
  suspects: readonly SentCell[],
  alone: (c: SentCell) => Promise<RecordRead | undefined>,
): Promise<void> {
  for (const c of suspects) {
    const r = await alone(c);
    const judged = [c.exchange, r?.res?.exchange];
    if (!r) judge(c, 'readable', notJudged('not taken when sent alone to a fresh case: cannot tell'));
    else if (r.body) judge(c, 'readable', pass('sent alone to a fresh case, that case still answers reads', judged));
    else
      judge(
        c,
        'readable',
        failed(
          `${label(c)}: taken by a fresh case, that case then answers no read (${r.problem ?? 'no answer'})`,
          judged,
        ),
      );
  }
}

/**
 * Judges one record's round by the read after it. `taken(cell, shown, before)` tells whether the server took
 * a cell (true/false), or cannot tell (undefined: a bulk item whose effect the value does not show).
 */
export function judgeRound(
  round: RecordRound,
  before: Record<string, unknown>,
  read: RecordRead,
  fieldOf: (c: SentCell) => FieldRef,
  readExchanges: Exchange[],
  alsoTouched: readonly FieldRef[] = [],
): void {
  const kept = (list: readonly SentCell[]) => list.filter((c) => c.dropped === undefined);
  round = { readers: round.readers.map(kept).filter((u) => u.length > 0), rejects: kept(round.rejects) };
  const cells = [...round.readers.flat(), ...round.rejects];
  const sentOk = cells.filter((c) => c.taken === true);
  if (!read.body) {
    // The record no longer answers a read: the accepted inputs since the last good read let that in.
    const why = `${read.problem ?? 'no answer'}, after this round took ${sentOk.length} input(s)`;
    // Inputs isolateUnreadable already tried alone keep that verdict.
    for (const c of sentOk.filter((x) => !x.verdicts.readable))
      judge(
        c,
        'readable',
        failed(`${label(c)}: the record does not answer a read afterwards (${why})`, [c.exchange, ...readExchanges]),
      );
    for (const c of cells) {
      for (const o of ['stored', 'unchanged', 'limits'] as const)
        if (!c.verdicts[o]) judge(c, o, notJudged('the record could not be read after the round'));
    }
    return;
  }
  for (const c of sentOk) judge(c, 'readable', pass(undefined, readExchanges));
  const byField = new Map<string, { ref: FieldRef; readers: SentCell[]; rejects: SentCell[] }>();
  const slot = (c: SentCell) => {
    const ref = fieldOf(c);
    const key = `${ref.on}.${ref.name}`;
    const s = byField.get(key) ?? { ref, readers: [], rejects: [] };
    byField.set(key, s);
    return s;
  };
  for (const c of round.readers.flat()) slot(c).readers.push(c);
  for (const c of round.rejects) slot(c).rejects.push(c);
  const judged = (c: SentCell) => [c.exchange, ...readExchanges];
  for (const { ref, readers, rejects } of byField.values()) {
    const was = valueIn(before, ref);
    const now = valueIn(read.body, ref);
    const reader = readers[0];
    if (now === undefined && !(ref.name in (ref.on === 'case' ? read.body : ((read.body.customer as object) ?? {})))) {
      for (const c of [...readers, ...rejects])
        for (const o of ['stored', 'unchanged'] as const)
          judge(c, o, notJudged(`the read does not show ${ref.name} (optional in the read representation)`));
      continue;
    }
    const expected: Stored = reader?.taken === true ? storedOf(reader) : UNCHANGED;
    const culprit = rejects.find((c) => carriesMarker(c, now) && !shows(expected, now, was));
    for (const c of rejects) {
      if (c === culprit) {
        const kept = `the read shows ${short(now)} (it held ${short(was)})`;
        if (c.naming)
          judge(
            c,
            'own-record',
            failed(`${label(c)} names no record, yet the record it spells took its value: ${kept}`, judged(c)),
          );
        else if (c.taken === false)
          judge(c, 'unchanged', failed(`${label(c)} was refused but kept: ${kept}`, judged(c)));
        else
          judge(
            c,
            'limits',
            failed(`${label(c)} is outside the field's type or limit, yet was taken: ${kept}`, judged(c)),
          );
        continue;
      }
      if (c.taken === true && !shows(expected, now, was)) {
        judge(
          c,
          'limits',
          failed(`${label(c)} is outside the field's type or limit, yet was answered as taken`, judged(c)),
        );
      } else if (c.taken === true) {
        // A file part the server ignores, or a value refused in a way the answer did not say: nothing kept.
        judge(c, 'limits', pass('not kept', judged(c)));
      } else judge(c, 'limits', pass(undefined, judged(c)));
      if (!c.verdicts.unchanged) judge(c, 'unchanged', pass(undefined, judged(c)));
    }
    for (const c of readers) {
      if (c.taken === true) {
        if (shows(expected, now, was)) judge(c, 'stored', pass(undefined, judged(c)));
        else if (!culprit)
          judge(
            c,
            'stored',
            failed(
              `${label(c)} was taken, but a read shows ${ref.name} ${short(now)} (a conforming read shows ` +
                `${describeStored(storedOf(c))})`,
              judged(c),
            ),
          );
      } else if (c.taken === false) {
        if (c.expect?.verdict === 'accept' && c.spec.encoding !== 'multipart-file')
          judge(c, 'stored', failed(`${label(c)} is a value the field allows, yet it was refused`, judged(c)));
        else judge(c, 'stored', pass('refused (the interface leaves this value open)', judged(c)));
        if (!culprit && !deepEqual(now, was) && !c.verdicts.unchanged)
          judge(
            c,
            'unchanged',
            failed(`${label(c)} was refused, yet ${ref.name} became ${short(now)} (was ${short(was)})`, judged(c)),
          );
        else judge(c, 'unchanged', pass(undefined, judged(c)));
      }
    }
  }
  // What no cell of the round wrote must read as before: a refused cell that changed another field.
  const touched = [...[...byField.values()].map((s) => s.ref), ...alsoTouched];
  const a = untouched(before, touched);
  const b = untouched(read.body, touched);
  if (!deepEqual(a, b)) {
    const changed = Object.keys({ ...a, ...b }).filter((k) => !deepEqual(a[k], b[k]));
    for (const c of cells.filter((x) => x.taken === false))
      judge(
        c,
        'unchanged',
        failed(`after ${label(c)} (refused) and the round's other inputs, ${changed.join(', ')} changed`, judged(c)),
      );
  }
}
