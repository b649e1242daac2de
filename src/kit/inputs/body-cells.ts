/**
 * The body cells of the endpoints that change records (PATCH, the two bulk updates, the bulk check delete), made
 * from the records a run gives them (spec/inputs/body.ts): each a raw body with its Content-Type, what each reading
 * of it would write (the object; or the first value and the second, the first of a key given twice and the last),
 * and which readings a conforming server may apply if it takes the body. Values are tagged, so a read tells which
 * reading, if any, reached a record.
 */
import { stringifyJson } from '../../base/json.ts';
import type { Exchange } from '../../results/exchange.ts';
import type { Id } from '../../spec/id.ts';
import {
  BODY_KINDS,
  type BodyCellSpec,
  bodyCellId,
  type BodyEncoding,
  type BodyOracle,
  bodyOracles,
  type BodyWay,
  DEEP_LEVELS,
} from '../../spec/inputs/body.ts';
import { exact, type Tagger } from '../../spec/inputs/values.ts';
import { LIMITS } from '../../spec/limits.ts';
import type { CellVerdict } from './cell.ts';
import type { FieldRef } from './records.ts';

/** What a reading of a body writes: a field of a case (or of its customer) holding a value, or a check gone. */
export type Effect = { record: Id; ref: FieldRef; value: unknown } | { record: Id; check: Id };

/** A body cell as sent and judged. */
export interface BodyCell {
  spec: BodyCellSpec;
  /** The body as sent, byte for byte (UTF-8), and its Content-Type. */
  text: string;
  media: string;
  /** What each reading of the body writes: [0] the object, or the first value; [1] the second. */
  readings: Effect[][];
  /** The readings a conforming server may apply when it takes the body. */
  allowed: number[];
  /** What the body may change beyond its readings (a form's metadata as JSON text: how it travels is not shown). */
  touches: Effect[];
  /** The records it names, read after its round. */
  records: Id[];
  /** A PATCH answer's field, which a later read must show alike (a key given twice). */
  answerShows?: FieldRef;
  /** How a message shows the body where `text` must not be shown (a token request holds the secret). */
  shown?: string;
  exchange?: Exchange;
  status?: number;
  /** The answer's JSON (a PATCH's case, a token). */
  answer?: unknown;
  /** What the server did with it, for the observation of what a server chose. */
  took?: string;
  verdicts: Partial<Record<BodyOracle, CellVerdict>>;
}

/** The records the cells write: a case for PATCH, two for the bulk updates (and their customers), checks to delete. */
export interface BodyRecords {
  patch: Id;
  cases: readonly [Id, Id];
  customers: readonly [Id, Id];
  checksCase: Id;
  /** One per check cell, in the order of the cells; the case keeps one more that no cell names. */
  checks: readonly Id[];
}

/** The field a bulk item writes, as the run found the items take (kit/item-fields.ts); undefined when none. */
export interface ItemFieldChoice {
  case: 'delete_after' | 'metadata' | undefined;
  customer: 'full_name' | 'external_id' | undefined;
}

const BOUNDARY = 'screenconf-body-Zq8TfW2xK';
const MEDIA: Record<BodyEncoding, string> = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  multipart: `multipart/form-data; boundary=${BOUNDARY}`,
};

