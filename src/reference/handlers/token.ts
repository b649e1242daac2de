/**
 * POST /api/oauth/token/: the OAuth 2.0 client credentials grant (interface § POST
 * /api/oauth/token/; errors as RFC 6749 §5.2). Any Authorization header is ignored (tokenAuthorization).
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { TokenRequest } from '../../spec/index.ts';
import { type Answer, readRequestBody } from '../http.ts';
import { fieldErrors } from '../validation.ts';
import type { Env, TokenPoints } from '../points.ts';

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
    tokenLifetimeMs: (ttlSeconds) => ttlSeconds * 1000,
    newAccessToken: () => randomBytes(32).toString('base64url'),
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
  const body = await readRequestBody(req, {}, ['application/json', 'application/x-www-form-urlencoded'], (text) =>
    b.jsonBody('token', text),
  );
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
  const ttl = b.tokenTtlSeconds;
  const accessToken = b.newAccessToken(org, ttl);
  env.tokens.add(accessToken, {
    org: org.name,
    clientId: org.clientId,
    expiresAt: Date.now() + b.tokenLifetimeMs(ttl),
  });
  b.tokenIssued(org.clientId, accessToken);
  return { status: 200, body: b.tokenBody(accessToken, ttl), headers: b.tokenHeaders };
}
