/**
 * Shards of a run against several targets (--target us=… --target eu=…) merge target by target:
 * the merged folder holds each target's report and the comparison, with the verdicts of the same
 * run unsharded, and verify holds for it. Through the CLI's main() in this process (support/in-process.ts)
 * against one `screenconf serve`.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../src/results/report.ts';
import { type CliResult, tempDir } from './support/cli.ts';
import { screenconfInProcess } from './support/in-process.ts';
import { type Served, serve, targetOf } from './support/serve.ts';

let server: Served;
const dir = tempDir('screenconf-shard-targets-');
const runs: { shards: CliResult[]; whole: CliResult } = {} as never;

function run(extra: string[]): Promise<CliResult> {
  const { args, env } = targetOf(server);
  const [, url, ...credentials] = args;
  const targets = ['--target', `us=${url}`, '--target', `eu=${url}`, ...credentials];
  const common = ['--suites', 'token,case-delete', '--runs', '3', '--quiet', '--seed', '31'];
  return screenconfInProcess(['run', ...targets, ...common, '--report-dir', join(dir, 'reports'), ...extra], { env });
}

function folderOf(r: CliResult): string {
  const path = /^Report: (.*)\/report\.html /m.exec(r.stdout)?.[1];
  if (!path) throw new Error(`no report in:\n${r.stdout}\n${r.stderr}`);
  return realpathSync(path);
}

const reportIn = (folder: string) =>
  JSON.parse(readFileSync(join(folder, 'conformance.json'), 'utf8')) as ConformanceReport;

beforeAll(async () => {
  server = await serve(['--fault', 'token.any-grant-type']);
  [runs.whole, ...runs.shards] = await Promise.all([run([]), run(['--shard', '1/2']), run(['--shard', '2/2'])]);
}, 600_000);

afterAll(() => {
  server?.child.kill('SIGTERM');
});

describe('merge of shards of a run against several targets', () => {
  it('merges target by target: each target and the comparison as the unsharded run judged them', async () => {
    const out = join(dir, 'merged');
    const merged = await screenconfInProcess(['merge', ...runs.shards.map(folderOf), '--out', out]);
    expect(merged.status, merged.stdout + merged.stderr).toBe(1);
    const whole = reportIn(folderOf(runs.whole));
    const report = reportIn(out);
    expect(report.targets.map((t) => t.label)).toEqual(['us', 'eu']);
    const byTarget = (r: ConformanceReport) =>
      r.results.map((x) => [x.id, x.verdict, x.byTarget?.us?.verdict, x.byTarget?.eu?.verdict]);
    expect(byTarget(report)).toEqual(byTarget(whole));
    for (const label of ['us', 'eu']) {
      const own = reportIn(join(out, label));
      expect(own.run.shards).toHaveLength(2);
      expect(own.results.find((r) => r.id === 'TOKEN-REJECT-GRANT-TYPE')?.verdict).toBe('fail');
    }
    expect(report.summary.gate?.gating).toEqual(
      expect.arrayContaining([
        { id: 'TOKEN-REJECT-GRANT-TYPE', target: 'us' },
        { id: 'TOKEN-REJECT-GRANT-TYPE', target: 'eu' },
      ]),
    );
    const verify = await screenconfInProcess(['verify', out]);
    expect(verify.status, verify.stdout + verify.stderr).toBe(0);
    const har = JSON.parse(readFileSync(join(out, 'exchanges.har'), 'utf8'));
    expect(har.log.pages).toHaveLength(4);
  }, 180_000);
});
