/**
 * The mutants of the campaign's files as they are now, without running anything: Stryker's own
 * instrumenter, in memory (a few seconds). Sharding weighs files by their mutants; the regression
 * check finds the mutants it compares with bench/mutation.json by their keys (results.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '@stryker-mutator/api/logging';
import { commonTokens } from '@stryker-mutator/api/plugin';
import { createInstrumenter } from '@stryker-mutator/instrumenter';
import type { MutantResult } from 'mutation-testing-report-schema';
import { createInjector } from 'typed-inject';
import { ROOT } from './settings.ts';

const QUIET: Logger = {
  isTraceEnabled: () => false,
  isDebugEnabled: () => false,
  isInfoEnabled: () => false,
  isWarnEnabled: () => true,
  isErrorEnabled: () => true,
  isFatalEnabled: () => true,
  trace: () => {},
  debug: () => {},
  info: () => {},
  warn: (m: string) => process.stderr.write(`${m}\n`),
  error: (m: string) => process.stderr.write(`${m}\n`),
  fatal: (m: string) => process.stderr.write(`${m}\n`),
};

/** A file's source and its mutants, located as in Stryker's report (lines and columns from 1). */
export interface FileMutants {
  source: string;
  mutants: MutantResult[];
}

export async function enumerateMutants(files: string[], root: string = ROOT): Promise<Map<string, FileMutants>> {
  const instrumenter = createInjector()
    .provideValue(commonTokens.logger, QUIET)
    .provideValue(commonTokens.getLogger, () => QUIET)
    .injectFunction(createInstrumenter);
  const sources = new Map(files.map((f) => [f, readFileSync(join(root, f), 'utf8')]));
  const { mutants } = await instrumenter.instrument(
    files.map((name) => ({ name, content: sources.get(name)!, mutate: true })),
    { plugins: null, excludedMutations: [], ignorers: [] },
  );
  const out = new Map<string, FileMutants>(files.map((f) => [f, { source: sources.get(f)!, mutants: [] }]));
  for (const m of mutants) {
    out.get(m.fileName)!.mutants.push({
      id: m.id,
      mutatorName: m.mutatorName,
      replacement: m.replacement,
      // The instrumenter's lines count from 1 and its columns from 0; the report's both from 1.
      location: {
        start: { line: m.location.start.line + 1, column: m.location.start.column + 1 },
        end: { line: m.location.end.line + 1, column: m.location.end.column + 1 },
      },
      status: m.status ?? 'Pending',
      ...(m.statusReason ? { statusReason: m.statusReason } : {}),
    });
  }
  return out;
}

/** Stryker's `mutate` entry for exactly this mutant's range (its lines count from 1, its columns from 0). */
export function mutateRange(file: string, m: MutantResult): string {
  const { start, end } = m.location;
  return `${file}:${start.line}:${start.column - 1}-${end.line}:${end.column - 1}`;
}

/**
 * The files of shard `index` of `count`: the files, heaviest first, each given to the shard with the
 * least weight so far (ties to the lowest shard), so every shard computes the same split.
 */
export function shardFiles(weights: Record<string, number>, index: number, count: number): string[] {
  const load = Array.from({ length: count }, () => 0);
  const mine: string[] = [];
  const files = Object.keys(weights).sort((a, b) => weights[b]! - weights[a]! || a.localeCompare(b));
  for (const f of files) {
    const k = load.indexOf(Math.min(...load));
    load[k]! += weights[f]!;
    if (k === index - 1) mine.push(f);
  }
  return mine.sort();
}
