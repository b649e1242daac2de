/**
 * report.md: the report as Markdown (GitHub-flavoured), for a pull-request comment or a wiki:
 * the verdict, the run and target, counts by area, every failure and warning with its
 * reproduction and transcript (folded), the observations, and the requirement table.
 *
 * Server-controlled text (messages, bodies, header values) is either inside a code fence
 * longer than any backtick run it holds, or escaped, so it cannot add Markdown or HTML.
 * To stay within what a comment holds (GitHub: 65536 characters), bodies are cut at 2000
 * characters, observations are listed without their exchanges, and the requirement table
 * leaves out the catalogue's decisions: report.html and conformance.json have everything.
 */
import { overallVerdict, verdictLine } from '../results/build.ts';
import type { Evidence } from '../results/evidence.ts';
import { areaTitle, byArea } from '../results/judge.ts';
import {
  describeTarget,
  exchangeText,
  isFailing,
  isMultiTarget,
  serverHeadersText,
  VERDICTS,
} from './render-common.ts';
import type { ConformanceReport, ObservationEvidence } from '../results/report.ts';

const BODY_CHARS = 2000;

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

const BADGE: Record<string, string> = {
  pass: '✅ pass',
  fail: '❌ fail',
  warn: '⚠️ warn',
  skip: '⏭️ skip',
  observed: '👁️ observed',
};

function row(cells: string[]): string {
  return `| ${cells.join(' | ')} |`;
}

/** The evidence: counterexample, reproduction, and the exchanges, folded. */
function evidenceMd(evidence: Evidence | undefined, out: string[]): void {
  if (!evidence) return;
  const p = evidence.property;
  if (p) {
    out.push(
      '',
      `Property ${mdText(p.name)}: counterexample after ${p.numRuns} runs, shrunk ${p.numShrinks} steps (fast-check ` +
        `seed ${p.seed}, path ${mdCode(p.path)}; replay the run with ${mdCode(`--seed ${p.runSeed}`)}):`,
      '',
      mdBlock(p.counterexample),
    );
  }
  const curl = evidence.curl.at(-1);
  if (curl) out.push('', 'Reproduce with:', '', mdBlock(curl, 'sh'));
  if (evidence.exchanges.length) {
    out.push(
      '',
      `<details><summary>Transcript (${evidence.exchanges.length} ` +
        `exchange${evidence.exchanges.length === 1 ? '' : 's'})</summary>`,
      '',
    );
    evidence.exchanges.forEach((e, i) => {
      out.push(mdBlock(exchangeText(e, BODY_CHARS), 'http'));
      if (evidence.curl[i] && i < evidence.exchanges.length - 1) out.push('', mdBlock(evidence.curl[i]!, 'sh'));
      out.push('');
    });
    out.push('</details>');
  }
}

