/** The reader of one bulk answer: walks it and records, per request item, what the answer says of it. */
import { isJsonObject, type JsonObject } from '../../base/json.ts';
import { type Id, idFromText } from '../../spec/index.ts';
import { type PendingLabel, type Signal, decideBase } from './bases.ts';
import { NUMERIC, child } from './json-path.ts';
import { entryLabels, heldStrings, type IndexLabel, messageLabel, parseLabel } from './labels.ts';
import type { BulkReport, BulkRequestItem, ItemReport, Unplaced } from './types.ts';
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

/** Request items an entry names, how, or the index a label of it carries (placed once the answer is read). */
interface Named {
  targets: number[];
  by: string[];
  label?: IndexLabel;
}

export class Reader {
  readonly signals: Signal[][];
  readonly contexts: string[] = [];
  readonly notes: string[] = [];
  readonly unplaced: Unplaced[] = [];
  readonly #pending: PendingLabel[] = [];
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

  /** Every request item an object names: its index when it has one, else by id / external_id, else by a label. */
  #objectTargets(e: JsonObject): Named {
    const index = this.#explicitIndex(e);
    if (index !== undefined) return { targets: this.#validIndex(index) ? [index] : [], by: ['index'] };
    const byId = this.#idTargets(e);
    if (byId.targets.length > 0) return byId;
    for (const label of entryLabels(e)) {
      const named = this.#labelTargets(label);
      if (named) return named;
    }
    return byId;
  }

  /**
   * What a label names (labels.ts): a requested id after a word for one (`id 45`), a requested external_id or
   * string id it holds (`customer cust-b`), else the index it carries, its base decided once the answer is read.
   */
  #labelTargets(label: string): Named | undefined {
    const parsed = parseLabel(label);
    for (const id of parsed.ids) {
      const targets = this.#ids.get(id);
      if (targets) return { targets, by: ['id in a label'] };
    }
    const strings = [...this.#externalIds.keys(), ...[...this.#ids.keys()].filter((k) => !NUMERIC.test(k))];
    const held = heldStrings(label, strings);
    if (held.length === 1) {
      const ext = this.#externalIds.has(held[0]!);
      return { targets: this.#stringTargets(held[0]!)!, by: [ext ? 'external_id in a label' : 'id in a label'] };
    }
    if (parsed.index) return { targets: [], by: ['index in a label'], label: parsed.index };
    return undefined;
  }

  /**
   * Places one entry: on the items it names, or (a label's index) once the answer is read; else it stays unplaced.
   * Returns how many items it was placed on, a pending label counting as one.
   */
  #place(named: Named, outcome: Outcome | 'contradictory', where: string, why: string): number {
    if (named.targets.length > 0) return this.#signal(named.targets, outcome, where);
    if (named.label) {
      this.#pending.push({ index: named.label, outcome, where });
      return 1;
    }
    this.unplaced.push({ where, ...(outcome === 'contradictory' ? {} : { outcome }), why });
    return 0;
  }

