/**
 * The npm package as a user gets it: `npm pack`, installed from the tarball into an empty
 * project, then `screenconf run` from that project's node_modules — compiled JavaScript, no tsx,
 * the embedded reference server, reports and `verify`. `npx screenconf init --ci github && npx
 * screenconf run` works there, and the workflow init wrote runs (test/support/actions.ts) with the
 * package's own action. testcontainers is an optional peer dependency, not installed: --target-image
 * says what to install.
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runJob } from './support/actions.ts';
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
    // Installing ~60 MB of dependencies: a minute or more when CI runs it beside the other tests on 2 cores.
  }, 900_000);

  it('holds the compiled code, bin and docs; no TypeScript sources, tests or tsx', () => {
    const root = join(project, 'node_modules/screenconf');
    expect(existsSync(join(root, 'dist/src/cli.js'))).toBe(true);
    expect(existsSync(join(root, 'dist/suites/token.test.js'))).toBe(true);
    expect(existsSync(join(root, 'bin/screenconf.js'))).toBe(true);
    expect(readdirSync(root).sort()).toEqual([
      'README.md',
      'action.yml',
      'bin',
      'ci',
      'dist',
      'docs',
      'fixtures',
      'package.json',
    ]);
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(Object.keys(manifest.dependencies)).not.toContain('tsx');
    expect(Object.keys(manifest.dependencies)).not.toContain('testcontainers');
    expect(manifest.optionalDependencies).toBeUndefined();
    expect(Object.keys(manifest.peerDependencies)).toEqual(['testcontainers']);
    expect(manifest.peerDependenciesMeta).toEqual({ testcontainers: { optional: true } });
    // No container tooling in a user's install: an optional peer is installed by whoever wants it.
    for (const absent of ['tsx', 'testcontainers', 'dockerode'])
      expect(existsSync(join(project, 'node_modules', absent)), absent).toBe(false);
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

  it('says what to install when --target-image needs testcontainers, which is not installed', async () => {
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
    expect(run.stderr).toContain('npm install --save-dev testcontainers@^11');
    expect(run.status).toBe(2);
  });

  it('npx screenconf init --ci github && npx screenconf run; then the workflow init wrote, run', async () => {
    const dir = project;
    const line = execFileSync('bash', ['-c', 'npx screenconf init --ci github && npx screenconf run --quiet'], {
      cwd: dir,
      env: { ...env(), npm_config_offline: 'true' },
      encoding: 'utf8',
    });
    expect(line).toContain('wrote .github/workflows/screenconf.yml');
    expect(line).toContain('Verdict: CONFORMING');
    // The written workflow, as GitHub runs it after its `npm ci` (done here by the install above).
    const job = await runJob(join(dir, '.github/workflows/screenconf.yml'), 'conformance', dir, env(), {
      done: ['Install'],
    });
    const run = job.steps.find((s) => s.name === 'Run screenconf')!;
    expect(run.out).toContain('Verdict: CONFORMING');
    expect(job.summary).toContain('# screenconf conformance report: CONFORMING');
    expect(existsSync(join(job.artifacts, 'screenconf-report/report.html'))).toBe(true);
    expect(job.steps.at(-1)).toMatchObject({ name: 'Gate', status: 0 });
    expect(job.conclusion).toBe('success');
  });
});
