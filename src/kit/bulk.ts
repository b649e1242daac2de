/**
 * What the bulk suites share: judging a bulk answer and its per-item report, keeping the bulk
 * exchange in the evidence of a failure found while reading back, the skeleton of a generated
 * mixed batch (items in a generated order, what failing items name read before, everything
 * named read back after), and bounded concurrency for the hundred cases a 100-item batch needs.
 */
import { randomInt } from 'node:crypto';
import type { JsonObject } from '../base/json.ts';
import type { ReceivedResponse } from '../client/transport.ts';
import { type Exchange, UNKNOWN_ID_FLOOR } from '../results/exchange.ts';
import type { Expectation } from '../results/failure.ts';
import { ConformanceFailure, excerpt, fail, fieldsTaken, fieldsUnequal } from './assert.ts';
import type { BulkReport, BulkRequestItem } from './bulk-report.ts';
import { type ExpectedItem, readBulkReport, shownBody } from './bulk-verdict.ts';
import type { Harness } from './context.ts';

/**
 * The answer to a bulk request is one of `statuses` with a JSON body. The suites judge a batch's status by the two
 * rules below, never with statuses of their own; this stays for users' own checks.
 */
export function expectBulkAnswer(res: ReceivedResponse, statuses: readonly number[] | '2xx', what: string): void {
  const ok = statuses === '2xx' ? res.status >= 200 && res.status < 300 : statuses.includes(res.status);
  const status = statuses === '2xx' ? ['2xx'] : statuses.map(String);
  const judged = { judged: [res], expect: { status } };
  if (!ok)
    fail(what, `HTTP ${statuses === '2xx' ? 'a 2xx' : statuses.join(' or ')} with a JSON body`, excerpt(res), judged);
  if (res.json === undefined) fail(`${what}: body`, 'a JSON body', excerpt(res), { judged: [res] });
}

/**
 * The status of a batch's answer, one rule for every batch within the limit, whether some items fail or none:
 * "Success: 200 with JSON body" (interface § Endpoints, each bulk endpoint), and a batch with failing items is not
 * a failed request ("report failures per item rather than failing the whole request", § Errors 1), so it is a
 * success and gets that answer. A 207 Multi-Status is another answer than the one shown. Judged by the
 * requirements of a batch's own answer (BULK-*-ACCEPT-100, BULK-*-PARTIAL, BULK-CUSTOMERS-BY-EXTERNAL-ID).
 */
export function expectBatchSuccess(res: ReceivedResponse, what: string): void {
  expectBulkAnswer(res, [200], what);
}

/**
 * A batch's answer read for its per-item report (BULK-*-REPORTED, UNIQUE-BULK-REPORTED, TENANT-BULK-*-REPORTED): a
 * 2xx with a JSON body to read it from. Its status is expectBatchSuccess's to judge, in the checks of the batch's
 * own answer, so one defect fails one requirement.
 */
export function expectBatchReport(res: ReceivedResponse, what: string): void {
  expectBulkAnswer(res, '2xx', what);
}

/**
 * The answer to a batch one over the limit ("maximum length 100", § Endpoints; § Limits), one rule for the three
 * bulk endpoints. The body breaks the limit, so no item may be applied; how that is answered is not shown (error
 * statuses: not shown; failures are reported per item, § Errors 1). Rejecting the request whole (any 4xx) and
 * answering 2xx with the items reported failed both conform; an item reported as a success does not, nor does any
 * other status (a 5xx never). Whether anything was applied is judged by the check's reads. Returns how the batch
 * was answered, for an observation.
 */
export function expectOverLimitRefused(
  t: Harness,
  res: ReceivedResponse,
  request: readonly BulkRequestItem[],
  what: string,
): string {
  if (res.status >= 400 && res.status <= 499) return `rejected whole (HTTP ${res.status})`;
  if (res.status < 200 || res.status > 299) {
    const why = res.status >= 500 ? ' (a 5xx never conforms)' : '';
    fail(what, `a 4xx, or a 2xx reporting no item as a success${why}`, excerpt(res), {
      judged: [res],
      expect: { status: ['2xx', '4xx'] },
    });
  }
  const report = readBulkReport(t, res, request);
  if (!report.recognised) return `HTTP ${res.status}, its per-item report unrecognised (judged by the reads alone)`;
  const succeeded = report.items.flatMap((s, i) => (s === 'succeeded' || s === 'contradictory' ? [i] : []));
  if (succeeded.length)
    fail(
      `${what}: the per-item report`,
      'no item reported as a success (the batch is over the limit: none may be applied)',
      `${succeeded.length} of ${request.length} reported as a success, item ${succeeded[0]} at ` +
        `${report.where[succeeded[0]!]!.join(', ')}\nshape recognised: ${report.shape}\nbody: ${shownBody(res)}`,
      { judged: [res] },
    );
  const failed = report.items.filter((s) => s === 'failed').length;
  const how = `${failed} of ${request.length} items reported failed, none as a success`;
  return `HTTP ${res.status}, ${how} (${report.shape})`;
}

