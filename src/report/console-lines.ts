/**
 * The lines the console summaries share: each failure with its reproduction, problems of the run,
 * what was skipped and why, the gate and expectations, and how to reproduce and replay.
 */
import { dirname, join } from 'node:path';
import { oneLine } from '../base/text.ts';
import { incompleteWhy, overallVerdict } from '../results/build.ts';
import { deselected } from '../results/judge.ts';
import { causeCounts } from '../results/token-renewals.ts';
import {
  REPLAY_EXITS,
  REPRO_EXITS,
  type ConformanceReport,
  type Failure,
  type GateRef,
  type GateSummary,
  type Interruption,
  type RequirementResult,
  type Summary,
} from '../results/report.ts';
import { findRequirement } from '../spec/index.ts';
import { type ConsoleStyle, type Palette, paintVerdict } from './console-style.ts';
import { REPORT_FILES } from './folder.ts';
import { ownerMark } from './render-common.ts';
import { REPRO_DIR } from './repro.ts';

/** One failing check: its message (Expected / Received) and the curl that reproduces it. */
export function failureLines(f: Failure): string[] {
  const rerun =
    f.flaky === true
      ? ' (flaky: failed, then passed when re-run)'
      : f.flaky === false
        ? ' (failed again when re-run)'
        : '';
  const lines = [`  check: ${f.test}${rerun}`];
  for (const l of f.message.split('\n').slice(0, 12)) lines.push(`    ${l}`);
  // The evidence keeps the last few exchanges before the failure: the request at fault is often
  // not the last one (a rejected PATCH, then the read that shows what it changed), so all are shown.
  const curls = f.evidence?.curl ?? [];
  if (curls.length === 1) lines.push('  Reproduce with:', `    ${curls[0]}`);
  else if (curls.length > 1)
    lines.push(
      `  Reproduce with (${curls.length} requests: the setup, then the judged one):`,
      ...curls.map((c) => `    ${c}`),
    );
  return lines;
}

/** The entry of a fail or warn in the list of problems; `tag` names the target in a run with several. */
export function problemLines(p: Palette, r: RequirementResult, failures: Failure[], tag = ''): string[] {
  const expected = r.expected?.outcome === 'expected-fail';
  const head = expected ? `EXPECTED ${r.verdict.toUpperCase()}` : r.verdict.toUpperCase();
  const lines = [
    '',
    `${paintVerdict(p, expected ? 'expected-fail' : r.verdict, head)}${tag} ${p.bold(r.id)}${ownerMark(r)} ` +
      `(${r.level}) ${r.statement}`,
    `  source: ${r.source}`,
  ];
  if (r.expected)
    lines.push(
      `  expected to fail until ${r.expected.expires}: ` +
        `${r.expected.reason}${r.expected.outcome === 'expired' ? ' — EXPIRED' : ''}`,
    );
  for (const f of failures) lines.push(...failureLines(f));
  if (r.repro) lines.push(`  reproduce: ${r.repro.command}  (in the report folder; ${REPRO_EXITS})`);
  if (r.replay) lines.push(`  replay: ${r.replay.command}  (in the report folder; ${REPLAY_EXITS})`);
  return lines;
}

export function harnessLines(summary: Summary, tag = ''): string[] {
  const lines: string[] = [];
  // A fault may quote a server's body over several lines (an HTML error page): one line each here.
  const flat = (s: string) => s.replace(/\s*[\r\n]+\s*/g, ' ').trim();
  for (const fault of summary.harnessFaults) lines.push('', `HARNESS FAULT${tag} ${flat(fault)}`);
  for (const e of summary.suiteErrors) lines.push('', `SUITE ERROR${tag} ${flat(e)}`);
  if (summary.leftovers.length) {
    const how = summary.cleanup
      ? `; the ledger lists them, remove them with: screenconf cleanup ${summary.cleanup.ledger}`
      : '';
    lines.push('', `WARNING${tag}: could not delete cases ${summary.leftovers.join(', ')} on the target${how}`);
  }
  if (summary.throttled)
    lines.push(
      '',
      `Throttled${tag}: the target answered 429 to ${summary.throttled} request(s); each was retried after its ` +
        `Retry-After`,
    );
  if (summary.flaky?.length)
    lines.push(
      '',
      `Flaky${tag}: ${summary.flaky.join(', ')}: a check failed, then passed when re-run; not counted as a ` +
        'failure (the first failure is the reason of each in the report)',
    );
  if (summary.tokenRenewals) {
    const causes = summary.renewals?.length ? ` (${causeCounts(summary.renewals)}; report.md lists them)` : '';
    lines.push(
      '',
      `Token renewed${tag}: the target refused the run's access token (401) on ${summary.tokenRenewals} ` +
        `request(s)${causes}; each was sent again once with a new token (tokens may expire early or be revoked by ` +
        'a newer one; one refused inside its stated lifetime while the newest of its client fails AUTH-TOKEN-LIFETIME)',
    );
  }
  return lines;
}

