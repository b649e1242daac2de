/**
 * The run's token renewals as the reports show them (issue 33 §9): each request the target refused 401 with the
 * run's own access token, sent again with a new one, and the cause judged from the run's record
 * (results/token-renewals.ts). report.md shows the first few, report.html every one the report lists.
 */
import type { Summary } from '../results/report.ts';
import { causeCounts, type Renewal } from '../results/token-renewals.ts';
import { esc } from './html-parts.ts';

/** The columns of a renewal's row. */
export const RENEWAL_COLUMNS = ['Refused', 'Request', 'Sent by', 'Token age', 'expires_in', 'Again', 'Cause'];

/** A renewal's row, as text cells. */
export function renewalCells(r: Renewal): string[] {
  return [
    r.at,
    r.request,
    r.check ?? 'the runner',
    r.tokenAgeMs === undefined ? '?' : `${(r.tokenAgeMs / 1000).toFixed(1)} s`,
    r.expiresIn === undefined ? '?' : `${r.expiresIn} s`,
    r.retryStatus === undefined ? '?' : `HTTP ${r.retryStatus}`,
    `${r.cause}: ${r.why}`,
  ];
}

/** The sentence that leads the renewals of a summary; undefined without any. */
export function renewalsLead(summary: Pick<Summary, 'tokenRenewals' | 'renewals'>): string | undefined {
  if (!summary.tokenRenewals) return undefined;
  const listed = summary.renewals ?? [];
  const shown = listed.length < summary.tokenRenewals ? ` (the ${listed.length} listed)` : '';
  const causes = listed.length ? `: ${causeCounts(listed)}${shown}` : '';
  return (
    `The target refused the run's access token (401) on ${summary.tokenRenewals} request(s), each sent again with a ` +
    `new token${causes}. A token refused well inside the lifetime its expires_in stated, while the newest of its ` +
    'client, fails AUTH-TOKEN-LIFETIME (inside-lifetime); the other causes are legal.'
  );
}

/** The renewals in report.html, or nothing without any. */
export function renewalsHtml(summary: Pick<Summary, 'tokenRenewals' | 'renewals'>): string {
  const lead = renewalsLead(summary);
  if (!lead) return '';
  const head = `<tr>${RENEWAL_COLUMNS.map((c) => `<th>${esc(c)}</th>`).join('')}</tr>`;
  const rows = (summary.renewals ?? []).map((r) => {
    const cls = r.cause === 'inside-lifetime' ? ' class="warn"' : '';
    return `<tr${cls}>${renewalCells(r)
      .map((c) => `<td>${esc(c)}</td>`)
      .join('')}</tr>`;
  });
  return (
    `<section id="renewals"><h2>Token renewals</h2><p>${esc(lead)}</p>` +
    `<table><thead>${head}</thead>${rows.join('\n')}</table></section>`
  );
}
