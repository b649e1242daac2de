/**
 * How a run gets the cases, customers and checks it acts on. Creation and starting are not in
 * the interface; the default provisioner uses the REST conventions of docs/architecture.md
 * ("Provisioning conventions"). Every case is written to the run ledger before the create
 * request is sent, and teardown deletes it (confirming a sample of the deletions is gone).
 */
import type { ApiClient, AuthMode } from '../client/api.ts';
import { exchangeOfNoAnswer, type ReceivedResponse } from '../client/transport.ts';
import { HarnessError, TransportError } from '../errors.ts';
import { stringifyJson } from '../base/json.ts';
import { type CheckType, type Id, isId } from '../spec/index.ts';
import { loadAdapter, pathFor, type AdapterContext, type CreateCaseBody, type ProvisionAdapter } from './adapter.ts';
import { type CaseIdentity, identityOf } from './identity.ts';
import { Ledger } from './ledger.ts';
import { removeSampled } from './removal.ts';

export interface NewCase {
  external_id?: string;
  webhook_url?: string | null;
  metadata?: Record<string, unknown> | null;
  delete_after?: number;
  sync_platforms?: unknown;
  customer?: { full_name: string; customer_type?: 'INDIVIDUAL' | 'COMPANY' | '' | null; external_id?: string | null };
  checks?: { check_type?: CheckType | '' | null; input_details?: Record<string, unknown> | null }[];
}

/** The conventions of docs/architecture.md ("Provisioning conventions"); a --provisioner module may replace each. */
export const PROVISION_PATHS = {
  createCase: '/api/cases/',
  readCase: '/api/cases/{id}/',
  startCase: '/api/cases/{id}/start/',
} as const;

type CaseBody = Record<string, unknown> & { id: Id };

/**
 * A provisioning request (not in the interface) the target got and gave no answer to while it answers others: as
 * with a refusal of it (#fail), no check can judge what it needed; no requirement of the interface fails for it.
 */
function notJudgedIfNoAnswer(what: string, err: unknown): unknown {
  if (!exchangeOfNoAnswer(err)) return err;
  return new HarnessError('SC_TARGET_BROKEN', `provisioning: ${what} got no answer (${(err as Error).message})`, {
    cause: err,
  });
}

/** Answers to GET of a case that may mean the target has no such route (not shown by the interface). */
const GET_MISSING_STATUSES: readonly number[] = [403, 404, 405, 501];

export interface ProvisionerOptions {
  /** The organisation label recorded in the ledger: a (primary) or b (peer). */
  org?: string;
  /** The run id, stamped on every ledger line. */
  runId?: string | undefined;
  /** The run ledger; without it nothing is recorded (unit tests). */
  ledgerPath?: string | undefined;
  /** Leave what is created in place (--keep): cleanup() removes nothing. */
  keep?: boolean | undefined;
  /** A --provisioner module (absolute path) for targets with other conventions. */
  adapterFile?: string | undefined;
}

export class Provisioner {
  /** The cases made and not deleted by a check, with what identifies each (identity.ts). */
  readonly #created = new Map<Id, CaseIdentity>();
  /**
   * Cases a check deleted itself (its DELETE answered 2xx, 404 or 410): teardown need not delete them. Kept apart
   * from #created: a server that gives a deleted case's id to a new case has both under one id.
   */
  readonly #deletedByChecks = new Map<Id, CaseIdentity>();
  readonly #ledger?: Ledger;
  readonly #org: string;
  #seq = 0;
  /**
   * Deletions teardown confirmed gone by a later request (removeSampled's sample), counted across
   * teardowns; -1 once one was found still there, so every later teardown samples afresh.
   */
  #confirmedGone = 0;
  /** Whether GET of a case works on this target: true once it answered 2xx, false once a PATCH read what it refused. */
  #getWorks?: boolean;
  #adapter?: Promise<ProvisionAdapter>;

  constructor(
    private readonly api: ApiClient,
    /** Prefix of every external id this run creates: `screenconf-<run>-<org>-`. */
    readonly externalIdPrefix: string,
    private readonly options: ProvisionerOptions = {},
  ) {
    this.#org = options.org ?? 'a';
    if (options.ledgerPath) this.#ledger = new Ledger(options.ledgerPath, options.runId ?? 'unknown', api.baseUrl);
  }

  /** A fresh external id that carries the run id. */
  externalId(label = 'case'): string {
    this.#seq += 1;
    return `${this.externalIdPrefix}${label}-${this.#seq}-${Math.random().toString(36).slice(2, 8)}`;
  }

