/**
 * Sharded runs, through the real CLI against one `screenconf serve` with a fault on: three shards
 * as three processes, merged, judge every requirement as the same run unsharded; nothing is left
 * on the server; merging an incomplete set or shards of two seeds is refused with exit 2. The merges
 * and refusals go through the CLI's main() in this process (support/in-process.ts): no start-up each.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../src/results/report.ts';
import { type CliResult, screenconf, tempDir } from './support/cli.ts';
import { screenconfInProcess } from './support/in-process.ts';
import { leftOnServer, type Served, serve, targetOf } from './support/serve.ts';

const FAULT = 'read.missing-updated-at';
// READ-CASE-SCHEMA is judged by the invariant watch of every suite file that reads cases: by checks in several shards.
const SUITES = 'token,auth,case-patch,case-delete';
const SEED = '4242';

let server: Served;
const dir = tempDir('screenconf-shards-');
const reportDir = join(dir, 'reports');
const runs: { shards: CliResult[]; whole: CliResult; otherSeed: CliResult } = {} as never;

function run(extra: string[]): Promise<CliResult> {
  const { args, env } = targetOf(server);
  const common = ['--suites', SUITES, '--runs', '5', '--quiet', '--report-dir', reportDir];
  return screenconf(['run', ...args, ...common, ...extra], { env, timeoutMs: 400_000 });
}

/** The run folder a run printed as its report. */
function folderOf(r: CliResult): string {
  const path = /^Report: (.*)\/report\.html /m.exec(r.stdout)?.[1];
  if (!path) throw new Error(`no report in:\n${r.stdout}\n${r.stderr}`);
  return realpathSync(path);
}

function reportIn(folder: string): ConformanceReport {
  return JSON.parse(readFileSync(join(folder, 'conformance.json'), 'utf8')) as ConformanceReport;
}

const verdicts = (r: ConformanceReport) => Object.fromEntries(r.results.map((x) => [x.id, x.verdict]));

beforeAll(async () => {
  server = await serve(['--fault', FAULT]);
  // The three shards at once, as a CI matrix runs them; then the same run unsharded, and a shard of another seed.
  runs.shards = await Promise.all([1, 2, 3].map((i) => run(['--seed', SEED, '--shard', `${i}/3`])));
  [runs.whole, runs.otherSeed] = await Promise.all([run(['--seed', SEED]), run(['--seed', '7', '--shard', '3/3'])]);
}, 900_000);

afterAll(() => {
  server?.child.kill('SIGTERM');
});

