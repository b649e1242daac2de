/**
 * What each variant switch of the reference server proves, as data: the requirements whose reading it exercises
 * (test/variants.test.ts runs each, alone on the suites of those requirements' areas and in a combined full run,
 * and requires nothing failed or warned). The requirement reference (docs/reference/requirements.md, `npm run
 * docs`) lists them per requirement. A new variant needs its entry here: the type holds every name to one. The
 * faults' proofs are in proofs.ts.
 */
import type { RequirementId } from '../spec/index.ts';
import { CONTAINER_VARIANT_READINGS } from './container-proofs.ts';
import { BODY_VARIANT_READINGS } from './proofs-body.ts';
import type { VariantName } from './variants.ts';

/**
 * For each variant: the requirements whose reading it exercises (where the interface leaves a choice
 * open, the decision that accepts this one). None: it exercises the run as a whole (the transport, the
 * token refresh), not one requirement's reading.
 */
export const VARIANT_READINGS: Readonly<Record<VariantName, readonly RequirementId[]>> = {
  'webhook.envelope': ['WEBHOOK-ENVELOPE', 'WEBHOOK-BODY-CASE', 'WEBHOOK-AFTER-COMMIT'],
  'webhook.queue-timeout': ['WEBHOOK-NOT-HELD-UP', 'WEBHOOK-DELIVERED'],
  'bulk.over-limit-per-item': ['BULK-CASES-REJECT-101', 'BULK-CUSTOMERS-REJECT-101', 'BULK-CHECKS-REJECT-101'],
  'bulk.keep-last-check': [
    'BULK-CHECKS-LAST-CHECK',
    'BULK-CHECKS-ACCEPT-100',
    'AUTH-TOKEN-OPENS',
    'AUTH-API-KEY-BEARER',
  ],
  'bulk.items-no-sync-platforms': ['BULK-CASES-STORED-AS-SENT', 'BULK-CASES-ITEM-LIMITS'],
  'bulk.items-metadata-only': [
    'BULK-CASES-ACCEPT-100',
    'BULK-CASES-REJECT-101',
    'BULK-CASES-STORED-AS-SENT',
    'UNIQUE-BULK',
  ],
  'bulk.case-summary-complete': ['READ-CASE-SCHEMA', 'BULK-CASES-REPORTED', 'BULK-CASES-REPORT-SHAPE'],
  'bulk.case-summary-outcome': ['READ-CASE-SCHEMA', 'BULK-CASES-REPORTED', 'BULK-CASES-REPORT-SHAPE'],
  'delete.absent-no-op': ['CASE-DELETE-UNKNOWN-ID', 'CASE-DELETE-REPEAT', 'TENANT-DELETE', 'CASE-ID-NON-INTEGER'],
  'token.bearer-api-key': ['TOKEN-ISSUE', 'TOKEN-ENDPOINT-BEARER-HEADER', 'TOKEN-REJECT-WRONG-SECRET'],
  'errors.status-422': [
    'CASE-PATCH-INVALID-REJECTED',
    'LIMIT-WEBHOOK-URL-511',
    'LIMIT-CASE-EXTERNAL-ID-512',
    'UNIQUE-EXTERNAL-ID-REJECTED',
    'UNIQUE-CONFLICT-STATUS',
  ],
  'errors.problem-json': ['CASE-PATCH-INVALID-REJECTED', 'UNIQUE-CONFLICT-STATUS', 'TENANT-REFUSAL-NO-DATA'],
  'tenant.forbidden': ['TENANT-PATCH', 'TENANT-DELETE', 'TENANT-REFUSAL-STATUS', 'TENANT-BULK-CASES-REPORTED'],
  'patch.reject-read-only': [
    'CASE-PATCH-READ-ONLY-UNCHANGED',
    'CASE-PATCH-READ-ONLY-FIELDS',
    'BULK-CASES-READ-ONLY-UNCHANGED',
  ],
  'delete.status-200': ['CASE-DELETE-REMOVES', 'CASE-DELETE-STATUS'],
  'delete.keeps-customer': ['CASE-DELETE-REMOVES'],
  'read.get-405': ['READ-CASE-SCHEMA', 'CASE-PATCH-ROUNDTRIP', 'TENANT-REFUSAL-NO-DATA'],
  'read.get-404': ['READ-CASE-SCHEMA', 'CASE-PATCH-ROUNDTRIP', 'TENANT-REFUSAL-NO-DATA'],
  'read.get-403': ['READ-CASE-SCHEMA', 'CASE-PATCH-ROUNDTRIP', 'TENANT-REFUSAL-NO-DATA'],
  'read.get-whole-seconds': ['READ-CASE-SCHEMA', 'CASE-PATCH-PARTIAL', 'MODEL-CONSISTENT'],
  'model.save-touches-checks': ['CASE-PATCH-PARTIAL', 'MODEL-CONSISTENT'],
  'bulk.shape-ok-errors': ['BULK-CASES-REPORTED', 'BULK-CUSTOMERS-REPORTED', 'BULK-CHECKS-REPORTED'],
  'bulk.shape-succeeded-ids': ['BULK-CASES-REPORTED', 'BULK-CUSTOMERS-REPORTED', 'BULK-CHECKS-REPORTED'],
  'bulk.shape-status-per-id': ['BULK-CASES-REPORTED', 'BULK-CUSTOMERS-REPORTED', 'BULK-CHECKS-REPORTED'],
  'bulk.shape-item-labels': ['BULK-CASES-REPORTED', 'BULK-CUSTOMERS-REPORTED', 'BULK-CHECKS-REPORTED'],
  'bulk.shape-settled': [
    'BULK-CASES-REPORTED',
    'BULK-CUSTOMERS-REPORTED',
    'BULK-CHECKS-REPORTED',
    'BULK-CHECKS-LAST-CHECK',
  ],
  // Locks the client out after 20 refused credentials: the near misses come last and alone, and each group locked
  // out is sent again once the lockout lifts (kit/lockout.ts), so every cell is judged and nothing else is blamed.
  'auth.lockout': [
    'AUTH-LOCKOUT',
    'AUTH-REQUIRED-WRONG',
    'AUTH-REQUIRED-MALFORMED',
    'AUTH-REFUSAL-NO-DATA',
    'AUTH-SCHEME-FORMS',
    'AUTH-401-WWW-AUTHENTICATE',
  ],
  // The malformed headers, "Bearer <credential> x" among them, refused 400 rather than 401: any 4xx is a refusal.
  'auth.malformed-400': ['AUTH-REQUIRED-MALFORMED', 'AUTH-CREDENTIAL-TRAILING-TEXT', 'AUTH-REFUSAL-NO-DATA'],
  'token.short-lived': ['TOKEN-EXPIRES-IN-UNIT', 'AUTH-TOKEN-OPENS', 'AUTH-TOKEN-EXPIRED', 'AUTH-TOKEN-LIFETIME'],
  'token.one-per-client': ['AUTH-TOKEN-OPENS', 'AUTH-TOKEN-SUPERSEDED', 'AUTH-TOKEN-LIFETIME'],
  'token.jwt': ['AUTH-REQUIRED-WRONG', 'AUTH-TOKEN-OPENS'],
  'token.uuid': ['AUTH-REQUIRED-WRONG', 'AUTH-TOKEN-OPENS'],
  'text.nfc': ['CASE-PATCH-ROUNDTRIP', 'UNIQUE-EXACT-MATCH', 'BULK-CUSTOMERS-EXTERNAL-ID-EXACT'],
  'text.trim': ['CASE-PATCH-ROUNDTRIP', 'UNIQUE-EXACT-MATCH', 'BULK-CUSTOMERS-EXTERNAL-ID-EXACT'],
  'limit.utf16': ['LIMIT-LENGTH-UNIT', 'LIMIT-CASE-EXTERNAL-ID-512', 'LIMIT-CUSTOMER-FULL-NAME-255'],
  'read.extra-fields': ['READ-CASE-SCHEMA', 'CASE-PATCH-RESPONSE-SCHEMA', 'TOKEN-ISSUE', 'WEBHOOK-BODY-CASE'],
  'read.checks-descending': ['READ-CASE-SCHEMA', 'MODEL-CONSISTENT'],
  'read.risk-2dp': ['READ-CASE-RISK-MAX'],
  'read.customer-type-blank': ['READ-ENUMS'],
  'webhook.slow': ['WEBHOOK-DELIVERED', 'WEBHOOK-LATENCY'],
  'webhook.at-least-once': ['WEBHOOK-ONE-PER-COMPLETION', 'WEBHOOK-DUPLICATES'],
  'http.rate-limit': [],
  'http.connection-close': [],
  'http.charset': ['TOKEN-ISSUE', 'CASE-PATCH-RESPONSE-SCHEMA', 'WEBHOOK-CONTENT-TYPE'],
  'ids.large-sparse': ['CASE-PATCH-UNKNOWN-ID', 'CASE-DELETE-UNKNOWN-ID', 'MODEL-CONSISTENT'],
  'ids.above-2^53': ['CASE-PATCH-UNKNOWN-ID', 'CASE-DELETE-UNKNOWN-ID', 'CASE-ID-NON-INTEGER', 'MODEL-CONSISTENT'],
  'ids.doubles-above-2^53': [
    'CASE-ID-NON-INTEGER',
    'BULK-CASES-OWN-RECORD',
    'BULK-CUSTOMERS-OWN-RECORD',
    'BULK-CHECKS-OWN-RECORD',
    'BULK-CHECKS-MALFORMED',
  ],
  'numbers.lenient': [
    'CASE-ID-NON-INTEGER',
    'CASE-PATCH-COERCION',
    'CASE-PATCH-STORED-AS-SENT',
    'BULK-CASES-OWN-RECORD',
    'BULK-CHECKS-OWN-RECORD',
    'CASE-ID-SPELLINGS',
    'BULK-CASES-ID-SPELLINGS',
    'BULK-CUSTOMERS-ID-SPELLINGS',
    'BULK-CHECKS-ID-SPELLINGS',
  ],
  'form.empty-skips': ['CONTENT-FORM-EMPTY-VALUE', 'CASE-PATCH-STORED-AS-SENT'],
  'text.nul-refused': ['CASE-PATCH-INVALID-REJECTED', 'CASE-PATCH-ANSWERED', 'CASE-PATCH-STORED-AS-SENT'],
  'processing.documents-awaited': ['WEBHOOK-DELIVERED', 'READ-STATES', 'READ-CHECK-DECIDED-SCORE'],
  'processing.info-skipped': ['READ-CHECK-DECIDED-SCORE', 'READ-CASE-RISK-MAX', 'WEBHOOK-BODY-CASE'],
  'cases.empty-start-refused': ['READ-STATES', 'WEBHOOK-DELIVERED'],
  'numbers.arbitrary-precision': ['CASE-PATCH-STORED-AS-SENT', 'BULK-CASES-STORED-AS-SENT', 'CASE-PATCH-READABLE'],
  'keys.unknown-refused': [
    'CASE-PATCH-HIDDEN-KEYS',
    'CASE-PATCH-OWN-RECORD',
    'BULK-CASES-HIDDEN-KEYS',
    'BULK-CUSTOMERS-HIDDEN-KEYS',
    'BULK-CUSTOMERS-READ-ONLY-UNCHANGED',
  ],
  ...CONTAINER_VARIANT_READINGS,
  ...BODY_VARIANT_READINGS,
};
