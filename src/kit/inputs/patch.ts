/**
 * The PATCH way in of the input matrix: every field of the PATCH body, every kind of value, as JSON, form,
 * multipart and multipart with file parts, on a few cases shared round by round (plan.ts), each round read
 * once and judged (records.ts). A 5xx is told from a case an earlier input left unreadable by a read at once.
 */
import type { Id } from '../../spec/id.ts';
import { RawJson } from '../../client/encode.ts';
import type { ContentType } from '../../client/encode.ts';
import { CASE_WRITE_FIELDS } from '../../spec/inputs/fields.ts';
import { kindsFor, WAY_ENCODINGS, type CellSpec } from '../../spec/inputs/matrix.ts';
import { oneOf, UNCHANGED, type Expect } from '../../spec/inputs/stored.ts';
import { valueKinds } from '../../spec/inputs/values.ts';
import type { CaseBody } from '../cases.ts';
import { readCase } from '../cases.ts';
import type { Harness, Organisation } from '../context.ts';
import { mapLimit } from '../bulk.ts';
import { failed, judge, label, notJudged, type SentCell } from './cell.ts';
import { planRounds, type RecordRound } from './plan.ts';
import { isolateUnreadable, judgeRound, type RecordRead } from './records.ts';
import { type Answer, answered, answerOf, ok, refused, tagger } from './send.ts';

/** Cases the PATCH cells share: each round gives each at most one reader per field. */
const CASES = 4;

/** A cell's expectation in an encoding: a flat one's own where it has one; a file part may also be ignored. */
function expectIn(encoding: CellSpec['encoding'], json: Expect, flat: Expect | undefined): Expect {
  const e = encoding === 'json' ? json : (flat ?? json);
  if (encoding !== 'multipart-file' || e.verdict === 'reject') return e;
  return { verdict: 'open', stored: oneOf(e.stored, UNCHANGED) };
}

/** Every PATCH cell, with this run's values. */
export function patchCells(): SentCell[] {
  const tag = tagger();
  const cells: SentCell[] = [];
  for (const encoding of WAY_ENCODINGS.patch) {
    for (const f of CASE_WRITE_FIELDS) {
      for (const k of kindsFor('patch', encoding, valueKinds(f.field, tag))) {
        const expect = expectIn(encoding, k.expect, k.expectText);
        const value = encoding === 'json' ? k.json! : k.text!;
        cells.push({
          spec: {
            id: `patch/${encoding}/${f.name}/${k.kind}`,
            way: 'patch',
            encoding,
            field: f.name,
            kind: k.kind,
            verdict: expect.verdict,
            oracles: ['answered', 'limits', 'unchanged', 'stored', 'readable'],
          },
          value,
          expect,
          ...(k.marker !== undefined ? { marker: k.marker } : {}),
          verdicts: {},
        });
      }
    }
  }
  return cells;
}

/** The body of a PATCH carrying these cells. */
function body(cells: readonly SentCell[]): { body: unknown; contentType: ContentType } {
  const encoding = cells[0]!.spec.encoding;
  if (encoding === 'json')
    return {
      body: new RawJson(`{${cells.map((c) => `"${c.spec.field}":${c.value}`).join(',')}}`),
      contentType: 'json',
    };
  return { body: Object.fromEntries(cells.map((c) => [c.spec.field, c.value])), contentType: encoding };
}

/** One PATCH of `cells` on case `id`. */
function send(org: Organisation, id: Id, cells: readonly SentCell[]): Promise<Answer> {
  const { body: b, contentType } = body(cells);
  return answerOf(org.api.patchCase(id, b, { contentType }));
}

/** A read of the case, as the judging of a round needs it. */
export async function read(org: Organisation, id: Id): Promise<RecordRead> {
  const a = await answerOf(org.provision.readCase(id));
  if (!a.res) return { problem: `no answer (${a.silent})` };
  const json = a.res.json as Record<string, unknown> | undefined;
  if (a.res.status !== 200 || !json || typeof json !== 'object' || json.id !== id)
    return { res: a.res, problem: `HTTP ${a.res.status}${a.res.json === undefined ? ' (no JSON case)' : ''}` };
  return { body: json, res: a.res };
}

const fieldOf = (c: SentCell) => ({ name: c.spec.field, on: 'case' as const });

