/**
 * report.md: the report as Markdown (GitHub-flavoured), for a pull-request comment: the verdict,
 * the run and target, counts by area, every failure and warning (id, one-line statement, expected
 * and received, how to reproduce), then links to report.html and conformance.json for the rest
 * (transcripts, observations, every requirement).
 *
 * It is never longer than its budget (--md-max-chars, default 60,000 characters; a GitHub comment
 * holds 65,536): failures are written in full while they fit, then one line each, then by id, and
 * the count of any left out is said. Server-controlled text is inside a code span or fence longer
 * than any backtick run it holds, or escaped, so it cannot add Markdown or HTML.
 */
import { matrixCounts, matrixRows, ORACLE_ORDER } from '../results/matrix.ts';
import { RENEWAL_COLUMNS, renewalCells, renewalsLead } from './renewals.ts';
import { oneLine } from '../base/text.ts';
import { overallVerdict, targetVerdict, verdictLine } from '../results/build.ts';
import { describeRequest } from '../results/exchange.ts';
import { byArea } from '../results/judge.ts';
import {
  REPLAY_EXITS,
  REPRO_EXITS,
  type ConformanceReport,
  type Failure,
  type RequirementResult,
} from '../results/report.ts';
import {
  describeTarget,
  isFailing,
  isMultiTarget,
  judgedCurl,
  serverHeadersText,
  shardsText,
  undeletableText,
  VERDICTS,
  ownerMark,
} from './render-common.ts';

/** What a GitHub pull-request comment holds, less room for a heading a bot may put above it. */
export const DEFAULT_MD_MAX_CHARS = 60_000;
/** The smallest budget: the verdict, the counts, the links and a list of ids. */
export const MIN_MD_MAX_CHARS = 2_000;

export interface MarkdownOptions {
  /** The longest report.md, in characters (default: the run's --md-max-chars, else 60,000). */
  maxChars?: number;
}

