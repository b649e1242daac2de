/** What a test tells the reporter through vitest task metadata. */
import type { Exchange } from '../client/transport.ts';
import type { InvariantFindings } from './invariants.ts';

export interface Observation {
  requirement: string;
  text: string;
}

export interface Evidence {
  exchanges: Exchange[];
  curl: string[];
}

export interface ScreenconfMeta {
  /** The requirement ids this test verifies. */
  requirements?: string[];
  observations?: Observation[];
  evidence?: Evidence;
  skipReason?: string;
  /** The test could not judge (harness fault, target gone): not a conformance verdict. */
  harnessFault?: string;
}

declare module '@vitest/runner' {
  interface TaskMeta {
    screenconf?: ScreenconfMeta;
    /** On a file: case ids its cleanup could not delete. */
    screenconfLeftovers?: number[];
    /** On a file: what the invariant watcher saw in the case bodies the file received. */
    screenconfInvariants?: InvariantFindings;
  }
}
