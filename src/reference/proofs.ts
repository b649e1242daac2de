/**
 * What each switch of the reference server proves, as data: for a fault, the suites that catch it
 * and the requirements it must make fail (test/faults.test.ts runs each); for a variant, the
 * requirements whose reading it exercises (readings.ts, re-exported here; test/variants.test.ts runs
 * each). The requirement reference (docs/reference/requirements.md, `npm run docs`) lists them per
 * requirement. A new switch needs its entry: the types hold every name to one.
 */
import type { RequirementId } from '../spec/index.ts';
import { CONTAINER_SUITE } from '../spec/inputs/containers.ts';
import { CONTAINER_FAULT_PROOFS } from './container-proofs.ts';
import { KEY_OWNERS, KEY_SUITE, type KeyWay } from '../spec/inputs/keys.ts';
import { OWNERS } from '../spec/inputs/matrix.ts';
import type { FaultProof } from './proof.ts';
import type { FaultName } from './faults.ts';
import { BODY_FAULT_PROOFS } from './proofs-body.ts';

/** The requirements of one way in's oracles (the input matrix), but those named: what must still pass. */
function otherOracles(way: keyof typeof OWNERS, ...failing: RequirementId[]): RequirementId[] {
  return Object.values(OWNERS[way]).filter((id) => !failing.includes(id as RequirementId)) as RequirementId[];
}

/** An input-matrix fault: it fails the requirements named; its ways in's other oracles pass (only it catches). */
function inputFault(suites: string[], ways: (keyof typeof OWNERS)[], ...fails: RequirementId[]): FaultProof {
  return { suites, fails, passes: [...new Set(ways.flatMap((w) => otherOracles(w, ...fails)))] };
}

/** A key-dimension fault: it fails the requirements named; the other oracles of its key way in pass. */
function keyFault(way: KeyWay, ...fails: RequirementId[]): FaultProof {
  const others = Object.values(KEY_OWNERS[way]).filter((id) => !fails.includes(id as RequirementId));
  return { suites: [KEY_SUITE], fails, passes: others as RequirementId[] };
}

const BULK_SUITES: string[] = ['bulk-cases', 'bulk-customers', 'bulk-checks'];
/** The credentials that must open, and those that must be refused (sent after every other suite). */
const AUTH_SUITES: string[] = ['auth', 'auth-guesses'];

