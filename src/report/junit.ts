/**
 * junit.xml: the run as CI test views read it, rendered from conformance.json (with @xmldom/xmldom,
 * which escapes). One testcase per check, in one testsuite per suite file (per target, with
 * several), under <testsuites name="screenconf">:
 *
 * - <failure> (at most one) only where the release gate fails on the check's requirement: a MUST
 *   failure not excused by the expectations file, a SHOULD warning under --strict, an unexpected
 *   pass or an expired expectation. So CI is red exactly when the run exits 1.
 * - <error> where a harness fault kept the check from judging (the run exits 3); <skipped
 *   message="…"> for a check that did not judge, and for an expected failure (as pytest does xfail).
 * - a SHOULD warning, what an OBSERVE check recorded and a re-run are told in <system-out> and
 *   properties, never as failures.
 * - <property name="requirement" value="ID"> for each id the check names.
 *
 * The text comes from the results model (what, expected, received, the request, a curl command),
 * never from vitest: no stack frames. Characters XML 1.0 cannot hold are written as \uXXXX.
 * Two extensions of the Jenkins JUnit schema that CI servers read (Jenkins, GitLab, Testmo, pytest
 * and vitest write them too): <properties> in a testcase, and a message on <skipped>.
 */
import { DOMImplementation, type Document, type Element, XMLSerializer } from '@xmldom/xmldom';
import { oneLine } from '../base/text.ts';
import { judgedCurl, ownerMark } from './render-common.ts';
import {
  REPLAY_EXITS,
  REPRO_EXITS,
  type Check,
  type ConformanceReport,
  type Failure,
  type GateRef,
  type RequirementResult,
} from '../results/report.ts';

/** Whether a UTF-16 unit may stand in XML 1.0 text: not a control (but tab, LF, CR), not U+FFFE or U+FFFF. */
const xmlUnit = (c: number) => (c >= 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) && c !== 0xfffe && c !== 0xffff;
const high = (c: number) => c >= 0xd800 && c <= 0xdbff;
const low = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** Text XML 1.0 can hold: forbidden code points (controls, lone surrogates, U+FFFE/U+FFFF) shown as \uXXXX. */
export function xmlSafe(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (high(c) && low(s.charCodeAt(i + 1))) {
      out += s.slice(i, i + 2);
      i += 1;
    } else if (!xmlUnit(c) || high(c) || low(c)) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += s[i];
  }
  return out;
}

/** The checks of a report; a report before schemaVersion 4 has none, so they come from results[].tests. */
export function reportChecks(report: ConformanceReport): Check[] {
  if (report.checks) return report.checks;
  const byKey = new Map<string, Check>();
  for (const r of report.results) {
    for (const t of r.tests) {
      const key = `${t.target ?? ''}\u0000${t.suite}\u0000${t.name}`;
      const known = byKey.get(key);
      if (known) known.requirements.push(r.id);
      else {
        byKey.set(key, {
          suite: t.suite,
          name: t.name,
          state: t.state,
          requirements: [r.id],
          durationMs: 0,
          ...(t.flaky ? { flaky: true } : {}),
          ...(t.target ? { target: t.target } : {}),
          ...(t.state === 'skipped' && r.reason ? { skipReason: r.reason } : {}),
        });
      }
    }
  }
  return [...byKey.values()];
}

const key = (target: string | undefined, test: string) => `${target ?? ''}\u0000${test}`;

/** What the rendering looks up per check: failures and observations by check, results by id and target. */
interface Index {
  failures: Map<string, Failure>;
  observations: Map<string, { id: string; text: string }[]>;
  results: Map<string, RequirementResult>;
}

function indexReport(report: ConformanceReport): Index {
  const failures = new Map<string, Failure>();
  const observations = new Map<string, { id: string; text: string }[]>();
  for (const r of report.results) {
    for (const f of r.failures ?? []) if (!failures.has(key(f.target, f.test))) failures.set(key(f.target, f.test), f);
    for (const o of r.observationEvidence ?? []) {
      const k = key(o.target, o.test);
      observations.set(k, [...(observations.get(k) ?? []), { id: r.id, text: o.text }]);
    }
  }
  return { failures, observations, results: new Map(report.results.map((r) => [r.id, r])) };
}

const has = (refs: readonly GateRef[] | undefined, id: string, target: string | undefined) =>
  (refs ?? []).some((g) => g.id === id && (g.target === undefined || target === undefined || g.target === target));

/** How one check ends up in junit.xml. */
interface CaseView {
  failure?: { message: string; type: string; body: string };
  error?: { message: string; type: string; body: string };
  skipped?: string;
  out: string[];
  properties: [string, string][];
}

