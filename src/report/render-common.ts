/** What the HTML and Markdown renderings share: verdict order, areas, evidence text. */
import type { Exchange } from '../results/exchange.ts';
import type { ConformanceReport, Failure, RequirementResult, Verdict } from '../results/report.ts';

export const VERDICTS: Verdict[] = ['fail', 'warn', 'pass', 'observed', 'skip'];

/** A failure or warning on any target. */
export function isFailing(r: RequirementResult): boolean {
  if (r.verdict === 'fail' || r.verdict === 'warn') return true;
  return Object.values(r.byTarget ?? {}).some((t) => t.verdict === 'fail' || t.verdict === 'warn');
}

/** A run against several targets shows a column per target. */
export function isMultiTarget(report: Pick<ConformanceReport, 'targets'>): boolean {
  return report.targets.length > 1;
}

/** One exchange as HTTP text: request line, headers, body; then the response (or why none came). */
export function exchangeText(e: Exchange, maxBody = Infinity): string {
  const cap = (body: string) =>
    body.length > maxBody
      ? `${body.slice(0, maxBody)}\n… (${body.length - maxBody} more characters in conformance.json)`
      : body;
  const lines = [`${e.request.method} ${e.request.url}`];
  for (const [k, v] of Object.entries(e.request.headers)) lines.push(`${k}: ${v}`);
  if (e.request.body !== undefined && e.request.body !== '') lines.push('', cap(e.request.body));
  lines.push('');
  if (e.response) {
    lines.push(`HTTP ${e.response.status}  (${e.durationMs} ms)`);
    for (const [k, v] of Object.entries(e.response.headers)) lines.push(`${k}: ${v}`);
    if (e.response.body !== '') lines.push('', cap(e.response.body));
  } else lines.push(`(no answer: ${e.error ?? 'unknown'})`);
  return lines.join('\n');
}

/** The target as one line: base URL, what it is, faults. */
export function describeTarget(t: {
  baseUrl: string;
  kind: string;
  referenceFaults?: string[] | undefined;
  referenceVariants?: string[] | undefined;
}): string {
  const kind = t.kind === 'embedded' ? ' (embedded reference server)' : '';
  const faults = t.referenceFaults?.length ? `, with faults: ${t.referenceFaults.join(', ')}` : '';
  const variants = t.referenceVariants?.length ? `, with variants: ${t.referenceVariants.join(', ')}` : '';
  return `${t.baseUrl}${kind}${faults}${variants}`;
}

export function serverHeadersText(headers: Record<string, string[]> | undefined): string {
  const entries = Object.entries(headers ?? {});
  if (!entries.length) return 'none seen';
  return entries.map(([k, vs]) => `${k}: ${vs.join(' | ')}`).join('; ');
}

/** The curl command of the request a failure judged (the last one it judged; the last exchange when none is marked). */
export function judgedCurl(f: Pick<Failure, 'evidence'>): string | undefined {
  const evidence = f.evidence;
  if (!evidence) return undefined;
  const judged = evidence.exchanges.map((e, i) => (e.judged ? i : -1)).filter((i) => i >= 0);
  return evidence.curl[judged.at(-1) ?? evidence.curl.length - 1];
}
