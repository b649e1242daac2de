/**
 * The console summary of a run: a table by area, each failure with its reproduction, the
 * verdict and the gate. With several targets, a column per target and the requirements on
 * which they differ. Colour only when asked for (a terminal); GitHub Actions workflow
 * commands (annotations) when running there. Callers redact the text; annotations take the
 * redactor themselves, because escaping would hide a secret from it.
 */
import { overallVerdict } from './build.ts';
import type { RunSummary } from './json.ts';
import { findRequirement } from '../spec/index.ts';
import type { GatedResult, GateRef, GateSummary } from './gate.ts';
import type { MergedResult, MultiTargetReport } from './merge.ts';
import { byArea, type RequirementResult, type Verdict } from './verdicts.ts';

const COLUMNS: Verdict[] = ['pass', 'fail', 'warn', 'skip', 'observed'];

export interface ConsoleStyle {
  /** ANSI colour (a terminal, or FORCE_COLOR). */
  colour: boolean;
  /** Emit GitHub Actions annotations (GITHUB_ACTIONS=true). */
  githubActions: boolean;
}

export const PLAIN: ConsoleStyle = { colour: false, githubActions: false };

type Paint = (s: string) => string;
interface Palette {
  red: Paint;
  green: Paint;
  yellow: Paint;
  magenta: Paint;
  dim: Paint;
  bold: Paint;
}

function palette(colour: boolean): Palette {
  const sgr = (open: number, close: number): Paint =>
    colour ? (s) => (s === '' ? s : `\u001b[${open}m${s}\u001b[${close}m`) : (s) => s;
  return {
    red: sgr(31, 39),
    green: sgr(32, 39),
    yellow: sgr(33, 39),
    magenta: sgr(35, 39),
    dim: sgr(2, 22),
    bold: sgr(1, 22),
  };
}

/** Colours a padded cell by its verdict column: only non-zero counts of fail and warn stand out. */
function paintCount(p: Palette, column: Verdict, count: number, cell: string): string {
  if (count === 0) return p.dim(cell);
  if (column === 'fail') return p.red(cell);
  if (column === 'warn') return p.yellow(cell);
  if (column === 'pass') return p.green(cell);
  return cell;
}

function paintVerdict(p: Palette, verdict: Verdict | 'expected-fail', text: string): string {
  switch (verdict) {
    case 'fail':
      return p.bold(p.red(text));
    case 'warn':
      return p.yellow(text);
    case 'pass':
      return p.green(text);
    case 'expected-fail':
      return p.magenta(text);
    default:
      return p.dim(text);
  }
}

type Failure = NonNullable<RequirementResult['failures']>[number];

/** One failing check: its message (Expected / Received) and the curl that reproduces it. */
function failureLines(f: Failure): string[] {
  const lines = [
    `  check: ${f.test}${f.flaky === true ? ' (flaky: failed, then passed when re-run)' : f.flaky === false ? ' (failed again when re-run)' : ''}`,
  ];
  for (const l of f.message.split('\n').slice(0, 12)) lines.push(`    ${l}`);
  // The evidence keeps the last few exchanges before the failure: the request at fault is often
  // not the last one (a rejected PATCH, then the read that shows what it changed), so all are shown.
  const curls = f.evidence?.curl ?? [];
  if (curls.length === 1) lines.push('  Reproduce with:', `    ${curls[0]}`);
  else if (curls.length > 1)
    lines.push(`  Reproduce with (the last ${curls.length} requests, in order):`, ...curls.map((c) => `    ${c}`));
  return lines;
}

