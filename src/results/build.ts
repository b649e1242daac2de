/**
 * Building conformance.json from what a run produced, and what every rendering of it shares:
 * the overall verdict in one word and one line.
 */
import { CATALOGUE_VERSION } from '../spec/index.ts';
import { VERSION } from '../version.ts';
import type { CheckOutcome } from './outcome.ts';
import {
  type Check,
  type ConformanceReport,
  type Interruption,
  REPORT_SCHEMA_VERSION,
  type RequirementResult,
  type Shard,
  type Summary,
  type TargetKind,
  type TargetSummary,
} from './report.ts';

/** The label of the target of a run against one target. */
export const DEFAULT_TARGET_LABEL = 'default';

export interface RunInfo {
  id: string;
  startedAt: Date;
  finishedAt: Date;
  seed: number;
  runs: number;
  suites: string[];
  interrupted?: Interruption;
  /** Why the run stopped early of its own accord (--max-failures). */
  cutShort?: string;
  /** The run's settings, secrets already removed (publicOptions). */
  options: Record<string, unknown>;
  /** The machine that ran it. */
  host?: { os: string; node: string };
  /** The git commit of the screenconf checkout, when it ran from one. */
  commit?: string | undefined;
  /** --shard I/N: the shard this partial report is of. */
  shard?: Shard | undefined;
  /** --duration: how many rounds of the suites ran. */
  rounds?: number | undefined;
}

export interface JudgedTarget {
  label?: string;
  baseUrl: string;
  kind: TargetKind;
  referenceFaults?: string[];
  referenceVariants?: string[];
  serverHeaders: Record<string, string[]>;
  summary: Summary;
  results: RequirementResult[];
  checks?: Check[];
}

/** Every check as the report lists it (`checks[]`), from the settled outcomes. */
export function checkEntries(outcomes: readonly CheckOutcome[]): Check[] {
  return outcomes.map((o) => ({
    suite: o.suite,
    name: o.name,
    state: o.state,
    requirements: o.requirements,
    durationMs: Math.round(o.durationMs),
    ...(o.skipReason ? { skipReason: o.skipReason } : {}),
    ...(o.notRun ? { notRun: true } : {}),
    ...(o.flaky !== undefined ? { flaky: o.flaky } : {}),
    ...(o.harnessFault ? { harnessFault: { code: o.harnessFault.code, message: o.harnessFault.message } } : {}),
    ...(o.cells?.length ? { cells: o.cells } : {}),
  }));
}

/** The report of a run against one target: `targets` holds it once, labelled "default". */
export function buildReport(run: RunInfo, target: JudgedTarget): ConformanceReport {
  const label = target.label ?? DEFAULT_TARGET_LABEL;
  const faults = {
    ...(target.referenceFaults?.length ? { referenceFaults: target.referenceFaults } : {}),
    ...(target.referenceVariants?.length ? { referenceVariants: target.referenceVariants } : {}),
  };
  const entry: TargetSummary = {
    label,
    baseUrl: target.baseUrl,
    kind: target.kind,
    ...faults,
    serverHeaders: target.serverHeaders,
    summary: target.summary,
  };
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    tool: { name: 'screenconf', version: VERSION, ...(run.commit ? { commit: run.commit } : {}) },
    catalogueVersion: CATALOGUE_VERSION,
    run: {
      id: run.id,
      startedAt: run.startedAt.toISOString(),
      finishedAt: run.finishedAt.toISOString(),
      seed: run.seed,
      runs: run.runs,
      suites: run.suites,
      ...(run.interrupted ? { interrupted: run.interrupted } : {}),
      ...(run.cutShort ? { cutShort: run.cutShort } : {}),
      options: run.options,
      ...(run.host ? { host: run.host } : {}),
      ...(run.shard ? { shard: run.shard } : {}),
      ...(run.rounds !== undefined ? { rounds: run.rounds } : {}),
    },
    target: { baseUrl: target.baseUrl, kind: target.kind, ...faults, label, serverHeaders: target.serverHeaders },
    targets: [entry],
    summary: target.summary,
    results: target.results,
    ...(target.checks ? { checks: target.checks } : {}),
  };
}

export type OverallVerdict = 'CONFORMING' | 'NOT CONFORMING' | 'INCOMPLETE' | 'INTERRUPTED';

/** The one-word verdict of a report, as the console, the HTML and the Markdown show it. */
export function overallVerdict(report: {
  run: { interrupted?: unknown };
  summary: Pick<Summary, 'harnessFaults' | 'suiteErrors' | 'conforming' | 'verdict'>;
}): OverallVerdict {
  if (report.run.interrupted) return 'INTERRUPTED';
  const { verdict } = report.summary;
  if (verdict)
    return verdict === 'conforming' ? 'CONFORMING' : verdict === 'incomplete' ? 'INCOMPLETE' : 'NOT CONFORMING';
  // Reports before schemaVersion 4 carry no verdict.
  if (report.summary.harnessFaults.length || report.summary.suiteErrors.length) return 'INCOMPLETE';
  return report.summary.conforming ? 'CONFORMING' : 'NOT CONFORMING';
}

/** One target's verdict in lower-case words; anything but "conforming" goes through `stress` (bold). */
export function targetVerdict(
  summary: Pick<Summary, 'harnessFaults' | 'suiteErrors' | 'conforming' | 'verdict'>,
  stress: (words: string) => string,
): string {
  const words = overallVerdict({ run: {}, summary }).toLowerCase();
  return words === 'conforming' ? words : stress(words);
}

/** Why a run is incomplete, in words: MUST requirements not judged, problems that kept checks from judging. */
export function incompleteWhy(summary: Pick<Summary, 'mustNotJudged' | 'harnessFaults' | 'suiteErrors'>): string {
  const n = summary.mustNotJudged?.length ?? 0;
  const problems = summary.harnessFaults.length + summary.suiteErrors.length;
  const parts = [
    n ? `${n} MUST requirement${n === 1 ? '' : 's'} not judged` : '',
    problems ? `${problems} problem${problems === 1 ? '' : 's'} kept checks from judging the target` : '',
  ];
  return parts.filter(Boolean).join('; ');
}

/** One sentence under the verdict: counts, and why when the verdict is not a plain judgement. */
export function verdictLine(report: Pick<ConformanceReport, 'run' | 'summary'>): string {
  const s = report.summary;
  const counts =
    `${s.mustFailures} MUST failed, ${s.shouldWarnings} SHOULD warned, ${s.counts.observed} observed, ` +
    `${s.counts.skip} skipped, ${s.counts.pass} passed`;
  const verdict = overallVerdict(report);
  if (verdict === 'INTERRUPTED')
    return `${counts}; the run was stopped (${report.run.interrupted}): what ran is reported`;
  if (verdict === 'INCOMPLETE') return `${incompleteWhy(s)}; ${counts}`;
  return counts;
}
