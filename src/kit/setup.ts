/**
 * Loaded by the runner before every suite file: after the file's checks, hand the invariant
 * watcher's findings to the reporter, delete what the file created on the target, and record
 * what could not be removed.
 */
import { afterAll } from 'vitest';
import { getHarness } from './context.ts';
import './meta.ts';

// biome-ignore lint/correctness/noEmptyPattern: vitest reads the fixture pattern
afterAll(async ({}, suite) => {
  const h = getHarness();
  suite.meta.screenconfInvariants = h.watcher.take();
  suite.meta.screenconfServerHeaders = h.serverHeaders.take();
  const left = [...(await h.primary.provision.cleanup()), ...((await h.peer?.provision.cleanup()) ?? [])];
  if (left.length) suite.meta.screenconfLeftovers = left;
});
