/**
 * junit.xml from the results model, case by case: CI shows a failure exactly where the release
 * gate fails (a MUST failure; a SHOULD warning only under --strict; an unexpected pass; an expired
 * expectation), an expected failure as skipped, a harness fault as an error, and several targets
 * in one file. Every document is validated against the published Jenkins JUnit schema.
 */
import type { Element } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import { renderJunit, xmlSafe } from '../src/report/junit.ts';
import { buildReport, checkEntries } from '../src/results/build.ts';
import { applyGate, type Expectation } from '../src/results/gate.ts';
import { judge } from '../src/results/judge.ts';
import { mergeReports } from '../src/results/merge.ts';
import type { CheckOutcome } from '../src/results/outcome.ts';
import type { ConformanceReport } from '../src/results/report.ts';
import { child, children, junitProblems, parseXml } from './support/junit.ts';

const failure = (what: string) => ({
  what,
  expected: 'x',
  received: 'y',
  message: `${what}\nExpected: x\nReceived: y`,
});

const OUTCOMES: CheckOutcome[] = [
  {
    suite: 'token',
    name: 'token > issues',
    state: 'passed',
    requirements: ['TOKEN-ISSUE'],
    observations: [],
    durationMs: 12,
  },
  {
    suite: 'token',
    name: 'token > no-store',
    state: 'failed',
    requirements: ['TOKEN-NO-STORE'],
    failure: failure('Cache-Control of the token response'),
    observations: [],
    durationMs: 5,
  },
  {
    suite: 'case-delete',
    name: 'delete > removes',
    state: 'failed',
    requirements: ['CASE-DELETE-REMOVES', 'CASE-DELETE-STATUS'],
    failure: failure('PATCH after DELETE'),
    observations: [{ requirement: 'CASE-DELETE-STATUS', text: 'HTTP 204 with no body' }],
    flaky: true,
    durationMs: 30,
  },
  {
    suite: 'case-delete',
    name: 'delete > unknown id',
    state: 'skipped',
    requirements: ['CASE-DELETE-UNKNOWN-ID'],
    skipReason: 'could not judge: cannot reach 127.0.0.1:1: ECONNREFUSED',
    harnessFault: { code: 'SC_TARGET_UNREACHABLE', message: 'cannot reach 127.0.0.1:1: ECONNREFUSED' },
    observations: [],
    durationMs: 1,
  },
  {
    suite: 'case-delete',
    name: 'delete > api key',
    state: 'skipped',
    requirements: ['AUTH-API-KEY-BEARER'],
    skipReason: 'no --api-key given',
    observations: [],
    durationMs: 0,
  },
];

function reportOf(
  outcomes: CheckOutcome[],
  gate: { strict?: boolean; expectations?: Expectation[]; label?: string } = {},
): ConformanceReport {
  const judged = judge(outcomes);
  const { results, gate: summaryGate } = applyGate(judged.results, gate.expectations ?? [], {
    strict: gate.strict ?? false,
    today: '2026-01-10',
    ...(gate.label ? { label: gate.label } : {}),
  });
  const summary = { ...judged.summary, leftovers: [], suiteErrors: [], gate: summaryGate };
  return buildReport(
    {
      id: 'abcd1234',
      startedAt: new Date('2026-01-01T00:00:00Z'),
      finishedAt: new Date('2026-01-01T00:01:00Z'),
      seed: 1,
      runs: 25,
      suites: ['token', 'case-delete'],
      options: {},
    },
    {
      ...(gate.label ? { label: gate.label } : {}),
      baseUrl: `https://${gate.label ?? 'x'}.example`,
      kind: 'url',
      serverHeaders: {},
      summary,
      results,
      checks: checkEntries(outcomes),
    },
  );
}

async function junitOf(report: ConformanceReport): Promise<{ root: Element; cases: Map<string, Element> }> {
  const xml = renderJunit(report);
  expect(await junitProblems(xml)).toEqual([]);
  const root = parseXml(xml);
  const cases = new Map<string, Element>();
  for (const s of children(root, 'testsuite'))
    for (const tc of children(s, 'testcase')) cases.set(`${s.getAttribute('name')}: ${tc.getAttribute('name')}`, tc);
  return { root, cases };
}

const propsOf = (tc: Element, name: string) =>
  children(child(tc, 'properties')!, 'property')
    .filter((p) => p.getAttribute('name') === name)
    .map((p) => p.getAttribute('value'));

