/** One Stryker run over the files given: its options, then the piece it leaves in the output folder. */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { join, resolve } from 'node:path';
import type { LogLevel, PartialStrykerOptions } from '@stryker-mutator/api/core';
import { Stryker } from '@stryker-mutator/core';
import { type Piece, type PieceMeta, readRunRecords, REPORT_FILE, sha256, writePiece } from './results.ts';
import { DEADLINE_FACTOR, DEADLINE_FLOOR_MS, RESERVE_MS, ROOT, type RunnerSettings } from './settings.ts';

export interface CampaignOptions {
  /** Stryker `mutate` entries: files, or a file with a range (`file:L:C-L:C`). */
  mutate: string[];
  /** The files those entries name (whole files, as the piece covers them). */
  files: string[];
  shard?: { index: number; count: number } | undefined;
  concurrency?: number | undefined;
  seed: number;
  runs: number;
  /** The output folder (emptied first). */
  out: string;
  logLevel?: LogLevel | undefined;
  /** The folder the sandbox is made in (default: the checkout; a test gives a small copy). */
  root?: string | undefined;
}

export function strykerOptions(o: CampaignOptions, recordDir: string): PartialStrykerOptions {
  const settings: RunnerSettings = { seed: o.seed, runs: o.runs, recordDir };
  const options: PartialStrykerOptions & { screenconf: RunnerSettings } = {
    testRunner: 'screenconf',
    plugins: [resolve(import.meta.dirname, 'plugin.mjs')],
    // The runner and the sandbox's sources are TypeScript: tsx in each worker process.
    testRunnerNodeArgs: ['--import', 'tsx'],
    mutate: o.mutate,
    // One "test", the conformance run; its coverage says which mutants it executes, and which at load.
    coverageAnalysis: 'perTest',
    concurrency: o.concurrency ?? availableParallelism(),
    timeoutFactor: 3 * DEADLINE_FACTOR,
    timeoutMS: 3 * DEADLINE_FLOOR_MS + RESERVE_MS,
    dryRunTimeoutMinutes: 15,
    reporters: ['json', 'progress-append-only'],
    jsonReporter: { fileName: join(o.out, REPORT_FILE) },
    ignorePatterns: ['dist', 'reports', 'test', 'docs', 'bench', '.scratch', '.screenconf', '*.log'],
    tempDirName: '.stryker-tmp',
    cleanTempDir: true,
    logLevel: o.logLevel ?? ('info' as LogLevel),
    fileLogLevel: 'off' as LogLevel,
    warnings: { slow: false, unknownOptions: true, preprocessorErrors: true, unserializableOptions: true },
    screenconf: settings,
  };
  return options;
}

export async function runCampaign(o: CampaignOptions): Promise<Piece> {
  const root = o.root ?? ROOT;
  rmSync(o.out, { recursive: true, force: true });
  const recordDir = join(o.out, 'records');
  mkdirSync(recordDir, { recursive: true });
  const startedAt = new Date().toISOString();
  const began = performance.now();
  const cwd = process.cwd();
  process.chdir(root);
  try {
    await new Stryker(strykerOptions(o, recordDir)).runMutationTest();
  } finally {
    process.chdir(cwd);
  }
  const wallMs = Math.round(performance.now() - began);
  const report = JSON.parse(readFileSync(join(o.out, REPORT_FILE), 'utf8'));
  const version = (p: string) =>
    (JSON.parse(readFileSync(join(ROOT, 'node_modules', p, 'package.json'), 'utf8')) as { version: string }).version;
  const meta: PieceMeta = {
    files: [...o.files].sort(),
    ...(o.shard ? { shard: o.shard } : {}),
    sources: Object.fromEntries(o.files.map((f) => [f, sha256(readFileSync(join(root, f), 'utf8'))])),
    settings: { seed: o.seed, runs: o.runs, concurrency: o.concurrency ?? availableParallelism() },
    startedAt,
    wallMs,
    machine: { cpus: availableParallelism(), model: cpus()[0]?.model ?? 'unknown', node: process.version },
    stryker: version('@stryker-mutator/core'),
  };
  const piece: Piece = { meta, report, runs: readRunRecords(recordDir) };
  rmSync(recordDir, { recursive: true, force: true });
  writePiece(o.out, piece);
  return piece;
}
