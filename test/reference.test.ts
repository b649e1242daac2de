/**
 * The reference server on its own, over real HTTP: its choices where the interface is silent,
 * clean 4xx answers to bad input, tenant separation, token expiry, processing and webhook.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReferenceServer, type ReferenceServer } from '../src/reference/server.ts';
import { Case } from '../src/spec/index.ts';

let server: ReferenceServer;
let token: string;
let peerToken: string;

async function issue(org: number): Promise<string> {
  const o = server.organisations[org]!;
  const res = await fetch(`${server.url}/api/oauth/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: o.clientId, client_secret: o.clientSecret, grant_type: 'client_credentials' }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

function call(
  method: string,
  path: string,
  body?: unknown,
  options: { token?: string; contentType?: string; raw?: string } = {},
) {
  const headers: Record<string, string> = { authorization: `Bearer ${options.token ?? token}` };
  let payload: string | undefined;
  if (options.raw !== undefined || body !== undefined) {
    headers['content-type'] = options.contentType ?? 'application/json';
    payload = options.raw ?? JSON.stringify(body);
  }
  return fetch(`${server.url}${path}`, { method, headers, body: payload });
}

async function newCase(body: Record<string, unknown> = {}) {
  const res = await call('POST', '/api/cases/', {
    customer: { full_name: 'Ann Example' },
    checks: [{ check_type: 'PEP' }, { check_type: 'SANCTIONS' }],
    ...body,
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: number; external_id: string; checks: { id: number }[]; customer: { id: number } };
}

beforeAll(async () => {
  server = await createReferenceServer({ processing: { stepMs: 5, retryDelaysMs: [50] } });
  token = await issue(0);
  peerToken = await issue(1);
});
afterAll(() => server.close());

describe('bad input gets a clear 4xx with a machine-readable body', () => {
  it.each([
    ['invalid JSON', 'PATCH', { raw: '{"webhook_url":' }, 400, 'invalid_json'],
    ['a JSON array body', 'PATCH', { raw: '[1,2]' }, 400, 'invalid_body'],
    ['an unsupported content type', 'PATCH', { raw: 'x', contentType: 'text/plain' }, 415, 'unsupported_media_type'],
    [
      'a body over 1 MiB',
      'PATCH',
      { raw: JSON.stringify({ metadata: { x: 'y'.repeat(1_100_000) } }) },
      413,
      'payload_too_large',
    ],
  ] as const)('%s', async (_label, method, options, status, code) => {
    const c = await newCase();
    const res = await call(method, `/api/cases/${c.id}/`, undefined, options);
    expect(res.status).toBe(status);
    expect(((await res.json()) as { error: string }).error).toBe(code);
  });

  it('names each invalid field', async () => {
    const c = await newCase();
    const res = await call('PATCH', `/api/cases/${c.id}/`, { webhook_url: 'ftp://x', delete_after: 1.5 });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { fields: Record<string, string[]> };
    expect(Object.keys(body.fields).sort()).toEqual(['delete_after', 'webhook_url']);
  });

  it('answers 404 for unknown paths and ids, 405 for wrong methods', async () => {
    expect((await call('GET', '/api/nothing/')).status).toBe(404);
    expect((await call('PATCH', '/api/cases/abc/', {})).status).toBe(404);
    expect((await call('PATCH', '/api/cases/99999999/', {})).status).toBe(404);
    const res = await call('PUT', '/api/cases/1/', {});
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, PATCH, DELETE');
  });

  it('never answers 5xx, whatever JSON is sent to any endpoint', async () => {
    const c = await newCase();
    const paths = [
      '/api/oauth/token/',
      `/api/cases/${c.id}/`,
      '/api/cases/bulk-update/',
      '/api/customers/bulk-update/',
      '/api/checks/bulk-delete/',
      '/api/cases/',
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.constantFrom('POST', 'PATCH'),
        fc.jsonValue(),
        async (path, method, body) => {
          const res = await call(method, path, body);
          await res.arrayBuffer();
          expect(res.status).toBeLessThan(500);
        },
      ),
      { numRuns: 200, seed: 20261122 },
    );
  });
});

describe('organisations are separate', () => {
  it("hides one organisation's cases, customers and checks from the other", async () => {
    const c = await newCase();
    expect((await call('PATCH', `/api/cases/${c.id}/`, { delete_after: 3 }, { token: peerToken })).status).toBe(404);
    expect((await call('DELETE', `/api/cases/${c.id}/`, undefined, { token: peerToken })).status).toBe(404);
    const bulk = await call('POST', '/api/checks/bulk-delete/', { ids: [c.checks[0]!.id] }, { token: peerToken });
    expect(((await bulk.json()) as { failed: number }).failed).toBe(1);
    const read = (await (await call('GET', `/api/cases/${c.id}/`)).json()) as {
      checks: unknown[];
      delete_after: number;
    };
    expect(read.checks).toHaveLength(2);
    expect(read.delete_after).toBe(-1);
  });

  it('keeps external_id unique per organisation only', async () => {
    const a = await newCase();
    const b = await newCase();
    expect((await call('PATCH', `/api/cases/${b.id}/`, { external_id: a.external_id })).status).toBe(409);
    const res = await call(
      'POST',
      '/api/cases/',
      { customer: { full_name: 'Peer' }, external_id: a.external_id },
      { token: peerToken },
    );
    expect(res.status).toBe(201);
  });
});

describe('tokens', () => {
  it('expire after expires_in seconds', async () => {
    const short = await createReferenceServer({ tokenTtlSeconds: 1 });
    try {
      const o = short.organisations[0]!;
      const res = await fetch(`${short.url}/api/oauth/token/`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          client_id: o.clientId,
          client_secret: o.clientSecret,
          grant_type: 'client_credentials',
        }),
      });
      const { access_token, expires_in } = (await res.json()) as { access_token: string; expires_in: number };
      expect(expires_in).toBe(1);
      const probe = () =>
        fetch(`${short.url}/api/cases/1/`, { method: 'PATCH', headers: { authorization: `Bearer ${access_token}` } });
      expect((await probe()).status).toBe(404); // authenticated; no such case
      await new Promise((r) => setTimeout(r, 1100));
      const expired = await probe();
      expect(expired.status).toBe(401);
      expect(expired.headers.get('www-authenticate')).toContain('invalid_token');
    } finally {
      await short.close();
    }
  });
});

describe('processing and the completion webhook', () => {
  let hooks: Server;
  let hookUrl: string;
  const deliveries: { body: unknown; at: number }[] = [];
  let failNext = 0;
  beforeAll(async () => {
    hooks = createServer((req, res) => {
      let text = '';
      req.on('data', (d) => (text += d));
      req.on('end', () => {
        if (failNext > 0) {
          failNext -= 1;
          res.writeHead(500).end();
          return;
        }
        deliveries.push({ body: JSON.parse(text), at: Date.now() });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => hooks.listen(0, '127.0.0.1', r));
    hookUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hook`;
  });
  afterAll(() => new Promise((r) => hooks.close(r)));

  async function waitForDeliveries(n: number) {
    const deadline = Date.now() + 5000;
    while (deliveries.length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  }

  it('decides every check, completes the case and POSTs it to webhook_url', async () => {
    const c = await newCase({ webhook_url: hookUrl });
    expect((await call('POST', `/api/cases/${c.id}/start/`, {})).status).toBe(202);
    await waitForDeliveries(1);
    const body = Case.parse(deliveries.at(-1)!.body);
    expect(body.id).toBe(c.id);
    expect(body.is_complete).toBe(true);
    expect(body.checks.every((k) => k.status === 'DECIDED' && k.risk_score !== null)).toBe(true);
    expect(body.risk_score).toBe(Math.max(...body.checks.map((k) => k.risk_score!)));
  });

  it('retries a delivery the receiver refused', async () => {
    const before = deliveries.length;
    failNext = 1;
    const c = await newCase({ webhook_url: hookUrl });
    await call('POST', `/api/cases/${c.id}/start/`, {});
    await waitForDeliveries(before + 1);
    expect(deliveries.length).toBe(before + 1);
    expect(failNext).toBe(0);
  });

  it('sends nothing for a case without webhook_url', async () => {
    const before = deliveries.length;
    const c = await newCase();
    await call('POST', `/api/cases/${c.id}/start/`, {});
    const deadline = Date.now() + 3000;
    let complete = false;
    while (!complete && Date.now() < deadline) {
      complete = ((await (await call('GET', `/api/cases/${c.id}/`)).json()) as { is_complete: boolean }).is_complete;
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(complete).toBe(true);
    await new Promise((r) => setTimeout(r, 100));
    expect(deliveries.length).toBe(before);
  });
});
