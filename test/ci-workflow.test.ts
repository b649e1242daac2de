/**
 * docs/ci/github-actions.yml, run here: its shell steps, as GitHub Actions runs them (bash -eo
 * pipefail, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY), with each shard in a workspace of its own as on
 * its own runner, against its embedded reference server; the artifacts carried from the shards to
 * the merge job by copying; then the merge job's steps. The gate step fails on the merged verdict.
 */
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../src/results/report.ts';
import { installedProject } from './support/actions.ts';
import { ROOT } from './support/cli.ts';
import { runStep as runWorkflowStep } from './support/workflow.ts';

const WORKFLOW = readFileSync(join(ROOT, 'docs/ci/github-actions.yml'), 'utf8');
const GITLAB = readFileSync(join(ROOT, 'docs/ci/gitlab-ci.yml'), 'utf8');

const runStep = (name: string, cwd: string, env: NodeJS.ProcessEnv) => runWorkflowStep(WORKFLOW, name, cwd, env);

describe('docs/ci/github-actions.yml', () => {
  it('is a matrix of 4 shards and a merge job that needs them, uploading the report', () => {
    expect(WORKFLOW).toMatch(/^ {2}SHARDS: 4$/m);
    expect(WORKFLOW).toMatch(/^ {8}shard: \[1, 2, 3, 4\]$/m);
    expect(WORKFLOW).toMatch(/^ {2}merge:\n {4}needs: shard$/m);
    expect(WORKFLOW).toContain('name: conformance-report');
    expect(GITLAB).toMatch(/parallel: 4/);
    expect(GITLAB).toContain('npx screenconf merge shards/shard-* --out conformance-report');
  });

  it('its shell steps, run here: 4 shards, merged, verified, and the gate fails on the merged verdict', async () => {
    const shared = {
      SHARDS: '4',
      SCREENCONF_SEED: '99',
      // Kept small for a test: one suite file per shard, a fault the token suite catches.
      SCREENCONF_SUITES: 'token,auth,case-delete,limits',
      SCREENCONF_REFERENCE_FAULTS: 'token.any-grant-type',
      SCREENCONF_RUNS: '3',
      SCREENCONF_QUIET: 'true',
    };
    const shards = [1, 2, 3, 4].map((i) => ({ i, dir: installedProject() }));
    const done = await Promise.all(shards.map((s) => runStep('Run the shard', s.dir, { ...shared, SHARD: `${s.i}` })));
    for (const [k, r] of done.entries()) {
      expect(r.status, r.out).toBe(0);
      expect(r.out).toContain(`shard ${k + 1}/4 ended with exit status`);
    }
    // upload-artifact in each shard job, download-artifact (pattern shard-*, path shards) in the merge job.
    const merge = installedProject();
    for (const s of shards)
      cpSync(join(s.dir, `shard-${s.i}`), join(merge, 'shards', `shard-${s.i}`), { recursive: true });
    const env = {
      ...shared,
      GITHUB_OUTPUT: join(merge, 'github-output'),
      GITHUB_STEP_SUMMARY: join(merge, 'step-summary.md'),
    };
    const merged = await runStep('Merge the shards', merge, env);
    expect(merged.status, merged.out).toBe(0);
    expect(readFileSync(env.GITHUB_OUTPUT, 'utf8')).toBe('status=1\n');
    const verify = await runStep('Verify the merged report', merge, env);
    expect(verify.status, verify.out).toBe(0);
    expect(verify.out).toContain('intact');
    expect((await runStep('Job summary', merge, env)).status).toBe(0);
    expect(readFileSync(env.GITHUB_STEP_SUMMARY, 'utf8')).toContain('NOT CONFORMING');
    const gate = await runStep('Gate on the merged verdict', merge, { ...env, STATUS: '1' });
    expect(gate.status).toBe(1);
    const report = JSON.parse(
      readFileSync(join(merge, 'conformance-report/conformance.json'), 'utf8'),
    ) as ConformanceReport;
    expect(report.run.shards?.map((s) => `${s.index}/${s.count}`)).toEqual(['1/4', '2/4', '3/4', '4/4']);
    expect(report.results.find((r) => r.id === 'TOKEN-REJECT-GRANT-TYPE')?.verdict).toBe('fail');
    expect(existsSync(join(merge, 'conformance-report/exchanges.har'))).toBe(true);
  }, 600_000);
});
