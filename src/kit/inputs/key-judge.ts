/**
 * Judging one group of key cells (src/spec/inputs/keys.ts) by the reads after its request: every change a read
 * shows, of the record the request wrote, of the record its values named, or of who can read it, is blamed on the
 * cells of the request that could have made it (their reach), and failed under the oracle the change breaks.
 */
import type { ReceivedResponse } from '../../client/transport.ts';
import { stringifyJson } from '../../base/json.ts';
import type { Id } from '../../spec/id.ts';
import type { KeyOracle, Reach } from '../../spec/inputs/keys.ts';
import { deepEqual } from '../assert.ts';
import { type CaseBody, CASE_FIELDS, changedFields, CUSTOMER_FIELDS, stableFields } from '../cases.ts';
import { processingBegun } from '../read-only.ts';
import { type CellVerdict, failed, notJudged, pass } from './cell.ts';
import type { ItemReport } from '../bulk-report.ts';
import type { KeyCell } from './key-values.ts';
import { PAST } from './key-values.ts';

/** A read of a case: its body when it answered 200 with that case, else the answer or why there was none. */
export interface CaseRead {
  body?: CaseBody;
  res?: ReceivedResponse;
  problem?: string;
}

/** One request of a group: the cells it carried, its answer, the marker it wrote, how its item was reported. */
export interface Part {
  cells: KeyCell[];
  res?: ReceivedResponse;
  /** The value the request wrote beside the keys: delete_after, or the customer's full_name. */
  marker: number | string;
  /** For a bulk item: what the answer's per-item report says of it. */
  reported?: ItemReport;
}

/** What a group sent on one way in: its cells, its requests (the keys together, then each alone), its tag. */
export interface GroupSent {
  cells: KeyCell[];
  parts: Part[];
  tag: string;
}

/** Whether a part was taken: a PATCH answered 2xx, a bulk item reported applied. */
const takenPart = (p: Part) =>
  p.res !== undefined && p.res.status < 300 && (p.cells[0]?.spec.way === 'patch-keys' || p.reported === 'succeeded');

/** A change a read shows, and what could have made it. */
export interface Change {
  reach: Reach;
  oracle: KeyOracle;
  what: string;
  /** The reads that show it. */
  judged: (ReceivedResponse | undefined)[];
}

/** A named record read before and after the group. */
export interface OtherRead {
  who: string;
  before: CaseBody;
  after: CaseRead;
}

const ORACLE_OF: Record<string, KeyOracle> = {
  other: 'own-record',
  'not-applied': 'own-record',
  gone: 'hidden',
  moved: 'hidden',
};

/** A change: its oracle from its reach (a field changed: read-only). */
function change(reach: Reach, what: string, judged: (ReceivedResponse | undefined)[]): Change {
  return { reach, oracle: ORACLE_OF[reach] ?? 'read-only', what, judged };
}

/** Whether a cell could have made a change. */
function could(cell: KeyCell, reach: Reach): boolean {
  return cell.spec.reach.includes(reach) || (reach.startsWith('field:') && cell.spec.reach.includes('field:*'));
}

/** The fields of a case the customer way compares: the case's fields but its customer, and the customer's own. */
function customerWayChanges(before: CaseBody, after: CaseBody, customerId: Id): [Reach, string][] {
  const out: [Reach, string][] = [];
  const rest = changedFields({ ...before, customer: null }, { ...after, customer: null });
  if (rest.length) out.push(['field:case', `its case changed: ${rest.join('; ')}`]);
  const k = after.customer as Record<string, unknown> | null | undefined;
  if (!k || typeof k !== 'object' || k.id !== customerId) {
    out.push(['gone', `its case no longer shows customer ${customerId}: customer ${stringifyJson(k)}`]);
    return out;
  }
  const strip = (c: unknown) => {
    const o = stableFields((c ?? {}) as Record<string, unknown>, CUSTOMER_FIELDS);
    delete o.full_name;
    return o;
  };
  if (!deepEqual(strip(before.customer), strip(k)))
    out.push(['field:customer', `the customer ${stringifyJson(strip(before.customer))} → ${stringifyJson(strip(k))}`]);
  return out;
}

/** updated_at taken from the request (the value sent, while it held another), or moved back. */
function updatedAtChange(sent: GroupSent, before: CaseBody, after: CaseBody): string | undefined {
  const was = before.updated_at;
  const now = after.updated_at;
  const carried = sent.cells.some((c) => c.spec.field === 'updated_at' && c.value === PAST);
  if (carried && now === PAST && was !== PAST) return `updated_at became ${PAST}, the value sent`;
  if (typeof was === 'string' && typeof now === 'string' && Date.parse(now) < Date.parse(was))
    return `updated_at moved back: ${was} → ${now}`;
  return undefined;
}

/**
 * The changes the reads after a group show: `after` our read of its case, `peerRead` the peer's read of it (org
 * groups), `others` the records its values named. Each change carries the read that shows it (the request that
 * made it is the blamed cell's own).
 */
