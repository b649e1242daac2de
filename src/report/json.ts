/** conformance.json: the machine-readable verdict. Field names are a contract: add, never rename. */
import type { Redactor } from '../client/redact.ts';
import type { RequirementResult, Summary } from './verdicts.ts';

/** The schema (zod, and the JSON Schema made from it) is in schema.ts; what is written here must fit it. */
export { REPORT_SCHEMA_VERSION } from './schema.ts';

/** Why a run stopped before its end: a signal, or the run deadline (--deadline-ms). */
export type Interruption = 'SIGINT' | 'SIGTERM' | 'deadline';

/** What the run left on the target, per its ledger. */
export interface CleanupSummary {
  /** The run ledger (JSON lines), for `screenconf cleanup`. */
  ledger: string;
  /** --keep: nothing was removed on purpose; `left` lists what stays. */
  kept: boolean;
  /** Cases the end-of-run sweep removed (per-file teardown missed or never reached them). */
  removedAtEnd: number;
  /** Case ids still on the target. */
  left: number[];
  /** External ids of create requests that got no answer (the target may hold them; no id known). */
  unconfirmed: string[];
}

export type RunSummary = Summary & {
  /** Case ids that could not be removed (a harness warning). */
  leftovers: number[];
  suiteErrors: string[];
  /** Requests the target answered 429 (each retried after its Retry-After, within a budget). */
  throttled?: number;
  cleanup?: CleanupSummary;
};

/** One target of the run, with its own summary (`targets` of the report; "default" for a single target). */
export interface TargetEntry {
  label: string;
  baseUrl: string;
  kind: 'embedded' | 'url';
  referenceFaults?: string[];
  /** Server identification headers seen in its responses: name → distinct values. */
  serverHeaders: Record<string, string[]>;
  summary: RunSummary;
}

export interface ConformanceReport {
  schemaVersion: number;
  tool: { name: 'screenconf'; version: string };
  catalogueVersion: string;
  run: {
    id: string;
    startedAt: string;
    finishedAt: string;
    seed: number;
    runs: number;
    suites: string[];
    interrupted?: Interruption;
    /** The run's settings, secrets replaced by "[REDACTED]". */
    options?: Record<string, unknown>;
  };
  /** The (first) target; `targets` lists every one. */
  target: {
    baseUrl: string;
    kind: 'embedded' | 'url';
    referenceFaults?: string[];
    label?: string;
    serverHeaders?: Record<string, string[]>;
  };
  targets: TargetEntry[];
  summary: RunSummary;
  results: RequirementResult[];
}

/** The report as JSON text, with every known secret redacted once more on the way out. */
export function renderJson(report: ConformanceReport, redactor: Redactor): string {
  return redactor.redact(`${JSON.stringify(report, null, 2)}\n`);
}
