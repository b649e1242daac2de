// The harness's own tests (test/). The conformance suites (suites/) are not run by this
// config: `screenconf run` starts vitest on them with the target provided.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    maxWorkers: 2,
  },
});
