/**
 * Loaded by the runner before every suite file: after the file's checks, hand the invariant
 * watcher's findings to the reporter, delete what the file created on the target, record what
 * could not be removed, and what the file cost (the requests it sent, its cleanup's included).
 */
import { afterAll, beforeAll } from 'vitest';
import { toCurl } from '../client/curl.ts';
import type { InvariantFindings } from '../results/invariants.ts';
import { creationsElsewhere, getHarness } from './context.ts';
import './meta.ts';

// A worker runs its files one after another: the file's share is the count since it began.
let sentBefore = 0;
beforeAll(() => {
  sentBefore = getHarness().stats.requests;
});

/**
 * Puts before the exchanges that showed a violation the creation of each case they name (made by
 * a check of the worker), so a reproduction makes the case it reads.
 */
function withSetup(findings: InvariantFindings, baseUrl: string): InvariantFindings {
  for (const evidence of Object.values(findings.evidence)) {
    if (!evidence) continue;
    const made = creationsElsewhere(evidence.exchanges);
    evidence.curl = [...made.map((e) => toCurl(e, baseUrl)), ...evidence.curl];
    evidence.exchanges = [...made, ...evidence.exchanges];
  }
  return findings;
}

// biome-ignore lint/correctness/noEmptyPattern: vitest reads the fixture pattern
afterAll(async ({}, suite) => {
  const h = getHarness();
  suite.meta.screenconfInvariants = withSetup(h.watcher.take(), h.run.target.baseUrl);
  suite.meta.screenconfServerHeaders = h.serverHeaders.take();
  const left = [...(await h.primary.provision.cleanup()), ...((await h.peer?.provision.cleanup()) ?? [])];
  if (left.length) suite.meta.screenconfLeftovers = left;
  suite.meta.screenconfRequests = h.stats.requests - sentBefore;
});
