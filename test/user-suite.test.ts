/**
 * run --suites-dir: a user's own suite files run beside screenconf's, through the CLI's main() (in this process:
 * support/in-process.ts; the suites still run in vitest worker processes) against the embedded
 * reference server; their requirements (from their catalogue) are judged and reported beside ours, marked as theirs.
 * A bad catalogue, a bad folder or an unknown id ends before anything is sent, with its code (exit 2).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lastLine, runFolder, tempDir } from './support/cli.ts';
import { screenconfInProcess } from './support/in-process.ts';

interface UserResult {
  id: string;
  owner?: string;
  area: string;
  level: string;
  verdict: string;
  observations?: string[];
  tests: { suite: string }[];
}

function report(dir: string): { run: { suites: string[] }; results: UserResult[] } {
  return JSON.parse(readFileSync(join(runFolder(dir), 'conformance.json'), 'utf8'));
}

/** A folder of user suites: a catalogue (as JSON, or the text given) and suite files by name. */
function userDir(catalogue: unknown, suites: Record<string, string>): string {
  const dir = join(tempDir('screenconf-user-'), 'checks');
  mkdirSync(dir);
  writeFileSync(join(dir, 'catalogue.json'), typeof catalogue === 'string' ? catalogue : JSON.stringify(catalogue));
  for (const [name, text] of Object.entries(suites)) writeFileSync(join(dir, name), text);
  return dir;
}

const ENTRY = { id: 'OURS-REQUEST-ID', level: 'MUST', statement: 'PATCH answers carry X-Request-Id.', source: 'ops' };

/** A suite file (plain JavaScript, outside the checkout) judging OURS-REQUEST-ID, which the reference server breaks. */
const REQUEST_ID_SUITE = `
import { check, expectStatus, fail } from 'screenconf';
check('a PATCH answer carries X-Request-Id', ['OURS-REQUEST-ID'], async (t) => {
  const created = await t.primary.provision.createCase();
  const res = await t.primary.api.patchCase(created.id, {});
  expectStatus(res, 200, 'PATCH of a case');
  if (!res.headers['x-request-id']) fail('X-Request-Id of a PATCH answer', 'a header', '(none)', { judged: [res] });
});
`;

