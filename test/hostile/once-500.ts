/** The very first case PATCH answers 500; every other request is served normally. */
import { isCasePatch, proxy, relay, type Hostile } from './support.ts';

export const once500: Hostile = {
  behaviour: 'one 500 answer to the first case PATCH, then correct',
  exit: 1,
  why: 'the server broke a requirement once: it fails, labelled flaky because its re-run passed',
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
    const failures = report.results.flatMap((r) => r.failures ?? []);
    if (failures.length !== 1) throw new Error(`expected exactly one failure, got ${failures.length}`);
    if (failures[0]!.flaky !== true) throw new Error('the failure should be labelled flaky');
  },
};
