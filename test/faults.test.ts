/**
 * Proof the suites have teeth: each fault switch of the reference server makes the
 * requirement it breaks fail, through the CLI's main() (the run command as a user gives it, the
 * embedded server over real HTTP, the suites in vitest worker processes), and the run exits 1 (with
 * --strict when the fault breaks only SHOULD requirements). main() runs in this process: a spawned
 * binary per fault cost a node + tsx + vitest start-up each, most of a small run's CPU; the binary
 * itself is tested in cli.test.ts.
 *
 * And proof a replay decides as the run did: `screenconf replay --all` of each fault's run folder exits 1 for every
 * failure against a new reference server with the fault (the embedded one a replay of an embedded run starts) and 0
 * against a correct one (one for every fault, its credentials given as a user gives them): never undecided where
 * the run's judge decided.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULTS, type FaultName } from '../src/reference/faults.ts';
import { newOrganisation } from '../src/reference/organisations.ts';
import { createReferenceServer, type ReferenceServer } from '../src/reference/server.ts';
import { requirement, type RequirementId } from '../src/spec/index.ts';
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
  const each = [...r.stdout.matchAll(/^(?:[A-Z0-9-]+|  .+?): exit (\d) /gm)].map((m) => Number(m[1]));
  return { status: r.status, exits, each, out: r.stdout + r.stderr };
}

const BULK_SUITES: string[] = ['bulk-cases', 'bulk-customers', 'bulk-checks'];

/**
 * For each fault: the suites that catch it, the requirements that must then fail, and any that must
 * still pass (a check judged on what another check's request did, which must not take the blame).
 */
const CAUGHT_BY: Record<
  FaultName,
  { suites: string[]; fails: RequirementId[]; passes?: RequirementId[]; notJudged?: RequirementId[] }
