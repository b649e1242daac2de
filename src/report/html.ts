/**
 * report.html: one self-contained page an auditor can open and file. The verdict at the top,
 * a chart of results by area (inline SVG), the requirement table with statements and sources,
 * filters (failures only, level, area; differences with several targets) and each entry's
 * checks and evidence expandable in place.
 *
 * No network and no external asset: the CSS and the script are inline, and a Content Security
 * Policy allows exactly those two (by hash) and nothing else, so even a mistake in escaping
 * could neither run a script nor fetch anything. Every text is escaped; the script reads only
 * data-* attributes of the rows and never builds markup. The page is a pure function of
 * conformance.json (no clock), so re-rendering it gives the same bytes.
 */
import { createHash } from 'node:crypto';
import { overallVerdict, verdictLine, type OverallVerdict } from './build.ts';
import {
  areaTitle,
  countsByArea,
  describeTarget,
  exchangeText,
  isFailing,
  isMultiTarget,
  serverHeadersText,
  VERDICTS,
} from './render-common.ts';
import type {
  ConformanceReport,
  ObservationEvidence,
  ReportEvidence,
  RequirementResult,
  TargetResult,
  Verdict,
} from './schema.ts';

/** Escapes text for HTML content and (double-quoted) attribute values. */
export function esc(s: unknown): string {
  return String(s).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

const VERDICT_CLASS: Record<OverallVerdict, string> = {
  CONFORMING: 'ok',
  'NOT CONFORMING': 'bad',
  INCOMPLETE: 'incomplete',
  INTERRUPTED: 'incomplete',
};

const STYLE = `
:root{--pass:#2e7d32;--fail:#c62828;--warn:#ef6c00;--skip:#757575;--observed:#1565c0;--line:#ddd;--muted:#555}
*{box-sizing:border-box}
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1a1a1a;background:#fafafa}
main{max-width:1200px;margin:0 auto;padding:0 20px 40px}
header.verdict{padding:22px 20px;color:#fff}
header.verdict h1{margin:0;font-size:30px;letter-spacing:.02em}
header.verdict p{margin:6px 0 0}
header.ok{background:var(--pass)}header.bad{background:var(--fail)}header.incomplete{background:#6d4c41}
.gate{margin-top:8px;font-weight:600}
h2{margin:28px 0 10px;font-size:20px}
dl.run{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:16px 0}
dl.run dt{font-weight:600;color:var(--muted)}dl.run dd{margin:0;overflow-wrap:anywhere}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{border-bottom:1px solid var(--line);padding:6px 8px;text-align:left;vertical-align:top}
th{background:#f0f0f0;position:sticky;top:0}
td.id{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px;white-space:nowrap}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;color:#fff;font-size:12px;font-weight:600;white-space:nowrap}
.badge.pass{background:var(--pass)}.badge.fail{background:var(--fail)}.badge.warn{background:var(--warn)}.badge.skip{background:var(--skip)}.badge.observed{background:var(--observed)}
.badge.none{background:#bbb}
tbody.req.differs>tr:first-child{background:#fff8e1}
.differs-mark{color:#8d6e00;font-weight:600;font-size:12px}
p.source,p.decision,p.reason,p.expected{margin:4px 0 0;color:var(--muted);font-size:13px}
p.statement{margin:0}
tr.detail td{padding-top:0;border-bottom:1px solid #bbb}
details{margin:2px 0}
summary{cursor:pointer;color:#0d47a1;font-size:13px}
pre{background:#f5f5f5;border:1px solid var(--line);padding:8px;white-space:pre-wrap;overflow-wrap:anywhere;font-size:12px;max-height:480px;overflow:auto}
.evidence h4{margin:10px 0 4px;font-size:14px}
.evidence ul{margin:4px 0;padding-left:20px}
form.filters{display:flex;flex-wrap:wrap;gap:14px;align-items:center;margin:8px 0 12px;padding:8px 10px;background:#fff;border:1px solid var(--line)}
#shown{color:var(--muted);margin-left:auto}
svg .pass{fill:var(--pass)}svg .fail{fill:var(--fail)}svg .warn{fill:var(--warn)}svg .skip{fill:#9e9e9e}svg .observed{fill:var(--observed)}
svg text{font:12px system-ui,sans-serif;fill:#1a1a1a}svg text.count{fill:#fff;font-weight:600}
svg g.bar{cursor:pointer}
ul.legend{list-style:none;display:flex;gap:16px;padding:0;margin:6px 0;font-size:13px}
ul.legend li::before{content:"";display:inline-block;width:10px;height:10px;margin-right:5px;vertical-align:middle}
ul.legend .pass::before{background:var(--pass)}ul.legend .fail::before{background:var(--fail)}ul.legend .warn::before{background:var(--warn)}ul.legend .skip::before{background:#9e9e9e}ul.legend .observed::before{background:var(--observed)}
footer{color:var(--muted);font-size:12px;margin-top:30px}
@media print{form.filters{display:none}details{display:block}pre{max-height:none}}
`;

/** Shows the rows the filters let through; clicking a bar of the chart filters by its area. */
const SCRIPT = `
(function () {
  var form = document.getElementById('filters');
  if (!form) return;
  var rows = Array.prototype.slice.call(document.querySelectorAll('tbody.req'));
  var failures = document.getElementById('f-failures');
  var level = document.getElementById('f-level');
  var area = document.getElementById('f-area');
  var differs = document.getElementById('f-differs');
  var shown = document.getElementById('shown');
  function apply() {
    var n = 0;
    rows.forEach(function (row) {
      var ok = (!failures.checked || row.getAttribute('data-failing') === '1') &&
        (level.value === '' || row.getAttribute('data-level') === level.value) &&
        (area.value === '' || row.getAttribute('data-area') === area.value) &&
        (!differs || !differs.checked || row.getAttribute('data-differs') === '1');
      row.hidden = !ok;
      if (ok) n += 1;
    });
    shown.textContent = 'showing ' + n + ' of ' + rows.length;
  }
  form.addEventListener('change', apply);
  form.addEventListener('submit', function (e) { e.preventDefault(); });
  Array.prototype.forEach.call(document.querySelectorAll('svg g.bar'), function (bar) {
    bar.addEventListener('click', function () {
      area.value = bar.getAttribute('data-area') || '';
      apply();
      document.getElementById('requirements').scrollIntoView();
    });
  });
  apply();
})();
`;

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64');
}

