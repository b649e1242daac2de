/**
 * How a run gets the cases, customers and checks it acts on. Creation and starting are not in
 * the interface; the default provisioner uses the REST conventions of DESIGN.md
 * ("Provisioning conventions"). Everything it creates is remembered so teardown removes it.
 */
import type { ApiClient } from '../client/api.ts';
import type { ReceivedResponse } from '../client/transport.ts';
import { HarnessError } from '../errors.ts';
import type { CheckType } from '../spec/index.ts';

export interface NewCase {
  external_id?: string;
  webhook_url?: string | null;
  metadata?: Record<string, unknown> | null;
  delete_after?: number;
  sync_platforms?: unknown;
  customer?: { full_name: string; customer_type?: 'INDIVIDUAL' | 'COMPANY' | '' | null; external_id?: string | null };
  checks?: { check_type?: CheckType | '' | null; input_details?: Record<string, unknown> | null }[];
}

export const PROVISION_PATHS = {
  createCase: '/api/cases/',
  getCase: (id: number) => `/api/cases/${id}/`,
  startCase: (id: number) => `/api/cases/${id}/start/`,
} as const;

type CaseBody = Record<string, unknown> & { id: number };

export class Provisioner {
  readonly #created = new Set<number>();
  #seq = 0;

  constructor(
    private readonly api: ApiClient,
    /** Prefix of every external id this run creates: `screenconf-<run>-`. */
    readonly externalIdPrefix: string,
  ) {}

  /** A fresh external id that carries the run id. */
  externalId(label = 'case'): string {
    this.#seq += 1;
    return `${this.externalIdPrefix}${label}-${this.#seq}-${Math.random().toString(36).slice(2, 8)}`;
  }

  #fail(what: string, res: ReceivedResponse): never {
    throw new HarnessError(
      'SC_TARGET_BROKEN',
      `provisioning: ${what} answered HTTP ${res.status} (${res.text.slice(0, 200)}); see "Provisioning conventions" in the README`,
    );
  }

  /** Creates a case (with a customer and, by default, one PEP check) and returns its read representation. */
  async createCase(input: NewCase = {}): Promise<CaseBody> {
    const body = {
      external_id: input.external_id ?? this.externalId(),
      customer: input.customer ?? { full_name: 'Screenconf Test Person', customer_type: 'INDIVIDUAL', external_id: this.externalId('customer') },
      checks: input.checks ?? [{ check_type: 'PEP', input_details: { source: 'screenconf' } }],
      ...(input.webhook_url !== undefined ? { webhook_url: input.webhook_url } : {}),
      ...(input.metadata !== undefined ? { metadata: input.metadata } : {}),
      ...(input.delete_after !== undefined ? { delete_after: input.delete_after } : {}),
      ...(input.sync_platforms !== undefined ? { sync_platforms: input.sync_platforms } : {}),
    };
    const res = await this.api.request('POST', PROVISION_PATHS.createCase, { body });
    const created = res.json as CaseBody | undefined;
    if (res.status !== 201 && res.status !== 200) this.#fail('POST /api/cases/', res);
    if (typeof created?.id !== 'number') this.#fail('POST /api/cases/ (no integer id in the body)', res);
    this.#created.add(created.id);
    return created;
  }

  /** Reads a case: GET when the target has it, else an empty PATCH (which changes nothing). */
  async readCase(id: number): Promise<ReceivedResponse> {
    const res = await this.api.request('GET', PROVISION_PATHS.getCase(id));
    if (res.status !== 405 && res.status !== 501) return res;
    return this.api.patchCase(id, {});
  }

  async startCase(id: number): Promise<void> {
    const res = await this.api.request('POST', PROVISION_PATHS.startCase(id), { body: {} });
    if (res.status < 200 || res.status >= 300) this.#fail(`POST /api/cases/${id}/start/`, res);
  }

  /** Marks a case as gone (a test deleted it), so teardown does not try again. */
  forget(id: number): void {
    this.#created.delete(id);
  }

  /** Deletes every case this provisioner created; returns the ids that could not be removed. */
  async cleanup(): Promise<number[]> {
    const left: number[] = [];
    for (const id of this.#created) {
      try {
        const res = await this.api.deleteCase(id);
        if ((res.status >= 200 && res.status < 300) || res.status === 404 || res.status === 410) this.#created.delete(id);
        else left.push(id);
      } catch {
        left.push(id);
      }
    }
    return left;
  }
}