> = {
  'token.accept-wrong-secret': { suites: ['token'], fails: ['TOKEN-REJECT-WRONG-SECRET'] },
  'token.expires-in-string': { suites: ['token'], fails: ['TOKEN-ISSUE'] },
  'token.any-grant-type': { suites: ['token'], fails: ['TOKEN-REJECT-GRANT-TYPE'] },
  'token.cacheable': { suites: ['token'], fails: ['TOKEN-NO-STORE'] },
  'token.unknown-client-500': { suites: ['token'], fails: ['TOKEN-REJECT-UNKNOWN-CLIENT'] },
  'token.grant-type-default': { suites: ['token'], fails: ['TOKEN-REJECT-MISSING-FIELD'] },
  'token.non-uuid-500': { suites: ['token'], fails: ['TOKEN-REJECT-NON-UUID-CLIENT-ID'] },
  'token.type-not-bearer': { suites: ['token'], fails: ['TOKEN-TYPE-BEARER'] },
  'auth.accept-missing': { suites: ['auth'], fails: ['AUTH-REQUIRED-MISSING'] },
  'auth.accept-any-bearer': { suites: ['auth'], fails: ['AUTH-REQUIRED-WRONG'] },
  'auth.api-key-rejected': { suites: ['auth'], fails: ['AUTH-API-KEY-BEARER'] },
  'auth.api-key-refused-by-delete': { suites: ['auth'], fails: ['AUTH-API-KEY-BEARER'] },
  'auth.token-refused-by-bulk': { suites: ['auth'], fails: ['AUTH-TOKEN-OPENS'] },
  'auth.malformed-500': { suites: ['auth'], fails: ['AUTH-REQUIRED-MALFORMED'] },
  'auth.no-www-authenticate': { suites: ['auth'], fails: ['AUTH-401-WWW-AUTHENTICATE'] },
  'patch.read-only-writable': { suites: ['case-patch'], fails: ['CASE-PATCH-READ-ONLY-UNCHANGED'] },
  'cases.non-integer-id-500': { suites: ['case-patch'], fails: ['CASE-ID-NON-INTEGER'] },
  'bulk.malformed-500': {
    suites: BULK_SUITES,
    fails: ['BULK-CASES-MALFORMED', 'BULK-CUSTOMERS-MALFORMED', 'BULK-CHECKS-MALFORMED'],
  },
  'bulk.checks-non-integer-500': { suites: ['bulk-checks'], fails: ['BULK-CHECKS-MALFORMED'] },
  'bulk.read-only-writable': { suites: ['bulk-cases'], fails: ['BULK-CASES-READ-ONLY-UNCHANGED'] },
  'patch.body-id-overwrites': { suites: ['case-patch'], fails: ['CASE-PATCH-READ-ONLY-UNCHANGED'] },
  'patch.replace-not-merge': { suites: ['case-patch'], fails: ['CASE-PATCH-PARTIAL'] },
  'patch.ignore-webhook-url': { suites: ['case-patch'], fails: ['CASE-PATCH-ROUNDTRIP'] },
  // A check whose setup PATCH was answered but not kept cannot judge its own rule: not judged, not failed.
  'patch.answer-not-kept': {
    suites: ['case-patch', 'uniqueness', 'case-properties'],
    fails: ['CASE-PATCH-ROUNDTRIP'],
    notJudged: ['UNIQUE-OWN-VALUE', 'UNIQUE-EXTERNAL-ID-REJECTED', 'CASE-PATCH-INVALID-ATOMIC'],
  },
  'patch.unknown-id-500': { suites: ['case-patch'], fails: ['CASE-PATCH-UNKNOWN-ID'] },
  'patch.null-ignored': { suites: ['case-patch'], fails: ['CASE-PATCH-NULLABLE'] },
  'patch.external-id-null-stored': { suites: ['case-patch'], fails: ['CASE-EXTERNAL-ID-STRING'] },
  'read.origin-url-differs': { suites: ['case-patch'], fails: ['CASE-ORIGIN-URL-ALIAS'] },
  'read.origin-url-stale': { suites: ['case-patch'], fails: ['CASE-ORIGIN-URL-ALIAS'] },
  'read.missing-updated-at': { suites: ['case-patch'], fails: ['CASE-PATCH-RESPONSE-SCHEMA', 'READ-CASE-SCHEMA'] },
  'read.risk-average': { suites: ['read-invariants'], fails: ['READ-CASE-RISK-MAX'] },
  'read.risk-out-of-range': { suites: ['read-invariants'], fails: ['READ-RISK-SCORE-RANGE'] },
  'read.undecided-pending': { suites: ['read-invariants'], fails: ['READ-CHECK-OUTCOME-UNDECIDED'] },
  'read.no-input-details': { suites: ['read-invariants'], fails: ['READ-CHECK-INPUT-DETAILS'] },
  'read.bad-enum': { suites: ['read-invariants'], fails: ['READ-ENUMS'] },
  'model.stale-after-bulk': { suites: ['model'], fails: ['MODEL-CONSISTENT'] },
  'model.delete-resurrects': { suites: ['model'], fails: ['MODEL-CONSISTENT'] },
  'delete.noop': { suites: ['case-delete'], fails: ['CASE-DELETE-REMOVES'] },
  'delete.unknown-id-500': { suites: ['case-delete'], fails: ['CASE-DELETE-UNKNOWN-ID'] },
  // A rejected 101-item batch that undoes the 100-item one before it, taking no value of its own: the
  // 101-item checks see it (read before and after a batch of their own), the 100-item ones are not blamed.
  'bulk.over-limit-rollback-stale': {
    suites: ['bulk-cases', 'bulk-customers'],
    fails: ['BULK-CASES-REJECT-101', 'BULK-CUSTOMERS-REJECT-101'],
    passes: ['BULK-CASES-ACCEPT-100', 'BULK-CUSTOMERS-ACCEPT-100'],
  },
  // The 100-item batches are read back after the 101-item ones too (kit/limit-batches.ts): a 101-item
  // batch applied must fail only the 101-item checks.
  'bulk.no-limit': {
    suites: BULK_SUITES,
    fails: ['BULK-CASES-REJECT-101', 'BULK-CUSTOMERS-REJECT-101', 'BULK-CHECKS-REJECT-101'],
    passes: ['BULK-CASES-ACCEPT-100', 'BULK-CUSTOMERS-ACCEPT-100'],
  },
  'bulk.limit-99': {
    suites: BULK_SUITES,
    fails: ['BULK-CASES-ACCEPT-100', 'BULK-CUSTOMERS-ACCEPT-100', 'BULK-CHECKS-ACCEPT-100'],
    passes: ['BULK-CASES-REJECT-101', 'BULK-CUSTOMERS-REJECT-101'],
  },
  'bulk.partial-over-limit': {
    suites: BULK_SUITES,
    fails: ['BULK-CASES-REJECT-101', 'BULK-CUSTOMERS-REJECT-101', 'BULK-CHECKS-REJECT-101'],
    passes: ['BULK-CASES-ACCEPT-100', 'BULK-CUSTOMERS-ACCEPT-100'],
  },
  'bulk.all-or-nothing': {
    suites: BULK_SUITES,
    fails: ['BULK-CASES-PARTIAL', 'BULK-CUSTOMERS-PARTIAL', 'BULK-CHECKS-PARTIAL'],
  },
  'bulk.silent-failure': {
    suites: BULK_SUITES,
    fails: ['BULK-CASES-REPORTED', 'BULK-CUSTOMERS-REPORTED', 'BULK-CHECKS-REPORTED'],
  },
  'bulk.multi-status': {
    suites: ['bulk-cases', 'bulk-customers', 'bulk-checks'],
    fails: ['BULK-CASES-PARTIAL', 'BULK-CUSTOMERS-PARTIAL', 'BULK-CHECKS-PARTIAL'],
  },
  'bulk.failure-as-success': {
    suites: BULK_SUITES,
    fails: ['BULK-CASES-REPORTED', 'BULK-CUSTOMERS-REPORTED', 'BULK-CHECKS-REPORTED'],
  },
  'bulk.stop-after-failure': {
    suites: BULK_SUITES,
    fails: ['BULK-CASES-PARTIAL', 'BULK-CUSTOMERS-PARTIAL', 'BULK-CHECKS-PARTIAL'],
  },
  'bulk.customers-ignore-external-id': { suites: ['bulk-customers'], fails: ['BULK-CUSTOMERS-BY-EXTERNAL-ID'] },
  'bulk.customers-external-id-ci': { suites: ['bulk-customers'], fails: ['BULK-CUSTOMERS-EXTERNAL-ID-EXACT'] },
  'bulk.checks-delete-noop': { suites: ['bulk-checks'], fails: ['BULK-CHECKS-ACCEPT-100', 'BULK-CHECKS-PARTIAL'] },
  'content.form-ignored': { suites: ['content-types'], fails: ['CONTENT-FORM-PATCH', 'CONTENT-MULTIPART-PATCH'] },
  'content.bulk-json-only': { suites: ['content-types'], fails: ['CONTENT-BULK-MEDIA-TYPES'] },
  'content.json-exact-match': { suites: ['content-types'], fails: ['CONTENT-JSON-CHARSET'] },
  'limit.webhook-url-512': {
    suites: ['limits', 'case-properties'],
    fails: ['LIMIT-WEBHOOK-URL-511', 'CASE-PATCH-INVALID-REJECTED'],
  },
  'limit.webhook-url-510': { suites: ['limits'], fails: ['LIMIT-WEBHOOK-URL-511'] },
  'limit.external-id-513': {
    suites: ['limits', 'case-properties'],
    fails: ['LIMIT-CASE-EXTERNAL-ID-512', 'CASE-PATCH-INVALID-REJECTED'],
  },
  'limit.customer-full-name-256': { suites: ['limits'], fails: ['LIMIT-CUSTOMER-FULL-NAME-255'] },
  'limit.customer-external-id-256': { suites: ['limits'], fails: ['LIMIT-CUSTOMER-EXTERNAL-ID-255'] },
  'limit.delete-after-int64': {
    suites: ['limits', 'case-properties'],
    fails: ['LIMIT-DELETE-AFTER-OUTSIDE', 'CASE-PATCH-INVALID-REJECTED'],
  },
  'limit.delete-after-truncate': {
    suites: ['limits', 'case-properties'],
    fails: ['LIMIT-DELETE-AFTER-INTEGER', 'CASE-PATCH-INVALID-REJECTED'],
  },
  'limit.delete-after-negative': { suites: ['limits'], fails: ['LIMIT-DELETE-AFTER-RANGE'] },
  'patch.non-atomic': { suites: ['case-properties'], fails: ['CASE-PATCH-INVALID-ATOMIC'] },
  'patch.accept-invalid-metadata': { suites: ['case-properties'], fails: ['CASE-PATCH-INVALID-REJECTED'] },
  'unique.no-check': { suites: ['uniqueness'], fails: ['UNIQUE-EXTERNAL-ID-REJECTED', 'UNIQUE-RACE'] },
  // The holder given a new value by the judged request is a failure, not a setup that was not kept.
  'unique.takeover': { suites: ['uniqueness'], fails: ['UNIQUE-EXTERNAL-ID-REJECTED', 'UNIQUE-RACE'] },
  'unique.bulk-no-check': { suites: ['uniqueness'], fails: ['UNIQUE-BULK', 'UNIQUE-BULK-REPORTED'] },
  'unique.self-conflict': { suites: ['uniqueness'], fails: ['UNIQUE-OWN-VALUE'] },
  'unique.global': { suites: ['uniqueness'], fails: ['UNIQUE-PER-ORGANISATION'] },
  'unique.freed-kept': { suites: ['uniqueness'], fails: ['UNIQUE-FREED-VALUE'] },
  'unique.bulk-conflict-aborts': { suites: ['uniqueness', 'bulk-cases'], fails: ['UNIQUE-BULK', 'BULK-CASES-PARTIAL'] },
  'unique.race': { suites: ['uniqueness'], fails: ['UNIQUE-RACE'] },
  'unique.case-insensitive': { suites: ['uniqueness'], fails: ['UNIQUE-EXACT-MATCH'] },
  'unique.accent-insensitive': { suites: ['uniqueness'], fails: ['UNIQUE-EXACT-MATCH'] },
  'unique.soft-delete-kept': { suites: ['uniqueness'], fails: ['UNIQUE-DELETED-VALUE'] },
  'tenant.leak-patch': { suites: ['tenant'], fails: ['TENANT-PATCH'] },
  'tenant.leak-delete': { suites: ['tenant'], fails: ['TENANT-DELETE'] },
  'tenant.leak-bulk-cases': { suites: ['tenant'], fails: ['TENANT-BULK-CASES', 'TENANT-BULK-CASES-REPORTED'] },
  'tenant.leak-bulk-customers': {
    suites: ['tenant'],
    fails: ['TENANT-BULK-CUSTOMERS', 'TENANT-BULK-CUSTOMERS-REPORTED'],
  },
  'tenant.customer-external-id-global': { suites: ['tenant'], fails: ['TENANT-CUSTOMER-EXTERNAL-ID'] },
  'tenant.refusal-leaks-case': { suites: ['tenant'], fails: ['TENANT-REFUSAL-NO-DATA'] },
  'tenant.leak-bulk-checks': { suites: ['tenant'], fails: ['TENANT-BULK-CHECKS', 'TENANT-BULK-CHECKS-REPORTED'] },
  'webhook.none': { suites: ['webhooks'], fails: ['WEBHOOK-DELIVERED'] },
  'webhook.no-checks': { suites: ['webhooks'], fails: ['WEBHOOK-BODY-CASE'] },
  'webhook.early': { suites: ['webhooks'], fails: ['WEBHOOK-BODY-COMPLETE'] },
  'webhook.stale-checks': { suites: ['webhooks'], fails: ['WEBHOOK-BODY-RESULTS'] },
  'webhook.no-input-details': { suites: ['webhooks'], fails: ['WEBHOOK-INPUT-DETAILS'] },
  'webhook.twice': { suites: ['webhooks'], fails: ['WEBHOOK-ONE-PER-COMPLETION'] },
  'webhook.old-url': { suites: ['webhooks'], fails: ['WEBHOOK-NEW-URL-ONLY'] },
  'webhook.null-notifies': { suites: ['webhooks'], fails: ['WEBHOOK-NULL-NO-DELIVERY'] },
  'webhook.crosstalk': { suites: ['webhooks'], fails: ['WEBHOOK-NO-CROSSTALK'] },
};