/** A multipart body of these parts; `cut` leaves out the close delimiter (and the final line break). */
function multipart(parts: readonly [string, string][], cut = false): string {
  const text = parts
    .map(([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
    .join('');
  return cut ? text : `${text}--${BOUNDARY}--\r\n`;
}

/** A flat body of these fields in an encoding. */
function flat(encoding: BodyEncoding, parts: readonly [string, string][]): string {
  return encoding === 'form' ? new URLSearchParams([...parts]).toString() : multipart(parts);
}

/** Whitespace of each kind JSON allows (RFC 8259 §2), before and after. */
export const AROUND = [' \t\r\n', '\r\n\t '] as const;
/** What follows the object in a trailing-text body. */
export const TRAILING = '\nscreenconf';

/** An object nested `DEEP_LEVELS` deep holding `leaf`, as a value and as JSON text. */
export function deepValue(leaf: string): { value: unknown; json: string } {
  const json = `${'{"d":'.repeat(DEEP_LEVELS - 1)}{"leaf":${JSON.stringify(leaf)}}${'}'.repeat(DEEP_LEVELS - 1)}`;
  return { value: JSON.parse(json), json };
}

/** What one way gives its kinds: a fresh object carrying tagged values, and what the other kinds need. */
interface Shape {
  /**
   * The object as JSON text; the same content as a bare JSON array (a list of items, of ids); what it writes. `at`:
   * which of the way's two records it names, where it has two.
   */
  one(at?: 0 | 1): { json: string; array: string; effects: Effect[] };
  /** A number body: the record's own id, which a lenient reader might take for the body; what that would write. */
  number: { text: string; effects: Effect[] };
  /** A top-level key given twice, and the readings a server may apply. */
  duplicate(reversed: boolean): { json: string; readings: Effect[][]; allowed: number[]; answerShows?: FieldRef };
  deep(): { json: string; effects: Effect[] };
  /** The flat kinds, where the way has them. */
  repeated?(encoding: BodyEncoding): { text: string; readings: Effect[][] };
  repeatedOverLimit?(): { text: string; readings: Effect[][] };
  flatDeep?(encoding: BodyEncoding): { text: string; touches: Effect[] };
  cutShort?(): { text: string; effects: Effect[] };
  records: Id[];
}

const q = (v: unknown) => stringifyJson(v);
const ref = (name: string, on: FieldRef['on'] = 'case'): FieldRef => ({ name, on });
const set = (record: Id, field: FieldRef, value: unknown): Effect => ({ record, ref: field, value });

/** The values a run writes, each its own. */
interface Values {
  tag: Tagger;
  /** A run-prefixed external id. */
  externalId: (label: string) => string;
  /** A delete_after no other cell writes. */
  days: () => number;
}

function patchShape(id: Id, v: Values): Shape {
  const url = () => `https://hooks.example.com/screenconf-body/${v.tag()}`;
  const urlOver = () => exact(`https://hooks.example.com/${v.tag()}/`, LIMITS.webhookUrlMaxLength + 1);
  const ext = () => v.externalId(`body-${v.tag()}`);
  const extOver = () => exact(`${ext()}-`, LIMITS.caseExternalIdMaxLength + 1);
  const hook = ref('webhook_url');
  const external = ref('external_id');
  return {
    records: [id],
    one: () => {
      const u = url();
      return { json: `{"webhook_url":${q(u)}}`, array: `[{"webhook_url":${q(u)}}]`, effects: [set(id, hook, u)] };
    },
    number: { text: '1', effects: [] },
    // A value the field allows first and one over its limit second; reversed, on external_id, the other way round.
    duplicate: (reversed) => {
      const [field, valid, over] = reversed ? [external, ext(), extOver()] : [hook, url(), urlOver()];
      const values = reversed ? [over, valid] : [valid, over];
      return {
        json: `{${values.map((x) => `"${field.name}":${q(x)}`).join(',')}}`,
        readings: values.map((x) => [set(id, field, x)]),
        allowed: [reversed ? 1 : 0],
        answerShows: field,
      };
    },
    deep: () => {
      const d = deepValue(v.tag());
      return { json: `{"metadata":${d.json}}`, effects: [set(id, ref('metadata'), d.value)] };
    },
    repeated: (encoding) => {
      // Two values the field allows: a server may take either, never both (joined, as Spring binds a String).
      const [field, values] = encoding === 'form' ? [external, [ext(), ext()]] : [hook, [url(), url()]];
      return {
        text: flat(
          encoding,
          values.map((x) => [field.name, x]),
        ),
        readings: values.map((x) => [set(id, field, x)]),
      };
    },
    repeatedOverLimit: () => {
      const values = [ext(), extOver()];
      return {
        text: flat(
          'multipart',
          values.map((x) => ['external_id', x]),
        ),
        readings: values.map((x) => [set(id, external, x)]),
      };
    },
    flatDeep: (encoding) => ({
      text: flat(encoding, [['metadata', deepValue(v.tag()).json]]),
      touches: [set(id, ref('metadata'), undefined)],
    }),
    cutShort: () => {
      const u = url();
      return { text: multipart([['webhook_url', u]], true), effects: [set(id, hook, u)] };
    },
  };
}

/**
 * A bulk update's shape: items naming `ids` (two records, shown on `cases`), writing `field`. The deep body nests
 * in metadata where items write the case (a value metadata allows), and in a key of its own beside a customer's.
 */
function updateShape(
  ids: readonly [Id, Id],
  cases: readonly [Id, Id],
  field: FieldRef,
  value: () => unknown,
  leaf: () => string,
): Shape {
  const item = (i: 0 | 1, x: unknown, extra = '') => `{"id":${String(ids[i])},"${field.name}":${q(x)}${extra}}`;
  const effect = (i: 0 | 1, x: unknown) => set(cases[i], field, x);
  const two = () => [value(), value()] as const;
  return {
    records: [...cases],
    one: (at = 0) => {
      const x = value();
      return { json: `{"items":[${item(at, x)}]}`, array: `[${item(at, x)}]`, effects: [effect(at, x)] };
    },
    number: { text: String(ids[0]), effects: [] },
    // `items` twice, naming two records: one batch or the other, never both.
    duplicate: () => {
      const [a, b] = two();
      return {
        json: `{"items":[${item(0, a)}],"items":[${item(1, b)}]}`,
        readings: [[effect(0, a)], [effect(1, b)]],
        allowed: [0, 1],
      };
    },
    // In metadata on a case; beside a customer's id, a key of no meaning (so it holds no value a round reads).
    deep: () => {
      const d = deepValue(leaf());
      if (field.on === 'case') {
        const json = `{"items":[{"id":${String(ids[0])},"metadata":${d.json}}]}`;
        return { json, effects: [set(cases[0], ref('metadata'), d.value)] };
      }
      return { json: `{"items":[{"id":${String(ids[1])},"screenconf":${d.json}}]}`, effects: [] };
    },
    repeated: (encoding) => {
      const [a, b] = two();
      return {
        text: flat(encoding, [
          ['items', `[${item(0, a)}]`],
          ['items', `[${item(1, b)}]`],
        ]),
        readings: [[effect(0, a)], [effect(1, b)]],
      };
    },
  };
}

function checksShape(caseId: Id, next: () => Id): Shape {
  const gone = (k: Id): Effect => ({ record: caseId, check: k });
  const numberCheck = next();
  return {
    records: [caseId],
    one: () => {
      const k = next();
      return { json: `{"ids":[${String(k)}]}`, array: `[${String(k)}]`, effects: [gone(k)] };
    },
    number: { text: String(numberCheck), effects: [gone(numberCheck)] },
    duplicate: () => {
      const [a, b] = [next(), next()];
      return { json: `{"ids":[${String(a)}],"ids":[${String(b)}]}`, readings: [[gone(a)], [gone(b)]], allowed: [0, 1] };
    },
    deep: () => {
      const k = next();
      return { json: `{"ids":[${String(k)}],"screenconf":${deepValue('x').json}}`, effects: [gone(k)] };
    },
    cutShort: () => {
      const k = next();
      return { text: multipart([['ids', String(k)]], true), effects: [gone(k)] };
    },
  };
}

/** The cells of one way from its shape, in the spec's order (bodyCells). */
function cellsOf(way: BodyWay, shape: Shape): BodyCell[] {
  const cells: BodyCell[] = [];
  for (const encoding of ['json', 'form', 'multipart'] as const) {
    for (const k of BODY_KINDS.filter((x) => x.ways.includes(way) && x.encodings.includes(encoding))) {
      const verdict = k.verdict(way);
      const spec: BodyCellSpec = {
        id: bodyCellId(encoding, way, k.kind),
        way: 'body',
        encoding,
        field: way,
        kind: k.kind,
        verdict,
        oracles: bodyOracles(way, encoding, k.kind, verdict),
      };
      const made = build(shape, k.kind, encoding);
      cells.push({
        spec,
        media: MEDIA[encoding],
        allowed: verdict === 'accept' || verdict === 'open' ? [0] : [],
        touches: [],
        records: shape.records,
        ...made,
        verdicts: {},
      });
    }
  }
  return cells;
}

type Made = Pick<BodyCell, 'text' | 'readings'> & Partial<Pick<BodyCell, 'allowed' | 'touches' | 'answerShows'>>;

/** A kind's body on a way's shape. */
function build(shape: Shape, kind: string, encoding: BodyEncoding): Made {
  const o = () => shape.one();
  switch (kind) {
    case 'whitespace': {
      const x = o();
      return { text: `${AROUND[0]}${x.json}${AROUND[1]}`, readings: [x.effects] };
    }
    case 'trailing-text': {
      const x = o();
      return { text: `${x.json}${TRAILING}`, readings: [x.effects] };
    }
    case 'second-value': {
      const [a, b] = [o(), o()];
      return { text: `${a.json}\n${b.json}`, readings: [a.effects, b.effects] };
    }
    case 'null':
      return { text: 'null', readings: [] };
    case 'array': {
      const x = o();
      return { text: x.array, readings: [x.effects] };
    }
    case 'string': {
      const x = o();
      return { text: q(x.json)!, readings: [x.effects] };
    }
    case 'number':
      return { text: shape.number.text, readings: shape.number.effects.length ? [shape.number.effects] : [] };
    case 'bom': {
      // On the second record where the way has two: a round can then take it beside the whitespace-framed body.
      const x = shape.one(1);
      return { text: `\uFEFF${x.json}`, readings: [x.effects] };
    }
    case 'empty':
      return { text: '', readings: [] };
    case 'unlabelled': {
      const x = o();
      return { text: x.json, readings: [x.effects] };
    }
    case 'duplicate-key':
    case 'duplicate-key-reversed': {
      const d = shape.duplicate(kind === 'duplicate-key-reversed');
      return {
        text: d.json,
        readings: d.readings,
        allowed: d.allowed,
        ...(d.answerShows ? { answerShows: d.answerShows } : {}),
      };
    }
    case 'deep': {
      if (encoding !== 'json') {
        const d = shape.flatDeep!(encoding);
        return { text: d.text, readings: [], touches: d.touches };
      }
      const d = shape.deep();
      return { text: d.json, readings: d.effects.length ? [d.effects] : [] };
    }
    case 'repeated-field': {
      const r = shape.repeated!(encoding);
      return { ...r, allowed: [0, 1], ...(shape.records.length === 1 ? { answerShows: refOf(r.readings) } : {}) };
    }
    case 'repeated-field-over-limit': {
      const r = shape.repeatedOverLimit!();
      return { ...r, allowed: [0], answerShows: refOf(r.readings) };
    }
    case 'cut-short': {
      const c = shape.cutShort!();
      return { text: c.text, readings: [c.effects] };
    }
  }
  throw new Error(`body cells: no body for kind ${kind}`);
}

const refOf = (readings: Effect[][]): FieldRef => (readings[0]![0] as { ref: FieldRef }).ref;

/** Every body cell of the endpoints that change records, with this run's values on `records`. */
export function recordBodyCells(
  records: BodyRecords,
  fields: ItemFieldChoice,
  tag: Tagger,
  externalId: (label: string) => string,
  only?: BodyWay,
): BodyCell[] {
  let days = 7_400_000;
  const v: Values = { tag, externalId, days: () => (days += 7) };
  const caseField = fields.case ?? 'delete_after';
  const caseValue = () => (caseField === 'metadata' ? { screenconf_body: tag() } : v.days());
  const customerField = fields.customer ?? 'full_name';
  const customerValue = () =>
    customerField === 'full_name' ? `Screenconf Body ${tag()}` : externalId(`body-customer-${tag()}`);
  let check = 0;
  const nextCheck = () => {
    const k = records.checks[check++];
    if (k === undefined) throw new Error('body cells: fewer checks than the check cells name');
    return k;
  };
  const shapes: [BodyWay, () => Shape][] = [
    ['patch', () => patchShape(records.patch, v)],
    ['bulk-cases', () => updateShape(records.cases, records.cases, ref(caseField), caseValue, tag)],
    [
      'bulk-customers',
      () => updateShape(records.customers, records.cases, ref(customerField, 'customer'), customerValue, tag),
    ],
    ['bulk-checks', () => checksShape(records.checksCase, nextCheck)],
  ];
  return shapes.filter(([way]) => only === undefined || way === only).flatMap(([way, shape]) => cellsOf(way, shape()));
}

/** How many checks the check cells name (the case is made with one more). */
export const CHECK_CELLS_NEED = 13;
