/**
 * The input matrix as text (screenconf list --matrix): per way in, its counts and each cell with its verdict,
 * its status and each oracle's result, or why it was not sent.
 */
import { type MatrixRow, matrixCounts, ORACLE_ORDER } from '../results/matrix.ts';

const MARK: Record<string, string> = { pass: 'pass', fail: 'FAIL', 'not-judged': 'not judged', '-': '-' };

/** Lines of the matrix: a header per way in, then one line per cell. */
export function matrixLines(rows: readonly MatrixRow[], onlyFailing = false): string[] {
  const out: string[] = [];
  const counts = new Map(matrixCounts(rows).map((c) => [c.way, c]));
  for (const [way, c] of counts) {
    const oracles = ORACLE_ORDER.filter((o) => c.byOracle[o])
      .map((o) => {
        const n = c.byOracle[o]!;
        const notJudged = n.notJudged ? `, ${n.notJudged} not judged` : '';
        return `${o} ${n.pass} pass${n.fail ? `, ${n.fail} FAIL` : ''}${notJudged}`;
      })
      .join('; ');
    out.push('', `${way}: ${c.cells} cells, ${c.sent} sent${oracles ? ` — ${oracles}` : ''}`);
    const width = Math.max(...rows.filter((r) => r.way === way).map((r) => r.cell.length));
    for (const r of rows.filter((x) => x.way === way)) {
      const results = Object.entries(r.results)
        .map(([o, v]) => `${o}:${MARK[v] ?? v}`)
        .join(' ');
      if (onlyFailing && !Object.values(r.results).includes('fail')) continue;
      const what = r.sent ? `${String(r.status ?? '-').padEnd(4)} ${results}` : `not sent: ${r.notSent}`;
      out.push(`  ${r.cell.padEnd(width)}  ${r.verdict.padEnd(6)}  ${what}`);
      if (r.why && Object.values(r.results).includes('fail')) out.push(`      ${r.why}`);
    }
  }
  return out;
}
