/**
 * The release gate: the console summary (table by area, failures with their curl, colour only on
 * a terminal, GitHub Actions annotations), the expectations file, --strict, and several targets
 * in one run. Units first, then the CLI's main() (in this process: support/in-process.ts) against real
 * reference servers.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleStyle } from '../src/commands/run.ts';
import { createReferenceServer, type TenantCredentials, type ReferenceServer } from '../src/reference/server.ts';
import { escapeData, escapeProperty, githubAnnotations } from '../src/report/annotations.ts';
import { renderSummary } from '../src/report/console.ts';
import { applyGate, type Expectation } from '../src/results/gate.ts';
import { judge } from '../src/results/judge.ts';
import { mergeReports, worstVerdict } from '../src/results/merge.ts';
import type { ConformanceReport, RequirementResult } from '../src/results/report.ts';
import { loadExpectations } from '../src/runner/expectations.ts';
import { resolveConfig } from '../src/runner/config.ts';
import { reportFiles, runFolder, tempDir } from './support/cli.ts';
import { screenconfInProcess } from './support/in-process.ts';
import { harnessError } from './support/errors.ts';
import { children, junitProblems, parseXml } from './support/junit.ts';

const ESC = '\u001b[';

function expectationsFile(entries: unknown[] | string): string {
  const file = join(tempDir(), 'expect.json');
  writeFileSync(
    file,
    typeof entries === 'string' ? entries : `${JSON.stringify({ expectations: entries }, null, 2)}\n`,
  );
  return file;
}

/** Results of the catalogue with the given verdicts (everything else skipped). */
function results(verdicts: Record<string, 'pass' | 'fail'>): RequirementResult[] {
  const outcomes = Object.entries(verdicts).map(([id, v]) => ({
    suite: 'token',
    name: `check of ${id}`,
    state: v === 'pass' ? ('passed' as const) : ('failed' as const),
    requirements: [id],
    errors: v === 'fail' ? [`${id} broke\nExpected: this\nReceived: that`] : [],
    observations: [],
    durationMs: 1,
    ...(v === 'fail'
      ? { evidence: { exchanges: [], curl: [`curl -sS -i -X POST "$SCREENCONF_BASE_URL"'/api/oauth/token/'`] } }
      : {}),
  }));
  return judge(outcomes).results;
}

