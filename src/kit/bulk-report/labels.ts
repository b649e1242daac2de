/**
 * Labels that name a request item inside a string: a key (`"item 1"`, `"items[1].id"`, `"#2"`), a field of an error
 * entry (`"field": "items[1].full_name"`, `"loc": ["body", "items", 1, "id"]`, `"pointer": "/items/1"`), or the
 * head of a message (`"Item 2: not found"`). What the stacks that report per-item errors emit:
 *  - array subscripts, 0-based in every one of them: Rails and Spring `items[1].id`, Laravel `items.1.id`, Express
 *    validators `items[1].id`, pydantic `loc: [..., "items", 1, ...]`, JSON Pointer `/items/1` (RFC 6901, ajv's
 *    instancePath, JSON:API's source.pointer `/data/1`), .NET and Go namespaces `Items[1].Id`;
 *  - ordinals written for people (`item 1`, `#1`, `row 2`), 0- or 1-based as the server chose;
 *  - ids after a word for one (`id 45`, `case #45`, `customer_id=45`, `cases/45`).
 * An index is not placed here: which base a server counts from is decided from the whole answer (reader.ts).
 */
import { isJsonObject, type JsonObject } from '../../base/json.ts';
import { squash } from './vocabulary.ts';

/** An index a label carries, before its base is known. */
export interface IndexLabel {
  n: number;
  /** `subscript`: an array subscript (0-based by every convention that writes one); `ordinal`: for people. */
  kind: 'subscript' | 'ordinal';
  /** The label as written, for messages. */
  text: string;
}

export interface ParsedLabel {
  /** Ids the label names after a word for an id (`id 45`): numbers as written. */
  ids: string[];
  index?: IndexLabel;
}

/** The names of the request's list and of the lists a server echoes it in, before a subscript. */
const LISTS = 'items|ids|data|entries|records|rows|operations';
const SUBSCRIPT_AFTER_LIST = new RegExp(
  `(?:^|[^A-Za-z0-9_])(?:${LISTS})\\s*(?:\\[\\s*(\\d+)\\s*\\]|[./](\\d+)(?![A-Za-z0-9_-]))`,
  'i',
);
/** A subscript that opens the label: `[1].id`, `$[1]`, `/1/id`, `#/1`, `1.full_name`. */
const SUBSCRIPT_FIRST = /^\s*(?:\$|#)?\s*(?:\[\s*(\d+)\s*\]|\/(\d+)(?![^/.[])|(\d+)(?=[.[]))/;
/** A number after one of `words`, a qualifier (`#`, `no.`) and a separator between: `item #2`, `id=45`. */
function afterWord(words: string, separators: string, flags = 'i'): RegExp {
  return new RegExp(
    `(?:^|[^A-Za-z0-9])(?:${words})\\s*(?:#|no\\.?|nr\\.?|number)?\\s*[${separators}]?\\s*(\\d+)(?![\\d.])`,
    flags,
  );
}

/** A word for an index of the request, then the number (`index 1`, `idx=1`): a subscript written out. */
const INDEX_WORD = afterWord('index|idx', ':=#_-');
/** A word for an item, then the number (`item 1`, `Item #2`, `row_3`, `entry no. 4`); or `#1` alone. */
const ORDINAL = afterWord('item|items|row|entry|element|record|line|position|pos|object', ':=_-');
const HASH = /(?:^|[\s([])#\s*(\d+)(?![\d.])/;
/** A word for an id, then the number (`id 45`, `case #45`, `customer_id: 45`, `cases/45`). */
const ID_WORD = afterWord(
  'id|pk|case|customer|check|case_?id|customer_?id|check_?id|cases|customers|checks',
  ':=/',
  'gi',
);

function first(m: RegExpExecArray | null): number | undefined {
  const digits = m?.slice(1).find((g) => g !== undefined);
  return digits === undefined ? undefined : Number(digits);
}

/** What a label names: ids after a word for one, and the index it carries, if any. */
export function parseLabel(label: string): ParsedLabel {
  const ids = [...label.matchAll(ID_WORD)].map((m) => String(BigInt(m[1]!)));
  const subscript = first(SUBSCRIPT_AFTER_LIST.exec(label)) ?? first(SUBSCRIPT_FIRST.exec(label));
  const indexWord = first(INDEX_WORD.exec(label));
  const ordinal = first(ORDINAL.exec(label)) ?? first(HASH.exec(label));
  const n = subscript ?? indexWord ?? ordinal;
  if (n === undefined || !Number.isSafeInteger(n)) return { ids };
  return {
    ids,
    index: { n, kind: subscript === undefined && indexWord === undefined ? 'ordinal' : 'subscript', text: label },
  };
}

/**
 * The strings of `known` a label holds as a word of its own (`customer cust-b`, `external_id=cust-b`): not next to
 * a letter, digit, `_` or `-` that would make it part of a longer one. Short or numeric strings are left to the
 * other rules (`1` is in `items[1]`).
 */
export function heldStrings(label: string, known: Iterable<string>): string[] {
  const found: string[] = [];
  for (const s of known) {
    if (s.length < 3 || /^-?\d+$/.test(s) || s === label) continue;
    let at = label.indexOf(s);
    while (at >= 0) {
      const before = label[at - 1];
      const after = label[at + s.length];
      const bounded = (c: string | undefined) => c === undefined || !/[A-Za-z0-9_-]/.test(c);
      if (bounded(before) && bounded(after)) {
        found.push(s);
        break;
      }
      at = label.indexOf(s, at + 1);
    }
  }
  return found;
}

/** Fields of an error entry that hold where it points (`field`, `path`, `loc`, `source.pointer`). */
const LABEL_FIELDS = new Set([
  'field',
  'fieldname',
  'path',
  'param',
  'parameter',
  'loc',
  'pointer',
  'source',
  'key',
  'attribute',
  'property',
  'propertypath',
  'instancepath',
  'datapath',
  'namespace',
  'target',
  'label',
  'item',
]);

/** A label written as a list of steps (pydantic's `loc`): numbers are subscripts, `["items", 1]` → `.items[1]`. */
function stepsLabel(steps: readonly unknown[]): string | undefined {
  if (!steps.every((s) => typeof s === 'string' || (typeof s === 'number' && Number.isInteger(s)))) return undefined;
  return steps.map((s) => (typeof s === 'number' ? `[${s}]` : `.${s}`)).join('');
}

/** The labels an error entry holds in the fields that say where it points. */
export function entryLabels(e: JsonObject): string[] {
  const out: string[] = [];
  for (const [key, v] of Object.entries(e)) {
    if (!LABEL_FIELDS.has(squash(key))) continue;
    if (typeof v === 'string' && v !== '') out.push(v);
    else if (Array.isArray(v)) {
      const label = stepsLabel(v);
      if (label) out.push(label);
    } else if (isJsonObject(v) && squash(key) === 'source') {
      // JSON:API: `source: {pointer: "/data/1/attributes/x"}` or `{parameter: ...}`.
      for (const inner of Object.values(v)) if (typeof inner === 'string' && inner !== '') out.push(inner);
    }
  }
  return out;
}

/** The head of a message that opens with a label (`"Item 2: not found"`, `"items[1].id: required"`), if any. */
export function messageLabel(message: string): string | undefined {
  const colon = message.indexOf(':');
  if (colon <= 0 || colon > 80) return undefined;
  return message.slice(0, colon);
}
