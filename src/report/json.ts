/** conformance.json: the machine-readable verdict (its schema is src/results/report.ts). */
import { stringifyJson } from '../base/json.ts';
import type { Redactor } from '../base/redact.ts';
import type { ConformanceReport } from '../results/report.ts';

/** The report as JSON text, with every known secret redacted once more on the way out. */
export function renderJson(report: ConformanceReport, redactor: Redactor): string {
  return redactor.redact(`${stringifyJson(report, 2)}\n`);
}
