/** Faults of authentication (requirements AUTH-*). */
import { HttpError } from '../http.ts';
import { fault } from '../switches.ts';

export const AUTH_FAULTS = [
  fault(
    'auth.accept-missing',
    'lets requests without an Authorization header through, as the first organisation',
    (_b, env) => ({
      missingCredentials: () => env.organisations[0]!.name,
    }),
  ),
  fault('auth.accept-any-bearer', 'accepts any bearer credential, as the first organisation', (_b, env) => ({
    unknownCredential: () => env.organisations[0]!.name,
  })),
  fault('auth.api-key-rejected', 'refuses the API key in the Bearer scheme', () => ({
    apiKeyOpens: (scheme) => scheme !== 'bearer',
  })),
  fault(
    'auth.api-key-refused-by-delete',
    'DELETE /api/cases/{id}/ refuses the API key (401); every other endpoint takes it',
    (base) => ({ apiKeyOpens: (scheme, op) => op !== 'delete' && base.apiKeyOpens(scheme, op) }),
  ),
  fault(
    'auth.token-refused-by-bulk',
    'the bulk endpoints refuse access tokens (they take the API key only); PATCH and DELETE take both',
    () => ({ tokenOpens: (op) => !op.startsWith('bulk-') }),
  ),
  fault(
    'auth.malformed-500',
    'an Authorization header that is not "<scheme> <credential>" answers 500 (the header is split without a check)',
    () => ({
      malformedCredentials: () => {
        throw new HttpError(500, 'server_error', 'internal error');
      },
    }),
  ),
  fault(
    'auth.no-www-authenticate',
    '401 answers carry no WWW-Authenticate header (a SHOULD: the run warns, and fails only with --strict)',
    () => ({ challenge: () => ({}) }),
  ),
];
