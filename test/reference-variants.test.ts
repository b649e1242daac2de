/**
 * The reference server's variant switches, over real HTTP: each one really makes its other
 * legal choice, several combine, alternatives are refused together, and the names round-trip
 * through `screenconf serve --reference-variants` and the run settings.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FaultName } from '../src/reference/faults.ts';
import { createReferenceServer, type ReferenceServer } from '../src/reference/server.ts';
import { VARIANTS, type VariantName } from '../src/reference/variants.ts';
import { resolveConfig } from '../src/runner/config.ts';
import { parseJson, stringifyJson } from '../src/base/json.ts';
import { Case, compareIds, type Id, idPlus } from '../src/spec/index.ts';
import { BIN, cleanEnv, screenconf, tempDir } from './support/cli.ts';

type Json = Record<string, unknown> & { id: number };
interface CaseJson extends Json {
  external_id: string;
  updated_at: string;
  customer: Json & { customer_type: unknown; full_name: string; external_id: string | null };
  checks: (Json & { updated_at: string; risk_score: number | null })[];
  risk_score: number | null;
  is_complete: boolean;
}

/** A running reference server with a token for each organisation, and a way to call it. */
interface Api {
  server: ReferenceServer;
  token: string;
  peerToken: string;
  /** A token for organisation `org`; `withKey`: with its API key as a bearer header (token.bearer-api-key wants it). */
  issue(org: number, withKey?: boolean): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }>;
  call(
    method: string,
    path: string,
    body?: unknown,
    opts?: { token?: string; contentType?: string },
  ): Promise<Response>;
  newCase(body?: Record<string, unknown>, token?: string): Promise<CaseJson>;
}

const opened: ReferenceServer[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function open(variants: VariantName[], faults: FaultName[] = []): Promise<Api> {
  const server = await createReferenceServer({ variants, faults, processing: { stepMs: 5, retryDelaysMs: [50] } });
  opened.push(server);
  const issue = async (org: number, withKey = variants.includes('token.bearer-api-key')) => {
    const o = server.organisations[org]!;
    const res = await fetch(`${server.url}/api/oauth/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(withKey ? { authorization: `Bearer ${o.apiKey}` } : {}) },
      body: JSON.stringify({ client_id: o.clientId, client_secret: o.clientSecret, grant_type: 'client_credentials' }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
  };
  const api: Api = {
    server,
    token: (await issue(0)).body.access_token as string,
    peerToken: (await issue(1)).body.access_token as string,
    issue,
    call(method, path, body, opts = {}) {
      const headers: Record<string, string> = { authorization: `Bearer ${opts.token ?? api.token}` };
      if (body !== undefined) headers['content-type'] = opts.contentType ?? 'application/json';
      return fetch(`${server.url}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    },
    async newCase(body = {}, token) {
      const res = await api.call(
        'POST',
        '/api/cases/',
        {
          customer: { full_name: 'Ann Example' },
          checks: [{ check_type: 'PEP' }, { check_type: 'SANCTIONS' }],
          ...body,
        },
        { token },
      );
      expect(res.status).toBe(201);
      return (await res.json()) as CaseJson;
    },
  };
  return api;
}

const json = async <T = Record<string, unknown>>(res: Response | Promise<Response>) => (await (await res).json()) as T;

/** A local receiver of webhooks: every delivery with its headers and arrival time. */
const deliveries: {
  path: string;
  body: CaseJson & Record<string, unknown>;
  headers: IncomingHttpHeaders;
  at: number;
}[] = [];
let hooks: Server;
let hookUrl: string;
beforeAll(async () => {
  hooks = createServer((req, res) => {
    let text = '';
    req.on('data', (d) => (text += d));
    req.on('end', () => {
      deliveries.push({ path: req.url ?? '', body: JSON.parse(text), headers: req.headers, at: Date.now() });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => hooks.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hook`;
});
afterAll(() => new Promise((r) => hooks.close(r)));

/** A webhook URL of its own (servers of different tests give out the same case ids). */
function hook(): string {
  return `${hookUrl}/${randomUUID()}`;
}

/** The deliveries to a URL, once there are `n` of them (the test's own timeout bounds the wait). */
async function deliveriesTo(url: string, n: number) {
  const path = new URL(url).pathname;
  const mine = () => deliveries.filter((d) => d.path === path);
  while (mine().length < n) await new Promise((r) => setTimeout(r, 20));
  return mine();
}

/** Starts processing and waits until the case is complete; returns it. */
async function processed(api: Api, c: CaseJson): Promise<CaseJson> {
  expect((await api.call('POST', `/api/cases/${c.id}/start/`, {})).status).toBe(202);
  for (;;) {
    const read = await json<CaseJson>(api.call('PATCH', `/api/cases/${c.id}/`, {}));
    if (read.is_complete) return read;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('errors', () => {
  it('tenant.forbidden: another organisation’s records answer 403, bulk items fail as forbidden', async () => {
    const api = await open(['tenant.forbidden']);
    const c = await api.newCase();
    const peer = { token: api.peerToken };
    for (const [method, path, body] of [
      ['GET', `/api/cases/${c.id}/`, undefined],
      ['PATCH', `/api/cases/${c.id}/`, { delete_after: 3 }],
      ['DELETE', `/api/cases/${c.id}/`, undefined],
      ['POST', `/api/cases/${c.id}/start/`, {}],
    ] as const) {
      const res = await api.call(method, path, body, peer);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect((await json(res)).error).toBe('forbidden');
    }
    expect((await api.call('PATCH', '/api/cases/99999999/', {}, peer)).status).toBe(404);
    const bulk = await json<{ results: { error: { code: string } }[] }>(
      api.call('POST', '/api/checks/bulk-delete/', { ids: [c.checks[0]!.id] }, peer),
    );
    expect(bulk.results[0]!.error.code).toBe('forbidden');
    const customers = await json<{ results: { error: { code: string } }[] }>(
      api.call('POST', '/api/customers/bulk-update/', { items: [{ id: c.customer.id, full_name: 'X' }] }, peer),
    );
    expect(customers.results[0]!.error.code).toBe('forbidden');
    expect((await json<CaseJson>(api.call('GET', `/api/cases/${c.id}/`))).checks).toHaveLength(2);
  });

  it('errors.status-422: validation errors answer 422; a body that is not JSON stays 400', async () => {
    const api = await open(['errors.status-422']);
    const c = await api.newCase();
    const res = await api.call('PATCH', `/api/cases/${c.id}/`, { delete_after: 1.5 });
    expect(res.status).toBe(422);
    expect(await json(res)).toMatchObject({ error: 'validation_error', fields: { delete_after: expect.any(Array) } });
    const raw = await fetch(`${api.server.url}/api/cases/${c.id}/`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' },
      body: '{"delete_after":',
    });
    expect(raw.status).toBe(400);
  });

  it('errors.problem-json: every error is application/problem+json with a field list', async () => {
    const api = await open(['errors.problem-json']);
    const c = await api.newCase();
    const res = await api.call('PATCH', `/api/cases/${c.id}/`, { webhook_url: 'ftp://x', delete_after: 1.5 });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const body = await json<{ errors: { pointer: string }[] }>(res);
    expect(body).toMatchObject({ type: expect.stringMatching(/^https:/), title: 'Bad Request', status: 400 });
    expect(typeof (body as unknown as { detail: unknown }).detail).toBe('string');
    expect(body.errors.map((e) => e.pointer).sort()).toEqual(['#/delete_after', '#/webhook_url']);
    const unauthenticated = await fetch(`${api.server.url}/api/cases/${c.id}/`, { method: 'DELETE' });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('www-authenticate')).toContain('Bearer');
    expect(await json(unauthenticated)).toMatchObject({ status: 401, errors: [] });
    const o = api.server.organisations[0]!;
    const token = await fetch(`${api.server.url}/api/oauth/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: o.clientId, client_secret: 'wrong', grant_type: 'client_credentials' }),
    });
    expect(token.headers.get('content-type')).toBe('application/problem+json');
    expect(await json(token)).toMatchObject({ status: 401, error: 'invalid_client', title: 'Unauthorized' });
  });

  it('several variants combine: 422 as a problem document, with a charset', async () => {
    const api = await open(['errors.status-422', 'errors.problem-json', 'http.charset']);
    const c = await api.newCase();
    const res = await api.call('PATCH', `/api/cases/${c.id}/`, { delete_after: 'soon' });
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(await json(res)).toMatchObject({ status: 422, errors: [{ pointer: '#/delete_after' }] });
  });
});

