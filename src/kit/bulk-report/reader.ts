/** The reader of one bulk answer: walks it and records, per request item, what the answer says of it. */
import { isJsonObject, type JsonObject } from '../../base/json.ts';
import { type Id, idFromText } from '../../spec/index.ts';
import { NUMERIC, child } from './json-path.ts';
import type { BulkReport, BulkRequestItem, ItemReport } from './types.ts';
import {
  EXTERNAL_ID_FIELDS,
  ID_FIELDS,
  INDEX_FIELDS,
  MAX_DEPTH,
  NESTED_FIELDS,
  type Outcome,
  entryOutcome,
  isEmpty,
  keyOf,
  nameNumbers,
  nameOutcome,
  squash,
  valueOutcome,
} from './vocabulary.ts';

export class Reader {
  readonly signals: { outcome: Outcome; where: string }[][];
  readonly contexts: string[] = [];
  readonly notes: string[] = [];
  readonly #ids = new Map<string, number[]>();
  readonly #externalIds = new Map<string, number[]>();

  constructor(readonly request: readonly BulkRequestItem[]) {
    this.signals = request.map(() => []);
    request.forEach((item, i) => {
      const bare = typeof item !== 'object';
      const id = bare ? keyOf(item) : keyOf(item.id);
      const ext = bare ? undefined : keyOf(item.external_id);
      if (id !== undefined) this.#ids.set(id, [...(this.#ids.get(id) ?? []), i]);
      if (ext !== undefined) this.#externalIds.set(ext, [...(this.#externalIds.get(ext) ?? []), i]);
    });
  }

  get n(): number {
    return this.request.length;
  }

  #validIndex(x: Id): boolean {
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

  /**
   * How the bare numbers of one list or map are read, as a whole: as its name says when it says
   * (`failed_indexes`, `error_ids`), else as ids when every one is a requested id, else as indexes.
   */
  #numberReader(numbers: readonly Id[], path: string): { how: string; targets: (x: Id) => number[] } {
    const named = nameNumbers(/\.([A-Za-z_][A-Za-z0-9_-]*)$/.exec(path)?.[1] ?? '');
    if (named === 'indexes') return { how: 'indexes', targets: (x) => (this.#validIndex(x) ? [Number(x)] : []) };
    if (named === 'ids') return { how: 'ids', targets: (x) => this.#ids.get(String(x)) ?? [] };
    if (numbers.every((x) => this.#ids.has(String(x))))
      return { how: 'ids', targets: (x) => this.#ids.get(String(x)) ?? [] };
    if (numbers.every((x) => this.#validIndex(x))) return { how: 'indexes', targets: (x) => [Number(x)] };
    return {
      how: 'ids or indexes',
      targets: (x) => this.#ids.get(String(x)) ?? (this.#validIndex(x) ? [Number(x)] : []),
    };
  }

  /** The bare numbers among entries (or keys) that are not external_ids or string ids (exact beyond 2^53). */
  #bareNumbers(values: readonly unknown[]): Id[] {
    const out: Id[] = [];
    for (const v of values) {
      if (typeof v === 'number' || typeof v === 'bigint') out.push(v);
      else if (typeof v === 'string' && NUMERIC.test(v) && !this.#stringTargets(v)) out.push(idFromText(v)!);
    }
    return out;
  }

  #explicitIndex(e: JsonObject): number | undefined {
    for (const [key, v] of Object.entries(e)) {
      if (INDEX_FIELDS.has(squash(key)) && typeof v === 'number' && Number.isInteger(v)) return v;
    }
    return undefined;
  }

  /** Request items an object names by id or external_id (its own fields, or a nested item's). */
  #idTargets(e: JsonObject, depth = 0): { targets: number[]; by: string[] } {
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
        if (!isJsonObject(nested)) continue;
        const inner = this.#idTargets(nested, 1);
        for (const i of inner.targets) found.add(i);
        for (const b of inner.by) by.add(`${key}.${b}`);
      }
    }
    return { targets: [...found], by: [...by] };
  }

  /** Every request item an object names: its index when it has one, else by id / external_id. */
  #objectTargets(e: JsonObject): { targets: number[]; by: string[] } {
    const index = this.#explicitIndex(e);
    if (index !== undefined) return { targets: this.#validIndex(index) ? [index] : [], by: ['index'] };
    return this.#idTargets(e);
  }

  /** Rule 1: an array of objects with per-item statuses. */
  resultsList(list: unknown[], path: string): void {
    const entries = list.map((e) => (isJsonObject(e) ? e : undefined));
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
      typeof e === 'bigint' ||
      (typeof e === 'string' && (this.#stringTargets(e) !== undefined || NUMERIC.test(e))) ||
      (isJsonObject(e) && (this.#explicitIndex(e) !== undefined || this.#idTargets(e).targets.length > 0));
    if (outcome === 'failed' && list.length === this.n && this.n > 0 && list.some(isEmpty) && !list.some(identifies)) {
      let matched = 0;
      list.forEach((e, i) => {
        const own = isJsonObject(e) ? entryOutcome(e) : undefined;
        matched += this.#signal([i], isEmpty(e) ? 'succeeded' : (own ?? 'failed'), child(path, i));
      });
      this.#context(matched, `positional ${label} at ${path} (one entry per item, empty where it succeeded)`);
      return;
    }
    const numbers = this.#numberReader(this.#bareNumbers(list), path);
    const kinds = new Set<string>();
    let matched = 0;
    list.forEach((e, i) => {
      const where = child(path, i);
      if (typeof e === 'number' || typeof e === 'bigint') {
        kinds.add(numbers.how);
        matched += this.#signal(numbers.targets(e), outcome, where);
      } else if (typeof e === 'string') {
        const byString = this.#stringTargets(e);
        if (byString) {
          kinds.add(this.#externalIds.has(e) ? 'external_ids' : 'ids');
          matched += this.#signal(byString, outcome, where);
        } else if (NUMERIC.test(e)) {
          kinds.add(numbers.how);
          matched += this.#signal(numbers.targets(idFromText(e)!), outcome, where);
        }
      } else if (isJsonObject(e)) {
        const t = this.#objectTargets(e);
        kinds.add(`objects with ${t.by.join(' and ') || 'no identifier'}`);
        matched += this.#signal(t.targets, entryOutcome(e) ?? outcome, where);
      }
    });
    const entries = list.length === 0 ? 'empty' : `entries are ${[...kinds].join(', ') || 'not identifiers'}`;
    this.#context(matched, `${label} at ${path} (${entries})`, list.length === 0);
  }

  /** Rule 3: a map keyed by index, id or external_id; `outcome` when it is named for one. */
  keyedMap(map: JsonObject, path: string, outcome: Outcome | undefined, label: string): void {
    const keys = Object.keys(map);
    const numbers = this.#numberReader(this.#bareNumbers(keys), path);
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
        targets = numbers.targets(idFromText(key)!);
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
  itemKeyed(map: JsonObject): boolean {
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
      else if (value.some((e) => isJsonObject(e) && entryOutcome(e) !== undefined)) this.resultsList(value, path);
      return;
    }
    if (!isJsonObject(value)) return;
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
