/** The console summary of a run: a table by area, the verdict, then each failure with its reproduction. */
import { byArea, type RequirementResult, type Summary, type Verdict } from './verdicts.ts';

const COLUMNS: Verdict[] = ['pass', 'fail', 'warn', 'skip', 'observed'];

export function renderSummary(results: RequirementResult[], summary: Summary & { leftovers: number[]; suiteErrors: string[] }, reportPath: string): string {
  const lines: string[] = [];
  const rows = byArea(results);
  const width = Math.max(24, ...rows.map((r) => r.title.length));
  lines.push('', `${'Area'.padEnd(width)}  ${COLUMNS.map((c) => c.padStart(10)).join('')}`);
  for (const row of rows) lines.push(`${row.title.padEnd(width)}  ${COLUMNS.map((c) => String(row.counts[c]).padStart(10)).join('')}`);
  lines.push(`${'All requirements'.padEnd(width)}  ${COLUMNS.map((c) => String(summary.counts[c]).padStart(10)).join('')}`);

  const problems = results.filter((r) => r.verdict === 'fail' || r.verdict === 'warn');
  for (const r of problems) {
    lines.push('', `${r.verdict.toUpperCase()} ${r.id} (${r.level}) ${r.statement}`, `  source: ${r.source}`);
    for (const f of r.failures ?? []) {
      lines.push(`  check: ${f.test}`);
      for (const l of f.message.split('\n').slice(0, 12)) lines.push(`    ${l}`);
      const curl = f.evidence?.curl.at(-1);
      if (curl) lines.push('  Reproduce with:', `    ${curl}`);
    }
  }
  for (const fault of summary.harnessFaults) lines.push('', `HARNESS FAULT ${fault}`);
  for (const e of summary.suiteErrors) lines.push('', `SUITE ERROR ${e}`);
  if (summary.leftovers.length) lines.push('', `WARNING: could not delete cases ${summary.leftovers.join(', ')} on the target`);

  const verdict = summary.harnessFaults.length || summary.suiteErrors.length ? 'INCOMPLETE (harness fault)' : summary.conforming ? 'CONFORMING' : 'NOT CONFORMING';
  lines.push(
    '',
    `Verdict: ${verdict} — ${summary.mustFailures} MUST failed, ${summary.shouldWarnings} SHOULD warned, ${summary.counts.observed} observed, ${summary.counts.skip} skipped`,
    `Report: ${reportPath}`,
  );
  return lines.join('\n');
}
