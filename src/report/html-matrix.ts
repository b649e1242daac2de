/**
 * The input matrix in report.html (issue 25 §5): per way in, how many cells were sent and each oracle's
 * counts; then, folded, every cell with its verdict, status and each oracle's result, or why it was not sent.
 */
import type { ConformanceReport } from '../results/report.ts';
import { matrixCounts, matrixRows, ORACLE_ORDER, type MatrixRow } from '../results/matrix.ts';
import { esc } from './html-parts.ts';

const CLASS: Record<string, string> = { pass: 'pass', fail: 'fail', 'not-judged': 'skip', '-': '' };

function cellRow(r: MatrixRow): string {
  const results = ORACLE_ORDER.map((o) => {
    const v = r.results[o];
    return `<td class="${CLASS[v ?? '-'] ?? ''}">${esc(v ?? '')}</td>`;
  }).join('');
  const status = r.sent ? esc(r.status ?? '') : 'not sent';
  const why = r.why ?? r.notSent ?? '';
  const cell = `<td><code>${esc(r.cell)}</code></td>`;
  return `<tr>${cell}<td>${esc(r.verdict)}</td><td>${status}</td>${results}<td>${esc(why)}</td></tr>`;
}

/** The section, or nothing when the run judged no cell of the matrix. */
export function matrixSection(report: ConformanceReport): string {
  if (!(report.checks ?? []).some((c) => c.cells?.length)) return '';
  const rows = matrixRows(report);
  const counts = matrixCounts(rows);
  const head = `<tr><th>Way in</th><th>Cells sent</th>${ORACLE_ORDER.map((o) => `<th>${esc(o)}</th>`).join('')}</tr>`;
  const summary = counts
    .map((c) => {
      const oracles = ORACLE_ORDER.map((o) => {
        const n = c.byOracle[o];
        if (!n) return '<td>–</td>';
        const cls = n.fail ? 'fail' : 'pass';
        const notJudged = n.notJudged ? `, ${n.notJudged} not judged` : '';
        const text = `${n.pass} pass${n.fail ? `, ${n.fail} fail` : ''}${notJudged}`;
        return `<td class="${cls}">${esc(text)}</td>`;
      }).join('');
      return `<tr><td>${esc(c.way)}</td><td>${c.sent} of ${c.cells}</td>${oracles}</tr>`;
    })
    .join('\n');
  const cellHead =
    `<tr><th>Cell</th><th>Conforming</th><th>Status</th>${ORACLE_ORDER.map((o) => `<th>${esc(o)}</th>`).join('')}` +
    '<th>Why</th></tr>';
  const perWay = counts
    .map((c) => {
      const mine = rows.filter((r) => r.way === c.way);
      const failing = mine.some((r) => Object.values(r.results).includes('fail'));
      return (
        `<details${failing ? ' open' : ''}><summary>${esc(c.way)}: ${mine.length} cells</summary>` +
        `<table class="matrix"><thead>${cellHead}</thead>\n${mine.map(cellRow).join('\n')}\n</table></details>`
      );
    })
    .join('\n');
  return `<section id="matrix"><h2>Input matrix</h2>
<p>Every writable field, way in, encoding and kind of value the run enumerates (<code>screenconf list --matrix</code>),
and what it did with each: conforming means what a conforming server does with the value (accept, reject, open;
act, exact, none for a named record); each oracle's result, or why the cell was not sent.</p>
<table class="matrix-summary"><thead>${head}</thead>
${summary}
</table>
${perWay}
</section>`;
}
