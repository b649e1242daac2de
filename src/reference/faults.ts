/**
 * Fault switches: each one makes the reference server break one requirement on purpose, so
 * the self-tests can show that the suite catches it. A clean server has none switched on.
 */
export const FAULTS = {
  'token.accept-wrong-secret': 'issues a token for a known client_id whatever client_secret is sent',
  'token.expires-in-string': 'sends expires_in as a string ("3600")',
  'token.any-grant-type': 'accepts any grant_type',
  'auth.accept-missing': 'lets requests without an Authorization header through, as the first organisation',
  'auth.accept-any-bearer': 'accepts any bearer credential, as the first organisation',
  'auth.api-key-rejected': 'refuses the API key in the Bearer scheme',
  'patch.replace-not-merge': 'PATCH resets every updatable field it was not given to its default (replace instead of merge)',
  'patch.ignore-webhook-url': 'PATCH answers 200 but keeps the old webhook_url',
  'patch.unknown-id-500': 'PATCH of an unknown case id answers 500',
  'read.origin-url-differs': 'origin_url holds a URL instead of the external_id',
  'read.missing-updated-at': 'case reads leave out updated_at',
  'read.risk-average': "a case's risk_score is the average of its checks' scores, not the maximum",
  'read.risk-out-of-range': 'decided checks carry risk scores as percentages (0 to 100), not 0.0 to 1.0',
  'read.bad-enum': "decided checks show the status 'DONE', which the interface does not list",
  'model.stale-after-bulk': 'PATCH starts from the case as the previous PATCH (or creation) left it, undoing bulk updates made since',
  'model.delete-resurrects': 'a bulk update naming a deleted case brings it back and applies the item',
  'delete.noop': 'DELETE answers 204 but keeps the case',
  'bulk.no-limit': 'bulk endpoints accept more than 100 items and apply them all',
  'bulk.limit-99': 'bulk endpoints reject a request of exactly 100 items',
  'bulk.partial-over-limit': 'bulk endpoints given over 100 items apply the first 100, then answer 400',
  'bulk.all-or-nothing': 'one failing item fails the whole bulk request with 400, and nothing is applied',
  'bulk.silent-failure': 'bulk answers leave failed items out of their results',
  'bulk.multi-status': 'bulk answers with any failed item get 207 Multi-Status instead of 200',
  'bulk.failure-as-success': 'bulk answers report failed items as succeeded (status "updated", or "deleted" for checks)',
  'bulk.customers-ignore-external-id': 'bulk customer update never finds a customer by external_id',
  'bulk.checks-delete-noop': 'bulk check delete reports the checks deleted but keeps them',
  'content.form-ignored': 'form-urlencoded and multipart bodies of PATCH and bulk requests are read as empty (a PATCH then answers 200, changing nothing)',
  'content.bulk-json-only': 'bulk endpoints answer 415 to form-urlencoded and multipart bodies',
  'limit.webhook-url-512': 'webhook_url accepts 512 characters (off by one above the limit)',
  'limit.webhook-url-510': 'webhook_url rejects 511 characters (off by one below the limit)',
  'limit.external-id-513': 'case external_id accepts 513 characters',
  'limit.customer-full-name-256': 'bulk customer update accepts a full_name of 256 characters',
  'limit.customer-external-id-256': 'bulk customer update accepts a customer external_id of 256 characters',
  'limit.delete-after-int64': 'delete_after accepts any safe integer, beyond the int32 range',
  'limit.delete-after-truncate': 'delete_after accepts numbers with a fraction and stores them truncated (1.5 becomes 1)',
  'patch.non-atomic': 'an invalid PATCH applies its valid fields before it is rejected',
  'patch.accept-invalid-metadata': 'PATCH accepts a JSON array as metadata',
} as const;

export type FaultName = keyof typeof FAULTS;

export function isFaultName(name: string): name is FaultName {
  return Object.hasOwn(FAULTS, name);
}
