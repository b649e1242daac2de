/**
 * A failed check is re-run once (vitest `retry: 1`), to tell a deterministic failure from a
 * flaky one. How the two attempts make one outcome:
 *   failed twice                       → failed, flaky: false (deterministic)
 *   failed, then passed; the first failure was an assertion (the server answered wrongly)
 *                                      → failed, flaky: true (the server broke the requirement once)
 *   failed, then passed; the first failure was a transport or harness error (no usable answer)
 *                                      → passed, flaky: true (nothing wrong was seen)
 */
import type { TestDiagnostic, TestResult } from 'vitest/node';

/** Errors that say the exchange itself failed, not that the server answered wrongly. */
const NO_ANSWER = new Set(['TransportError', 'HarnessError']);

export interface RerunOutcome {
  state: 'passed' | 'failed' | 'skipped';
  errors: string[];
  flaky?: boolean;
}

function messages(errors: ReadonlyArray<{ message?: string }> | undefined): string[] {
  return [...new Set((errors ?? []).map((e) => e.message ?? String(e)))];
}

export function rerunOutcome(result: TestResult, diagnostic: TestDiagnostic | undefined): RerunOutcome {
  const retried = (diagnostic?.retryCount ?? 0) > 0;
  // Failed twice: the re-run's message only, so it matches the evidence (also the re-run's) and the
  // same failure is not printed twice with different case ids.
  if (result.state === 'failed')
    return retried
      ? { state: 'failed', errors: messages(result.errors).slice(-1), flaky: false }
      : { state: 'failed', errors: messages(result.errors) };
  if (result.state !== 'passed') return { state: 'skipped', errors: [] };
  if (!retried || !result.errors?.length) return { state: 'passed', errors: [], ...(retried ? { flaky: true } : {}) };
  const assertion = result.errors.some((e) => !NO_ANSWER.has((e as { name?: string }).name ?? ''));
  if (!assertion) return { state: 'passed', errors: [], flaky: true };
  return { state: 'failed', errors: messages(result.errors), flaky: true };
}