/** For each fault: the suites that catch it and what must follow (test/faults.test.ts runs each). */
export const FAULT_PROOFS: Readonly<Record<FaultName, FaultProof>> = {
  'token.accept-wrong-secret': { suites: ['token'], fails: ['TOKEN-REJECT-WRONG-SECRET'] },
  'token.expires-in-string': { suites: ['token'], fails: ['TOKEN-ISSUE'] },
  'token.any-grant-type': { suites: ['token'], fails: ['TOKEN-REJECT-GRANT-TYPE'] },
  'token.grant-type-any-case': {
    suites: ['token'],
    fails: ['TOKEN-GRANT-TYPE-CASE'],
    passes: ['TOKEN-REJECT-GRANT-TYPE'],
  },
  'token.cacheable': { suites: ['token'], fails: ['TOKEN-NO-STORE'] },
  'token.unknown-client-500': { suites: ['token'], fails: ['TOKEN-REJECT-UNKNOWN-CLIENT'] },
  'token.grant-type-default': { suites: ['token'], fails: ['TOKEN-REJECT-MISSING-FIELD'] },
  'token.non-uuid-500': { suites: ['token'], fails: ['TOKEN-REJECT-NON-UUID-CLIENT-ID'] },
  'token.type-not-bearer': { suites: ['token'], fails: ['TOKEN-TYPE-BEARER'] },
  'auth.accept-missing': { suites: AUTH_SUITES, fails: ['AUTH-REQUIRED-MISSING'] },
  'auth.accept-any-bearer': { suites: AUTH_SUITES, fails: ['AUTH-REQUIRED-WRONG'] },
  // A credential refused in its plain form does not blame the other forms of the scheme.
  'auth.api-key-rejected': { suites: AUTH_SUITES, fails: ['AUTH-API-KEY-BEARER'], passes: ['AUTH-SCHEME-FORMS'] },
  'auth.api-key-refused-by-delete': { suites: AUTH_SUITES, fails: ['AUTH-API-KEY-BEARER'] },
  'auth.token-refused-by-bulk': { suites: AUTH_SUITES, fails: ['AUTH-TOKEN-OPENS'], passes: ['AUTH-SCHEME-FORMS'] },
  'auth.malformed-500': { suites: AUTH_SUITES, fails: ['AUTH-REQUIRED-MALFORMED'] },
  'auth.no-www-authenticate': { suites: AUTH_SUITES, fails: ['AUTH-401-WWW-AUTHENTICATE'] },
  // The credential matrix (spec/credential-matrix.ts): each defect opens some cells only, and only the requirement
  // that owns those cells fails; the refusals that must show no data are still judged on the rest.
  'auth.credential-first-32': { suites: AUTH_SUITES, fails: ['AUTH-REQUIRED-WRONG'], passes: ['AUTH-REFUSAL-NO-DATA'] },
  'auth.bulk-verified-after': { suites: AUTH_SUITES, fails: ['AUTH-REQUIRED-WRONG'], passes: ['AUTH-TOKEN-OPENS'] },
  'auth.api-key-case-insensitive': {
    suites: AUTH_SUITES,
    fails: ['AUTH-REQUIRED-WRONG'],
    passes: ['AUTH-REFUSAL-NO-DATA', 'AUTH-API-KEY-BEARER'],
  },
  'auth.bulk-token-prefix': { suites: AUTH_SUITES, fails: ['AUTH-REQUIRED-WRONG'], passes: ['AUTH-TOKEN-OPENS'] },
  'auth.scheme-exact': { suites: AUTH_SUITES, fails: ['AUTH-SCHEME-FORMS'], passes: ['AUTH-TOKEN-OPENS'] },
  'auth.refusal-echoes-case': {
    suites: AUTH_SUITES,
    fails: ['AUTH-REFUSAL-NO-DATA'],
    passes: ['AUTH-REQUIRED-WRONG', 'AUTH-REQUIRED-MISSING'],
  },
  'token.jwt-unverified': { suites: AUTH_SUITES, fails: ['AUTH-REQUIRED-WRONG'], passes: ['AUTH-TOKEN-OPENS'] },
  'token.jwt-alg-none': { suites: AUTH_SUITES, fails: ['AUTH-REQUIRED-WRONG'], passes: ['AUTH-TOKEN-OPENS'] },
  'token.expiry-not-enforced': { suites: AUTH_SUITES, fails: ['AUTH-TOKEN-EXPIRED'], passes: ['AUTH-REQUIRED-WRONG'] },
  'token.expires-early': { suites: AUTH_SUITES, fails: ['AUTH-TOKEN-LIFETIME'], passes: ['AUTH-TOKEN-OPENS'] },
  // Tokens that die inside their stated lifetime (issue 33 §9): the run renews them and goes on, so only the record of
  // the renewals shows it; the checks that send the token pass. token.dies-early on one suite file, so one worker
  // holds the client's newest token: a refusal of a token another worker's newer one replaced is excused (a server
  // may revoke older tokens), and with several files which token dies first was the machine's timing to decide.
  'token.dies-early': {
    suites: ['webhooks'],
    fails: ['AUTH-TOKEN-LIFETIME'],
    passes: ['WEBHOOK-DELIVERED'],
  },
  // Its bulk requests must come past 600 ms of a token's life: the bulk suites alone can be quicker than that.
  'token.bulk-forgets-early': {
    suites: ['auth', 'bulk-cases', 'bulk-customers', 'bulk-checks'],
    fails: ['AUTH-TOKEN-LIFETIME'],
    passes: ['AUTH-TOKEN-OPENS', 'BULK-CASES-ACCEPT-100'],
  },
  // Credentials by their parts (issue 33 §7): each caught only by a variation its structure gives.
  'token.jwt-client-secret': { suites: AUTH_SUITES, fails: ['AUTH-REQUIRED-WRONG'], passes: ['AUTH-TOKEN-OPENS'] },
  'token.jwt-empty-key-bulk': { suites: AUTH_SUITES, fails: ['AUTH-REQUIRED-WRONG'], passes: ['AUTH-TOKEN-OPENS'] },
  'token.jwt-signature-optional': {
    suites: AUTH_SUITES,
    fails: ['AUTH-REQUIRED-WRONG'],
    passes: ['AUTH-TOKEN-OPENS'],
  },
  'auth.api-key-first-segment': {
    suites: AUTH_SUITES,
    fails: ['AUTH-REQUIRED-WRONG'],
    passes: ['AUTH-API-KEY-BEARER', 'AUTH-CREDENTIAL-TRAILING-TEXT'],
  },
  'auth.api-key-prefix-optional-bulk': {
    suites: AUTH_SUITES,
    fails: ['AUTH-REQUIRED-WRONG'],
    passes: ['AUTH-API-KEY-BEARER', 'AUTH-CREDENTIAL-TRAILING-TEXT'],
  },
  'auth.credential-second-word': {
    suites: AUTH_SUITES,
    fails: ['AUTH-CREDENTIAL-TRAILING-TEXT'],
    passes: ['AUTH-REQUIRED-MALFORMED', 'AUTH-REQUIRED-WRONG', 'AUTH-SCHEME-FORMS'],
  },
  'patch.read-only-writable': { suites: ['case-patch'], fails: ['CASE-PATCH-READ-ONLY-UNCHANGED'] },
  'cases.non-integer-id-500': { suites: ['case-patch'], fails: ['CASE-ID-NON-INTEGER'] },
  // The container cells' entries of each kind get the same 500s (every bulk update's answered oracle).
  'bulk.malformed-500': {
    suites: [...BULK_SUITES, CONTAINER_SUITE],
    fails: [
      'BULK-CASES-MALFORMED',
      'BULK-CUSTOMERS-MALFORMED',
      'BULK-CHECKS-MALFORMED',
      'BULK-CASES-ANSWERED',
      'BULK-CUSTOMERS-ANSWERED',
    ],
  },
  'bulk.checks-non-integer-500': { suites: ['bulk-checks', CONTAINER_SUITE], fails: ['BULK-CHECKS-MALFORMED'] },
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
  // The states a record can be in (kit/states.ts): each defect shows only in a state no other suite makes.
  'read.zero-score-null': {
    suites: ['read-states'],
    fails: ['READ-CHECK-DECIDED-SCORE'],
    passes: ['READ-CASE-SCHEMA', 'READ-RISK-SCORE-RANGE', 'READ-CASE-RISK-MAX'],
  },
  'read.no-checks-null': { suites: ['read-states'], fails: ['READ-CASE-SCHEMA'], passes: ['READ-CHECK-DECIDED-SCORE'] },
  'webhook.omit-empty-strings': {
    suites: ['webhooks'],
    fails: ['WEBHOOK-BODY-CASE'],
    passes: ['WEBHOOK-DELIVERED', 'WEBHOOK-BODY-RESULTS', 'READ-CASE-SCHEMA'],
  },
  'webhook.type-table-gap': {
    suites: ['webhooks'],
    fails: ['WEBHOOK-DELIVERED'],
    passes: ['WEBHOOK-BODY-CASE', 'WEBHOOK-BODY-RESULTS', 'READ-CASE-SCHEMA'],
  },
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
  // Dropped while reported updated: a value lost, not a field the items refuse (bulk.items-no-sync-platforms).
  'bulk.items-drop-sync-platforms': { suites: ['inputs-bulk'], fails: ['BULK-CASES-STORED-AS-SENT'] },
  // A field the 100 items carry, answered as taken and dropped: sent alone it is answered as taken too, so it stays
  // in the batch and its loss fails (kit/limit-batches.ts; not excused as a field the items refuse).
  'bulk.items-drop-webhook-url': {
    suites: ['bulk-cases', 'inputs-bulk'],
    fails: ['BULK-CASES-ACCEPT-100', 'BULK-CASES-PARTIAL', 'BULK-CASES-REPORTED', 'BULK-CASES-STORED-AS-SENT'],
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
  // A stale reference that meets the case given the id since is not the deleted case back: deletion, the model
  // and uniqueness are not blamed.
  'ids.reuse-freed': {
    suites: ['case-delete', 'model', 'uniqueness'],
    fails: ['CASE-ID-NOT-REUSED'],
    passes: ['CASE-DELETE-REMOVES', 'MODEL-CONSISTENT', 'UNIQUE-DELETED-VALUE', 'UNIQUE-FREED-VALUE'],
  },
  'ids.reuse-highest': {
    suites: ['case-delete', 'model'],
    fails: ['CASE-ID-NOT-REUSED'],
    passes: ['CASE-DELETE-REMOVES', 'MODEL-CONSISTENT'],
  },
  'webhook.omit-nulls': { suites: ['webhooks'], fails: ['WEBHOOK-BODY-CASE'] },
  // Only the fields a read shows beside the always-present ones: the comparison with the read at arrival.
  'webhook.customer-summary': { suites: ['webhooks'], fails: ['WEBHOOK-BODY-CASE'] },
  // A read at arrival does not show the completion, later reads do: not the results' fault.
  'webhook.before-commit': {
    suites: ['webhooks'],
    fails: ['WEBHOOK-AFTER-COMMIT'],
    passes: ['WEBHOOK-BODY-CASE', 'WEBHOOK-BODY-COMPLETE', 'WEBHOOK-BODY-RESULTS'],
  },
  'webhook.outcome-after': {
    suites: ['webhooks'],
    fails: ['WEBHOOK-AFTER-COMMIT'],
    passes: ['WEBHOOK-BODY-CASE', 'WEBHOOK-BODY-RESULTS'],
  },
  'webhook.retry-204': { suites: ['webhooks'], fails: ['WEBHOOK-ONE-PER-COMPLETION'] },
  // Only the cases whose receivers answer 201 and 202 see the repeat.
  'webhook.retry-202': { suites: ['webhooks'], fails: ['WEBHOOK-ONE-PER-COMPLETION'] },
  'webhook.on-save': {
    suites: ['webhooks'],
    fails: ['WEBHOOK-NO-REPEAT-ON-WRITE'],
    passes: ['WEBHOOK-ONE-PER-COMPLETION'],
  },
  // Judged last, alone: the queue held up holds up no other check's webhook.
  'webhook.serial-queue': {
    suites: ['webhooks'],
    fails: ['WEBHOOK-NOT-HELD-UP'],
    passes: ['WEBHOOK-DELIVERED', 'WEBHOOK-NO-CROSSTALK', 'WEBHOOK-NEW-URL-ONLY'],
  },
  'webhook.host-queue': {
    suites: ['webhooks'],
    fails: ['WEBHOOK-NOT-HELD-UP'],
    passes: ['WEBHOOK-DELIVERED', 'WEBHOOK-NO-CROSSTALK', 'WEBHOOK-NEW-URL-ONLY'],
  },
  // The input matrix: at least two faults per oracle, on different fields and ways in, each caught by that
  // oracle's requirement only (the other oracles of its ways in pass).
  'input.int64-overflow-500': inputFault(['inputs-patch'], ['patch'], 'CASE-PATCH-ANSWERED'),
  'input.nul-500': inputFault(['inputs-bulk'], ['bulk-customers'], 'BULK-CUSTOMERS-ANSWERED'),
  'input.path-parse-int': inputFault(['inputs-patch'], ['patch'], 'CASE-ID-NON-INTEGER'),
  'input.bulk-id-parse-int': inputFault(['inputs-bulk'], ['bulk-cases'], 'BULK-CASES-OWN-RECORD'),
  'input.check-ids-flatten': inputFault(['inputs-bulk', CONTAINER_SUITE], ['bulk-checks'], 'BULK-CHECKS-OWN-RECORD'),
  'input.patch-saved-before-validated': inputFault(['inputs-patch'], ['patch'], 'CASE-PATCH-INVALID-ATOMIC'),
  'input.customer-refused-but-truncated': inputFault(['inputs-bulk'], ['bulk-customers'], 'BULK-CUSTOMERS-PARTIAL'),
  'input.astral-as-question-marks': inputFault(
    ['inputs-patch', 'inputs-bulk'],
    ['patch', 'bulk-cases', 'bulk-customers'],
    'CASE-PATCH-STORED-AS-SENT',
    'BULK-CASES-STORED-AS-SENT',
    'BULK-CUSTOMERS-STORED-AS-SENT',
  ),
  'input.url-normalised': inputFault(['inputs-patch'], ['patch'], 'CASE-PATCH-STORED-AS-SENT'),
  'input.proto-key-dropped': inputFault(['inputs-bulk'], ['bulk-cases'], 'BULK-CASES-STORED-AS-SENT'),
  'input.unwritable-case-500': inputFault(
    ['inputs-patch', 'inputs-bulk'],
    ['patch', 'bulk-cases'],
    'CASE-PATCH-READABLE',
    'BULK-CASES-READABLE',
  ),
  'input.form-skips-limits': inputFault(['inputs-patch'], ['patch'], 'CASE-PATCH-INVALID-REJECTED'),
  // Over-limit values taken: the limit fails; one padded past it, taken and stored untrimmed, is another value.
  'input.customer-limits-unchecked': {
    suites: ['inputs-bulk'],
    fails: ['BULK-CUSTOMERS-ITEM-LIMITS'],
    passes: [
      'BULK-CUSTOMERS-ANSWERED',
      'BULK-CUSTOMERS-PARTIAL',
      'BULK-CUSTOMERS-READABLE',
      'BULK-CUSTOMERS-OWN-RECORD',
    ],
  },
  // A request answered with no answer while the server answers every other (issue 33 §8): its check fails on the
  // exchange, the run is NOT CONFORMING, never INCOMPLETE; the checks beside it keep their own verdicts.
  'drop.bulk-cases-100-closed': {
    suites: ['bulk-cases'],
    fails: ['BULK-CASES-ACCEPT-100'],
    passes: ['BULK-CASES-REJECT-101'],
    dropped: true,
  },
  'drop.patch-sync-platforms-null-reset': {
    suites: ['case-patch'],
    fails: ['CASE-PATCH-NULLABLE', 'CASE-PATCH-RESPONSE-SCHEMA'],
    passes: ['CASE-PATCH-ROUNDTRIP', 'CASE-PATCH-PARTIAL'],
    dropped: true,
  },
  'drop.delete-absent-silent': {
    suites: ['case-delete'],
    fails: ['CASE-DELETE-UNKNOWN-ID'],
    passes: ['CASE-DELETE-REMOVES'],
    timeoutMs: 4000,
    dropped: true,
  },
  // What an open value reads back as (issue 33 §5): taken, a value of the field's type; and a listed value as
  // itself (§6): customer_type "" never as null, whether the write or the read loses it.
  'input.beyond-double-null': inputFault(['inputs-patch'], ['patch'], 'CASE-PATCH-STORED-AS-SENT'),
  'input.bulk-beyond-double-string': inputFault(['inputs-bulk'], ['bulk-cases'], 'BULK-CASES-STORED-AS-SENT'),
  'customer-type.blank-stored-null': inputFault(['inputs-bulk'], ['bulk-customers'], 'BULK-CUSTOMERS-STORED-AS-SENT'),
  'customer-type.blank-shown-null': inputFault(['inputs-bulk'], ['bulk-customers'], 'BULK-CUSTOMERS-STORED-AS-SENT'),
  // Every key, not only the writable ones (issue 33 §3): mass assignment of a key no named check sends, caught by the
  // key dimension's requirement of the oracle it breaks; the way's other key oracles pass.
  'keys.bulk-case-organisation-written': keyFault('bulk-cases-keys', 'BULK-CASES-HIDDEN-KEYS'),
  'keys.bulk-customer-organisation-written': keyFault('bulk-customers-keys', 'BULK-CUSTOMERS-HIDDEN-KEYS'),
  'keys.patch-customer-id-written': keyFault('patch-keys', 'CASE-PATCH-READ-ONLY-UNCHANGED'),
  'keys.patch-nested-checks-written': keyFault('patch-keys', 'CASE-PATCH-READ-ONLY-UNCHANGED', 'CASE-PATCH-OWN-RECORD'),
  'keys.patch-update-operators': keyFault('patch-keys', 'CASE-PATCH-READ-ONLY-UNCHANGED'),
  'keys.bulk-updated-at-kept': keyFault('bulk-cases-keys', 'BULK-CASES-READ-ONLY-UNCHANGED'),
  ...BODY_FAULT_PROOFS,
  ...CONTAINER_FAULT_PROOFS,
  'input.sync-platforms-entry-500': inputFault(
    ['inputs-patch', 'inputs-bulk'],
    ['patch', 'bulk-cases'],
    'CASE-PATCH-ANSWERED',
    'BULK-CASES-ANSWERED',
  ),
};

export type { FaultProof } from './proof.ts';
export { VARIANT_READINGS } from './readings.ts';