function badge(v: Verdict | undefined): string {
  return v ? `<span class="badge ${esc(v)}">${esc(v)}</span>` : '<span class="badge none">—</span>';
}

function chart(results: RequirementResult[]): string {
  const rows = countsByArea(results);
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
        const rect = `<rect class="${v}" x="${x.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="${rowH - 6}"><title>${esc(`${r.title}: ${r.counts[v]} ${v}`)}</title></rect>${w >= 18 ? `<text class="count" x="${(x + w / 2).toFixed(1)}" y="${y + rowH - 11}" text-anchor="middle">${r.counts[v]}</text>` : ''}`;
        x += w;
        return rect;
      });
      return `<g class="bar" data-area="${esc(r.area)}"><text x="${labelW - 8}" y="${y + rowH - 11}" text-anchor="end">${esc(r.title)}</text>${parts.join('')}<text x="${(x + 6).toFixed(1)}" y="${y + rowH - 11}">${r.total}</text></g>`;
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
  return `<svg id="area-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${labelW + barW + 40} ${height}" width="100%" role="img" aria-label="${esc(`Results by area: ${label}`)}">\n${bars}\n</svg>
<ul class="legend">${VERDICTS.map((v) => `<li class="${v}">${v}</li>`).join('')}</ul>`;
}

function evidenceHtml(evidence: ReportEvidence | undefined): string {
  if (!evidence) return '';
  const out: string[] = [];
  const p = evidence.property;
  if (p) {
    out.push(
      `<p>Property <strong>${esc(p.name)}</strong>: counterexample after ${p.numRuns} runs, shrunk ${p.numShrinks} steps; fast-check seed ${p.seed}, path <code>${esc(p.path)}</code>; replay the run with <code>--seed ${p.runSeed}</code>.</p>`,
      `<pre class="counterexample">${esc(p.counterexample)}</pre>`,
    );
  }
  evidence.exchanges.forEach((e, i) => {
    out.push(`<pre class="exchange">${esc(exchangeText(e))}</pre>`);
    if (evidence.curl[i]) out.push(`<p>Reproduce with:</p><pre class="curl">${esc(evidence.curl[i])}</pre>`);
  });
  return out.join('\n');
}