const table: string[] = [];

describe('each fault is caught by its requirement', () => {
  const organisations = [newOrganisation('org-1'), newOrganisation('org-2')];
  const [ours, peer] = organisations as [(typeof organisations)[0], (typeof organisations)[0]];
  let correct: ReferenceServer;
  beforeAll(async () => {
    correct = await createReferenceServer({ organisations });
  });

  it('every fault switch has an expectation here', () => {
    expect(Object.keys(CAUGHT_BY).sort()).toEqual(Object.keys(FAULTS).sort());
  });

  describe.concurrent.each(Object.entries(CAUGHT_BY) as [FaultName, (typeof CAUGHT_BY)[FaultName]][])(
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
        ]);
        const report = readReport(dir);
        const failing = report.results.filter((r) => r.verdict === 'fail' || r.verdict === 'warn').map((r) => r.id);
        table.push(`${fault.padEnd(28)} → ${failing.join(', ')}`);
        expect(failing).toEqual(expect.arrayContaining(expected.fails));
        // Passed at the first attempt: a re-run of a failed check passing (flaky) would hide the blame.
        const flaky = report.summary.flaky ?? [];
        const passing = report.results.filter((r) => r.verdict === 'pass' && !flaky.includes(r.id)).map((r) => r.id);
        expect(passing).toEqual(expect.arrayContaining(expected.passes ?? []));
        const notJudged = report.results
          .filter((r) => r.verdict === 'skip' && r.reason?.startsWith('could not judge'))
          .map((r) => r.id);
        expect(notJudged).toEqual(expect.arrayContaining(expected.notJudged ?? []));
        if (!shouldOnly) expect(report.summary.conforming).toBe(false);
        // Checks that could not judge make the run exit 3 (SC_INCOMPLETE), beside the failures.
        expect(result.status).toBe(expected.notJudged ? 3 : 1);
        // Some bulk faults take ~45 s when CI runs them beside other tests on 2 cores.

        // Every failure replays as the run judged it: reproduced on the faulty server, conforming on a correct one.
        const all = Object.fromEntries(failing.map((id) => [id, 1]));
        const onFaulty = await replayAll(dir);
        expect(onFaulty.exits, onFaulty.out).toEqual(all);
        expect(new Set(onFaulty.each), onFaulty.out).toEqual(new Set([1]));
        expect(onFaulty.status).toBe(1);
        const onCorrect = await replayAll(
          dir,
          ['--base-url', correct.url, '--client-id', ours.clientId, '--peer-client-id', peer.clientId],
          {
            SCREENCONF_CLIENT_SECRET: ours.clientSecret,
            SCREENCONF_PEER_CLIENT_SECRET: peer.clientSecret,
            SCREENCONF_API_KEY: ours.apiKey,
          },
        );
        expect(onCorrect.exits, onCorrect.out).toEqual(Object.fromEntries(failing.map((id) => [id, 0])));
        expect(new Set(onCorrect.each), onCorrect.out).toEqual(new Set([0]));
        expect(onCorrect.status).toBe(0);
      });
    },
  );

  afterAll(async () => {
    console.log(`fault → requirements that failed\n${table.sort().join('\n')}`);
    await correct?.close();
  });
});
