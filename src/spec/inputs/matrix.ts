/**
 * The input matrix: every writable field, every way in, every body encoding the interface allows there,
 * every kind of value (issue 25). Cells are enumerated by code from the tables of fields.ts, values.ts,
 * ids.ts and token.ts; each is judged by the oracles named here, stated once, and each (way in, oracle)
 * is owned by one requirement of the catalogue. This module is data: the kit sends and judges the cells,
 * `screenconf list --matrix` and the report show them.
 */
import { CASE_WRITE_FIELDS, CUSTOMER_WRITE_FIELDS, type FieldSpec } from './fields.ts';
import { ID_KINDS, type IdKind } from './ids.ts';
import type { Expect } from './stored.ts';
import { TOKEN_KINDS } from './token.ts';
import { type ValueKind, valueKinds } from './values.ts';

/** Where a client's input enters. */
export type WayName = 'patch' | 'bulk-cases' | 'bulk-customers' | 'bulk-checks' | 'path' | 'token';

/**
 * How the body travels. Form and multipart carry text: a field's value as its text (PATCH), or the bulk
 * list as JSON text in one field (`items`) or repeated fields (`ids`), the only spelling of an array a
 * flat form has. `multipart-file`: every field a file part (filename, text/plain).
 */
export type Encoding = 'json' | 'form' | 'multipart' | 'multipart-file';
export const ENCODINGS: readonly Encoding[] = ['json', 'form', 'multipart', 'multipart-file'];

/** The oracles: a few rules every cell is judged by. */
export type OracleName = 'answered' | 'own-record' | 'unchanged' | 'stored' | 'readable' | 'limits';

export const ORACLES: Record<OracleName, string> = {
  answered: "never a 5xx, never silence: a client's input is answered with a 2xx or a 4xx within the deadline",
  'own-record': 'a write acts on, and answers with, the record its path or item names, never another',
  unchanged:
    'rejected means unchanged: a refused request or failed item leaves every record as it was, and a batch ' +
    'still applies its other items',
  stored:
    'accepted means stored as sent: a value the field allows is taken, and a value taken is shown by a later ' +
    'read as sent, or as a normalisation the interface leaves open (trimmed, NFC, the exact number a numeric ' +
    'spelling means), never as another value',
  readable:
    'still readable afterwards: after any accepted input the record answers reads and further writes (an ' +
    'accepted value the server then cannot show is a failure of the write that let it in)',
  limits: 'limits hold on every way in: a value outside its field type or limit is refused and changes nothing',
};

/** The requirement that owns each oracle on each way in (absent: the oracle does not apply there). */
export const OWNERS: Record<WayName, Partial<Record<OracleName, string>>> = {
  patch: {
    answered: 'CASE-PATCH-ANSWERED',
    limits: 'CASE-PATCH-INVALID-REJECTED',
    unchanged: 'CASE-PATCH-INVALID-ATOMIC',
    stored: 'CASE-PATCH-STORED-AS-SENT',
    readable: 'CASE-PATCH-READABLE',
  },
  'bulk-cases': {
    answered: 'BULK-CASES-ANSWERED',
    'own-record': 'BULK-CASES-OWN-RECORD',
    limits: 'BULK-CASES-ITEM-LIMITS',
    unchanged: 'BULK-CASES-PARTIAL',
    stored: 'BULK-CASES-STORED-AS-SENT',
    readable: 'BULK-CASES-READABLE',
  },
  'bulk-customers': {
    answered: 'BULK-CUSTOMERS-ANSWERED',
    'own-record': 'BULK-CUSTOMERS-OWN-RECORD',
    limits: 'BULK-CUSTOMERS-ITEM-LIMITS',
    unchanged: 'BULK-CUSTOMERS-PARTIAL',
    stored: 'BULK-CUSTOMERS-STORED-AS-SENT',
    readable: 'BULK-CUSTOMERS-READABLE',
  },
  'bulk-checks': { answered: 'BULK-CHECKS-MALFORMED', 'own-record': 'BULK-CHECKS-OWN-RECORD' },
  path: { answered: 'CASE-ID-NON-INTEGER', 'own-record': 'CASE-ID-NON-INTEGER', unchanged: 'CASE-ID-NON-INTEGER' },
  token: {
    answered: 'TOKEN-INPUT-ANSWERED',
    'own-record': 'TOKEN-EXACT-CREDENTIALS',
  },
};

/** Where an id is named: the OBSERVE requirement that records which exact spellings of it (ids.ts) a server took. */
export const SPELLINGS_OBSERVED = {
  path: 'CASE-ID-SPELLINGS',
  'bulk-cases': 'BULK-CASES-ID-SPELLINGS',
  'bulk-customers': 'BULK-CUSTOMERS-ID-SPELLINGS',
  'bulk-checks': 'BULK-CHECKS-ID-SPELLINGS',
} as const satisfies Partial<Record<WayName, string>>;

/** Every requirement the matrix judges, once each. */
export const MATRIX_REQUIREMENTS: readonly string[] = [
  ...new Set(Object.values(OWNERS).flatMap((o) => Object.values(o))),
];

/** Where a way's cells are sent in each encoding: all four, or JSON only (the token endpoint's body is JSON). */
export const WAY_ENCODINGS: Record<WayName, readonly Encoding[]> = {
  patch: ENCODINGS,
  'bulk-cases': ENCODINGS,
  'bulk-customers': ENCODINGS,
  'bulk-checks': ENCODINGS,
  path: ['json'],
  token: ['json'],
};

