/**
 * Faults of a token's lifetime that no wait of the run shows (requirement AUTH-TOKEN-LIFETIME; issue 33 §9): a
 * token stated to live 3600 s stops opening endpoints within a second of its issue (short enough that every proof
 * run outlives it). The run renews it where it is
 * refused and goes on, so every check passes; only the record of those renewals shows it (runner/token-renewals.ts).
 */
import { fault } from '../switches.ts';

/** How long after its issue a token opens anything, though its expires_in says 3600. */
const DIES_AFTER_MS = 200;
/** How long after its issue the bulk endpoints still take a token (their own cache of tokens). */
const BULK_TAKES_MS = 600;

export const TOKEN_LIFETIME_FAULTS = [
  fault(
    'token.dies-early',
    `access tokens are issued with expires_in 3600 but stop opening anything ${DIES_AFTER_MS} ms after their issue ` +
      '(the lifetime stated and the one enforced are two settings that drifted apart) (a SHOULD: the run warns, and ' +
      'fails only with --strict)',
    () => ({ tokenTtlSeconds: 3600, tokenLifetimeMs: () => DIES_AFTER_MS }),
  ),
  fault(
    'token.bulk-forgets-early',
    `the bulk endpoints take an access token for ${BULK_TAKES_MS} ms after its issue only (a cache of their ` +
      'own), though its expires_in said 3600; PATCH and DELETE take it as long as stated (a SHOULD: the run warns, ' +
      'and fails only with --strict)',
    (base, env) => ({
      tokenTtlSeconds: 3600,
      tokenOwner: (credential, op) => {
        const token = base.tokenOwner(credential, op);
        if (!token || !op.startsWith('bulk-')) return token;
        const issuedAt = token.expiresAt - env.b.tokenLifetimeMs(env.b.tokenTtlSeconds);
        return Date.now() - issuedAt > BULK_TAKES_MS ? undefined : token;
      },
    }),
  ),
];