describe('the gate (units)', () => {
  const e = (id: string, expires = '2030-01-31', target?: string): Expectation => ({
    id,
    reason: `known: ${id}`,
    expires,
    entry: 1,
    ...(target ? { target } : {}),
  });

  it('excuses an expected failure, names an unexpected pass and an expired entry', () => {
    const r = results({
      'TOKEN-REJECT-WRONG-SECRET': 'fail',
      'TOKEN-ISSUE': 'pass',
      'TOKEN-REJECT-GRANT-TYPE': 'fail',
    });
    const ok = applyGate(r, [e('TOKEN-REJECT-WRONG-SECRET'), e('TOKEN-REJECT-GRANT-TYPE')], {
      strict: false,
      today: '2030-01-31',
    });
    expect(ok.gate).toMatchObject({
      passed: true,
      gating: [],
      expectedFailures: [{ id: 'TOKEN-REJECT-WRONG-SECRET' }, { id: 'TOKEN-REJECT-GRANT-TYPE' }],
    });
    expect(ok.results.find((x) => x.id === 'TOKEN-REJECT-WRONG-SECRET')).toMatchObject({
      verdict: 'fail',
      expected: { outcome: 'expected-fail', expires: '2030-01-31' },
    });

    const pass = applyGate(r, [e('TOKEN-ISSUE'), e('TOKEN-REJECT-WRONG-SECRET')], {
      strict: false,
      today: '2030-01-01',
    });
    expect(pass.gate).toMatchObject({
      passed: false,
      unexpectedPasses: [{ id: 'TOKEN-ISSUE' }],
      gating: [{ id: 'TOKEN-REJECT-GRANT-TYPE' }],
    });

    const expired = applyGate(r, [e('TOKEN-REJECT-WRONG-SECRET', '2030-01-30'), e('TOKEN-REJECT-GRANT-TYPE')], {
      strict: false,
      today: '2030-01-31',
    });
    expect(expired.gate.passed).toBe(false);
    expect(expired.gate.expired).toEqual([{ id: 'TOKEN-REJECT-WRONG-SECRET', expires: '2030-01-30', entry: 1 }]);
    expect(expired.gate.gating).toEqual([{ id: 'TOKEN-REJECT-WRONG-SECRET' }]);
  });

  it(
    'leaves an expectation of a requirement that was not judged alone, and applies target entries to their target ' +
      'only',
    () => {
      const r = results({ 'TOKEN-REJECT-WRONG-SECRET': 'fail' });
      const notRun = applyGate(r, [e('CASE-DELETE-REMOVES'), e('TOKEN-REJECT-WRONG-SECRET', '2030-01-31', 'eu')], {
        strict: false,
        today: '2030-01-01',
        label: 'eu',
      });
      expect(notRun.gate.passed).toBe(true);
      expect(notRun.results.find((x) => x.id === 'CASE-DELETE-REMOVES')?.expected?.outcome).toBe('not-judged');
      const us = applyGate(r, [e('TOKEN-REJECT-WRONG-SECRET', '2030-01-31', 'eu')], {
        strict: false,
        today: '2030-01-01',
        label: 'us',
      });
      expect(us.gate).toMatchObject({ passed: false, gating: [{ id: 'TOKEN-REJECT-WRONG-SECRET', target: 'us' }] });
    },
  );

  it('gates SHOULD warnings only with --strict', () => {
    const r = results({ 'TOKEN-NO-STORE': 'fail' });
    expect(r.find((x) => x.id === 'TOKEN-NO-STORE')?.verdict).toBe('warn');
    expect(applyGate(r, [], { strict: false, today: '2030-01-01' }).gate.passed).toBe(true);
    expect(applyGate(r, [], { strict: true, today: '2030-01-01' }).gate).toMatchObject({
      passed: false,
      gating: [{ id: 'TOKEN-NO-STORE' }],
    });
  });

  it('merges targets: the worst verdict, differs where they disagree, conforming only when all conform', () => {
    expect(worstVerdict(['pass', 'skip'])).toBe('skip');
    expect(worstVerdict(['observed', 'warn', 'pass'])).toBe('warn');
    expect(worstVerdict(['warn', 'fail'])).toBe('fail');
    const report = (label: string, verdicts: Record<string, 'pass' | 'fail'>): ConformanceReport => {
      const judged = judge([]);
      const { results: r, gate } = applyGate(results(verdicts), [], { strict: false, today: '2030-01-01', label });
      const summary = {
        ...judged.summary,
        conforming: !r.some((x) => x.verdict === 'fail'),
        leftovers: [],
        suiteErrors: [],
        gate,
      };
      const target = { baseUrl: `http://${label}.test`, kind: 'url' as const };
      return {
        schemaVersion: 2,
        tool: { name: 'screenconf', version: 't' },
        catalogueVersion: 'c',
        run: {
          id: 'r',
          startedAt: '2030-01-01T00:00:00.000Z',
          finishedAt: '2030-01-01T00:00:01.000Z',
          seed: 1,
          runs: 1,
          suites: ['token'],
        },
        target: { ...target, label, serverHeaders: {} },
        targets: [{ label, ...target, serverHeaders: { Server: [label] }, summary }],
        summary,
        results: r,
      };
    };
    const merged = mergeReports(
      [
        {
          label: 'us',
          report: report('us', { 'TOKEN-ISSUE': 'pass', 'TOKEN-REJECT-WRONG-SECRET': 'pass' }),
          path: 'us/conformance.json',
        },
        {
          label: 'eu',
          report: report('eu', { 'TOKEN-ISSUE': 'pass', 'TOKEN-REJECT-WRONG-SECRET': 'fail' }),
          path: 'eu/conformance.json',
        },
      ],
      { strict: false },
    );
    const wrong = merged.results.find((r) => r.id === 'TOKEN-REJECT-WRONG-SECRET')!;
    expect(wrong).toMatchObject({
      verdict: 'fail',
      differs: true,
      byTarget: { us: { verdict: 'pass' }, eu: { verdict: 'fail' } },
    });
    expect(merged.results.find((r) => r.id === 'TOKEN-ISSUE')).toMatchObject({ verdict: 'pass', differs: false });
    expect(merged.summary).toMatchObject({
      conforming: false,
      mustFailures: 1,
      gate: { passed: false, gating: [{ id: 'TOKEN-REJECT-WRONG-SECRET', target: 'eu' }] },
    });
    expect(merged.targets.map((t) => [t.label, t.serverHeaders, t.report])).toEqual([
      ['us', { Server: ['us'] }, 'us/conformance.json'],
      ['eu', { Server: ['eu'] }, 'eu/conformance.json'],
    ]);
  });
});

