/** What the mutation campaign mutates and how long a run may take: one place for the driver and the runner. */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

export const ROOT = join(import.meta.dirname, '../..');

/**
 * The reference server's behaviour code: every module of src/reference/ but the deliberate switches
 * (faults and variants, and the switch machinery that applies them), credentials.ts (how `serve`
 * and `run --credentials` read their input: the CLI's, not the server's behaviour) and attribution.ts (which
 * check a request came from: the campaign's own coverage, which no client sees), and the proof tables
 * (proof.ts, proofs.ts, proofs-body.ts, container-proofs.ts, readings.ts: what each switch must make a
 * run say, data of the tests, never executed by a server), and jwt.ts (JWT-shaped tokens for the switches that
 * issue them: the correct server's tokens are opaque).
 */
export const NOT_MUTATED = [
  'src/reference/faults/',
  'src/reference/variants/',
  'src/reference/faults.ts',
  'src/reference/variants.ts',
  'src/reference/switches.ts',
  'src/reference/credentials.ts',
  'src/reference/attribution.ts',
  'src/reference/proof.ts',
  'src/reference/proofs.ts',
  'src/reference/proofs-body.ts',
  'src/reference/container-proofs.ts',
  'src/reference/readings.ts',
  'src/reference/jwt.ts',
];

/** The files whose mutants make the campaign, relative to the checkout, sorted. */
export function mutatedFiles(root: string = ROOT): string[] {
  const dir = join(root, 'src/reference');
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => relative(root, join(dir, f)).split('\\').join('/'))
    .filter((f) => !NOT_MUTATED.some((n) => (n.endsWith('/') ? f.startsWith(n) : f === n)))
    .sort();
}

/** The run that tests a mutant: `screenconf run --seed SEED --runs RUNS` (the default --runs; a fixed seed). */
export const DEFAULT_SEED = 1;
export const DEFAULT_RUNS = 20;

/**
 * A run's deadline is DEADLINE_FACTOR times the unmutated run's time (Stryker's dry run) plus
 * DEADLINE_FLOOR_MS. Stryker's own timeout is three deadlines plus RESERVE_MS (the mutant's run, a
 * control and a second run; see classify.ts), so it only meets a run whose event loop is blocked.
 */
export const DEADLINE_FACTOR = 3;
export const DEADLINE_FLOOR_MS = 30_000;
export const RESERVE_MS = 60_000;

/** What the driver hands the runner (Stryker's option `screenconf`). */
export interface RunnerSettings {
  seed: number;
  runs: number;
  /** Where each worker appends one JSON line per run (per-mutant times and reasons). */
  recordDir?: string;
}
