/**
 * property(): a fast-check property run against the target, reproducible from the run's seed.
 * Fixed examples (boundary values) run first, through the same mechanism, so a failure on one of
 * them is reported with a counterexample and a seed too. Shrinking a counterexample against a live
 * server costs requests, so it has a budget (time and requests); once spent, the smallest failing
 * input found so far is the counterexample. The shrunk counterexample is replayed once, so the
 * evidence (transcript, curl) and the message belong to exactly that input. A re-run of the check
 * (vitest's retry) replays that counterexample by its seed and path instead of exploring again.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { HarnessError } from '../errors.ts';
import type { PropertyEvidence } from '../results/evidence.ts';
import { ConformanceFailure } from '../results/failure.ts';
import type { CheckApi } from './check.ts';
import { nextPropertyRun, type ShrinkBudget } from './context.ts';
import { formatCounterexample, namedKeys } from './counterexample.ts';
import { asJudged } from './no-answer.ts';

const NOTATION_CHARS = 4000;

/** Shrinking against a live target, by default: at most 10 s and 300 requests per failing property. */
export const DEFAULT_SHRINK: ShrinkBudget = { timeMs: 10_000, requests: 300 };

export interface PropertyOptions<T = unknown> {
  /** Generated cases; default: the run's --runs. */
  runs?: number;
  /** Scales the run's --runs (for expensive properties), at least 1 case. Default 1. */
  scale?: number;
  /** Values checked before the generated ones (boundary values, a corpus). */
  examples?: readonly T[];
}

/**
 * A counterexample in fast-check's notation, at most NOTATION_CHARS long: cut, it keeps the replay paths of command
 * sequences (fc.commands' `replayPath`), which a replay of the sequence needs and which its text ends with.
 */
