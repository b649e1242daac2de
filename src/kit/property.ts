/**
 * property(): a fast-check property run against the target, reproducible from the run's seed.
 * On failure the shrunk counterexample is replayed once, so the evidence (transcript, curl)
 * and the message belong to exactly that input.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { HarnessError } from '../errors.ts';
import type { PropertyEvidence } from '../results/evidence.ts';
import { ConformanceFailure } from '../results/failure.ts';
import type { CheckApi } from './check.ts';

const COUNTEREXAMPLE_CHARS = 4000;

export interface PropertyOptions {
  /** Generated cases; default: the run's --runs. */
  runs?: number;
  /** Scales the run's --runs (for expensive properties), at least 1 case. Default 1. */
  scale?: number;
}

/** The seed of one property: the run seed mixed with the property's name, so each is distinct. */
export function propertySeed(runSeed: number, name: string): number {
  return createHash('sha256').update(`${runSeed}:${name}`).digest().readInt32BE(0);
}

/**
 * Checks `predicate` (which throws on a violation) for generated values. Throws a
 * ConformanceFailure naming the counterexample, fast-check's seed and path, and how to replay.
 */
export async function property<T>(
  t: CheckApi,
  name: string,
  arb: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
  options: PropertyOptions = {},
): Promise<void> {
  const numRuns = options.runs ?? Math.max(1, Math.round(t.run.runs * (options.scale ?? 1)));
  const seed = propertySeed(t.run.seed, name);
  const details = await fc.check(
    fc.asyncProperty(arb, async (value) => {
      await predicate(value);
    }),
    { seed, numRuns, endOnFailure: false },
  );
  if (!details.failed || details.counterexample === null) {
    if (details.interrupted) {
      throw new HarnessError('SC_HARNESS', `property "${name}" was interrupted after ${details.numRuns} runs`);
    }
    return;
  }
  const [counterexample] = details.counterexample;
  // Replay the shrunk counterexample alone: its transcript becomes the evidence.
  t.exchanges.length = 0;
  let replayed: unknown;
  try {
    await predicate(counterexample);
  } catch (err) {
    replayed = err;
  }
  // A run that could not judge (target gone, the run stopping) is no counterexample.
  for (const err of [replayed, details.errorInstance]) {
    if (err instanceof HarnessError && err.inCheck === 'not-judged') throw err;
  }
  const shown = fc.stringify(counterexample);
  const more = [
    `Counterexample (shrunk after ${details.numShrinks} steps, ${details.numRuns} runs): ${shown}`,
    `fast-check seed ${details.seed}, path "${details.counterexamplePath}"; replay the run with --seed ${t.run.seed}`,
  ].join('\n');
  // The same, structured, for the report's evidence (check() redacts it).
  const property: PropertyEvidence = {
    name,
    counterexample: shown.slice(0, COUNTEREXAMPLE_CHARS),
    seed: details.seed,
    path: details.counterexamplePath ?? '',
    runSeed: t.run.seed,
    numRuns: details.numRuns,
    numShrinks: details.numShrinks,
  };
  if (replayed instanceof ConformanceFailure) {
    throw new ConformanceFailure({ ...replayed.detail, judged: replayed.judged, more, property });
  }
  const first = replayed ?? details.errorInstance;
  const message = String((first as Error)?.message ?? first);
  const what =
    replayed === undefined
      ? `the counterexample passed when replayed alone (state-dependent or flaky): ${message}`
      : message;
  throw new ConformanceFailure({ what, more, property });
}
