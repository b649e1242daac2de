/**
 * The embedded reference server: a correct implementation of every endpoint the interface
 * shows, plus the provisioning conventions of DESIGN.md. State lives in memory. Fault
 * switches (faults.ts) break one requirement each, for the self-tests.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { BulkCaseUpdateRequest, BulkCheckDeleteRequest, BulkCustomerUpdateRequest, TokenRequest } from '../spec/index.ts';
import type { FaultName } from './faults.ts';
import { HttpError, readRequestBody, sendError, sendJson, type FormFieldKind } from './http.ts';
import { DEFAULT_PROCESSING, Processor, type ProcessingOptions } from './processing.ts';
import { caseView } from './representation.ts';
import { MemoryStore, type CaseRecord, type Store } from './store.ts';
import { CaseCreate, fieldErrors, parseOr400, ReferenceBulkCaseItem, ReferenceBulkCustomerItem, ReferenceCasePatch } from './validation.ts';

export interface Organisation {
  name: string;
  clientId: string;
  clientSecret: string;
  apiKey: string;
}

export interface ReferenceServerOptions {
  port?: number;
  host?: string;
  faults?: Iterable<FaultName>;
  processing?: Partial<ProcessingOptions>;
  /** Lifetime of an access token, in seconds. */
  tokenTtlSeconds?: number;
  organisations?: Organisation[];
}

export interface ReferenceServer {
  readonly url: string;
  readonly organisations: readonly Organisation[];
  readonly store: Store;
  close(): Promise<void>;
}

const FORM_KINDS: Record<string, FormFieldKind> = {
  delete_after: 'integer',
  metadata: 'json',
  sync_platforms: 'json',
  items: 'json',
  ids: 'integer-list',
  id: 'integer',
};

const REALM = 'Bearer realm="screening"';

function newOrganisation(name: string): Organisation {
  return {
    name,
    clientId: randomUUID(),
    clientSecret: `cs_${randomBytes(24).toString('base64url')}`,
    apiKey: `sk_${randomBytes(24).toString('base64url')}`,
  };
}

