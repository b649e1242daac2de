/**
 * Recognising per-item failure reports in bulk answers.
 *
 * The interface says bulk operations report failures per item (§ Errors 1) but not how ("Shape
 * of per-item failure entries: not shown"). recogniseBulkReport reads a parsed answer and tells,
 * for each item of the request, whether the answer reports it as failed, as succeeded, or says
 * nothing about it, and describes the shape it recognised (or 'unrecognised').
 *
 * Shapes (searched through objects up to three levels deep; arrays are not searched inside,
 * so the checks nested in a case never pass for a report):
 *  1. A results list: an array of objects of which at least one carries a per-item status:
 *     `ok` / `success` / `succeeded` (boolean), `failed` / `error` (boolean), `status` / `state`
 *     / `result` (a word: updated, deleted, ok, success… or failed, error, not_found, rejected,
 *     invalid, conflict, skipped…; or an HTTP status, 2xx succeeded and 4xx/5xx failed),
 *     `status_code` / `http_status` / `code` (an HTTP status), or `error` / `errors` (non-empty
 *     means failed; null or empty, with no other sign, succeeded). The `status` of an object that
 *     is a Case or a Check (check_type, reasoning, risk_score, checks…) is its own, not a report.
 *  2. Lists named for their outcome: failed, failures, errors, rejected, invalid, not_found,
 *     missing, unknown, skipped, conflicts… against updated, succeeded, success, deleted,
 *     removed, ok, applied, done… (the words ids, items, indexes, external… in a name are
 *     ignored: `failed_ids`, `errorIndexes`). Entries are ids, external_ids, indexes, or
 *     objects carrying them. Counts (`"failed": 2`) say nothing about an item.
 *  3. An object keyed by index, id or external_id: under a name of rule 2 every key takes that
 *     outcome; anywhere else it counts when its values carry a status as in rule 1.
 *  4. A positional error list: a failure-named list with one entry per request item, empty
 *     (null, {}, "", []) where that item succeeded.
 *
 * Matching an entry to request items, most explicit first:
 *  - an `index` (idx, item_index, position) field names the item at that 0-based index;
 *  - else, in a results list with one entry per request item where every entry that names an
 *    item names the one at its own position, the entry's position;
 *  - else its `id` (pk, case_id, customer_id, check_id) and `external_id` fields, or those of a
 *    nested `item` / `request` / `input` / `data` object, name every request item with that value;
 *  - a bare number (an entry, a map key, a numeric string) is read with its list or map as a
 *    whole: as ids when every number there is a requested id; else as indexes when every number
 *    is a valid index; else number by number, a requested id first, then an index. So
 *    `{"failed": [3]}` means the item with id 3 when one was requested, the item at index 3
 *    otherwise; `{"failed": [{"index": 3}]}` and `{"failed": [{"id": 3}]}` are never ambiguous;
 *  - a bare string names the item with that external_id (or string id), else counts as a bare
 *    number when it is one.
 * An entry's own status decides its outcome; failing that, the name of its list or map.
 * An item reported both ways is 'contradictory'. 1-based positions (row, line) are not
 * recognised.
 *
 * With `failuresPath` (--bulk-failures-path, e.g. `$.errors`, `$.data.failed`) only the value
 * there is read, as a failure list or map under rules 2–4 (entries carrying a success status of
 * their own still count as successes, so the path may name a results list), and nothing else.
 */

export type ItemReport = 'failed' | 'succeeded' | 'unreported' | 'contradictory';

/** A request item as the recogniser matches it: a bare number is an id (bulk check delete). */
export type BulkRequestItem = number | { readonly id?: unknown; readonly external_id?: unknown };

export interface BulkReportOptions {
  /** JSON path naming the failure list exactly (`$.errors`): the run's bulkFailuresPath. */
  failuresPath?: string;
}

export interface BulkReport {
  /** False when no part of the answer could be read as a per-item report. */
  recognised: boolean;
  /** The shape recognised, in a few words; 'unrecognised' when none was. */
  shape: string;
  /** Per request item, by index. */
  items: ItemReport[];
  /** Per request item: where the answer reports it (`$.results[3]`); empty when nowhere. */
  where: string[][];
  /** What was seen but named no requested item, for messages. */
  notes: string[];
}

type Outcome = 'failed' | 'succeeded';
type Json = Record<string, unknown>;

const MAX_DEPTH = 3;

