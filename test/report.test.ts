/**
 * The report folder of a real run, through the CLI's main() in this process (support/in-process.ts; the binary's
 * exit status is checked below for verify and report): one run against the embedded server
 * with a fault (so there is a failure with evidence), then golden files of conformance.json,
 * report.md and junit.xml, the views agreeing with conformance.json, the integrity digest
 * (`screenconf verify`) and re-rendering (`screenconf report`).
 */
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Element } from '@xmldom/xmldom';
import { renderHtml } from '../src/report/html.ts';
import { renderJunit } from '../src/report/junit.ts';
import { parseReport } from '../src/report/load.ts';
import { renderMarkdown } from '../src/report/markdown.ts';
import { type ConformanceReport, ConformanceReportSchema } from '../src/results/report.ts';
import { CATALOGUE } from '../src/spec/index.ts';
import { main } from '../src/cli.ts';
import { cleanEnv, lastLine, runFolder, screenconf, tempDir, type CliResult } from './support/cli.ts';
import { screenconfInProcess } from './support/in-process.ts';
import { expectGolden, normalize } from './support/golden.ts';
import { child, children, junitProblems, parseXml } from './support/junit.ts';

const dir = tempDir('screenconf-report-');
let run: CliResult;
let folder: string;
let report: ConformanceReport;
let text: string;

beforeAll(async () => {
  run = await screenconfInProcess([
    'run',
    '--report-dir',
    dir,
    '--suites',
    'token,case-delete',
    '--reference-faults',
    'delete.noop,token.cacheable',
    '--seed',
    '5',
  ]);
  folder = runFolder(dir);
  text = readFileSync(join(folder, 'conformance.json'), 'utf8');
  report = parseReport(text, 'conformance.json');
});

/**
 * The report as its golden file holds it: only the requirements this run judged, counts to
 * match, and only the options this run set (the rest depend on the catalogue and the settings
 * other work adds, not on the report code).
 */
function judgedView(r: ConformanceReport): ConformanceReport {
  const raw = JSON.parse(text) as ConformanceReport;
  const results = raw.results.filter((x) => x.tests.length > 0);
  const counts = { pass: 0, fail: 0, warn: 0, skip: 0, observed: 0 };
  for (const x of results) counts[x.verdict] += 1;
  const summary = { ...raw.summary, counts };
  const options = Object.fromEntries(
    Object.entries(raw.run.options ?? {}).filter(([k]) =>
      ['referenceFaults', 'reportDir', 'seed', 'suites'].includes(k),
    ),
  );
  expect(r.results.length).toBe(CATALOGUE.length);
  // What differs between machines and commits.
  const machine = { host: { os: '<os>', node: '<node>' } };
  return {
    ...raw,
    tool: { ...raw.tool, commit: '<commit>' },
    run: { ...raw.run, options, ...machine },
    summary,
    targets: raw.targets.map((t) => ({ ...t, summary })),
    results,
  };
}

const volatile = () => ({ dir, runId: report.run.id });

/**
 * The CLI in this process (report and verify need no separate process; the binary's exit status is checked once for
 * each below).
 */
async function cli(args: string[]): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const status = await main(args, {
    out: (...lines) => (stdout += lines.map((l) => `${l}\n`).join('')),
    err: (l) => (stderr += `${l}\n`),
    env: cleanEnv(),
    cwd: process.cwd(),
  });
  return { status, stdout, stderr };
}

/** The files SHA256SUMS lists, as a pattern. */
const LISTED = String.raw`conformance\.json|exchanges\.har|junit\.xml|report\.html|report\.md|repro/[A-Z0-9-]+\.sh`;

