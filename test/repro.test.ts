/**
 * Evidence is the judged exchange, and repro/<REQ-ID>.sh reproduces: against a reference server with faults, every
 * failure in conformance.json has a judged exchange and a first line naming the request; each failure's script
 * exits 1 against the faulty server and 0 against a correct one with the same credentials; no secret is in a script.
 * (The scripts' parts, alone and on invariants: repro-scripts.test.ts.)
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReferenceServer, type ReferenceServer } from '../src/reference/server.ts';
import { newOrganisation } from '../src/reference/organisations.ts';
import { runFolder, tempDir } from './support/cli.ts';
import { screenconfInProcess } from './support/in-process.ts';

import { type Result, replayRun, sh } from './support/repro.ts';

const CREDENTIALS = [
  'our access token',
  "the peer organisation's access token",
  'our API key',
  "the peer organisation's API key",
  'no credential',
  'a hand-made Authorization header',
];
const HEADLINE = new RegExp(`^(GET|POST|PATCH|DELETE|PUT) /\\S* with (${CREDENTIALS.join('|')})`);

/** A failure of each kind, and the faults that cause them. */
const REQUIREMENTS = [
  'CASE-DELETE-REMOVES',
  'CASE-PATCH-ROUNDTRIP',
  'TENANT-PATCH',
  'LIMIT-WEBHOOK-URL-511',
  'CASE-PATCH-INVALID-REJECTED',
  'TOKEN-NO-STORE',
  // Judged on cases another check of the file made (the uniqueness suite shares its cases).
  'UNIQUE-EXACT-MATCH',
  // Judged on a read after a batch that was to change nothing: values the case must not hold.
  'BULK-CASES-REJECT-101',
  // A valid item of a mixed batch not applied (the server stopped at the first failing item): the values it must show.
  'BULK-CASES-PARTIAL',
  // A legal request answered with no answer (its connection reset) while the server answers the rest.
  'CASE-PATCH-NULLABLE',
];