describe('case endpoints', () => {
  it('delete.status-200: DELETE answers 200 with a JSON body, and the case is gone', async () => {
    const api = await open(['delete.status-200']);
    const c = await api.newCase();
    const res = await api.call('DELETE', `/api/cases/${c.id}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await json(res)).toEqual({ id: c.id, deleted: true });
    expect((await api.call('PATCH', `/api/cases/${c.id}/`, {})).status).toBe(404);
  });

  it('delete.absent-no-op: DELETE of a case the caller has not is a 204 doing nothing; by default 404', async () => {
    for (const [variants, status] of [
      [['delete.absent-no-op'], 204],
      [[], 404],
    ] as const) {
      const api = await open([...variants]);
      const theirs = await api.newCase({}, api.peerToken);
      const gone = await api.newCase();
      expect((await api.call('DELETE', `/api/cases/${gone.id}/`)).status).toBe(204);
      expect((await api.call('DELETE', `/api/cases/${gone.id}/`)).status).toBe(status);
      expect((await api.call('DELETE', '/api/cases/99999999/')).status).toBe(status);
      expect((await api.call('DELETE', `/api/cases/${theirs.id}/`)).status).toBe(status);
      expect((await api.call('PATCH', `/api/cases/${theirs.id}/`, {}, { token: api.peerToken })).status).toBe(200);
    }
  });

  it('delete.keeps-customer: the customer of a deleted case can still be updated; by default it is gone', async () => {
    for (const [variants, status] of [
      [['delete.keeps-customer'], 'updated'],
      [[], 'failed'],
    ] as const) {
      const api = await open([...variants]);
      const c = await api.newCase();
      expect((await api.call('DELETE', `/api/cases/${c.id}/`)).status).toBe(204);
      const bulk = await json<{ results: { status: string }[] }>(
        api.call('POST', '/api/customers/bulk-update/', { items: [{ id: c.customer.id, full_name: 'Still here' }] }),
      );
      expect(bulk.results[0]!.status, variants.join() || 'default').toBe(status);
    }
  });

  it.each([
    ['read.get-405', 405],
    ['read.get-404', 404],
    ['read.get-403', 403],
  ] as const)('%s: GET /api/cases/{id}/ answers %i; PATCH and DELETE still work', async (variant, status) => {
    const api = await open([variant]);
    const c = await api.newCase();
    const res = await api.call('GET', `/api/cases/${c.id}/`);
    expect(res.status).toBe(status);
    if (status === 405) expect(res.headers.get('allow')).toBe('PATCH, DELETE');
    expect((await api.call('PATCH', `/api/cases/${c.id}/`, { delete_after: 9 })).status).toBe(200);
    expect((await api.call('DELETE', `/api/cases/${c.id}/`)).status).toBe(204);
  });

  it('read.get-whole-seconds: GET shows timestamps to the second, the answers to writes as made', async () => {
    const api = await open(['read.get-whole-seconds']);
    const c = await api.newCase({ customer: { full_name: 'Whole Seconds' }, checks: [{ check_type: 'PEP' }] });
    const patched = (await (await api.call('PATCH', `/api/cases/${c.id}/`, { delete_after: 9 })).json()) as CaseJson;
    const read = (await (await api.call('GET', `/api/cases/${c.id}/`)).json()) as CaseJson;
    const toSecond = (v: unknown) => String(v).replace(/\.\d+Z$/, '+00:00');
    expect(c.created_at).toMatch(/\.\d{3}Z$/);
    expect(patched.created_at).toBe(c.created_at);
    expect(patched.updated_at).toMatch(/\.\d{3}Z$/);
    expect(read.created_at).toBe(toSecond(c.created_at));
    expect(read.updated_at).toBe(toSecond(patched.updated_at));
    expect(read.checks[0]!.updated_at).toBe(toSecond(patched.checks[0]!.updated_at));
    expect(read.delete_after).toBe(9);
  });

  it('refuses alternatives together, naming both', async () => {
    await expect(createReferenceServer({ variants: ['read.get-405', 'read.get-404'] })).rejects.toThrow(
      /read\.get-405 and read\.get-404 are alternatives/,
    );
    await expect(
      createReferenceServer({ variants: ['bulk.shape-ok-errors', 'bulk.shape-status-per-id'] }),
    ).rejects.toThrow(/alternatives/);
  });

  it("model.save-touches-checks: a PATCH sets the checks' updated_at to the case's", async () => {
    const api = await open(['model.save-touches-checks']);
    const c = await api.newCase();
    await new Promise((r) => setTimeout(r, 5)); // a later millisecond than creation
    const patched = await json<CaseJson>(api.call('PATCH', `/api/cases/${c.id}/`, { delete_after: 4 }));
    expect(patched.updated_at > c.updated_at).toBe(true);
    expect(patched.checks.map((k) => k.updated_at)).toEqual([patched.updated_at, patched.updated_at]);
  });
});

describe('bulk answer shapes', () => {
  /** One batch of each endpoint with a valid and a failing entry. */
  async function batches(api: Api) {
    const c = await api.newCase({ customer: { full_name: 'B', external_id: `ext-${Date.now()}` } });
    const cases = await json(
      api.call('POST', '/api/cases/bulk-update/', { items: [{ id: c.id, delete_after: 2 }, { id: 99999999 }] }),
    );
    const customers = await json(
      api.call('POST', '/api/customers/bulk-update/', {
        items: [{ external_id: c.customer.external_id, full_name: 'C' }, { external_id: 'nobody' }],
      }),
    );
    const checks = await json(api.call('POST', '/api/checks/bulk-delete/', { ids: [c.checks[0]!.id, 99999999] }));
    return { c, cases, customers, checks };
  }

  it('bulk.shape-ok-errors: {results: [{index, id, ok, errors}]}', async () => {
    const { c, cases, checks } = await batches(await open(['bulk.shape-ok-errors']));
    expect(cases).toEqual({
      results: [
        { index: 0, id: c.id, ok: true, errors: [] },
        { index: 1, id: 99999999, ok: false, errors: ['no case with id 99999999'] },
      ],
    });
    expect(checks).toMatchObject({ results: [{ id: c.checks[0]!.id, ok: true }, { ok: false }] });
  });

  it('bulk.shape-succeeded-ids: {succeeded: [ids], errors: [{index, reason}]}', async () => {
    const { c, cases, customers, checks } = await batches(await open(['bulk.shape-succeeded-ids']));
    expect(cases).toEqual({ succeeded: [c.id], errors: [{ index: 1, reason: 'no case with id 99999999' }] });
    expect(customers).toEqual({ succeeded: [c.customer.id], errors: [{ index: 1, reason: expect.any(String) }] });
    expect(checks).toEqual({ succeeded: [c.checks[0]!.id], errors: [{ index: 1, reason: expect.any(String) }] });
  });

  it('a fault applies over a variant: bulk.silent-failure leaves the failed item out of that shape too', async () => {
    const api = await open(['bulk.shape-succeeded-ids'], ['bulk.silent-failure']);
    const { c, cases } = await batches(api);
    expect(cases).toEqual({ succeeded: [c.id], errors: [] });
  });

  it('bulk.shape-status-per-id: {results: [{id, status}]}, check ids for checks', async () => {
    const api = await open(['bulk.shape-status-per-id']);
    const { c, cases, customers, checks } = await batches(api);
    expect(cases).toEqual({
      results: [
        { id: c.id, status: 'updated' },
        { id: 99999999, status: 'not_found' },
      ],
    });
    expect(customers).toEqual({
      results: [
        { id: c.customer.id, external_id: c.customer.external_id, status: 'updated' },
        { id: null, external_id: 'nobody', status: 'not_found' },
      ],
    });
    expect(checks).toEqual({
      results: [
        { id: c.checks[0]!.id, status: 'deleted' },
        { id: 99999999, status: 'not_found' },
      ],
    });
    const invalid = await json(
      api.call('POST', '/api/cases/bulk-update/', { items: [{ id: c.id, delete_after: 'x' }] }),
    );
    expect(invalid).toEqual({ results: [{ id: c.id, status: 'invalid' }] });
  });

  it('bulk.shape-item-labels: {updated | deleted: [what named each item], errors: {"item <i>": […]}}', async () => {
    const api = await open(['bulk.shape-item-labels']);
    const { c, cases, customers, checks } = await batches(api);
    expect(cases).toEqual({ updated: [c.id], errors: { 'item 1': ['no case with id 99999999'] } });
    // The customer named by external_id is listed by it: the answer is in the request's terms.
    expect(customers).toEqual({ updated: [c.customer.external_id], errors: { 'item 1': [expect.any(String)] } });
    expect(checks).toEqual({ deleted: [c.checks[0]!.id], errors: { 'item 1': [expect.any(String)] } });
    const noId = await json(api.call('POST', '/api/customers/bulk-update/', { items: [{ full_name: 'X' }] }));
    expect(noId).toEqual({ updated: [], errors: { 'item 0': [expect.any(String)] } });
  });

  it('bulk.shape-settled: [{status: fulfilled, value} | {status: rejected, reason}], no check value', async () => {
    const { c, cases, customers, checks } = await batches(await open(['bulk.shape-settled']));
    expect(cases).toEqual([
      { status: 'fulfilled', value: { id: c.id } },
      { status: 'rejected', reason: { code: 'not_found', message: 'no case with id 99999999' } },
    ]);
    expect(customers).toEqual([
      { status: 'fulfilled', value: { id: c.customer.id, external_id: c.customer.external_id } },
      { status: 'rejected', reason: { code: 'not_found', message: expect.any(String) } },
    ]);
    expect(checks).toEqual([{ status: 'fulfilled' }, { status: 'rejected', reason: expect.any(Object) }]);
  });
});

describe('bulk limits and checks', () => {
  it('bulk.over-limit-per-item: 101 entries answer 200, each failed, none applied; by default 400', async () => {
    for (const [variants, status] of [
      [['bulk.over-limit-per-item'], 200],
      [[], 400],
    ] as const) {
      const api = await open([...variants]);
      const c = await api.newCase();
      const ids = [c.checks[0]!.id, ...Array.from({ length: 100 }, (_, i) => 90_000_000 + i)];
      const res = await api.call('POST', '/api/checks/bulk-delete/', { ids });
      expect(res.status).toBe(status);
      const items = Array.from({ length: 101 }, () => ({ id: c.id, delete_after: 77 }));
      const cases = await api.call('POST', '/api/cases/bulk-update/', { items });
      expect(cases.status).toBe(status);
      if (status === 200) {
        const body = await json<{ succeeded: number; results: { index: number; status: string }[] }>(cases);
        expect(body.succeeded).toBe(0);
        expect(body.results.map((r) => r.status)).toEqual(Array(101).fill('failed'));
      }
      const read = await json<CaseJson>(api.call('PATCH', `/api/cases/${c.id}/`, {}));
      expect(read.checks.map((k) => k.id)).toEqual(c.checks.map((k) => k.id));
      expect(read.delete_after).not.toBe(77);
    }
  });

  it('bulk.items-metadata-only: an item with webhook_url, external_id or delete_after fails', async () => {
    const api = await open(['bulk.items-metadata-only']);
    const c = await api.newCase();
    const items = [
      { id: c.id, metadata: { a: 1 } },
      { id: c.id, delete_after: 5 },
      { id: c.id, external_id: 'screenconf-metadata-only', metadata: { a: 2 } },
      { id: c.id, webhook_url: 'https://example.com/hook' },
    ];
    const res = await api.call('POST', '/api/cases/bulk-update/', { items });
    expect(res.status).toBe(200);
    const body = await json<{ results: { status: string; error?: { code: string; fields?: unknown } }[] }>(res);
    expect(body.results.map((r) => r.status)).toEqual(['updated', 'failed', 'failed', 'failed']);
    expect(body.results[1]!.error?.fields).toEqual({ delete_after: ['Unknown field.'] });
    const read = await json<CaseJson>(api.call('PATCH', `/api/cases/${c.id}/`, {}));
    expect([read.metadata, read.delete_after, read.external_id]).toEqual([{ a: 1 }, c.delete_after, c.external_id]);
    // PATCH takes them all.
    expect((await api.call('PATCH', `/api/cases/${c.id}/`, { delete_after: 5 })).status).toBe(200);
  });

  it("bulk.keep-last-check: a case's last check fails as an item, the one before goes; by default both", async () => {
    for (const [variants, left] of [
      [['bulk.keep-last-check'], 1],
      [[], 0],
    ] as const) {
      const api = await open([...variants]);
      const c = await api.newCase();
      const body = await json<{ results: { status: string; error?: { code: string } }[] }>(
        api.call('POST', '/api/checks/bulk-delete/', { ids: c.checks.map((k) => k.id) }),
      );
      expect(body.results.map((r) => r.status)).toEqual(left ? ['deleted', 'failed'] : ['deleted', 'deleted']);
      if (left) expect(body.results[1]!.error?.code).toBe('last_check');
      const read = await json<CaseJson>(api.call('PATCH', `/api/cases/${c.id}/`, {}));
      expect(read.checks).toHaveLength(left);
    }
  });

  it('bulk.case-summary-*: bulk case updates answer a summary of each case updated, and the failures', async () => {
    for (const [variant, fields] of [
      ['bulk.case-summary-complete', ['id', 'external_id', 'is_complete']],
      ['bulk.case-summary-outcome', ['id', 'external_id', 'outcome', 'note', 'updated_at']],
    ] as const) {
      const api = await open([variant]);
      const c = await api.newCase();
      const body = await json<{ updated: Record<string, unknown>[]; errors: unknown[] }>(
        api.call('POST', '/api/cases/bulk-update/', { items: [{ id: c.id, delete_after: 2 }, { id: 99999999 }] }),
      );
      expect(body.updated).toHaveLength(1);
      expect(Object.keys(body.updated[0]!)).toEqual(fields);
      expect(body.updated[0]!.id).toBe(c.id);
      expect(body.errors).toEqual([{ index: 1, id: 99999999, detail: 'no case with id 99999999' }]);
    }
  });
});

describe('tokens', () => {
  it('token.bearer-api-key: a token request without a bearer API key is refused with a challenge', async () => {
    const api = await open(['token.bearer-api-key']);
    const without = await api.issue(0, false);
    expect(without.status).toBe(401);
    expect(without.body.error).toBe('invalid_client');
    expect(without.headers.get('www-authenticate')).toMatch(/^Bearer/);
    // Any organisation's key opens the endpoint; the client credentials still decide whose token it is.
    const o = api.server.organisations[1]!;
    const res = await fetch(`${api.server.url}/api/oauth/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${o.apiKey}` },
      body: JSON.stringify({ client_id: o.clientId, client_secret: 'wrong', grant_type: 'client_credentials' }),
    });
    expect(res.status).toBe(401);
    expect((await api.issue(0, true)).status).toBe(200);
    expect((await open([])).token).toBeTruthy();
  });

  it('token.short-lived: expires_in 5, and the token is refused after 5 s', async () => {
    const api = await open(['token.short-lived']);
    const issued = await api.issue(0);
    expect(issued.body.expires_in).toBe(5);
    const token = issued.body.access_token as string;
    expect((await api.call('PATCH', '/api/cases/1/', {}, { token })).status).toBe(404); // authenticated
    await new Promise((r) => setTimeout(r, 5100)); // the expiry itself is under test
    expect((await api.call('PATCH', '/api/cases/1/', {}, { token })).status).toBe(401);
  });

  it("token.one-per-client: a new token revokes the client's earlier ones, not another client's", async () => {
    const api = await open(['token.one-per-client']);
    const first = api.token;
    const second = (await api.issue(0)).body.access_token as string;
    expect((await api.call('PATCH', '/api/cases/1/', {}, { token: first })).status).toBe(401);
    expect((await api.call('PATCH', '/api/cases/1/', {}, { token: second })).status).toBe(404);
    expect((await api.call('PATCH', '/api/cases/1/', {}, { token: api.peerToken })).status).toBe(404);
  });
});

describe('strings', () => {
  it('text.nfc: external_id, webhook_url and customer names are stored NFC-normalised', async () => {
    const api = await open(['text.nfc']);
    const c = await api.newCase({ customer: { full_name: 'Rene\u0301' } });
    expect(c.customer.full_name).toBe('Ren\u00e9');
    const patched = await json<CaseJson>(
      api.call('PATCH', `/api/cases/${c.id}/`, {
        external_id: `cafe\u0301-${c.id}`,
        webhook_url: 'https://x.test/e\u0301',
      }),
    );
    expect(patched.external_id).toBe(`caf\u00e9-${c.id}`);
    expect(patched.webhook_url).toBe('https://x.test/\u00e9');
    await api.call('POST', '/api/customers/bulk-update/', { items: [{ id: c.customer.id, external_id: 'A\u030a' }] });
    expect((await json<CaseJson>(api.call('GET', `/api/cases/${c.id}/`))).customer.external_id).toBe('\u00c5');
  });

  it('text.trim: strings are stored without surrounding whitespace; blank ones are refused', async () => {
    const api = await open(['text.trim']);
    const c = await api.newCase({ customer: { full_name: '  Ann  ', external_id: ' a-1 ' } });
    expect(c.customer).toMatchObject({ full_name: 'Ann', external_id: 'a-1' });
    const patched = await json<CaseJson>(
      api.call('PATCH', `/api/cases/${c.id}/`, { external_id: `  t-${c.id}\n`, webhook_url: ' https://x.test/h ' }),
    );
    expect(patched).toMatchObject({ external_id: `t-${c.id}`, webhook_url: 'https://x.test/h' });
    expect((await api.call('PATCH', `/api/cases/${c.id}/`, { external_id: '   ' })).status).toBe(400);
  });

  it('limit.utf16: 257 emoji (514 UTF-16 units) exceed the 512 limit; by default they fit', async () => {
    const value = '😀'.repeat(257);
    for (const [variants, status] of [
      [['limit.utf16'], 400],
      [[], 200],
    ] as const) {
      const api = await open([...variants]);
      const c = await api.newCase();
      const res = await api.call('PATCH', `/api/cases/${c.id}/`, { external_id: value });
      expect(res.status, variants.join() || 'default').toBe(status);
    }
    const api = await open(['limit.utf16']);
    const c = await api.newCase();
    expect((await api.call('PATCH', `/api/cases/${c.id}/`, { external_id: '😀'.repeat(256) })).status).toBe(200);
  });
});

describe('representations', () => {
  it('read.extra-fields: cases, checks, customers, tokens, bulk answers and webhooks carry more fields', async () => {
    const api = await open(['read.extra-fields']);
    expect((await api.issue(0)).body.scope).toEqual(expect.any(String));
    const url = hook();
    const c = await api.newCase({ webhook_url: url });
    expect(Case.safeParse(c).success).toBe(true);
    expect(c).toMatchObject({
      version: expect.any(Number),
      etag: expect.any(String),
      _links: { self: { href: `/api/cases/${c.id}/` } },
    });
    expect(c.customer._links).toBeDefined();
    expect(c.checks.every((k) => k._links !== undefined)).toBe(true);
    const bulk = await json(api.call('POST', '/api/cases/bulk-update/', { items: [{ id: c.id, delete_after: 1 }] }));
    expect(bulk).toMatchObject({ succeeded: 1, request_id: expect.any(String) });
    await processed(api, c);
    const [delivery] = await deliveriesTo(url, 1);
    expect(delivery!.body).toMatchObject({ event: 'case.completed', etag: expect.any(String) });
  });

  it('read.checks-descending: checks are listed newest first', async () => {
    const api = await open(['read.checks-descending']);
    const c = await api.newCase({
      checks: [{ check_type: 'PEP' }, { check_type: 'SANCTIONS' }, { check_type: 'IDV' }],
    });
    const ids = c.checks.map((k) => k.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(c.checks.map((k) => k.check_type)).toEqual(['IDV', 'SANCTIONS', 'PEP']);
  });

  it('read.risk-2dp: scores are stored with 2 decimals, the case risk_score their maximum', async () => {
    const api = await open(['read.risk-2dp']);
    const scores: number[] = [];
    for (let i = 0; i < 3; i++) {
      const done = await processed(api, await api.newCase());
      const checkScores = done.checks.map((k) => k.risk_score!);
      expect(done.risk_score).toBe(Math.max(...checkScores));
      scores.push(...checkScores);
    }
    for (const s of scores) expect(Math.round(s * 100) / 100).toBe(s);
  });

  it('read.customer-type-blank: a customer without a type shows ""; by default null', async () => {
    expect((await (await open(['read.customer-type-blank'])).newCase()).customer.customer_type).toBe('');
    expect((await (await open([])).newCase()).customer.customer_type).toBe(null);
  });
});

describe('states of a case', () => {
  const read = (api: Api, id: number) => json<CaseJson>(api.call('GET', `/api/cases/${id}/`));

  it('by default an information check (INFO_BLOCK) is decided with a risk score of exactly 0', async () => {
    const api = await open([]);
    const done = await processed(api, await api.newCase({ checks: [{ check_type: 'INFO_BLOCK' }] }));
    const [info] = done.checks;
    expect([info!.status, info!.outcome, info!.risk_score]).toEqual(['DECIDED', 'ACCEPTED', 0]);
    expect(done.risk_score).toBe(0);
  });

  it('processing.info-skipped: an INFO_BLOCK check ends SKIPPED, unscored, and its case completes', async () => {
    const api = await open(['processing.info-skipped']);
    const done = await processed(
      api,
      await api.newCase({ checks: [{ check_type: 'INFO_BLOCK' }, { check_type: 'PEP' }] }),
    );
    const [info, pep] = done.checks;
    expect([info!.status, info!.outcome, info!.risk_score]).toEqual(['SKIPPED', null, null]);
    expect(pep!.status).toBe('DECIDED');
    expect(done.risk_score).toBe(pep!.risk_score);
  });

  it('processing.documents-awaited: a KYB check stays PENDING and its case is never completed', async () => {
    const api = await open(['processing.documents-awaited']);
    const c = await api.newCase({ checks: [{ check_type: 'PEP' }, { check_type: 'KYB_BANK_STATEMENT' }] });
    expect((await api.call('POST', `/api/cases/${c.id}/start/`, {})).status).toBe(202);
    // Once the PEP check is decided, processing has reached the KYB check: ten steps more would complete the case.
    let seen = await read(api, c.id);
    while (seen.checks[0]!.status !== 'DECIDED') {
      await new Promise((r) => setTimeout(r, 5));
      seen = await read(api, c.id);
    }
    await new Promise((r) => setTimeout(r, 50));
    const later = await read(api, c.id);
    expect(later.is_complete).toBe(false);
    expect(later.checks.map((k) => k.status)).toEqual(['DECIDED', 'PENDING']);
  });

  it('cases.empty-start-refused: starting a case without checks answers 409; one with checks starts', async () => {
    const api = await open(['cases.empty-start-refused']);
    const empty = await api.newCase({ checks: [] });
    expect((await api.call('POST', `/api/cases/${empty.id}/start/`, {})).status).toBe(409);
    const c = await api.newCase();
    expect((await api.call('POST', `/api/cases/${c.id}/start/`, {})).status).toBe(202);
  });
});

describe('webhooks', () => {
  it('webhook.slow: the webhook arrives 3 s after the case completed', async () => {
    const api = await open(['webhook.slow']);
    const url = hook();
    const done = await processed(api, await api.newCase({ webhook_url: url }));
    const [delivery] = await deliveriesTo(url, 1);
    // updated_at is the completion time. The delay is timed from the event loop's cached clock, which can lag
    // Date.now() by the work of a busy loop turn; a webhook without the variant arrives within milliseconds.
    expect(delivery!.at - Date.parse(done.updated_at)).toBeGreaterThanOrEqual(2500);
  });

  it('webhook.at-least-once: every webhook comes twice, both with the same Webhook-Id', async () => {
    const api = await open(['webhook.at-least-once']);
    const url = hook();
    await processed(api, await api.newCase({ webhook_url: url }));
    const [a, b] = await deliveriesTo(url, 2);
    expect(a!.headers['webhook-id']).toEqual(expect.any(String));
    expect(b!.headers['webhook-id']).toBe(a!.headers['webhook-id']);
    expect(b!.body).toEqual(a!.body);
  });
});

describe('HTTP and ids', () => {
  it('ids.large-sparse: ids start above 10^12 and are not consecutive', async () => {
    const api = await open(['ids.large-sparse']);
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const c = await api.newCase();
      ids.push(c.customer.id, c.id, ...c.checks.map((k) => k.id));
    }
    expect(ids.every((id) => Number.isSafeInteger(id) && id > 10 ** 12)).toBe(true);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids.slice(1).some((id, i) => id - ids[i]! > 1)).toBe(true);
    expect((await api.call('PATCH', `/api/cases/${ids[1]}/`, { delete_after: 5 })).status).toBe(200);
  });

  it('ids.above-2^53: ids above 2^62, none a safe JS number, each found and written by its exact id', async () => {
    const api = await open(['ids.above-2^53']);
    const send = async (method: string, path: string, body?: unknown, contentType = 'application/json') => {
      const res = await fetch(`${api.server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${api.token}`, 'content-type': contentType },
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : stringifyJson(body) }),
      });
      const text = await res.text();
      return { status: res.status, body: (text ? parseJson(text) : undefined) as BigCase };
    };
    type BigCase = { id: Id; delete_after: number; customer: { id: Id }; checks: { id: Id }[] };
    const made: BigCase[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await send('POST', '/api/cases/', {
        customer: { full_name: 'Ann Example' },
        checks: [{ check_type: 'PEP' }, { check_type: 'SANCTIONS' }],
      });
      expect(res.status).toBe(201);
      made.push(res.body);
    }
    const ids = made.flatMap((c) => [c.customer.id, c.id, ...c.checks.map((k) => k.id)]);
    expect(ids.every((id) => typeof id === 'bigint' && id > 2n ** 62n)).toBe(true);
    // JSON.parse reads them as other numbers (at 2^62 a double is exact only every 1024).
    expect(ids.filter((id) => BigInt(Number(id)) !== id).length).toBeGreaterThan(ids.length / 2);
    expect(ids).toEqual([...ids].sort(compareIds));
    expect(ids.slice(1).some((id, i) => BigInt(id) - BigInt(ids[i]!) > 1n)).toBe(true);
    const [a, b] = made as [BigCase, BigCase];
    const patched = await send('PATCH', `/api/cases/${a.id}/`, { delete_after: 5 });
    expect([patched.status, patched.body.id]).toEqual([200, a.id]);
    expect((await send('PATCH', `/api/cases/${idPlus(a.id, 1)}/`, {})).status).toBe(404);
    const bulk = await send('POST', '/api/cases/bulk-update/', { items: [{ id: b.id, delete_after: 7 }] });
    expect(bulk.status).toBe(200);
    expect(stringifyJson(bulk.body)).toContain(`"id":${b.id}`);
    const form = await send(
      'POST',
      '/api/checks/bulk-delete/',
      `ids=${a.checks[0]!.id}`,
      'application/x-www-form-urlencoded',
    );
    expect(form.status).toBe(200);
    const [readA, readB] = [await send('GET', `/api/cases/${a.id}/`), await send('GET', `/api/cases/${b.id}/`)];
    expect([readA.body.delete_after, readB.body.delete_after]).toEqual([5, 7]);
    expect(readA.body.checks.map((k) => k.id)).toEqual([a.checks[1]!.id]);
  });

  it('ids.doubles-above-2^53: even ids above 2^53, read as doubles: N.5 names N in a body and a path', async () => {
    const api = await open(['ids.doubles-above-2^53']);
    /** A request whose body is sent as this exact text (a number JSON.stringify would not write). */
    const send = async (method: string, path: string, text?: string) => {
      const res = await fetch(`${api.server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' },
        ...(text === undefined ? {} : { body: text }),
      });
      const answer = await res.text();
      return { status: res.status, body: (answer ? parseJson(answer) : undefined) as BigCase };
    };
    type BigCase = { id: Id; delete_after: number; customer: { id: Id }; checks: { id: Id }[] };
    const made: BigCase[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await send('POST', '/api/cases/', '{"customer":{"full_name":"Ann Example"},"checks":[{},{}]}');
      expect(res.status).toBe(201);
      made.push(res.body);
    }
    const ids = made.flatMap((c) => [c.customer.id, c.id, ...c.checks.map((k) => k.id)]);
    // Past 2^53 and each one a double holds exactly: JSON.parse reads every id as itself.
    expect(ids.every((id) => typeof id === 'bigint' && id > 2n ** 53n && id < 2n ** 54n)).toBe(true);
    expect(ids.every((id) => BigInt(Number(id)) === id)).toBe(true);
    expect(ids).toEqual([...ids].sort(compareIds));
    const [a, b, c] = made as [BigCase, BigCase, BigCase];
    // Read as a double, N.5 is N: a bulk item, a check delete entry and a path all act on N.
    const bulk = await send('POST', '/api/cases/bulk-update/', `{"items":[{"id":${a.id}.5,"delete_after":7}]}`);
    expect(bulk.status).toBe(200);
    const checks = await send('POST', '/api/checks/bulk-delete/', `{"ids":[${b.checks[0]!.id}.5]}`);
    expect(checks.status).toBe(200);
    expect((await send('PATCH', `/api/cases/${c.id}.5/`, '{"delete_after":9}')).body.id).toBe(c.id);
    expect((await send('PATCH', `/api/cases/${c.id}e0/`, '{}')).status).toBe(200);
    // 2^53 + 1 is 2^53 to a double: delete_after outside int32 however it is read.
    expect((await send('PATCH', `/api/cases/${a.id}/`, '{"delete_after":9007199254740993}')).status).toBe(400);
    const read = async (x: BigCase) => (await send('GET', `/api/cases/${x.id}/`)).body;
    expect([(await read(a)).delete_after, (await read(c)).delete_after]).toEqual([7, 9]);
    expect((await read(b)).checks.map((k) => k.id)).toEqual([b.checks[1]!.id]);
    // No integer to Number(): not a case.
    for (const text of ['abc', `${c.id}abc`, `-${c.id}`, '0'])
      expect((await send('GET', `/api/cases/${text}/`)).status).toBe(404);
  });

  it('numbers.lenient: an id in digit groups (1_0), as Python int() reads it, is that id', async () => {
    const api = await open(['numbers.lenient']);
    const c = await api.newCase();
    const grouped = `${String(c.id).slice(0, -1) || '0'}_${String(c.id).slice(-1)}`;
    expect((await api.call('PATCH', `/api/cases/${grouped}/`, { delete_after: 11 })).status).toBe(200);
    const bulk = await api.call('POST', '/api/cases/bulk-update/', { items: [{ id: grouped, delete_after: 12 }] });
    expect(bulk.status).toBe(200);
    expect((await json<CaseJson>(api.call('GET', `/api/cases/${c.id}/`))).delete_after).toBe(12);
    expect((await api.call('PATCH', `/api/cases/1__0/`, {})).status).toBe(404);
  });

  it('http.rate-limit: over 100 requests a second a credential gets 429 with Retry-After; others go on', async () => {
    const api = await open(['http.rate-limit']);
    // The server's clock stands still: all 130 fall in one second however slowly a busy machine sends them.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const answers = await Promise.all(Array.from({ length: 130 }, () => api.call('PATCH', '/api/cases/1/', {})));
      const throttled = answers.filter((r) => r.status === 429);
      expect(throttled).toHaveLength(30);
      expect(throttled[0]!.headers.get('retry-after')).toBe('1');
      expect((await api.call('PATCH', '/api/cases/1/', {}, { token: api.peerToken })).status).toBe(404);
      vi.setSystemTime(Date.now() + 1000 * Number(throttled[0]!.headers.get('retry-after')));
      expect((await api.call('PATCH', '/api/cases/1/', {})).status).toBe(404);
    } finally {
      vi.useRealTimers();
    }
  });

  it('auth.lockout: 20 refused credentials lock the address out, the right ones too, for 1 s', async () => {
    for (const variants of [['auth.lockout'], []] as VariantName[][]) {
      const api = await open(variants);
      const c = await api.newCase();
      for (let i = 0; i < 20; i++)
        expect((await api.call('PATCH', `/api/cases/${c.id}/`, {}, { token: `wrong-${i}` })).status).toBe(401);
      const locked = variants.length > 0;
      const own = await api.call('PATCH', `/api/cases/${c.id}/`, {});
      expect(own.status).toBe(locked ? 401 : 200);
      if (!locked) continue;
      // As a wrong credential is refused: the challenge, no Retry-After; the token endpoint too.
      expect(own.headers.get('www-authenticate')).toContain('Bearer');
      expect(own.headers.get('retry-after')).toBeNull();
      expect((await api.issue(0)).status).toBe(401);
      await new Promise((r) => setTimeout(r, 1100));
      expect((await api.call('PATCH', `/api/cases/${c.id}/`, {})).status).toBe(200);
    }
  });

  it('http.charset: JSON answers and webhooks carry charset=utf-8; the default has none', async () => {
    const api = await open(['http.charset']);
    const url = hook();
    const c = await api.newCase({ webhook_url: url });
    const res = await api.call('PATCH', `/api/cases/${c.id}/`, { delete_after: 2 });
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    await processed(api, c);
    const [delivery] = await deliveriesTo(url, 1);
    expect(delivery!.headers['content-type']).toBe('application/json; charset=utf-8');
    const plain = await open([]);
    const d = await plain.newCase();
    expect((await plain.call('PATCH', `/api/cases/${d.id}/`, {})).headers.get('content-type')).toBe('application/json');
  });

  it.each([[['http.charset']], [[]]] as const)(
    'accepts request content types with parameters (variants: %j)',
    async (variants) => {
      const api = await open([...variants]);
      const c = await api.newCase();
      for (const contentType of ['application/json; charset=utf-8', 'application/json;charset=UTF-8']) {
        const res = await api.call('PATCH', `/api/cases/${c.id}/`, { delete_after: 6 }, { contentType });
        expect(res.status, contentType).toBe(200);
      }
    },
  );
});