export function verdictWord(summary: Summary, interrupted?: string): string {
  const word = overallVerdict({ run: { interrupted }, summary });
  if (word === 'INTERRUPTED') return `INTERRUPTED (${interrupted}; what ran is reported)`;
  return word;
}

/** The counts after the verdict word, led by why the run is incomplete when it is. */
export function verdictDetail(summary: Summary, interrupted?: string): string {
  const why = overallVerdict({ run: { interrupted }, summary }) === 'INCOMPLETE' ? `${incompleteWhy(summary)}; ` : '';
  return `${why}${countsLine(summary)}`;
}

/** The MUST requirements no check judged, grouped by why: an incomplete verdict says what it did not judge. */
export function notJudgedLines(summary: Summary, tag = ''): string[] {
  const list = summary.mustNotJudged ?? [];
  if (list.length === 0) return [];
  const byReason = new Map<string, string[]>();
  for (const n of list) byReason.set(n.reason, [...(byReason.get(n.reason) ?? []), n.id]);
  const lines = ['', `Not judged${tag}: ${list.length} MUST requirement(s), so the verdict cannot be CONFORMING`];
  for (const [reason, ids] of byReason) {
    // Requirements of suites not selected are many and self-explaining: counted, not listed.
    lines.push(`  ${ids.length} × ${reason}${deselected(reason) ? '' : `: ${ids.join(', ')}`}`);
  }
  return lines;
}

export function countsLine(summary: Summary): string {
  return (
    `${summary.mustFailures} MUST failed, ${summary.shouldWarnings} SHOULD warned, ${summary.counts.observed} ` +
    `observed, ${summary.counts.skip} skipped`
  );
}

export const refName = (r: { id: string; target?: string }) => (r.target ? `${r.id} on ${r.target}` : r.id);
/** The expectations that fail the gate, each named with what to do. */
export function expectationLines(p: Palette, gate: GateSummary): string[] {
  const lines: string[] = [];
  const file = gate.expectations ? ` ${gate.expectations}` : '';
  for (const u of gate.unexpectedPasses) {
    lines.push(
      '',
      `${p.bold(p.red('UNEXPECTED PASS'))} ${p.bold(refName(u))}: the expectations file${file} says it fails, but ` +
        `it passed; remove the entry`,
    );
  }
  for (const e of gate.expired) {
    lines.push(
      '',
      `${p.bold(p.red('EXPIRED EXPECTATION'))} ${p.bold(refName(e))}: entry ${e.entry} of the expectations ` +
        `file${file} expired on ${e.expires}; fix the target, or renew the entry with a reason`,
    );
  }
  return lines;
}

/** The gate's decision, and what made it. */
export function gateLine(
  p: Palette,
  gate: GateSummary,
  results: readonly Pick<RequirementResult, 'id' | 'level'>[] = [],
): string {
  // The report's own levels first: they include the user's requirements (run --suites-dir).
  const level = (r: GateRef) => results.find((x) => x.id === r.id)?.level ?? findRequirement(r.id)?.level;
  const musts = gate.gating.filter((r) => level(r) !== 'SHOULD');
  const shoulds = gate.gating.filter((r) => level(r) === 'SHOULD');
  const why: string[] = [];
  if (musts.length) why.push(`MUST failed: ${musts.map(refName).join(', ')}`);
  if (shoulds.length) why.push(`SHOULD warned (--strict): ${shoulds.map(refName).join(', ')}`);
  if (gate.unexpectedPasses.length) why.push(`passed unexpectedly: ${gate.unexpectedPasses.map(refName).join(', ')}`);
  if (gate.expired.length) why.push(`expectation expired: ${gate.expired.map(refName).join(', ')}`);
  if (gate.requireComplete && gate.notJudged?.length) {
    why.push(`MUST not judged (--require-complete): ${gate.notJudged.map(refName).join(', ')}`);
  }
  const expected = gate.expectedFailures.length
    ? `expected to fail: ${gate.expectedFailures.map(refName).join(', ')}`
    : '';
  const mode = gate.strict ? ' (--strict)' : '';
  return gate.passed
    ? `Gate${mode}: ${p.bold(p.green('PASSED'))} (exit 0)${expected ? ` — ${expected}` : ''}`
    : `Gate${mode}: ${p.bold(p.red('FAILED'))} (exit 1) — ${why.join('; ')}${expected ? `; ${expected}` : ''}`;
}