export async function createReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  const faults = new Set<FaultName>(options.faults ?? []);
  const organisations = options.organisations ?? [newOrganisation('org-1'), newOrganisation('org-2')];
  const tokenTtl = options.tokenTtlSeconds ?? 3600;
  const store: Store = new MemoryStore();
  const processor = new Processor(store, faults, { ...DEFAULT_PROCESSING, ...options.processing });
  const tokens = new Map<string, { org: string; expiresAt: number }>();

  function authenticate(req: IncomingMessage): string {
    const header = req.headers.authorization;
    const fallback = organisations[0]!.name;
    if (header === undefined) {
      if (faults.has('auth.accept-missing')) return fallback;
      throw new HttpError(401, 'not_authenticated', 'authentication credentials were not provided', {}, { 'www-authenticate': REALM });
    }
    const m = /^(Bearer|Token)\s+(\S+)$/i.exec(header.trim());
    if (!m) {
      throw new HttpError(401, 'invalid_authorization', 'Authorization header must be "Bearer <credential>"', {}, {
        'www-authenticate': `${REALM}, error="invalid_request"`,
      });
    }
    const scheme = m[1]!.toLowerCase();
    const credential = m[2]!;
    const token = tokens.get(credential);
    if (token && scheme === 'bearer') {
      if (token.expiresAt > Date.now()) return token.org;
      tokens.delete(credential);
    }
    const byKey = organisations.find((o) => o.apiKey === credential);
    if (byKey && !(scheme === 'bearer' && faults.has('auth.api-key-rejected'))) return byKey.name;
    if (faults.has('auth.accept-any-bearer')) return fallback;
    throw new HttpError(401, 'invalid_token', 'the credential is invalid or expired', {}, { 'www-authenticate': `${REALM}, error="invalid_token"` });
  }

  async function issueToken(req: IncomingMessage, res: ServerResponse) {
    const body = await readRequestBody(req, {}, ['application/json', 'application/x-www-form-urlencoded']);
    const oauthError = (status: number, error: string, description: string) => {
      sendJson(res, status, { error, error_description: description }, { 'cache-control': 'no-store' });
    };
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return oauthError(400, 'invalid_request', 'body must be an object');
    const fields = body as Record<string, unknown>;
    for (const f of ['client_id', 'client_secret', 'grant_type']) {
      if (fields[f] === undefined || fields[f] === null || fields[f] === '') return oauthError(400, 'invalid_request', `${f} is required`);
    }
    if (fields.grant_type !== 'client_credentials' && !faults.has('token.any-grant-type')) {
      return oauthError(400, 'unsupported_grant_type', 'only client_credentials is supported');
    }
    const parsed = TokenRequest.omit({ grant_type: true }).safeParse(fields);
    if (!parsed.success) return oauthError(400, 'invalid_request', Object.entries(fieldErrors(parsed.error)).map(([k, v]) => `${k}: ${v.join(', ')}`).join('; '));
    const org = organisations.find((o) => o.clientId === parsed.data.client_id);
    if (!org || (org.clientSecret !== parsed.data.client_secret && !faults.has('token.accept-wrong-secret'))) {
      return oauthError(401, 'invalid_client', 'client authentication failed');
    }
    const accessToken = randomBytes(32).toString('base64url');
    tokens.set(accessToken, { org: org.name, expiresAt: Date.now() + tokenTtl * 1000 });
    sendJson(
      res,
      200,
      { access_token: accessToken, token_type: 'Bearer', expires_in: faults.has('token.expires-in-string') ? String(tokenTtl) : tokenTtl },
      { 'cache-control': 'no-store', pragma: 'no-cache' },
    );
  }

  function findCase(org: string, id: number): CaseRecord {
    const c = store.getCase(org, id);
    if (!c) throw new HttpError(404, 'not_found', `no case with id ${id}`);
    return c;
  }

  /** Throws 409 when another non-archived case of the organisation holds this external_id. */
  function assertExternalIdFree(org: string, externalId: string, self?: number) {
    const holder = store.findCaseByExternalId(org, externalId);
    if (holder && holder.id !== self) {
      throw new HttpError(409, 'external_id_conflict', 'external_id is already used by another case of this organisation', {
        fields: { external_id: ['must be unique per organisation'] },
      });
    }
  }

  /** Validates and applies a patch to a case; returns nothing, throws HttpError on refusal. */
  function applyPatch(org: string, c: CaseRecord, patch: z.infer<typeof ReferenceCasePatch>) {
    if (typeof patch.external_id === 'string') assertExternalIdFree(org, patch.external_id, c.id);
    if (faults.has('patch.replace-not-merge')) {
      c.webhook_url = null;
      c.metadata = null;
      c.sync_platforms = null;
      c.delete_after = -1;
    }
    if (patch.webhook_url !== undefined && !faults.has('patch.ignore-webhook-url')) c.webhook_url = patch.webhook_url;
    if (patch.delete_after !== undefined) c.delete_after = patch.delete_after;
    if (patch.metadata !== undefined) c.metadata = patch.metadata;
    if (patch.sync_platforms !== undefined) c.sync_platforms = patch.sync_platforms;
    if (patch.external_id !== undefined) c.external_id = patch.external_id ?? randomUUID();
    c.updated_at = new Date().toISOString();
  }

  function createCase(org: string, body: unknown) {
    const input = parseOr400(CaseCreate, body);
    if (input.external_id !== undefined) assertExternalIdFree(org, input.external_id);
    const now = new Date().toISOString();
    let customerId: number;
    if ('id' in input.customer) {
      if (!store.getCustomer(org, input.customer.id)) throw new HttpError(400, 'validation_error', 'unknown customer', { fields: { 'customer.id': ['no such customer'] } });
      customerId = input.customer.id;
    } else {
      customerId = store.nextId();
      store.putCustomer({
        id: customerId,
        org,
        full_name: input.customer.full_name,
        customer_type: input.customer.customer_type ?? null,
        external_id: input.customer.external_id ?? null,
      });
    }
    const record: CaseRecord = {
      id: store.nextId(),
      org,
      external_id: input.external_id ?? randomUUID(),
      webhook_url: input.webhook_url ?? null,
      note: null,
      outcome: null,
      is_started: false,
      is_complete: false,
      failed: false,
      created_at: now,
      updated_at: now,
      delete_after: input.delete_after ?? -1,
      rfi: null,
      metadata: input.metadata ?? null,
      sync_platforms: input.sync_platforms ?? null,
      customerId,
      generation: 0,
    };
    store.putCase(record);
    for (const check of input.checks ?? []) {
      store.putCheck({
        id: store.nextId(),
        org,
        caseId: record.id,
        check_type: check.check_type ?? null,
        input_details: check.input_details ?? null,
        risk_score: null,
        title: null,
        note: null,
        reasoning: null,
        outcome: null,
        status: 'PENDING',
        created_at: now,
        updated_at: now,
        delete_after: -1,
      });
    }
    return record;
  }

  function deleteCase(org: string, id: number) {
    const c = findCase(org, id);
    if (faults.has('delete.noop')) return;
    for (const check of store.checksOfCase(org, id)) store.deleteCheck(org, check.id);
    c.generation += 1; // stops processing in flight
    store.deleteCase(org, id);
    if (!store.customerInUse(org, c.customerId)) store.deleteCustomer(org, c.customerId);
  }

  type ItemResult = Record<string, unknown> & { index: number; status: string };
  const failure = (index: number, key: Record<string, unknown>, err: unknown): ItemResult => {
    if (err instanceof HttpError) {
      return { index, ...key, status: 'failed', error: { code: err.code, detail: err.message, ...err.extra } };
    }
    throw err;
  };
  const bulkAnswer = (res: ServerResponse, results: ItemResult[], okStatus: string) => {
    const succeeded = results.filter((r) => r.status === okStatus).length;
    sendJson(res, 200, { succeeded, failed: results.length - succeeded, results });
  };

  async function bulkUpdateCases(org: string, req: IncomingMessage, res: ServerResponse) {
    const { items } = parseOr400(BulkCaseUpdateRequest, await readRequestBody(req, FORM_KINDS));
    const results = items.map((item, index): ItemResult => {
      const key = { id: item.id ?? null };
      try {
        const parsed = ReferenceBulkCaseItem.safeParse(item);
        if (!parsed.success) throw new HttpError(400, 'validation_error', 'item is invalid', { fields: fieldErrors(parsed.error) });
        const { id, ...patch } = parsed.data;
        const c = findCase(org, id);
        applyPatch(org, c, patch);
        return { index, ...key, status: 'updated' };
      } catch (err) {
        return failure(index, key, err);
      }
    });
    bulkAnswer(res, results, 'updated');
  }

  async function bulkUpdateCustomers(org: string, req: IncomingMessage, res: ServerResponse) {
    const { items } = parseOr400(BulkCustomerUpdateRequest, await readRequestBody(req, FORM_KINDS));
    const results = items.map((item, index): ItemResult => {
      const key = { id: item.id ?? null, external_id: item.external_id ?? null };
      try {
        const parsed = ReferenceBulkCustomerItem.safeParse(item);
        if (!parsed.success) throw new HttpError(400, 'validation_error', 'item is invalid', { fields: fieldErrors(parsed.error) });
        const data = parsed.data;
        let customer;
        if (data.id !== undefined) {
          customer = store.getCustomer(org, data.id);
          if (!customer) throw new HttpError(404, 'not_found', `no customer with id ${data.id}`);
          if (data.external_id !== undefined) customer.external_id = data.external_id;
        } else {
          const found = store.findCustomersByExternalId(org, data.external_id!);
          if (found.length === 0) throw new HttpError(404, 'not_found', `no customer with external_id ${data.external_id}`);
          if (found.length > 1) throw new HttpError(409, 'ambiguous', `several customers have external_id ${data.external_id}`);
          customer = found[0]!;
        }
        if (data.full_name !== undefined) customer.full_name = data.full_name;
        if (data.customer_type !== undefined) customer.customer_type = data.customer_type;
        return { index, id: customer.id, external_id: customer.external_id, status: 'updated' };
      } catch (err) {
        return failure(index, key, err);
      }
    });
    bulkAnswer(res, results, 'updated');
  }

  async function bulkDeleteChecks(org: string, req: IncomingMessage, res: ServerResponse) {
    const { ids } = parseOr400(BulkCheckDeleteRequest, await readRequestBody(req, FORM_KINDS));
    const results = ids.map((id, index): ItemResult => {
      try {
        const check = store.getCheck(org, id);
        if (!check) throw new HttpError(404, 'not_found', `no check with id ${id}`);
        store.deleteCheck(org, id);
        const c = store.getCase(org, check.caseId);
        if (c) c.updated_at = new Date().toISOString();
        return { index, id, status: 'deleted' };
      } catch (err) {
        return failure(index, { id }, err);
      }
    });
    bulkAnswer(res, results, 'deleted');
  }

  async function route(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://reference.invalid');
    const path = url.pathname;
    const method = req.method ?? 'GET';
    const allow = (methods: string[]) => {
      if (!methods.includes(method)) throw new HttpError(405, 'method_not_allowed', `${method} not allowed here`, {}, { allow: methods.join(', ') });
    };

    if (path === '/api/oauth/token/') {
      allow(['POST']);
      return issueToken(req, res);
    }
    if (path === '/api/cases/bulk-update/') {
      allow(['POST']);
      return bulkUpdateCases(authenticate(req), req, res);
    }
    if (path === '/api/customers/bulk-update/') {
      allow(['POST']);
      return bulkUpdateCustomers(authenticate(req), req, res);
    }
    if (path === '/api/checks/bulk-delete/') {
      allow(['POST']);
      return bulkDeleteChecks(authenticate(req), req, res);
    }
    if (path === '/api/cases/') {
      allow(['POST']);
      const org = authenticate(req);
      const record = createCase(org, await readRequestBody(req, FORM_KINDS));
      return sendJson(res, 201, caseView(store, record, faults));
    }
    const m = /^\/api\/cases\/([^/]+)\/(start\/)?$/.exec(path);
    if (m) {
      const start = m[2] !== undefined;
      allow(start ? ['POST'] : ['GET', 'PATCH', 'DELETE']);
      const org = authenticate(req);
      if (!/^\d{1,15}$/.test(m[1]!)) throw new HttpError(404, 'not_found', 'case id must be an integer');
      const id = Number(m[1]);
      if (start) {
        const c = findCase(org, id);
        processor.start(org, c.id);
        return sendJson(res, 202, caseView(store, c, faults));
      }
      if (method === 'GET') return sendJson(res, 200, caseView(store, findCase(org, id), faults));
      if (method === 'DELETE') {
        deleteCase(org, id);
        res.writeHead(204).end();
        return;
      }
      const body = await readRequestBody(req, FORM_KINDS);
      const c = store.getCase(org, id);
      if (!c) {
        if (faults.has('patch.unknown-id-500')) return sendJson(res, 500, { error: 'server_error' });
        throw new HttpError(404, 'not_found', `no case with id ${id}`);
      }
      applyPatch(org, c, parseOr400(ReferenceCasePatch, body));
      return sendJson(res, 200, caseView(store, c, faults));
    }
    throw new HttpError(404, 'not_found', `no route for ${path}`);
  }

  const server: Server = createServer((req, res) => {
    route(req, res).catch((err: unknown) => {
      if (res.headersSent) return res.destroy();
      if (err instanceof HttpError) return sendError(res, err);
      // A defect in the reference server: say so without leaking internals.
      sendJson(res, 500, { error: 'server_error', detail: 'internal error in the reference server' });
      process.emitWarning(`reference server: ${(err as Error)?.stack ?? String(err)}`);
    });
  });
  server.keepAliveTimeout = 5000;
  server.requestTimeout = 30_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}`,
    organisations,
    store,
    async close() {
      processor.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
