/**
 * Appends every exchange of this process to the run's exchange log (results/exchange-log.ts),
 * tagged with the check running now: check() says when one begins and ends; what is sent outside
 * a check (a suite file's teardown) keeps the suite. Exchanges arrive here already redacted.
 */
import { appendFileSync } from 'node:fs';
import type { Exchange } from '../results/exchange.ts';
import type { ExchangeTag, LoggedExchange } from '../results/exchange-log.ts';

let current: ExchangeTag = { stage: 'teardown' };

/** The check now running in this process (its exchanges are tagged with it). */
export function beginCheck(suite: string, check: string, requirements: readonly string[]): void {
  current = { stage: 'check', suite, check, requirements: [...requirements] };
}

/** The check ended: what follows is the suite file's own (its teardown). */
export function endCheck(): void {
  current = { stage: 'teardown', ...(current.suite ? { suite: current.suite } : {}) };
}

/** The runner's own stages (preflight, sweep) in the main process. */
export function setStage(stage: 'preflight' | 'sweep'): void {
  current = { stage };
}

/** Appends one exchange to the log at `path` (none: nothing is logged). Logging never fails a check. */
export function logExchange(path: string | undefined, exchange: Exchange): void {
  if (!path) return;
  const entry: LoggedExchange = { ...current, exchange };
  try {
    appendFileSync(path, `${JSON.stringify(entry)}\n`);
  } catch {
    // The log is a record for the report; the run goes on without it.
  }
}
