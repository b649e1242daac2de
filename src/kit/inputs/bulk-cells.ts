/**
 * The cells of the bulk ways in: each field of a bulk case item and of a bulk customer item, crossed with
 * the kinds of value and the encodings; each item id, and each entry of a bulk check delete's ids, in the
 * spellings a lenient parser reads as a number (ids.ts). An id cell writes a value of its own beside the id
 * (delete_after of a case, full_name of a customer), so a read shows whether it acted on the record.
 */
import { CASE_WRITE_FIELDS, CUSTOMER_WRITE_FIELDS, type FieldSpec } from '../../spec/inputs/fields.ts';
import type { IdKind } from '../../spec/inputs/ids.ts';
import {
  type CellSpec,
  type Encoding,
  idKindsFor,
  kindsFor,
  type OracleName,
  WAY_ENCODINGS,
  type WayName,
} from '../../spec/inputs/matrix.ts';
import { number, open, reject, text } from '../../spec/inputs/stored.ts';
import { type Tagger, valueKinds } from '../../spec/inputs/values.ts';
import type { SentCell } from './cell.ts';

const VALUE_ORACLES: readonly OracleName[] = ['answered', 'limits', 'unchanged', 'stored', 'readable'];
const NAMING_ORACLES: readonly OracleName[] = ['answered', 'own-record'];

/** A bulk cell: a sent cell with what it names (filled in when the records are made) and what it writes. */
export interface BulkCell extends SentCell {
  /** The value cell's field, or (an id cell) the field it writes beside the id. */
  writes: FieldSpec['name'];
  /** An id cell's spelling of the id, a function of the record's real id. */
  idKind?: IdKind;
  /** Sent in a request of its own: its JSON makes the whole body invalid. */
  alone?: boolean;
}

function spec(
  way: WayName,
  encoding: Encoding,
  field: string,
  kind: string,
  verdict: string,
  oracles: readonly OracleName[],
): CellSpec {
  return { id: `${way}/${encoding}/${field}/${kind}`, way, encoding, field, kind, verdict, oracles };
}

/** The value cells of a bulk way: every field, kind and encoding. */
function valueCells(way: 'bulk-cases' | 'bulk-customers', fields: readonly FieldSpec[], tag: Tagger): BulkCell[] {
  const cells: BulkCell[] = [];
  for (const encoding of WAY_ENCODINGS[way]) {
    for (const f of fields) {
      for (const k of kindsFor(way, encoding, valueKinds(f.field, tag))) {
        cells.push({
          spec: spec(way, encoding, f.name, k.kind, k.expect.verdict, VALUE_ORACLES),
          value: k.json!,
          expect: k.expect,
          ...(k.marker !== undefined ? { marker: k.marker } : {}),
          ...(k.wholeBody ? { alone: true } : {}),
          writes: f.name,
          verdicts: {},
        });
      }
    }
  }
  return cells;
}

/**
 * The id cells of a bulk update way: each spelling of a real record's id, writing a value of its own into
 * `writes` (an integer for delete_after, a text for full_name) that shows whether it acted on that record.
 */
function idCells(way: 'bulk-cases' | 'bulk-customers', writes: 'delete_after' | 'full_name', tag: Tagger): BulkCell[] {
  return idKindsFor(way, 'json').map((k, i) => {
    const value = writes === 'delete_after' ? String(7_100_000 + i * 7) : `Screenconf Id Cell ${tag()}`;
    const stored = writes === 'delete_after' ? number(value) : text(value);
    return {
      spec: spec(way, 'json', 'id', k.kind, k.verdict, NAMING_ORACLES),
      value: writes === 'delete_after' ? value : JSON.stringify(value),
      naming: k.verdict,
      expect: k.verdict === 'none' ? reject : open(stored),
      marker: value,
      idKind: k,
      writes,
      verdicts: {},
    };
  });
}

/** The entries of a bulk check delete: each spelling of a real check id, per encoding (a flat one as text). */
function checkIdCells(): BulkCell[] {
  return WAY_ENCODINGS['bulk-checks'].flatMap((encoding) =>
    idKindsFor('bulk-checks', encoding).map((k) => ({
      spec: spec('bulk-checks', encoding, 'ids[]', k.kind, k.verdict, NAMING_ORACLES),
      value: '',
      naming: k.verdict,
      idKind: k,
      writes: 'checks',
      verdicts: {},
    })),
  );
}

/** Every cell of the bulk ways, with this run's values. */
export function bulkCells(tag: Tagger): { cases: BulkCell[]; customers: BulkCell[]; checks: BulkCell[] } {
  return {
    cases: [...valueCells('bulk-cases', CASE_WRITE_FIELDS, tag), ...idCells('bulk-cases', 'delete_after', tag)],
    customers: [
      ...valueCells('bulk-customers', CUSTOMER_WRITE_FIELDS, tag),
      ...idCells('bulk-customers', 'full_name', tag),
    ],
    checks: checkIdCells(),
  };
}
