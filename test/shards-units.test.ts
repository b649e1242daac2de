/**
 * results/shards.ts on its own: the check records read back from a report judge to the same
 * results; shards split by suite file merge to the report of the whole; refusals name what differs.
 */
import { describe, expect, it } from 'vitest';
import type { HarnessError } from '../src/errors.ts';
import { buildReport, checkEntries } from '../src/results/build.ts';
import { judge } from '../src/results/judge.ts';
import type { CheckOutcome } from '../src/results/outcome.ts';
import type { ConformanceReport } from '../src/results/report.ts';
import { checkShardSet, mergeShardReports, outcomesOf } from '../src/results/shards.ts';
import { propertySeed, shardRuns, shardSeed } from '../src/kit/property.ts';
import { CATALOGUE, type UserRequirement, userRequirement } from '../src/spec/index.ts';

const fail = (what: string) => ({ what, expected: 'a 4xx', received: 'HTTP 200', message: `${what}\nExpected: a 4xx` });
const evidence = { exchanges: [], curl: ['curl -sS …'] };

/** Outcomes as the collector gives them: failures, observations, a skip with a fault, two watches named alike. */
const OUTCOMES: CheckOutcome[] = [
  {
    suite: 'auth',
    name: 'auth > api key',
    state: 'passed',
    requirements: ['AUTH-API-KEY-TOKEN-SCHEME'],
    durationMs: 3,
    observations: [{ requirement: 'AUTH-API-KEY-TOKEN-SCHEME', text: 'Token scheme: 200', evidence }],
  },
  {
    suite: 'auth',
    name: 'invariant watch: auth',
    state: 'failed',
    requirements: ['READ-CASE-SCHEMA'],
    durationMs: 0,
    observations: [],
    failure: fail('auth bodies'),
    evidence,
  },
  {
    suite: 'token',
    name: 'token > issue',
    state: 'failed',
    durationMs: 9,
    flaky: false,
    requirements: ['TOKEN-ISSUE', 'TOKEN-EXPIRES-IN-UNIT'],
    failure: fail('POST token'),
    evidence,
    observations: [
      { requirement: 'TOKEN-EXPIRES-IN-UNIT', text: 'expires_in 3600' },
      { requirement: 'TOKEN-EXPIRES-IN-UNIT', text: 'again 3600' },
    ],
  },
  {
    suite: 'token',
    name: 'token > wrong secret',
    state: 'skipped',
    requirements: ['TOKEN-REJECT-WRONG-SECRET'],
    durationMs: 1,
    observations: [],
    skipReason: 'could not judge: gone',
    harnessFault: { code: 'SC_TARGET_UNREACHABLE', message: 'gone' },
  },
  {
    suite: 'token',
    name: 'invariant watch: token',
    state: 'failed',
    requirements: ['READ-CASE-SCHEMA'],
    durationMs: 0,
    observations: [],
    failure: fail('token bodies'),
  },
];

function reportOf(
  outcomes: CheckOutcome[],
  shard?: { index: number; count: number; suites: string[] },
  user: UserRequirement[] = [],
) {
  const judged = judge(outcomes, [...CATALOGUE, ...user]);
  const at = new Date('2026-01-31T12:00:00Z');
  const summary = { ...judged.summary, leftovers: [], suiteErrors: [] };
  return buildReport(
    {
      id: shard ? `shard${shard.index}` : 'whole',
      startedAt: at,
      finishedAt: at,
      seed: 5,
      runs: 25,
      suites: ['auth', 'token'],
      options: { seed: 5 },
      ...(shard ? { shard } : {}),
    },
    {
      baseUrl: 'http://x.test',
      kind: 'url',
      serverHeaders: {},
      summary,
      results: judged.results,
      checks: checkEntries(outcomes),
    },
  );
}

