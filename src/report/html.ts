/**
 * report.html: one self-contained page an auditor can open and file. The verdict at the top with
 * the ids of what failed; then the failures (html-parts.ts: each failed and warned requirement,
 * its statement, source, expected / received, the judged exchange and the reproduction); the
 * environment; a chart of results by area (inline SVG); the requirement table with a search box
 * and filters (failures only, on when something failed; level, area; differences with several
 * targets); and the traceability view. Everything but the filters works with the script off.
 *
 * No network and no external asset: the CSS and the script are inline, and a Content Security
 * Policy allows exactly those two (by hash) and nothing else, so even a mistake in escaping
 * could neither run a script nor fetch anything. Every text is escaped; the script reads only
 * data-* attributes of the rows and never builds markup. The page is a pure function of
 * conformance.json (no clock), so re-rendering it gives the same bytes.
 */
import { matrixSection } from './html-matrix.ts';
import { renewalsHtml } from './renewals.ts';
import { createHash } from 'node:crypto';
import { overallVerdict, targetVerdict, verdictLine, type OverallVerdict } from '../results/build.ts';
import { areaTitle, byArea } from '../results/judge.ts';
import {
  badge,
  environmentSection,
  esc,
  evidenceHtml,
  failingInOrder,
  failureHtml,
  failuresSection,
  traceSection,
} from './html-parts.ts';
import { describeTarget, isFailing, isMultiTarget, ownerMark, serverHeadersText, VERDICTS } from './render-common.ts';

export { esc };
import { SCRIPT, STYLE } from './html-assets.ts';
import {
  REPLAY_EXITS,
  REPRO_EXITS,
  type ConformanceReport,
  type ObservationEvidence,
  type RequirementResult,
  type TargetResult,
} from '../results/report.ts';

/** Attributes of an element, each value escaped: ` a="1" b="x"`. */
function attrs(values: Record<string, string | number>): string {
  return Object.entries(values)
    .map(([k, v]) => ` ${k}="${esc(v)}"`)
    .join('');
}

const VERDICT_CLASS: Record<OverallVerdict, string> = {
  CONFORMING: 'ok',
  'NOT CONFORMING': 'bad',
  INCOMPLETE: 'incomplete',
  INTERRUPTED: 'incomplete',
};

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64');
}

function chart(results: RequirementResult[]): string {
  const rows = byArea(results);
  const labelW = 300;
  const barW = 560;
  const rowH = 24;
  const max = Math.max(1, ...rows.map((r) => r.total));
  const height = rows.length * rowH + 4;
  const bars = rows
    .map((r, i) => {
      let x = labelW;
      const y = i * rowH + 2;
      const parts = VERDICTS.filter((v) => r.counts[v] > 0).map((v) => {
        const w = (r.counts[v] / max) * barW;
        const title = `<title>${esc(`${r.title}: ${r.counts[v]} ${v}`)}</title>`;
        const box = { class: v, x: x.toFixed(1), y, width: w.toFixed(1), height: rowH - 6 };
        const count = { class: 'count', x: (x + w / 2).toFixed(1), y: y + rowH - 11, 'text-anchor': 'middle' };
        const rect = `<rect${attrs(box)}>${title}</rect>${w >= 18 ? `<text${attrs(count)}>${r.counts[v]}</text>` : ''}`;
        x += w;
        return rect;
      });
      return (
        `<g class="bar" data-area="${esc(r.area)}"><text x="${labelW - 8}" y="${y + rowH - 11}" ` +
        `text-anchor="end">${esc(r.title)}</text>${parts.join('')}<text x="${(x + 6).toFixed(1)}" ` +
        `y="${y + rowH - 11}">${r.total}</text></g>`
      );
    })
    .join('\n');
  const label = rows
    .map(
      (r) =>
        `${r.title}: ${VERDICTS.filter((v) => r.counts[v])
          .map((v) => `${r.counts[v]} ${v}`)
          .join(', ')}`,
    )
    .join('; ');
  const svg = {
    id: 'area-chart',
    xmlns: 'http://www.w3.org/2000/svg',
    viewBox: `0 0 ${labelW + barW + 40} ${height}`,
    width: '100%',
    role: 'img',
    'aria-label': `Results by area: ${label}`,
  };
  const legend = `<ul class="legend">${VERDICTS.map((v) => `<li class="${v}">${v}</li>`).join('')}</ul>`;
  return `<svg${attrs(svg)}>\n${bars}\n</svg>\n${legend}`;
}

