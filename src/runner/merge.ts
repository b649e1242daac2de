/**
 * `screenconf merge DIR… --out DIR`: the report folders of the shards of one run (`run --shard I/N`)
 * made one report folder, as the run unsharded would have written it: conformance.json judged from
 * the union of the shards' check records (results/shards.ts), report.html, report.md, junit.xml,
 * exchanges.har (every shard's exchanges), SHA256SUMS (and its signature with --sign-key). The
 * gate is applied again to the whole, with the settings and expectations the shards were run with.
 * A run of several targets merges target by target, then the targets as `run` does.
 */
import { createHash, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { Redactor } from '../base/redact.ts';
import { HarnessError } from '../errors.ts';
import { exitForRun } from '../exit.ts';
import type { Expectation, GateOptions } from '../results/gate.ts';
import { mergeReports, type TargetReport } from '../results/merge.ts';
import type { ConformanceReport } from '../results/report.ts';
import { checkShardSet, mergeShardReports, type ShardInput, shardExpectations } from '../results/shards.ts';
import { type ConsoleStyle, costLine, PLAIN, renderMultiSummary, renderSummary } from '../report/console.ts';
import { REPORT_FILES, writeRunReports } from '../report/folder.ts';
import { writeMergedHar } from '../report/har.ts';
import { loadReport } from '../report/load.ts';
import { runFolderOf } from '../report/commands.ts';
import { MANIFEST, SIGNATURE } from '../report/manifest.ts';
import { fingerprint, loadPrivateKey } from '../report/signature.ts';
import { VERSION } from '../version.ts';
import { gated } from './run.ts';

export interface MergeOptions {
  /** The shards' report folders (run folders, or report folders whose `latest` names one). */
  dirs: string[];
  /** The merged report's folder: new, or empty. */
  out: string;
  /** --sign-key: sign the merged folder's SHA256SUMS. */
  signKey?: string | undefined;
  cwd: string;
  /** YYYY-MM-DD, for expectation expiry. */
  today: string;
  /** Where the lines of the merge go (standard output). */
  print: (line: string) => void;
  style?: ConsoleStyle;
}

/** The merged run's id: the same shards give the same id (a hash of theirs). */
function mergedId(shards: readonly ShardInput[]): string {
  const ids = shards.map((s) => s.report.run.id).join(',');
  return createHash('sha256').update(ids).digest('hex').slice(0, 8);
}

/** The gate settings the shards ran with (every shard alike: checkShardSet refused otherwise). */
function gateOptionsOf(first: ConformanceReport, today: string): GateOptions {
  const o = first.run.options ?? {};
  return {
    strict: o.strict === true,
    requireComplete: o.requireComplete === true,
    today,
    ...(typeof o.expect === 'string' ? { expectationsFile: o.expect } : {}),
  };
}

/** The output folder: created, or an empty one; never a folder that holds something (nothing is overwritten). */
function outFolder(out: string): string {
  if (existsSync(out) && readdirSync(out).length > 0)
    throw new HarnessError('SC_USAGE', `--out ${out} is not empty: merge writes a folder of its own`);
  mkdirSync(out, { recursive: true });
  return out;
}

/** One target's shards (the same label in every shard's folder) merged, gated and written into `dir`. */
function mergeTarget(
  shardDirs: string[],
  dir: string,
  id: string,
  gate: { options: GateOptions; expectations: Expectation[] },
  redactor: Redactor,
  signKey?: KeyObject,
): ConformanceReport {
  const reports = shardDirs.map((d) => loadReport(join(d, REPORT_FILES.json)));
  const merged = mergeShardReports(reports, id);
  const final = gated(merged, gate.expectations, gate.options);
  mkdirSync(dir, { recursive: true });
  writeMergedHar(dir, shardDirs, { version: VERSION, runId: id }, redactor);
  writeRunReports(dir, final, redactor, signKey);
  return final;
}

/** Merges the shards' folders into one; returns the exit status of the merged run (as `run` would end). */
export function mergeShards(o: MergeOptions): number {
  const style = o.style ?? PLAIN;
  const folders = o.dirs.map((d) => runFolderOf(d, o.cwd, REPORT_FILES.json));
  const inputs = folders.map((f) => ({
    where: relative(o.cwd, f) || f,
    report: loadReport(join(f, REPORT_FILES.json)),
  }));
  const ordered = checkShardSet(inputs);
  const dirs = ordered.map((s) => folders[inputs.indexOf(s)]!);
  // Loaded before anything is written: a key that does not load must not leave half a folder.
  const signKey = o.signKey ? loadPrivateKey(resolve(o.cwd, o.signKey)) : undefined;
  const out = outFolder(resolve(o.cwd, o.out));
  const id = mergedId(ordered);
  const redactor = new Redactor();
  const first = ordered[0]!.report;
  const options = gateOptionsOf(first, o.today);
  const count = first.run.shard!.count;
  o.print(`screenconf ${VERSION} — merging ${count} shard(s) of seed ${first.run.seed} into run ${id}`);
  for (const s of ordered)
    o.print(`  shard ${s.report.run.shard!.index}/${count}: ${s.where} (run ${s.report.run.id})`);
  let report: ConformanceReport;
  if (first.targets.length > 1 || first.targets[0]!.report) {
    const done: TargetReport[] = [];
    for (const t of first.targets) {
      const expectations = shardExpectations(dirs.map((d) => loadReport(join(d, t.label, REPORT_FILES.json))));
      const final = mergeTarget(
        dirs.map((d) => join(d, t.label)),
        join(out, t.label),
        id,
        { options: { ...options, label: t.label }, expectations },
        redactor,
      );
      done.push({ label: t.label, report: final, path: `${t.label}/${REPORT_FILES.json}` });
    }
    writeMergedHar(
      out,
      done.map((d) => join(out, d.label)),
      { version: VERSION, runId: id },
      redactor,
    );
    const merged = mergeReports(done, options);
    const { shard: _shard, ...runOptions } = first.run.options ?? {};
    report = { ...merged, run: { ...merged.run, id, options: runOptions } };
    writeRunReports(out, report, redactor, signKey);
  } else {
    const expectations = shardExpectations(ordered.map((s) => s.report));
    report = mergeTarget(dirs, out, id, { options, expectations }, redactor, signKey);
  }
  const reportPath = join(out, REPORT_FILES.json);
  if (signKey) o.print(`signed ${MANIFEST} into ${SIGNATURE} with the key ${fingerprint(signKey)}`);
  const summaryOptions = { reportPath, style, notes: [], cost: costLine(report) };
  o.print(
    report.targets.length > 1
      ? renderMultiSummary(report, summaryOptions)
      : renderSummary(report.results, report.summary, summaryOptions),
  );
  const { summary } = report;
  return exitForRun({
    deadline: report.run.interrupted === 'deadline',
    // A shard that was stopped leaves the whole incomplete, whatever the gate says of what ran.
    incomplete: summary.harnessFaults.length > 0 || summary.suiteErrors.length > 0 || !!report.run.interrupted,
    gatePassed: summary.gate?.passed !== false,
  });
}
