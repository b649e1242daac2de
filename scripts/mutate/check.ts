/**
 * `npm run mutate -- check`: the cheap CI step. The files changed since bench/mutation.json was measured (their
 * source differs from the recorded sha256) run whole, every mutant of them as they are now; a fixed sample of the
 * bench's killed (or timed out) mutants of the other files (ordered by key hash, so the same sample each time) fills
 * the budget. A mutant that now goes undetected is run once more (a conformance run is concurrent, a kill may have
 * been narrow). The check fails (exit 1) when a changed file's score, after that second chance, is lower than the
 * bench's, or a sampled mutant the bench records as killed survives twice.
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
  /** The sampled mutants of unchanged files (the changed files run whole). */
  selected: Candidate[];
  /** Files whose source differs from the bench's (or that it does not list). */
  changed: string[];
  /** Mutants of changed files the bench does not know (measure them with --files). */
  unknown: number;
  /** Bench-killed mutants that no longer exist (their code changed). */
  gone: number;
}

const KILLED = new Set(['K', 'T']);

/**
 * Which mutants to run besides the changed files (whole): a fixed sample of the bench's killed ones of the other
 * files, as many as the budget leaves after the changed files' mutants.
 */
export function selectMutants(bench: Bench, current: Map<string, FileMutants>, budget: number): Selection {
  const changed: string[] = [];
  const rest: Candidate[] = [];
  let inChanged = 0;
  let unknown = 0;
  let gone = 0;
  for (const [file, { source, mutants }] of current) {
    const recorded = bench.mutants[file];
    if (!recorded) continue;
    const isChanged = bench.files[file]?.sha256 !== sha256(source);
    if (isChanged) changed.push(file);
    const keys = mutantKeys(source, mutants);
    const present = new Set(keys.values());
    if (isChanged) inChanged += mutants.length;
    for (const [mutant, key] of keys) {
      const status = recorded[key];
      if (status === undefined) unknown += isChanged ? 1 : 0;
      else if (KILLED.has(status) && !isChanged) rest.push({ file, key, mutant, changed: false });
    }
    gone += Object.entries(recorded).filter(([k, s]) => KILLED.has(s) && !present.has(k)).length;
  }
  const byHash = (a: Candidate, b: Candidate) => sha256(a.key).localeCompare(sha256(b.key));
  const selected = rest.sort(byHash).slice(0, Math.max(0, budget - inChanged));
  return { selected, changed, unknown, gone };
}

/** The statuses a run gave the mutants it ran, by file and key. */
function statuses(piece: Piece): Map<string, string> {
  const out = new Map<string, string>();
  for (const [file, result] of Object.entries(piece.report.files)) {
    for (const [m, key] of mutantKeys(result.source, result.mutants)) out.set(`${file}#${key}`, m.status);
  }
  return out;
}

/** A changed file's score now: its mutants detected, of those that count (the bench's measure: results.ts). */
function scoreNow(file: string, current: FileMutants, first: Map<string, string>, again: Map<string, string>) {
  let counted = 0;
  let detected = 0;
  const undetected: MutantResult[] = [];
  for (const [m, key] of mutantKeys(current.source, current.mutants)) {
    const id = `${file}#${key}`;
    const status = again.get(id) ?? first.get(id);
    if (status === undefined || status === 'Ignored' || status === 'RuntimeError' || status === 'CompileError')
      continue;
    counted += 1;
    if (!UNDETECTED.has(status)) detected += 1;
    else undetected.push(m);
  }
  return { score: counted ? Math.round((detected / counted) * 10_000) / 100 : 100, undetected };
}

async function runMutants(
  mutate: string[],
  files: string[],
  bench: Bench,
  o: { concurrency: number | undefined; out: string },
): Promise<Piece> {
  return runCampaign({
    mutate,
    files,
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
  const whole = changed.reduce((n, f) => n + current.get(f)!.mutants.length, 0);
  console.log(
    `mutate check: ${changed.length} file(s) changed since ${BENCH_FILE} was measured` +
      `${changed.length ? ` (${changed.join(', ')}: all ${whole} of their mutants)` : ''}, and ${selected.length} ` +
      `mutant(s) it records as killed sampled from the rest (--budget ${o.budget})`,
  );
  if (unknown) console.log(`  ${unknown} mutant(s) of changed files are new to the bench`);
  if (gone) console.log(`  ${gone} killed mutant(s) of the bench no longer exist (their code changed)`);
  if (changed.length === 0 && selected.length === 0) return 0;
  const mutate = [...changed, ...selected.map((c) => mutateRange(c.file, c.mutant))];
  const files = [...new Set([...changed, ...selected.map((c) => c.file)])];
  const first = statuses(await runMutants(mutate, files, bench, { ...o, out: join(o.out, 'first') }));
  // A second chance for every mutant now undetected: the changed files' and the sample's.
  const missed: { file: string; mutant: MutantResult }[] = [];
  for (const file of changed)
    missed.push(...scoreNow(file, current.get(file)!, first, new Map()).undetected.map((mutant) => ({ file, mutant })));
  for (const c of selected) if (UNDETECTED.has(first.get(`${c.file}#${c.key}`) ?? 'Survived')) missed.push(c);
  const again = missed.length
    ? statuses(
        await runMutants(
          missed.map((m) => mutateRange(m.file, m.mutant)),
          [...new Set(missed.map((m) => m.file))],
          bench,
          { ...o, out: join(o.out, 'again') },
        ),
      )
    : new Map<string, string>();
  const problems: string[] = [];
  for (const file of changed) {
    const now = scoreNow(file, current.get(file)!, first, again);
    const was = bench.files[file]!.score;
    console.log(`  ${file}: ${now.score}% now, ${was}% measured`);
    if (now.score < was) {
      problems.push(`${file}: its score fell from ${was}% to ${now.score}%; undetected now:`);
      for (const m of now.undetected) problems.push(describe(file, current.get(file)!.source, m));
    }
  }
  const regressions = selected.filter((c) => UNDETECTED.has(again.get(`${c.file}#${c.key}`) ?? 'Killed'));
  if (regressions.length)
    problems.push(`${regressions.length} mutant(s) ${BENCH_FILE} records as killed now survive (twice):`);
  for (const r of regressions) problems.push(describe(r.file, current.get(r.file)!.source, r.mutant));
  if (problems.length === 0) {
    console.log(
      `mutate check: no changed file's score fell, and the ${selected.length} sampled mutant(s) are still killed`,
    );
    return 0;
  }
  console.log(`mutate check: FAILED\n${problems.join('\n')}`);
  console.log(
    '\nA check that caught these no longer does, or new code no check reaches. Reproduce: ' +
      'npm run mutate -- --files <file>:<line>-<line>',
  );
  return 1;
}

function describe(file: string, source: string, m: MutantResult): string {
  const diff = mutantDiff(source, m)
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');
  return `\n${file}:${m.location.start.line}:${m.location.start.column} ${m.mutatorName}\n${diff}`;
}