/** Sends and judges every PATCH cell; the cells with their verdicts. */
export async function runPatchMatrix(
  t: Harness,
  cells: SentCell[] = patchCells(),
): Promise<{ cells: SentCell[]; cases: Id[] }> {
  const org = t.primary;
  const cases: CaseBody[] = await mapLimit(Array.from({ length: CASES }), CASES, async () =>
    // The state before, as a read shows it (a creation's answer may show a case otherwise than a read does).
    readCase(org, (await org.provision.createCase()).id, 'reading a case before the input matrix'),
  );
  const rounds = planRounds(
    cells,
    cases.length,
    (c) => c.spec.field,
    (c) => (c.expect?.verdict === 'accept' && c.spec.encoding !== 'multipart-file' ? c.spec.encoding : undefined),
  );
  const state = new Map<Id, Record<string, unknown>>(cases.map((c) => [c.id, c]));
  const retired = new Set<Id>();
  /** The reader each case's field holds the value of (the last one taken there). */
  const holding = new Map<string, SentCell>();
  for (const round of rounds) {
    await mapLimit(cases, CASES, async (c, i) => {
      const slot = round[i]!;
      if (retired.has(c.id)) return leave(slot, 'its case no longer answered reads');
      const lastGood = state.get(c.id)!;
      const unreadable = await sendRound(org, c.id, slot);
      const r = unreadable ?? (await read(org, c.id));
      if (!r.body) {
        const suspects = [...slot.readers.flat(), ...slot.rejects].filter((x) => x.taken === true);
        await isolateUnreadable(suspects, (x) => alone(org, x));
      }
      judgeRound(slot, lastGood, r, fieldOf, r.res?.exchange ? [r.res.exchange] : []);
      if (r.body) state.set(c.id, r.body);
      else retired.add(c.id);
      for (const x of slot.readers.flat()) if (x.taken) holding.set(`${c.id} ${x.spec.field}`, x);
    });
  }
  // Still writable afterwards: a further PATCH of each case; a 5xx is traced to the values it holds.
  await mapLimit(cases, CASES, async (c) => {
    if (retired.has(c.id) || (await writable(org, c.id))) return;
    retired.add(c.id);
    const suspects = [...holding.entries()].filter(([k]) => k.startsWith(`${c.id} `)).map(([, x]) => x);
    await isolateUnreadable(suspects, (x) => alone(org, x));
  });
  return { cells, cases: cases.map((c) => c.id).filter((id) => !retired.has(id)) };
}

/** Whether a case takes a further write: a PATCH of delete_after answered 2xx or 4xx. */
async function writable(org: Organisation, id: Id): Promise<boolean> {
  const a = await answerOf(org.api.patchCase(id, { delete_after: 5 }));
  return ok(a) || refused(a);
}

/** A cell sent alone to a fresh case, that case read and written again: undefined when the server refused it there. */
async function alone(org: Organisation, c: SentCell): Promise<RecordRead | undefined> {
  const fresh = await org.provision.createCase();
  const a = await send(org, fresh.id, [c]);
  if (!ok(a)) return undefined;
  const r = await read(org, fresh.id);
  if (r.body && !(await writable(org, fresh.id))) return { res: r.res!, problem: 'a further PATCH got no 2xx or 4xx' };
  return r;
}

/** Marks the cells of a slot not sent. */
function leave(slot: RecordRound, why: string): void {
  for (const c of [...slot.readers.flat(), ...slot.rejects])
    for (const o of c.spec.oracles) judge(c, o, notJudged(`not sent: ${why}`));
}

/**
 * Sends a record's round: readers first (a group of accepted readers in one PATCH, split one by one when
 * refused), then rejects. A 5xx is followed by a read: when that read fails too, an earlier input of the
 * round left the case unreadable, and the round ends there with that read.
 */
async function sendRound(org: Organisation, id: Id, slot: RecordRound): Promise<RecordRead | undefined> {
  const units = [...slot.readers, ...slot.rejects.map((c) => [c])];
  for (const [n, unit] of units.entries()) {
    const a = await send(org, id, unit);
    if (unit.length > 1 && !ok(a)) {
      // A refused group: each alone, so each value's own answer is judged.
      for (const c of unit) await take(org, id, c, await send(org, id, [c]));
      if (unit.some((c) => c.status !== undefined && c.status >= 500)) {
        const r = await read(org, id);
        if (!r.body) return unreadable(unit, units.slice(n + 1), r);
      }
      continue;
    }
    for (const c of unit) await take(org, id, c, a);
    if (!ok(a) && !refused(a)) {
      const r = await read(org, id);
      if (!r.body) return unreadable(unit, units.slice(n + 1), r);
    }
  }
  return undefined;
}

/**
 * A 5xx after which the case answers no read either: not the 5xx of these inputs (an earlier input left the case
 * unreadable; readable judges those). The round stops there: the rest is not sent.
 */
function unreadable(unit: SentCell[], rest: SentCell[][], r: RecordRead): RecordRead {
  for (const c of unit.filter((x) => x.status === undefined || x.status >= 500)) {
    c.verdicts.answered = notJudged('the case no longer answered reads: an earlier input of the round');
    c.taken = undefined;
  }
  return ended(rest, r);
}

/** The round stops at an unreadable case: the rest is not sent. */
function ended(rest: SentCell[][], r: RecordRead): RecordRead {
  for (const c of rest.flat())
    for (const o of c.spec.oracles) judge(c, o, notJudged('not sent: the case had become unreadable'));
  return r;
}

/** Records a cell's answer: answered judged, taken from the status. */
async function take(_org: Organisation, id: Id, c: SentCell, a: Answer): Promise<void> {
  c.record = id;
  answered(c, a, label(c));
  c.taken = ok(a) ? true : refused(a) ? false : undefined;
  if (a.res && ok(a) && c.taken) {
    const json = a.res.json as { id?: unknown } | undefined;
    if (json && typeof json === 'object' && json.id !== undefined && json.id !== id)
      judge(c, 'stored', failed(`${label(c)}: the answer shows case ${String(json.id)}, not case ${id}`, [c.exchange]));
  }
}