/** The entry of a fail or warn in the list of problems; `tag` names the target in a run with several. */
function problemLines(
  p: Palette,
  r: RequirementResult & { expected?: GatedResult['expected'] },
  failures: Failure[],
  tag = '',
): string[] {
  const expected = r.expected?.outcome === 'expected-fail';
  const head = expected ? `EXPECTED ${r.verdict.toUpperCase()}` : r.verdict.toUpperCase();
  const lines = [
    '',
    `${paintVerdict(p, expected ? 'expected-fail' : r.verdict, head)}${tag} ${p.bold(r.id)} (${r.level}) ${r.statement}`,
    `  source: ${r.source}`,
  ];
  if (r.expected)
    lines.push(
      `  expected to fail until ${r.expected.expires}: ${r.expected.reason}${r.expected.outcome === 'expired' ? ' — EXPIRED' : ''}`,
    );
  for (const f of failures) lines.push(...failureLines(f));
  return lines;
}

function harnessLines(summary: RunSummary, tag = ''): string[] {
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
      `Throttled${tag}: the target answered 429 to ${summary.throttled} request(s); each was retried after its Retry-After`,
    );
  return lines;
}

function verdictWord(summary: RunSummary, interrupted?: string): string {
  const word = overallVerdict({ run: { interrupted }, summary });
  if (word === 'INTERRUPTED') return `INTERRUPTED (${interrupted}; what ran is reported)`;
  return word === 'INCOMPLETE' ? 'INCOMPLETE (harness fault)' : word;
}

function paintWord(p: Palette, word: string): string {
  return word === 'CONFORMING'
    ? p.bold(p.green(word))
    : word === 'NOT CONFORMING'
      ? p.bold(p.red(word))
      : p.yellow(word);
}

function countsLine(summary: RunSummary): string {
  return `${summary.mustFailures} MUST failed, ${summary.shouldWarnings} SHOULD warned, ${summary.counts.observed} observed, ${summary.counts.skip} skipped`;
}

const refName = (r: { id: string; target?: string }) => (r.target ? `${r.id} on ${r.target}` : r.id);

/** The expectations that fail the gate, each named with what to do. */
function expectationLines(p: Palette, gate: GateSummary): string[] {
  const lines: string[] = [];
  const file = gate.expectations ? ` ${gate.expectations}` : '';
  for (const u of gate.unexpectedPasses) {
    lines.push(
      '',
      `${p.bold(p.red('UNEXPECTED PASS'))} ${p.bold(refName(u))}: the expectations file${file} says it fails, but it passed; remove the entry`,
    );
  }
  for (const e of gate.expired) {
    lines.push(
      '',
      `${p.bold(p.red('EXPIRED EXPECTATION'))} ${p.bold(refName(e))}: entry ${e.entry} of the expectations file${file} expired on ${e.expires}; fix the target, or renew the entry with a reason`,
    );
  }
  return lines;
}

/** The gate's decision, and what made it. */
function gateLine(p: Palette, gate: GateSummary): string {
  const level = (r: GateRef) => findRequirement(r.id)?.level;
  const musts = gate.gating.filter((r) => level(r) !== 'SHOULD');
  const shoulds = gate.gating.filter((r) => level(r) === 'SHOULD');
  const why: string[] = [];
  if (musts.length) why.push(`MUST failed: ${musts.map(refName).join(', ')}`);
  if (shoulds.length) why.push(`SHOULD warned (--strict): ${shoulds.map(refName).join(', ')}`);
  if (gate.unexpectedPasses.length) why.push(`passed unexpectedly: ${gate.unexpectedPasses.map(refName).join(', ')}`);
  if (gate.expired.length) why.push(`expectation expired: ${gate.expired.map(refName).join(', ')}`);
  const expected = gate.expectedFailures.length
    ? `expected to fail: ${gate.expectedFailures.map(refName).join(', ')}`
    : '';
  const mode = gate.strict ? ' (--strict)' : '';
  return gate.passed
    ? `Gate${mode}: ${p.bold(p.green('PASSED'))} (exit 0)${expected ? ` — ${expected}` : ''}`
    : `Gate${mode}: ${p.bold(p.red('FAILED'))} (exit 1) — ${why.join('; ')}${expected ? `; ${expected}` : ''}`;
}

