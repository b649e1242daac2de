/**
 * Proof the suites have teeth: each fault switch of the reference server makes the
 * requirement it breaks fail, through the CLI's main() (the run command as a user gives it, the
 * embedded server over real HTTP, the suites in vitest worker processes), and the run exits 1 (with
 * --strict when the fault breaks only SHOULD requirements). main() runs in this process: a spawned
 * binary per fault cost a node + tsx + vitest start-up each, most of a small run's CPU; the binary
 * itself is tested in cli.test.ts.
 *
 * And proof a replay decides as the run did: `screenconf replay --all` of a fault's run folder exits 1 for every
 * failure against a new reference server with the fault (the embedded one a replay of an embedded run starts) and 0
 * against a correct one (one for each fault, its credentials given as a user gives them): never undecided where
 * the run's judge decided. A sample of the faults by default (REPLAY_SAMPLE), every one with
 * SCREENCONF_PROOFS=long.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { FAULTS, type FaultName } from '../src/reference/faults.ts';
import type { VariantName } from '../src/reference/variants.ts';
import { FAULT_PROOFS } from '../src/reference/proofs.ts';
import { newOrganisation } from '../src/reference/organisations.ts';
import { createReferenceServer } from '../src/reference/server.ts';
import { requirement } from '../src/spec/index.ts';
import { readReport, runFolder, tempDir } from './support/cli.ts';
import { screenconfInProcess } from './support/in-process.ts';

/** `screenconf replay --all` of a run: its status, and each failed requirement's exit by id. */
async function replayAll(
  reports: string,
  args: string[] = [],
  env: NodeJS.ProcessEnv = {},
): Promise<{ status: number | null; exits: Record<string, number>; each: number[]; out: string }> {
  const r = await screenconfInProcess(['replay', runFolder(reports), '--all', ...args], { env });
  const exits = Object.fromEntries(
    [...r.stdout.matchAll(/^([A-Z0-9-]+): exit (\d) /gm)].map((m) => [m[1]!, Number(m[2])]),
  );
  // With several failures of a requirement, a line each follows its line: every one decides alike.
  const each = [...r.stdout.matchAll(/^(?:[A-Z0-9-]+| {2}.+?): exit (\d) /gm)].map((m) => Number(m[1]));
  return { status: r.status, exits, each, out: r.stdout + r.stderr };
}

/**
 * Faults whose failures the replay does not yet decide as the run did: each replay of them must still never claim the
 * wrong verdict (no 0 on the faulty server, no 1 on the correct one), and a fix removes its entry here. Issue 34 §4
 * closed the four it listed (the deletion that freed a reused id in the evidence, concurrent requests aligned record
 * by record, external_ids taken for values and ids found in form bodies).
 */
const REPLAY_GAPS: Partial<Record<FaultName, string>> = {
  // Judged from the run's record of its token renewals: no request of a replay makes a token as old again.
  'token.dies-early': 'AUTH-TOKEN-LIFETIME: undecided, judged from the record of the token renewals',
  'token.bulk-forgets-early': 'AUTH-TOKEN-LIFETIME: undecided, judged from the record of the token renewals',
};

/**
 * The legal choices a fault's correct server makes so that its replay can judge at all: a token that lives an hour
 * cannot be seen to expire within a run (AUTH-TOKEN-EXPIRED is not judged on it), one that lives 5 s can.
 */
const CORRECT_VARIANTS: Partial<Record<FaultName, VariantName[]>> = {
  'token.expiry-not-enforced': ['token.short-lived'],
};

/**
 * The faults whose runs are replayed by default: each replay starts vitest again, and two per fault doubled this
 * file's time. These cover every way a replay decides: a status, a header, a body field, the peer's credential, a
 * property's counterexample, a bulk answer's report, a model sequence, the invariant watcher, a value another case
 * held (the measurement of issue 27), a request that got no answer. SCREENCONF_PROOFS=long (the long form of the
 * proofs) replays every fault's run.
 */
const REPLAY_SAMPLE: readonly FaultName[] = [
  'delete.noop',
  'token.cacheable',
  'patch.ignore-webhook-url',
  'patch.non-atomic',
  'tenant.leak-patch',
  'tenant.leak-delete',
  'tenant.leak-bulk-cases',
  'tenant.refusal-leaks-case',
  'bulk.silent-failure',
  'model.delete-resurrects',
  'unique.no-check',
  'read.risk-average',
  // A judged request that got no answer (its connection reset) while the server answered the rest.
  'drop.patch-sync-platforms-null-reset',
];
const replayed = (fault: FaultName) => process.env.SCREENCONF_PROOFS === 'long' || REPLAY_SAMPLE.includes(fault);

const table: string[] = [];

