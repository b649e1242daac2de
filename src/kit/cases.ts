/**
 * Reading cases back to compare states: the only way a check sees what a request changed. Also
 * what is read through a case (its customer, the ids of its checks), cases made with checks, and
 * fresh external_ids for generated values.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Organisation } from './context.ts';
import { stringifyJson } from '../base/json.ts';
import { Case, Check, Customer, type CheckType, compareIds, type Id, isId } from '../spec/index.ts';
import { ConformanceFailure, deepEqual, expectStatus, fail } from './assert.ts';
import { CASE_KEYS } from './case-shape.ts';

/** A case as read: its id is exact (a bigint beyond 2^53, src/spec/id.ts). */
export type CaseBody = Record<string, unknown> & { id: Id };

/**
 * Reads a case (GET, or an empty PATCH where GET is missing). Only status and identity are
 * checked here: judging the representation is the schema requirements' job, so a schema fault
 * is not blamed on every check that reads state.
 */
export async function readCase(org: Organisation, id: Id, what = `reading case ${id}`): Promise<CaseBody> {
  const res = await org.provision.readCase(id);
  expectStatus(res, 200, what);
  return expectCaseBody(res.json, id, what);
}

/** The first wait between two reads of a case being processed; each wait is half again as long, up to POLL_MAX_MS. */
const POLL_FIRST_MS = 15;
const POLL_MAX_MS = 1_000;

/**
 * Reads a case until `done` holds for a read or `timeoutMs` pass; the last read, and whether `done` held for it. The
 * waits between reads grow (15 ms, half again as long each time, at most 1 s): a fast target is seen done soon after
 * it is, a slow one costs a few dozen reads where a fixed 15 ms cost hundreds.
 */
export async function readUntil(
  org: Organisation,
  id: Id,
  timeoutMs: number,
  what: string,
  done: (body: CaseBody) => boolean,
): Promise<{ body: CaseBody; done: boolean }> {
  const deadline = Date.now() + timeoutMs;
  for (let wait = POLL_FIRST_MS; ; wait = Math.min(POLL_MAX_MS, wait * 1.5)) {
    const body = await readCase(org, id, what);
    if (done(body)) return { body, done: true };
    const left = deadline - Date.now();
    if (left <= 0) return { body, done: false };
    await sleep(Math.min(wait, left));
  }
}

/**
 * Reads a case until it shows is_complete true or `timeoutMs` pass (readUntil), handing each read to `seen`;
 * the last read, and whether it was complete.
 */
export async function readUntilComplete(
  org: Organisation,
  id: Id,
  timeoutMs: number,
  what: string,
  seen: (body: CaseBody) => void = () => {},
): Promise<{ body: CaseBody; complete: boolean }> {
  const { body, done } = await readUntil(org, id, timeoutMs, what, (read) => {
    seen(read);
    return read.is_complete === true;
  });
  return { body, complete: done };
}

/**
 * A case's state as created: the answer to its creation, which is its read representation by the
 * provisioning conventions (docs/architecture.md), so a check knows the state before its first
 * request without reading it. Read all the same when the answer lacks a field the interface says
 * is always present (a --provisioner adapter resolving to less than the case).
 */
export async function createdState(org: Organisation, created: CaseBody): Promise<CaseBody> {
  if (CASE_KEYS.every((k) => k in created)) return created;
  return readCase(org, created.id, `reading case ${created.id} as created`);
}

/**
 * The state before a request that must change nothing: as created (createdState, no read spent) or,
 * `fromRead`, as read. Judge with confirmedByRead, so a verdict never rests on the answer alone.
 */
export function stateBefore(org: Organisation, created: CaseBody, fromRead: boolean): Promise<CaseBody> {
  return fromRead
    ? readCase(org, created.id, `reading case ${created.id} before the request judged`)
    : createdState(org, created);
}

/**
 * Judges a request that must change nothing, first against the state a write answered (a creation's
 * or a PATCH's answer: `judge(false)`), which costs no read. A write's answer may show a case otherwise
 * than a read does and still conform (created_at to the millisecond where a read shows whole seconds,
 * a field it leaves out), so a failure found that way is no verdict: the judgement is made again with
 * `judge(true)` on cases set up afresh and read before the request, and only that verdict stands (two
 * reads differ only where the request changed the case). Costs requests only when the first fails.
 */
export async function confirmedByRead(judge: (fromRead: boolean) => Promise<void>): Promise<void> {
  try {
    await judge(false);
  } catch (err) {
    if (!(err instanceof ConformanceFailure)) throw err;
    await judge(true);
  }
}

/** The body is a JSON object with the case's id. */
export function expectCaseBody(json: unknown, id: Id, what: string): CaseBody {
  if (json === null || typeof json !== 'object' || Array.isArray(json) || (json as { id?: unknown }).id !== id) {
    fail(what, `a case object with id ${id}`, stringifyJson(json)?.slice(0, 300) ?? String(json), { judged: [json] });
  }
  return json as CaseBody;
}

/** The fields of the Case read representation the interface defines. */
export const CASE_FIELDS: ReadonlySet<string> = new Set(Object.keys(Case.shape));
/** The fields of the nested Customer the interface defines. */
export const CUSTOMER_FIELDS: ReadonlySet<string> = new Set(Object.keys(Customer.shape));

