/**
 * One cell of the input matrix as a run sends it: the spec's cell with a concrete value (tagged so it is its
 * own among the run's values), what the server answered, and each oracle's verdict on it. Also the one
 * comparison every oracle uses: whether a value a read shows is one a field may hold after a write.
 */
import { isJsonObject, stringifyJson } from '../../base/json.ts';
import type { Id } from '../../spec/id.ts';
import { SyncPlatforms } from '../../spec/schemas.ts';
import { normalisedForms, sameNumber, type Expect, type Stored } from '../../spec/inputs/stored.ts';
import type { CellSpec, OracleName } from '../../spec/inputs/matrix.ts';
import type { Exchange } from '../../results/exchange.ts';
import { deepEqual } from '../assert.ts';

/** An oracle's verdict on one cell. */
export interface CellVerdict {
  result: 'pass' | 'fail' | 'not-judged';
  /** Why, in a line: what was sent, what came back, what the oracle wanted. */
  why?: string;
  /** The exchanges the verdict rests on (the cell's request, the read that showed it). */
  judged?: Exchange[];
}

/** A cell as sent. */
export interface SentCell {
  spec: CellSpec;
  /** The value's raw JSON text (JSON bodies, bulk items), or its text (forms, paths). */
  value: string;
  /** How a message shows the value, where `value` must not be shown (a token request holds the secret). */
  shown?: string;
  /** What a conforming server does with a value cell (absent for a naming cell: see `naming`). */
  expect?: Expect;
  /** For a naming cell (an id in a path or item): act on the record, maybe act (an exact spelling), or act on none. */
  naming?: 'act' | 'exact' | 'none';
  /** Text that shows this cell's value in a read among the values of the other cells of its field. */
  marker?: string;
  /** The record it writes (a case id), and the field a read shows it in. */
  record?: Id;
  /** The request that carried it and the status it got (a batch's, for a bulk item). */
  exchange?: Exchange;
  status?: number;
  /** Whether the server took it: a 2xx (PATCH), an item a read shows applied (bulk); undefined while unknown. */
  taken?: boolean;
  /** The answer refused it: a 4xx, or (bulk) its item reported failed; not a value a read merely did not show. */
  refused?: true;
  /** Why the cell is left out of judging beyond its answer (an encoding the server does not take). */
  dropped?: string;
  verdicts: Partial<Record<OracleName, CellVerdict>>;
}

export function judge(cell: SentCell, oracle: OracleName, verdict: CellVerdict): void {
  // The first failure stands: a later pass of the same oracle (another read) does not undo it.
  if (cell.verdicts[oracle]?.result === 'fail') return;
  cell.verdicts[oracle] = verdict;
}

const present = (list: (Exchange | undefined)[]) => list.filter((e): e is Exchange => e !== undefined);

export const pass = (why?: string, judged?: (Exchange | undefined)[]): CellVerdict => ({
  result: 'pass',
  ...(why ? { why } : {}),
  ...(judged ? { judged: present(judged) } : {}),
});
export const failed = (why: string, judged: (Exchange | undefined)[] = []): CellVerdict => ({
  result: 'fail',
  why,
  judged: present(judged),
});
export const notJudged = (why: string): CellVerdict => ({ result: 'not-judged', why });

/**
 * Whether `shown` is a value the field may hold after a write that `stored` describes, from `before` (what
 * it held before the write). Strings also match after the normalisations the interface leaves open.
 */
export function shows(stored: Stored, shown: unknown, before: unknown): boolean {
  switch (stored.as) {
    case 'exactly':
      if (typeof stored.value === 'string' && typeof shown === 'string')
        return normalisedForms(stored.value, stored.normalise).some((f) => deepEqual(f, shown));
      return deepEqual(stored.value, shown);
    case 'number':
      return sameNumber(shown, stored.value);
    case 'one-of':
      return stored.options.some((o) => shows(o, shown, before));
    case 'unchanged':
      return deepEqual(shown, before);
    case 'of-type':
      return ofType(stored.type, shown);
    case 'object':
      return (
        isJsonObject(shown) &&
        deepEqual(Object.keys(shown).sort(), Object.keys(stored.fields).sort()) &&
        Object.entries(stored.fields).every(([k, s]) => shows(s, shown[k], undefined))
      );
  }
}

/**
 * Whether a value is of a type (issue 33 §5): a JSON number of any size (read as a number, a bigint, or Infinity
 * where its text is past binary64), never null; sync_platforms as its read schema has it, never null.
 */
function ofType(type: 'string' | 'number' | 'sync_platforms', shown: unknown): boolean {
  if (type === 'string') return typeof shown === 'string';
  if (type === 'number') return typeof shown === 'number' || typeof shown === 'bigint';
  return shown !== null && SyncPlatforms.safeParse(shown).success;
}

/** What a conforming read may show, for a message. */
export function describeStored(stored: Stored): string {
  switch (stored.as) {
    case 'exactly':
      return `${short(stored.value)}${stored.normalise?.length ? ' (or trimmed, or in NFC)' : ''}`;
    case 'number':
      return `the number ${stored.value}`;
    case 'one-of':
      return stored.options.map(describeStored).join(' or ');
    case 'unchanged':
      return 'the value it held before';
    case 'of-type':
      return stored.type === 'sync_platforms' ? 'a list of {domain, id} strings, or an object' : `any ${stored.type}`;
    case 'object':
      return `an object of ${Object.entries(stored.fields)
        .map(([k, s]) => `${k}: ${describeStored(s)}`)
        .join(', ')}`;
  }
}

/** A value for a message: its JSON, cut at 80 characters. */
export function short(value: unknown): string {
  const s = stringifyJson(value) ?? String(value);
  return s.length > 80 ? `${s.slice(0, 80)}… (${s.length} chars)` : s;
}

/** The cell in a message: `PATCH as json, delete_after = 2^63 (9223372036854775808)`. */
export function label(cell: SentCell): string {
  const { way, encoding, field, kind } = cell.spec;
  const value = cell.shown ?? cell.value;
  const shownValue = value.length > 60 ? `${value.slice(0, 60)}… (${value.length} chars)` : value;
  return `${way} as ${encoding}, ${field} ${kind}: ${shownValue}`;
}

/** Whether a value a read shows carries the cell's marker (its tag, or its exact value). */
export function carriesMarker(cell: SentCell, shown: unknown): boolean {
  if (cell.marker === undefined || shown === undefined || shown === null) return false;
  const text = typeof shown === 'string' ? shown : stringifyJson(shown);
  if (text === undefined) return false;
  const marker = cell.marker.replace(/^\s+/, '').slice(0, 40);
  return marker.length >= 4 && text.includes(marker);
}