function failureBody(check: Check, r: RequirementResult | undefined, f: Failure | undefined): string {
  const lines: string[] = [];
  if (r) lines.push(`${r.level} ${r.id}${ownerMark(r)}: ${r.statement}`, `Source: ${r.source}`, '');
  lines.push(`Check: ${check.name}`);
  if (f) {
    lines.push(f.what ?? f.message.split('\n')[0]!);
    if (f.expected !== undefined) lines.push(`Expected: ${f.expected}`);
    if (f.received !== undefined) lines.push(`Received: ${f.received}`);
    if (f.request) lines.push(`Request: ${f.request.method} ${f.request.path} (${f.request.credential})`);
    const shown = (f.request ? 1 : 0) + 1 + (f.expected !== undefined ? 1 : 0) + (f.received !== undefined ? 1 : 0);
    const more = f.message.split('\n').slice(shown);
    if (more.some((l) => l.trim() !== '')) lines.push(...more);
    const p = f.evidence?.property;
    if (p) lines.push(`Counterexample: ${p.counterexample}`, `Replay the run with --seed ${p.runSeed}`);
    const curl = judgedCurl(f);
    if (curl) lines.push('', 'Reproduce with:', curl);
    if (r?.repro) lines.push(`Or run ${r.repro.command} in the run folder (${REPRO_EXITS})`);
    if (r?.replay) lines.push(`Or replay it with the run's own checks: ${r.replay.command} (${REPLAY_EXITS})`);
  }
  return lines.join('\n');
}

function rerunNote(check: Check): string | undefined {
  if (check.flaky === true)
    return check.state === 'failed'
      ? 'Re-run once after failing: passed on the re-run (flaky); the failure seen first is reported.'
      : 'Re-run once after it failed or could not judge: passed on the re-run (flaky, not counted as a failure).';
  if (check.flaky === false) return 'Re-run once after failing: failed again (deterministic).';
  return undefined;
}