/** Whether the gate says more than the verdict does (expectations or --strict in play). */
export function gateMatters(gate: GateSummary | undefined): boolean {
  return gate !== undefined && (gate.strict || gate.expectations !== undefined || gate.requireComplete === true);
}

export function expectedCount(results: RequirementResult[]): number {
  return results.filter((r) => r.expected?.outcome === 'expected-fail').length;
}

/** Requirements skipped, grouped by reason: a verdict with skips says what was not judged and why. */
export function skippedLines(results: RequirementResult[]): string[] {
  const byReason = new Map<string, string[]>();
  for (const r of results) {
    if (r.verdict !== 'skip') continue;
    const reason = r.reason ?? 'no reason recorded';
    byReason.set(reason, [...(byReason.get(reason) ?? []), r.id]);
  }
  if (byReason.size === 0) return [];
  const count = [...byReason.values()].reduce((n, ids) => n + ids.length, 0);
  const lines = ['', `Skipped: ${count} requirement(s) not judged`];
  for (const [reason, ids] of byReason) {
    // Requirements of suites not selected are many and self-explaining: counted, not listed.
    const shown = deselected(reason)
      ? ''
      : `: ${ids.slice(0, 6).join(', ')}${ids.length > 6 ? `, and ${ids.length - 6} more` : ''}`;
    lines.push(`  ${ids.length} × ${reason}${shown}`);
  }
  return lines;
}

/** The requirements that make a run non-conforming, by id, for the last lines of the summary. */
export function failingLine(results: RequirementResult[]): string | undefined {
  const failed = results
    .filter((r) => r.verdict === 'fail' && r.expected?.outcome !== 'expected-fail')
    .map((r) => r.id);
  const warned = results
    .filter((r) => r.verdict === 'warn' && r.expected?.outcome !== 'expected-fail')
    .map((r) => r.id);
  const parts = [
    ...(failed.length ? [`MUST failed: ${failed.join(', ')}`] : []),
    ...(warned.length ? [`SHOULD warned: ${warned.join(', ')}`] : []),
  ];
  return parts.length ? parts.join('; ') : undefined;
}

/**
 * How to reproduce the failures by hand and replay the run, when something failed or warned:
 * what the curl commands' variables hold, and the seed. `baseUrl` is undefined for the
 * embedded server, which stops with the run.
 */
export function reproductionNotes(
  results: readonly { verdict: string }[],
  run: {
    seed: number;
    referenceFaults: readonly string[];
    referenceVariants?: readonly string[];
    baseUrl: string | undefined;
  },
): string[] {
  if (!results.some((r) => r.verdict === 'fail' || r.verdict === 'warn')) return [];
  const vars =
    'SCREENCONF_ACCESS_TOKEN (the access_token POST /api/oauth/token/ returns for the client credentials; ' +
    'SCREENCONF_API_KEY where a command sends the API key)';
  const variants = run.referenceVariants?.length ? ` --reference-variants ${run.referenceVariants.join(',')}` : '';
  const faults = (run.referenceFaults.length ? ` --fault ${run.referenceFaults.join(' --fault ')}` : '') + variants;
  const reproduce =
    run.baseUrl === undefined
      ? `Reproduce by hand: the embedded server stopped with the run, and its cases with it; "screenconf ` +
        `serve${faults}" starts one to run against with --base-url --keep. The curl commands above read ` +
        `SCREENCONF_BASE_URL and ${vars}.`
      : `Reproduce by hand: the curl commands above read SCREENCONF_BASE_URL (${run.baseUrl}) and ${vars}; the ` +
        `cases they name were deleted at the end of the run unless --keep was given.`;
  const scripts =
    'Reproduction scripts: repro/<REQ-ID>.sh in the report folder replays each failure (sh + curl: it gets its own ' +
    'tokens from SCREENCONF_CLIENT_SECRET, SCREENCONF_PEER_CLIENT_SECRET or SCREENCONF_API_KEY as it says, creates ' +
    `what it needs, deletes it after; ${REPRO_EXITS}); SCREENCONF_BASE_URL points it at another server.`;
  const replay =
    'Replay each failure with the run\'s own checks, judged as in the run: "screenconf replay <report folder> ' +
    `<REQ-ID>" (or --all; ${REPLAY_EXITS}), against the run's target or --base-url.`;
  return [reproduce, scripts, replay, `Replay: the same command with --seed ${run.seed} generates the same inputs.`];
}

