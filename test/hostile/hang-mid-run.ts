/** Works for a while, then stops answering (accepts requests, never responds). */
import { proxy, relay, type Hostile } from './support.ts';

export const hangMidRun: Hostile = {
  behaviour: 'answers normally for 30 requests, then never answers again',
  exit: 3,
  code: 'SC_INCOMPLETE',
  why:
    'after two requests in a row time out, the transport stops sending and the remaining checks report that ' +
    'they could not judge',
  timeoutMs: 4000,
  suites: 'case-patch',
  start: () =>
    proxy(async (req, forward, res) => {
      if (req.n > 30) return; // never answers
      relay(res, await forward());
    }),
};
