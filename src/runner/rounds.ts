/**
 * --duration: a campaign in one process. The suites run in rounds, each on generated cases of its
 * own (a round's seeds differ from every other's), until the time budget is spent; the first round
 * is the run without --duration. A round that has begun runs to its end: the budget decides
 * whether another begins. After each round a line says how many cases each property has run.
 */
import type { SuitesRun } from './suites.ts';

export interface Rounds {
  /** The time budget, in ms; without it one round. */
  durationMs: number | undefined;
  /** Generated cases per property in one round (--runs, or a campaign shard's share). */
  runsPerRound: number;
  /** Runs round `n` (1, 2, …) of the suites. */
  run: (round: number) => Promise<SuitesRun>;
  /** Whether the run must not begin another round (a signal, the deadline, --max-failures reached). */
  stopped: () => boolean;
  out: (line: string) => void;
}

/** Runs the rounds; returns what they ended with together, and how many ran. */
export async function runRounds(r: Rounds): Promise<SuitesRun & { rounds: number }> {
  const started = Date.now();
  const first = await r.run(1);
  if (r.durationMs === undefined) return { ...first, rounds: 1 };
  const errors = [...first.errors];
  let round = 1;
  for (;;) {
    const spent = Date.now() - started;
    const left = Math.max(0, r.durationMs - spent);
    r.out(
      `round ${round} done: ${round * r.runsPerRound} generated cases per property so far; ` +
        `${(spent / 1000).toFixed(1)} s of --duration ${(r.durationMs / 1000).toFixed(0)} s spent` +
        (left > 0 && !r.stopped() ? ', another round begins' : ''),
    );
    if (left === 0 || r.stopped()) break;
    round += 1;
    errors.push(...(await r.run(round)).errors);
  }
  return { errors, suites: first.suites, rounds: round };
}
