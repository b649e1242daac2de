/** Faults of the token endpoint (requirements TOKEN-*). */
import { z } from 'zod';
import { AnswerNow } from '../http.ts';
import { fault } from '../switches.ts';

const serverError = () => new AnswerNow({ status: 500, body: { error: 'server_error' } });

export const TOKEN_FAULTS = [
  fault('token.accept-wrong-secret', 'issues a token for a known client_id whatever client_secret is sent', () => ({
    secretAccepted: () => true,
  })),
  fault('token.expires-in-string', 'sends expires_in as a string ("3600")', (base) => ({
    tokenBody: (token, ttl) => ({ ...base.tokenBody(token, ttl), expires_in: String(ttl) }),
  })),
  fault('token.any-grant-type', 'accepts any grant_type', () => ({ grantAccepted: () => true })),
  fault(
    'token.grant-type-any-case',
    'accepts client_credentials in any letter case (CLIENT_CREDENTIALS; a SHOULD: the run warns, and fails only ' +
      'with --strict)',
    () => ({ grantAccepted: (g) => typeof g === 'string' && g.toLowerCase() === 'client_credentials' }),
  ),
  fault(
    'token.cacheable',
    'token responses carry no Cache-Control: no-store (a SHOULD: the run warns, and fails only with --strict)',
    () => ({ tokenHeaders: {} }),
  ),
  fault(
    'token.unknown-client-500',
    'a token request for a client_id the server does not know answers 500 (the lookup throws)',
    () => ({
      unknownClient: () => {
        throw serverError();
      },
    }),
  ),
  fault('token.grant-type-default', 'a token request without grant_type is treated as client_credentials', (base) => ({
    tokenFields(fields) {
      const given = base.tokenFields(fields);
      const missing = given.grant_type === undefined || given.grant_type === '';
      return missing ? { ...given, grant_type: 'client_credentials' } : given;
    },
  })),
  fault('token.non-uuid-500', 'a client_id that is not a UUID answers 500 (a database cast error)', (base) => ({
    badTokenRequest(fields, message) {
      if (!z.uuid().safeParse(fields.client_id).success) throw serverError();
      return base.badTokenRequest(fields, message);
    },
  })),
  fault(
    'token.type-not-bearer',
    'tokens are issued with token_type "JWT" (a SHOULD: the run warns, and fails only with --strict)',
    (base) => ({ tokenBody: (token, ttl) => ({ ...base.tokenBody(token, ttl), token_type: 'JWT' }) }),
  ),
];
