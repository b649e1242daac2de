/**
 * Judging body cells by the reads after their round (kit/inputs/body.ts): what each reading of a body (the object,
 * the first value or the second) left on its records, whether the server's answer allowed that, and whether
 * anything else changed. The one rule per verdict of spec/inputs/body.ts: whole for a body taken or refused as a
 * whole, one-value for a key or field given twice.
 */
import { stringifyJson } from '../../base/json.ts';
import type { ReceivedResponse } from '../../client/transport.ts';
import type { Exchange } from '../../results/exchange.ts';
import type { Id } from '../../spec/id.ts';
import type { BodyVerdict } from '../../spec/inputs/body.ts';
import { deepEqual } from '../assert.ts';
import { checkIds, type CaseBody } from '../cases.ts';
import { failed, notJudged, pass, short, type CellVerdict } from './cell.ts';
import type { BodyCell, Effect } from './body-cells.ts';
import { type FieldRef, untouched, valueIn } from './records.ts';

/** A record as the round found it: read before, and after (no body: it answered no read, `problem` says how). */
export interface RecordState {
  before: Record<string, unknown>;
  after?: Record<string, unknown>;
  read?: ReceivedResponse;
  problem?: string;
}

/** A cell in a message: `PATCH as json, trailing-text: {"webhook_url":…}`. */
export function bodyLabel(c: BodyCell): string {
  const { field, encoding, kind } = c.spec;
  const text = c.shown ?? (c.text === '' ? '(empty)' : stringifyJson(c.text)!);
  const cut = text.length > 70 ? `${text.slice(0, 70)}… (${text.length} chars)` : text;
  return `${field} as ${encoding}, ${kind}: ${cut}`;
}

const slotOf = (e: Effect) => ('check' in e ? `${String(e.record)} check ${String(e.check)}` : refKey(e.record, e.ref));
const refKey = (record: Id, ref: FieldRef) => `${String(record)} ${ref.on}.${ref.name}`;

/** The slots (a record's field, or one of its checks) a cell may change. */
export function slotsOf(c: BodyCell): string[] {
  return [...new Set([...c.readings.flat(), ...c.touches].map(slotOf))];
}

/** Whether a read shows an effect: the field holds the value, or the check is gone. */
function shows(e: Effect, after: Record<string, unknown>): boolean {
  if ('check' in e) return !checkIds(after as CaseBody).some((k) => String(k) === String(e.check));
  return deepEqual(valueIn(after, e.ref), e.value);
}

/** What a read shows of an effect's slot, for messages. */
function shownOf(e: Effect, after: Record<string, unknown>): string {
  if ('check' in e) return `check ${String(e.check)} ${shows(e, after) ? 'deleted' : 'kept'}`;
  const label = e.ref.on === 'customer' ? `customer ${e.ref.name}` : e.ref.name;
  return `${label} ${short(valueIn(after, e.ref))} on case ${String(e.record)}`;
}

const ok = (c: BodyCell) => c.status !== undefined && c.status >= 200 && c.status < 300;
const answeredAs = (c: BodyCell) => (c.status === undefined ? 'no answer' : `HTTP ${c.status}`);

/** What a cell's judging found in the reads. */
interface Found {
  /** Readings of which a value shows. */
  shown: number[];
  /** Readings whose every value shows. */
  full: number[];
  /** Its slots holding a value none of the round's bodies sent there. */
  foreign: string[];
  /** Its slots holding a value a body of the round sent after it (which may have overwritten its own). */
  others: boolean;
  what: string;
}

