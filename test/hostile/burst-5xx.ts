/** After 10 case PATCHes, the next 5 answer 503. */
import { isCasePatch, proxy, relay, type Hostile } from './support.ts';

export const burst5xx: Hostile = {
  behaviour: 'a burst of five 503 answers to case PATCHes, mid-run',
  exit: 1,
  why: 'a 5xx never conforms: the checks that met the burst fail (labelled flaky when their re-run passed)',
  suites: 'case-patch',
  start: () => {
    let patches = 0;
    return proxy(async (req, forward, res) => {
      if (isCasePatch(req)) {
        patches += 1;
        if (patches > 10 && patches <= 15) {
          res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '1' });
          res.end('Service Unavailable');
          return;
        }
      }
      relay(res, await forward());
    });
  },
  verify(report) {
    const messages = report.results.flatMap((r) => r.failures ?? []).map((f) => f.message);
    if (!messages.some((m) => m.includes('503'))) throw new Error('no failure reports the 503');
  },
};