/** The fields of a nested Check the interface defines. */
export const CHECK_FIELDS: ReadonlySet<string> = new Set(Object.keys(Check.shape));

/** An object's fields of `fields`, updated_at aside; anything else as it is. */
function stableObject(value: unknown, fields: ReadonlySet<string>): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'updated_at' && fields.has(k)));
}

/**
 * A field's value as compared between two reads: the nested customer and checks keep their
 * interface-defined fields except updated_at (a save of the case may bump theirs: the interface
 * does not say it must not), and checks are taken in id order (their order is not shown).
 */
export function stableValue(field: string, value: unknown): unknown {
  if (field === 'customer') return stableObject(value, CUSTOMER_FIELDS);
  if (field !== 'checks' || !Array.isArray(value)) return value;
  const id = (k: unknown) => (k as { id?: unknown } | null)?.id;
  const ordered = [...value].sort((a, b) => {
    const [x, y] = [id(a), id(b)];
    return isId(x) && isId(y) ? compareIds(x, y) : 0;
  });
  return ordered.map((k) => stableObject(k, CHECK_FIELDS));
}

/**
 * A case's interface-defined fields, except those that move by themselves (updated_at, also of
 * its customer and checks: stableValue). Fields the interface does not define (a version, an etag)
 * may change on any write, so they are left out.
 */
export function stableFields(
  c: Record<string, unknown>,
  fields: ReadonlySet<string> = CASE_FIELDS,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(c)
      .filter(([k]) => k !== 'updated_at' && fields.has(k))
      .map(([k, v]) => [k, stableValue(k, v)]),
  );
}

/** A value for a message: its JSON, cut at 90 characters. */
export function show(value: unknown): string {
  const s = stringifyJson(value) ?? String(value);
  return s.length > 90 ? `${s.slice(0, 90)}… (${s.length} chars)` : s;
}

/** The interface-defined fields that differ between two reads (updated_at aside): `field before → after`. */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  fields: ReadonlySet<string> = CASE_FIELDS,
): string[] {
  const a = stableFields(before, fields);
  const b = stableFields(after, fields);
  return differing(a, b).map((k) => `${k} ${show(a[k])} → ${show(b[k])}`);
}

/** The names of the fields changedFields lists. */
export function changedNames(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  fields: ReadonlySet<string> = CASE_FIELDS,
): string[] {
  return differing(stableFields(before, fields), stableFields(after, fields));
}

function differing(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => !deepEqual(a[k], b[k]));
}

/** A customer as the run knows it, through the case that carries it: its id, external_id and summary as read. */
export interface CaseCustomer {
  caseId: Id;
  id: Id;
  externalId: string | null;
  read: Record<string, unknown>;
}

/** The customer a case carries; a failure when it has none with an integer id. */
export function customerOf(c: CaseBody): CaseCustomer {
  const k = c.customer as Record<string, unknown> | undefined;
  if (!k || !isId(k.id)) fail(`the customer of case ${c.id}`, 'an object with an integer id', show(k), { judged: [c] });
  return {
    caseId: c.id,
    id: k.id as Id,
    externalId: typeof k.external_id === 'string' ? k.external_id : null,
    read: k,
  };
}

/** The ids of a case's checks, in ascending order. */
export function checkIds(c: CaseBody): Id[] {
  const checks = Array.isArray(c.checks) ? (c.checks as unknown[]) : [];
  return checks
    .map((k) => (k as { id?: unknown } | null)?.id)
    .filter(isId)
    .sort(compareIds);
}

/** A case and the ids of its checks, as created. */
export interface CaseWithChecks {
  org: Organisation;
  caseId: Id;
  checks: Id[];
  /** The answer to its creation (the Case read representation, by the provisioning conventions). */
  created: CaseBody;
}

const CHECK_TYPES_CYCLE: readonly CheckType[] = ['PEP', 'SANCTIONS', 'ADVERSE_MEDIA'];

/**
 * Creates a case with `n` checks (PEP, SANCTIONS, ADVERSE_MEDIA, PEP…); read back when the answer does not show them.
 */
export async function caseWithChecks(org: Organisation, n: number): Promise<CaseWithChecks> {
  const created = await org.provision.createCase({
    checks: Array.from({ length: n }, (_, k) => ({ check_type: CHECK_TYPES_CYCLE[k % CHECK_TYPES_CYCLE.length]! })),
  });
  let ids = checkIds(created);
  if (ids.length !== n) ids = checkIds(await readCase(org, created.id));
  if (ids.length !== n)
    fail(`the checks of case ${created.id}, created with ${n}`, `${n} checks with integer ids`, show(ids), {
      judged: [created],
    });
  return { org, caseId: created.id, checks: ids, created };
}

/**
 * Generated external_ids for one use: generate them after the placeholder `slot`, and fresh()
 * swaps that for a prefix of the same length never used before, so no two values, checks or runs
 * share one and a value stays within its limit.
 */
export function freshExternalIds(org: Organisation, label: string): { slot: string; fresh: (value: string) => string } {
  const base = `${org.provision.externalIdPrefix}${label}-`;
  const slot = `${base}${'x'.repeat(8)}-`;
  let seq = 0;
  return {
    slot,
    fresh(value: string): string {
      seq += 1;
      return `${base}${seq.toString(36).padStart(4, '0')}${randomBytes(2).toString('hex')}-${value.slice(slot.length)}`;
    },
  };
}