describe('the expectations file (units)', () => {
  it('reads entries, with the target they name', () => {
    const file = expectationsFile([
      { id: 'TOKEN-NO-STORE', reason: 'CDN strips it', expires: '2030-01-31' },
      { id: 'CASE-DELETE-REMOVES', reason: 'eu lags', expires: '2030-02-28', target: 'eu' },
    ]);
    expect(loadExpectations(file, ['us', 'eu'])).toMatchObject([
      { id: 'TOKEN-NO-STORE', reason: 'CDN strips it', expires: '2030-01-31', entry: 1, line: 3 },
      { id: 'CASE-DELETE-REMOVES', target: 'eu', entry: 2, line: 8 },
    ]);
  });

  it(
    'refuses, naming file, line and entry: an unknown id, an OBSERVE id, a bad date, an unknown target, a ' +
      'duplicate, bad JSON',
    () => {
      const bad = (entries: unknown[] | string, labels?: string[]) => {
        const file = expectationsFile(entries);
        const err = harnessError(() => loadExpectations(file, labels));
        expect(err.code).toBe('SC_EXPECT_FILE');
        expect(err.exitCode).toBe(2);
        expect(err.message).toContain(file);
        return err.message;
      };
      const ok = { id: 'TOKEN-NO-STORE', reason: 'r', expires: '2030-01-31' };
      expect(bad([ok, { id: 'NO-SUCH-REQ', reason: 'r', expires: '2030-01-31' }])).toMatch(
        /line 8, entry 2 \("NO-SUCH-REQ"\): unknown requirement id "NO-SUCH-REQ"/,
      );
      expect(bad([{ id: 'TOKEN-EXPIRES-IN-UNIT', reason: 'r', expires: '2030-01-31' }])).toMatch(/OBSERVE requirement/);
      expect(bad([{ ...ok, expires: '2030-02-30' }])).toMatch(/"expires" must be a date YYYY-MM-DD, got "2030-02-30"/);
      expect(bad([{ ...ok, reason: ' ' }])).toMatch(/"reason" must say why/);
      expect(bad([{ ...ok, expiry: '2030-01-01' }])).toMatch(/unknown key "expiry"/);
      expect(bad([{ ...ok, target: 'eu' }])).toMatch(/no labelled targets/);
      expect(bad([{ ...ok, target: 'ap' }], ['us', 'eu'])).toMatch(
        /"ap", which is not a target of this run \(targets: us, eu\)/,
      );
      expect(bad([ok, { ...ok, target: 'eu' }], ['us', 'eu'])).toMatch(/entry 2 .*again \(entry 1 already does\)/);
      expect(
        bad('{\n  "expectations": [\n    {"id": "TOKEN-NO-STORE", "reason": "r", "expires": "2030-01-31"},\n  ]\n}\n'),
      ).toMatch(/line 4: is not valid JSON: /);
      expect(bad('[]')).toMatch(/must hold a JSON object/);
      expect(harnessError(() => loadExpectations(join(tempDir(), 'none.json'), undefined)).message).toMatch(
        /none\.json: not found$/,
      );
    },
  );
});