describe('each fault is caught by its requirement', () => {
  const organisations = [newOrganisation('org-1'), newOrganisation('org-2')];
  const [ours, peer] = organisations as [(typeof organisations)[0], (typeof organisations)[0]];

  it('every fault switch has an expectation here', () => {
    expect(Object.keys(FAULT_PROOFS).sort()).toEqual(Object.keys(FAULTS).sort());
  });

  describe.concurrent.each(Object.entries(FAULT_PROOFS) as [FaultName, (typeof FAULT_PROOFS)[FaultName]][])(
    '%s',
    (fault, expected) => {
      it(`fails ${expected.fails.join(', ')}`, async () => {
        const dir = tempDir();
        // A fault that breaks only SHOULD requirements warns; --strict makes the warning fail the run.
        const shouldOnly = expected.fails.every((id) => requirement(id).level === 'SHOULD');
        const result = await screenconfInProcess([
          'run',
          '--report-dir',
          dir,
          '--seed',
          '11',
          '--suites',
          expected.suites.join(','),
          '--reference-faults',
          fault,
          ...(shouldOnly ? ['--strict'] : []),
          ...(expected.timeoutMs ? ['--timeout-ms', String(expected.timeoutMs)] : []),
        ]);
        const report = readReport(dir);
        const failing = report.results.filter((r) => r.verdict === 'fail' || r.verdict === 'warn').map((r) => r.id);
        table.push(`${fault.padEnd(28)} → ${failing.join(', ')}`);
        expect(failing).toEqual(expect.arrayContaining([...expected.fails]));
        // Passed at the first attempt: a re-run of a failed check passing (flaky) would hide the blame.
        const flaky = report.summary.flaky ?? [];
        const passing = report.results.filter((r) => r.verdict === 'pass' && !flaky.includes(r.id)).map((r) => r.id);
        expect(passing).toEqual(expect.arrayContaining([...(expected.passes ?? [])]));
        const notJudged = report.results
          .filter((r) => r.verdict === 'skip' && r.reason?.startsWith('could not judge'))
          .map((r) => r.id);
        expect(notJudged).toEqual(expect.arrayContaining([...(expected.notJudged ?? [])]));
        if (!shouldOnly) expect(report.summary.conforming).toBe(false);
        // Checks that could not judge make the run exit 3 (SC_INCOMPLETE), beside the failures.
        expect(result.status).toBe(expected.notJudged ? 3 : 1);
        // A request answered with no answer fails on that exchange, shown as such: no status, why none came.
        for (const id of expected.dropped ? expected.fails : []) {
          const judged = report.results
            .find((r) => r.id === id)
            ?.failures?.flatMap((f) => f.evidence?.exchanges.filter((e) => e.judged) ?? []);
          expect(judged?.length, id).toBeGreaterThan(0);
          for (const e of judged ?? []) {
            expect(e.response, id).toBeUndefined();
            expect(e.error, id).toMatch(/answered a liveness read right after it/);
          }
        }
        // Some bulk faults take ~45 s when CI runs them beside other tests on 2 cores.

        if (!replayed(fault)) return;
        // Every failure replays as the run judged it: reproduced on the faulty server, conforming on a correct one. A
        // correct server of its own, as the run had: the replays run side by side, and inputs that cannot be made
        // unique (a blank external_id) sent by one fault's replay are not another's setup.
        const gap = REPLAY_GAPS[fault];
        const fixed = await createReferenceServer({ organisations, variants: CORRECT_VARIANTS[fault] ?? [] });
        const [onFaulty, onCorrect] = await Promise.all([
          replayAll(dir),
          replayAll(dir, ['--base-url', fixed.url, '--client-id', ours.clientId, '--peer-client-id', peer.clientId], {
            SCREENCONF_CLIENT_SECRET: ours.clientSecret,
            SCREENCONF_PEER_CLIENT_SECRET: peer.clientSecret,
            SCREENCONF_API_KEY: ours.apiKey,
          }),
        ]).finally(() => fixed.close());
        expect(Object.keys(onFaulty.exits).sort(), onFaulty.out).toEqual([...failing].sort());
        expect(Object.keys(onCorrect.exits).sort(), onCorrect.out).toEqual([...failing].sort());
        if (gap) {
          // A known gap (below): the replay may not decide, but it never gives the wrong verdict.
          expect(Object.values(onFaulty.exits), onFaulty.out).not.toContain(0);
          expect(Object.values(onCorrect.exits), onCorrect.out).not.toContain(1);
          return;
        }
        expect(onFaulty.exits, onFaulty.out).toEqual(Object.fromEntries(failing.map((id) => [id, 1])));
        expect(new Set(onFaulty.each), onFaulty.out).toEqual(new Set([1]));
        expect(onFaulty.status).toBe(1);
        expect(onCorrect.exits, onCorrect.out).toEqual(Object.fromEntries(failing.map((id) => [id, 0])));
        expect(new Set(onCorrect.each), onCorrect.out).toEqual(new Set([0]));
        expect(onCorrect.status).toBe(0);
      });
    },
  );

  afterAll(() => {
    console.log(`fault → requirements that failed\n${table.sort().join('\n')}`);
  });
});