function find(c: BodyCell, round: readonly BodyCell[], states: ReadonlyMap<Id, RecordState>): Found {
  const after = (e: Effect) => states.get(e.record)!.after!;
  const shown: number[] = [];
  const full: number[] = [];
  c.readings.forEach((r, i) => {
    const n = r.filter((e) => shows(e, after(e))).length;
    if (n > 0) shown.push(i);
    if (n === r.length && n > 0) full.push(i);
  });
  const foreign: string[] = [];
  let others = false;
  for (const e of c.readings.flat()) {
    if ('check' in e) continue;
    const st = states.get(e.record)!;
    const now = valueIn(st.after!, e.ref);
    if (deepEqual(now, valueIn(st.before, e.ref))) continue;
    const sentHere = (x: BodyCell) => x.readings.flat().some((y) => slotOf(y) === slotOf(e) && shows(y, st.after!));
    if (sentHere(c)) continue;
    // The round is sent in order: a value of a body sent before it says its own did not land; one sent after may
    // have overwritten it.
    const by = round.find((x) => x !== c && sentHere(x));
    if (by) others ||= round.indexOf(by) > round.indexOf(c);
    else foreign.push(shownOf(e, st.after!));
  }
  const values = c.readings.flat().filter((e) => shows(e, after(e)));
  const what = [...new Set([...values.map((e) => shownOf(e, after(e))), ...foreign])].join('; ');
  return { shown, full, foreign: [...new Set(foreign)], others, what };
}

/** Judges one cell of a round by its verdict. */
function verdictOn(c: BodyCell, f: Found, verdict: BodyVerdict, judged: Exchange[]): CellVerdict {
  const label = bodyLabel(c);
  const applied = f.shown.length > 0 || f.foreign.length > 0;
  const fail = (why: string) => failed(`${label}: ${why}`, judged);
  switch (verdict) {
    case 'reject':
      if (ok(c)) return fail(`answered ${answeredAs(c)}, where a 4xx refuses it${applied ? `, and ${f.what}` : ''}`);
      return applied ? fail(`answered ${answeredAs(c)}, yet applied: ${f.what}`) : pass('refused', judged);
    case 'no-effect':
      return applied ? fail(`answered ${answeredAs(c)}, yet applied: ${f.what}`) : pass(answeredAs(c), judged);
    case 'accept':
      if (!ok(c)) return fail(`answered ${answeredAs(c)}: whitespace around one JSON object is JSON, taken`);
      if (f.foreign.length || !f.full.some((i) => c.allowed.includes(i)))
        return fail(`answered ${answeredAs(c)}, yet a read shows ${f.what || 'none of it'}`);
      return pass('taken', judged);
    case 'open':
    case 'one-of': {
      if (!ok(c))
        return applied ? fail(`answered ${answeredAs(c)}, yet applied (in part): ${f.what}`) : pass('refused', judged);
      if (f.foreign.length) return fail(`answered ${answeredAs(c)}, and a read shows ${f.what}: no value it sent`);
      const refused = f.shown.filter((i) => !c.allowed.includes(i));
      if (refused.length)
        return fail(`answered ${answeredAs(c)}, and a read shows ${f.what}: a value its field refuses`);
      if (f.shown.length > 1) return fail(`answered ${answeredAs(c)}, and a read shows both values: ${f.what}`);
      // A PATCH taken applies what it holds; a bulk item may have been reported failed (not shown: unchanged).
      if (c.spec.field === 'patch' && c.readings.length > 0 && f.full.length === 0)
        return fail(`answered ${answeredAs(c)}, yet a read shows ${f.what || 'none of it applied'}`);
      return pass(f.shown.length ? `reading ${f.shown[0]! + 1} of ${c.readings.length} applied` : 'taken', judged);
    }
    default:
      return notJudged(`no rule for the verdict ${verdict}`);
  }
}

/** The PATCH answer's value of the field a key given twice set, and the read's: the same. */
function answerAgrees(c: BodyCell, states: ReadonlyMap<Id, RecordState>, judged: Exchange[]): CellVerdict | undefined {
  if (!c.answerShows || !ok(c) || !c.answer || typeof c.answer !== 'object') return undefined;
  const record = c.readings[0]![0]!.record;
  const answered = valueIn(c.answer as Record<string, unknown>, c.answerShows);
  const read = valueIn(states.get(record)!.after!, c.answerShows);
  if (deepEqual(answered, read)) return undefined;
  return failed(
    `${bodyLabel(c)}: the answer shows ${c.answerShows.name} ${short(answered)}, a later read ${short(read)}`,
    judged,
  );
}