const FAILURE_NAMES = new Set([
  'failed',
  'failure',
  'failures',
  'fail',
  'fails',
  'error',
  'errors',
  'errored',
  'rejected',
  'rejections',
  'invalid',
  'notfound',
  'missing',
  'unknown',
  'skipped',
  'conflict',
  'conflicts',
  'denied',
  'forbidden',
  'notupdated',
  'notdeleted',
  'unprocessed',
]);
const SUCCESS_NAMES = new Set([
  'succeeded',
  'success',
  'successes',
  'successful',
  'ok',
  'updated',
  'deleted',
  'removed',
  'applied',
  'done',
  'accepted',
  'modified',
  'changed',
  'saved',
]);
/** Words of a name that say what the entries are, not what became of them. */
const NOISE_WORDS = new Set([
  'ids',
  'id',
  'items',
  'item',
  'indexes',
  'indices',
  'index',
  'external',
  'entries',
  'entry',
  'list',
  'records',
  'keys',
  'rows',
]);

const FAILURE_WORDS = new Set([
  'failed',
  'failure',
  'fail',
  'error',
  'errored',
  'rejected',
  'invalid',
  'notfound',
  'missing',
  'conflict',
  'denied',
  'forbidden',
  'unauthorized',
  'unauthorised',
  'skipped',
  'ignored',
  'notupdated',
  'notdeleted',
  'unprocessable',
  'badrequest',
  'ko',
  'aborted',
  'unknown',
]);
const SUCCESS_WORDS = new Set([
  'ok',
  'success',
  'succeeded',
  'successful',
  'updated',
  'deleted',
  'removed',
  'applied',
  'done',
  'accepted',
  'modified',
  'changed',
  'saved',
  'completed',
]);

const INDEX_FIELDS = new Set(['index', 'idx', 'itemindex', 'position']);
const ID_FIELDS = new Set(['id', 'pk', 'caseid', 'customerid', 'checkid']);
const EXTERNAL_ID_FIELDS = new Set(['externalid']);
const NESTED_FIELDS = ['item', 'request', 'input', 'data'];
const BOOLEAN_OK_FIELDS = new Set(['ok', 'success', 'succeeded', 'successful']);
const BOOLEAN_FAILED_FIELDS = new Set(['failed', 'failure', 'error', 'errored']);
const STATUS_FIELDS = new Set(['status', 'state', 'result']);
const HTTP_STATUS_FIELDS = new Set(['statuscode', 'httpstatus', 'code']);
const ERROR_FIELDS = new Set(['error', 'errors', 'errorcode', 'errormessage', 'exception', 'failurereason']);
/** Fields of a Case or Check: an object with one is a resource, and its status is its own. */
const RESOURCE_FIELDS = ['check_type', 'reasoning', 'risk_score', 'is_complete', 'checks', 'customer'];

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function squash(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** The outcome a key's name stands for (`failed_ids` → failed), if any. */
function nameOutcome(key: string): Outcome | undefined {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '' && !NOISE_WORDS.has(w));
  const name = words.join('');
  if (FAILURE_NAMES.has(name)) return 'failed';
  if (SUCCESS_NAMES.has(name)) return 'succeeded';
  return undefined;
}

function httpOutcome(v: unknown): Outcome | undefined {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 100 || v > 599) return undefined;
  if (v >= 200 && v <= 299) return 'succeeded';
  return v >= 400 ? 'failed' : undefined;
}

function wordOutcome(v: unknown): Outcome | undefined {
  if (typeof v === 'number') return httpOutcome(v);
  if (typeof v !== 'string') return undefined;
  const w = squash(v);
  if (FAILURE_WORDS.has(w)) return 'failed';
  if (SUCCESS_WORDS.has(w)) return 'succeeded';
  return undefined;
}

function isEmpty(v: unknown): boolean {
  return (
    v === null ||
    v === undefined ||
    v === '' ||
    (Array.isArray(v) && v.length === 0) ||
    (isObject(v) && Object.keys(v).length === 0)
  );
}

/** The status an object carries about itself (rule 1), if any. */
function entryOutcome(e: Json): Outcome | 'contradictory' | undefined {
  const strong = new Set<Outcome>();
  let weakSuccess = false;
  const resource = RESOURCE_FIELDS.some((f) => f in e);
  for (const [key, v] of Object.entries(e)) {
    const f = squash(key);
    if (typeof v === 'boolean' && BOOLEAN_OK_FIELDS.has(f)) strong.add(v ? 'succeeded' : 'failed');
    else if (typeof v === 'boolean' && BOOLEAN_FAILED_FIELDS.has(f)) strong.add(v ? 'failed' : 'succeeded');
    else if (STATUS_FIELDS.has(f) && !resource) {
      const o = wordOutcome(v);
      if (o) strong.add(o);
    } else if (HTTP_STATUS_FIELDS.has(f)) {
      const o = httpOutcome(v);
      if (o) strong.add(o);
    } else if (ERROR_FIELDS.has(f)) {
      if (isEmpty(v)) weakSuccess = true;
      else strong.add('failed');
    }
  }
  if (strong.size === 2) return 'contradictory';
  if (strong.size === 1) return [...strong][0];
  return weakSuccess ? 'succeeded' : undefined;
}

