/** Reading a conformance.json back: JSON, then the zod schema; a bad file is SC_REPORT_INVALID. */
import { parseJson } from '../base/json.ts';
import { readFileSync } from 'node:fs';
import { HarnessError } from '../errors.ts';
import { ConformanceReportSchema, type ConformanceReport } from '../results/report.ts';

/** The path of an issue as a JSON path (`results[3].verdict`). */
function issuePath(path: readonly PropertyKey[]): string {
  return (
    path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${String(p)}`)).join('') || '(top level)'
  );
}

export function parseReport(text: string, where: string): ConformanceReport {
  let data: unknown;
  try {
    data = parseJson(text);
  } catch (err) {
    throw new HarnessError('SC_REPORT_INVALID', `${where} is not JSON: ${(err as Error).message.split('\n')[0]}`);
  }
  const result = ConformanceReportSchema.safeParse(data);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const more =
      result.error.issues.length > 1
        ? ` (and ${result.error.issues.length - 1} more problem${result.error.issues.length === 2 ? '' : 's'})`
        : '';
    throw new HarnessError(
      'SC_REPORT_INVALID',
      `${where} is not a screenconf report: ${issuePath(issue.path)}: ${issue.message}${more}`,
    );
  }
  return result.data;
}

export function loadReport(path: string): ConformanceReport {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new HarnessError(
      'SC_REPORT_INVALID',
      `cannot read ${path}: ${(err as { code?: string }).code ?? (err as Error).message}`,
    );
  }
  return parseReport(text, path);
}
