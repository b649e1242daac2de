/** The very first case PATCH answers 500; every other request is served normally. */
import { isCasePatch, proxy, relay, type Hostile } from './support.ts';

export const once500: Hostile = {
  behaviour: 'one 500 answer to the first case PATCH, then correct',
  exit: 0,
  why:
    'the server broke a requirement once and its re-run passed: flaky, not a failure (issue 14); the ' +
    "requirement's reason and summary.flaky say so, with the first failure",
  suites: 'case-patch',
  start: () => {
    let patches = 0;
    return proxy(async (req, forward, res) => {
      if (isCasePatch(req) && ++patches === 1) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end('{"detail":"internal error"}');
        return;
      }
      relay(res, await forward());
    });
  },
  verify(report) {
    const flaky = report.results.filter((r) => r.reason?.startsWith('flaky:'));
    if (flaky.length !== 1 || flaky[0]!.verdict !== 'pass')
      throw new Error(`expected one requirement passed as flaky, got ${JSON.stringify(flaky.map((r) => r.id))}`);
    if (!(report.summary as { flaky?: string[] }).flaky?.includes(flaky[0]!.id))
      throw new Error('summary.flaky should list it');
    if (!flaky[0]!.reason!.includes('500')) throw new Error('the reason should give the first failure (the 500)');
  },
};
