/** Issues tokens, then never answers an API request: the run must give up on it in bounded time. */
import { proxy, relay, type Hostile } from './support.ts';

export const apiSilent: Hostile = {
  behaviour: 'issues tokens, never answers any other request (default timeouts)',
  exit: 3,
  code: 'SC_INCOMPLETE',
  why:
    'an API request times out, and so does the liveness read of its URL sent right after (the answered token ' +
    'requests say nothing of the API): the target is gone, nothing more is sent, and the run ends within a minute',
  suites: 'case-patch,case-delete,bulk-cases,tenant',
  // Two default timeouts (15 s each) before the run gives up, on a machine that may be busy: the
  // bound only catches a hang (the 60 s target itself is measured by npm run bench).
  boundMs: 240_000,
  start: () =>
    proxy(async (req, forward, res) => {
      if (req.path.startsWith('/api/oauth/token/')) relay(res, await forward());
    }),
};
