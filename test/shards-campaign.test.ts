/**
 * A long campaign split by runs (--shard I/N --shard-by runs): every shard runs every suite file,
 * each property its share of --runs on seeds of its own; merged, every shard's checks judge. Through the
 * CLI's main() in this process (support/in-process.ts).
 */
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../src/results/report.ts';
import { type CliResult, tempDir } from './support/cli.ts';
import { screenconfInProcess } from './support/in-process.ts';

const dir = tempDir('screenconf-campaign-');
let shards: CliResult[] = [];

const run = (extra: string[]) =>
  screenconfInProcess([
    'run',
    '--suites',
    'token,case-properties',
    '--runs',
    '7',
    '--seed',
    '3',
    '--quiet',
    '--reference-faults',
    'patch.non-atomic',
    '--report-dir',
    join(dir, 'reports'),
    ...extra,
  ]);

function folderOf(r: CliResult): string {
  const path = /^Report: (.*)\/report\.html /m.exec(r.stdout)?.[1];
  if (!path) throw new Error(`no report in:\n${r.stdout}\n${r.stderr}`);
  return realpathSync(path);
}

const reportIn = (folder: string) =>
  JSON.parse(readFileSync(join(folder, 'conformance.json'), 'utf8')) as ConformanceReport;

beforeAll(async () => {
  shards = await Promise.all([1, 2].map((i) => run(['--shard', `${i}/2`, '--shard-by', 'runs'])));
}, 600_000);

describe('--shard-by runs', () => {
  it('each shard runs every suite file with its share of the runs, and says so', () => {
    const parts = shards.map((r) => reportIn(folderOf(r)));
    expect(parts.map((p) => p.run.shard?.runs)).toEqual([4, 3]);
    for (const [i, p] of parts.entries()) {
      expect(p.run.shard).toMatchObject({ index: i + 1, count: 2, by: 'runs', suites: ['token', 'case-properties'] });
      expect(shards[i]!.stdout).toContain(`7 runs per property; shard ${i + 1}/2 of them: ${i ? 3 : 4} per property`);
      expect(p.results.some((r) => r.reason?.startsWith('not judged in this shard'))).toBe(false);
      expect(p.checks?.some((c) => c.suite === 'case-properties' && c.state !== 'skipped')).toBe(true);
    }
  });

  it('merges every shard’s checks: a property failing in either fails; a files shard is refused', async () => {
    const out = join(dir, 'merged');
    const folders = shards.map(folderOf);
    const merged = await screenconfInProcess(['merge', ...folders, '--out', out]);
    expect(merged.status, merged.stdout + merged.stderr).toBe(1);
    const report = reportIn(out);
    const parts = folders.map(reportIn);
    expect(report.run.runs).toBe(7);
    expect(report.run.shards?.map((s) => [s.by, s.runs])).toEqual([
      ['runs', 4],
      ['runs', 3],
    ]);
    expect(report.checks).toHaveLength(parts.reduce((n, p) => n + p.checks!.length, 0));
    expect(report.results.find((r) => r.id === 'CASE-PATCH-INVALID-ATOMIC')?.verdict).toBe('fail');
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('1/2 run ');
    const files = await run(['--shard', '2/2']);
    const mixed = await screenconfInProcess(['merge', folders[0]!, folderOf(files), '--out', join(dir, 'mixed')]);
    expect(mixed.status).toBe(2);
    expect(mixed.stderr).toMatch(/SC_MERGE_MISMATCH: .*shard by runs \(.*\), files \(/);
  }, 400_000);
});