/** The status a map value carries: a word, an HTTP status, a boolean, or an object's own. */
function valueOutcome(v: unknown): Outcome | 'contradictory' | undefined {
  if (typeof v === 'boolean') return v ? 'succeeded' : 'failed';
  if (isObject(v)) return entryOutcome(v);
  return wordOutcome(v);
}

function keyOf(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'string' && v !== '') return v;
  return undefined;
}

const NUMERIC = /^-?\d+$/;

/** A JSON path of keys and indexes (`$.data.failed`, `$.errors[0]`), split; undefined when malformed. */
function parsePath(path: string): (string | number)[] | undefined {
  if (!path.startsWith('$')) return undefined;
  const steps: (string | number)[] = [];
  const re = /\.([A-Za-z_][A-Za-z0-9_-]*)|\[(\d+)\]/y;
  re.lastIndex = 1;
  while (re.lastIndex < path.length) {
    const m = re.exec(path);
    if (!m) return undefined;
    steps.push(m[1] !== undefined ? m[1] : Number(m[2]));
  }
  return steps;
}

/** The value at a JSON path of keys and indexes (`$.results[3]`), or undefined. */
export function jsonPathValue(body: unknown, path: string): unknown {
  const steps = parsePath(path);
  if (!steps) return undefined;
  let v: unknown = body;
  for (const s of steps) {
    if (typeof s === 'number') v = Array.isArray(v) ? v[s] : undefined;
    else v = isObject(v) && Object.hasOwn(v, s) ? v[s] : undefined;
  }
  return v;
}

