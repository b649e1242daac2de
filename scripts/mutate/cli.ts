/**
 * `npm run mutate`: mutation testing of the reference server, where the test of a mutant is a
 * conformance run against it (docs/mutation.md).
 *
 *   npm run mutate                                  every mutant of the campaign
 *   npm run mutate -- --files src/reference/handlers/bulk-cases.ts   one file's (repeatable, or a,b)
 *   npm run mutate -- --shard 2/4 --out DIR         the second of four shards (CI matrix)
 *   npm run mutate -- merge DIR... --out DIR        the pieces as one result
 *   npm run mutate -- check                         the CI regression check (check.ts)
 *   --record                                        (run, merge) write bench/mutation.json and
 *                                                   bench/mutation-survivors.md from the result
 *   --concurrency N, --seed S, --runs R             worker processes (default: the cores), the run's
 *                                                   seed (1) and --runs (20)
 *
 * MUTATE_FILES (as --files), MUTATE_RUNS and MUTATE_CONCURRENCY are read when the flag is not given.
 *
 * Exit status: 0 done (check: no regression), 1 check found a regression, 2 usage error or pieces
 * that do not merge, 3 a fault of the campaign itself (Stryker, the dry run not CONFORMING).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { recordBench } from './bench.ts';
import { runCampaign } from './campaign.ts';
import { runCheck } from './check.ts';
import { enumerateMutants, shardFiles } from './mutants.ts';
import { emptyPiece, loadPiece, mergePieces, renderSummary, writePiece } from './results.ts';
import { DEFAULT_RUNS, DEFAULT_SEED, mutatedFiles, ROOT } from './settings.ts';

class UsageError extends Error {}

const OPTIONS = {
  files: { type: 'string', multiple: true },
  shard: { type: 'string' },
  concurrency: { type: 'string' },
  seed: { type: 'string' },
  runs: { type: 'string' },
  out: { type: 'string' },
  record: { type: 'boolean' },
  budget: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function int(name: string, value: string | undefined, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new UsageError(`--${name} must be an integer of at least ${min}, not "${value}"`);
  return n;
}

function parseShard(value: string | undefined): { index: number; count: number } | undefined {
  if (value === undefined) return undefined;
  const m = /^(\d+)\/(\d+)$/.exec(value);
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || index < 1 || count < 1 || index > count)
    throw new UsageError(`--shard must be I/N with 1 <= I <= N, not "${value}"`);
  return { index, count };
}

/** --files entries: each a campaign file, optionally with a Stryker range (file:L-L or file:L:C-L:C). */
function selectFiles(entries: string[] | undefined): { mutate: string[]; files: string[] } {
  const all = mutatedFiles();
  if (!entries?.length) return { mutate: all, files: all };
  const mutate = entries.flatMap((e) => e.split(',')).filter(Boolean);
  const files = mutate.map((e) => {
    const file = relative(ROOT, resolve(e.replace(/:\d+(:\d+)?-\d+(:\d+)?$/, '')))
      .split('\\')
      .join('/');
    if (!all.includes(file)) {
      throw new UsageError(
        `${e} is not one of the campaign's files (src/reference/ less the switches): ${all.join(', ')}`,
      );
    }
    return file;
  });
  return { mutate: mutate.map((e, i) => e.replace(/^[^:]+/, files[i]!)), files: [...new Set(files)] };
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true });
  const env = process.env;
  values.files ??= env.MUTATE_FILES ? [env.MUTATE_FILES] : undefined;
  values.runs ??= env.MUTATE_RUNS || undefined;
  values.concurrency ??= env.MUTATE_CONCURRENCY || undefined;
  const [command = 'run', ...rest] = positionals;
  if (values.help) {
    console.log((await import('node:fs')).readFileSync(new URL(import.meta.url), 'utf8').split('*/')[0]);
    return 0;
  }
  const out = resolve(values.out ?? 'reports/mutation');
  if (command === 'merge') {
    if (rest.length === 0) throw new UsageError('merge needs the folders of the pieces: merge DIR... --out DIR');
    const piece = mergePieces(rest.map((d) => loadPiece(resolve(d))));
    mkdirSync(out, { recursive: true });
    writePiece(out, piece);
    console.log(renderSummary(piece));
    console.log(`\nMerged ${rest.length} piece(s) into ${out} (mutation.html, mutation.json)`);
    if (values.record) console.log(recordBench(piece));
    return 0;
  }
  if (command === 'check') {
    return runCheck({
      budget: int('budget', values.budget, 40),
      concurrency: values.concurrency === undefined ? undefined : int('concurrency', values.concurrency, 1),
      out,
    });
  }
  if (command !== 'run' || rest.length > 0) throw new UsageError(`unknown command "${[command, ...rest].join(' ')}"`);
  const shard = parseShard(values.shard);
  let { mutate, files } = selectFiles(values.files);
  if (shard) {
    const counts = await enumerateMutants(files);
    const weights = Object.fromEntries(files.map((f) => [f, Math.max(1, counts.get(f)!.mutants.length)]));
    files = shardFiles(weights, shard.index, shard.count);
    mutate = mutate.filter((e) => files.some((f) => e === f || e.startsWith(`${f}:`)));
    console.log(`shard ${shard.index}/${shard.count}: ${files.join(', ') || '(no file)'}`);
    if (files.length === 0) {
      // An empty part still counts: the merge wants every shard of the set.
      mkdirSync(out, { recursive: true });
      writePiece(
        out,
        emptyPiece(shard, int('seed', values.seed, DEFAULT_SEED, 0), int('runs', values.runs, DEFAULT_RUNS)),
      );
      return 0;
    }
  }
  const piece = await runCampaign({
    mutate,
    files,
    shard,
    concurrency: values.concurrency === undefined ? undefined : int('concurrency', values.concurrency, 1),
    seed: int('seed', values.seed, DEFAULT_SEED, 0),
    runs: int('runs', values.runs, DEFAULT_RUNS),
    out,
  });
  console.log(`\n${renderSummary(piece)}`);
  console.log(`\nReport: ${out}/mutation.html (Stryker's report; mutation.json, piece.json, runs.jsonl beside it)`);
  if (values.record) console.log(recordBench(piece));
  return 0;
}

main(process.argv.slice(2)).then(
  (status) => process.exit(status),
  (err: unknown) => {
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`mutate: ${(err as Error).message}\n`);
      process.exit(2);
    }
    if (
      existsSync(ROOT) &&
      err instanceof Error &&
      /not a mutation result|not one whole set|in pieces/.test(err.message)
    ) {
      process.stderr.write(`mutate: ${err.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`mutate: ${(err as Error)?.stack ?? String(err)}\n`);
    process.exit(3);
  },
);
