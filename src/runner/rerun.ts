/**
 * A failed check is re-run once (vitest `retry: 1`), to tell a deterministic failure from a
 * flaky one. How the attempts check() recorded make one outcome:
 *   failed twice                          → failed, flaky: false (deterministic)
 *   failed, then passed                   → passed, flaky: true: not a failure; the report names it flaky and
 *                                           keeps the first failure (judge.ts)
 *   could not judge, then passed          → passed, flaky: true (nothing wrong was seen)
 *   the last attempt could not judge      → not judged (the runner reports the harness fault)
 */
import type { Attempt } from '../results/outcome.ts';

export interface RerunOutcome {
  state: 'passed' | 'failed' | 'skipped';
  flaky?: boolean;
}

/**
 * The outcome of a check from its attempts; `vitestState` decides when the check recorded none
 * (a failure in a hook, before check() ran).
 */
export function rerunOutcome(attempts: readonly Attempt[], vitestState: string): RerunOutcome {
  if (attempts.length === 0) {
    if (vitestState === 'passed') return { state: 'passed' };
    return vitestState === 'failed' ? { state: 'failed' } : { state: 'skipped' };
  }
  const last = attempts.at(-1)!;
  const retried = attempts.length > 1;
  if (last === 'skipped') return { state: 'skipped' };
  if (last === 'failed' || last === 'not-judged') return { state: 'failed', ...(retried ? { flaky: false } : {}) };
  if (!retried) return { state: 'passed' };
  // Passed on the re-run: flaky, not a failure (a failure seen first is reported as flaky).
  return { state: 'passed', flaky: true };
}
