/**
 * Faults of credentials taken by their parts (requirements AUTH-REQUIRED-WRONG, AUTH-CREDENTIAL-TRAILING-TEXT; issue
 * 33 §7): what an ordinary server gets wrong where a credential has a structure. A JWT library given a key the client
 * knows, a signature checked only when there is one, an API key found by its key id or without its prefix, an
 * Authorization header split on spaces. Each is caught only by the variations made by the credential's parts
 * (spec/credential-parts.ts): a character changed, cut short or suffixed is still refused.
 */
import { decodeJwt, JwtSigner } from '../jwt.ts';
import type { Env, Op } from '../points.ts';
import { fault, type Switch } from '../switches.ts';
import type { IssuedToken } from '../tokens.ts';
import { claimedLive } from './token.ts';

/** The separators an API key's parts are joined with. */
const SEPARATOR = /[._-]/;

/** The case endpoints (/api/cases/{id}/: GET, PATCH, DELETE), which one fault's key check serves. */
const CASE_OPS: readonly Op[] = ['read', 'patch', 'delete'];

/** A signer with an empty key: what a key setting left unset signs with. */
const EMPTY_KEY = new JwtSigner('');

/**
 * A server issuing HS256 JWTs with a key of its own: a token it signed is looked up as issued; any other is taken
 * only where `lenient` (the fault) takes it.
 */
function jwtServer(lenient: (credential: string, op: Op, env: Env) => IssuedToken | undefined): Switch['apply'] {
  return (base, env) => {
    const signer = new JwtSigner();
    return {
      newAccessToken: (org, ttl) => signer.issue(org, ttl),
      tokenOwner: (credential, op) =>
        signer.verifies(credential) ? base.tokenOwner(credential, op) : lenient(credential, op, env),
    };
  };
}

export const CREDENTIAL_PART_FAULTS = [
  fault(
    'token.jwt-client-secret',
    "issues JWT access tokens signed HS256 with the client's own secret, and takes any token the secret of the " +
      'client its sub names verifies, without a record of the tokens issued: a client can sign tokens of its own',
    (_base, env) => ({
      newAccessToken: (org, ttl) => new JwtSigner(org.clientSecret).issue(org, ttl),
      tokenOwner: (credential) => {
        const org = env.organisations.find((o) => o.clientId === decodeJwt(credential)?.claims.sub);
        const exp = decodeJwt(credential)?.claims.exp;
        if (!org || typeof exp !== 'number' || exp * 1000 <= Date.now()) return undefined;
        if (!new JwtSigner(org.clientSecret).verifies(credential)) return undefined;
        return { org: org.name, clientId: org.clientId, expiresAt: exp * 1000 };
      },
    }),
  ),
  fault(
    'token.jwt-empty-key-bulk',
    'the bulk endpoints check a JWT against a list of keys whose second is an unset setting (an empty key), and ' +
      'take its organisation from its claims: a token the client signs with an empty key opens the bulk endpoints ' +
      'as any organisation it names',
    jwtServer((credential, op, env) =>
      op.startsWith('bulk-') && EMPTY_KEY.verifies(credential) ? claimedLive(env, credential) : undefined,
    ),
  ),
  fault(
    'token.jwt-signature-optional',
    'issues JWT access tokens (HS256) and checks the signature only when the token has one: "header.payload." ' +
      'opens as the organisation its claims name',
    jwtServer((credential, _op, env) =>
      credential.endsWith('.') && decodeJwt(credential)?.header.alg === 'HS256'
        ? claimedLive(env, credential)
        : undefined,
    ),
  ),
  fault(
    'auth.api-key-first-segment',
    'the case endpoints (GET, PATCH, DELETE /api/cases/{id}/) find an API key by its key id (what precedes its ' +
      'first separator) and compare the rest only when the credential has one: "sk" alone opens as the first ' +
      'organisation',
    (base, env) => ({
      apiKeyOwner: (credential, op) =>
        base.apiKeyOwner(credential, op) ??
        (CASE_OPS.includes(op) && !SEPARATOR.test(credential)
          ? env.organisations.find((o) => o.apiKey.split(SEPARATOR)[0] === credential)
          : undefined),
    }),
  ),
  fault(
    'auth.api-key-prefix-optional-bulk',
    'the bulk endpoints take an API key with or without its prefix: what follows its first separator ("sk_" left ' +
      'out) opens as the whole key does',
    (base, env) => ({
      apiKeyOwner: (credential, op) =>
        base.apiKeyOwner(credential, op) ??
        (op.startsWith('bulk-')
          ? env.organisations.find((o) => o.apiKey.slice(o.apiKey.search(SEPARATOR) + 1) === credential)
          : undefined),
    }),
  ),
  fault(
    'auth.credential-second-word',
    'the Authorization header is split on spaces and its second word taken as the credential: "Bearer <valid> x" ' +
      'opens (a SHOULD: the run warns, and fails only with --strict)',
    () => ({
      parseAuthorization: (header) => {
        const [scheme, credential] = header.trim().split(/\s+/);
        const s = scheme?.toLowerCase();
        return (s === 'bearer' || s === 'token') && credential ? { scheme: s, credential } : undefined;
      },
    }),
  ),
];