  /** An entry found for items whose status it does not say in words the reader knows. */
  #unread(targets: readonly number[], where: string): void {
    this.unplaced.push({ where, items: [...targets], why: 'a status screenconf does not read' });
  }

  /** Rule 1: an array of objects with per-item statuses. */
  resultsList(list: unknown[], path: string): void {
    const entries = list.map((e) => (isJsonObject(e) ? e : undefined));
    const named = entries.map((e): Named => (e ? this.#objectTargets(e) : { targets: [], by: [] }));
    const positional =
      list.length === this.n && named.every((t, i) => !t.label && (t.targets.length === 0 || t.targets.includes(i)));
    const how = new Set<string>();
    let matched = 0;
    entries.forEach((e, i) => {
      if (!e) return;
      const outcome = entryOutcome(e);
      const own: Named = positional ? { targets: [i], by: named[i]!.by } : named[i]!;
      if (!outcome) {
        if (own.targets.length > 0) this.#unread(own.targets, child(path, i));
        return;
      }
      if (positional) how.add(named[i]!.by.includes('index') ? 'index' : 'position');
      else for (const b of own.by) how.add(b);
      matched += this.#place(own, outcome, child(path, i), 'an entry naming no requested item');
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
    const none = 'an entry naming no requested item';
    list.forEach((e, i) => {
      const where = child(path, i);
      if (typeof e === 'number' || typeof e === 'bigint') {
        kinds.add(numbers.how);
        matched += this.#place({ targets: numbers.targets(e), by: [] }, outcome, where, `${none} (${numbers.how})`);
      } else if (typeof e === 'string' && e !== '') {
        const byString = this.#stringTargets(e);
        if (byString) {
          kinds.add(this.#externalIds.has(e) ? 'external_ids' : 'ids');
          matched += this.#signal(byString, outcome, where);
        } else if (NUMERIC.test(e)) {
          kinds.add(numbers.how);
          const named = { targets: numbers.targets(idFromText(e)!), by: [] };
          matched += this.#place(named, outcome, where, `${none} (${numbers.how})`);
        } else {
          // A message that opens with a label: `Item 2: not found`, `items[1].id: required`.
          const head = messageLabel(e);
          const named = (head !== undefined ? this.#labelTargets(head) : undefined) ?? { targets: [], by: [] };
          kinds.add(named.by.length ? `messages with ${named.by.join(' and ')}` : 'messages naming no item');
          matched += this.#place(named, outcome, where, 'a message naming no requested item');
        }
      } else if (isJsonObject(e) && !isEmpty(e)) {
        const t = this.#objectTargets(e);
        kinds.add(`objects with ${t.by.join(' and ') || 'no identifier'}`);
        matched += this.#place(t, entryOutcome(e) ?? outcome, where, none);
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
      const o = valueOutcome(map[key]) ?? outcome;
      const byString = this.#stringTargets(key);
      let named: Named = { targets: [], by: [] };
      if (byString) {
        named = { targets: byString, by: [this.#externalIds.has(key) ? 'external_id' : 'id'] };
      } else if (NUMERIC.test(key)) {
        const by = numbers.how === 'ids' ? 'id' : numbers.how === 'indexes' ? 'index' : 'id or index';
        named = { targets: numbers.targets(idFromText(key)!), by: [by] };
      } else {
        named = this.#labelTargets(key) ?? named;
      }
      if (!o) {
        if (named.targets.length > 0) this.#unread(named.targets, child(path, key));
        continue;
      }
      for (const b of named.by) kinds.add(b === 'index in a label' ? 'item label' : b);
      matched += this.#place(named, o, child(path, key), 'a key naming no requested item');
    }
    this.#context(
      matched,
      `${label} at ${path} keyed by ${[...kinds].join(' and ') || 'nothing requested'}`,
      keys.length === 0,
    );
  }

  /** A key that can name items: a number, a requested external_id or string id, a label (`item 1`, `id 45`). */
  #itemKey(key: string): boolean {
    return NUMERIC.test(key) || this.#stringTargets(key) !== undefined || this.#labelTargets(key) !== undefined;
  }

  /** A map whose every key can name items. */
  itemKeyed(map: JsonObject): boolean {
    const keys = Object.keys(map);
    return keys.length > 0 && keys.every((k) => this.#itemKey(k));
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
    if (!isJsonObject(value)) {
      // A message or a flag under a name for failure (`"errors": "2 items failed"`) says some item failed, not which.
      if (hint === 'failed' && ((typeof value === 'string' && value !== '') || value === true))
        this.unplaced.push({ where: path, outcome: 'failed', why: 'a failure naming no item' });
      return;
    }
    const keys = Object.keys(value);
    const named = keys.filter((k) => this.#itemKey(k));
    let rest = keys;
    if (named.length > 0 && named.length === keys.length) {
      if (hint) {
        this.keyedMap(value, path, hint, hint === 'failed' ? 'failure map' : 'success map');
        return;
      }
      if (Object.values(value).some((v) => valueOutcome(v) !== undefined)) {
        this.keyedMap(value, path, undefined, 'results map');
        return;
      }
    } else if (named.length > 0 && hint) {
      // Under a name for an outcome, the keys that name items beside others (`{"item 1": […], "detail": "…"}`).
      const map = Object.fromEntries(named.map((k) => [k, value[k]]));
      this.keyedMap(map, path, hint, hint === 'failed' ? 'failure map' : 'success map');
      rest = keys.filter((k) => !named.includes(k));
    }
    if (depth >= MAX_DEPTH) return;
    for (const key of rest) this.explore(value[key], child(path, key), depth + 1, nameOutcome(key) ?? hint);
  }

  /** Places the labels' indexes, each kind counted from the base the rest of the answer shows (bases.ts). */
  #placeLabels(): void {
    const before = this.signals.map((s) => [...s]);
    for (const kind of ['subscript', 'ordinal'] as const) {
      const labels = this.#pending.filter((p) => p.index.kind === kind);
      if (labels.length === 0) continue;
      const decision = decideBase(labels, before);
      if (decision.base === undefined) {
        this.notes.push(decision.why);
        for (const l of labels)
          this.unplaced.push({
            where: l.where,
            ...(l.outcome === 'contradictory' ? {} : { outcome: l.outcome }),
            why: decision.why,
          });
        continue;
      }
      this.contexts.push(decision.why);
      for (const l of labels) this.#signal([l.index.n - decision.base], l.outcome, l.where);
    }
    this.#pending.length = 0;
  }

  /** The report; recognised, unless said, when some part of the answer was read as one. */
  report(recognised?: boolean): BulkReport {
    this.#placeLabels();
    recognised ??= this.signals.some((s) => s.length > 0) || this.contexts.length > 0;
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
      unplaced: this.unplaced,
    };
  }
}
