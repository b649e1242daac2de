/** Works for a while, then stops answering (accepts requests, never responds). */
import { proxy, relay, type Hostile } from './support.ts';

export const hangMidRun: Hostile = {
  behaviour: 'answers normally for 30 requests, then never answers again',
  exit: 3,
  code: 'SC_INCOMPLETE',
  why:
    'a request times out, and so does the liveness read sent right after it: the target is gone, the transport ' +
    'stops sending and the remaining checks report that they could not judge (none is blamed)',
  timeoutMs: 4000,
  suites: 'case-patch',
  start: () =>
    proxy(async (req, forward, res) => {
      if (req.n > 30) return; // never answers
      relay(res, await forward());
    }),
  verify(report) {
    if (!report.summary.harnessFaults.some((f) => f.includes('the liveness read right after it got none either')))
      throw new Error(`the harness faults should say the liveness read got no answer: ${report.summary.harnessFaults}`);
  },
};
