/** The client against real local listeners: timeouts, body cap, redirects, redaction, tokens. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../src/client/api.ts';
import { TokenSource } from '../src/client/auth.ts';
import { toCurl } from '../src/client/curl.ts';
import { encodeBody } from '../src/client/encode.ts';
import { REDACTED, Redactor } from '../src/base/redact.ts';
import { Transport, targetUrl } from '../src/client/transport.ts';
import { HarnessError, TransportError } from '../src/errors.ts';
import type { Exchange } from '../src/results/exchange.ts';
import { closedAfterEach } from './support/listeners.ts';

const track = closedAfterEach();

async function listen(handler: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<string> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => handler(req, res, body));
  });
  track(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function transport(
  options: Partial<{ timeoutMs: number; maxResponseBytes: number }> = {},
  redactor = new Redactor(),
  log: Exchange[] = [],
) {
  return new Transport({ timeoutMs: 2000, maxResponseBytes: 1024, ...options }, redactor, (e) => log.push(e));
}

describe('Transport', () => {
  it('times out a server that never answers, with a TransportError', async () => {
    // A timeout that did not work would leave the test hanging until vitest's own limit.
    const url = await listen(() => {});
    const err = await transport({ timeoutMs: 200 })
      .send({ method: 'GET', url, headers: {} })
      .catch((e) => e);
    expect(err).toBeInstanceOf(TransportError);
    // Nor does it answer the liveness read after the timeout: a target gone (test/liveness.test.ts).
    expect(err.code).toBe('SC_TARGET_UNREACHABLE');
    expect(err.message).toMatch(
      /no complete answer from .* within 200 ms; the liveness read right after it got none either/,
    );
  });

  it('stops reading a body over the cap', async () => {
    const url = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('x'.repeat(10_000));
    });
    const err = await transport({ maxResponseBytes: 1000 })
      .send({ method: 'GET', url, headers: {} })
      .catch((e) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect(err.code).toBe('SC_TARGET_TOO_LARGE');
  });

  it('does not follow redirects (and so never carries Authorization elsewhere)', async () => {
    let followed = false;
    const other = await listen((_req, res) => {
      followed = true;
      res.end();
    });
    const url = await listen((_req, res) => {
      res.writeHead(302, { location: `${other}/steal` });
      res.end();
    });
    const res = await transport().send({ method: 'GET', url, headers: { authorization: 'Bearer abcdef' } });
    expect(res.status).toBe(302);
    expect(followed).toBe(false);
  });

  it('reports a refused connection as unreachable', async () => {
    const err = await transport()
      .send({ method: 'GET', url: 'http://127.0.0.1:1/', headers: {} })
      .catch((e) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect(err.code).toBe('SC_TARGET_UNREACHABLE');
    expect(err.message).toContain('ECONNREFUSED');
  });

  it('records each exchange with secrets redacted', async () => {
    const url = await listen((_req, res, body) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ echo: body, access_token: 'issued-token-123456' }));
    });
    const log: Exchange[] = [];
    const t = transport({}, new Redactor(['my-client-secret']), log);
    await t.send({
      method: 'POST',
      url,
      headers: { authorization: 'Bearer my-client-secret' },
      body: JSON.stringify({ client_secret: 'my-client-secret' }),
    });
    const text = JSON.stringify(log);
    expect(text).not.toContain('my-client-secret');
    expect(text).not.toContain('issued-token-123456');
    expect(log[0]!.request.headers.authorization).toBe(`Bearer ${REDACTED}`);
  });
});

describe('TokenSource', () => {
  const creds = { clientId: '3f8a4c1e-2b7d-4e9f-a1c3-5d6e7f8a9b0c', clientSecret: 'secret-1' };

  it('caches a token and asks again shortly before it expires', async () => {
    let issued = 0;
    const url = await listen((_req, res) => {
      issued += 1;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ access_token: `token-${issued}-abcdef`, token_type: 'Bearer', expires_in: 100 }));
    });
    let now = 1_000_000;
    const source = new TokenSource(url, creds, transport(), () => now);
    expect(await source.get()).toBe('token-1-abcdef');
    now += 80_000;
    expect(await source.get()).toBe('token-1-abcdef');
    now += 15_000; // within the last tenth of the lifetime
    expect(await source.get()).toBe('token-2-abcdef');
    expect(issued).toBe(2);
  });

  it('shares one request between concurrent callers', async () => {
    let issued = 0;
    const url = await listen((_req, res) => {
      issued += 1;
      setTimeout(
        () => res.end(JSON.stringify({ access_token: 'shared-token', token_type: 'Bearer', expires_in: 3600 })),
        50,
      );
    });
    const source = new TokenSource(url, creds, transport());
    await Promise.all([source.get(), source.get(), source.get()]);
    expect(issued).toBe(1);
  });

  it('turns refused credentials, garbage and silence into HarnessErrors with stable codes', async () => {
    const refused = await listen((_req, res) => {
      res.writeHead(401);
      res.end('{"error":"invalid_client"}');
    });
    expect((await new TokenSource(refused, creds, transport()).get().catch((e) => e)).code).toBe(
      'SC_CREDENTIALS_REJECTED',
    );
    const garbage = await listen((_req, res) => {
      res.writeHead(200);
      res.end('<html>oops</html>');
    });
    const err = await new TokenSource(garbage, creds, transport()).get().catch((e) => e);
    expect(err).toBeInstanceOf(HarnessError);
    expect(err.code).toBe('SC_TARGET_BROKEN');
    expect((await new TokenSource('http://127.0.0.1:1', creds, transport()).get().catch((e) => e)).code).toBe(
      'SC_TARGET_UNREACHABLE',
    );
  });

  // § Authentication 3 documents the token endpoint with a bearer header: an endpoint that wants the API key there.
  const wantsKey = (seen: (string | undefined)[]) =>
    listen((req, res) => {
      seen.push(req.headers.authorization);
      if (req.headers.authorization !== 'Bearer key-abcdef') {
        res.writeHead(401, { 'www-authenticate': 'Bearer' });
        return res.end('{"error":"invalid_client"}');
      }
      res.end(JSON.stringify({ access_token: 'keyed-token', token_type: 'Bearer', expires_in: 3600 }));
    });

  it('sends the API key as a bearer header where the token endpoint wants it, and keeps to it', async () => {
    const seen: (string | undefined)[] = [];
    let now = 1_000_000;
    const source = new TokenSource(await wantsKey(seen), creds, transport(), () => now, { apiKey: 'key-abcdef' });
    expect(source.endpointAuth).toBeUndefined();
    expect(await source.get()).toBe('keyed-token');
    expect(source.endpointAuth).toBe('api-key');
    expect(source.refusedWithoutHeader).toBe(401);
    now += 3_600_000;
    await source.get();
    // Tried without first, once; every later request carries the key.
    expect(seen).toEqual([undefined, 'Bearer key-abcdef', 'Bearer key-abcdef']);
  });

  it('sends it from the start when told, and never without an API key', async () => {
    const seen: (string | undefined)[] = [];
    const url = await wantsKey(seen);
    const told = new TokenSource(url, creds, transport(), Date.now, { apiKey: 'key-abcdef', endpointAuth: 'api-key' });
    expect(await told.get()).toBe('keyed-token');
    expect(seen).toEqual(['Bearer key-abcdef']);
    const err = await new TokenSource(url, creds, transport()).get().catch((e) => e);
    expect(err.code).toBe('SC_CREDENTIALS_REJECTED');
    expect(seen).toHaveLength(2);
  });

  it('does not send the API key to an endpoint that issues tokens without it', async () => {
    const seen: (string | undefined)[] = [];
    const url = await listen((req, res) => {
      seen.push(req.headers.authorization);
      res.end(JSON.stringify({ access_token: 'plain-token', token_type: 'Bearer', expires_in: 3600 }));
    });
    const source = new TokenSource(url, creds, transport(), Date.now, { apiKey: 'key-abcdef' });
    expect(await source.get()).toBe('plain-token');
    expect(source.endpointAuth).toBe('none');
    expect(seen).toEqual([undefined]);
  });

  it('says both answers when the API key does not help either', async () => {
    const refused = await listen((_req, res) => {
      res.writeHead(401);
      res.end('{"error":"invalid_client"}');
    });
    const err = await new TokenSource(refused, creds, transport(), Date.now, { apiKey: 'key-abcdef' })
      .get()
      .catch((e) => e);
    expect(err.code).toBe('SC_CREDENTIALS_REJECTED');
    expect(err.message).toMatch(/HTTP 401 .*sent again with Authorization: Bearer <API key>: HTTP 401/);
    expect(err.message).not.toContain('key-abcdef');
  });
});

describe('ApiClient and encodings', () => {
  it('sends the API key in both schemes and nothing when asked for none', async () => {
    const seen: (string | undefined)[] = [];
    const url = await listen((req, res) => {
      seen.push(req.headers.authorization);
      res.end('{}');
    });
    const api = new ApiClient({ baseUrl: url, transport: transport(), apiKey: 'key-abcdef' });
    await api.patchCase(1, {}, { auth: 'api-key-bearer' });
    await api.patchCase(1, {}, { auth: 'api-key-token' });
    await api.patchCase(1, {}, { auth: 'none' });
    expect(seen).toEqual(['Bearer key-abcdef', 'Token key-abcdef', undefined]);
  });

  it('encodes flat forms and multipart with null as empty and objects as JSON text', () => {
    expect(encodeBody({ a: 'x y', n: 5, z: null, o: { k: 1 }, ids: [1, 2] }, 'form').text).toBe(
      'a=x+y&n=5&z=&o=%7B%22k%22%3A1%7D&ids=1&ids=2',
    );
    const multipart = encodeBody({ webhook_url: 'https://h.example/a' }, 'multipart');
    expect(multipart.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(multipart.text).toContain('name="webhook_url"\r\n\r\nhttps://h.example/a\r\n');
  });

  it('builds a curl reproduction that names secrets by environment variable', () => {
    const curl = toCurl(
      {
        at: '',
        durationMs: 0,
        credential: undefined as never,
        request: {
          method: 'POST',
          url: 'http://127.0.0.1:9/api/oauth/token/',
          headers: { authorization: `Bearer ${REDACTED}` },
          body: `{"client_secret":"${REDACTED}"}`,
          credential: 'api-key',
        },
      } as Exchange,
      'http://127.0.0.1:9',
    );
    expect(curl).toBe(
      `curl -sS -i -X POST "$SCREENCONF_BASE_URL"'/api/oauth/token/' -H 'authorization: Bearer ` +
        `'"$SCREENCONF_API_KEY" --data-binary '{"client_secret":"'"$SCREENCONF_CLIENT_SECRET"'"}'`,
    );
    expect(new Redactor().redact(curl)).toBe(curl);
  });
});

describe('targetUrl', () => {
  it("puts the path after the base URL's own path, as the URL parser writes it", () => {
    expect(targetUrl('https://gw.example.com/screening/', '/api/cases/5/')).toBe(
      'https://gw.example.com/screening/api/cases/5/',
    );
    expect(targetUrl('HTTP://Example.COM:80/x//', '/api/cases/')).toBe('http://example.com/x/api/cases/');
    expect(targetUrl('http://127.0.0.1:4000', 'api/cases/')).toBe('http://127.0.0.1:4000/api/cases/');
    expect(targetUrl('http://127.0.0.1:4000', '/api/a/../b/%2e/c d/')).toBe('http://127.0.0.1:4000/api/b/c%20d/');
    expect(targetUrl('http://127.0.0.1:4000', '/api/cases/?page=2')).toBe('http://127.0.0.1:4000/api/cases/?page=2');
    expect(targetUrl('http://127.0.0.1:4000/p', 'https://other.example/x')).toBe('https://other.example/x');
  });

  it('keeps a base path beginning with // on the base host (the parser reads //name as a host)', () => {
    expect(targetUrl('https://gw.example.com//screening', '/api/cases/5/')).toBe(
      'https://gw.example.com//screening/api/cases/5/',
    );
    expect(targetUrl('https://gw.example.com//screening/', '/api/cases/5/?a=1')).toBe(
      'https://gw.example.com//screening/api/cases/5/?a=1',
    );
  });
});

describe('Redactor', () => {
  it('replaces secrets that hold regular-expression characters, and their URL-encoded form', () => {
    const secret = 'a+b.c$d(e)[f]*?^|\\g';
    const r = new Redactor([secret]);
    expect(r.redact(`x${secret}y ${encodeURIComponent(secret)}`)).toBe(`x${REDACTED}y ${REDACTED}`);
  });

  it('replaces a secret that contains another one whole, however they were added', () => {
    const r = new Redactor(['abcd', 'abcdefgh']);
    expect(r.redact('abcdefgh abcd')).toBe(`${REDACTED} ${REDACTED}`);
    r.add('zzzzzz');
    expect(r.redact('zzzzzz abcdefgh')).toBe(`${REDACTED} ${REDACTED}`);
  });

  it('finds secrets in any header but the credential ones, and secret fields in any case', () => {
    const r = new Redactor(['sk_live_0123']);
    expect(
      r.redactHeaders({ 'content-type': 'application/json', 'X-Echo': 'key sk_live_0123', Cookie: 'a=1' }),
    ).toEqual({
      'content-type': 'application/json',
      'X-Echo': `key ${REDACTED}`,
      Cookie: REDACTED,
    });
    expect(r.redactHeaders({ accept: '*/*', Authorization: 'Token sk_live_0123' })).toEqual({
      accept: '*/*',
      Authorization: `Token ${REDACTED}`,
    });
    expect(r.redact('{"Client_Secret": "x"}&ACCESS_TOKEN=y')).toBe(
      `{"Client_Secret": "${REDACTED}"}&ACCESS_TOKEN=${REDACTED}`,
    );
  });

  it('replaces a secret that an ignore-case alternation in V8 would miss', () => {
    // /sa|sb|ſe/i does not match "ſe": the quick check for a secret must not ignore case.
    const r = new Redactor(['sa00', 'sb00', 'ſe00']);
    expect(r.redact('x ſe00 y')).toBe(`x ${REDACTED} y`);
  });

  it('ignores values too short to be secrets', () => {
    expect(new Redactor(['abc']).redact('abc')).toBe('abc');
  });
});
