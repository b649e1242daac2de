/**
 * POST /api/oauth/token/: the OAuth 2.0 client credentials grant (interface § POST
 * /api/oauth/token/; errors as RFC 6749 §5.2). Any Authorization header is ignored (tokenAuthorization).
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { TokenRequest } from '../../spec/index.ts';
import type { Env } from '../behaviour.ts';
import { type Answer, readRequestBody } from '../http.ts';
import type { TenantCredentials } from '../organisations.ts';
import { fieldErrors } from '../validation.ts';

export interface TokenPoints {
  /** The refusal of a token request for its Authorization header, or undefined to go on (by default: ignored). */
  tokenAuthorization(header: string | undefined): Answer | undefined;
  /** The fields of a token request, before they are checked. */
  tokenFields(fields: Record<string, unknown>): Record<string, unknown>;
  /** Whether a grant_type is served. */
  grantAccepted(grantType: unknown): boolean;
  /** The answer to a token request whose fields are of the wrong form (`message` names them). */
  badTokenRequest(fields: Record<string, unknown>, message: string): Answer;
  /** The answer to a token request for a client_id no organisation has. */
  unknownClient(clientId: string): Answer;
  /** Whether a client_secret authenticates an organisation's client. */
  secretAccepted(org: TenantCredentials, secret: string): boolean;
  /** The lifetime of a new access token, in seconds. */
  tokenTtlSeconds: number;
  /** The body of a successful token response. */
  tokenBody(accessToken: string, ttlSeconds: number): Record<string, unknown>;
  /** The headers of a successful token response. */
  tokenHeaders: Record<string, string>;
  /** Called when a token has been issued to a client. */
  tokenIssued(clientId: string, accessToken: string): void;
  /** An OAuth error answer (RFC 6749 §5.2). */
  oauthError(status: number, error: string, description: string): Answer;
}

/** The correct token endpoint: Bearer tokens of the configured lifetime, never cached. */
export function tokenDefaults(env: Env): TokenPoints {
  return {
    tokenAuthorization: () => undefined,
    tokenFields: (fields) => fields,
    grantAccepted: (grantType) => grantType === 'client_credentials',
    badTokenRequest: (_fields, message) => env.b.oauthError(400, 'invalid_request', message),
    unknownClient: () => env.b.oauthError(401, 'invalid_client', 'client authentication failed'),
    secretAccepted: (org, secret) => org.clientSecret === secret,
    tokenTtlSeconds: env.options.tokenTtlSeconds,
    tokenBody: (accessToken, ttlSeconds) => ({
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: ttlSeconds,
    }),
    tokenHeaders: { 'cache-control': 'no-store', pragma: 'no-cache' },
    tokenIssued: () => {},
    oauthError: (status, error, description) => ({
      status,
      body: { error, error_description: description },
      headers: { 'cache-control': 'no-store' },
    }),
  };
}

/** Answers a token request. */
export async function issueToken(env: Env, req: IncomingMessage): Promise<Answer> {
  const { b } = env;
  const body = await readRequestBody(req, {}, ['application/json', 'application/x-www-form-urlencoded']);
  const refused = b.tokenAuthorization(req.headers.authorization);
  if (refused) return refused;
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    return b.oauthError(400, 'invalid_request', 'body must be an object');
  const fields = b.tokenFields(body as Record<string, unknown>);
  for (const f of ['client_id', 'client_secret', 'grant_type']) {
    if (fields[f] === undefined || fields[f] === null || fields[f] === '')
      return b.oauthError(400, 'invalid_request', `${f} is required`);
  }
  if (!b.grantAccepted(fields.grant_type))
    return b.oauthError(400, 'unsupported_grant_type', 'only client_credentials is supported');
  const parsed = TokenRequest.omit({ grant_type: true }).safeParse(fields);
  if (!parsed.success) {
    const message = Object.entries(fieldErrors(parsed.error))
      .map(([k, v]) => `${k}: ${v.join(', ')}`)
      .join('; ');
    return b.badTokenRequest(fields, message);
  }
  const org = env.organisations.find((o) => o.clientId === parsed.data.client_id);
  if (!org) return b.unknownClient(parsed.data.client_id);
  if (!b.secretAccepted(org, parsed.data.client_secret))
    return b.oauthError(401, 'invalid_client', 'client authentication failed');
  b.throttle(`client ${org.clientId}`);
  const accessToken = randomBytes(32).toString('base64url');
  const ttl = b.tokenTtlSeconds;
  env.tokens.add(accessToken, { org: org.name, clientId: org.clientId, expiresAt: Date.now() + ttl * 1000 });
  b.tokenIssued(org.clientId, accessToken);
  return { status: 200, body: b.tokenBody(accessToken, ttl), headers: b.tokenHeaders };
}
