/**
 * The vitest reporter of a conformance run: a progress line per suite file as it ends, and the
 * outcome of every check (with its task metadata) collected for judging.
 */
import { basename } from 'node:path';
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { WATCHED_REQUIREMENTS, type InvariantFindings } from '../kit/invariants.ts';
import { rerunOutcome } from './rerun.ts';
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
    const findings = module.meta().screenconfInvariants;
    const watch = findings ? watchOutcomes(suite, findings) : [];
    this.outcomes.push(...watch);
    for (const e of findings?.errors ?? []) this.errors.push(`${suite}: ${e}`);
    const broken = watch.filter((o) => o.state === 'failed').length;
    const mark = failed > 0 || broken > 0 || module.errors().length > 0 ? '✗' : '✓';
    const seconds = (module.diagnostic().duration / 1000).toFixed(1);
    const extra = module.errors().length ? `, ${module.errors().length} suite error(s)` : '';
    const watched = findings?.watched
      ? `; ${findings.watched} case ${findings.watched === 1 ? 'body' : 'bodies'} watched${broken ? `, ${broken} invariant(s) broken` : ''}`
      : '';
    this.out(
      `  ${mark} ${suite.padEnd(16)} ${passed} passed, ${failed} failed, ${skipped} skipped${extra}${watched} (${seconds} s)`,
    );
  }

  #outcome(suite: string, test: TestCase): TestOutcome {
    const result = test.result();
    const meta = test.meta().screenconf ?? {};
    const { state, errors, flaky } = rerunOutcome(result, test.diagnostic());
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
      ...(flaky !== undefined ? { flaky } : {}),
      durationMs: test.diagnostic()?.duration ?? 0,
    };
  }

  onTestRunEnd(_modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<{ message?: string }>) {
    for (const e of unhandledErrors) this.errors.push(e.message ?? String(e));
  }
}

/**
 * The invariant watch of one suite file as outcomes, one per watched requirement (a check
 * judges one requirement): failed with the violations, passed when case bodies were seen and
 * none broke it, skipped when the file received no case body.
 */
export function watchOutcomes(suite: string, findings: InvariantFindings): TestOutcome[] {
  const name = `invariant watch: ${suite}`;
  return WATCHED_REQUIREMENTS.map((id): TestOutcome => {
    const base = { suite, name, requirements: [id], observations: [], durationMs: 0 };
    if (findings.watched === 0) return { ...base, state: 'skipped', errors: [], skipReason: 'no case body seen' };
    const count = findings.counts[id] ?? 0;
    // Bodies were seen, but none the requirement applies to (no check ever had a score): not judged.
    if (findings.judged && !(findings.judged[id] ?? 0) && count === 0) {
      return {
        ...base,
        state: 'skipped',
        errors: [],
        skipReason: `no case body it applies to (${findings.watched} watched)`,
      };
    }
    if (count === 0) return { ...base, state: 'passed', errors: [] };
    const [first, ...rest] = findings.violations.filter((v) => v.requirement === id);
    const lines = first
      ? [
          `${first.what}, in the answer to ${first.request}`,
          `Expected: ${first.expected}`,
          `Received: ${first.received}`,
        ]
      : [];
    if (count > 1) {
      lines.push(
        `${count} violations in all, in the ${findings.watched} case bodies this suite file received${rest.length < count - 1 ? ` (the first ${rest.length + 1} distinct ones shown)` : ''}:`,
      );
      for (const v of rest)
        lines.push(
          `- ${v.what} (${v.request}): ${v.received}${v.expected === first?.expected ? '' : `; expected ${v.expected}`}`,
        );
    }
    // Summaries reproduce a failure with the last exchange of its evidence: make that the first violation's.
    const kept = findings.evidence[id];
    const evidence = kept && { exchanges: [...kept.exchanges].reverse(), curl: [...kept.curl].reverse() };
    return { ...base, state: 'failed', errors: [lines.join('\n')], ...(evidence ? { evidence } : {}) };
  });
}