  #fail(what: string, res: ReceivedResponse): never {
    const excerpt = this.api.transport.redactor.redact(res.text.slice(0, 200));
    const hint = this.options.adapterFile
      ? `the --provisioner module ${this.options.adapterFile}`
      : '"Provisioning conventions" in docs/running.md, or give a --provisioner module';
    throw new HarnessError(
      'SC_TARGET_BROKEN',
      `provisioning: ${what} answered HTTP ${res.status} (${excerpt}); see ${hint}`,
    );
  }

  /** The adapter (loaded once, on first use) or none. */
  async #loadAdapter(): Promise<ProvisionAdapter> {
    if (!this.options.adapterFile) return {};
    this.#adapter ??= loadAdapter(this.options.adapterFile);
    return this.#adapter;
  }

  #context(): AdapterContext {
    return {
      baseUrl: this.api.baseUrl,
      org: this.#org,
      request: (method, path, options = {}) =>
        this.api.request(method, path, {
          ...(options.body !== undefined ? { body: options.body } : {}),
          ...(options.headers ? { headers: options.headers } : {}),
        }),
    };
  }

  async #path(key: keyof typeof PROVISION_PATHS, id?: Id): Promise<string> {
    const template = (await this.#loadAdapter()).paths?.[key] ?? PROVISION_PATHS[key];
    return id === undefined ? template : pathFor(template, id);
  }

  /** Calls one of the adapter's functions; what it throws of its own is SC_PROVISIONER, naming `what`. */
  async #callAdapter<T>(what: string, call: (ctx: AdapterContext) => Promise<T>): Promise<T> {
    try {
      return await call(this.#context());
    } catch (err) {
      if (err instanceof HarnessError) throw notJudgedIfNoAnswer(`the provisioner's ${what}`, err);
      throw new HarnessError(
        'SC_PROVISIONER',
        `provisioner ${this.options.adapterFile}: ${what} failed: ` +
          `${this.api.transport.redactor.redact(String((err as Error)?.message ?? err))}`,
      );
    }
  }

  async #adapterCreate(
    createCase: NonNullable<ProvisionAdapter['createCase']>,
    body: CreateCaseBody,
  ): Promise<ReceivedResponse> {
    const created: unknown = await this.#callAdapter('createCase', (ctx) => createCase(ctx, body));
    return { status: 201, headers: {}, text: stringifyJson(created ?? null) ?? 'null', json: created };
  }

  /**
   * Creates a case (with a customer and, by default, one PEP check) and returns its read
   * representation. Teardown removes it, unless it is `shared` by the run's suite files
   * (kit/shared-pool.ts): the ledger marks it so, and the runner removes it after the suites.
   */
  async createCase(input: NewCase = {}, { shared = false }: { shared?: boolean } = {}): Promise<CaseBody> {
    const body = {
      external_id: input.external_id ?? this.externalId(),
      customer: input.customer ?? {
        full_name: 'Screenconf Test Person',
        customer_type: 'INDIVIDUAL',
        external_id: this.externalId('customer'),
      },
      checks: input.checks ?? [{ check_type: 'PEP', input_details: { source: 'screenconf' } }],
      ...(input.webhook_url !== undefined ? { webhook_url: input.webhook_url } : {}),
      ...(input.metadata !== undefined ? { metadata: input.metadata } : {}),
      ...(input.delete_after !== undefined ? { delete_after: input.delete_after } : {}),
      ...(input.sync_platforms !== undefined ? { sync_platforms: input.sync_platforms } : {}),
    };
    // Recorded before it is sent: a run killed while waiting still knows what it may have created.
    this.#ledger?.intent(this.#org, body.external_id, body.customer.external_id);
    let res: ReceivedResponse;
    const adapter = await this.#loadAdapter();
    const createPath = await this.#path('createCase');
    try {
      res = adapter.createCase
        ? await this.#adapterCreate(adapter.createCase, body)
        : await this.api.request('POST', createPath, { body });
    } catch (err) {
      // Certainly not sent: nothing to look for later.
      if (
        (err instanceof HarnessError && err.code === 'SC_INTERRUPTED') ||
        (err instanceof TransportError && err.notSent)
      )
        this.#ledger?.refused(this.#org, body.external_id, 0);
      throw notJudgedIfNoAnswer(adapter.createCase ? "the provisioner's createCase" : `POST ${createPath}`, err);
    }
    const created = res.json as CaseBody | undefined;
    const ok = (res.status === 201 || res.status === 200) && isId(created?.id);
    if (!ok) {
      this.#ledger?.refused(this.#org, body.external_id, res.status);
      const what = adapter.createCase ? "the provisioner's createCase" : `POST ${createPath}`;
      if (res.status !== 201 && res.status !== 200) this.#fail(what, res);
      this.#fail(`${what} (no integer id in the case it gave)`, res);
    }
    const customerId = (created.customer as { id?: unknown } | null | undefined)?.id;
    this.#ledger?.created(this.#org, body.external_id, created.id, {
      ...(isId(customerId) && !(input.customer && 'id' in input.customer) ? { customerId } : {}),
      ...(typeof created.created_at === 'string' ? { createdAt: created.created_at } : {}),
      shared,
    });
    if (!shared) {
      // Known by the external id it was sent first (the ledger's), then by the one it showed.
      const shown = identityOf(created)!;
      shown.externalIds = [body.external_id, ...shown.externalIds.filter((v) => v !== body.external_id)];
      this.#created.set(created.id, shown);
    }
    return created;
  }

  /**
   * Reads a case: GET when the target has it, else an empty PATCH (which changes nothing). The
   * interface does not list GET of a case, so a target may answer it 403, 404, 405 or 501 for
   * every case: when GET has never answered 2xx and refuses a case, the empty PATCH decides; once
   * that reads the case, GET is taken to be missing and every later read is a PATCH. Once GET has
   * answered 2xx, its 403 or 404 is an answer about the case and is returned as it is.
   */
  async readCase(id: Id): Promise<ReceivedResponse> {
    if (this.#getWorks === false) return this.api.patchCase(id, {});
    const res = await this.api.request('GET', await this.#path('readCase', id));
    if (res.status >= 200 && res.status < 300) this.#getWorks = true;
    if (!GET_MISSING_STATUSES.includes(res.status) || this.#getWorks) return res;
    const patched = await this.api.patchCase(id, {});
    if (patched.status >= 200 && patched.status < 300) this.#getWorks = false;
    return patched;
  }

  /** Whether GET of a case answers here: true once it answered 2xx, false once it did not (else undefined). */
  get getAnswers(): boolean | undefined {
    return this.#getWorks;
  }

  /** GET of a case (the route readCase uses) with a credential of the caller's choosing. */
  async getCase(id: Id, auth: AuthMode): Promise<ReceivedResponse> {
    return this.api.request('GET', await this.#path('readCase', id), { auth });
  }

  async startCase(id: Id): Promise<void> {
    const adapter = await this.#loadAdapter();
    const { startCase } = adapter;
    if (startCase) return this.#callAdapter(`startCase(${id})`, (ctx) => startCase(ctx, id));
    const path = await this.#path('startCase', id);
    const res = await this.api
      .request('POST', path, { body: {} })
      .catch((err: unknown) => Promise.reject(notJudgedIfNoAnswer(`POST ${path}`, err)));
    if (res.status < 200 || res.status >= 300) this.#fail(`POST ${path}`, res);
  }

  /**
   * Marks a case as deleted by a check, whose DELETE of it answered 2xx, 404 or 410: teardown
   * confirms it is gone only in its sample (`removeSampled`).
   */
  forget(id: Id): void {
    const identity = this.#created.get(id);
    if (!identity) return;
    this.#created.delete(id);
    this.#deletedByChecks.set(id, identity);
  }

  /**
   * Deletes every case this provisioner created (a sample confirmed gone by a later request, the
   * rest at the DELETE's word once the sample held: `removeSampled`; the sample spans teardowns,
   * so a worker's later suite files confirm none once it held), recording each in the
   * ledger; returns the ids that could not be removed. With --keep, removes nothing.
   */
  async cleanup(): Promise<Id[]> {
    if (this.options.keep) return [];
    const listed =
      (deletedAlready: boolean) =>
      ([id, identity]: [Id, CaseIdentity]) => ({ id, deletedAlready, identity });
    const ids = [...[...this.#created].map(listed(false)), ...[...this.#deletedByChecks].map(listed(true))];
    const removals = await removeSampled(this.api, this.#org, ids, Math.max(0, this.#confirmedGone));
    const sampled = removals.filter((r) => r.confirmed);
    if (this.#confirmedGone >= 0)
      this.#confirmedGone = sampled.every((r) => r.gone) ? this.#confirmedGone + sampled.length : -1;
    const left: Id[] = [];
    for (const r of removals) {
      this.#created.delete(r.id);
      this.#deletedByChecks.delete(r.id);
      const created = r.identity?.externalIds[0];
      if (r.gone) this.#ledger?.deleted(this.#org, r.id, typeof created === 'string' ? created : undefined);
      else left.push(r.id);
    }
    return left;
  }
}
