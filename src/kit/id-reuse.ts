/**
 * Ids a record never shares (CASE-ID-NOT-REUSED), the invariant watcher's part that spans answers: what identifies
 * each case the worker sees (created_at, external_id), which cases the run deleted (a DELETE of one case answered
 * 2xx, the case known by what it showed last), and every later case body showing a deleted case's id: another case
 * there is id reuse; the deleted case itself there (brought back) is not, and is left to the requirements of
 * deletion. The deletions, and the ids found reused, are shared by the run's worker processes through a file in the
 * run's shared folder (appended a line at a time), so a case one worker deleted and another worker meets again under
 * another identity is judged too.
 */
import { type Id, idFromText } from '../spec/index.ts';
import { appendFileSync, closeSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isJsonObject, type JsonObject, parseJson, stringifyJson } from '../base/json.ts';
import { anotherCase, type CaseIdentity, describeIdentity, identityOf, knownAs } from '../provision/identity.ts';
import type { InvariantFinding } from '../results/invariants.ts';

export const DELETED_CASES_FILE = 'deleted-cases.jsonl';

/**
 * How many cases' identities and deletions are kept (the oldest forgotten first): a long campaign (--duration)
 * creates and deletes cases without end.
 */
const SEEN_KEPT = 10_000;
const DELETED_KEPT = 50_000;

/** Sets a key as the newest of a map kept to `max` entries. */
function keepNewest<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value!);
}

const ONE_CASE = /\/api\/cases\/(\d+)\/$/;
const BULK_CASES = /\/api\/cases\/bulk-update\/$/;

/** One line of the shared file. */
interface Line {
  kind: 'deleted' | 'reused';
  /** Whose credentials: ids may be per organisation. */
  org: string;
  id: Id;
  createdAt?: unknown;
  externalIds?: unknown[];
}

interface Deleted {
  /** The cases deleted with this id (more than one once it was reused and that case deleted too). */
  identities: CaseIdentity[];
  /** Another case was seen with the id. */
  reused: boolean;
}

/** What one answer showed: reuse found, and how many case bodies were judged (seen while the run had deletions). */
export interface ReuseSeen {
  findings: { finding: InvariantFinding; caseId: Id }[];
  judged: number;
}

export class IdReuseWatch {
  /** The identity each case last showed, by `org id`. */
  readonly #seen = new Map<string, CaseIdentity>();
  readonly #deleted = new Map<string, Deleted>();
  /** Holders already reported, by `org id created_at`: a reused id is read again and again. */
  readonly #reported = new Set<string>();
  readonly #file: string | undefined;
  /** How much of the shared file has been read. */
  #offset = 0;

  /** `dir`: the run's shared folder; without one (outside a run), the worker's own deletions only. */
  constructor(dir?: string) {
    this.#file = dir ? join(dir, DELETED_CASES_FILE) : undefined;
  }

