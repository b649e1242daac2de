/** What the HTML and Markdown renderings share: verdict order, areas, evidence text. */
import type { Exchange } from '../results/exchange.ts';
import { isUserRequirement } from '../spec/index.ts';
import type { ConformanceReport, Failure, RequirementResult, Verdict } from '../results/report.ts';

/** How every rendering marks a requirement of the user's own catalogue (run --suites-dir), after its id. */
export const YOURS = '(yours)';

/** ` (yours)` after the id of a user's requirement; '' after screenconf's. */
export function ownerMark(r: { owner?: string | undefined }): string {
  return isUserRequirement(r) ? ` ${YOURS}` : '';
}

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

/**
 * What a run against a target made and cannot delete through the interface, in words; undefined
 * when nothing (or the embedded server, gone with the run).
 */
export function undeletableText(
  cleanup: { undeletable?: { customers: number } | undefined } | undefined,
  kind: string,
): string | undefined {
  const customers = cleanup?.undeletable?.customers ?? 0;
  if (!customers || kind === 'embedded') return undefined;
  return (
    `${customers} customer(s) made with the run's cases: the interface has no customer deletion, so they may ` +
    'remain on the target (a server may remove a customer with its case; the interface does not show it)'
  );
}

export function serverHeadersText(headers: Record<string, string[]> | undefined): string {
  const entries = Object.entries(headers ?? {});
  if (!entries.length) return 'none seen';
  return entries.map(([k, vs]) => `${k}: ${vs.join(' | ')}`).join('; ');
}

/**
 * A sharded run in one line: a shard's partial report (which suite files it ran, and that merge judges the whole),
 * or a report merged from shards (each shard's run id and suite files); undefined for a run of one process.
 */
export function shardsText(run: ConformanceReport['run']): string | undefined {
  if (run.shard?.by === 'runs') {
    const { index, count, runs } = run.shard;
    return (
      `shard ${index}/${count} of a campaign: ${runs} of the ${run.runs} generated cases per property, on seeds of ` +
      `its own; a partial report, screenconf merge judges the whole run from the ${count} shards`
    );
  }
  if (run.shard) {
    const { index, count, suites } = run.shard;
    return (
      `shard ${index}/${count} (${suites.join(', ')}): a partial report of this shard's part; ` +
      `screenconf merge judges the whole run from the ${count} shards`
    );
  }
  if (run.shards?.length)
    return (
      `merged from ${run.shards.length} shards: ` +
      run.shards
        .map((s) => `${s.index}/${s.count} run ${s.id} (${s.by === 'runs' ? `${s.runs} runs` : s.suites.join(', ')})`)
        .join('; ')
    );
  return undefined;
}

/** The curl command of the request a failure judged (the last one it judged; the last exchange when none is marked). */
export function judgedCurl(f: Pick<Failure, 'evidence'>): string | undefined {
  const evidence = f.evidence;
  if (!evidence) return undefined;
  const judged = evidence.exchanges.map((e, i) => (e.judged ? i : -1)).filter((i) => i >= 0);
  return evidence.curl[judged.at(-1) ?? evidence.curl.length - 1];
}
