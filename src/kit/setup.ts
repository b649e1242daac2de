/**
 * Loaded by the runner before every suite file: after the file's checks, hand the invariant
 * watcher's findings to the reporter, delete what the file created on the target, record what
 * could not be removed, and what the file cost (the requests it sent, its cleanup's included).
 */
import { afterAll, beforeAll } from 'vitest';
import { getHarness } from './context.ts';
import './meta.ts';

// A worker runs its files one after another: the file's share is the count since it began.
let sentBefore = 0;
beforeAll(() => {
  sentBefore = getHarness().stats.requests;
});

// biome-ignore lint/correctness/noEmptyPattern: vitest reads the fixture pattern
afterAll(async ({}, suite) => {
  const h = getHarness();
  suite.meta.screenconfInvariants = h.watcher.take();
  suite.meta.screenconfServerHeaders = h.serverHeaders.take();
  const left = [...(await h.primary.provision.cleanup()), ...((await h.peer?.provision.cleanup()) ?? [])];
  if (left.length) suite.meta.screenconfLeftovers = left;
  suite.meta.screenconfRequests = h.stats.requests - sentBefore;
});
