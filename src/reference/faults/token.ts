/** Faults of the token endpoint (requirements TOKEN-*). */
import { z } from 'zod';
import { AnswerNow } from '../http.ts';
import { claimedToken, decodeJwt, JwtSigner } from '../jwt.ts';
import { fault } from '../switches.ts';
import type { IssuedToken } from '../tokens.ts';
import type { Env } from '../points.ts';

const serverError = () => new AnswerNow({ status: 500, body: { error: 'server_error' } });

/** The token a JWT-shaped credential's payload claims to be, taken without its signature, while its exp lasts. */
export function claimedLive(env: Env, credential: string): IssuedToken | undefined {
  const decoded = decodeJwt(credential);
  const claimed = decoded && claimedToken(decoded.claims, env.organisations);
  return claimed && claimed.expiresAt > Date.now() ? claimed : undefined;
}

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
  fault(
    'token.jwt-unverified',
    'issues JWT access tokens and reads them without checking the signature (decode instead of verify): any ' +
      'signature, or a payload naming another organisation, opens',
    (_base, env) => {
      const signer = new JwtSigner();
      return { newAccessToken: (org, ttl) => signer.issue(org, ttl), tokenOwner: (c) => claimedLive(env, c) };
    },
  ),
  fault(
    'token.jwt-alg-none',
    'issues JWT access tokens and checks their HS256 signature, but takes a token whose header says alg "none" ' +
      'unsigned (the algorithm is read from the token)',
    (base, env) => {
      const signer = new JwtSigner();
      return {
        newAccessToken: (org, ttl) => signer.issue(org, ttl),
        tokenOwner: (credential, op) =>
          String(decodeJwt(credential)?.header.alg).toLowerCase() === 'none'
            ? claimedLive(env, credential)
            : base.tokenOwner(credential, op),
      };
    },
  ),
  fault(
    'token.expiry-not-enforced',
    'access tokens are issued with expires_in 2 and still open everything after (the expiry is never compared) ' +
      '(a SHOULD: the run warns, and fails only with --strict)',
    (_base, env) => ({ tokenTtlSeconds: 2, tokenOwner: (credential) => env.tokens.issued(credential) }),
  ),
  fault(
    'token.expires-early',
    'access tokens are issued with expires_in 10 but stop opening anything after 3 s (the lifetime stated and the ' +
      'one enforced are two settings that drifted apart) (a SHOULD: the run warns, and fails only with --strict)',
    () => ({ tokenTtlSeconds: 10, tokenLifetimeMs: () => 3000 }),
  ),
];
