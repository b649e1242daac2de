/**
 * Fault switches: each one makes the reference server break one requirement on purpose, so
 * the self-tests can show that the suite catches it. A clean server has none switched on.
 */
export const FAULTS = {
  'token.accept-wrong-secret': 'issues a token for a known client_id whatever client_secret is sent',
  'token.expires-in-string': 'sends expires_in as a string ("3600")',
  'token.any-grant-type': 'accepts any grant_type',
  'token.cacheable':
    'token responses carry no Cache-Control: no-store (a SHOULD: the run warns, and fails only with --strict)',
  'token.unknown-client-500':
    'a token request for a client_id the server does not know answers 500 (the lookup throws)',
  'token.grant-type-default': 'a token request without grant_type is treated as client_credentials',
  'token.non-uuid-500': 'a client_id that is not a UUID answers 500 (a database cast error)',
  'token.type-not-bearer':
    'tokens are issued with token_type "JWT" (a SHOULD: the run warns, and fails only with --strict)',
  'auth.accept-missing': 'lets requests without an Authorization header through, as the first organisation',
  'auth.accept-any-bearer': 'accepts any bearer credential, as the first organisation',
  'auth.api-key-rejected': 'refuses the API key in the Bearer scheme',
  'auth.token-refused-by-bulk':
    'the bulk endpoints refuse access tokens (they take the API key only); PATCH and DELETE take both',
  'auth.malformed-500':
    'an Authorization header that is not "<scheme> <credential>" answers 500 (the header is split without a check)',
  'auth.no-www-authenticate':
    '401 answers carry no WWW-Authenticate header (a SHOULD: the run warns, and fails only with --strict)',
  'patch.replace-not-merge':
    'PATCH resets every updatable field it was not given to its default (replace instead of merge)',
  'patch.ignore-webhook-url': 'PATCH answers 200 but keeps the old webhook_url',
  'patch.unknown-id-500': 'PATCH of an unknown case id answers 500',
  'patch.null-ignored':
    'PATCH treats null as not provided: webhook_url, metadata and sync_platforms set to null keep their value',
  'patch.external-id-null-stored':
    'PATCH {external_id: null} stores null: the case then shows external_id null, not a string',
  'read.origin-url-differs': 'origin_url holds a URL instead of the external_id',
  'read.missing-updated-at': 'case reads leave out updated_at',
  'read.risk-average': "a case's risk_score is the average of its checks' scores, not the maximum",
  'read.risk-out-of-range': 'decided checks carry risk scores as percentages (0 to 100), not 0.0 to 1.0',
  'read.bad-enum': "decided checks show the status 'DONE', which the interface does not list",
  'model.stale-after-bulk':
    'PATCH starts from the case as the previous PATCH (or creation) left it, undoing bulk updates made since',
  'model.delete-resurrects': 'a bulk update naming a deleted case brings it back and applies the item',
  'delete.noop': 'DELETE answers 204 but keeps the case',
  'delete.unknown-id-500': 'DELETE of a case id that never existed answers 500',
  'bulk.no-limit': 'bulk endpoints accept more than 100 items and apply them all',
  'bulk.limit-99': 'bulk endpoints reject a request of exactly 100 items',
  'bulk.partial-over-limit': 'bulk endpoints given over 100 items apply the first 100, then answer 400',
  'bulk.all-or-nothing': 'one failing item fails the whole bulk request with 400, and nothing is applied',
  'bulk.silent-failure': 'bulk answers leave failed items out of their results',
  'bulk.multi-status': 'bulk answers with any failed item get 207 Multi-Status instead of 200',
  'bulk.failure-as-success':
    'bulk answers report failed items as succeeded (status "updated", or "deleted" for checks)',
  'bulk.customers-ignore-external-id': 'bulk customer update never finds a customer by external_id',
  'bulk.checks-delete-noop': 'bulk check delete reports the checks deleted but keeps them',
  'content.form-ignored':
    'form-urlencoded and multipart bodies of PATCH and bulk requests are read as empty (a PATCH then answers 200, changing nothing)',
  'content.bulk-json-only': 'bulk endpoints answer 415 to form-urlencoded and multipart bodies',
  'limit.webhook-url-512': 'webhook_url accepts 512 characters (off by one above the limit)',
  'limit.webhook-url-510': 'webhook_url rejects 511 characters (off by one below the limit)',
  'limit.external-id-513': 'case external_id accepts 513 characters',
  'limit.customer-full-name-256': 'bulk customer update accepts a full_name of 256 characters',
  'limit.customer-external-id-256': 'bulk customer update accepts a customer external_id of 256 characters',
  'limit.delete-after-int64': 'delete_after accepts any safe integer, beyond the int32 range',
  'limit.delete-after-truncate':
    'delete_after accepts numbers with a fraction and stores them truncated (1.5 becomes 1)',
  'limit.delete-after-negative': 'delete_after refuses negative values other than -1 (never delete)',
  'patch.non-atomic': 'an invalid PATCH applies its valid fields before it is rejected',
  'patch.accept-invalid-metadata': 'PATCH accepts a JSON array as metadata',
  'unique.no-check': "PATCH never checks external_id uniqueness: a case can take another case's value",
  'unique.bulk-no-check':
    "bulk case update skips the external_id uniqueness check: an item can take another case's value",
  'unique.self-conflict': "a PATCH re-sending the case's own external_id is refused as taken (409)",
  'unique.global': 'external_id is unique across all organisations: a value another organisation holds is refused',
  'unique.freed-kept': 'an external_id a case was renamed away from stays reserved: no other case can take it',
  'unique.race': 'PATCH checks external_id uniqueness, waits, then writes: racing PATCHes for one value all succeed',
  'tenant.leak-patch': "PATCH finds cases of every organisation: another organisation's case can be updated",
  'tenant.leak-delete': "DELETE finds cases of every organisation: another organisation's case can be deleted",
  'tenant.leak-bulk-cases':
    "bulk case update finds cases of every organisation: another organisation's cases are updated",
  'tenant.leak-bulk-customers': 'bulk customer update finds customers of every organisation, by id and by external_id',
  'tenant.leak-bulk-checks':
    "bulk check delete finds checks of every organisation: another organisation's checks are deleted",
  'webhook.none': 'no completion webhook is ever sent',
  'webhook.no-checks': 'the webhook body leaves out the checks array',
  'webhook.early':
    'the webhook is sent when the last check starts deciding, before completion, with the case as it is then (is_complete false); none at completion',
  'webhook.stale-checks':
    'the webhook body shows the completed case but its checks as they were when processing started (undecided, no scores)',
  'webhook.no-input-details': 'the webhook body shows every check with input_details null',
  'webhook.twice': 'every completion webhook the receiver acknowledged is sent a second time, 50 ms later',
  'webhook.old-url':
    'a case whose webhook_url changed to another URL while it was processed notifies the URL it had when processing started',
  'webhook.null-notifies':
    'a case whose webhook_url was set to null while it was processed still notifies the URL it had when processing started',
  'webhook.crosstalk': "every webhook carries the body of the organisation's most recently started case",
} as const;

export type FaultName = keyof typeof FAULTS;

export function isFaultName(name: string): name is FaultName {
  return Object.hasOwn(FAULTS, name);
}
