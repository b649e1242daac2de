/**
 * The GitHub Action (action.yml) and the GitLab CI template (ci/screenconf.gitlab-ci.yml), run here as
 * their CI runs them (test/support/actions.ts for GitHub: bash -eo pipefail, GITHUB_OUTPUT,
 * GITHUB_STEP_SUMMARY, GITHUB_ACTIONS=true, the upload as a copy), in a project where screenconf is
 * installed (node_modules/screenconf, its bin in node_modules/.bin), against the embedded reference
 * server with a fault the token suite catches: the job summary holds report.md, the failure is
 * annotated, the run folder is uploaded, and the gate fails the job. The workflow `screenconf init
 * --ci github` writes is run whole by test/package.test.ts, from an installed tarball.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { installedProject, runJob } from './support/actions.ts';
import { cleanEnv, ROOT, tempDir } from './support/cli.ts';
import { screenconfInProcess } from './support/in-process.ts';

const env = () => ({ ...cleanEnv(), npm_config_offline: 'true', NO_COLOR: '1' });
const ACTION = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, unknown> };

describe('the GitHub Action', () => {
  it('runs screenconf, writes the job summary, annotates, uploads the run folder and fails by the gate', async () => {
    const dir = installedProject('screenconf-action-');
    const workflow = join(dir, 'workflow.yml');
    writeFileSync(
      workflow,
      `jobs:
  gate:
    env:
      SCREENCONF_REFERENCE_FAULTS: token.any-grant-type
    steps:
      - uses: actions/checkout@v4
      - name: Conformance
        uses: ./node_modules/screenconf
        with:
          suites: token
          require-complete: 'false'
          seed: \${{ vars.SEED }}
`,
    );
    const job = await runJob(workflow, 'gate', dir, env(), { vars: { SEED: '5' } });
    const [run, upload, gate] = job.steps;
    expect(run!.status, run!.out).toBe(0);
    expect(run!.out).toContain('::error title=TOKEN-REJECT-GRANT-TYPE');
    expect(run!.out).toContain('screenconf run ended with exit status 1');
    expect(job.summary).toContain('# screenconf conformance report: NOT CONFORMING');
    expect(upload!.out).toBe('uploaded screenconf-report/ as screenconf-report');
    for (const file of ['report.html', 'report.md', 'conformance.json', 'junit.xml', 'SHA256SUMS'])
      expect(existsSync(join(job.artifacts, 'screenconf-report', file)), file).toBe(true);
    const report = JSON.parse(readFileSync(join(job.artifacts, 'screenconf-report/conformance.json'), 'utf8'));
    expect(report.run.seed).toBe(5);
    expect(gate!.status).toBe(1);
    expect(gate!.out).toContain('screenconf gate: exit status 1');
    expect(job.conclusion).toBe('failure');
  }, 300_000);

  it('is what screenconf init --ci github uses, with inputs the action declares', async () => {
    const dir = tempDir('screenconf-action-');
    expect((await screenconfInProcess(['init', '--ci', 'github'], { cwd: dir })).status).toBe(0);
    const written = parse(readFileSync(join(dir, '.github/workflows/screenconf.yml'), 'utf8'));
    const step = written.jobs.conformance.steps.find((s: { uses?: string }) => s.uses === './node_modules/screenconf');
    expect(step).toBeDefined();
    for (const input of Object.keys(step.with)) expect(ACTION.inputs, input).toHaveProperty(input);
    expect(step.with['client-secret']).toMatch(/^\$\{\{ secrets\.SCREENCONF_CLIENT_SECRET \}\}$/);
  });
});

describe('the GitLab CI template', () => {
  it('runs screenconf, keeps the run folder its artifacts name, and fails the job by the gate', async () => {
    const template = parse(readFileSync(join(ROOT, 'ci/screenconf.gitlab-ci.yml'), 'utf8'))['.screenconf'];
    const out = template.variables.SCREENCONF_CI_OUT as string;
    expect(template.artifacts.paths).toEqual([`${out}/`]);
    expect(template.artifacts.reports.junit).toBe(`${out}/junit.xml`);
    const dir = installedProject('screenconf-action-');
    const job = spawnSync('bash', ['-eo', 'pipefail', '-c', (template.script as string[]).join('\n')], {
      cwd: dir,
      env: {
        ...env(),
        ...template.variables,
        SCREENCONF_SUITES: 'token',
        SCREENCONF_REFERENCE_FAULTS: 'token.any-grant-type',
      },
      encoding: 'utf8',
    });
    expect(job.status, job.stdout + job.stderr).toBe(1);
    expect(job.stdout).toContain('Verdict: NOT CONFORMING');
    for (const file of ['report.html', 'report.md', 'conformance.json', 'junit.xml'])
      expect(existsSync(join(dir, out, file)), file).toBe(true);
  }, 300_000);
});