describe('junit.xml: a failure exactly where the gate fails', () => {
  it('a MUST failure is the only <failure>; the SHOULD warning, the re-run and the observation are told', async () => {
    const { root, cases } = await junitOf(reportOf(OUTCOMES));
    expect(root.getAttribute('failures')).toBe('1');
    expect(root.getAttribute('errors')).toBe('1');
    const removes = cases.get('case-delete: delete > removes')!;
    expect(children(removes, 'failure')).toHaveLength(1);
    expect(child(removes, 'failure')!.getAttribute('message')).toBe('CASE-DELETE-REMOVES: PATCH after DELETE');
    expect(propsOf(removes, 'flaky')).toEqual(['true']);
    expect(propsOf(removes, 'observed')).toEqual(['CASE-DELETE-STATUS']);
    expect(child(removes, 'system-out')!.textContent).toContain('OBSERVE CASE-DELETE-STATUS: HTTP 204 with no body');
    expect(child(removes, 'system-out')!.textContent).toContain('passed on the re-run (flaky)');
    const noStore = cases.get('token: token > no-store')!;
    expect(child(noStore, 'failure')).toBeUndefined();
    expect(propsOf(noStore, 'warning')).toEqual(['TOKEN-NO-STORE']);
    expect(child(noStore, 'system-out')!.textContent).toMatch(/^WARNING: SHOULD requirement not met/);
    expect(cases.get('token: token > issues')!.childNodes.length).toBeGreaterThan(0);
    expect(child(cases.get('token: token > issues')!, 'failure')).toBeUndefined();
  });

  it('a harness fault is an <error> with its code; a check that did not judge is <skipped message>', async () => {
    const { cases } = await junitOf(reportOf(OUTCOMES));
    const unknown = cases.get('case-delete: delete > unknown id')!;
    expect(child(unknown, 'error')!.getAttribute('type')).toBe('SC_TARGET_UNREACHABLE');
    expect(child(unknown, 'skipped')).toBeUndefined();
    const apiKey = cases.get('case-delete: delete > api key')!;
    expect(child(apiKey, 'skipped')!.getAttribute('message')).toBe('no --api-key given');
  });

  it('--strict: the SHOULD warning fails too', async () => {
    const { root, cases } = await junitOf(reportOf(OUTCOMES, { strict: true }));
    expect(root.getAttribute('failures')).toBe('2');
    expect(child(cases.get('token: token > no-store')!, 'failure')!.getAttribute('type')).toBe('SHOULD');
  });

  it('an expected failure is skipped with its reason; an unexpected pass and an expired entry fail', async () => {
    const expectations: Expectation[] = [
      { id: 'CASE-DELETE-REMOVES', reason: 'fixed in 2.3 (OPS-1)', expires: '2026-02-01', entry: 1 },
      { id: 'TOKEN-ISSUE', reason: 'was broken', expires: '2026-02-01', entry: 2 },
      { id: 'TOKEN-NO-STORE', reason: 'CDN', expires: '2026-01-01', entry: 3 },
    ];
    const { root, cases } = await junitOf(reportOf(OUTCOMES, { expectations }));
    const removes = cases.get('case-delete: delete > removes')!;
    expect(child(removes, 'failure')).toBeUndefined();
    expect(child(removes, 'skipped')!.getAttribute('message')).toBe(
      'expected failure of CASE-DELETE-REMOVES (until 2026-02-01): fixed in 2.3 (OPS-1)',
    );
    expect(child(removes, 'system-out')!.textContent).toContain('PATCH after DELETE');
    expect(child(cases.get('token: token > issues')!, 'failure')!.getAttribute('type')).toBe('unexpected pass');
    expect(child(cases.get('token: token > no-store')!, 'failure')!.getAttribute('message')).toMatch(
      /^the expectation for TOKEN-NO-STORE expired on 2026-01-01/,
    );
    expect(root.getAttribute('failures')).toBe('2');
  });
});

describe('junit.xml of several targets', () => {
  it('one file: a testsuite per suite and target, failures on the target that failed', async () => {
    const us = reportOf(OUTCOMES, { label: 'us' });
    const passing = OUTCOMES.map((o) => (o.name === 'delete > removes' ? { ...o, state: 'passed' as const } : o));
    const eu = reportOf(passing, { label: 'eu' });
    const merged = mergeReports(
      [
        { label: 'us', report: us, path: 'us/conformance.json' },
        { label: 'eu', report: eu, path: 'eu/conformance.json' },
      ],
      { strict: false },
    );
    const { root, cases } = await junitOf(merged);
    expect(children(root, 'testsuite').map((s) => s.getAttribute('name'))).toEqual([
      'token [us]',
      'case-delete [us]',
      'token [eu]',
      'case-delete [eu]',
    ]);
    expect(child(cases.get('case-delete [us]: delete > removes')!, 'failure')).toBeDefined();
    expect(child(cases.get('case-delete [eu]: delete > removes')!, 'failure')).toBeUndefined();
    expect(root.getAttribute('tests')).toBe(String(OUTCOMES.length * 2));
  });
});

describe('junit.xml text', () => {
  it('holds any server text: characters XML cannot carry become \\uXXXX, markup is escaped', async () => {
    const evil = 'bad\u0000\u0007\uFFFE\uD800 </failure><x>&amp;]]>';
    const outcomes = OUTCOMES.map((o) =>
      o.name === 'delete > removes' ? { ...o, name: `delete > ${evil}`, failure: failure(evil) } : o,
    );
    const { cases } = await junitOf(reportOf(outcomes));
    const tc = cases.get(`case-delete: delete > ${xmlSafe(evil)}`)!;
    expect(tc).toBeDefined();
    expect(child(tc, 'failure')!.textContent).toContain(xmlSafe(evil));
    expect(xmlSafe(evil)).toBe('bad\\u0000\\u0007\\ufffe\\ud800 </failure><x>&amp;]]>');
  });

  it('a report before schemaVersion 4 (no checks) still gives one testcase per check', async () => {
    const { checks: _checks, ...old } = reportOf(OUTCOMES);
    const { cases } = await junitOf({ ...old, schemaVersion: 3 });
    expect([...cases.keys()].sort()).toEqual(OUTCOMES.map((o) => `${o.suite}: ${o.name}`).sort());
  });
});
