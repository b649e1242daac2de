/**
 * What the suites tell the runner through vitest task metadata: the record of each check, and on
 * each suite file what its teardown found. The runner's collector (src/runner/collect.ts) reads it.
 */
import type { InvariantFindings } from '../results/invariants.ts';
import type { CheckRecord } from '../results/outcome.ts';
import type { Id } from '../spec/index.ts';

declare module '@vitest/runner' {
  interface TaskMeta {
    screenconf?: CheckRecord;
    /** On a file: case ids its cleanup could not delete. */
    screenconfLeftovers?: Id[];
    /** On a file: what the invariant watcher saw in the case bodies the file received. */
    screenconfInvariants?: InvariantFindings;
    /** On a file: the requests it sent, its setup and cleanup included. */
    screenconfRequests?: number;
    /** On a file: server identification headers (Server, X-Powered-By, Via, …) seen in its responses. */
    screenconfServerHeaders?: Record<string, string[]>;
  }
}