function failuresHtml(failures: RequirementResult['failures']): string {
  return (failures ?? [])
    .map((f) => {
      const flaky =
        f.flaky === true
          ? ' (flaky: failed, then passed when re-run)'
          : f.flaky === false
            ? ' (failed again when re-run)'
            : '';
      return `<h4>Failed check: ${esc(f.test)}${f.target ? ` on ${esc(f.target)}` : ''}${esc(flaky)}</h4>\n<pre class="message">${esc(f.message)}</pre>\n${evidenceHtml(f.evidence)}`;
    })
    .join('\n');
}

function observationsHtml(r: Pick<RequirementResult, 'observations' | 'observationEvidence'>): string {
  const list: ObservationEvidence[] =
    r.observationEvidence ?? (r.observations ?? []).map((text) => ({ test: '', text }));
  if (!list.length) return '';
  return `<h4>Observed</h4>\n${list
    .map(
      (o) =>
        `<p class="observation">${esc(o.text)}${o.test ? ` <span class="source">— ${esc(o.test)}${o.target ? ` on ${esc(o.target)}` : ''}</span>` : ''}</p>\n${evidenceHtml(o.evidence)}`,
    )
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
          `<p class="expected">Expected failure (${esc(t.expected.outcome)}, until ${esc(t.expected.expires)}): ${esc(t.expected.reason)}</p>`,
        );
    }
  }
  parts.push(failuresHtml(r.failures));
  parts.push(observationsHtml(r));
  if (r.tests.length) {
    parts.push(
      `<h4>Checks</h4>\n<ul>${r.tests.map((t) => `<li>${esc(t.suite)}: ${esc(t.name)}${t.target ? ` (${esc(t.target)})` : ''} — ${esc(t.state)}${t.flaky ? ' (flaky)' : ''}</li>`).join('')}</ul>`,
    );
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
  return `<details class="evidence"><summary>${title}: ${esc(what.join(', '))}</summary>\n${parts.filter(Boolean).join('\n')}\n</details>`;
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
    r.reason && r.verdict !== 'pass'
      ? `<p class="reason">${r.verdict === 'skip' ? 'Skipped: ' : r.level === 'OBSERVE' && r.verdict === 'warn' ? 'Not observed: the check that records it failed first: ' : ''}${esc(r.reason)}</p>`
      : '',
    r.expected
      ? `<p class="expected">Expected failure (${esc(r.expected.outcome)}, until ${esc(r.expected.expires)}): ${esc(r.expected.reason)}</p>`
      : '',
  ].join('');
  const cols = 5 + (multi ? labels.length : 0);
  return `<tbody class="req${r.differs ? ' differs' : ''}" id="req-${esc(r.id)}" data-id="${esc(r.id)}" data-verdict="${esc(r.verdict)}" data-level="${esc(r.level)}" data-area="${esc(r.area)}" data-failing="${failing ? 1 : 0}" data-differs="${r.differs ? 1 : 0}">
<tr><td class="id">${esc(r.id)}</td><td>${esc(r.level)}</td><td class="verdict">${badge(r.verdict)}${r.differs ? ' <span class="differs-mark">differs</span>' : ''}</td>${perTarget}<td>${esc(areaTitle(r.area))}</td><td><p class="statement">${esc(r.statement)}</p>${notes}</td></tr>
<tr class="detail"><td colspan="${cols}">${detailsHtml(r, multi)}</td></tr>
</tbody>`;
}

export function renderHtml(report: ConformanceReport): string {
  const verdict = overallVerdict(report);
  const multi = isMultiTarget(report);
  const labels = report.targets.map((t) => t.label);
  const gate = report.summary.gate;
  const run = report.run;
  const areas = countsByArea(report.results);
  // Built from constants and base64 digests only: nothing in it needs escaping.
  const csp = `default-src 'none'; style-src 'sha256-${sha256(STYLE)}'; script-src 'sha256-${sha256(SCRIPT)}'; img-src 'none'; connect-src 'none'; base-uri 'none'; form-action 'none'`;
  const dl = (rows: [string, string][]) =>
    `<dl class="run">${rows.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join('')}</dl>`;
  const info: [string, string][] = [];
  if (!multi) {
    info.push(['Target', esc(describeTarget(report.target))]);
    info.push(['Server', esc(serverHeadersText(report.target.serverHeaders ?? report.targets[0]?.serverHeaders))]);
  }
  info.push(
    [
      'Run',
      `<code>${esc(run.id)}</code>, ${esc(run.startedAt)} to ${esc(run.finishedAt)}${run.interrupted ? `, interrupted (${esc(run.interrupted)})` : ''}`,
    ],
    [
      'Seed',
      `${esc(run.seed)} (replay with <code>--seed ${esc(run.seed)}</code>), ${esc(run.runs)} generated cases per property`,
    ],
    ['Suites', esc(run.suites.join(', '))],
    [
      'screenconf',
      `${esc(report.tool.version)}, requirement catalogue ${esc(report.catalogueVersion)}, report schema ${esc(report.schemaVersion)}`,
    ],
  );
  if (run.options) info.push(['Options', `<code>${esc(JSON.stringify(run.options))}</code>`]);
  const problems = [
    ...report.summary.harnessFaults.map((f) => `Harness fault: ${f}`),
    ...report.summary.suiteErrors.map((e) => `Suite error: ${e}`),
    ...(report.summary.leftovers.length
      ? [`Could not delete cases ${report.summary.leftovers.join(', ')} on the target`]
      : []),
  ];
  const targetsTable = multi
    ? `<section id="targets"><h2>Targets</h2><table><thead><tr><th>Target</th><th>Base URL</th><th>Server</th><th>Verdict</th><th>MUST failed</th><th>SHOULD warned</th></tr></thead><tbody>${report.targets
        .map(
          (t) =>
            `<tr><td>${esc(t.label)}</td><td>${esc(describeTarget(t))}</td><td>${esc(serverHeadersText(t.serverHeaders))}</td><td>${t.summary.conforming ? 'conforming' : '<strong>not conforming</strong>'}</td><td>${t.summary.mustFailures}</td><td>${t.summary.shouldWarnings}</td></tr>`,
        )
        .join('')}</tbody></table></section>`
    : '';
  const levelOptions = ['MUST', 'SHOULD', 'OBSERVE'].map((l) => `<option value="${l}">${l}</option>`).join('');
  const areaOptions = areas.map((a) => `<option value="${esc(a.area)}">${esc(a.title)}</option>`).join('');
  const head = `<tr><th>Requirement</th><th>Level</th><th>Verdict</th>${multi ? labels.map((l) => `<th>${esc(l)}</th>`).join('') : ''}<th>Area</th><th>Statement and source</th></tr>`;
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
${gate ? `<p class="gate">Gate: ${gate.passed ? 'passed' : 'FAILED'}${gate.strict ? ' (--strict)' : ''}${gate.expectations ? ` with expectations ${esc(gate.expectations)}` : ''}</p>` : ''}
</header>
<main>
<section id="run"><h2>Run</h2>${dl(info)}</section>
${targetsTable}
${problems.length ? `<section id="problems"><h2>Problems of the run</h2><ul>${problems.map((p) => `<li>${esc(p)}</li>`).join('')}</ul></section>` : ''}
<section id="chart"><h2>Results by area</h2>
${chart(report.results)}
</section>
<section id="requirements"><h2>Requirements</h2>
<form class="filters" id="filters">
<label><input type="checkbox" id="f-failures"> Failures only</label>
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
<footer>screenconf ${esc(report.tool.version)} · rendered from conformance.json (schema ${esc(report.schemaVersion)}) · check this folder with <code>screenconf verify DIR</code></footer>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