export function renderMarkdown(report: ConformanceReport): string {
  const out: string[] = [];
  const verdict = overallVerdict(report);
  const multi = isMultiTarget(report);
  const labels = report.targets.map((t) => t.label);
  out.push(
    `# screenconf conformance report: ${verdict}`,
    '',
    `**Verdict: ${verdict}** — ${mdText(verdictLine(report))}`,
  );
  const gate = report.summary.gate;
  if (gate) {
    const strict = gate.strict ? ' (--strict)' : '';
    const file = gate.expectations ? ` with expectations ${mdCode(gate.expectations)}` : '';
    out.push('', `**Gate: ${gate.passed ? 'passed' : 'FAILED'}**${strict}${file}`);
  }

  out.push('', row(['', '']), row(['---', '---']));
  if (!multi) {
    out.push(row(['Target', mdText(describeTarget(report.target))]));
    out.push(
      row(['Server', mdText(serverHeadersText(report.target.serverHeaders ?? report.targets[0]?.serverHeaders))]),
    );
  } else out.push(row(['Targets', mdText(labels.join(', '))]));
  out.push(
    row([
      'Run',
      `${mdCode(report.run.id)}, ${mdText(report.run.startedAt)} to ${mdText(report.run.finishedAt)}` +
        (report.run.interrupted ? `, interrupted (${mdText(report.run.interrupted)})` : ''),
    ]),
    row([
      'Seed',
      `${report.run.seed} (replay with ${mdCode(`--seed ${report.run.seed}`)}), ${report.run.runs} generated cases ` +
        `per property`,
    ]),
    row(['Suites', mdText(report.run.suites.join(', '))]),
    row([
      'screenconf',
      `${mdText(report.tool.version)}, requirement catalogue ${mdText(report.catalogueVersion)}, report schema ` +
        `${report.schemaVersion}`,
    ]),
  );
  if (report.run.options) out.push(row(['Options', mdCode(JSON.stringify(report.run.options))]));

  if (multi) {
    out.push(
      '',
      '## Targets',
      '',
      row(['Target', 'Base URL', 'Server', 'Verdict', 'MUST failed', 'SHOULD warned']),
      row(['---', '---', '---', '---', '---:', '---:']),
    );
    for (const t of report.targets) {
      out.push(
        row([
          mdText(t.label),
          mdText(describeTarget(t)),
          mdText(serverHeadersText(t.serverHeaders)),
          t.summary.conforming ? 'conforming' : '**not conforming**',
          String(t.summary.mustFailures),
          String(t.summary.shouldWarnings),
        ]),
      );
    }
  }

  out.push('', '## Results by area', '', row(['Area', ...VERDICTS]), row(['---', ...VERDICTS.map(() => '---:')]));
  for (const a of byArea(report.results)) out.push(row([mdText(a.title), ...VERDICTS.map((v) => String(a.counts[v]))]));
  out.push(row(['**All requirements**', ...VERDICTS.map((v) => `**${report.summary.counts[v]}**`)]));

  const problems = report.summary.harnessFaults
    .map((f) => `Harness fault: ${f}`)
    .concat(report.summary.suiteErrors.map((e) => `Suite error: ${e}`));
  if (report.summary.leftovers.length)
    problems.push(`Could not delete cases ${report.summary.leftovers.join(', ')} on the target`);
  if (problems.length) out.push('', '## Problems of the run', '', ...problems.map((p) => `- ${mdText(p)}`));

  const failing = report.results.filter(isFailing);
  out.push('', '## Failures and warnings');
  if (!failing.length) out.push('', 'None.');
  for (const r of failing) {
    out.push(
      '',
      `### ${r.verdict.toUpperCase()} ${mdCode(r.id)} (${r.level})`,
      '',
      mdText(r.statement),
      '',
      `Source: ${mdText(r.source)}`,
    );
    if (r.expected)
      out.push(
        '',
        `Expected failure (${mdText(r.expected.outcome)}, until ${mdText(r.expected.expires)}): ` +
          `${mdText(r.expected.reason)}`,
      );
    if (multi && r.byTarget)
      out.push(
        '',
        `On each target: ${Object.entries(r.byTarget)
          .map(([l, t]) => `${mdText(l)} ${t.verdict}`)
          .join(', ')}`,
      );
    if (r.level === 'OBSERVE')
      out.push('', 'Not observed: the check that records it failed before it could (its failure below).');
    if (!r.failures?.length && r.reason) out.push('', mdBlock(r.reason));
    for (const f of r.failures ?? []) {
      const flaky =
        f.flaky === true
          ? ' (flaky: failed, then passed when re-run)'
          : f.flaky === false
            ? ' (failed again when re-run)'
            : '';
      out.push(
        '',
        `**Check:** ${mdText(f.test)}${f.target ? ` on ${mdText(f.target)}` : ''}${mdText(flaky)}`,
        '',
        mdBlock(f.message),
      );
      evidenceMd(f.evidence, out);
    }
  }

  const observed = report.results.filter((r) => r.observations?.length);
  if (observed.length) {
    out.push(
      '',
      '## Observations',
      '',
      'What the server did where the interface leaves it unsaid (never a failure); the exchanges are in report.html.',
    );
    for (const r of observed) {
      out.push('', `### ${mdCode(r.id)}`, '', mdText(r.statement));
      const details: ObservationEvidence[] =
        r.observationEvidence ?? (r.observations ?? []).map((text) => ({ test: '', text }));
      for (const o of details) {
        out.push(
          '',
          `- ${mdText(o.text)}${o.test ? ` — ${mdText(o.test)}` : ''}${o.target ? ` (${mdText(o.target)})` : ''}`,
        );
      }
    }
  }

  out.push('', '## All requirements', '');
  const head = [
    'Requirement',
    'Level',
    'Verdict',
    ...(multi ? labels.map((l) => mdText(l)) : []),
    'Area',
    'Statement',
    'Source',
  ];
  out.push(row(head), row(head.map(() => '---')));
  for (const r of report.results) {
    const verdictCell = `${BADGE[r.verdict] ?? r.verdict}${r.differs ? ' **(differs)**' : ''}`;
    const perTarget = multi ? labels.map((l) => BADGE[r.byTarget?.[l]?.verdict ?? ''] ?? '—') : [];
    const skipped = r.verdict === 'skip' && r.reason ? `<br>*skipped: ${mdText(r.reason)}*` : '';
    const statement = `${mdText(r.statement)}${skipped}`;
    out.push(
      row([mdCode(r.id), r.level, verdictCell, ...perTarget, mdText(areaTitle(r.area)), statement, mdText(r.source)]),
    );
  }
  out.push(
    '',
    `<sub>screenconf ${mdText(report.tool.version)} · rendered from conformance.json · check the folder with ` +
      `${mdCode('screenconf verify DIR')}</sub>`,
    '',
  );
  return out.join('\n');
}
