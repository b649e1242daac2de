/**
 * Variants of access tokens (interface § Authentication 4: the unit of expires_in is "not shown";
 * a token's lifetime and how many a client may hold are unsaid; § Authentication 3: the token
 * endpoint "is documented with a bearer Authorization header of the form Bearer <token>").
 */
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
