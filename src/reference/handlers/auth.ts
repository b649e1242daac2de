/**
 * Authentication (interface § Authentication): a bearer credential on every request, either an
 * access token from the token endpoint or the organisation's API key, as `Bearer` or `Token`.
 */
import type { IncomingMessage } from 'node:http';
import type { Env, Op } from '../behaviour.ts';
import { HttpError } from '../http.ts';
import type { TenantCredentials } from '../organisations.ts';
import type { IssuedToken } from '../tokens.ts';

const REALM = 'Bearer realm="screening"';

export interface AuthPoints {
  /** The headers of a 401 answer: the challenge, with its error parameter when there is one. */
  challenge(error?: string): Record<string, string>;
  /** A request without an Authorization header: refused (or let through as an organisation). */
  missingCredentials(): string;
  /** The scheme and credential of an Authorization header; undefined when it is not "<scheme> <credential>". */
  parseAuthorization(header: string): { scheme: 'bearer' | 'token'; credential: string } | undefined;
  /** An Authorization header that is not "<scheme> <credential>". */
  malformedCredentials(): string;
  /** A credential no organisation holds, sent to `path`. */
  unknownCredential(path: string): string;
  /** The live access token a credential is, for this operation. */
  tokenOwner(credential: string, op: Op): IssuedToken | undefined;
  /** The organisation whose API key a credential is, for this operation. */
  apiKeyOwner(credential: string, op: Op): TenantCredentials | undefined;
  /** Whether an access token opens this operation. */
  tokenOpens(op: Op): boolean;
  /** Whether an organisation's API key sent in this scheme opens this operation. */
  apiKeyOpens(scheme: 'bearer' | 'token', op: Op): boolean;
  /** Called once a bulk operation has run for the organisation its credential opened: throws to refuse it after all. */
  afterBulk(req: IncomingMessage, op: Op): void;
  /** Counts a request of a caller (a credential or a client); throws to refuse it. */
  throttle(caller: string): void;
  /** Called for every request before it is routed, the token endpoint's too: throws to refuse it (a lockout). */
  admit(req: IncomingMessage): void;
  /** Called when a request is refused for its credential (missing, malformed, or one that opens nothing). */
  credentialRefused(req: IncomingMessage): void;
}

/** The correct authentication: a 401 with a challenge for anything but a live token or an API key. */
export function authDefaults(env: Env): AuthPoints {
  const refuse = (code: string, message: string, error?: string): never => {
    throw new HttpError(401, code, message, {}, env.b.challenge(error));
  };
  return {
    challenge: (error) => ({ 'www-authenticate': error ? `${REALM}, error="${error}"` : REALM }),
    missingCredentials: () => refuse('not_authenticated', 'authentication credentials were not provided'),
    // RFC 9110 §11.1, §11.4: the scheme is case-insensitive, and one or more spaces come before the credential.
    parseAuthorization: (header) => {
      const m = /^(Bearer|Token)\s+(\S+)$/i.exec(header.trim());
      return m ? { scheme: m[1]!.toLowerCase() as 'bearer' | 'token', credential: m[2]! } : undefined;
    },
    malformedCredentials: () =>
      refuse('invalid_authorization', 'Authorization header must be "Bearer <credential>"', 'invalid_request'),
    unknownCredential: () => refuse('invalid_token', 'the credential is invalid or expired', 'invalid_token'),
    tokenOwner: (credential) => env.tokens.live(credential),
    apiKeyOwner: (credential) => env.organisations.find((o) => o.apiKey === credential),
    tokenOpens: () => true,
    apiKeyOpens: () => true,
    afterBulk: () => {},
    throttle: () => {},
    admit: () => {},
    credentialRefused: () => {},
  };
}

/** The organisation a request acts for; throws a refusal when its credential opens nothing. */
export function authenticate(env: Env, req: IncomingMessage, op: Op): string {
  try {
    return organisationFor(env, req, op);
  } catch (err) {
    if (err instanceof HttpError && err.status === 401) env.b.credentialRefused(req);
    throw err;
  }
}

function organisationFor(env: Env, req: IncomingMessage, op: Op): string {
  const header = req.headers.authorization;
  if (header === undefined) return env.b.missingCredentials();
  const parsed = env.b.parseAuthorization(header);
  if (!parsed) return env.b.malformedCredentials();
  const { scheme, credential } = parsed;
  const org = organisationOf(env, scheme, credential, op);
  if (org === undefined) return env.b.unknownCredential(new URL(req.url ?? '/', 'http://reference.invalid').pathname);
  env.b.throttle(credential);
  return org;
}

function organisationOf(env: Env, scheme: 'bearer' | 'token', credential: string, op: Op): string | undefined {
  if (scheme === 'bearer' && env.b.tokenOpens(op)) {
    const token = env.b.tokenOwner(credential, op);
    if (token) return token.org;
  }
  const byKey = env.b.apiKeyOwner(credential, op);
  if (byKey && env.b.apiKeyOpens(scheme, op)) return byKey.name;
  return undefined;
}