export function changesOf(
  sent: GroupSent,
  customerId: Id | undefined,
  before: CaseBody,
  after: CaseRead,
  peerRead: CaseRead | undefined,
  others: readonly OtherRead[],
): Change[] {
  const out: Change[] = [];
  const id = before.id;
  const movedBody = peerRead?.res?.json as { id?: unknown } | undefined;
  if (peerRead?.res && peerRead.res.status < 300 && movedBody?.id === id)
    out.push(change('moved', `the peer organisation reads case ${id} (HTTP ${peerRead.res.status})`, [peerRead.res]));
  if (!after.body)
    out.push(change('gone', `our read of case ${id} answers ${after.problem ?? 'nothing'}`, [after.res]));
  for (const p of sent.parts.filter((x) => takenPart(x) && x.cells[0]?.spec.way === 'patch-keys')) {
    const shown = (p.res?.json as { id?: unknown } | undefined)?.id;
    if (shown !== undefined && shown !== id)
      out.push(change('other', `the PATCH of case ${id} answered with case ${stringifyJson(shown)}`, []));
  }
  for (const o of others) {
    if (!o.after.body) out.push(change('other', `${o.who} answers ${o.after.problem ?? 'nothing'}`, [o.after.res]));
    else {
      const changed = changedFields(o.before, o.after.body);
      if (changed.length) out.push(change('other', `${o.who} changed: ${changed.join('; ')}`, [o.after.res]));
    }
  }
  if (!after.body) return out;
  const read = [after.res];
  const now = after.body;
  // The last request taken wrote the marker the read must show (a refused one wrote none).
  const last = sent.parts.filter(takenPart).at(-1);
  if (customerId !== undefined) {
    const found = customerWayChanges(before, now, customerId);
    for (const [reach, what] of found) out.push(change(reach, what, read));
    const name = (now.customer as { full_name?: unknown } | undefined)?.full_name;
    if (last && name !== last.marker && !found.some(([reach]) => reach === 'gone'))
      out.push(change('not-applied', `the item, answered as applied, left full_name ${stringifyJson(name)}`, read));
    return out;
  }
  if (last && now.delete_after !== last.marker)
    out.push(
      change(
        'not-applied',
        `answered as applied, yet the case shows delete_after ${stringifyJson(now.delete_after)}`,
        read,
      ),
    );
  const stable = (b: CaseBody) => {
    const fields = stableFields(b, CASE_FIELDS);
    delete fields.delete_after;
    return fields;
  };
  const [a, b] = [stable(before), stable(now)];
  const cut = (v: unknown) => stringifyJson(v)?.slice(0, 90);
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)]))
    if (!deepEqual(a[k], b[k])) out.push(change(`field:${k}`, `${k} ${cut(a[k])} → ${cut(b[k])}`, read));
  const moved = updatedAtChange(sent, before, now);
  if (moved) out.push(change('field:updated_at', moved, read));
  return out;
}

/** Records a verdict on a cell: the first failure of an oracle stands. */
export function judgeKey(cell: KeyCell, oracle: KeyOracle, verdict: CellVerdict): void {
  if (cell.verdicts[oracle]?.result === 'fail') return;
  cell.verdicts[oracle] = verdict;
}

/**
 * Judges a group's cells by the changes its reads showed: each change fails the cells that could have made it (or
 * every cell of the request, when none could); every other oracle passes, or is not judged where the read that
 * would show it failed (`readable`) or the record moves on its own (processing begun).
 */
export function judgeGroup(sent: GroupSent, before: CaseBody, readable: boolean, changes: readonly Change[]): void {
  const others = sent.cells.length - 1;
  for (const ch of changes) {
    const culprits = sent.cells.filter((c) => could(c, ch.reach));
    for (const c of culprits.length ? culprits : sent.cells) {
      const value = stringifyJson(c.value)?.slice(0, 60);
      const status = c.status !== undefined ? `HTTP ${c.status}` : 'no answer';
      const sentAs = `${c.spec.field} ${value} (keys ${c.spec.kind}, ${others} other keys beside it, ${status})`;
      const why = `${sentAs}: ${ch.what}`;
      judgeKey(c, ch.oracle, failed(why, [c.exchange, ...ch.judged.map((r) => r?.exchange)]));
    }
  }
  const begun = processingBegun(before);
  for (const c of sent.cells)
    for (const o of ['own-record', 'read-only', 'hidden'] as const) {
      if (c.verdicts[o]) continue;
      if (!readable && o !== 'hidden') judgeKey(c, o, notJudged('its case did not answer our read after the request'));
      else if (begun && o === 'read-only')
        judgeKey(c, o, notJudged('its case shows processing begun: its read-only fields move on their own'));
      else judgeKey(c, o, pass(undefined, [c.exchange]));
    }
}
