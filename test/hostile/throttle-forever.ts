/** Answers every request 429 with Retry-After: 1. */
import { plain, type Hostile } from './support.ts';

export const throttleForever: Hostile = {
  behaviour: 'answers 429 Retry-After: 1 to everything, forever',
  exit: 3,
  code: 'SC_TARGET_THROTTLED',
  why:
    "the run's first token request is retried after Retry-After within the ordinary budget (12 retries, 30 s), " +
    'then the run gives up: it cannot judge a server it may not talk to, and has created nothing to clean up',
  suites: 'token',
  start: () =>
    plain((_req, res) => {
      res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' });
      res.end('{"detail":"slow down"}');
    }),
};
