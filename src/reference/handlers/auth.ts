/**
 * Authentication (interface § Authentication): a bearer credential on every request, either an
 * access token from the token endpoint or the organisation's API key, as `Bearer` or `Token`.
 */
import type { IncomingMessage } from 'node:http';
import { HttpError } from '../http.ts';
import type { AuthPoints, Env, Op } from '../points.ts';

const REALM = 'Bearer realm="screening"';

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
