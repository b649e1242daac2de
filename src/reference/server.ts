/**
 * The embedded reference server: a correct implementation of every endpoint the interface
 * shows, plus the provisioning conventions of DESIGN.md. State lives in memory. Fault
 * switches (faults.ts) break one requirement each, for the self-tests.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import {
  BulkCaseUpdateRequest,
  BulkCheckDeleteRequest,
  BulkCustomerUpdateRequest,
  LIMITS,
  TokenRequest,
} from '../spec/index.ts';
import type { FaultName } from './faults.ts';
import { HttpError, readRequestBody, sendError, sendJson, type FormFieldKind } from './http.ts';
import { DEFAULT_PROCESSING, Processor, type ProcessingOptions } from './processing.ts';
import { caseView } from './representation.ts';
import { type CaseRecord, type CustomerRecord, MemoryStore, type Store } from './store.ts';
import { CaseCreate, fieldErrors, parseOr400, requestRules, type ReferenceCasePatch } from './validation.ts';

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
/** Fault unique.race: the pause between the uniqueness check and the write. */
const RACE_WINDOW_MS = 150;

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
  const rules = requestRules(faults);
  const organisations = options.organisations ?? [newOrganisation('org-1'), newOrganisation('org-2')];
  const tokenTtl = options.tokenTtlSeconds ?? 3600;
  const store: Store = new MemoryStore();
  const processor = new Processor(store, faults, { ...DEFAULT_PROCESSING, ...options.processing });
  const tokens = new Map<string, { org: string; expiresAt: number }>();

  /** `bulk` names the bulk endpoints (fault auth.token-refused-by-bulk). */
  function authenticate(req: IncomingMessage, endpoint: 'bulk' | 'other' = 'other'): string {
    const header = req.headers.authorization;
    const fallback = organisations[0]!.name;
    // Fault auth.no-www-authenticate: 401 answers without the challenge header.
    const challenge = (value: string): Record<string, string> =>
      faults.has('auth.no-www-authenticate') ? {} : { 'www-authenticate': value };
    if (header === undefined) {
      if (faults.has('auth.accept-missing')) return fallback;
      throw new HttpError(
        401,
        'not_authenticated',
        'authentication credentials were not provided',
        {},
        challenge(REALM),
      );
    }
    const m = /^(Bearer|Token)\s+(\S+)$/i.exec(header.trim());
    if (!m) {
      if (faults.has('auth.malformed-500')) throw new HttpError(500, 'server_error', 'internal error');
      throw new HttpError(
        401,
        'invalid_authorization',
        'Authorization header must be "Bearer <credential>"',
        {},
        challenge(`${REALM}, error="invalid_request"`),
      );
    }
    const scheme = m[1]!.toLowerCase();
    const credential = m[2]!;
    const token = tokens.get(credential);
    if (token && scheme === 'bearer' && !(endpoint === 'bulk' && faults.has('auth.token-refused-by-bulk'))) {
      if (token.expiresAt > Date.now()) return token.org;
      tokens.delete(credential);
    }
    const byKey = organisations.find((o) => o.apiKey === credential);
    if (byKey && !(scheme === 'bearer' && faults.has('auth.api-key-rejected'))) return byKey.name;
    if (faults.has('auth.accept-any-bearer')) return fallback;
    throw new HttpError(
      401,
      'invalid_token',
      'the credential is invalid or expired',
      {},
      challenge(`${REALM}, error="invalid_token"`),
    );
  }

  async function issueToken(req: IncomingMessage, res: ServerResponse) {
    const body = await readRequestBody(req, {}, ['application/json', 'application/x-www-form-urlencoded']);
    const oauthError = (status: number, error: string, description: string) => {
      sendJson(res, status, { error, error_description: description }, { 'cache-control': 'no-store' });
    };
    if (body === null || typeof body !== 'object' || Array.isArray(body))
      return oauthError(400, 'invalid_request', 'body must be an object');
    const fields = body as Record<string, unknown>;
    if (faults.has('token.grant-type-default') && (fields.grant_type === undefined || fields.grant_type === ''))
      fields.grant_type = 'client_credentials';
    for (const f of ['client_id', 'client_secret', 'grant_type']) {
      if (fields[f] === undefined || fields[f] === null || fields[f] === '')
        return oauthError(400, 'invalid_request', `${f} is required`);
    }
    if (fields.grant_type !== 'client_credentials' && !faults.has('token.any-grant-type')) {
      return oauthError(400, 'unsupported_grant_type', 'only client_credentials is supported');
    }
    if (faults.has('token.non-uuid-500') && !z.uuid().safeParse(fields.client_id).success)
      return sendJson(res, 500, { error: 'server_error' });
    const parsed = TokenRequest.omit({ grant_type: true }).safeParse(fields);
    if (!parsed.success)
      return oauthError(
        400,
        'invalid_request',
        Object.entries(fieldErrors(parsed.error))
          .map(([k, v]) => `${k}: ${v.join(', ')}`)
          .join('; '),
      );
    const org = organisations.find((o) => o.clientId === parsed.data.client_id);
    if (!org && faults.has('token.unknown-client-500')) return sendJson(res, 500, { error: 'server_error' });
    if (!org || (org.clientSecret !== parsed.data.client_secret && !faults.has('token.accept-wrong-secret'))) {
      return oauthError(401, 'invalid_client', 'client authentication failed');
    }
    const accessToken = randomBytes(32).toString('base64url');
    tokens.set(accessToken, { org: org.name, expiresAt: Date.now() + tokenTtl * 1000 });
    sendJson(
      res,
      200,
      {
        access_token: accessToken,
        token_type: faults.has('token.type-not-bearer') ? 'JWT' : 'Bearer',
        expires_in: faults.has('token.expires-in-string') ? String(tokenTtl) : tokenTtl,
      },
      faults.has('token.cacheable') ? {} : { 'cache-control': 'no-store', pragma: 'no-cache' },
    );
  }

  /**
   * A lookup in the caller's organisation; with the tenant.leak-* fault `leak` switched on, in
   * every organisation (the caller's first), so another organisation's records can be reached.
   */
  function lookup<T>(org: string, find: (org: string) => T | undefined, leak?: FaultName): T | undefined {
    if (!leak || !faults.has(leak)) return find(org);
    for (const o of [org, ...organisations.map((x) => x.name).filter((n) => n !== org)]) {
      const found = find(o);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  function findCase(org: string, id: number, leak?: FaultName): CaseRecord {
    const c = lookup(org, (o) => store.getCase(o, id), leak);
    if (!c) throw new HttpError(404, 'not_found', `no case with id ${id}`);
    return c;
  }

  // Fault unique.freed-kept: the values cases were renamed away from (`org\nvalue`) stay taken.
  const renamedAway = new Set<string>();

  /**
   * Throws 409 when another non-archived case of the organisation holds this external_id.
   * Faults: unique.global looks in every organisation, unique.self-conflict counts the case
   * itself, unique.freed-kept counts values renamed away from.
   */
  function assertExternalIdFree(org: string, externalId: string, self?: number) {
    const scope = faults.has('unique.global') ? organisations.map((o) => o.name) : [org];
    const holders = scope.flatMap((o) => store.findCaseByExternalId(o, externalId) ?? []);
    const taken =
      holders.some((h) => h.id !== self || faults.has('unique.self-conflict')) ||
      renamedAway.has(`${org}\n${externalId}`);
    if (taken) {
      throw new HttpError(
        409,
        'external_id_conflict',
        'external_id is already used by another case of this organisation',
        {
          fields: { external_id: ['must be unique per organisation'] },
        },
      );
    }
  }

  /**
   * Validates and applies a patch to a case; returns nothing, throws HttpError on refusal. `via`
   * is the endpoint (unique.no-check and unique.bulk-no-check skip the uniqueness check on one),
   * or 'checked' when the caller checked uniqueness already (unique.race).
   */
  function applyPatch(
    org: string,
    c: CaseRecord,
    patch: z.infer<typeof ReferenceCasePatch>,
    via: 'patch' | 'bulk' | 'checked',
  ) {
    const unchecked =
      via === 'checked' ||
      (via === 'patch' && faults.has('unique.no-check')) ||
      (via === 'bulk' && faults.has('unique.bulk-no-check'));
    if (typeof patch.external_id === 'string' && !unchecked) assertExternalIdFree(org, patch.external_id, c.id);
    if (faults.has('patch.replace-not-merge')) {
      c.webhook_url = null;
      c.metadata = null;
      c.sync_platforms = null;
      c.delete_after = -1;
    }
    // Fault patch.null-ignored: a null is read as "not provided" (`if (value != null)`).
    const given = (v: unknown) => v !== undefined && !(v === null && faults.has('patch.null-ignored'));
    if (given(patch.webhook_url) && !faults.has('patch.ignore-webhook-url'))
      c.webhook_url = patch.webhook_url as string | null;
    if (patch.delete_after !== undefined) c.delete_after = patch.delete_after;
    if (given(patch.metadata)) c.metadata = patch.metadata as Record<string, unknown> | null;
    if (given(patch.sync_platforms)) c.sync_platforms = patch.sync_platforms;
    if (patch.external_id !== undefined) {
      // Fault patch.external-id-null-stored keeps the null the read type does not allow.
      const next =
        patch.external_id ?? (faults.has('patch.external-id-null-stored') ? (null as unknown as string) : randomUUID());
      if (faults.has('unique.freed-kept') && next !== c.external_id) renamedAway.add(`${c.org}\n${c.external_id}`);
      c.external_id = next;
    }
    c.updated_at = new Date().toISOString();
  }

  /** Parses a PATCH body by the rules in force; fault patch.non-atomic applies the valid fields of an invalid body first. */
  function parsePatch(org: string, c: CaseRecord, body: unknown): z.infer<typeof ReferenceCasePatch> {
    const isObject = body !== null && typeof body === 'object' && !Array.isArray(body);
    if (faults.has('patch.non-atomic') && isObject && !rules.casePatch.safeParse(body).success) {
      const shape: Record<string, z.ZodType> = rules.casePatch.shape;
      const valid = Object.fromEntries(
        Object.entries(body).filter(([k, v]) => Object.hasOwn(shape, k) && shape[k]!.safeParse(v).success),
      );
      applyPatch(org, c, rules.casePatch.parse(valid), 'patch');
    }
    return parseOr400(rules.casePatch, body);
  }

  function createCase(org: string, body: unknown) {
    const input = parseOr400(CaseCreate, body);
    if (input.external_id !== undefined) assertExternalIdFree(org, input.external_id);
    const now = new Date().toISOString();
    let customerId: number;
    if ('id' in input.customer) {
      if (!store.getCustomer(org, input.customer.id))
        throw new HttpError(400, 'validation_error', 'unknown customer', {
          fields: { 'customer.id': ['no such customer'] },
        });
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
    keepPatchCopy(record);
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

  // Fault model.stale-after-bulk: PATCH starts from a copy of the updatable fields kept by the
  // previous PATCH (or the creation), so what a bulk update changed since is undone.
  const patchCopies = new Map<
    number,
    Pick<CaseRecord, 'webhook_url' | 'delete_after' | 'metadata' | 'sync_platforms' | 'external_id'>
  >();
  function keepPatchCopy(c: CaseRecord) {
    if (!faults.has('model.stale-after-bulk')) return;
    const { webhook_url, delete_after, metadata, sync_platforms, external_id } = c;
    patchCopies.set(c.id, { webhook_url, delete_after, metadata, sync_platforms, external_id });
  }
  function restorePatchCopy(c: CaseRecord) {
    const copy = patchCopies.get(c.id);
    if (copy && faults.has('model.stale-after-bulk')) Object.assign(c, copy);
  }

  // Fault model.delete-resurrects: a deleted case is kept aside, and a bulk update naming it brings it back.
  const deletedCases = new Map<number, { record: CaseRecord; customer: ReturnType<Store['getCustomer']> }>();
  function resurrect(org: string, id: number) {
    const gone = deletedCases.get(id);
    if (!gone || gone.record.org !== org || store.getCase(org, id)) return;
    if (gone.customer && !store.getCustomer(org, gone.customer.id)) store.putCustomer(gone.customer);
    store.putCase(gone.record);
    deletedCases.delete(id);
  }

  // Fault delete.unknown-id-500: ids of deleted cases, so only ids that never existed answer 500.
  const deletedIds = new Set<number>();
  function deleteCase(requester: string, id: number) {
    if (
      faults.has('delete.unknown-id-500') &&
      !deletedIds.has(id) &&
      !lookup(requester, (o) => store.getCase(o, id), 'tenant.leak-delete')
    ) {
      throw new HttpError(500, 'server_error', 'internal error');
    }
    const c = findCase(requester, id, 'tenant.leak-delete');
    if (faults.has('delete.unknown-id-500')) deletedIds.add(id);
    const org = c.org;
    if (faults.has('delete.noop')) return;
    if (faults.has('model.delete-resurrects'))
      deletedCases.set(id, { record: c, customer: store.getCustomer(org, c.customerId) });
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
  const bulkAnswer = (res: ServerResponse, all: ItemResult[], okStatus: string) => {
    const results = misreported(all, okStatus);
    const succeeded = results.filter((r) => r.status === okStatus).length;
    // bulk.multi-status answers a batch with any failed item 207 instead of the 200 the interface shows.
    const status = faults.has('bulk.multi-status') && succeeded < results.length ? 207 : 200;
    sendJson(res, status, { succeeded, failed: results.length - succeeded, results });
  };

  // Bulk faults (bulk.*, content.*): the 100-item limit, all-or-nothing batches, misreported
  // items, form bodies ignored or refused.
  /** The entries of a bulk request (`items` or `ids`) within the limit; `cut` when bulk.partial-over-limit kept the first 100. */
  function bulkEntries(schema: z.ZodType, key: 'items' | 'ids', body: unknown): { entries: unknown[]; cut: boolean } {
    const limit = LIMITS.bulkMaxItems;
    const envelope =
      body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    const raw = envelope[key];
    if (Array.isArray(raw) && raw.length === limit && faults.has('bulk.limit-99')) {
      throw new HttpError(400, 'validation_error', 'request body is invalid', {
        fields: { [key]: [`must hold at most ${limit - 1} entries`] },
      });
    }
    if (
      Array.isArray(raw) &&
      raw.length > limit &&
      (faults.has('bulk.no-limit') || faults.has('bulk.partial-over-limit'))
    ) {
      const cut = faults.has('bulk.partial-over-limit');
      const kept = cut ? raw.slice(0, limit) : raw;
      const entries: unknown[] = [];
      for (let i = 0; i < kept.length; i += limit) {
        entries.push(
          ...(parseOr400(schema, { ...envelope, [key]: kept.slice(i, i + limit) }) as Record<string, unknown[]>)[key]!,
        );
      }
      return { entries, cut };
    }
    return { entries: (parseOr400(schema, body) as Record<string, unknown[]>)[key]!, cut: false };
  }
  /** After a batch: bulk.partial-over-limit refuses it, the first 100 applied; bulk.all-or-nothing undoes it when an item failed. */
  function settleBatch(results: ItemResult[], cut: boolean, undo: (() => void)[], key: 'items' | 'ids') {
    if (cut)
      throw new HttpError(400, 'validation_error', 'request body is invalid', {
        fields: { [key]: [`must hold at most ${LIMITS.bulkMaxItems} entries`] },
      });
    if (faults.has('bulk.all-or-nothing') && results.some((r) => r.status === 'failed')) {
      for (const u of undo.reverse()) u();
      throw new HttpError(400, 'item_failed', 'an item of the batch failed; nothing was applied', {
        results: results.filter((r) => r.status === 'failed'),
      });
    }
  }
  /** Fault bulk.all-or-nothing: keeps a record as it was, to undo the batch. */
  function keepForUndo(undo: (() => void)[], record: object) {
    if (!faults.has('bulk.all-or-nothing')) return;
    const copy = structuredClone(record);
    undo.push(() => Object.assign(record, copy));
  }
  /** bulk.silent-failure drops failed items from the answer; bulk.failure-as-success calls them succeeded. */
  function misreported(results: ItemResult[], okStatus: string): ItemResult[] {
    if (faults.has('bulk.silent-failure')) return results.filter((r) => r.status !== 'failed');
    if (!faults.has('bulk.failure-as-success')) return results;
    return results.map((r) => {
      if (r.status !== 'failed') return r;
      const { error: _error, ...rest } = r;
      return { ...rest, status: okStatus };
    });
  }
  /** A PATCH or bulk body; content.form-ignored reads form and multipart bodies as empty, content.bulk-json-only refuses them on bulk endpoints. */
  async function readApiBody(req: IncomingMessage, bulk = false): Promise<unknown> {
    const body = await readRequestBody(req, FORM_KINDS);
    const mediaType = String(req.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim()
      .toLowerCase();
    const form = mediaType === 'application/x-www-form-urlencoded' || mediaType === 'multipart/form-data';
    if (form && bulk && faults.has('content.bulk-json-only'))
      throw new HttpError(415, 'unsupported_media_type', 'bulk requests must be sent as application/json');
    return form && faults.has('content.form-ignored') ? {} : body;
  }

  async function bulkUpdateCases(org: string, req: IncomingMessage, res: ServerResponse) {
    const { entries, cut } = bulkEntries(BulkCaseUpdateRequest, 'items', await readApiBody(req, true));
    const items = entries as z.infer<typeof BulkCaseUpdateRequest>['items'];
    const undo: (() => void)[] = [];
    const results = items.map((item, index): ItemResult => {
      const key = { id: item.id ?? null };
      try {
        const parsed = rules.bulkCaseItem.safeParse(item);
        if (!parsed.success)
          throw new HttpError(400, 'validation_error', 'item is invalid', { fields: fieldErrors(parsed.error) });
        const { id, ...patch } = parsed.data;
        if (faults.has('model.delete-resurrects')) resurrect(org, id);
        const c = findCase(org, id, 'tenant.leak-bulk-cases');
        keepForUndo(undo, c);
        applyPatch(org, c, patch, 'bulk');
        return { index, ...key, status: 'updated' };
      } catch (err) {
        return failure(index, key, err);
      }
    });
    settleBatch(results, cut, undo, 'items');
    bulkAnswer(res, results, 'updated');
  }

  async function bulkUpdateCustomers(org: string, req: IncomingMessage, res: ServerResponse) {
    const { entries, cut } = bulkEntries(BulkCustomerUpdateRequest, 'items', await readApiBody(req, true));
    const items = entries as z.infer<typeof BulkCustomerUpdateRequest>['items'];
    const undo: (() => void)[] = [];
    const results = items.map((item, index): ItemResult => {
      const key = { id: item.id ?? null, external_id: item.external_id ?? null };
      try {
        const parsed = rules.bulkCustomerItem.safeParse(item);
        if (!parsed.success)
          throw new HttpError(400, 'validation_error', 'item is invalid', { fields: fieldErrors(parsed.error) });
        const data = parsed.data;
        let customer: CustomerRecord | undefined;
        if (data.id !== undefined) {
          customer = lookup(org, (o) => store.getCustomer(o, data.id!), 'tenant.leak-bulk-customers');
          if (!customer) throw new HttpError(404, 'not_found', `no customer with id ${data.id}`);
          keepForUndo(undo, customer);
          if (data.external_id !== undefined) customer.external_id = data.external_id;
        } else {
          const byExternalId = (o: string) => {
            const list = store.findCustomersByExternalId(o, data.external_id!);
            return list.length > 0 ? list : undefined;
          };
          const found = faults.has('bulk.customers-ignore-external-id')
            ? []
            : (lookup(org, byExternalId, 'tenant.leak-bulk-customers') ?? []);
          if (found.length === 0)
            throw new HttpError(404, 'not_found', `no customer with external_id ${data.external_id}`);
          if (found.length > 1)
            throw new HttpError(409, 'ambiguous', `several customers have external_id ${data.external_id}`);
          customer = found[0]!;
          keepForUndo(undo, customer);
        }
        if (data.full_name !== undefined) customer.full_name = data.full_name;
        if (data.customer_type !== undefined) customer.customer_type = data.customer_type;
        return { index, id: customer.id, external_id: customer.external_id, status: 'updated' };
      } catch (err) {
        return failure(index, key, err);
      }
    });
    settleBatch(results, cut, undo, 'items');
    bulkAnswer(res, results, 'updated');
  }

  async function bulkDeleteChecks(org: string, req: IncomingMessage, res: ServerResponse) {
    const { entries, cut } = bulkEntries(BulkCheckDeleteRequest, 'ids', await readApiBody(req, true));
    const ids = entries as number[];
    const undo: (() => void)[] = [];
    const results = ids.map((id, index): ItemResult => {
      try {
        const check = lookup(org, (o) => store.getCheck(o, id), 'tenant.leak-bulk-checks');
        if (!check) throw new HttpError(404, 'not_found', `no check with id ${id}`);
        if (faults.has('bulk.all-or-nothing')) undo.push(() => store.putCheck(check));
        if (!faults.has('bulk.checks-delete-noop')) store.deleteCheck(check.org, id);
        const c = store.getCase(check.org, check.caseId);
        if (c) c.updated_at = new Date().toISOString();
        return { index, id, status: 'deleted' };
      } catch (err) {
        return failure(index, { id }, err);
      }
    });
    settleBatch(results, cut, undo, 'ids');
    bulkAnswer(res, results, 'deleted');
  }

  async function route(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://reference.invalid');
    const path = url.pathname;
    const method = req.method ?? 'GET';
    const allow = (methods: string[]) => {
      if (!methods.includes(method))
        throw new HttpError(405, 'method_not_allowed', `${method} not allowed here`, {}, { allow: methods.join(', ') });
    };

    if (path === '/api/oauth/token/') {
      allow(['POST']);
      return issueToken(req, res);
    }
    if (path === '/api/cases/bulk-update/') {
      allow(['POST']);
      return bulkUpdateCases(authenticate(req, 'bulk'), req, res);
    }
    if (path === '/api/customers/bulk-update/') {
      allow(['POST']);
      return bulkUpdateCustomers(authenticate(req, 'bulk'), req, res);
    }
    if (path === '/api/checks/bulk-delete/') {
      allow(['POST']);
      return bulkDeleteChecks(authenticate(req, 'bulk'), req, res);
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
      const body = await readApiBody(req);
      const c = lookup(org, (o) => store.getCase(o, id), 'tenant.leak-patch');
      if (!c) {
        if (faults.has('patch.unknown-id-500')) return sendJson(res, 500, { error: 'server_error' });
        throw new HttpError(404, 'not_found', `no case with id ${id}`);
      }
      const patch = parsePatch(org, c, body);
      let via: 'patch' | 'checked' = 'patch';
      if (faults.has('unique.race') && typeof patch.external_id === 'string') {
        // Check, then write after a pause: by the time of the write the check is stale, so
        // PATCHes racing for one value all pass it.
        assertExternalIdFree(org, patch.external_id, c.id);
        await new Promise((resolve) => setTimeout(resolve, RACE_WINDOW_MS));
        via = 'checked';
      }
      restorePatchCopy(c);
      applyPatch(org, c, patch, via);
      keepPatchCopy(c);
      return sendJson(res, 200, caseView(store, c, faults));
    }
    throw new HttpError(404, 'not_found', `no route for ${path}`);
  }

  const server: Server = createServer((req, res) => {
    // Identifies the software, as servers commonly do (the report lists it under the target).
    res.setHeader('server', 'screenconf-reference');
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
