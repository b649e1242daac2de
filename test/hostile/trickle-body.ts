/** Sends headers, then one byte of body every 50 ms, forever. */
import { plain, type Hostile } from './support.ts';

export const trickleBody: Hostile = {
  behaviour: 'answers headers, then trickles the body one byte at a time, forever',
  exit: 3,
  code: 'SC_TARGET_UNREACHABLE',
  why:
    'the per-request timeout covers the whole exchange, so the token request times out, and so does the liveness ' +
    'read after it (its body trickles too)',
  timeoutMs: 1000,
  suites: 'token',
  start: () =>
    plain((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(timer));
    }),
};
