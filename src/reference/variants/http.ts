/** Variants of HTTP traffic and ids: rate limits, the JSON media type's parameters, id ranges. */
import { randomInt } from 'node:crypto';
import { type Id, idPlus, toId } from '../../spec/index.ts';
import { HttpError } from '../http.ts';
import { variant } from '../switches.ts';

/** http.rate-limit: requests per second per credential (or per client at the token endpoint). */
const RATE = 100;
/** ids.large-sparse: the first id is above this; each next one up to GAP above the last. */
const FIRST = 10 ** 12;
const GAP = 1000;
/**
 * ids.above-2^53: the first id is above this (2^62, where Snowflake-style ids and 64-bit sequences live), far
 * beyond 2^53: JSON.parse reads every such id as another number.
 */
const FIRST_BEYOND_2_53 = 2n ** 62n;
/** ids.doubles-above-2^53: the first id is above this; from it to 2^54 a double holds the even integers only. */
const FIRST_DOUBLE = 2n ** 53n;

/** An id sequence from above `first`, each next id 1 to GAP above the last. */
const sparseFrom =
  (first: Id) =>
  (last: Id): Id =>
    idPlus(last < first ? first : last, randomInt(1, GAP + 1));

/**
 * A JSON value as a server reading numbers as binary64 doubles has it (RFC 8259 § 6 allows it; Node's JSON.parse, Go's
 * interface{}): every number the double nearest it, and one that is an integer (5, 2^53 + 2, 2^53 + 2.5 rounded)
 * used as that integer, as such a server looks an id up. Keys are kept as own keys (`__proto__` too).
 */
export function asDoubles(v: unknown): unknown {
  if (typeof v === 'bigint' || typeof v === 'number') {
    const d = Number(v);
    return Number.isInteger(d) ? toId(BigInt(d)) : d;
  }
  if (Array.isArray(v)) return v.map(asDoubles);
  if (v !== null && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, asDoubles(x)]));
  return v;
}

/** A path's id as Number() reads it (a JavaScript server's `Number(req.params.id)`), or undefined when no integer. */
function pathIdAsDouble(idText: string): Id | undefined {
  let text: string;
  try {
    text = decodeURIComponent(idText);
  } catch {
    return undefined;
  }
  const d = Number(text);
  return text.trim() !== '' && Number.isInteger(d) && d > 0 ? toId(BigInt(d)) : undefined;
}

export const HTTP_VARIANTS = [
  variant(
    'http.rate-limit',
    `each credential (and each client at the token endpoint) may send ${RATE} requests a second; ` +
      'more answer 429 with Retry-After: 1',
    (base) => {
      const windows = new Map<string, { start: number; count: number }>();
      return {
        throttle(caller) {
          const now = Date.now();
          let w = windows.get(caller);
          if (!w || now - w.start >= 1000) windows.set(caller, (w = { start: now, count: 0 }));
          w.count += 1;
          if (w.count > RATE)
            throw new HttpError(429, 'throttled', `at most ${RATE} requests a second`, {}, { 'retry-after': '1' });
          base.throttle(caller);
        },
      };
    },
  ),
  variant(
    'http.connection-close',
    'every answer says Connection: close and its connection ends after it (no persistent connections: an HTTP/1.0 ' +
      'habit, a proxy configured so): a connection closed after a complete answer is no dropped request',
    () => ({ closeAfterAnswer: true }),
  ),
  variant(
    'http.charset',
    'JSON answers and webhooks say Content-Type: application/json; charset=utf-8 (the default has no parameter)',
    (base) => ({ contentType: (mediaType) => `${base.contentType(mediaType)}; charset=utf-8` }),
  ),
  variant(
    'ids.large-sparse',
    'ids of cases, customers and checks start above 10^12, with random gaps',
    () => ({ idAfter: sparseFrom(FIRST) }),
    'ids',
  ),
  variant(
    'ids.above-2^53',
    'ids of cases, customers and checks start above 2^62 (beyond 2^53, exact only as 64-bit integers), with random ' +
      'gaps',
    () => ({ idAfter: sparseFrom(FIRST_BEYOND_2_53) }),
    'ids',
  ),
  variant(
    'ids.doubles-above-2^53',
    'ids of cases, customers and checks start above 2^53, each an integer a double holds exactly (even, with random ' +
      "gaps), and numbers are read as doubles: a JSON body's by JSON.parse, a path's id by Number(), so 2^53 + 2.5 " +
      'is read as the id 2^53 + 2 (RFC 8259 § 6 lets a JSON parser read numbers as binary64)',
    (base) => ({
      idAfter: (last) => idPlus(last < FIRST_DOUBLE ? FIRST_DOUBLE : last, 2 * randomInt(1, GAP / 2 + 1)),
      decodeBody: (op, mediaType, body, header) => base.decodeBody(op, mediaType, asDoubles(body), header),
      caseId: (idText) => pathIdAsDouble(idText) ?? base.caseId(idText),
    }),
    'ids',
  ),
];