describe('the judged exchange and reproduction scripts', () => {
  const organisations = [newOrganisation('org-1'), newOrganisation('org-2')];
  const [ours, peer] = organisations as [(typeof organisations)[0], (typeof organisations)[0]];
  let faulty: ReferenceServer;
  let correct: ReferenceServer;
  let dir: string;
  let results: Result[];
  const secretEnv = {
    SCREENCONF_CLIENT_SECRET: ours.clientSecret,
    SCREENCONF_PEER_CLIENT_SECRET: peer.clientSecret,
    SCREENCONF_API_KEY: ours.apiKey,
  };
  const replay = (args: string[]) => replayRun(dir, args, secretEnv);

  beforeAll(async () => {
    faulty = await createReferenceServer({
      organisations,
      faults: [
        'delete.noop',
        'patch.ignore-webhook-url',
        'tenant.leak-patch',
        'limit.webhook-url-512',
        'token.cacheable',
        'unique.case-insensitive',
        'bulk.partial-over-limit',
        'bulk.stop-after-failure',
        'drop.patch-sync-platforms-null-reset',
      ],
    });
    correct = await createReferenceServer({ organisations });
    const reports = tempDir();
    const run = await screenconfInProcess(
      [
        'run',
        '--base-url',
        faulty.url,
        '--client-id',
        ours.clientId,
        '--peer-client-id',
        peer.clientId,
        '--suites',
        'case-delete,case-patch,tenant,limits,case-properties,token,uniqueness,bulk-cases',
        '--only',
        [...REQUIREMENTS].join(','),
        '--runs',
        '10',
        '--seed',
        '7',
        '--report-dir',
        reports,
      ],
      { env: secretEnv },
    );
    expect(run.status, run.stdout + run.stderr).toBe(1);
    dir = runFolder(reports);
    results = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')).results;
    expect(run.stdout).toContain('reproduce: SCREENCONF_CLIENT_SECRET=… sh repro/CASE-DELETE-REMOVES.sh');
  }, 320_000);

  afterAll(async () => {
    await faulty?.close();
    await correct?.close();
  });

  it('gives every failure a judged exchange and a first line naming method, path and credential', () => {
    const failures = results.flatMap((r) => r.failures ?? []);
    expect(failures.length).toBeGreaterThanOrEqual(6);
    for (const f of failures) {
      expect(
        f.evidence?.exchanges.some((e) => e.judged),
        f.message,
      ).toBe(true);
      expect(f.message.split('\n')[0], f.message).toMatch(HEADLINE);
      expect(f.message.split('\n')[0]).toMatch(/: expected .+, received /);
    }
    const tenant = results.find((r) => r.id === 'TENANT-PATCH')!.failures![0]!;
    expect(tenant.message.split('\n')[0]).toContain("with the peer organisation's access token");
    expect(tenant.evidence?.property).toBeDefined();
  });

  const cases: [string, string][] = [
    ['a status failure', 'CASE-DELETE-REMOVES'],
    ['a field of the body', 'CASE-PATCH-ROUNDTRIP'],
    ["a tenant failure with the peer's credential, from a property's counterexample", 'TENANT-PATCH'],
    ['a limit at its edge, from a property', 'CASE-PATCH-INVALID-REJECTED'],
    ['a limit at its edge', 'LIMIT-WEBHOOK-URL-511'],
    ['a header of the answer (a SHOULD)', 'TOKEN-NO-STORE'],
    ['a rule judged on cases another check made', 'UNIQUE-EXACT-MATCH'],
    ['values a case read back must not hold, after a batch that was to change nothing', 'BULK-CASES-REJECT-101'],
    ['the values a valid item of a mixed batch must leave, from a property', 'BULK-CASES-PARTIAL'],
    ['a request answered with no answer at all: its connection reset', 'CASE-PATCH-NULLABLE'],
  ];
  for (const [kind, id] of cases) {
    it(`reproduces ${kind} (${id}): exit 1 on the faulty server, 0 on a correct one`, async () => {
      const r = results.find((x) => x.id === id)!;
      expect(['fail', 'warn']).toContain(r.verdict);
      expect(r.repro?.script).toBe(`repro/${id}.sh`);
      const script = join(dir, r.repro!.script);
      expect(statSync(script).mode & 0o755).toBe(0o755);
      const env = Object.fromEntries(r.repro!.env.map((v) => [v, secretEnv[v as keyof typeof secretEnv]]));
      const onFaulty = await sh(script, env);
      expect(onFaulty.out).toContain('REPRODUCED');
      expect(onFaulty.status, onFaulty.out).toBe(1);
      const onCorrect = await sh(script, { ...env, SCREENCONF_BASE_URL: correct.url });
      expect(onCorrect.status, onCorrect.out).toBe(0);
      // What it created is deleted again.
      const deleted = [...onCorrect.out.matchAll(/cleanup: DELETE \/api\/cases\/(\d+)\/ -> HTTP \d+/g)];
      const creates = readFileSync(script, 'utf8').includes('CREATED="$CREATED');
      expect(deleted.length > 0, onCorrect.out).toBe(creates);
      for (const [, id] of deleted) expect(correct.store.getCase(ours.name, Number(id))).toBeUndefined();
      const none = await sh(script, {});
      expect(none.status, none.out).toBe(2);
    });
  }

  it('writes no secret of the run into any script, and lists the scripts in SHA256SUMS', () => {
    const scripts = readdirSync(join(dir, 'repro'));
    expect(scripts.length).toBeGreaterThanOrEqual(5);
    const secrets = organisations.flatMap((o) => [o.clientSecret, o.apiKey]);
    for (const name of scripts) {
      const text = readFileSync(join(dir, 'repro', name), 'utf8');
      for (const s of secrets) expect(text).not.toContain(s);
    }
    const sums = readFileSync(join(dir, 'SHA256SUMS'), 'utf8');
    for (const name of scripts) expect(sums).toContain(`  repro/${name}`);
    const md = readFileSync(join(dir, 'report.md'), 'utf8');
    expect(md).toContain('sh repro/CASE-DELETE-REMOVES.sh');
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(html).toContain('sh repro/CASE-DELETE-REMOVES.sh');
  });

  // The run's own checks decide: every failure fails again on the faulty server and passes on a correct one.
  it("replays every failure with the run's own checks: exit 1 on the faulty server, 0 on a correct one", async () => {
    const failed = results.filter((r) => r.verdict === 'fail' || r.verdict === 'warn').map((r) => r.id);
    expect(failed).toEqual(expect.arrayContaining(REQUIREMENTS));
    const onFaulty = await replay(['--all']);
    expect(onFaulty.exits, onFaulty.out).toEqual(Object.fromEntries(failed.map((id) => [id, 1])));
    expect(new Set(onFaulty.each), onFaulty.out).toEqual(new Set([1]));
    expect(onFaulty.status).toBe(1);
    const onCorrect = await replay(['--all', '--base-url', correct.url]);
    expect(onCorrect.exits, onCorrect.out).toEqual(Object.fromEntries(failed.map((id) => [id, 0])));
    expect(new Set(onCorrect.each), onCorrect.out).toEqual(new Set([0]));
    expect(onCorrect.status).toBe(0);
    // The report and the script name the command beside the curl and the script.
    const command =
      'SCREENCONF_CLIENT_SECRET=… SCREENCONF_PEER_CLIENT_SECRET=… SCREENCONF_API_KEY=… screenconf replay . ' +
      'CASE-DELETE-REMOVES';
    const deleted = results.find((r) => r.id === 'CASE-DELETE-REMOVES')!;
    expect(deleted.replay?.command).toBe(command);
    expect(readFileSync(join(dir, 'repro', 'CASE-DELETE-REMOVES.sh'), 'utf8')).toContain(`#       ${command}`);
    expect(readFileSync(join(dir, 'report.md'), 'utf8')).toContain(command);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain(command);
    // Every failure replayed twice, each a vitest run: some 110 s alone, more on a busy machine (a bound, not a race).
  }, 900_000);

  it('refuses, before sending anything, what it cannot replay (exit 2, one line)', async () => {
    const cases: [string[], RegExp][] = [
      [[dir], /needs the requirement ids to replay, or --all/],
      [[dir, 'CASE-DELETE-REMOVES', '--all'], /ids or --all, not both/],
      [[dir, 'NOT-A-REQUIREMENT'], /NOT-A-REQUIREMENT is not a requirement of run/],
      [[dir, 'TOKEN-ISSUE'], /TOKEN-ISSUE did not fail in run \w+/],
      [[join(dir, 'repro'), 'CASE-DELETE-REMOVES'], /SC_REPORT_INVALID/],
    ];
    for (const [args, message] of cases) {
      const r = await screenconfInProcess(['replay', ...args], { env: secretEnv });
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  // DELETE answered 200 where the run saw 204: the PATCH that follows would fail again (the case is still there),
  // but on another setup than the run's. Neither the script nor the replay gives a verdict on it.
  it('says where the setup diverged and decides nothing (exit 3), in the script and the replay', async () => {
    const diverging = await createReferenceServer({
      organisations,
      faults: ['delete.noop'],
      variants: ['delete.status-200'],
    });
    try {
      const r = results.find((x) => x.id === 'CASE-DELETE-REMOVES')!;
      const env = Object.fromEntries(r.repro!.env.map((v) => [v, secretEnv[v as keyof typeof secretEnv]]));
      const script = await sh(join(dir, r.repro!.script), { ...env, SCREENCONF_BASE_URL: diverging.url });
      expect(script.status, script.out).toBe(3);
      expect(script.out).toMatch(
        /UNDECIDED: setup diverged at step 2 \(DELETE .*\): the run saw HTTP 204, the replay HTTP 200/,
      );
      const again = await replay(['CASE-DELETE-REMOVES', '--base-url', diverging.url]);
      expect(again.exits, again.out).toEqual({ 'CASE-DELETE-REMOVES': 3 });
      expect(again.out).toMatch(
        /setup diverged at step 2 \(DELETE \/api\/cases\/\d+\/\): the run saw 204, the replay 200/,
      );
      expect(again.status).toBe(3);
    } finally {
      await diverging.close();
    }
  });
});

/** A failed CASE-PATCH-ROUNDTRIP whose failure judged `exchanges` (and, given, expects `expect` of the last). */