function child(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

class Reader {
  readonly signals: { outcome: Outcome; where: string }[][];
  readonly contexts: string[] = [];
  readonly notes: string[] = [];
  readonly #ids = new Map<string, number[]>();
  readonly #externalIds = new Map<string, number[]>();

  constructor(readonly request: readonly BulkRequestItem[]) {
    this.signals = request.map(() => []);
    request.forEach((item, i) => {
      const id = typeof item === 'number' ? keyOf(item) : keyOf(item.id);
      const ext = typeof item === 'number' ? undefined : keyOf(item.external_id);
      if (id !== undefined) this.#ids.set(id, [...(this.#ids.get(id) ?? []), i]);
      if (ext !== undefined) this.#externalIds.set(ext, [...(this.#externalIds.get(ext) ?? []), i]);
    });
  }

  get n(): number {
    return this.request.length;
  }

  #validIndex(x: number): boolean {
    return Number.isInteger(x) && x >= 0 && x < this.n;
  }

  #signal(indices: readonly number[], outcome: Outcome | 'contradictory', where: string): number {
    for (const i of indices) {
      if (outcome === 'contradictory')
        this.signals[i]!.push({ outcome: 'failed', where }, { outcome: 'succeeded', where });
      else this.signals[i]!.push({ outcome, where });
    }
    return indices.length;
  }

  /** A bare string: an external_id (or non-numeric string id) when one was requested; numbers go by the number rule. */
  #stringTargets(s: string): number[] | undefined {
    return this.#externalIds.get(s) ?? (NUMERIC.test(s) ? undefined : this.#ids.get(s));
  }

  /** How the bare numbers of one list or map are read, as a whole. */
  #numberReader(numbers: readonly number[]): { how: string; targets: (x: number) => number[] } {
    if (numbers.every((x) => this.#ids.has(String(x))))
      return { how: 'ids', targets: (x) => this.#ids.get(String(x)) ?? [] };
    if (numbers.every((x) => this.#validIndex(x))) return { how: 'indexes', targets: (x) => [x] };
    return {
      how: 'ids or indexes',
      targets: (x) => this.#ids.get(String(x)) ?? (this.#validIndex(x) ? [x] : []),
    };
  }

  /** The bare numbers among entries (or keys) that are not external_ids or string ids. */
  #bareNumbers(values: readonly unknown[]): number[] {
    const out: number[] = [];
    for (const v of values) {
      if (typeof v === 'number') out.push(v);
      else if (typeof v === 'string' && NUMERIC.test(v) && !this.#stringTargets(v)) out.push(Number(v));
    }
    return out;
  }

  #explicitIndex(e: Json): number | undefined {
    for (const [key, v] of Object.entries(e)) {
      if (INDEX_FIELDS.has(squash(key)) && typeof v === 'number' && Number.isInteger(v)) return v;
    }
    return undefined;
  }

  /** Request items an object names by id or external_id (its own fields, or a nested item's). */
  #idTargets(e: Json, depth = 0): { targets: number[]; by: string[] } {
    const found = new Set<number>();
    const by = new Set<string>();
    for (const [key, v] of Object.entries(e)) {
      const f = squash(key);
      const k = keyOf(v);
      if (k === undefined) continue;
      const named = ID_FIELDS.has(f)
        ? this.#ids.get(k)
        : EXTERNAL_ID_FIELDS.has(f)
          ? this.#externalIds.get(k)
          : undefined;
      if (!named) continue;
      for (const i of named) found.add(i);
      by.add(ID_FIELDS.has(f) ? 'id' : 'external_id');
    }
    if (depth === 0) {
      for (const key of NESTED_FIELDS) {
        const nested = e[key];
        if (!isObject(nested)) continue;
        const inner = this.#idTargets(nested, 1);
        for (const i of inner.targets) found.add(i);
        for (const b of inner.by) by.add(`${key}.${b}`);
      }
    }
    return { targets: [...found], by: [...by] };
  }

  /** Every request item an object names: its index when it has one, else by id / external_id. */
  #objectTargets(e: Json): { targets: number[]; by: string[] } {
    const index = this.#explicitIndex(e);
    if (index !== undefined) return { targets: this.#validIndex(index) ? [index] : [], by: ['index'] };
    return this.#idTargets(e);
  }

  /** Rule 1: an array of objects with per-item statuses. */
  resultsList(list: unknown[], path: string): void {
    const entries = list.map((e) => (isObject(e) ? e : undefined));
    const named = entries.map((e) => (e ? this.#objectTargets(e) : { targets: [], by: [] }));
    const positional = list.length === this.n && named.every((t, i) => t.targets.length === 0 || t.targets.includes(i));
    const how = new Set<string>();
    let matched = 0;
    entries.forEach((e, i) => {
      if (!e) return;
      const outcome = entryOutcome(e);
      if (!outcome) return;
      const targets = positional ? [i] : named[i]!.targets;
      if (positional) how.add(named[i]!.by.includes('index') ? 'index' : 'position');
      else for (const b of named[i]!.by) how.add(b);
      matched += this.#signal(targets, outcome, child(path, i));
    });
    this.#context(
      matched,
      `results list at ${path} with a per-item status, matched by ${[...how].join(' and ') || 'nothing'}`,
    );
  }

  /** Rules 2 and 4: a list named for an outcome (or the configured failure list). */
  outcomeList(list: unknown[], path: string, outcome: Outcome, label: string): void {
    const identifies = (e: unknown) =>
      typeof e === 'number' ||
      (typeof e === 'string' && (this.#stringTargets(e) !== undefined || NUMERIC.test(e))) ||
      (isObject(e) && (this.#explicitIndex(e) !== undefined || this.#idTargets(e).targets.length > 0));
    if (outcome === 'failed' && list.length === this.n && this.n > 0 && list.some(isEmpty) && !list.some(identifies)) {
      let matched = 0;
      list.forEach((e, i) => {
        const own = isObject(e) ? entryOutcome(e) : undefined;
        matched += this.#signal([i], isEmpty(e) ? 'succeeded' : (own ?? 'failed'), child(path, i));
      });
      this.#context(matched, `positional ${label} at ${path} (one entry per item, empty where it succeeded)`);
      return;
    }
    const numbers = this.#numberReader(this.#bareNumbers(list));
    const kinds = new Set<string>();
    let matched = 0;
    list.forEach((e, i) => {
      const where = child(path, i);
      if (typeof e === 'number') {
        kinds.add(numbers.how);
        matched += this.#signal(numbers.targets(e), outcome, where);
      } else if (typeof e === 'string') {
        const byString = this.#stringTargets(e);
        if (byString) {
          kinds.add(this.#externalIds.has(e) ? 'external_ids' : 'ids');
          matched += this.#signal(byString, outcome, where);
        } else if (NUMERIC.test(e)) {
          kinds.add(numbers.how);
          matched += this.#signal(numbers.targets(Number(e)), outcome, where);
        }
      } else if (isObject(e)) {
        const t = this.#objectTargets(e);
        kinds.add(`objects with ${t.by.join(' and ') || 'no identifier'}`);
        matched += this.#signal(t.targets, entryOutcome(e) ?? outcome, where);
      }
    });
    const entries = list.length === 0 ? 'empty' : `entries are ${[...kinds].join(', ') || 'not identifiers'}`;
    this.#context(matched, `${label} at ${path} (${entries})`, list.length === 0);
  }

  /** Rule 3: a map keyed by index, id or external_id; `outcome` when it is named for one. */
  keyedMap(map: Json, path: string, outcome: Outcome | undefined, label: string): void {
    const keys = Object.keys(map);
    const numbers = this.#numberReader(this.#bareNumbers(keys));
    const kinds = new Set<string>();
    let matched = 0;
    for (const key of keys) {
      const own = valueOutcome(map[key]);
      const o = own ?? outcome;
      if (!o) continue;
      const byString = this.#stringTargets(key);
      let targets: number[] = [];
      if (byString) {
        targets = byString;
        kinds.add(this.#externalIds.has(key) ? 'external_id' : 'id');
      } else if (NUMERIC.test(key)) {
        targets = numbers.targets(Number(key));
        kinds.add(numbers.how === 'ids' ? 'id' : numbers.how === 'indexes' ? 'index' : 'id or index');
      }
      matched += this.#signal(targets, o, child(path, key));
    }
    this.#context(
      matched,
      `${label} at ${path} keyed by ${[...kinds].join(' and ') || 'nothing requested'}`,
      keys.length === 0,
    );
  }

  /** Keys that can name items: numbers, requested external_ids or string ids. */
  itemKeyed(map: Json): boolean {
    const keys = Object.keys(map);
    return keys.length > 0 && keys.every((k) => NUMERIC.test(k) || this.#stringTargets(k) !== undefined);
  }

  #context(matched: number, description: string, empty = false): void {
    if (matched > 0 || empty) this.contexts.push(description);
    else this.notes.push(`${description}, naming no requested item`);
  }

  /** Searches the answer for the shapes of rules 1–4. */
  explore(value: unknown, path: string, depth: number, hint: Outcome | undefined): void {
    if (Array.isArray(value)) {
      if (hint) this.outcomeList(value, path, hint, hint === 'failed' ? 'failure list' : 'success list');
      else if (value.some((e) => isObject(e) && entryOutcome(e) !== undefined)) this.resultsList(value, path);
      return;
    }
    if (!isObject(value)) return;
    if (this.itemKeyed(value)) {
      if (hint) {
        this.keyedMap(value, path, hint, hint === 'failed' ? 'failure map' : 'success map');
        return;
      }
      if (Object.values(value).some((v) => valueOutcome(v) !== undefined)) {
        this.keyedMap(value, path, undefined, 'results map');
        return;
      }
    }
    if (depth >= MAX_DEPTH) return;
    for (const [key, v] of Object.entries(value))
      this.explore(v, child(path, key), depth + 1, nameOutcome(key) ?? hint);
  }

  report(recognised: boolean): BulkReport {
    const items = this.signals.map((s): ItemReport => {
      const outcomes = new Set(s.map((x) => x.outcome));
      if (outcomes.size === 2) return 'contradictory';
      if (outcomes.size === 1) return [...outcomes][0]!;
      return 'unreported';
    });
    return {
      recognised,
      shape: recognised ? this.contexts.join('; ') : 'unrecognised',
      items,
      where: this.signals.map((s) => [...new Set(s.map((x) => x.where))]),
      notes: this.notes,
    };
  }
}

/**
 * Reads the per-item report of a bulk answer: for each request item (by index), whether the
 * answer reports it failed, succeeded, both, or not at all. `request` lists the items as sent
 * (their id and, where it identifies the item, external_id) or the ids of a bulk check delete.
 */
export function recogniseBulkReport(
  body: unknown,
  request: readonly BulkRequestItem[],
  options: BulkReportOptions = {},
): BulkReport {
  const reader = new Reader(request);
  if (options.failuresPath !== undefined) {
    const path = options.failuresPath;
    if (!parsePath(path)) {
      reader.notes.push(`${path} is not a JSON path of keys and indexes`);
      return reader.report(false);
    }
    const value = jsonPathValue(body, path);
    if (Array.isArray(value)) {
      reader.outcomeList(value, path, 'failed', 'configured failure list');
      return reader.report(true);
    }
    if (isObject(value) && (reader.itemKeyed(value) || Object.keys(value).length === 0)) {
      reader.keyedMap(value, path, 'failed', 'configured failure map');
      return reader.report(true);
    }
    reader.notes.push(
      value === undefined
        ? `nothing at ${path}`
        : `the value at ${path} is neither a list nor a map keyed by index, id or external_id`,
    );
    return reader.report(false);
  }
  reader.explore(body, '$', 0, undefined);
  return reader.report(reader.signals.some((s) => s.length > 0) || reader.contexts.length > 0);
}