describe('the console (units)', () => {
  const r = results({ 'TOKEN-REJECT-WRONG-SECRET': 'fail', 'TOKEN-ISSUE': 'pass', 'TOKEN-NO-STORE': 'fail' });
  const judged = judge([]);
  const summary = {
    ...judged.summary,
    counts: { pass: 1, fail: 1, warn: 1, skip: r.length - 3, observed: 0 },
    mustFailures: 1,
    shouldWarnings: 1,
    conforming: false,
    leftovers: [],
    suiteErrors: [],
  };

  it('colours only when asked: FORCE_COLOR over NO_COLOR over the terminal', () => {
    expect(consoleStyle({ env: {}, isTTY: false }).colour).toBe(false);
    expect(consoleStyle({ env: {}, isTTY: true }).colour).toBe(true);
    expect(consoleStyle({ env: { NO_COLOR: '1' }, isTTY: true }).colour).toBe(false);
    expect(consoleStyle({ env: { FORCE_COLOR: '1' }, isTTY: false }).colour).toBe(true);
    expect(consoleStyle({ env: { FORCE_COLOR: '0' }, isTTY: true }).colour).toBe(false);
    expect(consoleStyle({ env: { TERM: 'dumb' }, isTTY: true }).colour).toBe(false);
    expect(consoleStyle({ env: { GITHUB_ACTIONS: 'true' } }).githubActions).toBe(true);
    const plain = { colour: false, githubActions: false };
    expect(renderSummary(r, summary, { reportPath: 'x.json', style: plain })).not.toContain(ESC);
    const coloured = renderSummary(r, summary, { reportPath: 'x.json', style: { colour: true, githubActions: false } });
    expect(coloured).toContain(`${ESC}31m`);
    expect(
      coloured
        .split(ESC)
        .map((part, i) => (i === 0 ? part : part.replace(/^\d+m/, '')))
        .join(''),
    ).toBe(renderSummary(r, summary, { reportPath: 'x.json' }));
  });

  it('escapes workflow commands and redacts before escaping', () => {
    expect(escapeData('50%\r\nnext')).toBe('50%25%0D%0Anext');
    expect(escapeProperty('a:b,c%')).toBe('a%3Ab%2Cc%25');
    const secret = 'p%ss:w0rd,\nx';
    const planted = r.map((x) =>
      x.id === 'TOKEN-REJECT-WRONG-SECRET' ? { ...x, failures: [{ test: 't', message: `Received: ${secret}` }] } : x,
    );
    const lines = githubAnnotations(
      [{ label: 'eu', results: planted }],
      applyGate(planted, [], { strict: false, today: '2030-01-01' }).gate,
      (s) => s.split(secret).join('[REDACTED]'),
    );
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^::error title=TOKEN-REJECT-WRONG-SECRET \(eu\)::MUST: .*%0AReceived: \[REDACTED\]$/);
    expect(lines[1]).toMatch(/^::warning title=TOKEN-NO-STORE \(eu\)::SHOULD: /);
    // Only the token area was judged: the CI view says the run is incomplete.
    expect(lines[2]).toMatch(/^::warning title=INCOMPLETE%3A \d+ MUST requirement\(s\) not judged::/);
    for (const line of lines) {
      expect(line).not.toContain('\n');
      expect(line).not.toContain('p%25ss');
    }
  });
});

describe('per-target settings (units)', () => {
  const id = '3f8a4c1e-2b7d-4e9f-a1c3-5d6e7f8a9b0c';
  const other = '9b0c3f8a-4c1e-4b7d-8e9f-a1c35d6e7f8a';

  it('reads --target LABEL=URL with shared credentials, and config-file entries with their own', () => {
    const flags = resolveConfig({
      flags: {
        targets: ['us=http://127.0.0.1:1', 'eu=http://127.0.0.1:2'],
        clientId: id,
        clientSecret: 'shared-secret',
      },
      env: {},
      file: {},
    });
    expect(flags.targets).toEqual([
      { label: 'us', baseUrl: 'http://127.0.0.1:1', clientId: id, clientSecret: 'shared-secret' },
      { label: 'eu', baseUrl: 'http://127.0.0.1:2', clientId: id, clientSecret: 'shared-secret' },
    ]);
    const dir = tempDir();
    writeFileSync(join(dir, 'eu.secret'), 'eu-secret\n');
    const fileSource = { path: join(dir, 'screenconf.config.json'), text: '{}' };
    const file = resolveConfig({
      flags: { clientId: id, clientSecret: 'shared-secret' },
      env: {},
      file: {
        targets: [
          { label: 'us', baseUrl: 'http://127.0.0.1:1' },
          { label: 'eu', baseUrl: 'http://127.0.0.1:2', clientId: other, clientSecretFile: 'eu.secret' },
        ],
      },
      fileSource,
    });
    expect(file.targets?.[1]).toEqual({
      label: 'eu',
      baseUrl: 'http://127.0.0.1:2',
      clientId: other,
      clientSecret: 'eu-secret',
    });
    expect(
      resolveConfig({
        flags: {},
        env: { targets: 'a=http://127.0.0.1:1,b=http://127.0.0.1:2', apiKey: 'k-123' },
        file: {},
      }).targets?.map((t) => t.label),
    ).toEqual(['a', 'b']);
  });

  it('refuses a target without a label or credentials, a repeated label, and --target with --base-url', () => {
    const msg = (flags: Record<string, unknown>) =>
      harnessError(() => resolveConfig({ flags, env: {}, file: {} })).message;
    expect(msg({ targets: ['http://127.0.0.1:1'], clientId: id, clientSecret: 's' })).toMatch(
      /--target \(SCREENCONF_TARGETS\) target 1 must be LABEL=URL/,
    );
    expect(
      msg({ targets: ['us=http://127.0.0.1:1', 'us=http://127.0.0.1:2'], clientId: id, clientSecret: 's' }),
    ).toMatch(/target 2 \("us"\) names the target "us" twice/);
    expect(
      msg({ targets: ['us=http://127.0.0.1:1'], baseUrl: 'http://127.0.0.1:2', clientId: id, clientSecret: 's' }),
    ).toMatch(/both name the target/);
    expect(msg({ targets: ['us=http://127.0.0.1:1'] })).toMatch(/target 1 \("us"\) has no credentials/);
    expect(
      harnessError(() =>
        resolveConfig({
          flags: { targets: ['us=http://example.com'], clientId: id, clientSecret: 's' },
          env: {},
          file: {},
        }),
      ).code,
    ).toBe('SC_INSECURE_TRANSPORT');
  });
});

