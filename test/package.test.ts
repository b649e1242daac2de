/**
 * The npm package as a user gets it: `npm pack`, installed from the tarball into an empty
 * project, then `screenconf run` from that project's node_modules — compiled JavaScript, no tsx,
 * the embedded reference server, reports and `verify`. Without testcontainers (an optional
 * dependency) --target-image says what to install.
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, cleanEnv, ROOT, tempDir } from './support/cli.ts';

/** The environment of npm and of the installed screenconf: no SCREENCONF_* and no npm script context. */
function env(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(cleanEnv()).filter(([k]) => !/^npm_(package|lifecycle)_|^INIT_CWD$/.test(k)),
  );
}

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, { cwd, env: env(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** The installed package's bin, as npx would run it. */
function installed(project: string, args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(join(project, 'node_modules/.bin/screenconf'), args, {
      cwd: project,
      env: env(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('the npm package', () => {
  let project: string;
  let tarball: string;

  beforeAll(() => {
    // `prepare` builds on `npm ci` and `npm pack`; here only when a source is newer than dist/.
    execFileSync(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
    const dir = tempDir('screenconf-package-');
    const [packed] = JSON.parse(npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dir], ROOT)) as {
      filename: string;
      files: { path: string }[];
    }[];
    tarball = join(dir, packed!.filename);
    project = join(dir, 'project');
    execFileSync('mkdir', [project]);
    writeFileSync(join(project, 'package.json'), '{"name": "uses-screenconf", "private": true, "type": "module"}\n');
    npm(['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], project);
    // Installing ~100 MB of dependencies: minutes when CI runs it beside the other tests on 2 cores.
  }, 900_000);

  it('holds the compiled code, bin and docs; no TypeScript sources, tests or tsx', () => {
    const root = join(project, 'node_modules/screenconf');
    expect(existsSync(join(root, 'dist/src/cli.js'))).toBe(true);
    expect(existsSync(join(root, 'dist/suites/token.test.js'))).toBe(true);
    expect(existsSync(join(root, 'bin/screenconf.js'))).toBe(true);
    expect(readdirSync(root).sort()).toEqual(['README.md', 'bin', 'dist', 'docs', 'fixtures', 'package.json']);
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(Object.keys(manifest.dependencies)).not.toContain('tsx');
    expect(Object.keys(manifest.dependencies)).not.toContain('testcontainers');
    expect(Object.keys(manifest.optionalDependencies)).toEqual(['testcontainers']);
    expect(existsSync(join(project, 'node_modules/tsx'))).toBe(false);
  });

  it('runs the embedded conformance run from node_modules with a suite of the project, and verifies it', async () => {
    // The example suite, copied into the project as a user starts one: TypeScript importing from 'screenconf'.
    cpSync(join(project, 'node_modules/screenconf/fixtures/user-suite'), join(project, 'conformance'), {
      recursive: true,
    });
    const run = await installed(project, ['run', '--suites', 'token', '--suites-dir', 'conformance', '--quiet']);
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/✓ token +\d+ passed, 0 failed/);
    expect(run.stdout).toContain('Verdict: INCOMPLETE');
    const latest = join(project, 'reports/latest');
    for (const file of ['conformance.json', 'report.html', 'report.md', 'junit.xml', 'exchanges.har', 'SHA256SUMS'])
      expect(existsSync(join(latest, file)), file).toBe(true);
    const report = JSON.parse(readFileSync(join(latest, 'conformance.json'), 'utf8'));
    expect(report.results.find((r: { id: string }) => r.id === 'TOKEN-ISSUE')?.verdict).toBe('pass');
    expect(report.results.find((r: { id: string }) => r.id === 'DEPLOY-PATCH-JSON')).toMatchObject({
      owner: 'user',
      verdict: 'pass',
    });
    const verify = await installed(project, ['verify', 'reports']);
    expect(verify.status, verify.stdout + verify.stderr).toBe(0);
    const list = await installed(project, ['list', '--json']);
    expect(JSON.parse(list.stdout).requirements.length).toBeGreaterThan(100);
  });

  it("exports the library API for users' own checks, typed, and the generators as screenconf/arbitraries", () => {
    const script = join(project, 'uses.mjs');
    writeFileSync(
      script,
      "const lib = await import('screenconf');\n" +
        "const { validCasePatch } = await import('screenconf/arbitraries');\n" +
        "const names = ['check', 'expectStatus', 'organisationClient', 'Provisioner', 'createWebhookReceiver'];\n" +
        'console.log(JSON.stringify({ ...Object.fromEntries(names.map((n) => [n, typeof lib[n]])), ' +
        'arbitrary: typeof validCasePatch, requirements: lib.spec.CATALOGUE.length }));\n',
    );
    const out = JSON.parse(execFileSync(process.execPath, [script], { cwd: project, env: env(), encoding: 'utf8' }));
    expect(out).toMatchObject({ check: 'function', expectStatus: 'function', organisationClient: 'function' });
    expect(out).toMatchObject({ Provisioner: 'function', createWebhookReceiver: 'function', arbitrary: 'function' });
    expect(out.requirements).toBeGreaterThan(100);
    const root = join(project, 'node_modules/screenconf');
    for (const types of ['dist/src/index.d.ts', 'dist/src/arbitraries/index.d.ts'])
      expect(existsSync(join(root, types)), types).toBe(true);
  });

  it('says what to install when --target-image needs testcontainers and it is missing', async () => {
    const modules = join(project, 'node_modules');
    renameSync(join(modules, 'testcontainers'), join(modules, '.testcontainers-away'));
    try {
      const run = await installed(project, [
        'run',
        '--target-image',
        'localhost/none:latest',
        '--client-id',
        '00000000-0000-4000-8000-000000000000',
        '--client-secret',
        'x',
      ]);
      expect(run.stderr).toContain('error SC_CONTAINER_SUPPORT');
      expect(run.stderr).toContain('npm install testcontainers');
      expect(run.status).toBe(2);
    } finally {
      renameSync(join(modules, '.testcontainers-away'), join(modules, 'testcontainers'));
    }
  });
});
