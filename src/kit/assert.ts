/**
 * Assertions that read as verdicts: each failure says what was checked, what was expected and
 * what the server sent ("Expected / Received").
 */
import { stringifyJson } from '../base/json.ts';
import type { z } from 'zod';
import type { JsonObject } from '../base/json.ts';
import { exchangeOfBody, type ReceivedResponse } from '../client/transport.ts';
import type { Exchange } from '../results/exchange.ts';
import { ConformanceFailure, type Expectation } from '../results/failure.ts';

export { ConformanceFailure };

const EXCERPT = 600;

export function excerpt(res: ReceivedResponse): string {
  const body = res.text.length > EXCERPT ? `${res.text.slice(0, EXCERPT)}… (${res.text.length} chars)` : res.text;
  return `HTTP ${res.status}${body ? ` ${body}` : ''}`;
}

/**
 * What a failed assertion judged: the answers whose content broke the requirement, as responses, their exchanges,
 * or the JSON bodies read from them (a body parsed by the transport knows the exchange it came in).
 */
export type Judged = ReceivedResponse | Exchange | object | null | undefined | unknown;

export interface FailOptions {
  judged?: readonly Judged[];
  /** What the judged answer must show, as data (for the reproduction script). */
  expect?: Expectation;
}

function isExchange(x: object): x is Exchange {
  return 'request' in x && 'at' in x && 'durationMs' in x;
}

/** The exchanges of what a failure judged: responses, exchanges, and bodies by the exchange they came in. */
export function exchangesOf(judged: readonly Judged[] | undefined): (Exchange | undefined)[] {
  return (judged ?? []).map((x) => {
    if (x === undefined || x === null || typeof x !== 'object') return undefined;
    if ('exchange' in x && 'status' in x && 'text' in x) return (x as ReceivedResponse).exchange;
    return isExchange(x) ? x : exchangeOfBody(x);
  });
}

/** Throws a ConformanceFailure: what was checked, what a conforming server does, what this one did. */
export function fail(what: string, expected: string, received: string, options: FailOptions = {}): never {
  throw new ConformanceFailure({
    what,
    expected,
    received,
    judged: exchangesOf(options.judged),
    ...(options.expect ? { expect: options.expect } : {}),
  });
}

export function expectStatus(res: ReceivedResponse, expected: number | readonly number[], what: string): void {
  const list = typeof expected === 'number' ? [expected] : expected;
  if (!list.includes(res.status))
    fail(what, `HTTP ${list.join(' or ')}`, excerpt(res), { judged: [res], expect: { status: list.map(String) } });
}

export function expectSuccess(res: ReceivedResponse, what: string): void {
  if (res.status < 200 || res.status > 299)
    fail(what, 'a 2xx status', excerpt(res), { judged: [res], expect: { status: ['2xx'] } });
}

/**
 * A rejection, where the interface says "rejected" without saying how: any 4xx conforms, a 5xx
 * never does (nor does a 2xx or 3xx).
 */
export function expectRejected(res: ReceivedResponse, what: string): void {
  if (res.status >= 400 && res.status <= 499) return;
  const why = res.status >= 500 ? ' (a 5xx never conforms: a rejection is a 4xx)' : '';
  fail(what, `a 4xx rejection${why}`, excerpt(res), { judged: [res], expect: { status: ['4xx'] } });
}

/**
 * The answer to a client's mistake the interface does not say how to answer: a 2xx (accepted, or
 * reported per item) or a 4xx conforms; a 5xx never does (nor a 1xx or 3xx).
 */
export function expectNoServerError(res: ReceivedResponse, what: string): void {
  if ((res.status >= 200 && res.status <= 299) || (res.status >= 400 && res.status <= 499)) return;
  const why = res.status >= 500 ? " (a 5xx never answers a client's mistake)" : '';
  fail(what, `a 2xx or a 4xx${why}`, excerpt(res), { judged: [res], expect: { status: ['2xx', '4xx'] } });
}

/**
 * The one rule for a DELETE of a case that does not exist for the caller: an id that never named a case, a case
 * deleted already, another organisation's case, a path id that is no integer. The interface shows no status for
 * DELETE at all ("Success status code and response body: not shown"), and DELETE is idempotent (RFC 9110 §9.2.2):
 * a 4xx and a 2xx that does nothing both conform; a 5xx never does (nor a 1xx or 3xx). That nothing else changed
 * is judged by the check's reads of what it must have left alone.
 */