/** The line on standard error that says why a run did not end with a plain verdict, if it did not. */
export function runEndLine(end: {
  interruption: Interruption | undefined;
  why: string | undefined;
  incomplete: boolean;
  summary: Pick<Summary, 'harnessFaults' | 'suiteErrors'>;
  reportPath: string;
  kept: boolean;
}): string | undefined {
  const cleaned = end.kept ? '' : ' and cleaned up';
  if (end.interruption && end.interruption !== 'deadline') {
    return (
      `screenconf: interrupted by ${end.interruption}: stopped the run${cleaned}; the report of what ran is ` +
      `${end.reportPath}`
    );
  }
  if (end.interruption === 'deadline') {
    return (
      `screenconf: error SC_DEADLINE: ${end.why}; stopped the run${cleaned}; the report of what ran is ` +
      `${end.reportPath}`
    );
  }
  if (!end.incomplete) return undefined;
  const first = end.summary.harnessFaults[0] ?? end.summary.suiteErrors[0] ?? '';
  const count = end.summary.harnessFaults.length + end.summary.suiteErrors.length;
  return (
    `screenconf: error SC_INCOMPLETE: ${count} problem${count === 1 ? '' : 's'} kept checks from judging the ` +
    `target, first: ${oneLine(first)} (see ${end.reportPath})`
  );
}

/** What the run judged and what it cost the target: `107 requirements judged in 18.2 s; 1 512 requests`. */
export function costLine(report: Pick<ConformanceReport, 'run' | 'summary'>): string {
  const { counts, requests } = report.summary;
  const judged = counts.pass + counts.fail + counts.warn + counts.observed;
  const ms = Date.parse(report.run.finishedAt) - Date.parse(report.run.startedAt);
  const seconds = Number.isFinite(ms) ? ` in ${(ms / 1000).toFixed(1)} s` : '';
  const sent = requests ? `; ${requests.total} requests sent to the target` : '';
  return `${judged} requirements judged${seconds}${sent}`;
}

/** How a summary is rendered and what goes around the verdict. */
export interface SummaryOptions {
  reportPath: string;
  /** Why the run stopped early (a signal, the deadline), when it did. */
  interrupted?: string | undefined;
  style?: ConsoleStyle;
  /** Lines just before the verdict (how to reproduce and replay the failures). */
  notes?: string[];
  /** The line after the verdict saying what the run judged and cost. */
  cost?: string | undefined;
}

/**
 * The last line of a run's summary: report.html to open (conformance.json and the other views are beside it), and the
 * folder of reproduction scripts when anything failed. `reportPath` is conformance.json's.
 */
export function reportLine(reportPath: string, results: readonly Pick<RequirementResult, 'repro'>[]): string {
  const dir = dirname(reportPath);
  const repro = results.some((r) => r.repro) ? `; reproductions: ${join(dir, REPRO_DIR)}/` : '';
  return `Report: ${join(dir, REPORT_FILES.html)} (${REPORT_FILES.json} beside it)${repro}`;
}

/** The user's own requirements (run --suites-dir), one line each with its verdict, after the table by area. */
export function userLines(p: Palette, results: readonly RequirementResult[]): string[] {
  const mine = results.filter((r) => ownerMark(r) !== '');
  if (!mine.length) return [];
  const rows = mine.map(
    (r) => `  ${paintVerdict(p, r.verdict, r.verdict.toUpperCase().padEnd(8))} ${r.id} (${r.level}) ${r.statement}`,
  );
  return ['', `Your own requirements (--suites-dir): ${mine.length}`, ...rows];
}