function failuresHtml(failures: RequirementResult['failures']): string {
  return (failures ?? []).map(failureHtml).join('\n');
}

function observationsHtml(r: Pick<RequirementResult, 'observations' | 'observationEvidence'>): string {
  const list: ObservationEvidence[] =
    r.observationEvidence ?? (r.observations ?? []).map((text) => ({ test: '', text }));
  if (!list.length) return '';
  return `<h4>Observed</h4>\n${list
    .map((o) => {
      const on = o.target ? ` on ${esc(o.target)}` : '';
      const source = o.test ? ` <span class="source">— ${esc(o.test)}${on}</span>` : '';
      return `<p class="observation">${esc(o.text)}${source}</p>\n${evidenceHtml(o.evidence)}`;
    })
    .join('\n')}`;
}

function detailsHtml(r: RequirementResult, multi: boolean): string {
  const parts: string[] = [];
  if (multi && r.byTarget) {
    for (const [label, t] of Object.entries(r.byTarget) as [string, TargetResult][]) {
      parts.push(`<h4>On ${esc(label)}: ${badge(t.verdict)}</h4>`);
      if (t.reason) parts.push(`<p class="reason">${esc(t.reason)}</p>`);
      if (t.expected)
        parts.push(
          `<p class="expected">Expected failure (${esc(t.expected.outcome)}, until ${esc(t.expected.expires)}): ` +
            `${esc(t.expected.reason)}</p>`,
        );
    }
  }
  parts.push(failuresHtml(r.failures));
  if (r.repro)
    parts.push(
      `<p class="repro">Reproduce: <code>${esc(r.repro.command)}</code> in the run folder (${REPRO_EXITS}).</p>`,
    );
  if (r.replay)
    parts.push(
      `<p class="repro">Replay with the run's own checks: <code>${esc(r.replay.command)}</code> in the run folder ` +
        `(${REPLAY_EXITS}).</p>`,
    );
  parts.push(observationsHtml(r));
  if (r.tests.length) {
    const item = (t: RequirementResult['tests'][number]) =>
      `<li>${esc(t.suite)}: ${esc(t.name)}${t.target ? ` (${esc(t.target)})` : ''} — ${esc(t.state)}` +
      `${t.flaky ? ' (flaky)' : ''}</li>`;
    parts.push(`<h4>Checks</h4>\n<ul>${r.tests.map(item).join('')}</ul>`);
  } else parts.push('<p>No check ran for it in this run.</p>');
  const exchanges =
    (r.failures ?? []).reduce((n, f) => n + (f.evidence?.exchanges.length ?? 0), 0) +
    (r.observationEvidence ?? []).reduce((n, o) => n + (o.evidence?.exchanges.length ?? 0), 0);
  const what = [
    r.failures?.length ? `${r.failures.length} failed check${r.failures.length === 1 ? '' : 's'}` : '',
    r.observations?.length ? `${r.observations.length} observation${r.observations.length === 1 ? '' : 's'}` : '',
    exchanges ? `${exchanges} exchange${exchanges === 1 ? '' : 's'}` : '',
    `${r.tests.length} check${r.tests.length === 1 ? '' : 's'}`,
  ].filter(Boolean);
  const title = r.failures?.length || exchanges ? 'Evidence' : 'Details';
  return (
    `<details class="evidence"><summary>${title}: ` +
    `${esc(what.join(', '))}</summary>\n${parts.filter(Boolean).join('\n')}\n</details>`
  );
}

