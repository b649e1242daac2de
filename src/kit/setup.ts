/**
 * Loaded by the runner before every suite file: after the file's checks, hand the invariant
 * watcher's findings to the reporter, delete what the file created on the target, record what
 * could not be removed, and what the file cost (the requests it sent, its cleanup's included).
 */
import { afterAll, beforeAll } from 'vitest';
import {
  exchangeKey,
  type InvariantFindings,
  inChainOrder,
  restChains,
  type WatchedRequirement,
} from '../results/invariants.ts';
import { evidenceOf } from './check.ts';
import { suiteName } from '../base/suite-file.ts';
import { enterSuiteFile, getHarness } from './context.ts';
import type { InvariantWatcher } from './invariants.ts';
import './meta.ts';

// A worker runs its files one after another: the file's share is the count since it began.
let sentBefore = 0;
// biome-ignore lint/correctness/noEmptyPattern: vitest reads the fixture pattern
beforeAll(({}, suite) => {
  enterSuiteFile(suiteName(suite.file.filepath));
  sentBefore = getHarness().stats.requests;
});

/**
 * Puts before the exchanges that showed a violation their setup, as a check's failure has it (check.ts evidenceOf):
 * what the checks that sent them sent before that created, changed or gave a value to what they name, and the
 * creation of each case they name (made by a check of the worker), so a reproduction makes the case it reads as it
 * was read; with what the watcher kept beside them (the creation and deletion of the case whose id a creation gave
 * again, which another worker may have sent).
 */
function withSetup(findings: InvariantFindings, watcher: InvariantWatcher, baseUrl: string): InvariantFindings {
  for (const [id, evidence] of Object.entries(findings.evidence)) {
    if (!evidence) continue;
    const built = evidenceOf(
      [],
      evidence.exchanges.filter((e) => e.judged).map((e) => watcher.source(e)),
      baseUrl,
      evidence.exchanges.filter((e) => !e.judged),
    );
    // In the order the violations' chains happened (a deletion before the creation given its id), not only as sent.
    const chains = restChains(findings.rests?.[id as WatchedRequirement]);
    const ordered = inChainOrder(
      built.exchanges.map((e, i) => ({ at: e.at, e, curl: built.curl[i]! })),
      (x) => exchangeKey(x.e),
      chains,
    );
    findings.evidence[id as WatchedRequirement] = {
      exchanges: ordered.map((x) => x.e),
      curl: ordered.map((x) => x.curl),
    };
  }
  return findings;
}

// biome-ignore lint/correctness/noEmptyPattern: vitest reads the fixture pattern
afterAll(async ({}, suite) => {
  const h = getHarness();
  suite.meta.screenconfInvariants = withSetup(h.watcher.take(), h.watcher, h.run.target.baseUrl);
  suite.meta.screenconfServerHeaders = h.serverHeaders.take();
  const left = [...(await h.primary.provision.cleanup()), ...((await h.peer?.provision.cleanup()) ?? [])];
  if (left.length) suite.meta.screenconfLeftovers = left;
  suite.meta.screenconfRequests = h.stats.requests - sentBefore;
});
