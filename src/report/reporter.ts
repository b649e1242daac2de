/**
 * The vitest reporter of a conformance run: a progress line per suite file as it ends, and the
 * outcome of every check (with its task metadata) collected for judging.
 */
import { basename } from 'node:path';
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import type { TestOutcome } from './verdicts.ts';

export class ConformanceReporter implements Reporter {
  readonly outcomes: TestOutcome[] = [];
  readonly leftovers: number[] = [];
  readonly errors: string[] = [];

  constructor(private readonly out: (line: string) => void) {}

  static suiteName(moduleId: string): string {
    return basename(moduleId).replace(/\.test\.ts$/, '');
  }

  onTestModuleEnd(module: TestModule) {
    const suite = ConformanceReporter.suiteName(module.moduleId);
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const test of module.children.allTests()) {
      const outcome = this.#outcome(suite, test);
      this.outcomes.push(outcome);
      if (outcome.state === 'passed') passed++;
      else if (outcome.state === 'failed') failed++;
      else skipped++;
    }
    const leftovers = module.meta().screenconfLeftovers ?? [];
    this.leftovers.push(...leftovers);
    for (const e of module.errors()) this.errors.push(`${suite}: ${e.message}`);
    const mark = failed > 0 || module.errors().length > 0 ? '✗' : '✓';
    const seconds = (module.diagnostic().duration / 1000).toFixed(1);
    const extra = module.errors().length ? `, ${module.errors().length} suite error(s)` : '';
    this.out(`  ${mark} ${suite.padEnd(16)} ${passed} passed, ${failed} failed, ${skipped} skipped${extra} (${seconds} s)`);
  }

  #outcome(suite: string, test: TestCase): TestOutcome {
    const result = test.result();
    const meta = test.meta().screenconf ?? {};
    const state = result.state === 'passed' ? 'passed' : result.state === 'failed' ? 'failed' : 'skipped';
    const errors = result.state === 'failed' ? (result.errors ?? []).map((e) => e.message ?? String(e)) : [];
    const note = result.state === 'skipped' ? result.note : undefined;
    const skipReason = meta.skipReason ?? note;
    return {
      suite,
      name: test.fullName,
      state,
      requirements: meta.requirements ?? [],
      errors,
      observations: meta.observations ?? [],
      ...(meta.evidence ? { evidence: meta.evidence } : {}),
      ...(skipReason ? { skipReason } : {}),
      ...(meta.harnessFault ? { harnessFault: meta.harnessFault } : {}),
      durationMs: test.diagnostic()?.duration ?? 0,
    };
  }

  onTestRunEnd(_modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<{ message?: string }>) {
    for (const e of unhandledErrors) this.errors.push(e.message ?? String(e));
  }
}
