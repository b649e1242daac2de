/**
 * Appends every exchange of this process to the run's exchange log (results/exchange-log.ts),
 * tagged with where it was sent: a check's exchanges carry the check's tag (its scope holds it, so
 * checks running side by side keep theirs apart); what is sent outside a check (a suite file's
 * teardown, the runner's preflight and sweep) takes the stage set last. Exchanges arrive redacted.
 */
import { stringifyJson } from '../base/json.ts';
import { appendFileSync } from 'node:fs';
import type { Exchange } from '../results/exchange.ts';
import type { ExchangeTag, LoggedExchange } from '../results/exchange-log.ts';

let outside: ExchangeTag = { stage: 'teardown' };

/**
 * The tag of a check's exchanges (`attempt`: 2 on vitest's re-run of a failed check); what follows outside a check is
 * that suite file's teardown.
 */
export function checkTag(suite: string, check: string, requirements: readonly string[], attempt = 1): ExchangeTag {
  outside = { stage: 'teardown', suite };
  return { stage: 'check', suite, check, requirements: [...requirements], attempt };
}

/** The runner's own stages (preflight, sweep) in the main process. */
export function setStage(stage: 'preflight' | 'sweep'): void {
  outside = { stage };
}

/**
 * Appends one exchange to the log at `path` (none: nothing is logged), under `tag` (a check's) or
 * else the stage outside checks. Logging never fails a check.
 */
export function logExchange(path: string | undefined, tag: ExchangeTag | undefined, exchange: Exchange): void {
  if (!path) return;
  const entry: LoggedExchange = { ...(tag ?? outside), exchange };
  try {
    appendFileSync(path, `${stringifyJson(entry)}\n`);
  } catch {
    // The log is a record for the report; the run goes on without it.
  }
}
