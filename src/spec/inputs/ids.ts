/**
 * The kinds of identifier the input matrix sends where a record is named (a PATCH or DELETE path, a bulk
 * item's id, a bulk check delete's ids): the real id, the spellings that mean it exactly, and the forms a
 * lenient parser reads as a number they do not mean (`12abc` read as 12). Each is a function of a real
 * record's id, so that a lenient reading lands on a record the run can read back. A probe that spells a number
 * is judged only where a parser reading numbers as binary64 doubles can tell it from a legal id (`binary64Blind`).
 */
import type { Id } from '../id.ts';

/**
 * What naming a record this way must do:
 *  - act: it names the record; the request acts on it;
 *  - exact: it means the record's id exactly (`7.0`, `"7"`, `+7`); acting on it or refusing both conform;
 *  - none: it names no record (a fraction, a suffix, another type): nothing is acted on, the record is unchanged.
 */
export type IdVerdict = 'act' | 'exact' | 'none';

export interface IdKind {
  readonly kind: string;
  /** As raw JSON text (a bulk item's id, an entry of ids); absent: no JSON spelling. */
  readonly json?: (id: Id) => string;
  /** As text (a path segment, already percent-encoded; a form field's value). */
  readonly text?: (id: Id) => string;
  readonly verdict: IdVerdict;
  /**
   * A probe that spells a number (verdict none): that number's text, and what it must still be to a parser that
   * reads numbers as binary64 doubles to name no record: no integer (a fraction), or a number past the record's id.
   */
  readonly binary64?: { readonly spells: (id: Id) => string; readonly apart: 'no-integer' | 'past-the-id' };
}

const s = (id: Id) => String(id);
const q = (v: string) => JSON.stringify(v);
const hex = (id: Id) => `0x${BigInt(id).toString(16)}`;
/** `1_0` for 10, `0_5` for 5: digits grouped as Python's int() and Go's ParseInt (base 0) read them. */
const grouped = (id: Id) => {
  const d = String(id);
  return `${d.slice(0, -1) || '0'}_${d.slice(-1)}`;
};
const fraction = (id: Id) => `${id}.5`;
const noInteger = { spells: fraction, apart: 'no-integer' } as const;
const past = (n: string) => ({ spells: () => n, apart: 'past-the-id' }) as const;

export const ID_KINDS: readonly IdKind[] = [
  { kind: 'id', json: s, text: s, verdict: 'act' },
  { kind: 'string', json: (id) => q(s(id)), verdict: 'exact' },
  { kind: 'string-padded', json: (id) => q(` ${id}`), text: (id) => `%20${id}`, verdict: 'exact' },
  { kind: 'decimal-point-zero', json: (id) => `${id}.0`, text: (id) => `${id}.0`, verdict: 'exact' },
  { kind: 'exponent', json: (id) => `${id}e0`, text: (id) => `${id}e0`, verdict: 'exact' },
  { kind: 'plus-sign', text: (id) => `+${id}`, verdict: 'exact' },
  { kind: 'leading-zero', text: (id) => `0${id}`, verdict: 'exact' },
  { kind: 'hex', json: (id) => q(hex(id)), text: hex, verdict: 'exact' },
  { kind: 'digit-groups', json: (id) => q(grouped(id)), text: grouped, verdict: 'exact' },
  { kind: 'suffix-letters', json: (id) => q(`${id}abc`), text: (id) => `${id}abc`, verdict: 'none' },
  { kind: 'suffix-sql', json: (id) => q(`${id} OR 1=1`), text: (id) => `${id}%20OR%201=1`, verdict: 'none' },
  { kind: 'suffix-semicolon', text: (id) => `${id};x=1`, verdict: 'none' },
  { kind: 'suffix-nul', json: (id) => q(`${id}\u0000`), text: (id) => `${id}%00`, verdict: 'none' },
  { kind: 'fraction', json: fraction, text: fraction, verdict: 'none', binary64: noInteger },
  { kind: 'string-fraction', json: (id) => q(fraction(id)), verdict: 'none', binary64: noInteger },
  { kind: 'array', json: (id) => `[${id}]`, text: (id) => `%5B${id}%5D`, verdict: 'none' },
  { kind: 'object', json: (id) => `{"id":${id}}`, verdict: 'none' },
  { kind: 'negative', json: (id) => `-${id}`, text: (id) => `-${id}`, verdict: 'none' },
  { kind: 'zero', json: () => '0', text: () => '0', verdict: 'none' },
  { kind: 'boolean', json: () => 'true', text: () => 'true', verdict: 'none' },
  { kind: 'null', json: () => 'null', text: () => 'null', verdict: 'none' },
  { kind: 'empty-string', json: () => '""', verdict: 'none' },
  ...(
    [
      ['2^63', '9223372036854775808'],
      ['2^64', '18446744073709551616'],
      ['10^20', '100000000000000000000'],
    ] as const
  ).map(([kind, n]): IdKind => ({ kind, json: () => n, text: () => n, verdict: 'none', binary64: past(n) })),
  { kind: 'nan', text: () => 'NaN', verdict: 'none' },
];

/**
 * `id + 0.5` as a number, where a binary64 double still reads it as no integer (an id below 2^52); undefined past
 * that, where no fraction of the id is one to a double.
 */
export function fractionOf(id: Id): number | undefined {
  const n = Number(fraction(id));
  return Number.isInteger(n) ? undefined : n;
}

/** An integer double as its exact digits, any other number as JavaScript writes it. */
const digits = (d: number) => (Number.isInteger(d) ? BigInt(d).toString() : String(d));

/**
 * Why this probe of `id` is no evidence, or undefined when it is. RFC 8259 § 6 lets a JSON parser read numbers as
 * binary64 doubles (JavaScript's JSON.parse and Number(), Go's encoding/json into an interface{}), and such a parser
 * acts, legally, on the integer it reads: a probe is judged only where that reading still names no record. `N.5`
 * reads as no integer only while N < 2^52 (from 2^52 on every double is an integer: `N.5` is N or N + 1), and no
 * other fraction near N does better; 2^63 reads as no more than an id from 2^63 - 512 on.
 */
export function binary64Blind(kind: IdKind, id: Id): string | undefined {
  if (!kind.binary64) return undefined;
  const spelled = kind.binary64.spells(id);
  const read = Number(spelled);
  if (kind.binary64.apart === 'no-integer' ? !Number.isInteger(read) : read > Number(id)) return undefined;
  const what =
    kind.binary64.apart === 'no-integer'
      ? `an integer: no fraction of an id from 2^52 on is anything else to a double`
      : `no larger than id ${id} read so (${digits(Number(id))})`;
  return (
    `not sent: ${spelled} read as a binary64 double is ${digits(read)}, ${what}; a server that reads numbers so ` +
    `(RFC 8259 § 6 allows it) may act on id ${digits(read)} legally, so for id ${id} this spelling shows nothing`
  );
}
