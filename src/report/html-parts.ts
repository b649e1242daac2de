/**
 * The parts of report.html an auditor reads first: the failures (each failed and warned
 * requirement with its statement, source, expected / received, the judged exchange and the
 * command that reproduces it), the environment as a key / value table, and the traceability view
 * (interface section → requirements → checks → verdict). Long values are folded with their length.
 * Every text is escaped; nothing here needs the script.
 */
import { stringifyJson } from '../base/json.ts';
import { oneLine } from '../base/text.ts';
import type { Evidence } from '../results/evidence.ts';
import { describeRequest, type Exchange } from '../results/exchange.ts';
import type { Check, ConformanceReport, Failure, RequirementResult, Verdict } from '../results/report.ts';
import { reportChecks } from './junit.ts';
import { describeTarget, isFailing, isMultiTarget, ownerMark, shardsText, undeletableText } from './render-common.ts';

/** Escapes text for HTML content and (double-quoted) attribute values. */
export function esc(s: unknown): string {
  return String(s).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

export function badge(v: Verdict | undefined): string {
  return v ? `<span class="badge ${esc(v)}">${esc(v)}</span>` : '<span class="badge none">—</span>';
}

/** Text up to `limit` characters as it is; longer, its start with its length, the whole of it folded below. */
export function fold(text: string, limit = 300, tag: 'code' | 'pre' = 'code'): string {
  if (text.length <= limit) return tag === 'pre' ? `<pre>${esc(text)}</pre>` : `<code>${esc(text)}</code>`;
  return (
    `<details class="fold"><summary><code>${esc(text.slice(0, limit))}</code>… ` +
    `<span class="length">(${text.length} characters)</span></summary><pre>${esc(text)}</pre></details>`
  );
}

/** One exchange: request line and headers, body, then the answer; header values and bodies folded when long. */
export function exchangeHtml(e: Exchange, judged = false): string {
  const head = (lines: string[]) => `<pre class="head">${esc(lines.join('\n'))}</pre>`;
  const headers = (h: Record<string, string>) =>
    Object.entries(h).map(([k, v]) => `${k}: ${v.length > 300 ? `${v.slice(0, 300)}… (${v.length} characters)` : v}`);
  const out = [head([`${e.request.method} ${e.request.url}`, ...headers(e.request.headers)])];
  if (e.request.body) out.push(fold(e.request.body, 1000, 'pre'));
  if (e.response) {
    out.push(head([`HTTP ${e.response.status}  (${e.durationMs} ms)`, ...headers(e.response.headers)]));
    if (e.response.body) out.push(fold(e.response.body, 1000, 'pre'));
  } else out.push(head([`(no answer: ${e.error ?? 'unknown'})`]));
  return `<div class="exchange${judged ? ' judged' : ''}">${out.join('')}</div>`;
}

/** The counterexample of a property, once (the failure's message repeats it; the fields do not). */
function propertyHtml(evidence: Evidence | undefined): string {
  const p = evidence?.property;
  if (!p) return '';
  return (
    `<p>Property <strong>${esc(p.name)}</strong>: counterexample after ${p.numRuns} runs, shrunk ${p.numShrinks} ` +
    `steps; fast-check seed ${p.seed}, path <code>${esc(p.path)}</code>; replay the run with <code>--seed ` +
    `${p.runSeed}</code>.</p>${fold(p.counterexample, 600, 'pre')}`
  );
}

/** The evidence of a failure: the judged exchange and its curl first, the ones before it folded. */
export function evidenceHtml(evidence: Evidence | undefined): string {
  if (!evidence) return '';
  const out = [propertyHtml(evidence)];
  const judgedAt = evidence.exchanges.map((e, i) => (e.judged ? i : -1)).filter((i) => i >= 0);
  const shown = judgedAt.length ? judgedAt : evidence.exchanges.length ? [evidence.exchanges.length - 1] : [];
  for (const i of shown) {
    out.push(`<h5>${judgedAt.length ? 'The judged exchange' : 'The last exchange'}</h5>`);
    out.push(exchangeHtml(evidence.exchanges[i]!, judgedAt.length > 0));
    const curl = evidence.curl[i];
    if (curl) out.push(`<h5>Reproduce</h5><pre class="curl">${esc(curl)}</pre>`);
  }
  const others = evidence.exchanges.map((e, i) => ({ e, i })).filter(({ i }) => !shown.includes(i));
  if (others.length) {
    const items = others
      .map(
        ({ e, i }) => `${exchangeHtml(e)}${evidence.curl[i] ? `<pre class="curl">${esc(evidence.curl[i])}</pre>` : ''}`,
      )
      .join('');
    out.push(
      `<details class="before"><summary>The ${others.length} exchange${others.length === 1 ? '' : 's'} before ` +
        `it (setup)</summary>${items}</details>`,
    );
  }
  return out.join('\n');
}

function rerunNote(f: Failure): string {
  if (f.flaky === true) return ' (flaky: failed, then passed when re-run)';
  return f.flaky === false ? ' (failed again when re-run)' : '';
}

/** A failure's fields: what was checked, expected, received, the request; the message when it has no fields. */
export function failureFields(f: Failure): string {
  const rows: [string, string][] = [];
  if (f.what !== undefined) rows.push(['What', esc(f.what)]);
  if (f.expected !== undefined) rows.push(['Expected', fold(f.expected)]);
  if (f.received !== undefined) rows.push(['Received', fold(f.received)]);
  if (f.request) rows.push(['Request', esc(describeRequest(f.request))]);
  if (f.expected === undefined && f.received === undefined)
    return `${dl(rows)}<pre class="message">${esc(f.message)}</pre>`;
  return dl(rows);
}

const dl = (rows: [string, string][]) =>
  rows.length ? `<dl class="fields">${rows.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join('')}</dl>` : '';

/** One failure of a requirement, for the failures section and the table's details alike. */
export function failureHtml(f: Failure): string {
  const on = f.target ? ` on ${esc(f.target)}` : '';
  return (
    `<div class="check-failure"><h4>Check: ${esc(f.test)}${on}${esc(rerunNote(f))}</h4>\n${failureFields(f)}\n` +
    `${evidenceHtml(f.evidence)}</div>`
  );
}

/** What fails the gate comes first, then warnings, then what the expectations file excuses. */
function rank(report: ConformanceReport, r: RequirementResult): number {
  const gating = report.summary.gate?.gating;
  const gates = gating ? gating.some((g) => g.id === r.id) : r.level === 'MUST' && r.verdict === 'fail';
  return gates ? 0 : r.expected ? 2 : 1;
}

export function failingInOrder(report: ConformanceReport): RequirementResult[] {
  return report.results.filter(isFailing).sort((a, b) => rank(report, a) - rank(report, b));
}

/** The section at the top: each failed and warned requirement, in full. */
export function failuresSection(report: ConformanceReport): string {
  const failing = failingInOrder(report);
  if (!failing.length)
    return (
      '<section id="failures"><h2>Failures and warnings</h2>' +
      '<p class="none">None: no requirement failed or warned.</p></section>'
    );
  const articles = failing.map((r) => {
    const expected = r.expected
      ? `<p class="expected">Expected failure (${esc(r.expected.outcome)}, until ${esc(r.expected.expires)}): ` +
        `${esc(r.expected.reason)}</p>`
      : '';
    const targets =
      r.byTarget && Object.keys(r.byTarget).length > 1
        ? `<p class="targets">On each target: ${Object.entries(r.byTarget)
            .map(([l, t]) => `${esc(l)} ${badge(t.verdict)}`)
            .join(', ')}</p>`
        : '';
    const observe =
      r.level === 'OBSERVE'
        ? '<p class="reason">Not observed: the check that records it failed before it could.</p>'
        : '';
    const why = !r.failures?.length && r.reason ? `<pre class="message">${esc(r.reason)}</pre>` : '';
    return (
      `<article class="failure ${esc(r.verdict)}" id="fail-${esc(r.id)}" data-id="${esc(r.id)}">` +
      `<h3>${badge(r.verdict)} <span class="id">${esc(r.id)}${esc(ownerMark(r))}</span> ` +
      `<span class="level">${esc(r.level)}</span></h3>` +
      `<p class="statement">${esc(r.statement)}</p><p class="source">Source: ${esc(r.source)}</p>` +
      `${expected}${targets}${observe}${why}\n${(r.failures ?? []).map(failureHtml).join('\n')}</article>`
    );
  });
  const title = `<h2>Failures and warnings (${failing.length})</h2>`;
  return `<section id="failures">${title}\n${articles.join('\n')}\n</section>`;
}

/** The run's time, as an auditor reads it. */
function duration(startedAt: string, finishedAt: string): string {
  const ms = Date.parse(finishedAt) - Date.parse(startedAt);
  if (!Number.isFinite(ms) || ms < 0) return 'unknown';
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

const kv = (rows: [string, string][]) =>
  `<table class="kv"><tbody>${rows
    .map(([k, v]) => `<tr><th scope="row">${esc(k)}</th><td>${v}</td></tr>`)
    .join('')}</tbody></table>`;

function headersList(headers: Record<string, string[]> | undefined): string {
  const entries = Object.entries(headers ?? {});
  if (!entries.length) return 'none seen';
  return entries.map(([k, vs]) => `${esc(k)}: ${vs.map((v) => fold(v, 120)).join(' | ')}`).join('<br>');
}

/** The environment: where and how the run ran, as key / value rows; the settings folded below. */
export function environmentSection(report: ConformanceReport): string {
  const run = report.run;
  const rows: [string, string][] = [];
  if (isMultiTarget(report)) for (const t of report.targets) rows.push([`Target ${t.label}`, esc(describeTarget(t))]);
  else rows.push(['Target', esc(describeTarget(report.target))]);
  if (isMultiTarget(report))
    for (const t of report.targets) rows.push([`Server headers (${t.label})`, headersList(t.serverHeaders)]);
  else rows.push(['Server headers', headersList(report.target.serverHeaders ?? report.targets[0]?.serverHeaders)]);
  rows.push(
    ['Run id', `<code>${esc(run.id)}</code>`],
    ['Started', esc(run.startedAt)],
    ['Finished', `${esc(run.finishedAt)}${run.interrupted ? ` (interrupted: ${esc(run.interrupted)})` : ''}`],
    ['Duration', esc(duration(run.startedAt, run.finishedAt))],
    ['Seed', `${esc(run.seed)} (replay with <code>--seed ${esc(run.seed)}</code>)`],
    ['Runs per property', esc(run.runs)],
    ['Suites', esc(run.suites.join(', '))],
    ...report.targets.flatMap((t): [string, string][] => {
      const text = undeletableText(t.summary.cleanup, t.kind);
      return text ? [[`Left by design${isMultiTarget(report) ? ` (${t.label})` : ''}`, esc(text)]] : [];
    }),
    ...(shardsText(run) ? [['Shards', esc(shardsText(run))] as [string, string]] : []),
    ['Host', esc(run.host?.os ?? 'not recorded')],
    ['Node.js', esc(run.host?.node ?? 'not recorded')],
    [
      'screenconf',
      `${esc(report.tool.version)}${report.tool.commit ? `, git commit <code>${esc(report.tool.commit)}</code>` : ''}`,
    ],
    ['Requirement catalogue', esc(report.catalogueVersion)],
    ['Report schema', esc(report.schemaVersion)],
  );
  const options = Object.entries(run.options ?? {});
  const settings = options.length
    ? `<details class="settings"><summary>Settings of the run (${options.length})</summary>` +
      `${kv(options.map(([k, v]) => [k, fold(typeof v === 'string' ? v : stringifyJson(v), 200)]))}</details>`
    : '';
  return `<section id="run"><h2>Environment</h2>${kv(rows)}${settings}</section>`;
}

/** The section of the interface a requirement comes from: its source up to the quoted text. */
function sectionOf(source: string): string {
  return source.replace(/\s*\(.*$/, '').trim() || source;
}

/** Interface section → requirements → checks → verdict. */
export function traceSection(report: ConformanceReport): string {
  const checks = reportChecks(report);
  const groups = new Map<string, RequirementResult[]>();
  for (const r of report.results) {
    const s = sectionOf(r.source);
    groups.set(s, [...(groups.get(s) ?? []), r]);
  }
  const checkList = (r: RequirementResult) => {
    const mine: Check[] = checks.filter((c) => c.requirements.includes(r.id));
    if (!mine.length) return '<span class="none">no check ran</span>';
    return `<ul>${mine
      .map(
        (c) =>
          `<li><span class="state ${esc(c.state)}">${esc(c.state)}</span> ` +
          `${esc(c.suite)}: ${esc(oneLine(c.name, 200))}` +
          `${c.target ? ` (${esc(c.target)})` : ''}</li>`,
      )
      .join('')}</ul>`;
  };
  const bodies = [...groups.entries()].map(([section, rs]) => {
    const rows = rs.map(
      (r, i) =>
        `<tr>${i === 0 ? `<th scope="rowgroup" rowspan="${rs.length}">${esc(section)}</th>` : ''}` +
        `<td class="id"><a href="#req-${esc(r.id)}">${esc(r.id)}</a> ${esc(r.level)}</td><td>${checkList(r)}</td>` +
        `<td>${badge(r.verdict)}</td></tr>`,
    );
    return `<tbody>${rows.join('')}</tbody>`;
  });
  return (
    '<section id="trace"><h2>Traceability</h2><p>Each section of the interface (or RFC), the requirements taken ' +
    'from it, the checks that judged them and the verdict.</p><table class="trace"><thead><tr><th>Interface ' +
    `section</th><th>Requirement</th><th>Checks</th><th>Verdict</th></tr></thead>${bodies.join('')}</table></section>`
  );
}