  /**
   * Judges the case bodies of one 2xx answer (`bodies`), then records a deletion it confirms. `sent`: the request's
   * body (a write naming a deleted case may give it an external_id: #written).
   */
  observe(method: string, pathname: string, org: string, status: number, bodies: JsonObject[], sent?: string) {
    const out: ReuseSeen = { findings: [], judged: 0 };
    if (bodies.length || this.#deleted.size) this.#sync();
    this.#written(method, pathname, org, sent);
    for (const body of bodies) {
      const shown = identityOf(body);
      if (!shown) continue;
      const key = `${org} ${shown.id}`;
      if (this.#deleted.size > 0) out.judged += 1;
      const gone = this.#deleted.get(key);
      if (gone) {
        const same = gone.identities.find((was) => !anotherCase(was, body));
        if (same) knownAs(same, body.external_id);
        else {
          if (!gone.reused) this.#record({ kind: 'reused', org, id: shown.id });
          const holder = `${key} ${String(body.created_at)}`;
          if (!this.#reported.has(holder)) {
            this.#reported.add(holder);
            const finding: InvariantFinding = {
              requirement: 'CASE-ID-NOT-REUSED',
              what: `case ${shown.id}, deleted earlier in the run`,
              expected:
                'the id names no other case once its case is deleted: the case deleted was known by ' +
                gone.identities.map(describeIdentity).join('; then by '),
              received: `another case with that id: ${describeIdentity(shown)}`,
            };
            out.findings.push({ finding, caseId: shown.id });
          }
        }
      }
      keepNewest(this.#seen, key, shown, SEEN_KEPT);
    }
    if (method === 'DELETE' && status >= 200 && status <= 299) {
      const id = idFromText(ONE_CASE.exec(pathname)?.[1] ?? '');
      const last = id === undefined ? undefined : this.#seen.get(`${org} ${id}`);
      if (last && id !== undefined)
        this.#record({ kind: 'deleted', org, id, createdAt: last.createdAt, externalIds: last.externalIds });
    }
    return out;
  }

  /**
   * The external_ids a write sends to deleted cases (a PATCH of one, a JSON bulk update naming it), whatever it
   * answered: a server that brings a deleted case back may give it the value, and the case is still the same one.
   */
  #written(method: string, pathname: string, org: string, sent: string | undefined): void {
    if (!sent || this.#deleted.size === 0) return;
    const give = (id: unknown, externalId: unknown) => {
      const gone = this.#deleted.get(`${org} ${String(id)}`);
      if (gone && externalId !== undefined) knownAs(gone.identities.at(-1)!, externalId);
    };
    const one = method === 'PATCH' ? ONE_CASE.exec(pathname) : null;
    if (!one && !(method === 'POST' && BULK_CASES.test(pathname))) return;
    let body: unknown;
    try {
      body = parseJson(sent);
    } catch {
      body = one ? Object.fromEntries(new URLSearchParams(sent)) : undefined; // a form-encoded PATCH
    }
    if (!isJsonObject(body)) return;
    if (one) give(one[1], body.external_id);
    else if (Array.isArray(body.items))
      for (const item of body.items) if (isJsonObject(item)) give(item.id, item.external_id);
  }

  /** Whether the run has seen another case with the id of a case it deleted (so a request to it reaches that case). */
  reused(org: string, id: Id): boolean {
    this.#sync();
    return this.#deleted.get(`${org} ${id}`)?.reused === true;
  }

  #record(line: Line): void {
    if (!this.#file) {
      this.#apply(line);
      return;
    }
    appendFileSync(this.#file, `${stringifyJson(line)}\n`);
    this.#sync();
  }

  #apply(line: Line): void {
    const key = `${line.org} ${line.id}`;
    const d = this.#deleted.get(key) ?? { identities: [], reused: false };
    keepNewest(this.#deleted, key, d, DELETED_KEPT);
    if (line.kind === 'reused') d.reused = true;
    else d.identities.push({ id: line.id, createdAt: line.createdAt, externalIds: [...(line.externalIds ?? [])] });
  }

  /** Reads what the run's workers appended since the last read (whole lines only). */
  #sync(): void {
    if (!this.#file) return;
    let size: number;
    try {
      size = statSync(this.#file).size;
    } catch {
      return; // nothing deleted yet
    }
    if (size <= this.#offset) return;
    const buffer = Buffer.alloc(size - this.#offset);
    const fd = openSync(this.#file, 'r');
    try {
      readSync(fd, buffer, 0, buffer.length, this.#offset);
    } finally {
      closeSync(fd);
    }
    const text = buffer.toString('utf8');
    const end = text.lastIndexOf('\n') + 1;
    this.#offset += Buffer.byteLength(text.slice(0, end));
    for (const raw of text.slice(0, end).split('\n')) {
      if (!raw) continue;
      try {
        this.#apply(parseJson(raw) as Line);
      } catch {
        // a line this run did not write whole: skipped
      }
    }
  }
}