function notation(value: unknown): string {
  const full = fc.stringify(value);
  if (full.length <= NOTATION_CHARS) return full;
  const paths = [...full.matchAll(/\/\*replayPath="[^"]*"\*\//g)].map((m) => m[0]).join('');
  return `${full.slice(0, Math.max(0, NOTATION_CHARS - paths.length))}${paths}`;
}

/** The seed of one property: the run seed mixed with the property's name, so each is distinct. */
export function propertySeed(runSeed: number, name: string): number {
  return createHash('sha256').update(`${runSeed}:${name}`).digest().readInt32BE(0);
}

/** A shard of a campaign (--shard I/N --shard-by runs). */
export interface RunsShard {
  index: number;
  count: number;
}

/** A shard's share of `runs` generated cases: N split over the shards, none counted twice, the first get the rest. */
export function shardRuns(runs: number, shard: RunsShard | undefined): number {
  if (!shard) return runs;
  return Math.floor(runs / shard.count) + (shard.index <= runs % shard.count ? 1 : 0);
}

/**
 * The seed of a property in one shard of a campaign: its own stream of generated cases (the shards' streams differ),
 * so each shard explores a part of the seed space the others do not; unsharded, the property's own seed.
 */
export function shardSeed(runSeed: number, name: string, shard: RunsShard | undefined, round = 1): number {
  const part = shard ? ` [runs shard ${shard.index}/${shard.count}]` : '';
  // --duration: rounds after the first explore further, each on its own seed.
  return propertySeed(runSeed, `${name}${part}${round > 1 ? ` [round ${round}]` : ''}`);
}

/** How a failing property's shrinking went: when it began, what it has spent, whether it ran out. */
class Shrinking {
  #from: { at: number; requests: number } | undefined;
  reached = false;

  constructor(
    private readonly t: CheckApi,
    private readonly budget: ShrinkBudget,
  ) {}

  /** The first failure: shrinking begins. */
  failed(): void {
    this.#from ??= { at: Date.now(), requests: this.t.stats.requests };
  }

  /** Whether the budget is spent: further candidates are not sent (they count as passing). */
  spent(): boolean {
    if (!this.#from) return false;
    const s = this.spentSoFar();
    this.reached ||= s.ms > this.budget.timeMs || s.requests > this.budget.requests;
    return this.reached;
  }

  spentSoFar(): { ms: number; requests: number } {
    if (!this.#from) return { ms: 0, requests: 0 };
    return { ms: Date.now() - this.#from.at, requests: this.t.stats.requests - this.#from.requests };
  }
}

/**
 * Checks `predicate` (which throws on a violation) for the examples and generated values. Throws a
 * ConformanceFailure naming the counterexample, fast-check's seed and path, and how to replay.
 */
export async function property<T>(
  t: CheckApi,
  name: string,
  arb: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
  options: PropertyOptions<T> = {},
): Promise<void> {
  const shard = t.run.runsShard;
  const all = options.runs ?? Math.max(1, Math.round(t.run.runs * (options.scale ?? 1)));
  // A campaign shard: its share of the cases (at least one), on its own seed; the examples run in the first shard.
  const runs = shard ? Math.max(1, shardRuns(all, shard)) : all;
  const replay = t.replay?.name === name ? t.replay : undefined;
  const shrinking = new Shrinking(t, t.run.shrink ?? DEFAULT_SHRINK);
  // What the check sent before the property (the cases it acts on) stays: the setup of the counterexample.
  const setup = [...t.exchanges];
  // A run that could not judge (the target gone, the run stopping, a setup the target did not keep)
  // ends the property: no later run is sent, nothing more is shrunk, and, unless a run failed
  // before it, that error is the check's.
  let notJudged: HarnessError | undefined;
  // A replay runs the counterexample alone: on a shrunk path fast-check goes on to the shrinks beside it (numRuns
  // does not bound them), which on a server that now passes would run on until the check times out.
  let replays = 0;
  const run = async (value: T) => {
    if (shrinking.spent() || notJudged || (replay && replays++ > 0)) return;
    nextPropertyRun(name);
    try {
      await predicate(value);
    } catch (caught) {
      const err = asJudged(caught);
      if (err instanceof HarnessError && err.inCheck === 'not-judged') {
        notJudged = err;
        return;
      }
      shrinking.failed();
      throw err;
    }
  };
  // A replay path counts the examples first, so they go with it (as many as the failing run counted: a replay of
  // another process, `screenconf replay`, is not in the run's shard or round).
  const counted = replay?.examples;
  const ours = (!shard || shard.index === 1) && !t.run.round;
  const corpus = options.examples?.length && (counted === undefined ? ours : counted > 0) ? options.examples : [];
  const examples = corpus.length ? { examples: corpus.map((e) => [e] as [T]) } : {};
  const details = await fc.check(fc.asyncProperty(arb, run), {
    ...examples,
    ...(replay
      ? { seed: replay.seed, path: replay.path, numRuns: 1, endOnFailure: true }
      : { seed: shardSeed(t.run.seed, name, shard, t.run.round), numRuns: runs, endOnFailure: false }),
  });
  if (notJudged && !details.failed) throw notJudged;
  if (!details.failed || details.counterexample === null) {
    if (details.interrupted) {
      throw new HarnessError('SC_HARNESS', `property "${name}" was interrupted after ${details.numRuns} runs`);
    }
    return;
  }
  const [counterexample] = details.counterexample;
  // A replay on the re-run reports the exploration and shrinking of the first attempt.
  const spent = replay?.shrinkBudget ?? { ...shrinking.spentSoFar(), reached: shrinking.reached };
  const numRuns = replay?.numRuns ?? details.numRuns;
  const numShrinks = replay?.numShrinks ?? details.numShrinks;
  const path = replay?.path ?? details.counterexamplePath ?? '';
  // Replay the shrunk counterexample alone: its transcript, after the check's setup, becomes the evidence.
  t.exchanges.splice(0, t.exchanges.length, ...setup);
  let replayed: unknown;
  nextPropertyRun(name);
  try {
    await predicate(counterexample);
  } catch (err) {
    replayed = asJudged(err);
  }
  // A run that could not judge (target gone, the run stopping) is no counterexample.
  for (const err of [replayed, details.errorInstance]) {
    if (err instanceof HarnessError && err.inCheck === 'not-judged') throw err;
  }
  const first = replayed ?? details.errorInstance;
  const message = String((first as Error)?.message ?? first);
  const shown = formatCounterexample(counterexample, { first: namedKeys(counterexample, message) });
  const budget = spent.reached
    ? `shrunk for ${(spent.ms / 1000).toFixed(1)} s / ${spent.requests} requests (the budget), not minimal`
    : `shrunk after ${numShrinks} steps`;
  const more = [
    `Counterexample (${budget}, ${numRuns} runs): ${shown}`,
    `fast-check seed ${details.seed}, path "${path}"; replay the run with --seed ${t.run.seed}` +
      (shard ? ` --shard ${shard.index}/${shard.count} --shard-by runs` : '') +
      (t.run.round ? ` (round ${t.run.round} of a --duration campaign)` : ''),
  ].join('\n');
  // The same, structured, for the report's evidence (check() redacts it).
  const property: PropertyEvidence = {
    name,
    counterexample: shown,
    notation: notation(counterexample),
    examples: corpus.length,
    seed: details.seed,
    path,
    runSeed: t.run.seed,
    numRuns,
    numShrinks,
    shrinkBudget: spent,
  };
  if (replayed instanceof ConformanceFailure) {
    throw new ConformanceFailure({ ...replayed.detail, judged: replayed.judged, more, property });
  }
  const what =
    replayed === undefined
      ? `the counterexample passed when replayed alone (state-dependent or flaky): ${message}`
      : message;
  throw new ConformanceFailure({ what, more, property });
}