/** Why a requirement shows a reason: skipped, or an observation that could not be made. */
function reasonLead(r: RequirementResult): string {
  if (r.verdict === 'skip') return 'Skipped: ';
  return r.level === 'OBSERVE' && r.verdict === 'warn' ? 'Not observed: the check that records it failed first: ' : '';
}

function rowHtml(r: RequirementResult, labels: string[]): string {
  const multi = labels.length > 1;
  const failing = isFailing(r);
  const perTarget = multi
    ? labels.map((l) => `<td class="target">${badge(r.byTarget?.[l]?.verdict)}</td>`).join('')
    : '';
  const notes = [
    `<p class="source">Source: ${esc(r.source)}</p>`,
    r.decision ? `<p class="decision">Decision: ${esc(r.decision)}</p>` : '',
    r.reason && r.verdict !== 'pass' ? `<p class="reason">${reasonLead(r)}${esc(r.reason)}</p>` : '',
    r.expected
      ? `<p class="expected">Expected failure (${esc(r.expected.outcome)}, until ${esc(r.expected.expires)}): ` +
        `${esc(r.expected.reason)}</p>`
      : '',
  ].join('');
  const cols = 5 + (multi ? labels.length : 0);
  const body = {
    class: `req${r.differs ? ' differs' : ''}`,
    id: `req-${r.id}`,
    'data-id': r.id,
    'data-verdict': r.verdict,
    'data-level': r.level,
    'data-area': r.area,
    'data-failing': failing ? 1 : 0,
    'data-differs': r.differs ? 1 : 0,
  };
  const differs = r.differs ? ' <span class="differs-mark">differs</span>' : '';
  const cells = [
    `<td class="id">${esc(r.id)}${esc(ownerMark(r))}</td><td>${esc(r.level)}</td>`,
    `<td class="verdict">${badge(r.verdict)}${differs}</td>${perTarget}<td>${esc(areaTitle(r.area))}</td>`,
    `<td><p class="statement">${esc(r.statement)}</p>${notes}</td>`,
  ];
  return `<tbody${attrs(body)}>
<tr>${cells.join('')}</tr>
<tr class="detail"><td colspan="${cols}">${detailsHtml(r, multi)}</td></tr>
</tbody>`;
}

/** The targets of a run with several: each one's URL, server and verdict. */
function targetsHtml(report: ConformanceReport): string {
  const columns = ['Target', 'Base URL', 'Server', 'Verdict', 'MUST failed', 'SHOULD warned'];
  const rows = report.targets.map((t) => {
    const verdict = targetVerdict(t.summary, (v) => `<strong>${v}</strong>`);
    const cells = [esc(t.label), esc(describeTarget(t)), esc(serverHeadersText(t.serverHeaders)), verdict];
    cells.push(String(t.summary.mustFailures), String(t.summary.shouldWarnings));
    return `<tr>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`;
  });
  const head = `<tr>${columns.map((c) => `<th>${c}</th>`).join('')}</tr>`;
  const table = `<table><thead>${head}</thead><tbody>${rows.join('')}</tbody></table>`;
  return `<section id="targets"><h2>Targets</h2>${table}</section>`;
}

/** The ids behind the verdict, linked to their entries in the failures section. */
function verdictIds(report: ConformanceReport): string {
  const link = (r: RequirementResult) => `<a href="#fail-${esc(r.id)}">${esc(r.id)}</a>`;
  const failing = failingInOrder(report);
  const groups: [string, RequirementResult[]][] = [
    ['MUST failed', failing.filter((r) => r.level === 'MUST' && r.verdict === 'fail' && !r.expected)],
    ['SHOULD warned', failing.filter((r) => r.level === 'SHOULD' && r.verdict === 'warn' && !r.expected)],
    ['not observed', failing.filter((r) => r.level === 'OBSERVE')],
    ['expected to fail', failing.filter((r) => r.expected && r.level !== 'OBSERVE')],
  ];
  const parts = groups.filter(([, rs]) => rs.length).map(([what, rs]) => `${what}: ${rs.map(link).join(', ')}`);
  return parts.length ? `<p class="ids">${parts.join('; ')}</p>` : '';
}

