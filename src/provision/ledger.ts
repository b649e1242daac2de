/**
 * The run ledger: a JSON-lines file in the report folder that records every resource a run
 * creates on the target, written before the create request is sent, so that teardown, an
 * interrupted run, or a later `screenconf cleanup <ledger>` can remove it. Each line is
 * appended whole (one write, O_APPEND), so the worker processes of a run share the file
 * safely. Lines never hold secrets: ids, external ids, the base URL, times.
 *
 * Events, in the order they happen to one case:
 *   run      a run began (its id, base URL, embedded or url target)
 *   create   a create request is about to be sent (external ids known, server id not yet)
 *   created  the target answered with the case's id
 *   refused  nothing was created: the target answered without an id, or the request was
 *            certainly never sent (status 0)
 *   deleted  the case is gone: a later request answered 4xx, or (teardown, once its first
 *            deletions were so confirmed) the DELETE answered 2xx or 404/410
 *
 * A `created` line also names the case's customer (`customerId`): the interface has no way to
 * delete a customer, so the run can only count the customers it made, and say so. It keeps the
 * case's created_at as its creation answered (`createdAt`), and a `deleted` line the external id
 * the case was created with: a server may give a deleted case's id to another case
 * (CASE-ID-NOT-REUSED), so a removal compares what it finds with created_at before it deletes, and
 * a deletion marks only the case of that external id. A case several
 * suite files share (kit/shared-pool.ts) is marked `shared`: no file's teardown removes it; the
 * runner does, after the suites.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { parseJson, stringifyJson } from '../base/json.ts';
import { HarnessError } from '../errors.ts';
import { type Id, isId } from '../spec/index.ts';

export const LEDGER_FILE = 'ledger.jsonl';
export const LEDGER_VERSION = 1;

export type LedgerEvent = 'run' | 'create' | 'created' | 'refused' | 'deleted';

export interface LedgerLine {
  v: number;
  event: LedgerEvent;
  run: string;
  baseUrl: string;
  at: string;
  /** On `run`: the embedded reference server (gone with the run) or a base URL. */
  target?: 'embedded' | 'url';
  /** On `run`: the run was told to leave what it creates in place (--keep). */
  keep?: boolean;
  kind?: 'case';
  /** Which organisation created it: a (the primary credentials) or b (the peer). */
  org?: string;
  externalId?: string;
  customerExternalId?: string;
  /** Ids beyond 2^53 are written as their exact integers and read back as bigints (src/spec/id.ts). */
  id?: Id;
  /** On `created`: the id of the case's customer, made with it (none known: absent). */
  customerId?: Id;
  /** On `created`: the case's created_at as the answer to its creation showed it. */
  createdAt?: string;
  /** On `created`: the case is the run's, shared by suite files; the runner removes it after them. */
  shared?: boolean;
  status?: number;
}

/** A URL without user information, which may hold credentials. */
function withoutUserinfo(url: string): string {
  try {
    const u = new URL(url);
    if (!u.username && !u.password) return url;
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return url;
  }
}

export class Ledger {
  readonly baseUrl: string;

  constructor(
    readonly path: string,
    readonly run: string,
    baseUrl: string,
  ) {
    this.baseUrl = withoutUserinfo(baseUrl);
  }

  #append(line: Omit<LedgerLine, 'v' | 'run' | 'baseUrl' | 'at'>): void {
    const full: LedgerLine = {
      v: LEDGER_VERSION,
      run: this.run,
      baseUrl: this.baseUrl,
      at: new Date().toISOString(),
      ...line,
    };
    try {
      appendFileSync(this.path, `${stringifyJson(full)}\n`);
    } catch (err) {
      // Creating what cannot be recorded could leave it behind unnoticed: stop instead.
      throw new HarnessError(
        'SC_HARNESS',
        `cannot write the run ledger ${this.path}: ${(err as { code?: string }).code ?? (err as Error).message}`,
      );
    }
  }

  begin(target: 'embedded' | 'url', keep: boolean): void {
    this.#append({ event: 'run', target, ...(keep ? { keep } : {}) });
  }

  /** Before a create request is sent. */
  intent(org: string, externalId: string, customerExternalId?: string | null): void {
    this.#append({
      event: 'create',
      kind: 'case',
      org,
      externalId,
      ...(customerExternalId ? { customerExternalId } : {}),
    });
  }

  created(
    org: string,
    externalId: string,
    id: Id,
    { customerId, createdAt, shared = false }: { customerId?: Id; createdAt?: string; shared?: boolean } = {},
  ): void {
    this.#append({
      event: 'created',
      kind: 'case',
      org,
      externalId,
      id,
      ...(customerId !== undefined ? { customerId } : {}),
      ...(createdAt ? { createdAt } : {}),
      ...(shared ? { shared } : {}),
    });
  }

  refused(org: string, externalId: string, status: number): void {
    this.#append({ event: 'refused', kind: 'case', org, externalId, status });
  }

  /** The case is gone; `externalId`: the one it was created with, so a case given its id since is not marked. */
  deleted(org: string, id: Id, externalId?: string): void {
    this.#append({ event: 'deleted', kind: 'case', org, id, ...(externalId ? { externalId } : {}) });
  }
}

