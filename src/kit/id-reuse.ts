/**
 * Ids a record never shares (CASE-ID-NOT-REUSED), the invariant watcher's part that spans answers: what identifies
 * each case the worker sees (created_at, external_id), which cases the run deleted (a DELETE of one case answered
 * 2xx, the case known by what it showed last), and every later case body showing a deleted case's id: another case
 * there is id reuse; the deleted case itself there (brought back) is not, and is left to the requirements of
 * deletion. The deletions, and the ids found reused, are shared by the run's worker processes through a file in the
 * run's shared folder (appended a line at a time), so a case one worker deleted and another worker meets again under
 * another identity is judged too. A deletion's line holds its exchanges (the case's creation, when this worker made
 * it, and the DELETE), read back from the file when an id is found reused: the setup of that finding, which a replay
 * and a reproduction script send before the creation that showed the id again.
 */
import { type Id, idFromText } from '../spec/index.ts';
import { appendFileSync, closeSync, openSync, readSync, statSync } from 'node:fs';
import type { Exchange } from '../results/exchange.ts';
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
/** The newest creations kept with their exchange (the setup of a deletion's line). */
const CREATIONS_KEPT = 2_000;
/** How much of the shared file is read at a time for one line. */
const LINE_CHUNK = 65_536;

/** Sets a key as the newest of a map kept to `max` entries. */
function keepNewest<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value!);
}

const ONE_CASE = /\/api\/cases\/(\d+)\/$/;
const CASES = /\/api\/cases\/$/;
const BULK_CASES = /\/api\/cases\/bulk-update\/$/;

/** One line of the shared file. */
interface Line {
  kind: 'deleted' | 'reused';
  /** Whose credentials: ids may be per organisation. */
  org: string;
  id: Id;
  createdAt?: unknown;
  externalIds?: unknown[];
  /**
   * A deletion's exchanges: the creation of the case (when the worker that deleted it made it), the DELETE; a reuse's:
   * the creation of the case given the id (by the worker that made it).
   */
  exchanges?: Exchange[];
}

interface Deleted {
  /** The cases deleted with this id (more than one once it was reused and that case deleted too). */
  identities: CaseIdentity[];
  /** Another case was seen with the id. */
  reused: boolean;
  /** Where the exchanges of the last deletion are: the shared file's line at this offset, or the exchanges. */
  freedBy?: Where;
  /** Where the creation of each case seen with the id since (by its created_at) is, when its creator recorded it. */
  holders?: Map<string, Where>;
}

/** Where a line's exchanges are: the shared file's line at this offset, or the exchanges (outside a run). */
type Where = number | Exchange[];

/** An exchange as setup: whatever it was sent for (a suite file's teardown deletes what it made). */
function asSetup({ request: { cleanup: _, ...request }, ...e }: Exchange): Exchange {
  return { ...e, request };
}

/** What one answer showed: reuse found, and how many case bodies were judged (seen while the run had deletions). */
export interface ReuseSeen {
  /**
   * Each finding, with what it rests on, in the order it happened (read when the evidence is made): the creation and
   * deletion of the case that freed the id, then (for an answer other than the holder's creation) the holder's
   * creation.
   */
  findings: { finding: InvariantFinding; caseId: Id; setup: () => Exchange[] }[];
  judged: number;
}

/** What an answer is to the watch: the request, its answer, and whether its bodies are judged or only learnt from. */
export interface ReuseAnswer {
  method: string;
  pathname: string;
  org: string;
  status: number;
  /** The case bodies the answer shows (a creation's, a read's). */
  bodies: JsonObject[];
  /** The request's body (a write naming a deleted case may give it an external_id: #written). */
  sent?: string | undefined;
  exchange?: Exchange | undefined;
  /**
   * False: the answer is setup a replay sends before what it judges (the creation and deletion that freed an id): its
   * identities and deletions are learnt, no finding is made of it.
   */
  judge?: boolean;
}

export class IdReuseWatch {
  /** The identity each case last showed, by `org id`. */
  readonly #seen = new Map<string, CaseIdentity>();
  readonly #deleted = new Map<string, Deleted>();
  /** Holders already reported, by `org id created_at`: a reused id is read again and again. */
  readonly #reported = new Set<string>();
  /** The newest creations this worker made, by `org id`: the identity each showed, and its exchange. */
  readonly #creations = new Map<string, { identity: CaseIdentity; exchange: Exchange }>();
  readonly #file: string | undefined;
  /** How much of the shared file has been read. */
  #offset = 0;

  /** `dir`: the run's shared folder; without one (outside a run), the worker's own deletions only. */
  constructor(dir?: string) {
    this.#file = dir ? join(dir, DELETED_CASES_FILE) : undefined;
  }