/**
 * Judges a round's cells (sent, their records read since). `verdictOf` gives the verdict a cell is judged by
 * (a bulk item whose field the items do not take is open, whatever whitespace around it).
 */
export function judgeBodyRound(
  round: readonly BodyCell[],
  states: ReadonlyMap<Id, RecordState>,
  verdictOf: (c: BodyCell) => BodyVerdict,
): void {
  const readsOf = (c: BodyCell) =>
    c.records.map((id) => states.get(id)?.read?.exchange).filter((e): e is Exchange => e !== undefined);
  for (const c of round) {
    const rule = c.spec.oracles.includes('one-value') ? 'one-value' : c.spec.oracles.includes('whole') ? 'whole' : null;
    if (!rule) continue;
    const judged = [...(c.exchange ? [c.exchange] : []), ...readsOf(c)];
    const unread = c.records.filter((id) => !states.get(id)?.after);
    if (unread.length) {
      c.verdicts[rule] = notJudged(`case ${unread.map(String).join(', ')} answered no read after the round`);
      continue;
    }
    const f = find(c, round, states);
    if (f.others && f.shown.length === 0 && f.foreign.length === 0) {
      c.verdicts[rule] = notJudged('a body sent after it in its round wrote the same field');
      continue;
    }
    c.verdicts[rule] = answerAgrees(c, states, judged) ?? verdictOn(c, f, verdictOf(c), judged);
    c.took = tookOf(c, f);
  }
  blameUnexplained(round, states);
}

/** What a server did with a cell, for the observation: its answer, and which reading a read shows. */
function tookOf(c: BodyCell, f: Found): string {
  if (!ok(c)) return `${answeredAs(c)}, refused`;
  if (f.shown.length === 0)
    return `${answeredAs(c)}, ${c.readings.length ? 'nothing of it applied' : 'nothing changed'}`;
  if (c.readings.length === 1) return `${answeredAs(c)}, taken`;
  return `${answeredAs(c)}, the ${f.shown[0] === 0 ? 'first' : 'second'} value applied`;
}

/**
 * What changed on a record that no body of the round sent there (another field, another check): a failure of the
 * round's bodies that name the record, each of which was refused or may change nothing.
 */
function blameUnexplained(round: readonly BodyCell[], states: ReadonlyMap<Id, RecordState>): void {
  for (const [id, st] of states) {
    if (!st.after) continue;
    const mine = round.filter((c) => c.records.some((r) => String(r) === String(id)));
    if (!mine.length) continue;
    const slots = mine.flatMap((c) => [...c.readings.flat(), ...c.touches]).filter((e) => e.record === id);
    const refs = slots.filter((e): e is Extract<Effect, { ref: FieldRef }> => 'ref' in e).map((e) => e.ref);
    if (slots.some((e) => 'check' in e)) refs.push({ name: 'checks', on: 'case' });
    const [a, b] = [untouched(st.before, refs), untouched(st.after, refs)];
    if (deepEqual(a, b)) continue;
    const changed = Object.keys({ ...a, ...b }).filter((k) => !deepEqual(a[k], b[k]));
    const exchanges = (c: BodyCell) => [c.exchange, st.read?.exchange].filter((e): e is Exchange => e !== undefined);
    const suspects = mine.filter((c) => !ok(c) || c.readings.length === 0);
    for (const c of suspects.length ? suspects : mine) {
      const rule = c.spec.oracles.includes('one-value') ? 'one-value' : 'whole';
      if (!c.spec.oracles.includes(rule) || c.verdicts[rule]?.result === 'fail') continue;
      c.verdicts[rule] = failed(
        `after ${bodyLabel(c)} (${answeredAs(c)}) and the round's other bodies, case ${String(id)}'s ` +
          `${changed.join(', ')} changed, which no body of the round sent`,
        exchanges(c),
      );
    }
  }
}
