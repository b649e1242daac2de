/** What a test tells the reporter through vitest task metadata. */
import type { Exchange } from '../client/transport.ts';
import type { InvariantFindings } from './invariants.ts';

export interface Evidence {
  exchanges: Exchange[];
  curl: string[];
  /** A property-based check: the shrunk counterexample and how to replay it. */
  property?: PropertyEvidence;
}

export interface Observation {
  requirement: string;
  text: string;
  /** The exchange just before the observation was recorded (the first observation of an id in a check). */
  evidence?: Evidence;
}

export interface PropertyEvidence {
  name: string;
  /** fast-check notation, at most 4000 characters. */
  counterexample: string;
  /** fast-check's seed of this property, and its replay path. */
  seed: number;
  path: string;
  /** The run seed (--seed) that reproduces it. */
  runSeed: number;
  numRuns: number;
  numShrinks: number;
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
    /** On a file: server identification headers (Server, X-Powered-By, Via, …) seen in its responses. */
    screenconfServerHeaders?: Record<string, string[]>;
  }
}
