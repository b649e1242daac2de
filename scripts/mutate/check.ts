/**
 * `npm run mutate -- check`: the cheap CI step. It runs a bounded set of the mutants bench/mutation.json
 * records as killed (or timed out): first those of files changed since it was measured (their source
 * differs from the recorded sha256), then a fixed sample of the rest (ordered by key hash, so the same
 * sample each time). A mutant that now survives is run once more (a conformance run is concurrent, a
 * kill may have been narrow); surviving twice, it is a regression and the check fails (exit 1).
 */
import { join } from 'node:path';
import type { LogLevel } from '@stryker-mutator/api/core';
import type { MutantResult } from 'mutation-testing-report-schema';
import { type Bench, BENCH_FILE, readBench } from './bench.ts';
import { runCampaign } from './campaign.ts';
import { enumerateMutants, type FileMutants, mutateRange } from './mutants.ts';
import { mutantDiff, mutantKeys, type Piece, sha256, UNDETECTED } from './results.ts';
import { mutatedFiles } from './settings.ts';

/** A mutant the check runs: where it is now, and its key in the bench. */
export interface Candidate {
  file: string;
  key: string;
  mutant: MutantResult;
  changed: boolean;
}

export interface Selection {
  selected: Candidate[];
  /** Files whose source differs from the bench's (or that it does not list). */
  changed: string[];
  /** Mutants of changed files the bench does not know (measure them with --files). */
  unknown: number;
  /** Bench-killed mutants that no longer exist (their code changed). */
  gone: number;
}

const KILLED = new Set(['K', 'T']);

/** Which mutants to run: the bench's killed ones of changed files first, then a fixed sample, at most `budget`. */
export function selectMutants(bench: Bench, current: Map<string, FileMutants>, budget: number): Selection {
  const changed: string[] = [];
  const inChanged: Candidate[] = [];
  const rest: Candidate[] = [];
  let unknown = 0;
  let gone = 0;
  for (const [file, { source, mutants }] of current) {
    const recorded = bench.mutants[file];
    if (!recorded) continue;
    const isChanged = bench.files[file]?.sha256 !== sha256(source);
    if (isChanged) changed.push(file);
    const keys = mutantKeys(source, mutants);
    const present = new Set(keys.values());
    for (const [mutant, key] of keys) {
      const status = recorded[key];
      if (status === undefined) unknown += isChanged ? 1 : 0;
      else if (KILLED.has(status)) (isChanged ? inChanged : rest).push({ file, key, mutant, changed: isChanged });
    }
    gone += Object.entries(recorded).filter(([k, s]) => KILLED.has(s) && !present.has(k)).length;
  }
  const byHash = (a: Candidate, b: Candidate) => sha256(a.key).localeCompare(sha256(b.key));
  const selected = [...inChanged.sort(byHash), ...rest.sort(byHash)].slice(0, budget);
  return { selected, changed, unknown, gone };
}

/** The selected mutants that the run did not detect (matched by key in the run's report). */
export function undetected(selected: Candidate[], piece: Piece): Candidate[] {
  const status = new Map<string, string>();
  for (const [file, result] of Object.entries(piece.report.files)) {
    for (const [m, key] of mutantKeys(result.source, result.mutants)) status.set(`${file}#${key}`, m.status);
  }
  return selected.filter((c) => {
    const s = status.get(`${c.file}#${c.key}`);
    // An error (the run could not judge, and not because of the mutant) is no regression.
    return s === undefined || UNDETECTED.has(s);
  });
}

async function runSelected(
  candidates: Candidate[],
  bench: Bench,
  o: { concurrency: number | undefined; out: string },
): Promise<Piece> {
  return runCampaign({
    mutate: candidates.map((c) => mutateRange(c.file, c.mutant)),
    files: [...new Set(candidates.map((c) => c.file))],
    concurrency: o.concurrency,
    seed: bench.settings.seed,
    runs: bench.settings.runs,
    out: o.out,
    logLevel: 'warn' as LogLevel,
  });
}

export async function runCheck(o: { budget: number; concurrency: number | undefined; out: string }): Promise<number> {
  const bench = readBench();
  if (!bench) {
    process.stderr.write(`mutate check: ${BENCH_FILE} is missing or not JSON: record a campaign first (--record)\n`);
    return 2;
  }
  const current = await enumerateMutants(mutatedFiles().filter((f) => f in bench.mutants));
  const { selected, changed, unknown, gone } = selectMutants(bench, current, o.budget);
  const fromChanged = selected.filter((c) => c.changed).length;
  console.log(
    `mutate check: ${selected.length} mutant(s) ${BENCH_FILE} records as killed: ${fromChanged} of the ` +
      `${changed.length} file(s) changed since it was measured${changed.length ? ` (${changed.join(', ')})` : ''}, ` +
      `${selected.length - fromChanged} sampled from the rest (--budget ${o.budget})`,
  );
  if (unknown) console.log(`  ${unknown} mutant(s) of changed files are new to the bench: measure them with --files`);
  if (gone) console.log(`  ${gone} killed mutant(s) of the bench no longer exist (their code changed)`);
  if (selected.length === 0) return 0;
  const first = undetected(selected, await runSelected(selected, bench, { ...o, out: join(o.out, 'first') }));
  const regressions = first.length
    ? undetected(first, await runSelected(first, bench, { ...o, out: join(o.out, 'again') }))
    : [];
  if (regressions.length === 0) {
    console.log(`mutate check: all ${selected.length} still killed`);
    return 0;
  }
  console.log(`mutate check: ${regressions.length} mutant(s) the bench records as killed now survive (twice):`);
  for (const r of regressions) {
    const m = r.mutant;
    console.log(`\n${r.file}:${m.location.start.line}:${m.location.start.column} ${m.mutatorName}`);
    console.log(
      mutantDiff(current.get(r.file)!.source, m)
        .split('\n')
        .map((l) => `    ${l}`)
        .join('\n'),
    );
  }
  console.log(`\nA check that caught these no longer does. Reproduce: npm run mutate -- --files <file>:<line>-<line>`);
  return 1;
}
