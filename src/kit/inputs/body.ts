/**
 * The body dimension of the input matrix on the endpoints that change records (issue 33 §1): the cells of
 * body-cells.ts sent in rounds on a few records, a round holding at most one body that may change a field (or a
 * check) beside any number that must change nothing, each record read once after its round and judged
 * (body-judge.ts). The records: a case for PATCH, two for the bulk updates (their customers too), one whose checks
 * the bulk check deletes name. Three lanes, one per set of records, run side by side.
 */
import { RawJson } from '../../client/encode.ts';
import type { Id } from '../../spec/id.ts';
import type { BodyVerdict, BodyWay } from '../../spec/inputs/body.ts';
import { mapLimit } from '../bulk.ts';
import { checkIds, customerOf, readCase, type CaseBody } from '../cases.ts';
import type { Harness, Organisation } from '../context.ts';
import { itemFields } from '../item-fields.ts';
import { failed, notJudged, pass, type CellVerdict } from './cell.ts';
import {
  type BodyCell,
  type BodyRecords,
  CHECK_CELLS_NEED,
  type ItemFieldChoice,
  recordBodyCells,
} from './body-cells.ts';
import { bodyLabel, judgeBodyRound, type RecordState, slotsOf } from './body-judge.ts';
import { read as readCaseRecord } from './patch.ts';
import { answerOf, type Answer, ok, refused, tagger } from './send.ts';

/** Records a cell's answer and judges answered: a 2xx or a 4xx, never a 5xx or silence. */
export function answeredBody(c: BodyCell, a: Answer): void {
  c.exchange = a.res?.exchange;
  if (a.res) {
    c.status = a.res.status;
    c.answer = a.res.json;
  }
  const judged = c.exchange ? [c.exchange] : [];
  if (a.silent !== undefined) c.verdicts.answered = failed(`${bodyLabel(c)}: no answer (${a.silent})`, judged);
  else if (ok(a) || refused(a)) c.verdicts.answered = pass(undefined, judged);
  else c.verdicts.answered = failed(`${bodyLabel(c)}: HTTP ${a.res!.status} (a 2xx or a 4xx conforms)`, judged);
}

/** Sends a cell's body, as it is, with its Content-Type, to its endpoint. */
async function send(org: Organisation, c: BodyCell): Promise<void> {
  const body = new RawJson(c.text);
  // An unlabelled body goes without the header (the client leaves out a Content-Type given as '').
  const options = { headers: { 'content-type': c.spec.kind === 'unlabelled' ? '' : c.media } };
  const api = org.api;
  const way = c.spec.field;
  const request =
    way === 'patch'
      ? api.patchCase(c.records[0]!, body, options)
      : way === 'bulk-cases'
        ? api.bulkUpdateCases(body, options)
        : way === 'bulk-customers'
          ? api.bulkUpdateCustomers(body, options)
          : api.bulkDeleteChecks(body, options);
  answeredBody(c, await answerOf(request));
}

/** A read of a case, as judging a round needs it: its body after the round, or why there is none. */
async function read(org: Organisation, id: Id): Promise<Pick<RecordState, 'after' | 'read' | 'problem'>> {
  const r = await readCaseRecord(org, id);
  return {
    ...(r.body ? { after: r.body } : {}),
    ...(r.res ? { read: r.res } : {}),
    ...(r.problem ? { problem: r.problem } : {}),
  };
}

/** Whether a cell may change what it names (a value taken), or must change nothing whatever it is answered. */
const mayChange = (c: BodyCell) => ['accept', 'open', 'one-of'].includes(c.spec.verdict) && slotsOf(c).length > 0;

/**
 * The rounds of a lane: each holds at most one body that may change a slot (a field of a record, a check); the
 * bodies that must change nothing go in the first, sent after its others (a value of theirs a read shows is told
 * apart by its tag, and then the body it overwrote is not judged).
 */
export function planBodyRounds(cells: readonly BodyCell[]): BodyCell[][] {
  const rounds: { takers: BodyCell[]; slots: Set<string> }[] = [];
  for (const c of cells.filter(mayChange)) {
    const slots = slotsOf(c);
    let r = rounds.find((x) => slots.every((s) => !x.slots.has(s)));
    if (!r) rounds.push((r = { takers: [], slots: new Set() }));
    r.takers.push(c);
    for (const s of slots) r.slots.add(s);
  }
  const rest = cells.filter((x) => !mayChange(x));
  if (!rounds.length) return rest.length ? [rest] : [];
  return rounds.map((r, i) => [...r.takers, ...(i === 0 ? rest : [])]);
}

/** What the run found of a set of records, and how to make fresh ones (a body sent alone). */
interface Lane {
  cells: BodyCell[];
  states: Map<Id, RecordState>;
  /** The same cell on fresh records: its answer and their reads. */
  alone: (c: BodyCell) => Promise<CellVerdict>;
}

/** Sends a lane's rounds, reads its records after each, and judges. */
async function runLane(org: Organisation, lane: Lane, verdictOf: (c: BodyCell) => BodyVerdict): Promise<void> {
  const retired = new Set<Id>();
  for (const round of planBodyRounds(lane.cells)) {
    const live = round.filter((c) => !c.records.some((r) => retired.has(r)));
    for (const c of round.filter((x) => !live.includes(x)))
      for (const o of c.spec.oracles) c.verdicts[o] = notJudged('not sent: its case no longer answered reads');
    for (const c of live) await send(org, c);
    const ids = [...new Set(live.flatMap((c) => c.records))];
    for (const id of ids) Object.assign(lane.states.get(id)!, await read(org, id));
    judgeBodyRound(live, new Map(ids.map((id) => [id, lane.states.get(id)!])), verdictOf);
    for (const c of live.filter((x) => x.spec.oracles.includes('readable') && x.status !== undefined)) {
      if (!(c.status! >= 200 && c.status! < 300)) c.verdicts.readable = pass('refused: nothing taken');
      else if (c.records.every((id) => lane.states.get(id)!.after)) c.verdicts.readable = pass();
      else c.verdicts.readable = await lane.alone(c);
    }
    for (const id of ids) {
      const st = lane.states.get(id)!;
      if (st.after) st.before = st.after;
      else retired.add(id);
      delete st.after;
      delete st.problem;
    }
  }
}

