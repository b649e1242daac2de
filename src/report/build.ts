/**
 * Building conformance.json from what a run produced, and what every rendering of it shares:
 * the overall verdict, and the run's settings with secrets taken out.
 */
import { REDACTED } from '../client/redact.ts';
import { CATALOGUE_VERSION } from '../spec/index.ts';
import { VERSION } from '../version.ts';
import {
  REPORT_SCHEMA_VERSION,
  type ConformanceReport,
  type Interruption,
  type RunSummary,
  type TargetEntry,
} from './json.ts';
import type { ConformanceReport as ParsedReport } from './schema.ts';
import type { RequirementResult } from './verdicts.ts';

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
  /** The run's settings, secrets already removed (publicOptions). */
  options: Record<string, unknown>;
}

export interface JudgedTarget {
  label?: string;
  baseUrl: string;
  kind: 'embedded' | 'url';
  referenceFaults?: string[];
  serverHeaders: Record<string, string[]>;
  summary: RunSummary;
  results: RequirementResult[];
}

/** The report of a run against one target: `targets` holds it once, labelled "default". */
export function buildReport(run: RunInfo, target: JudgedTarget): ConformanceReport {
  const label = target.label ?? DEFAULT_TARGET_LABEL;
  const faults = target.referenceFaults?.length ? { referenceFaults: target.referenceFaults } : {};
  const entry: TargetEntry = {
    label,
    baseUrl: target.baseUrl,
    kind: target.kind,
    ...faults,
    serverHeaders: target.serverHeaders,
    summary: target.summary,
  };
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    tool: { name: 'screenconf', version: VERSION },
    catalogueVersion: CATALOGUE_VERSION,
    run: {
      id: run.id,
      startedAt: run.startedAt.toISOString(),
      finishedAt: run.finishedAt.toISOString(),
      seed: run.seed,
      runs: run.runs,
      suites: run.suites,
      ...(run.interrupted ? { interrupted: run.interrupted } : {}),
      options: run.options,
    },
    target: { baseUrl: target.baseUrl, kind: target.kind, ...faults, label, serverHeaders: target.serverHeaders },
    targets: [entry],
    summary: target.summary,
    results: target.results,
  };
}

/**
 * The settings of a run as the report shows them: every set value, except that a secret is
 * "[REDACTED]" (that it was given is worth knowing; its value never leaves the harness), at
 * any depth (a target entry carries its own credentials).
 */
export function publicOptions(config: Record<string, unknown>, secretKeys: readonly string[]): Record<string, unknown> {
  const clean = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(clean);
    if (value === null || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v === undefined) continue;
      out[key] = secretKeys.includes(key) ? REDACTED : clean(v);
    }
    return out;
  };
  return clean(config) as Record<string, unknown>;
}

export type OverallVerdict = 'CONFORMING' | 'NOT CONFORMING' | 'INCOMPLETE' | 'INTERRUPTED';

/** The one-word verdict of a report, as the console, the HTML and the Markdown show it. */
export function overallVerdict(report: {
  run: { interrupted?: unknown };
  summary: Pick<ParsedReport['summary'], 'harnessFaults' | 'suiteErrors' | 'conforming'>;
}): OverallVerdict {
  if (report.run.interrupted) return 'INTERRUPTED';
  if (report.summary.harnessFaults.length || report.summary.suiteErrors.length) return 'INCOMPLETE';
  return report.summary.conforming ? 'CONFORMING' : 'NOT CONFORMING';
}

/** One sentence under the verdict: counts, and why when the verdict is not a plain judgement. */
export function verdictLine(report: Pick<ParsedReport, 'run' | 'summary'>): string {
  const s = report.summary;
  const counts = `${s.mustFailures} MUST failed, ${s.shouldWarnings} SHOULD warned, ${s.counts.observed} observed, ${s.counts.skip} skipped, ${s.counts.pass} passed`;
  const verdict = overallVerdict(report);
  if (verdict === 'INTERRUPTED')
    return `${counts}; the run was stopped (${report.run.interrupted}): what ran is reported`;
  if (verdict === 'INCOMPLETE')
    return `${counts}; ${s.harnessFaults.length + s.suiteErrors.length} problem(s) kept checks from judging the target`;
  return counts;
}
