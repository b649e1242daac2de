/** Answers each case PATCH with an 8 MiB body. */
import { isCasePatch, proxy, relay, type Hostile } from './support.ts';

export const hugeBody: Hostile = {
  behaviour: 'answers every case PATCH with an 8 MiB body',
  exit: 1,
  why: 'the server answers, but not with a Case under the size cap: the PATCH requirements fail (deterministically)',
  suites: 'case-patch',
  start: () =>
    proxy(async (req, forward, res) => {
      const up = await forward();
      if (!isCasePatch(req) || up.status !== 200) return relay(res, up);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"padding":"${'x'.repeat(8 * 1024 * 1024)}"}`);
    }),
  verify(report) {
    const failures = report.results.flatMap((r) => r.failures ?? []);
    if (!failures.some((f) => /over the \d+-byte cap|over \d+ bytes/.test(f.message)))
      throw new Error('no failure names the size cap');
    if (!failures.every((f) => f.flaky === false))
      throw new Error('each failure should be labelled deterministic (flaky: false)');
  },
};
