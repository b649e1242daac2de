/**
 * Assertions that read as verdicts: each failure says what was checked, what was expected and
 * what the server sent ("Expected / Received").
 */
import type { z } from 'zod';
import type { ReceivedResponse } from '../client/transport.ts';
import type { Exchange } from '../results/exchange.ts';
import { ConformanceFailure } from '../results/failure.ts';

export { ConformanceFailure };

const EXCERPT = 600;

export function excerpt(res: ReceivedResponse): string {
  const body = res.text.length > EXCERPT ? `${res.text.slice(0, EXCERPT)}… (${res.text.length} chars)` : res.text;
  return `HTTP ${res.status}${body ? ` ${body}` : ''}`;
}

/** What a failed assertion judged: the answers (their exchanges) whose content broke the requirement. */
export interface FailOptions {
  judged?: readonly (ReceivedResponse | Exchange | undefined)[];
}

function exchangesOf(judged: FailOptions['judged']): (Exchange | undefined)[] {
  return (judged ?? []).map((x) => (x && 'exchange' in x ? x.exchange : (x as Exchange | undefined)));
}

/** Throws a ConformanceFailure: what was checked, what a conforming server does, what this one did. */
export function fail(what: string, expected: string, received: string, options: FailOptions = {}): never {
  throw new ConformanceFailure({ what, expected, received, judged: exchangesOf(options.judged) });
}

export function expectStatus(res: ReceivedResponse, expected: number | readonly number[], what: string): void {
  const list = typeof expected === 'number' ? [expected] : expected;
  if (!list.includes(res.status)) fail(what, `HTTP ${list.join(' or ')}`, excerpt(res), { judged: [res] });
}

export function expectSuccess(res: ReceivedResponse, what: string): void {
  if (res.status < 200 || res.status > 299) fail(what, 'a 2xx status', excerpt(res), { judged: [res] });
}

/**
 * A rejection, where the interface says "rejected" without saying how: any 4xx conforms, a 5xx
 * never does (nor does a 2xx or 3xx).
 */
export function expectRejected(res: ReceivedResponse, what: string): void {
  if (res.status >= 400 && res.status <= 499) return;
  const why = res.status >= 500 ? ' (a 5xx never conforms: a rejection is a 4xx)' : '';
  fail(what, `a 4xx rejection${why}`, excerpt(res), { judged: [res] });
}

/** Parses with a schema; a mismatch lists every issue with its path. */
export function expectSchema<T extends z.ZodType>(schema: T, value: unknown, what: string): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues
    .slice(0, 8)
    .map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`)
    .join('; ');
  return fail(what, 'a body matching the schema', `${issues}\nbody: ${JSON.stringify(value)?.slice(0, EXCERPT)}`);
}

export function expectEqual(actual: unknown, expected: unknown, what: string): void {
  if (!deepEqual(actual, expected)) fail(what, JSON.stringify(expected), JSON.stringify(actual));
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