function caseView(report: ConformanceReport, index: Index, check: Check): CaseView {
  const view: CaseView = { out: [], properties: check.requirements.map((id) => ['requirement', id]) };
  const target = check.target;
  const judged = check.requirements
    .map((id) => index.results.get(id))
    .find((r): r is RequirementResult => r !== undefined && r.level !== 'OBSERVE');
  const verdictOn = judged && target ? judged.byTarget?.[target] : judged;
  const expected = verdictOn?.expected;
  const failure = index.failures.get(key(target, check.name));
  const gate = report.summary.gate;
  const rerun = rerunNote(check);
  if (check.flaky !== undefined) view.properties.push(['flaky', String(check.flaky)]);

  if (check.harnessFault) {
    const { code, message } = check.harnessFault;
    view.error = { message: oneLine(`could not judge: ${message}`, 500), type: code, body: `${code}: ${message}` };
  } else if (check.state === 'skipped') {
    view.skipped = check.skipReason ?? 'skipped';
  }
  if (judged && !check.harnessFault && check.state !== 'skipped') {
    const gating = gate
      ? has(gate.gating, judged.id, target) && check.state === 'failed'
      : judged.level === 'MUST' && check.state === 'failed';
    const unexpectedPass = check.state === 'passed' && has(gate?.unexpectedPasses, judged.id, target);
    const expired = gate?.expired.find((e) => e.id === judged.id && (!e.target || !target || e.target === target));
    if (gating) {
      view.failure = {
        message: oneLine(`${judged.id}: ${failure?.what ?? failure?.message ?? judged.reason ?? 'failed'}`, 500),
        type: judged.level,
        body: failureBody(check, judged, failure),
      };
    } else if (unexpectedPass || expired) {
      const why = expired
        ? `the expectation for ${judged.id} expired on ${expired.expires} (entry ${expired.entry} of the ` +
          'expectations file): fix the server or renew the entry with a reason'
        : `${judged.id} passed, but the expectations file lists it as a known failure: remove the entry`;
      view.failure = { message: why, type: expired ? 'expired expectation' : 'unexpected pass', body: why };
      if (check.state === 'failed') view.out.push(failureBody(check, judged, failure));
    } else if (check.state === 'failed' && expected?.outcome === 'expected-fail') {
      view.skipped = `expected failure of ${judged.id} (until ${expected.expires}): ${expected.reason}`;
      view.out.push(failureBody(check, judged, failure));
    } else if (check.state === 'failed') {
      view.properties.push(['warning', judged.id]);
      view.out.push(`WARNING: ${judged.level} requirement not met, which does not fail the run.`);
      view.out.push(failureBody(check, judged, failure));
    }
  } else if (!judged && check.state === 'failed' && !check.harnessFault) {
    view.out.push('Could not observe: the check failed before it recorded anything.');
    view.out.push(failureBody(check, undefined, failure));
  }
  const seen = index.observations.get(key(target, check.name)) ?? [];
  for (const o of seen) {
    view.properties.push(['observed', o.id]);
    view.out.push(`OBSERVE ${o.id}: ${o.text}`);
  }
  if (check.state === 'failed' && !check.harnessFault) {
    const unseen = check.requirements.filter(
      (id) => index.results.get(id)?.level === 'OBSERVE' && !seen.some((o) => o.id === id),
    );
    for (const id of unseen) view.out.push(`OBSERVE ${id}: not observed, the check failed before it recorded it.`);
  }
  if (rerun) view.out.push(rerun);
  return view;
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** Builds indented elements: each child on a line of its own, text content left as it is. */
class Builder {
  readonly doc: Document;
  constructor(root: string) {
    this.doc = new DOMImplementation().createDocument(null, root, null);
  }

  el(parent: Element, depth: number, name: string, attrs: Record<string, string | number> = {}, text?: string) {
    const e = this.doc.createElement(name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, xmlSafe(String(v)));
    if (text !== undefined) e.appendChild(this.doc.createTextNode(xmlSafe(text)));
    parent.appendChild(this.doc.createTextNode(`\n${'  '.repeat(depth)}`));
    parent.appendChild(e);
    return e;
  }

  close(parent: Element, depth: number): void {
    if (parent.childNodes.length) parent.appendChild(this.doc.createTextNode(`\n${'  '.repeat(depth)}`));
  }
}

export function renderJunit(report: ConformanceReport): string {
  const index = indexReport(report);
  const checks = reportChecks(report);
  const b = new Builder('testsuites');
  const root = b.doc.documentElement!;
  const groups = new Map<string, { suite: string; target?: string; checks: Check[] }>();
  for (const c of checks) {
    const k = `${c.target ?? ''}\u0000${c.suite}`;
    if (!groups.has(k)) groups.set(k, { suite: c.suite, ...(c.target ? { target: c.target } : {}), checks: [] });
    groups.get(k)!.checks.push(c);
  }
  const total = { tests: 0, failures: 0, errors: 0, ms: 0 };
  const suites = [...groups.values()].map((g) => {
    const views = g.checks.map((c) => caseView(report, index, c));
    const counts = {
      tests: views.length,
      failures: views.filter((v) => v.failure).length,
      errors: views.filter((v) => v.error).length,
      skipped: views.filter((v) => v.skipped !== undefined && !v.failure && !v.error).length,
      ms: g.checks.reduce((n, c) => n + c.durationMs, 0),
    };
    total.tests += counts.tests;
    total.failures += counts.failures;
    total.errors += counts.errors;
    total.ms += counts.ms;
    return { g, views, counts };
  });
  root.setAttribute('name', 'screenconf');
  root.setAttribute('tests', String(total.tests));
  root.setAttribute('failures', String(total.failures));
  root.setAttribute('errors', String(total.errors));
  root.setAttribute('time', seconds(total.ms));
  const targetOf = (label: string | undefined) =>
    (label ? report.targets.find((t) => t.label === label) : undefined) ?? report.targets[0];
  suites.forEach(({ g, views, counts }, i) => {
    const suite = b.el(root, 1, 'testsuite', {
      name: g.target ? `${g.suite} [${g.target}]` : g.suite,
      tests: counts.tests,
      failures: counts.failures,
      errors: counts.errors,
      skipped: counts.skipped,
      time: seconds(counts.ms),
      timestamp: report.run.startedAt,
      id: i,
      package: 'screenconf',
    });
    const props = b.el(suite, 2, 'properties');
    const t = targetOf(g.target);
    const suiteProps: [string, string | number][] = [
      ['run id', report.run.id],
      ['target', t ? t.baseUrl : report.target.baseUrl],
      ...(g.target ? ([['target label', g.target]] as [string, string][]) : []),
      ['seed', report.run.seed],
      ['screenconf', report.tool.version],
      ['catalogue', report.catalogueVersion],
    ];
    for (const [name, value] of suiteProps) b.el(props, 3, 'property', { name, value });
    b.close(props, 2);
    const names = new Map<string, number>();
    for (const c of g.checks) names.set(c.name, (names.get(c.name) ?? 0) + 1);
    g.checks.forEach((c, j) => {
      const v = views[j]!;
      // The invariant watch gives one outcome per watched requirement under one name: each is a testcase of its own.
      const name = (names.get(c.name) ?? 0) > 1 ? `${c.name} (${c.requirements.join(', ')})` : c.name;
      const tc = b.el(suite, 2, 'testcase', {
        classname: `screenconf.${g.target ? `${g.target}.` : ''}${c.suite}`,
        name,
        time: seconds(c.durationMs),
      });
      const cp = b.el(tc, 3, 'properties');
      for (const [name, value] of v.properties) b.el(cp, 4, 'property', { name, value });
      b.close(cp, 3);
      if (v.skipped !== undefined && !v.failure && !v.error)
        b.el(tc, 3, 'skipped', { message: oneLine(v.skipped, 500) }, v.skipped);
      if (v.error) b.el(tc, 3, 'error', { message: v.error.message, type: v.error.type }, v.error.body);
      if (v.failure) b.el(tc, 3, 'failure', { message: v.failure.message, type: v.failure.type }, v.failure.body);
      if (v.out.length) b.el(tc, 3, 'system-out', {}, v.out.join('\n\n'));
      b.close(tc, 2);
    });
    b.close(suite, 1);
  });
  b.close(root, 0);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(b.doc)}\n`;
}