/** Text that Markdown and HTML leave alone: special characters escaped, lines joined with <br>. */
export function mdText(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]|~])/g, '\\$1')
    .replace(/^([#+-])(?=\s|$|-)/, '\\$1')
    .replace(/^(\d+)([.)])(?=\s|$)/, '$1\\$2')
    .replace(/\r?\n/g, '<br>');
}

/** Inline code, with a fence longer than any backtick run in it; a table's pipes escaped. */
export function mdCode(s: string): string {
  const one = s.replace(/\r?\n/g, ' ');
  const run = Math.max(0, ...(one.match(/`+/g) ?? []).map((m) => m.length));
  const fence = '`'.repeat(run + 1);
  const pad = one.startsWith('`') || one.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${one.replace(/\|/g, '\\|')}${pad}${fence}`;
}

/** A fenced block holding any text as it is. */
export function mdBlock(text: string, lang = ''): string {
  const run = Math.max(2, ...(text.match(/`+/g) ?? []).map((m) => m.length));
  const fence = '`'.repeat(run + 1);
  return `${fence}${lang}\n${text}\n${fence}`;
}

function row(cells: string[]): string {
  return `| ${cells.join(' | ')} |`;
}

/** The budget a report is rendered to: an option, else the run's own --md-max-chars, else the default. */
export function markdownBudget(report: ConformanceReport, options: MarkdownOptions = {}): number {
  const fromRun = report.run.options?.mdMaxChars;
  const chosen = options.maxChars ?? (typeof fromRun === 'number' ? fromRun : DEFAULT_MD_MAX_CHARS);
  return Math.max(MIN_MD_MAX_CHARS, chosen);
}

/** A failing requirement with the failures to show, worst first: what fails the gate, then warnings. */
interface Entry {
  r: RequirementResult;
  failures: Failure[];
  rank: number;
}

function entries(report: ConformanceReport): Entry[] {
  const gating = report.summary.gate?.gating;
  const gates = (r: RequirementResult) =>
    gating ? gating.some((g) => g.id === r.id) : r.level === 'MUST' && r.verdict === 'fail';
  return report.results
    .filter(isFailing)
    .map((r) => ({ r, failures: r.failures ?? [], rank: gates(r) ? 0 : r.expected ? 2 : 1 }))
    .sort((a, b) => a.rank - b.rank);
}

function verdictWord(r: RequirementResult): string {
  if (r.expected?.outcome === 'expected-fail') return 'EXPECTED FAIL';
  return r.verdict === 'fail' ? 'FAIL' : 'WARN';
}

function rerunNote(f: Failure): string {
  if (f.flaky === true) return ' (flaky: failed, then passed when re-run)';
  return f.flaky === false ? ' (failed again when re-run)' : '';
}

/** How to reproduce a failure: the curl command of the request it judged, and the seed for a property. */
function reproduce(f: Failure, seed: number, maxCurl: number): string[] {
  const out: string[] = [];
  const p = f.evidence?.property;
  if (p)
    out.push(
      `Counterexample (fast-check seed ${p.seed}, path ${mdCode(p.path)}; replay the run with ` +
        `${mdCode(`--seed ${p.runSeed}`)}): ${mdCode(oneLine(p.counterexample, 400))}`,
    );
  const curl = judgedCurl(f);
  if (curl && curl.length <= maxCurl) out.push(mdBlock(curl, 'sh'));
  else if (curl) out.push(`Reproduce: the curl command (${curl.length} characters) is in report.html.`);
  else if (!p) out.push(`Reproduce: run again with ${mdCode(`--seed ${seed}`)}.`);
  return out;
}

/** A failing requirement in full: statement, each failing check's expected / received, reproduction. */
function fullEntry(e: Entry, report: ConformanceReport, limits: { received: number; curl: number }): string {
  const { r } = e;
  const out = [`### ${verdictWord(r)} ${mdCode(r.id)}${ownerMark(r)} (${r.level})`, '', `${mdText(r.statement)}`];
  if (r.expected)
    out.push(
      '',
      `Expected failure (${mdText(r.expected.outcome)}, until ${mdText(r.expected.expires)}): ` +
        `${mdText(oneLine(r.expected.reason, 300))}`,
    );
  if (r.byTarget && isMultiTarget(report))
    out.push(
      '',
      `On each target: ${Object.entries(r.byTarget)
        .map(([l, t]) => `${mdText(l)} ${t.verdict}`)
        .join(', ')}`,
    );
  if (r.level === 'OBSERVE') out.push('', 'Not observed: the check that records it failed before it could (below).');
  if (!e.failures.length && r.reason) out.push('', `- **Why:** ${mdCode(oneLine(r.reason, limits.received))}`);
  for (const f of e.failures) {
    const on = f.target ? ` on ${mdText(f.target)}` : '';
    out.push('', `- **Check:** ${mdText(oneLine(f.test, 300))}${on}${mdText(rerunNote(f))}`);
    out.push(`- **What:** ${mdText(oneLine(f.what ?? f.message.split('\n')[0]!, 300))}`);
    if (f.expected !== undefined) out.push(`- **Expected:** ${mdCode(oneLine(f.expected, limits.received))}`);
    if (f.received !== undefined) out.push(`- **Received:** ${mdCode(oneLine(f.received, limits.received))}`);
    if (f.request) out.push(`- **Request:** ${mdText(describeRequest(f.request))}`);
    out.push('', ...reproduce(f, report.run.seed, limits.curl));
  }
  if (r.repro) out.push('', `Reproduce: ${mdCode(r.repro.command)} in the run folder (${REPRO_EXITS}).`);
  if (r.replay)
    out.push('', `Replay with the run's own checks: ${mdCode(r.replay.command)} in the run folder (${REPLAY_EXITS}).`);
  return out.join('\n');
}

/** A failing requirement on one line: id, level, statement, and the first failure's expected / received. */
function lineEntry(e: Entry): string {
  const f = e.failures[0];
  const got =
    f?.expected !== undefined || f?.received !== undefined
      ? ` — expected ${mdCode(oneLine(f.expected ?? '?', 80))}, received ${mdCode(oneLine(f.received ?? '?', 120))}`
      : e.r.reason
        ? ` — ${mdCode(oneLine(e.r.reason, 160))}`
        : '';
  const statement = mdText(oneLine(e.r.statement, 160));
  return `- ${verdictWord(e.r)} ${mdCode(e.r.id)}${ownerMark(e.r)} (${e.r.level}): ${statement}${got}`;
}

function header(report: ConformanceReport): string[] {
  const verdict = overallVerdict(report);
  const multi = isMultiTarget(report);
  const out = [
    `# screenconf conformance report: ${verdict}`,
    '',
    `**Verdict: ${verdict}** — ${mdText(verdictLine(report))}`,
  ];
  const gate = report.summary.gate;
  if (gate) {
    const strict = gate.strict ? ' (--strict)' : '';
    const file = gate.expectations ? ` with expectations ${mdCode(gate.expectations)}` : '';
    out.push('', `**Gate: ${gate.passed ? 'passed' : 'FAILED'}**${strict}${file}`);
  }
  out.push('', row(['', '']), row(['---', '---']));
  if (multi) {
    for (const t of report.targets)
      out.push(
        row([
          `Target ${mdText(t.label)}`,
          `${mdText(describeTarget(t))}; ${mdText(serverHeadersText(t.serverHeaders))}; ` +
            `${targetVerdict(t.summary, (v) => `**${v}**`)}`,
        ]),
      );
  } else {
    out.push(row(['Target', mdText(describeTarget(report.target))]));
    const headers = report.target.serverHeaders ?? report.targets[0]?.serverHeaders;
    out.push(row(['Server headers', mdText(oneLine(serverHeadersText(headers), 300))]));
  }
  const run = report.run;
  const commit = report.tool.commit ? ` (commit ${mdCode(report.tool.commit.slice(0, 12))})` : '';
  out.push(
    row([
      'Run',
      `${mdCode(run.id)}, ${mdText(run.startedAt)} to ${mdText(run.finishedAt)}` +
        (run.interrupted ? `, interrupted (${mdText(run.interrupted)})` : ''),
    ]),
    row([
      'Seed',
      `${run.seed} (replay with ${mdCode(`--seed ${run.seed}`)}), ${run.runs} generated cases per property`,
    ]),
    row(['Suites', mdText(run.suites.join(', '))]),
    ...report.targets.flatMap((t) => {
      const text = undeletableText(t.summary.cleanup, t.kind);
      return text ? [row([`Left by design${isMultiTarget(report) ? ` (${mdText(t.label)})` : ''}`, mdText(text)])] : [];
    }),
    ...(shardsText(run) ? [row(['Shards', mdText(shardsText(run)!)])] : []),
    row([
      'screenconf',
      `${mdText(report.tool.version)}${commit}, catalogue ${mdText(report.catalogueVersion)}, report schema ` +
        `${report.schemaVersion}`,
    ]),
  );
  out.push('', '## Results by area', '', row(['Area', ...VERDICTS]), row(['---', ...VERDICTS.map(() => '---:')]));
  for (const a of byArea(report.results)) out.push(row([mdText(a.title), ...VERDICTS.map((v) => String(a.counts[v]))]));
  out.push(row(['**All requirements**', ...VERDICTS.map((v) => `**${report.summary.counts[v]}**`)]));
  out.push(...matrixSummary(report), ...renewalsSummary(report));
  const problems = report.summary.harnessFaults
    .map((f) => `Harness fault: ${f}`)
    .concat(report.summary.suiteErrors.map((e) => `Suite error: ${e}`));
  if (report.summary.leftovers.length)
    problems.push(`Could not delete cases ${report.summary.leftovers.join(', ')} on the target`);
  if (problems.length) {
    out.push('', '## Problems of the run', '');
    for (const p of problems.slice(0, 10)) out.push(`- ${mdText(oneLine(p, 300))}`);
    if (problems.length > 10) out.push(`- … and ${problems.length - 10} more (report.html lists them)`);
  }
  return out;
}

/** How many token renewals in report.md; report.html lists every one the report does. */
const RENEWALS_SHOWN = 10;

/** The token renewals with their causes, the first few (report.html lists them all). */
function renewalsSummary(report: ConformanceReport): string[] {
  const lead = renewalsLead(report.summary);
  if (!lead) return [];
  const listed = report.summary.renewals ?? [];
  const out = ['', '## Token renewals', '', mdText(lead)];
  if (!listed.length) return out;
  out.push('', row(RENEWAL_COLUMNS), row(RENEWAL_COLUMNS.map(() => '---')));
  for (const r of listed.slice(0, RENEWALS_SHOWN)) out.push(row(renewalCells(r).map((c) => mdText(oneLine(c, 200)))));
  if (listed.length > RENEWALS_SHOWN) out.push('', `… and ${listed.length - RENEWALS_SHOWN} more in report.html.`);
  return out;
}

/** The input matrix per way in: cells sent, and each oracle's failures (report.html lists every cell). */
function matrixSummary(report: ConformanceReport): string[] {
  if (!(report.checks ?? []).some((c) => c.cells?.length)) return [];
  const counts = matrixCounts(matrixRows(report));
  const out = [
    '',
    '## Input matrix',
    '',
    row(['Way in', 'Sent', ...ORACLE_ORDER]),
    row(['---', '---:', ...ORACLE_ORDER.map(() => '---:')]),
  ];
  for (const c of counts) {
    const cells = ORACLE_ORDER.map((o) => {
      const n = c.byOracle[o];
      return n
        ? `${n.fail ? `**${n.fail} fail**` : `${n.pass} pass`}${n.notJudged ? ` (${n.notJudged} not judged)` : ''}`
        : '–';
    });
    out.push(row([mdText(c.way), `${c.sent} of ${c.cells}`, ...cells]));
  }
  return out;
}

function footer(report: ConformanceReport): string[] {
  const skipped = report.summary.counts.skip;
  const observed = report.summary.counts.observed;
  return [
    '',
    '## The rest',
    '',
    `Every requirement with its verdict, the transcripts of the failures, what ${observed} OBSERVE ` +
      `requirement(s) recorded and why ${skipped} were skipped: [report.html](report.html) (one page, no network ` +
      `needed) and [conformance.json](conformance.json) (for scripts), beside this file in the run folder.`,
    '',
    `<sub>screenconf ${mdText(report.tool.version)} · rendered from conformance.json · check the folder with ` +
      `${mdCode('screenconf verify DIR')}</sub>`,
    '',
  ];
}

/**
 * Every failing requirement within `room` characters: first each gets its id, then (in order, while
 * they all fit) a line, then from the top a full entry (or a shorter one) while it fits; what does
 * not fit even as an id is counted.
 */
function failureSection(report: ConformanceReport, room: number): string[] {
  const all = entries(report);
  if (!all.length) return ['', '## Failures and warnings', '', 'None.'];
  // The forms of each entry, smallest first: id, line, shorter entry, full entry.
  const forms = all.map((e) => [
    mdCode(e.r.id),
    lineEntry(e),
    fullEntry(e, report, { received: 200, curl: 600 }),
    fullEntry(e, report, { received: 600, curl: 4000 }),
  ]);
  const cost = (i: number, form: number) => forms[i]![form]!.length + 2;
  const budget = room - 400; // headings, the line and id lead-ins, the count of what is left out
  const form = all.map(() => -1);
  let used = 0;
  for (let i = 0; i < all.length && used + cost(i, 0) <= budget; i++) {
    form[i] = 0;
    used += cost(i, 0);
  }
  const upgrade = (i: number, to: number) => {
    const delta = cost(i, to) - (form[i]! < 0 ? 0 : cost(i, form[i]!));
    if (form[i]! < 0 || used + delta > budget) return false;
    form[i] = to;
    used += delta;
    return true;
  };
  for (let i = 0; i < all.length; i++) if (!upgrade(i, 1)) break;
  for (let i = 0; i < all.length; i++) if (!upgrade(i, 3) && !upgrade(i, 2)) break;

  const out = ['', '## Failures and warnings'];
  const full = form.flatMap((f, i) => (f >= 2 ? [forms[i]![f]!] : []));
  for (const text of full) out.push('', text);
  const lines = form.flatMap((f, i) => (f === 1 ? [forms[i]![1]!] : []));
  if (lines.length)
    out.push(
      '',
      `${full.length ? `The other ${lines.length}` : 'Each'} in one line (report.html has them in full):`,
      '',
      ...lines,
    );
  const ids = form.flatMap((f, i) => (f === 0 ? [forms[i]![0]!] : []));
  if (ids.length) out.push('', `And by id: ${ids.join(', ')}`);
  const left = form.filter((f) => f < 0).length;
  if (left) out.push('', `… and ${left} more failing requirement(s): see report.html.`);
  return out;
}

export function renderMarkdown(report: ConformanceReport, options: MarkdownOptions = {}): string {
  const max = markdownBudget(report, options);
  const head = header(report).join('\n');
  const foot = footer(report).join('\n');
  const body = failureSection(report, max - head.length - foot.length - 2).join('\n');
  const text = `${head}\n${body}\n${foot}`;
  // The sections keep to their room; a header longer than the whole budget (hundreds of targets) is cut.
  return text.length <= max ? text : `${text.slice(0, max - 80)}\n\n… (cut at ${max} characters: see report.html)\n`;
}