  /** Judges the case bodies of one 2xx answer, then records a deletion it confirms. */
  observe(a: ReuseAnswer) {
    const { method, pathname, org, status, bodies } = a;
    const out: ReuseSeen = { findings: [], judged: 0 };
    if (bodies.length || this.#deleted.size) this.#sync();
    this.#written(method, pathname, org, a.sent);
    const creation = a.exchange && method === 'POST' && CASES.test(pathname) ? a.exchange : undefined;
    for (const body of bodies) {
      const shown = identityOf(body);
      if (!shown) continue;
      const key = `${org} ${shown.id}`;
      if (this.#deleted.size > 0 && a.judge !== false) out.judged += 1;
      const gone = this.#deleted.get(key);
      if (gone) {
        const same = gone.identities.find((was) => !anotherCase(was, body));
        if (same) knownAs(same, body.external_id);
        else if (a.judge !== false) {
          const holder = `${key} ${String(body.created_at)}`;
          // The holder's creation, recorded by the worker that made it: the setup of another worker's read of it.
          if (!gone.reused || (creation && !this.#reported.has(holder)))
            this.#record({
              kind: 'reused',
              org,
              id: shown.id,
              createdAt: body.created_at,
              ...(creation ? { exchanges: [asSetup(creation)] } : {}),
            });
          if (!this.#reported.has(holder)) {
            this.#reported.add(holder);
            const finding: InvariantFinding = {
              requirement: 'CASE-ID-NOT-REUSED',
              what: `case ${shown.id}, deleted earlier in the run`,
              expected:
                'the id names no other case once its case is deleted: the case deleted was known by ' +
                gone.identities.map(describeIdentity).join('; then by '),
              received: `another case with that id: ${describeIdentity(shown)}`,
              // A script can compare the id a creation answered with those of the cases it deleted before.
              ...(creation ? { expect: { newId: true } } : {}),
            };
            // Which deletion freed it is known now; what holds it, once its creator has recorded it.
            const [freed, since] = [gone.freedBy, String(body.created_at)];
            const setup = () => [...this.#exchangesAt(freed), ...(creation ? [] : this.#holder(key, since))];
            out.findings.push({ finding, caseId: shown.id, setup });
          }
        }
      }
      keepNewest(this.#seen, key, shown, SEEN_KEPT);
      if (creation) keepNewest(this.#creations, key, { identity: shown, exchange: creation }, CREATIONS_KEPT);
    }
    if (method === 'DELETE' && status >= 200 && status <= 299) {
      const id = idFromText(ONE_CASE.exec(pathname)?.[1] ?? '');
      const key = `${org} ${id}`;
      const last = id === undefined ? undefined : this.#seen.get(key);
      if (last && id !== undefined) {
        // The case's creation, when this worker made the case it last saw with the id.
        const made = this.#creations.get(key);
        const exchanges = [
          ...(made && made.identity.createdAt === last.createdAt ? [made.exchange] : []),
          ...(a.exchange ? [a.exchange] : []),
        ].map(asSetup);
        this.#record({
          kind: 'deleted',
          org,
          id,
          createdAt: last.createdAt,
          externalIds: last.externalIds,
          ...(exchanges.length ? { exchanges } : {}),
        });
      }
    }
    return out;
  }

  /** The exchanges of a line: read back from the shared file, or kept (outside a run). */
  #exchangesAt(at: Where | undefined): Exchange[] {
    if (at === undefined) return [];
    if (typeof at !== 'number') return at;
    const line = this.#readLine(at);
    try {
      return line ? ((parseJson(line) as Line).exchanges ?? []) : [];
    } catch {
      return [];
    }
  }

  /** The creation of the case that holds a deleted id since `createdAt`, when the worker that made it recorded it. */
  #holder(key: string, createdAt: string): Exchange[] {
    this.#sync();
    return this.#exchangesAt(this.#deleted.get(key)?.holders?.get(createdAt));
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
      this.#apply(line, line.exchanges);
      return;
    }
    appendFileSync(this.#file, `${stringifyJson(line)}\n`);
    this.#sync();
  }

  /** Applies a line; `where`: where its exchanges are (the line's offset in the shared file, or themselves). */
  #apply(line: Line, where?: Where): void {
    const key = `${line.org} ${line.id}`;
    const d = this.#deleted.get(key) ?? { identities: [], reused: false };
    keepNewest(this.#deleted, key, d, DELETED_KEPT);
    if (line.kind === 'reused') {
      d.reused = true;
      if (line.exchanges?.length && where !== undefined) (d.holders ??= new Map()).set(String(line.createdAt), where);
    } else {
      d.identities.push({ id: line.id, createdAt: line.createdAt, externalIds: [...(line.externalIds ?? [])] });
      if (line.exchanges?.length) d.freedBy = where;
      else delete d.freedBy;
    }
  }

  /** The bytes of the shared file from `offset`, `length` of them (fewer at its end). */
  #read(offset: number, length: number): Buffer {
    const buffer = Buffer.alloc(length);
    const fd = openSync(this.#file!, 'r');
    try {
      return buffer.subarray(0, readSync(fd, buffer, 0, length, offset));
    } finally {
      closeSync(fd);
    }
  }

  /** The shared file's line at `offset` (read whole: it was when it was applied). */
  #readLine(offset: number): string | undefined {
    if (!this.#file || offset >= this.#offset) return undefined;
    const chunks: Buffer[] = [];
    for (let at = offset; at < this.#offset; ) {
      const bytes = this.#read(at, Math.min(LINE_CHUNK, this.#offset - at));
      const end = bytes.indexOf(0x0a);
      chunks.push(end < 0 ? bytes : bytes.subarray(0, end));
      if (end >= 0 || bytes.length === 0) break;
      at += bytes.length;
    }
    return Buffer.concat(chunks).toString('utf8');
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
    const bytes = this.#read(this.#offset, size - this.#offset);
    // Line by line, by bytes: each deletion is known by its line's offset, where its exchanges are read back.
    let start = 0;
    for (let end = bytes.indexOf(0x0a); end >= 0; end = bytes.indexOf(0x0a, start)) {
      const at = this.#offset + start;
      const raw = bytes.subarray(start, end).toString('utf8');
      start = end + 1;
      if (!raw) continue;
      try {
        this.#apply(parseJson(raw) as Line, at);
      } catch {
        // a line this run did not write whole: skipped
      }
    }
    this.#offset += start;
  }
}