/** Whether the gate says more than the verdict does (expectations or --strict in play). */
function gateMatters(gate: GateSummary | undefined): boolean {
  return gate !== undefined && (gate.strict || gate.expectations !== undefined);
}

function expectedCount(results: GatedResult[]): number {
  return results.filter((r) => r.expected?.outcome === 'expected-fail').length;
}

/** Requirements skipped, grouped by reason: a verdict with skips says what was not judged and why. */
function skippedLines(results: RequirementResult[]): string[] {
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
    const shown = /suite not selected/.test(reason)
      ? ''
      : `: ${ids.slice(0, 6).join(', ')}${ids.length > 6 ? `, and ${ids.length - 6} more` : ''}`;
    lines.push(`  ${ids.length} × ${reason}${shown}`);
  }
  return lines;
}

/** The requirements that make a run non-conforming, by id, for the last lines of the summary. */
function failingLine(results: GatedResult[]): string | undefined {
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
 * `interrupted` says why the run stopped early (a signal, the deadline), when it did. `notes`
 * go just before the verdict (how to reproduce and replay the failures).
 */
export function renderSummary(
  results: GatedResult[],
  summary: RunSummary & { gate?: GateSummary },
  reportPath: string,
  interrupted?: string,
  style: ConsoleStyle = PLAIN,
  notes: string[] = [],
): string {
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

  for (const r of results.filter((x) => x.verdict === 'fail' || x.verdict === 'warn'))
    lines.push(...problemLines(p, r, r.failures ?? []));
  lines.push(...harnessLines(summary));
  lines.push(...skippedLines(results));
  const gate = summary.gate && gateMatters(summary.gate) ? summary.gate : undefined;
  if (gate) lines.push(...expectationLines(p, gate));
  if (notes.length) lines.push('', ...notes);
  const word = verdictWord(summary, interrupted);
  lines.push('', `Verdict: ${paintWord(p, word)} — ${countsLine(summary)}`);
  if (gate && !interrupted) lines.push(gateLine(p, gate));
  else {
    const failing = failingLine(results);
    if (failing) lines.push(failing);
  }
  lines.push(`Report: ${reportPath}`);
  return lines.join('\n');
}

/** A cell of the per-target column of the differences table. */
function verdictCell(r: MergedResult, label: string): { text: string; verdict: Verdict | 'expected-fail' } {
  const t = r.byTarget[label];
  if (!t) return { text: '-', verdict: 'skip' };
  if (t.expected?.outcome === 'expected-fail') return { text: `${t.verdict} (expected)`, verdict: 'expected-fail' };
  return { text: t.verdict === 'fail' ? 'FAIL' : t.verdict, verdict: t.verdict };
}

/** The summary of a run against several targets: a column per target, the differences, then each target's failures. */
export function renderMultiSummary(
  report: MultiTargetReport,
  reportPath: string,
  interrupted?: string,
  style: ConsoleStyle = PLAIN,
  notes: string[] = [],
): string {
  const p = palette(style.colour);
  const labels = report.targets.map((t) => t.label);
  const lines: string[] = [];
  const perTarget = labels.map((label) => ({
    label,
    results: report.results.map((r) => ({
      ...r,
      verdict: r.byTarget[label]?.verdict ?? 'skip',
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
        `  ${'Requirement'.padEnd(idW)}  ${'level'.padEnd(8)}${labels.map((l, i) => (i === last ? l : l.padEnd(colW))).join('')}`,
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
      const t = r.byTarget[label];
      if (!t || (t.verdict !== 'fail' && t.verdict !== 'warn')) continue;
      const one = { ...r, verdict: t.verdict, ...(t.expected ? { expected: t.expected } : {}) };
      lines.push(...problemLines(p, one, t.failures ?? [], ` [${label}]`));
    }
  }
  for (const t of report.targets) lines.push(...harnessLines(t.summary, ` [${t.label}]`));
  lines.push(...expectationLines(p, report.summary.gate));
  if (notes.length) lines.push('', ...notes);
  lines.push('');
  for (const t of report.targets) {
    lines.push(
      `${t.label}: ${paintWord(p, verdictWord(t.summary, interrupted))} — ${countsLine(t.summary)} (${t.baseUrl}; ${t.report})`,
    );
  }
  const word = verdictWord(report.summary, interrupted);
  const failing = report.targets.filter((t) => !t.summary.conforming).map((t) => t.label);
  lines.push(
    `Verdict: ${paintWord(p, word)}${word === 'NOT CONFORMING' && failing.length ? ` (${failing.join(', ')})` : ''} — ${labels.length} targets, ${differing.length} requirement(s) differ`,
  );
  if (!interrupted) lines.push(gateLine(p, report.summary.gate));
  lines.push(`Report: ${reportPath}`);
  return lines.join('\n');
}

/** Escapes the message of a workflow command (%, CR, LF), per the GitHub Actions rules. */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a property value of a workflow command (also : and ,). */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

function command(
  kind: 'error' | 'warning' | 'notice',
  title: string,
  message: string,
  redact: (s: string) => string,
): string {
  return `::${kind} title=${escapeProperty(redact(title))}::${escapeData(redact(message))}`;
}

function annotationMessage(r: RequirementResult, failures: Failure[]): string {
  const f = failures[0];
  const parts = [`${r.level}: ${r.statement} (${r.source})`];
  if (f) {
    parts.push(...f.message.split('\n').slice(0, 6));
    const curl = f.evidence?.curl.at(-1);
    if (curl) parts.push(`Reproduce with: ${curl}`);
  } else if (r.reason) parts.push(r.reason);
  return parts.join('\n');
}

export interface AnnotatedTarget {
  label?: string;
  results: GatedResult[];
}

/**
 * GitHub Actions workflow commands for the run: an error per failure that fails the gate (a
 * MUST, or a SHOULD under --strict), a warning per SHOULD warning otherwise, a notice per
 * expected failure, and an error per unexpected pass or expired expectation. `redact` runs
 * before escaping, so no secret survives in an escaped form.
 */
export function githubAnnotations(
  targets: AnnotatedTarget[],
  gate: GateSummary,
  redact: (s: string) => string = (s) => s,
): string[] {
  const out: string[] = [];
  for (const { label, results } of targets) {
    const on = label ? ` (${label})` : '';
    for (const r of results) {
      if (r.verdict !== 'fail' && r.verdict !== 'warn') continue;
      const message = annotationMessage(r, r.failures ?? []);
      if (r.expected?.outcome === 'expected-fail') {
        out.push(
          command(
            'notice',
            `${r.id}${on} expected to fail`,
            `${message}\nExpected to fail until ${r.expected.expires}: ${r.expected.reason}`,
            redact,
          ),
        );
      } else if (r.verdict === 'fail' || (gate.strict && r.level === 'SHOULD'))
        out.push(command('error', `${r.id}${on}`, message, redact));
      else out.push(command('warning', `${r.id}${on}`, message, redact));
    }
  }
  const file = gate.expectations ? ` ${gate.expectations}` : '';
  for (const u of gate.unexpectedPasses) {
    out.push(
      command(
        'error',
        `${u.id}${u.target ? ` (${u.target})` : ''} passed unexpectedly`,
        `The expectations file${file} says ${u.id} fails, but it passed: remove the entry.`,
        redact,
      ),
    );
  }
  for (const e of gate.expired) {
    out.push(
      command(
        'error',
        `${e.id}${e.target ? ` (${e.target})` : ''} expectation expired`,
        `Entry ${e.entry} of the expectations file${file} expired on ${e.expires}: fix the target, or renew the entry with a reason.`,
        redact,
      ),
    );
  }
  return out;
}