describe('run --shard I/N, then merge', () => {
  it('each shard writes a partial report of its own suite files, saying the rest is judged elsewhere', () => {
    const parts = runs.shards.map((r) => reportIn(folderOf(r)));
    const ran = parts.flatMap((p) => p.run.shard!.suites);
    expect(ran.sort()).toEqual(SUITES.split(',').sort());
    for (const [i, p] of parts.entries()) {
      expect(p.run.shard).toMatchObject({ index: i + 1, count: 3 });
      expect(runs.shards[i]!.stdout).toContain(`shard ${i + 1}/3: ${p.run.shard!.suites.join(', ')}`);
      const elsewhere = p.results.filter((r) => r.reason?.startsWith(`not judged in this shard (${i + 1}/3)`));
      expect(elsewhere.length).toBeGreaterThan(0);
      // Left to the other shards is not a gap of this shard's part.
      expect(p.summary.mustNotJudged?.map((n) => n.id)).not.toEqual(
        expect.arrayContaining(elsewhere.filter((r) => r.level === 'MUST').map((r) => r.id)),
      );
    }
  });

  it('merged, the three shards give the verdict of every requirement the unsharded run gives', async () => {
    const out = join(dir, 'merged');
    const folders = runs.shards.map(folderOf);
    const merged = await screenconfInProcess(['merge', folders[2]!, folders[0]!, folders[1]!, '--out', out]);
    const whole = reportIn(folderOf(runs.whole));
    const report = reportIn(out);
    expect(runs.whole.status, runs.whole.stdout + runs.whole.stderr).toBe(1);
    expect(merged.status, merged.stdout + merged.stderr).toBe(1);
    expect(verdicts(report)).toEqual(verdicts(whole));
    // The same reasons too, but for the ids the server gave the cases each run created.
    const reasons = (r: ConformanceReport) =>
      r.results.map((x) => x.reason?.replace(/\bcase \d+/g, 'case <id>').replace(/\/cases\/\d+\//g, '/cases/<id>/'));
    expect(reasons(report)).toEqual(reasons(whole));
    expect(report.summary.verdict).toBe('not-conforming');
    const failed = report.results.filter((r) => r.verdict === 'fail').map((r) => r.id);
    expect(failed).toEqual(expect.arrayContaining(['CASE-PATCH-RESPONSE-SCHEMA', 'READ-CASE-SCHEMA']));
    // READ-CASE-SCHEMA failed in more than one shard's suite files: judged from the checks of all of them.
    const suites = new Set(report.results.find((r) => r.id === 'READ-CASE-SCHEMA')!.tests.map((t) => t.suite));
    expect(suites.size).toBeGreaterThan(1);
    expect(report.checks?.length).toBe(whole.checks?.length);
    expect(report.run.shards?.map((s) => s.index)).toEqual([1, 2, 3]);
    expect(report.run.shard).toBeUndefined();
    expect(report.summary.gate?.passed).toBe(false);
    expect(merged.stdout).toContain('Verdict: NOT CONFORMING');
    const verify = await screenconfInProcess(['verify', out]);
    expect(verify.status, verify.stdout + verify.stderr).toBe(0);
    const har = JSON.parse(readFileSync(join(out, 'exchanges.har'), 'utf8'));
    expect(har.log.pages).toHaveLength(3);
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toContain('READ-CASE-SCHEMA');
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('| Shards | merged from 3 shards: 1/3 run ');
  }, 180_000);

  it('leaves nothing on the server: every case any shard created is gone', async () => {
    const { created, left } = await leftOnServer(server, join(reportDir, 'ledger.jsonl'));
    expect(created).toBeGreaterThan(10);
    expect(left).toEqual([]);
  });

  it('refuses a missing shard, and shards of two seeds, with exit 2 naming what differs', async () => {
    const [one, two, three] = runs.shards.map(folderOf);
    const [missing, seeds, unsharded, twice] = await Promise.all([
      screenconfInProcess(['merge', one!, three!, '--out', join(dir, 'missing')]),
      screenconfInProcess(['merge', one!, two!, folderOf(runs.otherSeed), '--out', join(dir, 'seeds')]),
      screenconfInProcess(['merge', one!, folderOf(runs.whole), '--out', join(dir, 'unsharded')]),
      screenconfInProcess(['merge', one!, one!, three!, '--out', join(dir, 'twice')]),
    ]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/^screenconf: error SC_MERGE_INCOMPLETE: shard 2\/3 missing \(given: 1\/3, 3\/3\)/);
    expect(seeds.status).toBe(2);
    expect(seeds.stderr).toMatch(/SC_MERGE_MISMATCH: the shards are of different runs: seed 4242 \(.*\), 7 \(/);
    expect(unsharded.status).toBe(2);
    expect(unsharded.stderr).toContain("is not a shard's report (its run had no --shard)");
    expect(twice.stderr).toContain('SC_MERGE_MISMATCH: shard 1/3 is given twice');
    for (const out of ['missing', 'seeds', 'unsharded', 'twice']) expect(existsSync(join(dir, out))).toBe(false);
  }, 240_000);

  it('--shard needs --seed, and no more shards than suite files', async () => {
    const noSeed = await screenconfInProcess(['run', '--suites', 'token', '--shard', '1/1']);
    expect(noSeed.status).toBe(2);
    expect(noSeed.stderr).toMatch(/SC_CONFIG: --shard .*needs --seed/);
    const tooMany = await screenconf(['run', '--suites', 'token,auth', '--seed', '1', '--shard', '1/3']);
    expect(tooMany.status).toBe(2);
    expect(tooMany.stderr).toContain('splits 2 suite file(s) into 3 shards');
  }, 120_000);
});