export interface LedgerCase {
  run: string;
  baseUrl: string;
  org: string;
  id: Id;
  externalId?: string;
  /** Shared by the run's suite files (the `shared` mark of its `created` line). */
  shared?: boolean;
  /** Its created_at as its creation answered. */
  createdAt?: string;
}

export interface LedgerRun {
  run: string;
  baseUrl: string;
  target: 'embedded' | 'url';
  keep: boolean;
}

export interface LedgerState {
  runs: LedgerRun[];
  /** Cases created and not deleted. */
  pending: LedgerCase[];
  /** Create requests that got no answer: the target may or may not hold them; no id to remove them by. */
  unconfirmed: { run: string; baseUrl: string; org: string; externalId: string }[];
  /** Cases created and deleted (see the `deleted` event). */
  removed: number;
  /**
   * Customers made with the cases, by run: the interface gives no way to delete them (a server may
   * remove one with its case, which the interface does not show).
   */
  customers: Record<string, number>;
  /** Lines that could not be read (a run killed in the middle of a write leaves at most one). */
  unreadable: number;
}

/** Reads a ledger and works out what is still on the target. */
export function readLedger(path: string, text?: string): LedgerState {
  let content = text;
  if (content === undefined) {
    try {
      content = readFileSync(path, 'utf8');
    } catch (err) {
      throw new HarnessError(
        'SC_LEDGER',
        `cannot read ledger ${path}: ${(err as { code?: string }).code ?? (err as Error).message}`,
      );
    }
  }
  const runs = new Map<string, LedgerRun>();
  const cases = new Map<string, LedgerCase & { deleted: boolean }>();
  const intents = new Map<string, { run: string; baseUrl: string; org: string; externalId: string }>();
  const customers = new Map<string, Set<string>>();
  let unreadable = 0;
  let lineNo = 0;
  for (const raw of content.split('\n')) {
    lineNo += 1;
    if (raw.trim() === '') continue;
    let line: LedgerLine;
    try {
      line = parseJson(raw) as LedgerLine;
    } catch {
      unreadable += 1;
      continue;
    }
    if (
      line === null ||
      typeof line !== 'object' ||
      typeof line.run !== 'string' ||
      typeof line.event !== 'string' ||
      typeof line.baseUrl !== 'string'
    ) {
      throw new HarnessError('SC_LEDGER', `${path} line ${lineNo} is not a screenconf ledger line`);
    }
    const key = (id: Id | undefined) => `${line.run} ${line.baseUrl} ${line.org} ${id}`;
    const intentKey = `${line.run} ${line.org} ${line.externalId}`;
    switch (line.event) {
      case 'run':
        runs.set(line.run, {
          run: line.run,
          baseUrl: line.baseUrl,
          target: line.target === 'embedded' ? 'embedded' : 'url',
          keep: line.keep === true,
        });
        break;
      case 'create':
        if (line.org && line.externalId)
          intents.set(intentKey, { run: line.run, baseUrl: line.baseUrl, org: line.org, externalId: line.externalId });
        break;
      case 'refused':
        intents.delete(intentKey);
        break;
      case 'created':
        intents.delete(intentKey);
        if (isId(line.customerId) && line.org) {
          const made = customers.get(line.run) ?? new Set<string>();
          made.add(`${line.baseUrl} ${line.org} ${line.customerId}`);
          customers.set(line.run, made);
        }
        if (isId(line.id) && line.org) {
          cases.set(key(line.id), {
            run: line.run,
            baseUrl: line.baseUrl,
            org: line.org,
            id: line.id,
            ...(line.externalId ? { externalId: line.externalId } : {}),
            ...(line.shared === true ? { shared: true } : {}),
            ...(typeof line.createdAt === 'string' ? { createdAt: line.createdAt } : {}),
            deleted: false,
          });
        }
        break;
      case 'deleted': {
        // A deletion naming the external id of an earlier case with this id leaves the one created since.
        const c = cases.get(key(line.id));
        if (c && (!line.externalId || !c.externalId || c.externalId === line.externalId)) c.deleted = true;
        break;
      }
    }
  }
  if (runs.size === 0 && cases.size === 0 && intents.size === 0) {
    if (unreadable > 0) throw new HarnessError('SC_LEDGER', `${path} is not a screenconf ledger (no readable line)`);
  }
  const all = [...cases.values()];
  return {
    runs: [...runs.values()],
    pending: all.filter((c) => !c.deleted).map(({ deleted: _deleted, ...c }) => c),
    unconfirmed: [...intents.values()],
    removed: all.filter((c) => c.deleted).length,
    customers: Object.fromEntries([...customers].map(([run, ids]) => [run, ids.size])),
    unreadable,
  };
}