describe('run --suites-dir', () => {
  it('runs the example suite beside ours: its requirements are judged and marked as the user’s', async () => {
    const dir = tempDir();
    const r = await screenconfInProcess([
      'run',
      '--suites',
      'token',
      '--suites-dir',
      'fixtures/user-suite',
      '--report-dir',
      dir,
    ]);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const { run, results } = report(dir);
    expect(run.suites).toEqual(['token', 'deployment']);
    const mine = results.filter((x) => x.owner === 'user');
    expect(mine.map((x) => [x.id, x.level, x.area, x.verdict])).toEqual([
      ['DEPLOY-PATCH-JSON', 'MUST', 'user', 'pass'],
      ['DEPLOY-PATCH-REQUEST-ID', 'OBSERVE', 'user', 'observed'],
    ]);
    expect(mine[1]!.observations).toEqual(['no X-Request-Id header']);
    expect(mine[0]!.tests.map((t) => t.suite)).toEqual(['deployment']);
    // Ours are judged as ever, and carry no owner.
    expect(results.find((x) => x.id === 'TOKEN-ISSUE')).toMatchObject({ verdict: 'pass' });
    expect(results.find((x) => x.id === 'TOKEN-ISSUE')!.owner).toBeUndefined();
    // Every rendering shows them, marked as the user's.
    expect(r.stdout).toMatch(/^Your own requirements {2,}1 +0 +0 +0 +1$/m);
    expect(r.stdout).toMatch(/^Your own requirements \(--suites-dir\): 2$/m);
    expect(r.stdout).toMatch(/^ {2}PASS +DEPLOY-PATCH-JSON \(MUST\) /m);
    const folder = runFolder(dir);
    expect(readFileSync(join(folder, 'report.html'), 'utf8')).toContain('DEPLOY-PATCH-JSON (yours)');
    expect(readFileSync(join(folder, 'report.md'), 'utf8')).toMatch(/Your own requirements/);
    expect(readFileSync(join(folder, 'junit.xml'), 'utf8')).toContain('value="DEPLOY-PATCH-JSON"');
    // Nothing failed: the last line names report.html and no reproductions.
    expect(lastLine(r.stdout)).toBe(`Report: ${join(folder, 'report.html')} (conformance.json beside it)`);
  });

  it('--only may name the user’s requirements', async () => {
    const dir = tempDir();
    const r = await screenconfInProcess([
      ...['run', '--suites', 'token', '--suites-dir', 'fixtures/user-suite'],
      ...['--only', 'DEPLOY-PATCH-JSON', '--report-dir', dir],
    ]);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const { results } = report(dir);
    expect(results.find((x) => x.id === 'DEPLOY-PATCH-JSON')).toMatchObject({ verdict: 'pass' });
    expect(results.find((x) => x.id === 'TOKEN-ISSUE')).toMatchObject({ verdict: 'skip' });
  });

  it('a failing check of the user’s fails its MUST like one of ours (exit 1), shown as theirs', async () => {
    const checks = userDir([ENTRY], { 'request-id.test.js': REQUEST_ID_SUITE });
    const dir = tempDir();
    const r = await screenconfInProcess(['run', '--suites', 'token', '--suites-dir', checks, '--report-dir', dir]);
    expect(r.status, r.stdout + r.stderr).toBe(1);
    const mine = report(dir).results.find((x) => x.id === 'OURS-REQUEST-ID')!;
    expect(mine).toMatchObject({ owner: 'user', verdict: 'fail' });
    expect(r.stdout).toMatch(/^FAIL OURS-REQUEST-ID \(yours\) \(MUST\) PATCH answers carry X-Request-Id\.$/m);
    expect(r.stdout).toContain('MUST failed: OURS-REQUEST-ID');
    const folder = runFolder(dir);
    expect(existsSync(join(folder, 'repro', 'OURS-REQUEST-ID.sh'))).toBe(true);
    expect(readFileSync(join(folder, 'report.md'), 'utf8')).toContain('`OURS-REQUEST-ID` (yours) (MUST)');
    // The expectations file may list it as a known failure, as it lists ours.
    const expectations = join(tempDir(), 'expect.json');
    const entry = { id: 'OURS-REQUEST-ID', reason: 'the gateway adds it, not the service', expires: '2999-01-01' };
    writeFileSync(expectations, JSON.stringify({ expectations: [entry] }));
    const known = await screenconfInProcess([
      ...['run', '--suites', 'token', '--suites-dir', checks],
      ...['--expect', expectations, '--report-dir', tempDir()],
    ]);
    expect(known.status, known.stdout + known.stderr).toBe(0);
    expect(known.stdout).toMatch(/^EXPECTED FAIL OURS-REQUEST-ID \(yours\) \(MUST\)/m);
  });

  // vitest times out an attempt but cannot stop it: what it does later must not count (it pushed "passed" into the
  // attempts its re-run shared, and a check both of whose attempts timed out was reported passed).
  it('a check whose attempts both time out fails, whatever they do after', async () => {
    const suite = `
import { check } from 'screenconf';
let open;
const gate = new Promise((resolve) => { open = resolve; });
let firstEnded;
const first = new Promise((resolve) => { firstEnded = resolve; });
let attempt = 0;
check('waits past its timeout', ['OURS-REQUEST-ID'], async () => {
  attempt += 1;
  if (attempt === 1) {
    await gate;
    firstEnded();
    return;
  }
  // The re-run lets the timed-out first attempt end (pass) while it runs, then times out itself.
  open();
  await first;
  await new Promise(() => {});
}, { timeout: 50 });
`;
    const checks = userDir([ENTRY], { 'late.test.mjs': suite });
    const dir = tempDir();
    const r = await screenconfInProcess(['run', '--suites', 'token', '--suites-dir', checks, '--report-dir', dir]);
    expect(r.status, r.stdout + r.stderr).toBe(1);
    expect(report(dir).results.find((x) => x.id === 'OURS-REQUEST-ID')).toMatchObject({ verdict: 'fail' });
  });

  it('an id the scan cannot see (held in a variable) fails its file when collected: INCOMPLETE (exit 3)', async () => {
    const suite =
      "import { check } from 'screenconf';\nconst ids = ['OURS-NOPE'];\ncheck('held', ids, async () => {});\n";
    const checks = userDir([ENTRY], { 'held.test.mjs': suite });
    const r = await screenconfInProcess([
      'run',
      '--suites',
      'token',
      '--suites-dir',
      checks,
      '--report-dir',
      tempDir(),
    ]);
    expect(r.status, r.stdout + r.stderr).toBe(3);
    expect(r.stderr).toMatch(
      /^screenconf: error SC_INCOMPLETE: .*check "held" names requirement id OURS-NOPE, in neither/,
    );
  });

  const refused: [string, string, () => string[], RegExp][] = [
    [
      'a catalogue that is not JSON',
      'SC_USER_CATALOGUE',
      () => ['--suites-dir', userDir('[{"id": "A-1",', { 'a.test.js': REQUEST_ID_SUITE })],
      /catalogue\.json line 1: /,
    ],
    [
      'an entry without a statement',
      'SC_USER_CATALOGUE',
      () => ['--suites-dir', userDir([{ ...ENTRY, statement: undefined }], { 'a.test.js': REQUEST_ID_SUITE })],
      /catalogue\.json: entry 0 field statement: is missing$/,
    ],
    [
      'a level that is not MUST, SHOULD or OBSERVE',
      'SC_USER_CATALOGUE',
      () => ['--suites-dir', userDir([{ ...ENTRY, level: 'MAY' }], { 'a.test.js': REQUEST_ID_SUITE })],
      /entry 0 field level: must be one of MUST, SHOULD, OBSERVE$/,
    ],
    [
      'an id given twice',
      'SC_USER_CATALOGUE',
      () => ['--suites-dir', userDir([ENTRY, ENTRY], { 'a.test.js': REQUEST_ID_SUITE })],
      /requirement id OURS-REQUEST-ID is given twice/,
    ],
    [
      "an id that is one of screenconf's",
      'SC_USER_CATALOGUE',
      () => ['--suites-dir', userDir([{ ...ENTRY, id: 'TOKEN-ISSUE' }], { 'a.test.js': REQUEST_ID_SUITE })],
      /requirement id TOKEN-ISSUE is one of screenconf's/,
    ],
    [
      'a suite file naming an id in neither catalogue',
      'SC_UNKNOWN_REQUIREMENT',
      () => ['--suites-dir', userDir([{ ...ENTRY, id: 'OURS-OTHER' }], { 'a.test.js': REQUEST_ID_SUITE })],
      /a\.test\.js names requirement id OURS-REQUEST-ID, in neither screenconf's catalogue/,
    ],
    [
      'a folder without suite files',
      'SC_USER_SUITES',
      () => ['--suites-dir', userDir([ENTRY], { 'notes.txt': 'x' })],
      /holds no suite file/,
    ],
    [
      "a suite file named as one of screenconf's suites",
      'SC_USER_SUITES',
      () => ['--suites-dir', userDir([ENTRY], { 'token.test.js': REQUEST_ID_SUITE })],
      /the suite name token .* is one of screenconf's suites/,
    ],
    [
      'no catalogue file',
      'SC_USER_CATALOGUE',
      () => ['--suites-dir', 'fixtures/user-suite', '--user-catalogue', join(tempDir(), 'none.json')],
      /none\.json cannot be read: there is no such file/,
    ],
    [
      '--only naming an id in neither catalogue',
      'SC_CONFIG',
      () => ['--suites-dir', 'fixtures/user-suite', '--only', 'DEPLOY-PATCH-JSON,DEPLOY-NOPE'],
      /--only names unknown requirements: DEPLOY-NOPE \(screenconf list\)$/,
    ],
    [
      '--user-catalogue without --suites-dir',
      'SC_CONFIG',
      () => ['--user-catalogue', 'fixtures/user-suite/catalogue.json'],
      /give --suites-dir too/,
    ],
  ];
  it.each(refused)('refuses %s before anything is sent (exit 2, %s)', async (_what, code, args, message) => {
    const dir = tempDir();
    const r = await screenconfInProcess(['run', '--suites', 'token', ...args(), '--report-dir', dir]);
    expect(r.status, r.stdout + r.stderr).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^screenconf: error ${code}: `));
    expect(lines[0]).toMatch(message);
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(r.stdout).not.toContain('report folder');
  });
});
