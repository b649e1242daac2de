/** The stylesheet and script report.html carries inline (one self-contained file, no network). */

export const STYLE = `
:root{--pass:#2e7d32;--fail:#c62828;--warn:#ef6c00;--skip:#757575;--observed:#1565c0;--line:#ddd;--muted:#555}
*{box-sizing:border-box}
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1a1a1a;background:#fafafa}
main{max-width:1200px;margin:0 auto;padding:0 20px 40px}
header.verdict{padding:22px 20px;color:#fff}
header.verdict h1{margin:0;font-size:30px;letter-spacing:.02em}
header.verdict p{margin:6px 0 0}
header.ok{background:var(--pass)}header.bad{background:var(--fail)}header.incomplete{background:#b26a00}
.gate{margin-top:8px;font-weight:600}
h2{margin:28px 0 10px;font-size:20px}
dl.run{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:16px 0}
dl.run dt{font-weight:600;color:var(--muted)}dl.run dd{margin:0;overflow-wrap:anywhere}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{border-bottom:1px solid var(--line);padding:6px 8px;text-align:left;vertical-align:top}
th{background:#f0f0f0;position:sticky;top:0}
td.id{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px;white-space:nowrap}
.badge{
  display:inline-block; 
  padding:1px 8px; 
  border-radius:10px; 
  color:#fff; 
  font-size:12px; 
  font-weight:600; 
  white-space:nowrap}
.badge.pass{background:var(--pass)}
.badge.fail{background:var(--fail)}
.badge.warn{background:var(--warn)}
.badge.skip{background:var(--skip)}
.badge.observed{background:var(--observed)}
.badge.none{background:#bbb}
tbody.req.differs>tr:first-child{background:#fff8e1}
.differs-mark{color:#8d6e00;font-weight:600;font-size:12px}
p.source,p.decision,p.reason,p.expected{margin:4px 0 0;color:var(--muted);font-size:13px}
p.statement{margin:0}
tr.detail td{padding-top:0;border-bottom:1px solid #bbb}
details{margin:2px 0}
summary{cursor:pointer;color:#0d47a1;font-size:13px}
pre{
  background:#f5f5f5; 
  border:1px solid var(--line); 
  padding:8px; 
  white-space:pre-wrap; 
  overflow-wrap:anywhere; 
  font-size:12px; 
  max-height:480px; 
  overflow:auto}
.evidence h4{margin:10px 0 4px;font-size:14px}
.evidence ul{margin:4px 0;padding-left:20px}
form.filters{
  display:flex; 
  flex-wrap:wrap; 
  gap:14px; 
  align-items:center; 
  margin:8px 0 12px; 
  padding:8px 10px; 
  background:#fff; 
  border:1px solid var(--line)}
#shown{color:var(--muted);margin-left:auto}
svg .pass{fill:var(--pass)}
svg .fail{fill:var(--fail)}
svg .warn{fill:var(--warn)}
svg .skip{fill:#9e9e9e}
svg .observed{fill:var(--observed)}
svg text{font:12px system-ui,sans-serif;fill:#1a1a1a}svg text.count{fill:#fff;font-weight:600}
svg g.bar{cursor:pointer}
ul.legend{list-style:none;display:flex;gap:16px;padding:0;margin:6px 0;font-size:13px}
ul.legend li::before{content:"";display:inline-block;width:10px;height:10px;margin-right:5px;vertical-align:middle}
ul.legend .pass::before{background:var(--pass)}
ul.legend .fail::before{background:var(--fail)}
ul.legend .warn::before{background:var(--warn)}
ul.legend .skip::before{background:#9e9e9e}
ul.legend .observed::before{background:var(--observed)}
footer{color:var(--muted);font-size:12px;margin-top:30px}
header.verdict p.ids{font-weight:600}header.verdict p.ids a{color:#fff}
#failures article.failure{background:#fff;border:1px solid var(--line);border-left:6px solid var(--warn);
  padding:10px 14px;margin:12px 0}
#failures article.failure.fail{border-left-color:var(--fail)}
#failures h3{margin:0 0 6px;font-size:17px}#failures h3 .id{font-family:ui-monospace,Menlo,Consolas,monospace}
#failures h3 .level{color:var(--muted);font-size:13px}
#failures h4{margin:12px 0 4px;font-size:14px}#failures h5,.evidence h5{margin:10px 0 4px;font-size:13px}
#failures p.none{color:var(--pass);font-weight:600}
dl.fields{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:6px 0}
dl.fields dt{font-weight:600;color:var(--muted)}dl.fields dd{margin:0;overflow-wrap:anywhere}
.exchange{margin:6px 0}.exchange pre{margin:0 0 2px}.exchange.judged pre.head{border-left:4px solid var(--fail)}
details.fold summary{color:#1a1a1a}details.fold .length{color:var(--muted);font-size:12px}
table.kv{width:auto;min-width:50%}table.kv th{background:none;position:static;color:var(--muted);
  white-space:nowrap;font-weight:600}
table.trace th[scope=rowgroup]{background:#f7f7f7;position:static;max-width:280px;font-weight:600}
table.trace ul{margin:0;padding-left:16px}.state.failed{color:var(--fail);font-weight:600}
.state.skipped{color:var(--skip)}.state.passed{color:var(--pass)}
input[type=search]{min-width:260px}
@media print{form.filters{display:none}details{display:block}pre{max-height:none}
  tbody.req[hidden]{display:table-row-group}}
`;

/**
 * Shows the rows the filters let through (search: every word must be in the row's text); clicking a bar of the chart
 * filters by its area.
 */
export const SCRIPT = `
(function () {
  var form = document.getElementById('filters');
  if (!form) return;
  var rows = Array.prototype.slice.call(document.querySelectorAll('tbody.req'));
  var texts = rows.map(function (row) { return row.textContent.toLowerCase(); });
  var search = document.getElementById('f-search');
  var failures = document.getElementById('f-failures');
  var level = document.getElementById('f-level');
  var area = document.getElementById('f-area');
  var differs = document.getElementById('f-differs');
  var shown = document.getElementById('shown');
  function apply() {
    var n = 0;
    var words = search.value.toLowerCase().split(/\\s+/).filter(function (w) { return w !== ''; });
    rows.forEach(function (row, i) {
      var ok = words.every(function (w) { return texts[i].indexOf(w) >= 0; }) &&
        (!failures.checked || row.getAttribute('data-failing') === '1') &&
        (level.value === '' || row.getAttribute('data-level') === level.value) &&
        (area.value === '' || row.getAttribute('data-area') === area.value) &&
        (!differs || !differs.checked || row.getAttribute('data-differs') === '1');
      row.hidden = !ok;
      if (ok) n += 1;
    });
    shown.textContent = 'showing ' + n + ' of ' + rows.length;
  }
  form.addEventListener('change', apply);
  search.addEventListener('input', apply);
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