describe('shards', () => {
  it('reads back every check record a report was judged from', () => {
    const report = reportOf(OUTCOMES);
    expect(outcomesOf(report)).toEqual(OUTCOMES);
    expect(judge(outcomesOf(report)).results).toEqual(report.results);
  });

  it('merges shards split by suite file into the results of the whole, READ-CASE-SCHEMA from both', () => {
    const whole = reportOf(OUTCOMES);
    const [a, b] = ['auth', 'token'].map((suite, i) =>
      reportOf(
        OUTCOMES.filter((o) => o.suite === suite),
        { index: i + 1, count: 2, suites: [suite] },
      ),
    );
    const merged = mergeShardReports([a!, b!], 'merged');
    expect(merged.results).toEqual(whole.results);
    expect(merged.checks).toEqual(whole.checks);
    expect(merged.summary.harnessFaults).toEqual(['gone']);
    const schema = merged.results.find((r) => r.id === 'READ-CASE-SCHEMA')!;
    expect(schema.failures?.map((f) => f.test)).toEqual(['invariant watch: auth', 'invariant watch: token']);
    expect(merged.run.shards?.map((s) => s.id)).toEqual(['shard1', 'shard2']);
  });

  it("keeps the user's requirements (--suites-dir), judged again from the shards; refuses a set without", () => {
    const mine = [userRequirement({ id: 'OURS-1', level: 'MUST', statement: 'ours', source: 'ops' })];
    const ours: CheckOutcome = {
      suite: 'token',
      name: 'ours > one',
      state: 'failed',
      requirements: ['OURS-1'],
      durationMs: 1,
      observations: [],
      failure: fail('ours'),
      evidence,
    };
    const outcomes = [...OUTCOMES, ours];
    const whole = reportOf(outcomes, undefined, mine);
    const [a, b] = ['auth', 'token'].map((suite, i) =>
      reportOf(
        outcomes.filter((o) => o.suite === suite),
        { index: i + 1, count: 2, suites: [suite] },
        mine,
      ),
    );
    const merged = mergeShardReports([a!, b!], 'merged');
    expect(merged.results).toEqual(whole.results);
    expect(merged.results.find((r) => r.id === 'OURS-1')).toMatchObject({
      owner: 'user',
      area: 'user',
      verdict: 'fail',
    });
    const without = reportOf(
      OUTCOMES.filter((o) => o.suite === 'token'),
      { index: 2, count: 2, suites: ['token'] },
    );
    expect(() =>
      checkShardSet([
        { where: 's1', report: a! },
        { where: 's2', report: without },
      ]),
    ).toThrow('the shards are of different runs: your requirements (--suites-dir) ["OURS-1"] (s1), [] (s2)');
  });

  it('refuses what is not one run whole, naming what differs', () => {
    const shard = (index: number, patch: Partial<ConformanceReport['run']> = {}) => {
      const r = reportOf(OUTCOMES, { index, count: 3, suites: [] });
      return { where: `s${index}`, report: { ...r, run: { ...r.run, ...patch } } };
    };
    const refused = (inputs: ReturnType<typeof shard>[]) => {
      try {
        checkShardSet(inputs);
      } catch (e) {
        return `${(e as HarnessError).code}: ${(e as Error).message}`;
      }
      return 'accepted';
    };
    expect(refused([shard(1), shard(3)])).toBe(
      "SC_MERGE_INCOMPLETE: shard 2/3 missing (given: 1/3, 3/3): a merged report must judge every shard's part",
    );
    expect(refused([shard(1), shard(2, { seed: 6, runs: 9 }), shard(3)])).toBe(
      'SC_MERGE_MISMATCH: the shards are of different runs: seed 5 (s1), 6 (s2), 5 (s3); runs 25 (s1), 9 (s2), 25 (s3)',
    );
    expect(refused([shard(1), shard(1), shard(3)])).toBe('SC_MERGE_MISMATCH: shard 1/3 is given twice: s1, s1');
    expect(refused([shard(3), shard(1), shard(2)])).toBe('accepted');
    expect(checkShardSet([shard(3), shard(1), shard(2)]).map((s) => s.report.run.shard?.index)).toEqual([1, 2, 3]);
  });

  it('splits --runs over the shards of a campaign without counting a case twice, each on a seed of its own', () => {
    for (const [runs, count] of [
      [7, 2],
      [25, 4],
      [4, 4],
      [100_000, 3],
    ] as const) {
      const shares = Array.from({ length: count }, (_, i) => shardRuns(runs, { index: i + 1, count }));
      expect(shares.reduce((a, b) => a + b, 0)).toBe(runs);
      expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
      const seeds = Array.from({ length: count }, (_, i) => shardSeed(5, 'patch', { index: i + 1, count }));
      expect(new Set([...seeds, propertySeed(5, 'patch')]).size).toBe(count + 1);
    }
    expect(shardRuns(25, undefined)).toBe(25);
    expect(shardSeed(5, 'patch', undefined)).toBe(propertySeed(5, 'patch'));
  });
});
