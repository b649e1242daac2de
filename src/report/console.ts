/**
 * The console summary of a run against one target: a table by area, each failure with its
 * reproduction, what was not judged, the verdict and the gate. Callers redact the text.
 */
import { byArea } from '../results/judge.ts';
import type { GateSummary, RequirementResult, Summary, Verdict } from '../results/report.ts';
import { COLUMNS, PLAIN, palette, paintCount, paintWord } from './console-style.ts';
import {
  problemLines,
  harnessLines,
  verdictDetail,
  verdictWord,
  notJudgedLines,
  expectationLines,
  gateLine,
  gateMatters,
  expectedCount,
  skippedLines,
  failingLine,
  reportLine,
  userLines,
  type SummaryOptions,
} from './console-lines.ts';

/**
 * `interrupted` says why the run stopped early (a signal, the deadline), when it did. `notes`
 * go just before the verdict (how to reproduce and replay the failures).
 */
export function renderSummary(
  results: RequirementResult[],
  summary: Summary & { gate?: GateSummary },
  options: SummaryOptions,
): string {
  const { reportPath, interrupted, style = PLAIN, notes = [] } = options;
  const p = palette(style.colour);
  const lines: string[] = [];
  const rows = byArea(results);
  const width = Math.max(24, ...rows.map((r) => r.title.length));
  const withExpected = expectedCount(results) > 0;
  const header = [...COLUMNS.map((c) => c.padStart(10)), ...(withExpected ? ['expected'.padStart(10)] : [])].join('');
  lines.push('', p.bold(`${'Area'.padEnd(width)}  ${header}`));
  const cells = (counts: Record<Verdict, number>, area?: string) => {
    const out = COLUMNS.map((c) => paintCount(p, c, counts[c], String(counts[c]).padStart(10)));
    if (withExpected) {
      const n = expectedCount(area === undefined ? results : results.filter((r) => r.area === area));
      out.push(n ? p.magenta(String(n).padStart(10)) : p.dim(String(n).padStart(10)));
    }
    return out.join('');
  };
  for (const row of rows) lines.push(`${row.title.padEnd(width)}  ${cells(row.counts, row.area)}`);
  lines.push(p.bold(`${'All requirements'.padEnd(width)}  `) + cells(summary.counts));
  lines.push(...userLines(p, results));

  for (const r of results.filter((x) => x.verdict === 'fail' || x.verdict === 'warn'))
    lines.push(...problemLines(p, r, r.failures ?? []));
  lines.push(...harnessLines(summary));
  lines.push(...skippedLines(results));
  lines.push(...notJudgedLines(summary));
  const gate = summary.gate && gateMatters(summary.gate) ? summary.gate : undefined;
  if (gate) lines.push(...expectationLines(p, gate));
  if (notes.length) lines.push('', ...notes);
  const word = verdictWord(summary, interrupted);
  lines.push('', `Verdict: ${paintWord(p, word)} — ${verdictDetail(summary, interrupted)}`);
  if (gate && !interrupted) lines.push(gateLine(p, gate, results));
  else {
    const failing = failingLine(results);
    if (failing) lines.push(failing);
  }
  if (options.cost) lines.push(options.cost);
  lines.push(reportLine(reportPath, results));
  return lines.join('\n');
}

export { githubAnnotations } from './annotations.ts';
export { renderMultiSummary } from './console-multi.ts';
export { costLine, reproductionNotes, runEndLine, type SummaryOptions } from './console-lines.ts';
export { type ConsoleStyle, PLAIN } from './console-style.ts';