/** One cell: a field of a way in, a kind of value, an encoding. */
export interface CellSpec {
  /** `patch/json/delete_after/2^63`. */
  readonly id: string;
  readonly way: WayName;
  readonly encoding: Encoding;
  /** The field, `id` for a bulk item's identifier, `ids[]` for a bulk check delete's entries, `{id}` for the path. */
  readonly field: string;
  readonly kind: string;
  /** What a conforming server does: accept, reject, open; or for a named record act, exact, none. */
  readonly verdict: string;
  /** The oracles that judge it. */
  readonly oracles: readonly OracleName[];
}

/** What a value cell is judged by: all oracles but own-record (its record is a real one, named plainly). */
const VALUE_ORACLES: readonly OracleName[] = ['answered', 'limits', 'unchanged', 'stored', 'readable'];
const NAMING_ORACLES: readonly OracleName[] = ['answered', 'own-record'];

/** The methods a path cell is sent with. */
export const PATH_METHODS = ['PATCH', 'DELETE'] as const;

/**
 * Which kinds of value a way sends in an encoding. JSON gets every kind; the flat encodings send a field's
 * text where it has one, and the bulk ways' flat encodings (whose items travel as JSON text, a convention
 * the interface does not name) send what shows a limit held: the values at and over each limit.
 */
export function kindsFor(way: WayName, encoding: Encoding, kinds: readonly ValueKind[]): ValueKind[] {
  if (encoding === 'json') return kinds.filter((k) => k.json !== undefined);
  if (way === 'patch') return kinds.filter((k) => k.text !== undefined && FLAT_KINDS.has(k.kind));
  return kinds.filter((k) => k.json !== undefined && !k.wholeBody && BULK_FLAT_KINDS.has(k.kind));
}

/** The kinds a flat PATCH sends: each limit and one past it, the spellings of an integer in text. */
const FLAT_KINDS = new Set([
  'at-limit',
  'over-limit',
  'over-limit-astral',
  'empty',
  'nul',
  'max',
  'ordinary',
  'max-plus-one',
  '2^63',
  'fraction',
  'decimal-point-zero',
  'string-padded',
  'string-12abc',
  'string-empty',
  'numeric-looking',
  'digits',
  'value-COMPANY',
  'unlisted',
]);
const BULK_FLAT_KINDS = new Set([
  'at-limit',
  'over-limit',
  'over-limit-astral',
  'max',
  'max-plus-one',
  '2^63',
  'fraction',
]);

/** The fields a way writes. */
export function fieldsOf(way: WayName): readonly FieldSpec[] {
  if (way === 'patch' || way === 'bulk-cases') return CASE_WRITE_FIELDS;
  if (way === 'bulk-customers') return CUSTOMER_WRITE_FIELDS;
  return [];
}

/**
 * The id kinds a naming way sends in an encoding: with a JSON spelling, or a text one (paths, form ids). A flat
 * bulk check delete (repeated fields, a convention) sends a few: a lenient reading, exact ones, past every integer.
 */
export function idKindsFor(way: WayName, encoding: Encoding): IdKind[] {
  const textual = way === 'path' || (way === 'bulk-checks' && encoding !== 'json');
  const flat = way === 'bulk-checks' && encoding !== 'json';
  return ID_KINDS.filter(
    (k) =>
      k.kind !== 'id' &&
      (textual ? k.text !== undefined : k.json !== undefined) &&
      (!flat || FLAT_CHECK_KINDS.has(k.kind)),
  );
}

const FLAT_CHECK_KINDS = new Set(['suffix-letters', 'fraction', 'string-padded', 'hex', 'negative', '10^20']);

/** The suite file that sends a way's cells (what a run must select to send them). */
export const WAY_SUITES: Record<WayName, string> = {
  patch: 'inputs-patch',
  path: 'inputs-patch',
  'bulk-cases': 'inputs-bulk',
  'bulk-customers': 'inputs-bulk',
  'bulk-checks': 'inputs-bulk',
  token: 'inputs-token',
};

const verdictOf = (e: Expect) => e.verdict;

/** Every cell of the matrix, in a stable order (values inside are placeholders: the kit makes its own). */
export function enumerateCells(): CellSpec[] {
  const cells: CellSpec[] = [];
  const tag = () => 'tag';
  const push = (c: Omit<CellSpec, 'id'>) => cells.push({ id: `${c.way}/${c.encoding}/${c.field}/${c.kind}`, ...c });
  for (const way of ['patch', 'bulk-cases', 'bulk-customers'] as const) {
    for (const encoding of WAY_ENCODINGS[way]) {
      for (const f of fieldsOf(way)) {
        for (const k of kindsFor(way, encoding, valueKinds(f.field, tag))) {
          const expect = encoding !== 'json' && way === 'patch' ? (k.expectText ?? k.expect) : k.expect;
          push({ way, encoding, field: f.name, kind: k.kind, verdict: verdictOf(expect), oracles: VALUE_ORACLES });
        }
      }
    }
  }
  for (const way of ['bulk-cases', 'bulk-customers', 'bulk-checks'] as const) {
    for (const encoding of way === 'bulk-checks' ? WAY_ENCODINGS[way] : (['json'] as const)) {
      const field = way === 'bulk-checks' ? 'ids[]' : 'id';
      for (const k of idKindsFor(way, encoding))
        push({ way, encoding, field, kind: k.kind, verdict: k.verdict, oracles: NAMING_ORACLES });
    }
  }
  for (const method of PATH_METHODS)
    for (const k of idKindsFor('path', 'json'))
      push({
        way: 'path',
        encoding: 'json',
        field: `${method} {id}`,
        kind: k.kind,
        verdict: k.verdict,
        oracles: ['answered', 'own-record'],
      });
  for (const k of TOKEN_KINDS) {
    const [field, kind] = k.kind.split('/') as [string, string];
    push({ way: 'token', encoding: 'json', field, kind, verdict: k.verdict, oracles: ['answered', 'own-record'] });
  }
  return cells;
}