describe('the run folder', () => {
  it('is <report-dir>/<UTC time>-<run id>, pointed at by <report-dir>/latest, beside the ledger', () => {
    expect(run.status, run.stdout + run.stderr).toBe(1);
    expect(basename(folder)).toMatch(new RegExp(`^\\d{8}T\\d{6}Z-${report.run.id}$`));
    expect(readdirSync(dir).sort()).toEqual([basename(folder), 'latest', 'ledger.jsonl'].sort());
    expect(readdirSync(folder).sort()).toEqual([
      'SHA256SUMS',
      'conformance.json',
      'exchanges.har',
      'junit.xml',
      'report.html',
      'report.md',
      'repro',
    ]);
    // A reproduction script per failed requirement.
    const failed = report.results.filter((r) => r.verdict === 'fail' || r.verdict === 'warn').map((r) => `${r.id}.sh`);
    expect(readdirSync(join(folder, 'repro')).sort()).toEqual(failed.sort());
    expect(run.stdout).toContain(`report folder ${folder}`);
    // The last line names report.html to open, and the reproduction scripts: something failed.
    expect(lastLine(run.stdout)).toBe(
      `Report: ${join(folder, 'report.html')} (conformance.json beside it); reproductions: ${join(folder, 'repro')}/`,
    );
  });

  it('a second run gets its own folder and moves latest; the first stays as it was', async () => {
    const other = tempDir();
    const first = await screenconfInProcess(['run', '--report-dir', other, '--suites', 'case-delete', '--seed', '5']);
    expect(first.status).toBe(0);
    const one = runFolder(other);
    const second = await screenconfInProcess(['run', '--report-dir', other, '--suites', 'case-delete', '--seed', '6']);
    expect(second.status).toBe(0);
    expect(runFolder(other)).not.toBe(one);
    expect(existsSync(join(one, 'conformance.json'))).toBe(true);
    expect((await cli(['verify', one])).status).toBe(0);
  });
});