// ---------------------------------------------------------------------------------------------
// The real CLI against the embedded server and against real listeners.

const FAST = ['--max-rps', '0', '--seed', '7'];

describe('screenconf run: console and gate', () => {
  it(
    'prints the table by area and each failure with its curl; no colour off a terminal; annotations on GitHub ' +
      'Actions',
    async () => {
      const dir = tempDir();
      const r = await screenconfInProcess(
        ['run', '--suites', 'token', '--report-dir', dir, ...FAST, '--reference-faults', 'token.accept-wrong-secret'],
        { env: { GITHUB_ACTIONS: 'true' } },
      );
      expect(r.status, r.stderr).toBe(1);
      expect(r.stdout).not.toContain(ESC);
      expect(r.stdout).toMatch(/^Area +pass +fail +warn +skip +observed$/m);
      expect(r.stdout).toMatch(/^Token endpoint +\d+ +1 +0 +\d+ +\d+$/m);
      expect(r.stdout).toMatch(/^All requirements +\d+ +1 +0 +\d+ +\d+$/m);
      const failure = r.stdout.slice(r.stdout.indexOf('\nFAIL TOKEN-REJECT-WRONG-SECRET (MUST) '));
      expect(failure).toMatch(
        /^\nFAIL TOKEN-REJECT-WRONG-SECRET \(MUST\) A token request with a known client_id and a wrong client_secret/,
      );
      expect(failure).toMatch(/\n {4}Expected: a 4xx rejection\n {4}Received: HTTP 200 /);
      expect(failure).toMatch(
        /\n {2}Reproduce with:\n {4}curl -sS -i -X POST "\$SCREENCONF_BASE_URL"'\/api\/oauth\/token\/' .*/,
      );
      expect(failure).toMatch(/\n {4}curl -sS -i -X POST .*"\$SCREENCONF_CLIENT_SECRET"/);
      expect(r.stdout).toMatch(/^Verdict: NOT CONFORMING — 1 MUST failed/m);
      const annotations = r.stdout.split('\n').filter((l) => l.startsWith('::error'));
      expect(annotations).toHaveLength(1);
      expect(r.stdout).toMatch(/^::warning title=INCOMPLETE%3A /m);
      expect(annotations[0]).toMatch(
        /^::error title=TOKEN-REJECT-WRONG-SECRET::MUST: A token request .*%0AExpected: a 4xx rejection%0AReceived: /,
      );
      expect(annotations[0]).toMatch(/%0AReceived: HTTP 200 .*%0AReproduce with: curl /);

      const plain = await screenconfInProcess(
        [
          'run',
          '--suites',
          'token',
          '--report-dir',
          tempDir(),
          ...FAST,
          '--reference-faults',
          'token.accept-wrong-secret',
        ],
        { env: { FORCE_COLOR: '1' } },
      );
      expect(plain.stdout).not.toMatch(/^::/m);
      expect(plain.stdout).toContain(`Verdict: ${ESC}1m${ESC}31mNOT CONFORMING`);
    },
  );

  it('--strict makes a SHOULD warning fail the run', async () => {
    const args = ['run', '--suites', 'token', ...FAST, '--reference-faults', 'token.cacheable'];
    const lenient = await screenconfInProcess([...args, '--report-dir', tempDir()]);
    expect(lenient.stdout).toMatch(/^WARN TOKEN-NO-STORE \(SHOULD\)/m);
    expect(lenient.status, lenient.stdout).toBe(0);
    const dir = tempDir();
    const strict = await screenconfInProcess([...args, '--strict', '--report-dir', dir]);
    expect(strict.status, strict.stdout).toBe(1);
    expect(strict.stdout).toMatch(
      /^Gate \(--strict\): FAILED \(exit 1\) — SHOULD warned \(--strict\): TOKEN-NO-STORE$/m,
    );
    const report = JSON.parse(readFileSync(join(runFolder(dir), 'conformance.json'), 'utf8'));
    expect(report.summary.gate).toMatchObject({ passed: false, strict: true, gating: [{ id: 'TOKEN-NO-STORE' }] });
  });

  it(
    '--expect: an expected failure passes the gate; an unexpected pass and an expired entry fail it, named; an ' +
      'unknown id is exit 2',
    async () => {
      const file = expectationsFile([
        { id: 'TOKEN-REJECT-WRONG-SECRET', reason: 'fixed in 2.3 (SEC-12)', expires: '2030-06-30' },
        { id: 'TOKEN-NO-STORE', reason: 'the CDN strips Cache-Control', expires: '2030-01-31' },
      ]);
      const run = (faults: string, today: string, dir = tempDir()) =>
        screenconfInProcess(
          [
            'run',
            '--suites',
            'token',
            ...FAST,
            '--strict',
            '--expect',
            file,
            '--report-dir',
            dir,
            '--reference-faults',
            faults,
          ],
          { env: { SCREENCONF_TODAY: today } },
        );

      const dir = tempDir();
      const expected = await run('token.accept-wrong-secret,token.cacheable', '2030-01-31', dir);
      expect(expected.status, expected.stdout + expected.stderr).toBe(0);
      expect(expected.stdout).toMatch(/^EXPECTED FAIL TOKEN-REJECT-WRONG-SECRET \(MUST\)/m);
      expect(expected.stdout).toContain('expected to fail until 2030-06-30: fixed in 2.3 (SEC-12)');
      expect(expected.stdout).toMatch(/^Verdict: NOT CONFORMING/m);
      expect(expected.stdout).toMatch(
        /^Gate \(--strict\): PASSED \(exit 0\) — expected to fail: TOKEN-REJECT-WRONG-SECRET, TOKEN-NO-STORE$/m,
      );
      const report = JSON.parse(readFileSync(join(runFolder(dir), 'conformance.json'), 'utf8'));
      const wrong = report.results.find((x: { id: string }) => x.id === 'TOKEN-REJECT-WRONG-SECRET');
      expect(wrong).toMatchObject({
        verdict: 'fail',
        expected: { reason: 'fixed in 2.3 (SEC-12)', expires: '2030-06-30', outcome: 'expected-fail' },
      });
      expect(report.summary).toMatchObject({ conforming: false, gate: { passed: true, expectations: file } });

      const unexpected = await run('token.cacheable', '2030-01-31');
      expect(unexpected.status).toBe(1);
      expect(unexpected.stdout).toMatch(/^UNEXPECTED PASS TOKEN-REJECT-WRONG-SECRET: the expectations file .* says /m);
      expect(unexpected.stdout).toMatch(/ says it fails, but it passed; remove the entry$/m);
      expect(unexpected.stdout.split('\n')).toContain(
        'Gate (--strict): FAILED (exit 1) — passed unexpectedly: TOKEN-REJECT-WRONG-SECRET; ' +
          'expected to fail: TOKEN-NO-STORE',
      );

      const expired = await run('token.accept-wrong-secret,token.cacheable', '2030-02-01');
      expect(expired.status).toBe(1);
      expect(expired.stdout).toMatch(
        /^EXPIRED EXPECTATION TOKEN-NO-STORE: entry 2 of the expectations file .* expired on 2030-01-31/m,
      );
      expect(expired.stdout.split('\n')).toContain(
        'Gate (--strict): FAILED (exit 1) — SHOULD warned (--strict): TOKEN-NO-STORE; ' +
          'expectation expired: TOKEN-NO-STORE; expected to fail: TOKEN-REJECT-WRONG-SECRET',
      );

      const unknown = expectationsFile([
        { id: 'TOKEN-NO-STORE', reason: 'r', expires: '2030-01-31' },
        { id: 'TOKEN-NO-SUCH', reason: 'r', expires: '2030-01-31' },
      ]);
      const refused = await screenconfInProcess(['run', '--suites', 'token', '--report-dir', tempDir()], {
        env: { SCREENCONF_EXPECT: unknown },
      });
      expect(refused.status).toBe(2);
      expect(refused.stdout).toBe('');
      expect(refused.stderr.trim()).toBe(
        `screenconf: error SC_EXPECT_FILE: expectations file ${unknown} line 8, entry 2 ("TOKEN-NO-SUCH"): unknown ` +
          `requirement id "TOKEN-NO-SUCH" (screenconf list prints the catalogue)`,
      );
    },
  );
});

