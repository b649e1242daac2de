/** In-memory state of the reference server, behind a small interface. */
import { type CheckStatus, type CheckType, compareIds, type Id, idPlus, type Outcome } from '../spec/index.ts';

export interface CustomerRecord {
  id: Id;
  org: string;
  external_id: string | null;
  full_name: string;
  customer_type: 'INDIVIDUAL' | 'COMPANY' | '' | null;
}

export interface CheckRecord {
  id: Id;
  org: string;
  caseId: Id;
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
  id: Id;
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
  customerId: Id;
  /** Bumped on every (re)start, so a superseded processing run stops. */
  generation: number;
}

export interface Store {
  /** A new id for a case, customer or check (one sequence for all three). */
  nextId(): Id;
  getCase(org: string, id: Id): CaseRecord | undefined;
  findCaseByExternalId(org: string, externalId: string): CaseRecord | undefined;
  /** Every case of the organisation. */
  casesOf(org: string): CaseRecord[];
  putCase(record: CaseRecord): void;
  deleteCase(org: string, id: Id): void;
  getCustomer(org: string, id: Id): CustomerRecord | undefined;
  findCustomersByExternalId(org: string, externalId: string): CustomerRecord[];
  /** Every customer of the organisation. */
  customersOf(org: string): CustomerRecord[];
  putCustomer(record: CustomerRecord): void;
  deleteCustomer(org: string, id: Id): void;
  customerInUse(org: string, id: Id): boolean;
  getCheck(org: string, id: Id): CheckRecord | undefined;
  checksOfCase(org: string, caseId: Id): CheckRecord[];
  putCheck(record: CheckRecord): void;
  deleteCheck(org: string, id: Id): void;
  /** Counts per organisation, for tests that show nothing was left behind. */
  countCases(org: string): number;
  countCustomers(org: string): number;
  /** Returns a rollback: calling it puts every record back as it is now (same objects, same values). */
  snapshot(): () => void;
}

/** Which id follows `last` (0 before the first); ids beyond 2^53 are bigints (src/spec/id.ts). */
export type IdSequence = (last: Id) => Id;

/** A Map-based store; records are owned by one organisation and invisible to the others. */
export class MemoryStore implements Store {
  #id: Id = 0;
  readonly #cases = new Map<Id, CaseRecord>();
  readonly #customers = new Map<Id, CustomerRecord>();
  readonly #checks = new Map<Id, CheckRecord>();

  constructor(private readonly sequence: IdSequence = (last) => idPlus(last, 1)) {}

  nextId(): Id {
    this.#id = this.sequence(this.#id);
    return this.#id;
  }
  getCase(org: string, id: Id) {
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
  deleteCase(org: string, id: Id) {
    if (this.getCase(org, id)) this.#cases.delete(id);
  }
  getCustomer(org: string, id: Id) {
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
  deleteCustomer(org: string, id: Id) {
    if (this.getCustomer(org, id)) this.#customers.delete(id);
  }
  customerInUse(org: string, id: Id) {
    for (const c of this.#cases.values()) if (c.org === org && c.customerId === id) return true;
    return false;
  }
  getCheck(org: string, id: Id) {
    const c = this.#checks.get(id);
    return c && c.org === org ? c : undefined;
  }
  checksOfCase(org: string, caseId: Id) {
    return [...this.#checks.values()]
      .filter((c) => c.org === org && c.caseId === caseId)
      .sort((a, b) => compareIds(a.id, b.id));
  }
  putCheck(record: CheckRecord) {
    this.#checks.set(record.id, record);
  }
  deleteCheck(org: string, id: Id) {
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
function rollback<T extends object>(map: Map<Id, T>): () => void {
  const kept = new Map([...map].map(([id, record]) => [id, { record, copy: structuredClone(record) }]));
  return () => {
    for (const id of [...map.keys()]) if (!kept.has(id)) map.delete(id);
    for (const [id, { record, copy }] of kept) map.set(id, Object.assign(record, copy));
  };
}