describe('the command line and the run settings', () => {
  it('screenconf serve --reference-variants starts a server with those variants', async () => {
    const dir = tempDir();
    const file = join(dir, 'credentials.json');
    const child = spawn(
      process.execPath,
      [BIN, 'serve', '--credentials-out', file, '--reference-variants', 'delete.status-200,read.get-405'],
      { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    try {
      while (!existsSync(file) || !output.includes('credentials written')) {
        if (child.exitCode !== null) throw new Error(`serve exited: ${output}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(output).toContain('(variants: delete.status-200, read.get-405)');
      const { baseUrl, organisations } = JSON.parse(readFileSync(file, 'utf8')) as {
        baseUrl: string;
        organisations: { apiKey: string }[];
      };
      const headers = { authorization: `Bearer ${organisations[0]!.apiKey}`, 'content-type': 'application/json' };
      const created = await fetch(`${baseUrl}/api/cases/`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ customer: { full_name: 'Served' } }),
      });
      const { id } = (await created.json()) as { id: number };
      expect((await fetch(`${baseUrl}/api/cases/${id}/`, { headers })).status).toBe(405);
      expect((await fetch(`${baseUrl}/api/cases/${id}/`, { method: 'DELETE', headers })).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('serve lists every variant in its help, and refuses unknown names and alternatives', async () => {
    const help = await screenconf(['serve', '--help']);
    for (const [name, description] of Object.entries(VARIANTS))
      expect(help.stdout).toContain(`${name}: ${description}`);
    const unknown = await screenconf(['serve', '--reference-variants', 'text.nfc,nope']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('SC_USAGE');
    expect(unknown.stderr).toContain('"nope" is not a variant');
    const both = await screenconf(['serve', '--variant', 'read.get-404', '--variant', 'read.get-403']);
    expect(both.status).toBe(2);
    expect(both.stderr).toContain('alternatives');
  });

  it('run takes referenceVariants for the embedded server only', () => {
    const env = { referenceVariants: 'text.nfc, http.charset' };
    expect(resolveConfig({ flags: {}, env, file: {} }).referenceVariants).toEqual(['text.nfc', 'http.charset']);
    const bad = (input: Record<string, unknown>) => () => resolveConfig({ flags: input, env: {}, file: {} });
    expect(bad({ referenceVariants: 'nope' })).toThrow(/--reference-variants .*each must be one of/);
    expect(bad({ referenceVariants: 'read.get-405,read.get-403' })).toThrow(/alternatives/);
    expect(bad({ referenceVariants: 'text.nfc', baseUrl: 'http://127.0.0.1:9/', apiKey: 'k' })).toThrow(
      /applies only to the embedded reference server/,
    );
  });
});
