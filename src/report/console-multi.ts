/**
 * The console summary of a run against several targets: a column per target, the requirements on
 * which they differ, then each target's failures and verdict. Callers redact the text.
 */
import { byArea } from '../results/judge.ts';
import type { ConformanceReport, RequirementResult, Verdict } from '../results/report.ts';
import { COLUMNS, PLAIN, palette, paintCount, paintVerdict, paintWord } from './console-style.ts';
import {
  expectationLines,
  gateLine,
  harnessLines,
  notJudgedLines,
  problemLines,
  reportLine,
  type SummaryOptions,
  verdictDetail,
  verdictWord,
} from './console-lines.ts';

/** A cell of the per-target column of the differences table. */
function verdictCell(r: RequirementResult, label: string): { text: string; verdict: Verdict | 'expected-fail' } {
  const t = r.byTarget?.[label];
  if (!t) return { text: '-', verdict: 'skip' };
  if (t.expected?.outcome === 'expected-fail') return { text: `${t.verdict} (expected)`, verdict: 'expected-fail' };
  return { text: t.verdict === 'fail' ? 'FAIL' : t.verdict, verdict: t.verdict };
}

/** The summary of a run against several targets: a column per target, the differences, then each target's failures. */
export function renderMultiSummary(report: ConformanceReport, options: SummaryOptions): string {
  const { reportPath, interrupted, style = PLAIN, notes = [] } = options;
  const p = palette(style.colour);
  const labels = report.targets.map((t) => t.label);
  const lines: string[] = [];
  const perTarget = labels.map((label) => ({
    label,
    results: report.results.map((r) => ({
      ...r,
      verdict: r.byTarget?.[label]?.verdict ?? 'skip',
    })) as RequirementResult[],
  }));
  const areaRows = byArea(report.results);
  const width = Math.max(24, ...areaRows.map((r) => r.title.length));
  const cellW = 6;
  const groupW = COLUMNS.length * cellW;
  const short: Record<Verdict, string> = { pass: 'pass', fail: 'fail', warn: 'warn', skip: 'skip', observed: 'obs' };
  lines.push('', p.bold(`${''.padEnd(width)}  ${labels.map((l) => l.padStart(groupW)).join('   ')}`));
  lines.push(
    p.bold(
      `${'Area'.padEnd(width)}  ${labels.map(() => COLUMNS.map((c) => short[c].padStart(cellW)).join('')).join('   ')}`,
    ),
  );
  const rowCells = (area: string | undefined) =>
    perTarget
      .map(({ results }) => {
        const counts: Record<Verdict, number> = { pass: 0, fail: 0, warn: 0, skip: 0, observed: 0 };
        for (const r of results) if (area === undefined || r.area === area) counts[r.verdict] += 1;
        return COLUMNS.map((c) => paintCount(p, c, counts[c], String(counts[c]).padStart(cellW))).join('');
      })
      .join('   ');
  for (const row of areaRows) {
    const differs = report.results.some((r) => r.area === row.area && r.differs);
    const title = `${row.title.padEnd(width)}${differs ? ' ≠' : '  '}`;
    lines.push(`${differs ? p.yellow(title) : title}${rowCells(row.area)}`);
  }
  lines.push(`${p.bold('All requirements'.padEnd(width))}  ${rowCells(undefined)}`);

  const differing = report.results.filter((r) => r.differs);
  lines.push('');
  if (differing.length === 0) lines.push(`The targets agree on every requirement (${labels.join(', ')}).`);
  else {
    const idW = Math.max(11, ...differing.map((r) => r.id.length));
    const colW = Math.max(
      10,
      ...labels.map((l) => l.length + 2),
      ...differing.flatMap((r) => labels.map((l) => verdictCell(r, l).text.length + 2)),
    );
    lines.push(p.bold(p.yellow(`Differences between targets: ${differing.length} requirement(s)`)));
    const last = labels.length - 1;
    lines.push(
      p.bold(
        `  ${'Requirement'.padEnd(idW)}  ` +
          `${'level'.padEnd(8)}${labels.map((l, i) => (i === last ? l : l.padEnd(colW))).join('')}`,
      ),
    );
    for (const r of differing) {
      const cells = labels.map((l, i) => {
        const c = verdictCell(r, l);
        return paintVerdict(p, c.verdict, i === last ? c.text : c.text.padEnd(colW));
      });
      lines.push(`  ${r.id.padEnd(idW)}  ${r.level.padEnd(8)}${cells.join('')}`);
    }
  }

  for (const r of report.results) {
    for (const label of labels) {
      const t = r.byTarget?.[label];
      if (!t || (t.verdict !== 'fail' && t.verdict !== 'warn')) continue;
      const one = { ...r, verdict: t.verdict, ...(t.expected ? { expected: t.expected } : {}) };
      lines.push(...problemLines(p, one, t.failures ?? [], ` [${label}]`));
    }
  }
  for (const t of report.targets) {
    lines.push(...harnessLines(t.summary, ` [${t.label}]`), ...notJudgedLines(t.summary, ` [${t.label}]`));
  }
  const gate = report.summary.gate ?? {
    passed: report.summary.conforming,
    strict: false,
    expectedFailures: [],
    unexpectedPasses: [],
    expired: [],
    gating: [],
  };
  lines.push(...expectationLines(p, gate));
  if (notes.length) lines.push('', ...notes);
  lines.push('');
  for (const t of report.targets) {
    lines.push(
      `${t.label}: ${paintWord(p, verdictWord(t.summary, interrupted))} — ${verdictDetail(t.summary, interrupted)} ` +
        `(${t.baseUrl}; ` +
        `${t.report})`,
    );
  }
  const word = verdictWord(report.summary, interrupted);
  const failing = report.targets.filter((t) => t.summary.mustFailures > 0).map((t) => t.label);
  lines.push(
    `Verdict: ${paintWord(p, word)}${word === 'NOT CONFORMING' && failing.length ? ` (${failing.join(', ')})` : ''} ` +
      `— ${labels.length} targets, ${differing.length} requirement(s) differ`,
  );
  if (!interrupted) lines.push(gateLine(p, gate, report.results));
  if (options.cost) lines.push(options.cost);
  lines.push(reportLine(reportPath, report.results));
  return lines.join('\n');
}