/**
 * Runs `fn` (the reads that follow a bulk request); when it finds a failure, the bulk request is one of the
 * exchanges the failure judged (the reads show what it did).
 */
export async function keepingEvidence<T>(
  _t: Harness,
  exchange: Exchange | undefined,
  fn: () => Promise<T>,
): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ConformanceFailure) err.alsoJudged([exchange]);
    throw err;
  }
}

/** Sends one request and keeps its exchange, the evidence keepingEvidence puts first. */
export async function exchanged(
  t: Harness,
  request: () => Promise<ReceivedResponse>,
): Promise<{ res: ReceivedResponse; exchange: Exchange | undefined }> {
  const res = await request();
  return { res, exchange: t.exchanges.at(-1) };
}

/** A batch as sent: its items in request order, the answer, its exchange, and a description for messages. */
export interface BulkSent<E extends ExpectedItem> {
  entries: E[];
  res: ReceivedResponse;
  exchange: Exchange | undefined;
  what: string;
}

/**
 * The planned items in the order a generated list of numbers gives them (ties keep the plan's order), each with its
 * index.
 */
export function inOrder<T extends object>(planned: readonly T[], order: readonly number[]): (T & { index: number })[] {
  return planned
    .map((_, k) => k)
    .sort((a, b) => order[a]! - order[b]! || a - b)
    .map((k, index) => ({ ...planned[k]!, index }));
}

/** `0: label, 1: label`: the items of a batch, for its description. */
export function itemLabels(entries: readonly ExpectedItem[]): string {
  return entries.map((e) => `${e.index}: ${e.label}`).join(', ');
}

/** The valid items a report calls failed (or both): only those can make the report wrong once read back. */
export function validReportedFailed<E extends ExpectedItem & { valid: boolean }>(
  report: BulkReport,
  entries: readonly E[],
): E[] {
  return entries.filter(
    (e) => e.valid && (report.items[e.index] === 'failed' || report.items[e.index] === 'contradictory'),
  );
}

/** An item of a mixed batch, and what it names with the state that was last read of it. */
export interface MixedEntry<T, S> extends ExpectedItem {
  item: JsonObject;
  /** Whether the item must be applied; failing items must change nothing. */
  valid: boolean;
  /** What the item names and who can read it (none for unknown ids); `key` names it in MixedSetup.known. */
  target?: T & { key: string; before?: S };
}

/**
 * What mixed batches act on, shared by a file's mixed-batch checks (each run writes new values), a
 * peer's resource, and the state each was last read in: reads are what a run against a
 * rate-limited server spends most on, so a failing item's target is compared with its last read.
 */
export interface MixedSetup<P, S> {
  pool: P[];
  peer?: P;
  known: Map<string, S>;
}

/** How a mixed-batch suite reads what its items name, and judges what it reads. */
export interface ReadBack<T, S> {
  /** 'case', 'customer': what a target is, for messages. */
  noun: string;
  /** Reads a target; `after` (`after the bulk update of …`) goes in the failure message. */
  read(target: T, after?: string): Promise<S>;
  /** How the target differs from what a valid item sent; empty when the item was applied. */
  notApplied(read: S, item: JsonObject): string[];
  /** The values of an item (the fields it sets, not those naming its target) a target read back is judged on. */
  sets(read: S, item: JsonObject): JsonObject;
  /** How the target changed between two reads; empty when it did not. */
  changed(before: S, after: S): string[];
  /** Sends an item alone (a batch of one) to its endpoint. */
  sendAlone(target: T, item: JsonObject): Promise<ReceivedResponse>;
  /** What names an item's record in a bulk report (its id, or external_id). */
  key(item: JsonObject): BulkRequestItem;
}

/**
 * Before a mixed batch is sent: with `before`, learns the state of what its failing items name
 * (from their last read, or by reading them); then forgets the last read of everything it names.
 */
export async function learnBefore<T, S>(
  entries: readonly MixedEntry<T, S>[],
  setup: MixedSetup<unknown, S>,
  rb: ReadBack<T, S>,
  before: boolean,
): Promise<void> {
  for (const e of entries) {
    if (!before || e.valid || !e.target) continue;
    e.target.before = setup.known.get(e.target.key) ?? (await rb.read(e.target));
  }
  // What the batch does to its targets is known again only once they are read back.
  for (const e of entries) if (e.target) setup.known.delete(e.target.key);
}

/** What a read back showed wrong: in words, the read, and what it must show (for a reproduction script). */
export interface ReadBackProblem {
  text: string;
  read: unknown;
  expect?: Expectation;
}

