/** In-memory state of the reference server, behind a small interface. */
import type { CheckStatus, CheckType, Outcome } from '../spec/index.ts';

export interface CustomerRecord {
  id: number;
  org: string;
  external_id: string | null;
  full_name: string;
  customer_type: 'INDIVIDUAL' | 'COMPANY' | '' | null;
}

export interface CheckRecord {
  id: number;
  org: string;
  caseId: number;
  check_type: CheckType | '' | null;
  input_details: Record<string, unknown> | null;
  risk_score: number | null;
  title: string | null;
  note: string | null;
  reasoning: string[] | null;
  outcome: Outcome | null;
  status: CheckStatus;
  created_at: string;
  updated_at: string;
  delete_after: number;
}

export interface CaseRecord {
  id: number;
  org: string;
  external_id: string;
  webhook_url: string | null;
  note: string | null;
  outcome: Outcome | null;
  is_started: boolean;
  is_complete: boolean;
  failed: boolean;
  created_at: string;
  updated_at: string;
  delete_after: number;
  rfi: { body: string; title?: string | null; details?: Record<string, unknown> | null } | null;
  metadata: Record<string, unknown> | null;
  sync_platforms: unknown;
  customerId: number;
  /** Bumped on every (re)start, so a superseded processing run stops. */
  generation: number;
}

export interface Store {
  /** A new id for a case, customer or check (one sequence for all three). */
  nextId(): number;
  getCase(org: string, id: number): CaseRecord | undefined;
  findCaseByExternalId(org: string, externalId: string): CaseRecord | undefined;
  /** Every case of the organisation. */
  casesOf(org: string): CaseRecord[];
  putCase(record: CaseRecord): void;
  deleteCase(org: string, id: number): void;
  getCustomer(org: string, id: number): CustomerRecord | undefined;
  findCustomersByExternalId(org: string, externalId: string): CustomerRecord[];
  /** Every customer of the organisation. */
  customersOf(org: string): CustomerRecord[];
  putCustomer(record: CustomerRecord): void;
  deleteCustomer(org: string, id: number): void;
  customerInUse(org: string, id: number): boolean;
  getCheck(org: string, id: number): CheckRecord | undefined;
  checksOfCase(org: string, caseId: number): CheckRecord[];
  putCheck(record: CheckRecord): void;
  deleteCheck(org: string, id: number): void;
  /** Counts per organisation, for tests that show nothing was left behind. */
  countCases(org: string): number;
  countCustomers(org: string): number;
  /** Returns a rollback: calling it puts every record back as it is now (same objects, same values). */
  snapshot(): () => void;
}

/** Which id follows `last` (0 before the first). */
export type IdSequence = (last: number) => number;

/** A Map-based store; records are owned by one organisation and invisible to the others. */
export class MemoryStore implements Store {
  #id = 0;
  readonly #cases = new Map<number, CaseRecord>();
  readonly #customers = new Map<number, CustomerRecord>();
  readonly #checks = new Map<number, CheckRecord>();

  constructor(private readonly sequence: IdSequence = (last) => last + 1) {}

  nextId(): number {
    this.#id = this.sequence(this.#id);
    return this.#id;
  }
  getCase(org: string, id: number) {
    const c = this.#cases.get(id);
    return c && c.org === org ? c : undefined;
  }
  findCaseByExternalId(org: string, externalId: string) {
    for (const c of this.#cases.values()) if (c.org === org && c.external_id === externalId) return c;
    return undefined;
  }
  casesOf(org: string) {
    return [...this.#cases.values()].filter((c) => c.org === org);
  }
  putCase(record: CaseRecord) {
    this.#cases.set(record.id, record);
  }
  deleteCase(org: string, id: number) {
    if (this.getCase(org, id)) this.#cases.delete(id);
  }
  getCustomer(org: string, id: number) {
    const c = this.#customers.get(id);
    return c && c.org === org ? c : undefined;
  }
  findCustomersByExternalId(org: string, externalId: string) {
    return [...this.#customers.values()].filter((c) => c.org === org && c.external_id === externalId);
  }
  customersOf(org: string) {
    return [...this.#customers.values()].filter((c) => c.org === org);
  }
  putCustomer(record: CustomerRecord) {
    this.#customers.set(record.id, record);
  }
  deleteCustomer(org: string, id: number) {
    if (this.getCustomer(org, id)) this.#customers.delete(id);
  }
  customerInUse(org: string, id: number) {
    for (const c of this.#cases.values()) if (c.org === org && c.customerId === id) return true;
    return false;
  }
  getCheck(org: string, id: number) {
    const c = this.#checks.get(id);
    return c && c.org === org ? c : undefined;
  }
  checksOfCase(org: string, caseId: number) {
    return [...this.#checks.values()].filter((c) => c.org === org && c.caseId === caseId).sort((a, b) => a.id - b.id);
  }
  putCheck(record: CheckRecord) {
    this.#checks.set(record.id, record);
  }
  deleteCheck(org: string, id: number) {
    if (this.getCheck(org, id)) this.#checks.delete(id);
  }
  countCases(org: string) {
    let n = 0;
    for (const c of this.#cases.values()) if (c.org === org) n++;
    return n;
  }

  countCustomers(org: string) {
    let n = 0;
    for (const c of this.#customers.values()) if (c.org === org) n++;
    return n;
  }
  snapshot(): () => void {
    const undo = [rollback(this.#cases), rollback(this.#customers), rollback(this.#checks)];
    return () => {
      for (const u of undo) u();
    };
  }
}

/** A rollback of one map: records keep their identity (holders of a reference see the old values again). */
function rollback<T extends object>(map: Map<number, T>): () => void {
  const kept = new Map([...map].map(([id, record]) => [id, { record, copy: structuredClone(record) }]));
  return () => {
    for (const id of [...map.keys()]) if (!kept.has(id)) map.delete(id);
    for (const [id, { record, copy }] of kept) map.set(id, Object.assign(record, copy));
  };
}
