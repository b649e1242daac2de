/** Works for a while, then resets every connection (a server that crashed mid-run). */
import { proxy, relay, type Hostile } from './support.ts';

export const resetMidRun: Hostile = {
  behaviour: 'answers normally for 30 requests, then resets every connection',
  exit: 3,
  code: 'SC_INCOMPLETE',
  why:
    'the checks after the crash get no answer, nor do the liveness reads after it (read again for a few seconds, ' +
    'as a process restarting would answer): the target is gone, so they cannot judge, which is a harness verdict, ' +
    'not a conformance failure of the checks that ran into it',
  suites: 'case-patch',
  start: () =>
    proxy(async (req, forward, res) => {
      if (req.n > 30) {
        res.socket?.resetAndDestroy();
        return;
      }
      relay(res, await forward());
    }),
  verify(report) {
    if (report.summary.harnessFaults.length === 0) throw new Error('expected harness faults in the report');
    if (!report.summary.harnessFaults.some((f) => f.includes('the liveness read right after it got none either')))
      throw new Error(`the harness faults should say the liveness read got no answer: ${report.summary.harnessFaults}`);
    if (report.summary.leftovers.length === 0)
      throw new Error('expected the cases the crash kept from being deleted to be listed as leftovers');
  },
};