/** What read-back shows is wrong: valid items not applied, failing items that changed their target. */
export async function readBackProblems<T, S>(
  t: Harness,
  sent: BulkSent<MixedEntry<T, S>>,
  setup: MixedSetup<unknown, S>,
  rb: ReadBack<T, S>,
): Promise<ReadBackProblem[]> {
  const problems: ReadBackProblem[] = [];
  for (const e of sent.entries) {
    if (!e.target) continue;
    const read = await rb.read(e.target, `after the ${sent.what}`);
    setup.known.set(e.target.key, read);
    if (e.valid) {
      const wrong = rb.notApplied(read, e.item);
      // Which fields an item takes is "not shown": an item refused alone too is one the server does not take,
      // not one a failing neighbour kept out (what the refusal left is read again by the next batch).
      if (wrong.length && (await refusedAlone(t, rb, e.target, e.item))) {
        setup.known.delete(e.target.key);
        continue;
      }
      if (wrong.length)
        problems.push({
          text: `item ${e.index} (${e.label}) not applied: ${wrong.join(', ')}`,
          read,
          expect: { fields: fieldsUnequal(read as JsonObject, rb.sets(read, e.item)) },
        });
    } else if (e.target.before) {
      const changed = rb.changed(e.target.before, read);
      // A value the failing item sent, taken, is what a replay can look for; another change is told in words.
      // Only one the record did not hold before the batch: one it held (a default, sent again) a conforming
      // server shows too.
      const taken = fieldsTaken(read as JsonObject, rb.sets(read, e.item), e.target.before as JsonObject);
      if (changed.length)
        problems.push({
          text: `item ${e.index} (${e.label}) failed but changed the ${rb.noun}: ${changed.join(', ')}`,
          read,
          ...(taken.length ? { expect: { unlike: taken } } : {}),
        });
    }
  }
  return problems;
}

/**
 * Whether an item sent alone (a batch of one) is refused by the answer: a 4xx, or the item reported failed. Which
 * fields a bulk item takes is "not shown", so a valid item refused alone is one the server does not take; one
 * answered as taken must be applied, alone as in a batch.
 */
export async function refusedAlone<T, S>(
  t: Harness,
  rb: ReadBack<T, S>,
  target: T,
  item: JsonObject,
): Promise<boolean> {
  return aloneRefused(t, await rb.sendAlone(target, item), rb.key(item));
}

/** Whether the answer to a batch of one item refuses it: a 4xx, or the item reported failed. */
export function aloneRefused(t: Harness, res: ReceivedResponse, key: BulkRequestItem): boolean {
  return (res.status >= 400 && res.status <= 499) || readBulkReport(t, res, [key]).items[0] === 'failed';
}

/** Fails with the problems read back, judging the first one's read (with what it must show). */
export function failReadBack(what: string, expected: string, problems: readonly ReadBackProblem[]): void {
  const first = problems[0];
  if (!first) return;
  fail(what, expected, someOf(problems.map((p) => p.text)), {
    judged: [first.read],
    ...(first.expect ? { expect: first.expect } : {}),
  });
}

/**
 * The valid items the report calls failed that were in fact applied (read back): only those
 * make the report wrong; a valid item not applied is the PARTIAL requirement's defect.
 */
export async function appliedButReportedFailed<T, S>(
  t: Harness,
  sent: BulkSent<MixedEntry<T, S>>,
  request: readonly BulkRequestItem[],
  rb: ReadBack<T, S>,
  setup: MixedSetup<unknown, S>,
): Promise<MixedEntry<T, S>[]> {
  const suspects = validReportedFailed(readBulkReport(t, sent.res, request), sent.entries);
  const applied: MixedEntry<T, S>[] = [];
  for (const e of suspects) {
    if (!e.target) continue;
    const read = await rb.read(e.target);
    setup.known.set(e.target.key, read);
    if (rb.notApplied(read, e.item).length > 0) continue;
    // Its values read back, yet the record may have held them before: an item refused alone too is one the server
    // does not take, and its values were there already.
    if (!(await refusedAlone(t, rb, e.target, e.item))) applied.push(e);
  }
  return applied;
}

/** The first few problems of a list, and how many more there are. */
export function someOf(problems: readonly string[], max = 4): string {
  return problems.slice(0, max).join('; ') + (problems.length > max ? `; and ${problems.length - max} more` : '');
}

/** Maps with at most `limit` calls in flight, keeping order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  let failed: { err: unknown } | undefined;
  const worker = async () => {
    while (next < items.length && !failed) {
      const i = next++;
      try {
        out[i] = await fn(items[i]!, i);
      } catch (err) {
        failed ??= { err };
      }
    }
  };
  // The first failure stops new calls; it is thrown once the calls in flight have ended, so nothing
  // the caller started goes on after it has the error (a lock released, a pool made again).
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failed) throw failed.err;
  return out;
}

/** An integer id no resource is likely to have: near the top of the int32 range. */
export function unknownId(): number {
  return UNKNOWN_ID_FLOOR + randomInt(0, 80_000);
}