/** Which field bulk items take, of those tried in order (the one rule of kit/item-fields.ts); undefined: none. */
async function firstTaken<F extends string>(
  h: Harness,
  fields: readonly F[],
  id: Id,
  value: (field: F) => unknown,
  sendAlone: (item: Record<string, unknown>) => ReturnType<Organisation['api']['bulkUpdateCases']>,
): Promise<F | undefined> {
  for (const field of fields) {
    const found = await itemFields(h, [field], {
      item: (f) => ({ id, [f]: value(f as F) }),
      sendAlone,
      key: () => ({ id }),
    });
    if (found.taken.length) return field;
  }
  return undefined;
}

/** The state a read shows, before anything is sent. */
const stateOf = (body: CaseBody): RecordState => ({ before: body });

/** Sends and judges every body cell of the endpoints that change records. */
export async function runBodyMatrix(h: Harness): Promise<BodyCell[]> {
  const org = h.primary;
  const tag = tagger();
  const externalId = (label: string) => org.provision.externalId(label);
  const withChecks = { checks: Array.from({ length: CHECK_CELLS_NEED + 1 }, () => ({ check_type: 'PEP' as const })) };
  const [patchCase, one, two, checksCase] = await mapLimit([{}, {}, {}, withChecks], 4, (input) =>
    org.provision.createCase(input),
  );
  const [c1, c2] = [customerOf(one!).id, customerOf(two!).id];
  // Which field a bulk item writes: one the items take, by the answer to an item carrying it alone.
  const fields: ItemFieldChoice = {
    case: await firstTaken(
      h,
      ['delete_after', 'metadata'] as const,
      one!.id,
      (f) => (f === 'delete_after' ? 4243 : { screenconf_body: 'item' }),
      (item) => org.api.bulkUpdateCases({ items: [item] }),
    ),
    customer: await firstTaken(
      h,
      ['full_name', 'external_id'] as const,
      c1,
      (f) => (f === 'full_name' ? 'Screenconf Body Item' : externalId('body-item')),
      (item) => org.api.bulkUpdateCustomers({ items: [item] }),
    ),
  };
  const reads = await mapLimit([patchCase!, one!, two!, checksCase!], 4, (c) =>
    readCase(org, c.id, `reading case ${c.id} before the body cells`),
  );
  const records: BodyRecords = {
    patch: patchCase!.id,
    cases: [one!.id, two!.id],
    customers: [c1, c2],
    checksCase: checksCase!.id,
    checks: checkIds(reads[3]!).slice(0, CHECK_CELLS_NEED),
  };
  const cells = recordBodyCells(records, fields, tag, externalId);
  const states = new Map(reads.map((r) => [r.id, stateOf(r)] as const));
  const untaken = (c: BodyCell) =>
    (c.spec.field === 'bulk-cases' && !fields.case) || (c.spec.field === 'bulk-customers' && !fields.customer);
  // A bulk item's whitespace-framed body is judged as taken where the items were found to take its field.
  const verdictOf = (c: BodyCell): BodyVerdict => (c.spec.verdict === 'accept' && untaken(c) ? 'open' : c.spec.verdict);
  const alone = (c: BodyCell) => sendAlone(org, c, fields, tag, externalId);
  const lane = (ways: BodyWay[]): Lane => ({ cells: cells.filter((c) => ways.includes(c.spec.field)), states, alone });
  await mapLimit([lane(['patch']), lane(['bulk-cases', 'bulk-customers']), lane(['bulk-checks'])], 3, (l) =>
    runLane(org, l, verdictOf),
  );
  return cells;
}

/** A cell sent alone on fresh cases, which are read: whether a body taken leaves its case readable. */
async function sendAlone(
  org: Organisation,
  c: BodyCell,
  fields: ItemFieldChoice,
  tag: () => string,
  externalId: (label: string) => string,
): Promise<CellVerdict> {
  const made = await mapLimit([0, 1], 2, () => org.provision.createCase());
  const [a, b] = [made[0]!, made[1]!];
  const records: BodyRecords = {
    patch: a.id,
    cases: [a.id, b.id],
    customers: [customerOf(a).id, customerOf(b).id],
    checksCase: a.id,
    checks: [],
  };
  const fresh = recordBodyCells(records, fields, tag, externalId, c.spec.field).find((x) => x.spec.id === c.spec.id)!;
  await send(org, fresh);
  const judged = [c.exchange, fresh.exchange].filter((e) => e !== undefined);
  if (!(fresh.status! >= 200 && fresh.status! < 300))
    return notJudged('not taken when sent alone to a fresh case: cannot tell which body left the case unreadable');
  for (const id of fresh.records) {
    const r = await read(org, id);
    if (!r.after)
      return failed(
        `${bodyLabel(c)}: taken, then its case answers no read (${r.problem}); sent alone to fresh case ${id}, the ` +
          'same',
        [...judged, ...(r.read ? [r.read.exchange] : [])],
      );
  }
  return notJudged('sent alone to a fresh case, that case still answers reads: another body of the round did it');
}
