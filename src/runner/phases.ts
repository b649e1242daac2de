/**
 * The suite files run in two phases: every file but those whose requests may make a target lock the run out, then
 * those alone. The auth-guesses suite sends about 210 requests with credentials the target must refuse; a target
 * with brute-force protection may answer them by locking out the client (its address, or its credential) for a
 * while, and any request the run sent meanwhile would be refused for a reason not its own. The worker processes run
 * several files at once, so "last" in one file is not last in the run: the guesses run after every other file has
 * ended (auth-guesses waits a lockout out before it ends, so the sweep and a next round are not locked out either).
 */
import type { SuitesRun } from './suites.ts';

/** The suites run after every other one, alone. */
export const LAST_SUITES: readonly string[] = ['auth-guesses'];

/** The selected suites in the order of their phases: the others, then the last ones; empty phases left out. */
export function phasesOf(suites: readonly string[]): string[][] {
  const last = suites.filter((s) => LAST_SUITES.includes(s));
  return [suites.filter((s) => !last.includes(s)), last].filter((p) => p.length > 0);
}

/** Whether these suites are the last phase's. */
export function lastPhase(suites: readonly string[]): boolean {
  return suites.length > 0 && suites.every((s) => LAST_SUITES.includes(s));
}

/**
 * Runs the phases in turn, each a run of the suite files (`run`); what they ended with together. With --shard (by
 * files) the first phase is shared out by vitest, and the last shard runs the last suites after its part. A phase
 * does not begin once `stopped` holds (a signal, the deadline, --max-failures reached).
 */
export async function runPhases(
  suites: readonly string[],
  shard: { index: number; count: number } | undefined,
  run: (suites: string[], shard: { index: number; count: number } | undefined) => Promise<SuitesRun>,
  stopped: () => boolean,
): Promise<SuitesRun> {
  const ended: SuitesRun[] = [];
  for (const phase of phasesOf(suites)) {
    const last = lastPhase(phase);
    if (last && shard && shard.index !== shard.count) continue;
    if (ended.length > 0 && stopped()) break;
    ended.push(await run(phase, last ? undefined : shard));
  }
  return { errors: ended.flatMap((r) => r.errors), suites: ended.flatMap((r) => r.suites) };
}