describe('conformance.json', () => {
  it('fits the schema, and carries the run, the target, the catalogue version and every requirement', () => {
    expect(ConformanceReportSchema.safeParse(JSON.parse(text)).success).toBe(true);
    expect(report.schemaVersion).toBe(11);
    expect(report.run).toMatchObject({ seed: 5, suites: ['token', 'case-delete'] });
    expect(report.run.options).toMatchObject({
      seed: 5,
      reportDir: dir,
      referenceFaults: ['delete.noop', 'token.cacheable'],
    });
    // Where it ran: the host, Node, and the commit of this checkout.
    expect(report.run.host).toEqual({ os: expect.stringMatching(/\S/), node: process.version });
    expect(report.tool.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(report.targets).toEqual([
      expect.objectContaining({
        label: 'default',
        baseUrl: report.target.baseUrl,
        kind: 'embedded',
        summary: report.summary,
      }),
    ]);
    // Server identification headers seen in the target's responses (the reference server names itself).
    expect(report.target.serverHeaders).toEqual({ Server: ['screenconf-reference'] });
    expect(report.targets[0]!.serverHeaders).toEqual({ Server: ['screenconf-reference'] });
    expect(report.results.map((r) => r.id)).toEqual(CATALOGUE.map((r) => r.id));
  });

  it('gives each failure its evidence: transcript and curl reproduction', () => {
    const removes = report.results.find((r) => r.id === 'CASE-DELETE-REMOVES')!;
    expect(removes.verdict).toBe('fail');
    const evidence = removes.failures![0]!.evidence!;
    expect(evidence.exchanges.length).toBeGreaterThan(0);
    expect(evidence.curl.at(-1)).toMatch(/^curl -sS -i -X PATCH "\$SCREENCONF_BASE_URL"/);
    expect(evidence.exchanges.at(-1)!.response!.status).toBe(200);
  });

  it('gives a property failure its counterexample, its seed and path, and the run seed that replays it', async () => {
    const other = tempDir();
    const r = await screenconfInProcess([
      'run',
      '--report-dir',
      other,
      '--suites',
      'case-properties',
      '--reference-faults',
      'patch.replace-not-merge',
      '--seed',
      '3',
      '--runs',
      '5',
    ]);
    expect(r.status, r.stdout + r.stderr).toBe(1);
    const json = JSON.parse(readFileSync(join(runFolder(other), 'conformance.json'), 'utf8')) as ConformanceReport;
    const partial = json.results.find((x) => x.id === 'CASE-PATCH-PARTIAL')!;
    const property = partial.failures![0]!.evidence!.property!;
    expect(property).toMatchObject({ name: 'case-properties: valid patch applied, nothing else changed', runSeed: 3 });
    // Compact notation: keys unquoted, the base state and the patch both shown.
    expect(property.counterexample).toMatch(/^\{(base|patch): \{.*, (base|patch): \{/);
    expect(property.notation).toMatch(/^\{"base":\{/);
    expect(Number.isInteger(property.seed) && property.path !== '').toBe(true);
    expect(partial.failures![0]!.message).toContain(
      `Counterexample (shrunk after ${property.numShrinks} steps, ${property.numRuns} runs): ` +
        `${property.counterexample}`,
    );
    expect(readFileSync(join(runFolder(other), 'report.md'), 'utf8')).toContain(
      `fast-check seed ${property.seed}, path \`${property.path}\`; replay the run with \`--seed 3\``,
    );
  });

  it('gives each observation the check and the exchange it came from', () => {
    const observed = report.results.filter((r) => r.observations?.length);
    expect(observed.length).toBeGreaterThan(0);
    for (const r of observed) {
      expect(r.observationEvidence!.map((o) => o.text)).toEqual(r.observations);
      expect(r.observationEvidence![0]!.test).toMatch(/\S/);
      expect(r.observationEvidence![0]!.evidence!.curl[0]).toMatch(/^curl /);
    }
  });

  it('matches its golden file', () => {
    expectGolden('conformance.json', normalize(`${JSON.stringify(judgedView(report), null, 2)}\n`, volatile()));
  });
});

describe('report.md and report.html', () => {
  it('are what the renderers make of conformance.json (what `screenconf report` re-renders)', () => {
    expect(readFileSync(join(folder, 'report.md'), 'utf8')).toBe(renderMarkdown(report));
    expect(readFileSync(join(folder, 'report.html'), 'utf8')).toBe(renderHtml(report));
  });

  it('report.md matches its golden file', () => {
    expectGolden(
      'report.md',
      normalize(renderMarkdown(parseReport(JSON.stringify(judgedView(report)), 'view')), volatile()),
    );
  });
});

describe('junit.xml', () => {
  let xml: string;
  let root: Element;
  let cases: Element[];
  beforeAll(() => {
    xml = readFileSync(join(folder, 'junit.xml'), 'utf8');
    root = parseXml(xml);
    cases = children(root, 'testsuite').flatMap((s) => children(s, 'testcase'));
  });
  const props = (e: Element | undefined, name: string) =>
    children(child(e!, 'properties')!, 'property')
      .filter((p) => p.getAttribute('name') === name)
      .map((p) => p.getAttribute('value'));
  const text = (e: Element | undefined) => e?.textContent ?? '';

  it('is valid against the published Jenkins JUnit schema (with its two documented extensions)', async () => {
    expect(await junitProblems(xml)).toEqual([]);
  });

  it('is <testsuites name="screenconf"> with one testsuite per suite, each carrying the run id', () => {
    expect(root.tagName).toBe('testsuites');
    expect(root.getAttribute('name')).toBe('screenconf');
    const suites = children(root, 'testsuite');
    expect(suites.map((s) => s.getAttribute('name')).sort()).toEqual(['case-delete', 'token']);
    for (const s of suites) expect(props(s, 'run id')).toEqual([report.run.id]);
  });

  it('has one testcase per check of conformance.json, with its requirement ids as properties', () => {
    const checks = report.checks!;
    expect(checks.length).toBeGreaterThan(10);
    expect(cases.length).toBe(checks.length);
    cases.forEach((tc, i) => {
      expect(tc.getAttribute('name')).toContain(checks[i]!.name);
      expect(props(tc, 'requirement')).toEqual(checks[i]!.requirements);
    });
    expect(Number(root.getAttribute('tests'))).toBe(checks.length);
  });

  it('fails only what the gate fails on: the MUST failure, once; the SHOULD warning is no failure', () => {
    expect(cases.every((tc) => children(tc, 'failure').length <= 1)).toBe(true);
    const failed = cases.filter((tc) => child(tc, 'failure'));
    expect(failed.map((tc) => props(tc, 'requirement')[0])).toEqual(['CASE-DELETE-REMOVES']);
    expect(Number(root.getAttribute('failures'))).toBe(1);
    const failure = child(failed[0]!, 'failure')!;
    expect(failure.getAttribute('type')).toBe('MUST');
    expect(failure.getAttribute('message')).toMatch(/^CASE-DELETE-REMOVES: PATCH of case \d+ after it was deleted$/);
    expect(text(failure)).toMatch(/\nExpected: a 4xx rejection\nReceived: HTTP 200 /);
    expect(text(failure)).toMatch(/\nReproduce with:\ncurl -sS -i -X PATCH "\$SCREENCONF_BASE_URL"/);
    // The re-run is told once, in system-out, not as a second failure.
    expect(text(child(failed[0]!, 'system-out'))).toContain('Re-run once after failing: failed again');

    const should = report.results.filter((r) => r.level === 'SHOULD' && r.verdict === 'warn');
    expect(should.map((r) => r.id)).toEqual(['TOKEN-NO-STORE']);
    const warned = cases.filter((tc) => props(tc, 'warning').length > 0);
    expect(warned.length).toBeGreaterThan(0);
    for (const tc of warned) {
      expect(props(tc, 'warning')).toEqual(['TOKEN-NO-STORE']);
      expect(child(tc, 'failure')).toBeUndefined();
      expect(text(child(tc, 'system-out'))).toMatch(
        /^WARNING: SHOULD requirement not met, which does not fail the run/,
      );
    }
  });

  it('records what OBSERVE checks saw as properties and system-out', () => {
    const observed = report.results.filter((r) => r.level === 'OBSERVE' && r.observationEvidence?.length);
    expect(observed.length).toBeGreaterThan(0);
    for (const r of observed) {
      for (const o of r.observationEvidence!) {
        const tc = cases.find((c) => c.getAttribute('name') === o.test)!;
        expect(props(tc, 'observed')).toContain(r.id);
        expect(text(child(tc, 'system-out'))).toContain(`OBSERVE ${r.id}: ${o.text}`);
      }
    }
  });

  it('gives each skipped check <skipped message="reason">', () => {
    const skipped = report.checks!.filter((c) => c.state === 'skipped');
    expect(skipped.length).toBeGreaterThan(0);
    for (const c of skipped) {
      const tc = cases[report.checks!.indexOf(c)]!;
      expect(child(tc, 'skipped')?.getAttribute('message')).toBe(c.skipReason);
    }
  });

  it('holds no harness internals: no stack frames, no serialized errors', () => {
    for (const leak of ['❯', 'src/kit/', 'Serialized Error', 'ConformanceFailure', 'AssertionError', 'node_modules'])
      expect(xml, leak).not.toContain(leak);
  });

  it('is what the renderer makes of conformance.json', () => {
    expect(xml).toBe(renderJunit(report));
  });

  it('matches its golden file', () => {
    expectGolden('junit.xml', normalize(renderJunit(judgedView(report)), volatile()));
  });
});

describe('screenconf verify', () => {
  /** A copy of the run folder to tamper with. */
  function copy(): string {
    const to = join(tempDir(), 'run');
    cpSync(folder, to, { recursive: true });
    return to;
  }

  it('exits 0 on the folder as written, and `sha256sum -c` would agree (same format)', async () => {
    const r = await cli(['verify', folder]);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const files = 5 + readdirSync(join(folder, 'repro')).length;
    expect(r.stdout).toBe(`intact: ${files} files match SHA256SUMS in ${folder}\n`);
    expect(readFileSync(join(folder, 'SHA256SUMS'), 'utf8')).toMatch(
      new RegExp(`^([0-9a-f]{64} {2}(${LISTED})\\n){${files}}$`),
    );
    // The report folder stands for its latest run.
    expect((await cli(['verify', dir])).stdout).toBe(`intact: ${files} files match SHA256SUMS in ${folder}\n`);
  });

  it('exits 1 naming the file when one byte changed', async () => {
    const to = copy();
    const file = join(to, 'report.html');
    const bytes = readFileSync(file);
    const at = bytes.indexOf('NOT CONFORMING');
    bytes[at] = 'M'.charCodeAt(0);
    writeFileSync(file, bytes);
    const r = await screenconf(['verify', to]);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe(`CHANGED  report.html\nNOT INTACT: 1 difference from SHA256SUMS in ${to}\n`);
  });

  it('names a missing file, an added file and an altered manifest', async () => {
    const to = copy();
    rmSync(join(to, 'junit.xml'));
    writeFileSync(join(to, 'notes.txt'), 'added later\n');
    const r = await cli(['verify', to]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('MISSING  junit.xml\n');
    expect(r.stdout).toContain('EXTRA    notes.txt\n');
    writeFileSync(join(to, 'SHA256SUMS'), `${readFileSync(join(to, 'SHA256SUMS'), 'utf8')}not a line\n`);
    const line = 6 + readdirSync(join(to, 'repro')).length;
    expect((await cli(['verify', to])).stdout).toContain(`MANIFEST SHA256SUMS: line ${line} is not "<sha256>  <file>"`);
    rmSync(join(to, 'SHA256SUMS'));
    const none = await cli(['verify', to]);
    expect(none.status).toBe(1);
    expect(none.stdout).toContain('MISSING  SHA256SUMS');
  });

  it('exits 2 on a usage error', async () => {
    for (const args of [['verify'], ['verify', join(dir, 'nowhere')], ['verify', folder, folder]]) {
      const r = await cli(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^screenconf: error SC_USAGE: .+\n$/);
    }
  });
});

describe('screenconf report', () => {
  it('re-renders the same bytes, and the folder stays intact', async () => {
    const to = join(tempDir(), 'run');
    cpSync(folder, to, { recursive: true });
    rmSync(join(to, 'report.html'));
    writeFileSync(join(to, 'report.md'), 'stale\n');
    const r = await cli(['report', to]);
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(join(to, 'report.html'), 'utf8')).toBe(readFileSync(join(folder, 'report.html'), 'utf8'));
    expect(readFileSync(join(to, 'report.md'), 'utf8')).toBe(readFileSync(join(folder, 'report.md'), 'utf8'));
    expect((await cli(['verify', to])).status).toBe(0);
  });

  it('does not make a tampered folder look intact', async () => {
    const to = join(tempDir(), 'run');
    cpSync(folder, to, { recursive: true });
    const json = JSON.parse(readFileSync(join(to, 'conformance.json'), 'utf8')) as ConformanceReport;
    json.summary.conforming = true;
    writeFileSync(join(to, 'conformance.json'), JSON.stringify(json));
    const r = await cli(['report', to]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('SHA256SUMS left as it was: the folder does not match it (changed: conformance.json)');
    const v = await cli(['verify', to]);
    expect(v.status).toBe(1);
    expect(v.stdout).toContain('CHANGED  conformance.json');
  });

  it('refuses a conformance.json that is not a report: SC_REPORT_INVALID, exit 2, one line', async () => {
    const cases: [string, RegExp][] = [
      ['{ not json', /is not JSON: /],
      [
        JSON.stringify({ ...JSON.parse(text), results: [{ ...JSON.parse(text).results[0], verdict: 'maybe' }] }),
        /is not a screenconf report: results\[0\]\.verdict: /,
      ],
      [
        JSON.stringify({ ...JSON.parse(text), schemaVersion: 1 }),
        /is not a screenconf report: schemaVersion: reports before schemaVersion 2 cannot be rendered/,
      ],
    ];
    for (const [content, message] of cases) {
      const to = tempDir();
      writeFileSync(join(to, 'conformance.json'), content);
      const r = await cli(['report', to]);
      expect(r.status, content.slice(0, 40)).toBe(2);
      expect(r.stderr).toMatch(/^screenconf: error SC_REPORT_INVALID: [^\n]+\n$/);
      expect(r.stderr).toMatch(message);
      expect(existsSync(join(to, 'report.html'))).toBe(false);
    }
    const missing = await screenconf(['report', tempDir()]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/^screenconf: error SC_REPORT_INVALID: cannot read .*conformance\.json: ENOENT\n$/);
  });
});
