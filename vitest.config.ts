// The harness's own tests (test/). The conformance suites (suites/) are not run by this
// config: `screenconf run` starts vitest on them with the target provided.
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * The files that take longest, in that order: they start first, so that the shorter files fill the
 * other worker beside them instead of one long file starting last. vitest orders by the durations of
 * its last run when its cache (node_modules/.vite) has them, and otherwise by file size, which put
 * variants.test.ts (a small file, the longest run) near the end on a fresh checkout such as CI's.
 */
const LONGEST_FIRST = [
  'test/variants.test.ts',
  'test/faults.test.ts',
  'test/hostile.test.ts',
  'test/repro.test.ts',
  'test/repro-scripts.test.ts',
  'test/safety-run.test.ts',
  'test/cli.test.ts',
  'test/shards.test.ts',
  'test/mutate.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = LONGEST_FIRST.indexOf(relative(f.project.config.root, f.moduleId));
      return i < 0 ? LONGEST_FIRST.length : i;
    };
    // Array sort is stable: the rest keep vitest's own order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // Four test files at once on 2 cores: the longest files wait on servers far more than they
    // compute (variants.test.ts and faults.test.ts on webhook deliveries and throttled runs,
    // hostile.test.ts on timeouts), and three workers left a third of the CPU idle beside them. The
    // timeouts bound hangs, not speed: another file slows the others without changing a verdict.
    maxWorkers: 4,
    // A worker keeps the modules it imported for its next file: re-importing the runner, vitest's
    // node API and the reference server for each of 45 files cost about 25 CPU-s of a run (223 s
    // instead of 239 s wall on 2 idle cores). The test files share no module state they rely on:
    // each in-process run makes its own target, settings and session (two whole runs at once green).
    isolate: false,
    sequence: { sequencer: LongestFirst },
  },
});
