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
  'delete.noop': 'DELETE answers 204 but keeps the case',
} as const;

export type FaultName = keyof typeof FAULTS;

export function isFaultName(name: string): name is FaultName {
  return Object.hasOwn(FAULTS, name);
}