export function expectDeleteOfNoCase(res: ReceivedResponse, what: string): void {
  if ((res.status >= 200 && res.status <= 299) || (res.status >= 400 && res.status <= 499)) return;
  const why = res.status >= 500 ? ' (a 5xx never conforms)' : '';
  fail(what, `a 4xx, or a 2xx that deletes nothing${why}`, excerpt(res), {
    judged: [res],
    expect: { status: ['2xx', '4xx'] },
  });
}

/** Parses with a schema; a mismatch lists every issue with its path. `judged`: the answer the value came in. */
export function expectSchema<T extends z.ZodType>(
  schema: T,
  value: unknown,
  what: string,
  judged: readonly Judged[] = [value as Judged],
): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues
    .slice(0, 8)
    .map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`)
    .join('; ');
  const body = stringifyJson(value)?.slice(0, EXCERPT);
  return fail(what, 'a body matching the schema', `${issues}\nbody: ${body}`, { judged });
}

const asJson = (v: unknown) => (v === undefined ? 'absent' : stringifyJson(v));

/**
 * The fields of `wanted` a body read back does not hold with their value (missing: "absent"), as an
 * expectation a reproduction script checks.
 */
export function fieldsUnequal(read: JsonObject, wanted: JsonObject): NonNullable<Expectation['fields']> {
  return Object.entries(wanted)
    .filter(([name, value]) => !deepEqual(read[name], value))
    .map(([name, value]) => ({ name, expected: asJson(value), received: asJson(read[name]) }));
}

/**
 * The fields of `sent` a body read back holds with the value sent: values a conforming answer does not hold. With
 * `before` (the record as read before the request), only values that differ from what it held then: a value it
 * already had (webhook_url null by default) is shown by a conforming server too, and says nothing.
 */
export function fieldsTaken(
  read: JsonObject,
  sent: JsonObject,
  before?: JsonObject,
): NonNullable<Expectation['unlike']> {
  return Object.entries(sent)
    .filter(([name, value]) => name in read && deepEqual(read[name], value))
    .filter(([name, value]) => !before || !(name in before && deepEqual(before[name], value)))
    .map(([name, value]) => ({ name, value: asJson(value) }));
}

/** The top-level keys two objects differ in (none when either is not an object). */
function differingKeys(actual: unknown, expected: unknown): string[] {
  const isObject = (v: unknown): v is Record<string, unknown> =>
    v !== null && typeof v === 'object' && !Array.isArray(v);
  if (!isObject(actual) || !isObject(expected)) return [];
  const keys = [...new Set([...Object.keys(actual), ...Object.keys(expected)])];
  return keys.filter((k) => !deepEqual(actual[k], expected[k]));
}

/**
 * Equal values (JSON, Unicode compared as NFC). `options.judged`: the answers (or bodies) the value was read from;
 * `field`: the top-level field of that body the value is, so a reproduction can check it; two objects are taken
 * as bodies and their differing fields are the ones checked.
 */
export function expectEqual(
  actual: unknown,
  expected: unknown,
  what: string,
  options: { judged: readonly Judged[]; field?: string },
): void {
  if (deepEqual(actual, expected)) return;
  const field = (name: string, e: unknown, r: unknown) => ({ name, expected: asJson(e), received: asJson(r) });
  const a = actual as Record<string, unknown>;
  const e = expected as Record<string, unknown>;
  const fields = options.field
    ? [field(options.field, expected, actual)]
    : differingKeys(actual, expected).map((k) => field(k, e[k], a[k]));
  fail(what, asJson(expected), asJson(actual), {
    judged: options.judged,
    ...(fields.length ? { expect: { fields } } : {}),
  });
}

/**
 * JSON equality in which strings (values and keys) compare as canonically equivalent Unicode
 * (NFC): whether a server normalises text is not shown, so "é" stored as "e\u0301" is the
 * value that was sent.
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'string' && typeof b === 'string') return a.normalize('NFC') === b.normalize('NFC');
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => deepEqual(x, bb[i]));
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const ka = Object.keys(ra);
  const kb = Object.keys(rb);
  if (ka.length !== kb.length) return false;
  // Keys are looked up as sent first; by their NFC form only when that fails (rare).
  let byNfc: Map<string, string> | undefined;
  return ka.every((k) => {
    const other = Object.hasOwn(rb, k)
      ? k
      : (byNfc ??= new Map(kb.map((x) => [x.normalize('NFC'), x]))).get(k.normalize('NFC'));
    return other !== undefined && deepEqual(ra[k], rb[other]);
  });
}
