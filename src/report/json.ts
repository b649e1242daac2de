/** conformance.json: the machine-readable verdict. Field names are a contract: add, never rename. */
import type { Redactor } from '../client/redact.ts';
import type { RequirementResult, Summary } from './verdicts.ts';

export const REPORT_SCHEMA_VERSION = 1;

export interface ConformanceReport {
  schemaVersion: number;
  tool: { name: 'screenconf'; version: string };
  catalogueVersion: string;
  run: { id: string; startedAt: string; finishedAt: string; seed: number; runs: number; suites: string[] };
  target: { baseUrl: string; kind: 'embedded' | 'url'; referenceFaults?: string[] };
  summary: Summary & { leftovers: number[]; suiteErrors: string[] };
  results: RequirementResult[];
}

/** The report as JSON text, with every known secret redacted once more on the way out. */
export function renderJson(report: ConformanceReport, redactor: Redactor): string {
  return redactor.redact(`${JSON.stringify(report, null, 2)}\n`);
}