export function renderHtml(report: ConformanceReport): string {
  const verdict = overallVerdict(report);
  const multi = isMultiTarget(report);
  const labels = report.targets.map((t) => t.label);
  const gate = report.summary.gate;
  const areas = byArea(report.results);
  // Built from constants and base64 digests only: nothing in it needs escaping.
  const csp =
    `default-src 'none'; style-src 'sha256-${sha256(STYLE)}'; script-src 'sha256-${sha256(SCRIPT)}'; ` +
    `img-src 'none'; connect-src 'none'; base-uri 'none'; form-action 'none'`;
  const problems = [
    ...report.summary.harnessFaults.map((f) => `Harness fault: ${f}`),
    ...report.summary.suiteErrors.map((e) => `Suite error: ${e}`),
    ...(report.summary.leftovers.length
      ? [`Could not delete cases ${report.summary.leftovers.join(', ')} on the target`]
      : []),
  ];
  const targetsTable = multi ? targetsHtml(report) : '';
  const levelOptions = ['MUST', 'SHOULD', 'OBSERVE'].map((l) => `<option value="${l}">${l}</option>`).join('');
  const areaOptions = areas.map((a) => `<option value="${esc(a.area)}">${esc(a.title)}</option>`).join('');
  const columns = ['Requirement', 'Level', 'Verdict', ...(multi ? labels : []), 'Area', 'Statement and source'];
  const head = `<tr>${columns.map((c) => `<th>${esc(c)}</th>`).join('')}</tr>`;
  const gateLine = gate
    ? `<p class="gate">Gate: ${gate.passed ? 'passed' : 'FAILED'}${gate.strict ? ' (--strict)' : ''}` +
      `${gate.expectations ? ` with expectations ${esc(gate.expectations)}` : ''}</p>`
    : '';
  const problemsList = problems.length
    ? `<section id="problems"><h2>Problems of the run</h2>` +
      `<ul>${problems.map((p) => `<li>${esc(p)}</li>`).join('')}</ul></section>`
    : '';
  // Failures only is on when something failed: the table then opens on what needs reading.
  const failuresOnly = report.results.some(isFailing) ? ' checked' : '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(`screenconf: ${verdict} — ${multi ? labels.join(', ') : report.target.baseUrl}`)}</title>
<style>${STYLE}</style>
</head>
<body>
<header class="verdict ${VERDICT_CLASS[verdict]}" id="verdict">
<h1>${esc(verdict)}</h1>
<p>${esc(verdictLine(report))}</p>
${verdictIds(report)}
${gateLine}
</header>
<main>
${failuresSection(report)}
${problemsList}
${renewalsHtml(report.summary)}
${environmentSection(report)}
${targetsTable}
<section id="chart"><h2>Results by area</h2>
${chart(report.results)}
</section>
<section id="requirements"><h2>Requirements</h2>
<form class="filters" id="filters">
<label>Search <input type="search" id="f-search" placeholder="id, statement, check, text" autocomplete="off"></label>
<label><input type="checkbox" id="f-failures"${failuresOnly}> Failures only</label>
<label>Level <select id="f-level"><option value="">all</option>${levelOptions}</select></label>
<label>Area <select id="f-area"><option value="">all</option>${areaOptions}</select></label>
${multi ? '<label><input type="checkbox" id="f-differs"> Differences only</label>' : ''}
<span id="shown">showing ${report.results.length} of ${report.results.length}</span>
</form>
<table id="results">
<thead>${head}</thead>
${report.results.map((r) => rowHtml(r, labels)).join('\n')}
</table>
</section>
${matrixSection(report)}
${traceSection(report)}
<footer>screenconf ${esc(report.tool.version)} · rendered from conformance.json (schema ${esc(report.schemaVersion)})
· every exchange of the run is in exchanges.har · check this folder with <code>screenconf verify DIR</code></footer>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
