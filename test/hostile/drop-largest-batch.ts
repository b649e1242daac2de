/** Closes the connection, with no answer, on a bulk case update of 100 items; answers everything else correctly. */
import { proxy, relay, type Hostile, type Incoming } from './support.ts';

/** A bulk case update carrying exactly 100 items (the largest legal batch). */
function largestBatch(req: Incoming): boolean {
  if (req.method !== 'POST' || req.path !== '/api/cases/bulk-update/') return false;
  try {
    return (JSON.parse(req.body) as { items?: unknown[] }).items?.length === 100;
  } catch {
    return false;
  }
}

export const dropLargestBatch: Hostile = {
  behaviour: 'closes the connection on every bulk case update of 100 items, answers the rest correctly',
  exit: 1,
  why:
    'the largest legal batch got no answer from a server that answers the liveness read sent right after: that was ' +
    'its answer, so BULK-CASES-ACCEPT-100 fails on that exchange (NOT CONFORMING, never INCOMPLETE), and nothing ' +
    'else is blamed',
  suites: 'bulk-cases',
  start: () =>
    proxy(async (req, forward, res) => {
      if (largestBatch(req)) return void res.socket?.destroy();
      relay(res, await forward());
    }),
  verify(report) {
    const accept = report.results.find((r) => r.id === 'BULK-CASES-ACCEPT-100');
    if (accept?.verdict !== 'fail') throw new Error(`BULK-CASES-ACCEPT-100 should fail, not ${accept?.verdict}`);
    const failure = accept.failures?.[0];
    if (!/^POST \/api\/cases\/bulk-update\/ .*received no answer/.test(failure?.message ?? ''))
      throw new Error(`the failure should name the request that got no answer: ${failure?.message}`);
    if (!/closed the connection.*answered a liveness read/.test(failure?.message ?? ''))
      throw new Error(`the failure should show the connection closed and the liveness read: ${failure?.message}`);
    const blamed = report.results.filter((r) => r.verdict === 'fail' && r.id !== 'BULK-CASES-ACCEPT-100');
    if (blamed.length) throw new Error(`only the batch's requirement fails: ${blamed.map((r) => r.id).join(', ')}`);
    if (report.summary.harnessFaults.length)
      throw new Error(`the target is not gone: ${report.summary.harnessFaults.join('; ')}`);
  },
};
