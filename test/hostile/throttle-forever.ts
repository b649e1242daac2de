/** Answers every request 429 with Retry-After: 1. */
import { plain, type Hostile } from './support.ts';

export const throttleForever: Hostile = {
  behaviour: 'answers 429 Retry-After: 1 to everything, forever',
  exit: 3,
  code: 'SC_TARGET_THROTTLED',
  why:
    'each request is retried 3 times after Retry-After, then the run gives up: it cannot judge a server it may ' +
    'not talk to',
  suites: 'token',
  start: () =>
    plain((_req, res) => {
      res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' });
      res.end('{"detail":"slow down"}');
    }),
};
