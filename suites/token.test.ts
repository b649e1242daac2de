/** POST /api/oauth/token/: client-credentials tokens (interface § Endpoints, § Authentication). */
import { stringifyJson } from '../src/base/json.ts';
import { randomUUID } from 'node:crypto';
import { describe } from 'vitest';
import { check, expectRejected, expectSchema, expectStatus, fail, type CheckApi } from '../src/kit/index.ts';
import { TokenResponse } from '../src/spec/index.ts';

function credentials(t: CheckApi) {
  const { clientId, clientSecret } = t.primary.credentials;
  if (!clientId || !clientSecret) t.skip('no client credentials configured (API key only)');
  return { clientId, clientSecret };
}

function validBody(t: CheckApi) {
  const { clientId, clientSecret } = credentials(t);
  return { client_id: clientId, client_secret: clientSecret, grant_type: 'client_credentials' };
}

/** A rejection must also issue nothing. */
function expectNoToken(json: unknown, what: string) {
  if (json && typeof json === 'object' && 'access_token' in json)
    fail(what, 'no access_token in a rejection', stringifyJson(json), { judged: [json] });
}

describe('token endpoint', () => {
  check(
    'valid client credentials get a token with access_token, token_type and expires_in',
    ['TOKEN-ISSUE'],
    async (t) => {
      const res = await t.primary.api.requestToken(validBody(t));
      expectStatus(res, 200, 'token request with valid client credentials');
      const mediaType = (res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (mediaType !== 'application/json')
        fail('token response content type', 'application/json', res.headers['content-type'] ?? '(none)', {
          judged: [res],
          expect: { header: { name: 'content-type', contains: 'application/json' } },
        });
      const body = expectSchema(TokenResponse, res.json, 'token response body', [res]);
      if (body.access_token === '') fail('token response access_token', 'a non-empty string', '""', { judged: [res] });
    },
  );

  check('token_type is Bearer', ['TOKEN-TYPE-BEARER'], async (t) => {
    const res = await t.primary.api.requestToken(validBody(t));
    expectStatus(res, 200, 'token request with valid client credentials');
    const type = (res.json as { token_type?: unknown })?.token_type;
    if (typeof type !== 'string' || type.toLowerCase() !== 'bearer')
      fail('token_type', '"Bearer"', stringifyJson(type), { judged: [res] });
  });

  check('token response is not cacheable (Cache-Control: no-store)', ['TOKEN-NO-STORE'], async (t) => {
    const res = await t.primary.api.requestToken(validBody(t));
    expectStatus(res, 200, 'token request with valid client credentials');
    const cc = res.headers['cache-control'] ?? '';
    if (!/\bno-store\b/i.test(cc))
      fail('Cache-Control of the token response', 'no-store', cc || '(no Cache-Control header)', {
        judged: [res],
        expect: { header: { name: 'cache-control', contains: 'no-store' } },
      });
  });

  check('expires_in value is recorded', ['TOKEN-EXPIRES-IN-UNIT'], async (t) => {
    const res = await t.primary.api.requestToken(validBody(t));
    const value = (res.json as { expires_in?: unknown })?.expires_in;
    const asSeconds = typeof value === 'number' ? ` (${(value / 3600).toFixed(2)} h if seconds)` : '';
    t.observe('TOKEN-EXPIRES-IN-UNIT', `HTTP ${res.status}; expires_in = ${stringifyJson(value)}${asSeconds}`);
  });

  check('a wrong client_secret is rejected', ['TOKEN-REJECT-WRONG-SECRET'], async (t) => {
    const body = { ...validBody(t), client_secret: `${credentials(t).clientSecret}-wrong` };
    const res = await t.primary.api.requestToken(body);
    expectRejected(res, 'token request with a wrong client_secret');
    expectNoToken(res.json, 'token request with a wrong client_secret');
  });

  check('an unknown client_id is rejected', ['TOKEN-REJECT-UNKNOWN-CLIENT'], async (t) => {
    const res = await t.primary.api.requestToken({ ...validBody(t), client_id: randomUUID() });
    expectRejected(res, 'token request for an unknown client_id');
    expectNoToken(res.json, 'token request for an unknown client_id');
  });

  check('a grant_type other than client_credentials is rejected', ['TOKEN-REJECT-GRANT-TYPE'], async (t) => {
    for (const grant of ['password', 'authorization_code', 'refresh_token']) {
      const res = await t.primary.api.requestToken({ ...validBody(t), grant_type: grant });
      expectRejected(res, `token request with grant_type "${grant}"`);
      expectNoToken(res.json, `token request with grant_type "${grant}"`);
    }
  });

  // Another letter case of the one value: the interface lists the value, RFC 6749 §1.9 makes values case-sensitive.
  check('client_credentials in another letter case is rejected', ['TOKEN-GRANT-TYPE-CASE'], async (t) => {
    const res = await t.primary.api.requestToken({ ...validBody(t), grant_type: 'CLIENT_CREDENTIALS' });
    expectRejected(res, 'token request with grant_type "CLIENT_CREDENTIALS"');
    expectNoToken(res.json, 'token request with grant_type "CLIENT_CREDENTIALS"');
  });

  check(
    'a request missing client_id, client_secret or grant_type is rejected',
    ['TOKEN-REJECT-MISSING-FIELD'],
    async (t) => {
      for (const field of ['client_id', 'client_secret', 'grant_type'] as const) {
        const body: Record<string, string> = { ...validBody(t) };
        delete body[field];
        const res = await t.primary.api.requestToken(body);
        expectRejected(res, `token request without ${field}`);
        expectNoToken(res.json, `token request without ${field}`);
      }
    },
  );

  check('a client_id that is not a UUID is rejected', ['TOKEN-REJECT-NON-UUID-CLIENT-ID'], async (t) => {
    for (const clientId of ['not-a-uuid', `${credentials(t).clientId}0`, '']) {
      const res = await t.primary.api.requestToken({ ...validBody(t), client_id: clientId });
      expectRejected(res, `token request with client_id ${stringifyJson(clientId)}`);
      expectNoToken(res.json, `token request with client_id ${stringifyJson(clientId)}`);
    }
  });

  // Every token request of the run carries what the endpoint was found to want (none, or the API key as a bearer
  // header, § Authentication 3): this one goes the other way, so what the endpoint does with each is recorded.
  check(
    'a token request with the bearer Authorization header, or without it where the endpoint wants it',
    ['TOKEN-ENDPOINT-BEARER-HEADER'],
    async (t) => {
      if (!t.primary.api.hasApiKey) t.skip('no API key configured to send as the bearer header');
      const wanted = t.primary.api.tokenEndpointAuth === 'api-key';
      const res = await t.primary.api.requestToken(validBody(t), { auth: wanted ? 'none' : 'api-key-bearer' });
      const issued = typeof (res.json as { access_token?: unknown })?.access_token === 'string';
      const answer = `HTTP ${res.status}, ${issued ? 'a token was issued' : 'no token issued'}`;
      t.observe(
        'TOKEN-ENDPOINT-BEARER-HEADER',
        wanted
          ? `the endpoint refused a token request without an Authorization header, and the run's token requests ` +
              `carry Authorization: Bearer <API key>; without it: ${answer}`
          : 'the endpoint issues tokens without an Authorization header; with Authorization: Bearer <API key>: ' +
              answer,
      );
    },
  );
});
