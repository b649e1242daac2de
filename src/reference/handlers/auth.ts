/**
 * Authentication (interface § Authentication): a bearer credential on every request, either an
 * access token from the token endpoint or the organisation's API key, as `Bearer` or `Token`.
 */
import type { IncomingMessage } from 'node:http';
import type { Env, Op } from '../behaviour.ts';
import { HttpError } from '../http.ts';

const REALM = 'Bearer realm="screening"';

export interface AuthPoints {
  /** The headers of a 401 answer: the challenge, with its error parameter when there is one. */
  challenge(error?: string): Record<string, string>;
  /** A request without an Authorization header: refused (or let through as an organisation). */
  missingCredentials(): string;
  /** An Authorization header that is not "<scheme> <credential>". */
  malformedCredentials(): string;
  /** A credential no organisation holds. */
  unknownCredential(): string;
  /** Whether an access token opens this operation. */
  tokenOpens(op: Op): boolean;
  /** Whether an organisation's API key sent in this scheme opens this operation. */
  apiKeyOpens(scheme: 'bearer' | 'token', op: Op): boolean;
  /** Counts a request of a caller (a credential or a client); throws to refuse it. */
  throttle(caller: string): void;
}

/** The correct authentication: a 401 with a challenge for anything but a live token or an API key. */
export function authDefaults(env: Env): AuthPoints {
  const refuse = (code: string, message: string, error?: string): never => {
    throw new HttpError(401, code, message, {}, env.b.challenge(error));
  };
  return {
    challenge: (error) => ({ 'www-authenticate': error ? `${REALM}, error="${error}"` : REALM }),
    missingCredentials: () => refuse('not_authenticated', 'authentication credentials were not provided'),
    malformedCredentials: () =>
      refuse('invalid_authorization', 'Authorization header must be "Bearer <credential>"', 'invalid_request'),
    unknownCredential: () => refuse('invalid_token', 'the credential is invalid or expired', 'invalid_token'),
    tokenOpens: () => true,
    apiKeyOpens: () => true,
    throttle: () => {},
  };
}

/** The organisation a request acts for; throws a refusal when its credential opens nothing. */
export function authenticate(env: Env, req: IncomingMessage, op: Op): string {
  const header = req.headers.authorization;
  if (header === undefined) return env.b.missingCredentials();
  const m = /^(Bearer|Token)\s+(\S+)$/i.exec(header.trim());
  if (!m) return env.b.malformedCredentials();
  const scheme = m[1]!.toLowerCase() as 'bearer' | 'token';
  const credential = m[2]!;
  const org = organisationOf(env, scheme, credential, op);
  if (org === undefined) return env.b.unknownCredential();
  env.b.throttle(credential);
  return org;
}

function organisationOf(env: Env, scheme: 'bearer' | 'token', credential: string, op: Op): string | undefined {
  if (scheme === 'bearer' && env.b.tokenOpens(op)) {
    const token = env.tokens.live(credential);
    if (token) return token.org;
  }
  const byKey = env.organisations.find((o) => o.apiKey === credential);
  if (byKey && env.b.apiKeyOpens(scheme, op)) return byKey.name;
  return undefined;
}
