/** The console summary of a run: a table by area, the verdict, then each failure with its reproduction. */
import type { RunSummary } from './json.ts';
import { byArea, type RequirementResult, type Verdict } from './verdicts.ts';

const COLUMNS: Verdict[] = ['pass', 'fail', 'warn', 'skip', 'observed'];

/** `interrupted` says why the run stopped early (a signal, the deadline), when it did. */
export function renderSummary(results: RequirementResult[], summary: RunSummary, reportPath: string, interrupted?: string): string {
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
      lines.push(`  check: ${f.test}${f.flaky === true ? ' (flaky: failed, then passed when re-run)' : f.flaky === false ? ' (failed again when re-run)' : ''}`);
      for (const l of f.message.split('\n').slice(0, 12)) lines.push(`    ${l}`);
      const curl = f.evidence?.curl.at(-1);
      if (curl) lines.push('  Reproduce with:', `    ${curl}`);
    }
  }
  for (const fault of summary.harnessFaults) lines.push('', `HARNESS FAULT ${fault}`);
  for (const e of summary.suiteErrors) lines.push('', `SUITE ERROR ${e}`);
  if (summary.leftovers.length) {
    const how = summary.cleanup ? `; the ledger lists them, remove them with: screenconf cleanup ${summary.cleanup.ledger}` : '';
    lines.push('', `WARNING: could not delete cases ${summary.leftovers.join(', ')} on the target${how}`);
  }
  if (summary.throttled) lines.push('', `Throttled: the target answered 429 to ${summary.throttled} request(s); each was retried after its Retry-After`);

  const verdict = interrupted
    ? `INTERRUPTED (${interrupted}; what ran is reported)`
    : summary.harnessFaults.length || summary.suiteErrors.length
      ? 'INCOMPLETE (harness fault)'
      : summary.conforming
        ? 'CONFORMING'
        : 'NOT CONFORMING';
  lines.push(
    '',
    `Verdict: ${verdict} — ${summary.mustFailures} MUST failed, ${summary.shouldWarnings} SHOULD warned, ${summary.counts.observed} observed, ${summary.counts.skip} skipped`,
    `Report: ${reportPath}`,
  );
  return lines.join('\n');
}
