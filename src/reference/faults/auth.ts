/** Faults of authentication (requirements AUTH-*). */
import { HttpError } from '../http.ts';
import { fault } from '../switches.ts';
import type { IssuedToken } from '../tokens.ts';
import type { Env } from '../points.ts';

/** How many leading characters the prefix-index faults compare. */
const INDEXED = 32;

/** A credential's first INDEXED characters; undefined for a shorter one. */
const head = (c: string) => (c.length >= INDEXED ? c.slice(0, INDEXED) : undefined);

/** The live access token that begins with the same INDEXED characters as a credential. */
function tokenByHead(env: Env, credential: string): IssuedToken | undefined {
  const h = head(credential);
  return h ? env.tokens.find((t) => head(t) === h) : undefined;
}

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
    'auth.credential-first-32',
    `a credential is found by its first ${INDEXED} characters (an index on a prefix of the column): one that ` +
      'begins as an issued token or API key does opens as it',
    (base, env) => ({
      tokenOwner: (credential, op) => base.tokenOwner(credential, op) ?? tokenByHead(env, credential),
      apiKeyOwner: (credential, op) =>
        base.apiKeyOwner(credential, op) ??
        (head(credential) ? env.organisations.find((o) => head(o.apiKey) === head(credential)) : undefined),
    }),
  ),
  fault(
    'auth.bulk-verified-after',
    `the bulk endpoints find the organisation by an access token's first ${INDEXED} characters, run the batch, and ` +
      'only then compare the whole token (an after-hook): a token that begins as ours is refused 401, but its ' +
      'batch was applied',
    (base, env) => ({
      tokenOwner: (credential, op) =>
        base.tokenOwner(credential, op) ?? (op.startsWith('bulk-') ? tokenByHead(env, credential) : undefined),
      afterBulk(req, op) {
        base.afterBulk(req, op);
        const parsed = env.b.parseAuthorization(req.headers.authorization ?? '');
        const exact = parsed && (base.tokenOwner(parsed.credential, op) ?? base.apiKeyOwner(parsed.credential, op));
        if (parsed && !exact) base.unknownCredential(new URL(req.url ?? '/', 'http://reference.invalid').pathname);
      },
    }),
  ),
  fault(
    'auth.api-key-case-insensitive',
    'the API key is compared without regard to letter case (a case-insensitive collation)',
    (base, env) => ({
      apiKeyOwner: (credential, op) =>
        base.apiKeyOwner(credential, op) ??
        env.organisations.find((o) => o.apiKey.toLowerCase() === credential.toLowerCase()),
    }),
  ),
  fault(
    'auth.bulk-token-prefix',
    "the bulk endpoints' own authentication matches an access token with startsWith the wrong way round: a " +
      'truncated token, or any prefix of one, opens them',
    (base, env) => ({
      tokenOwner: (credential, op) =>
        base.tokenOwner(credential, op) ??
        (op.startsWith('bulk-') ? env.tokens.find((t) => t.startsWith(credential)) : undefined),
    }),
  ),
  fault(
    'auth.scheme-exact',
    'only "Bearer" and "Token" spelt so, followed by one space, are read as a scheme (the header is split on its ' +
      'first space and compared as it is): "bearer <token>" is refused (a SHOULD: the run warns, and fails only ' +
      'with --strict)',
    () => ({
      parseAuthorization: (header) => {
        const m = /^(Bearer|Token) ([^ ]+)$/.exec(header);
        return m ? { scheme: m[1] === 'Bearer' ? 'bearer' : 'token', credential: m[2]! } : undefined;
      },
    }),
  ),
  fault(
    'auth.refusal-echoes-case',
    'a request to /api/cases/{id}/ with a credential no organisation holds is refused 401, with the case in the ' +
      "body (the case is loaded, and put in the error's context, before the credential is checked)",
    (base, env) => ({
      unknownCredential(path) {
        const id = Number(/^\/api\/cases\/(\d+)\/$/.exec(path)?.[1]);
        const held = env.organisations.map((o) => env.store.getCase(o.name, id)).find((c) => c !== undefined);
        if (!held) return base.unknownCredential(path);
        try {
          return base.unknownCredential(path);
        } catch (err) {
          if (!(err instanceof HttpError)) throw err;
          throw new HttpError(
            err.status,
            err.code,
            err.message,
            { ...err.extra, case: env.b.caseView(held) },
            err.headers,
          );
        }
      },
    }),
  ),
  fault(
    'auth.no-www-authenticate',
    '401 answers carry no WWW-Authenticate header (a SHOULD: the run warns, and fails only with --strict)',
    () => ({ challenge: () => ({}) }),
  ),
];