describe('screenconf run: several targets', () => {
  // Two real listeners sharing one set of credentials (two regional deployments); eu is faulty.
  let us: ReferenceServer;
  let eu: ReferenceServer;
  let organisations: TenantCredentials[];
  beforeAll(async () => {
    us = await createReferenceServer();
    organisations = [...us.organisations];
    eu = await createReferenceServer({ organisations, faults: ['token.accept-wrong-secret'] });
  });
  afterAll(async () => {
    await us?.close();
    await eu?.close();
  });

  it('runs each target and writes one report: a column per target, the difference named, exit 1', async () => {
    const dir = tempDir();
    const [a] = organisations;
    const r = await screenconfInProcess(
      [
        'run',
        '--target',
        `us=${us.url}`,
        '--target',
        `eu=${eu.url}`,
        '--client-id',
        a!.clientId,
        '--suites',
        'token,auth',
        ...FAST,
        '--report-dir',
        dir,
      ],
      { env: { SCREENCONF_CLIENT_SECRET: a!.clientSecret, GITHUB_ACTIONS: 'true' } },
    );
    expect(r.status, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^ {2}\[us\] ✓ token /m);
    expect(r.stdout).toMatch(/^ {2}\[eu\] ✗ token /m);
    expect(r.stdout).toMatch(/^ +us +eu$/m);
    expect(r.stdout).toMatch(/^Token endpoint +≠ +\d+ +0 +0 +\d+ +\d+ +\d+ +1 +0 +\d+ +\d+$/m);
    expect(r.stdout).toMatch(/^Differences between targets: 1 requirement\(s\)\n {2}Requirement +level +us +eu\n/m);
    expect(r.stdout).toMatch(/\n {2}Requirement +level +us +eu\n {2}TOKEN-REJECT-WRONG-SECRET +MUST +pass +FAIL$/m);
    expect(r.stdout).toMatch(/^FAIL \[eu\] TOKEN-REJECT-WRONG-SECRET \(MUST\)/m);
    expect(r.stdout).toMatch(/^us: INCOMPLETE — /m);
    expect(r.stdout).toMatch(/^eu: NOT CONFORMING/m);
    expect(r.stdout).toMatch(/^Verdict: NOT CONFORMING \(eu\) — 2 targets, 1 requirement\(s\) differ$/m);
    expect(r.stdout).toMatch(/^::error title=TOKEN-REJECT-WRONG-SECRET \(eu\)::/m);

    const report = JSON.parse(readFileSync(join(runFolder(dir), 'conformance.json'), 'utf8'));
    expect(
      report.targets.map((t: { label: string; baseUrl: string; report: string }) => [t.label, t.baseUrl, t.report]),
    ).toEqual([
      ['us', us.url, 'us/conformance.json'],
      ['eu', eu.url, 'eu/conformance.json'],
    ]);
    // us failed nothing but judged only the token area; eu failed a MUST.
    expect(report.targets.map((t: { summary: { verdict: string } }) => t.summary.verdict)).toEqual([
      'incomplete',
      'not-conforming',
    ]);
    expect(report.summary.conforming).toBe(false);
    const wrong = report.results.find((x: { id: string }) => x.id === 'TOKEN-REJECT-WRONG-SECRET');
    expect(wrong).toMatchObject({
      verdict: 'fail',
      differs: true,
      byTarget: { us: { verdict: 'pass' }, eu: { verdict: 'fail' } },
    });
    expect(wrong.failures[0].target).toBe('eu');
    expect(report.results.filter((x: { differs: boolean }) => x.differs).map((x: { id: string }) => x.id)).toEqual([
      'TOKEN-REJECT-WRONG-SECRET',
    ]);
    expect(report.results.find((x: { id: string }) => x.id === 'TOKEN-ISSUE')).toMatchObject({
      verdict: 'pass',
      differs: false,
    });
    for (const label of ['us', 'eu'])
      expect(JSON.parse(readFileSync(join(runFolder(dir), label, 'conformance.json'), 'utf8')).target.label).toBe(
        label,
      );

    // The shared secret is in no file of the report folder and not on the console.
    const files = reportFiles(dir);
    expect(files.map(([path]) => path)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/\/eu\/conformance\.json$/),
        expect.stringMatching(/\/us\/junit\.xml$/),
      ]),
    );
    for (const text of [r.stdout, r.stderr, ...files.map(([, text]) => text)])
      expect(text.includes(a!.clientSecret)).toBe(false);

    // One junit.xml and one exchanges.har for the whole run, beside the targets' own.
    const folder = runFolder(dir);
    const junit = parseXml(readFileSync(join(folder, 'junit.xml'), 'utf8'));
    expect(await junitProblems(readFileSync(join(folder, 'junit.xml'), 'utf8'))).toEqual([]);
    const names = children(junit, 'testsuite').map((s) => s.getAttribute('name')!);
    expect(names).toEqual(expect.arrayContaining(['token [us]', 'token [eu]']));
    expect(names.every((n) => / \[(us|eu)\]$/.test(n))).toBe(true);
    const failed = children(junit, 'testsuite').flatMap((s) =>
      children(s, 'testcase')
        .filter((tc) => children(tc, 'failure').length > 0)
        .map(() => s.getAttribute('name')),
    );
    expect(failed).toEqual(['token [eu]']);
    const har = JSON.parse(readFileSync(join(folder, 'exchanges.har'), 'utf8')) as {
      log: { pages: unknown[]; entries: { _screenconf: { target?: string } }[] };
    };
    expect(har.log.pages).toHaveLength(2);
    expect(new Set(har.log.entries.map((e) => e._screenconf.target))).toEqual(new Set(['us', 'eu']));
  });

  it('an expectation for one target excuses its failure there only; every target conforming is exit 0', async () => {
    const file = expectationsFile([
      { id: 'TOKEN-REJECT-WRONG-SECRET', target: 'eu', reason: 'eu is on the old release', expires: '2030-12-31' },
    ]);
    const [a] = organisations;
    const dir = tempDir();
    const r = await screenconfInProcess(
      [
        'run',
        '--target',
        `us=${us.url}`,
        '--target',
        `eu=${eu.url}`,
        '--client-id',
        a!.clientId,
        '--suites',
        'token',
        ...FAST,
        '--report-dir',
        dir,
        '--expect',
        file,
      ],
      { env: { SCREENCONF_CLIENT_SECRET: a!.clientSecret, SCREENCONF_TODAY: '2030-01-01' } },
    );
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^EXPECTED FAIL \[eu\] TOKEN-REJECT-WRONG-SECRET/m);
    expect(r.stdout).toMatch(/^ {2}TOKEN-REJECT-WRONG-SECRET +MUST +pass +fail \(expected\)$/m);
    expect(r.stdout).toMatch(/^Gate: PASSED \(exit 0\) — expected to fail: TOKEN-REJECT-WRONG-SECRET on eu$/m);
    const report = JSON.parse(readFileSync(join(runFolder(dir), 'conformance.json'), 'utf8'));
    expect(
      report.results.find((x: { id: string }) => x.id === 'TOKEN-REJECT-WRONG-SECRET').byTarget.eu.expected,
    ).toMatchObject({ outcome: 'expected-fail' });

    const clean = await screenconfInProcess(
      [
        'run',
        '--target',
        `us=${us.url}`,
        '--target',
        `again=${us.url}`,
        '--client-id',
        a!.clientId,
        '--suites',
        'token',
        ...FAST,
        '--report-dir',
        tempDir(),
      ],
      {
        env: { SCREENCONF_CLIENT_SECRET: a!.clientSecret },
      },
    );
    expect(clean.status, clean.stdout + clean.stderr).toBe(0);
    expect(clean.stdout).toContain('The targets agree on every requirement (us, again).');
  });

  it('stops before any suite when a target is unreachable, naming it', async () => {
    const [a] = organisations;
    const r = await screenconfInProcess(
      [
        'run',
        '--target',
        `us=${us.url}`,
        '--target',
        'eu=http://127.0.0.1:1',
        '--client-id',
        a!.clientId,
        '--suites',
        'token',
        '--report-dir',
        tempDir(),
      ],
      {
        env: { SCREENCONF_CLIENT_SECRET: a!.clientSecret },
      },
    );
    expect(r.status).toBe(3);
    expect(r.stderr.trim()).toMatch(/^screenconf: error SC_TARGET_UNREACHABLE: target "eu": .*ECONNREFUSED/);
    expect(r.stdout).not.toContain('suites');
  });
});
