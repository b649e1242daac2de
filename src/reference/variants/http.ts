/** Variants of HTTP traffic and ids: rate limits, the JSON media type's parameters, id ranges. */
import { randomInt } from 'node:crypto';
import { type Id, idPlus } from '../../spec/index.ts';
import { HttpError } from '../http.ts';
import { variant } from '../switches.ts';

/** http.rate-limit: requests per second per credential (or per client at the token endpoint). */
const RATE = 50;
/** ids.large-sparse: the first id is above this; each next one up to GAP above the last. */
const FIRST = 10 ** 12;
const GAP = 1000;
/**
 * ids.above-2^53: the first id is above this (2^62, where Snowflake-style ids and 64-bit sequences live), far
 * beyond 2^53: JSON.parse reads every such id as another number.
 */
const FIRST_BEYOND_2_53 = 2n ** 62n;

/** An id sequence from above `first`, each next id 1 to GAP above the last. */
const sparseFrom =
  (first: Id) =>
  (last: Id): Id =>
    idPlus(last < first ? first : last, randomInt(1, GAP + 1));

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
];
