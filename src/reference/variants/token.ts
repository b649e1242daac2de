/**
 * Variants of access tokens (interface § Authentication 4: the unit of expires_in is "not shown";
 * a token's lifetime and how many a client may hold are unsaid).
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
];
