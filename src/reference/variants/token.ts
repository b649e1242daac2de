/**
 * Variants of access tokens (interface § Authentication 4: the unit of expires_in is "not shown";
 * a token's lifetime and how many a client may hold are unsaid; § Authentication 3: the token
 * endpoint "is documented with a bearer Authorization header of the form Bearer <token>").
 */
import { randomUUID } from 'node:crypto';
import { JwtSigner } from '../jwt.ts';
import { variant } from '../switches.ts';

export const TOKEN_VARIANTS = [
  variant('token.short-lived', 'access tokens live 5 seconds (expires_in 5), and are refused after', () => ({
    tokenTtlSeconds: 5,
  })),
  variant('token.one-per-client', "a new token for a client revokes that client's earlier tokens", (base, env) => ({
    tokenIssued(clientId, accessToken) {
      base.tokenIssued(clientId, accessToken);
      env.tokens.revokeClient(clientId, accessToken);
    },
  })),
  variant(
    'token.jwt',
    'access tokens are JWTs (HS256: header.payload.signature, the payload naming the client and its organisation), ' +
      'each checked by its signature and against the tokens issued',
    (base) => {
      const signer = new JwtSigner();
      return {
        newAccessToken: (org, ttl) => signer.issue(org, ttl),
        tokenOwner: (credential, op) => (signer.verifies(credential) ? base.tokenOwner(credential, op) : undefined),
      };
    },
    'token-format',
  ),
  variant(
    'token.uuid',
    'access tokens are UUIDs, found in any letter case (a UUID is case-insensitive: RFC 9562 §4)',
    (base) => ({
      newAccessToken: () => randomUUID(),
      tokenOwner: (credential, op) => base.tokenOwner(credential.toLowerCase(), op),
    }),
    'token-format',
  ),
  variant(
    'token.bearer-api-key',
    'the token endpoint wants Authorization: Bearer <API key> (of any organisation) besides the client ' +
      'credentials: without it, 401 invalid_client with a Bearer challenge',
    (_base, env) => ({
      tokenAuthorization(header) {
        const m = /^Bearer\s+(\S+)$/i.exec(header?.trim() ?? '');
        if (m && env.organisations.some((o) => o.apiKey === m[1])) return undefined;
        const answer = env.b.oauthError(401, 'invalid_client', 'the token endpoint needs a bearer API key');
        return { ...answer, headers: { ...answer.headers, ...env.b.challenge('invalid_client') } };
      },
    }),
  ),
];
