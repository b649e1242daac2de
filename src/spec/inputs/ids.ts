/**
 * The kinds of identifier the input matrix sends where a record is named (a PATCH or DELETE path, a bulk
 * item's id, a bulk check delete's ids): the real id, the spellings that mean it exactly, and the forms a
 * lenient parser reads as a number they do not mean (`12abc` read as 12). Each is a function of a real
 * record's id, so that a lenient reading lands on a record the run can read back.
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
}

const s = (id: Id) => String(id);
const q = (v: string) => JSON.stringify(v);
const hex = (id: Id) => `0x${BigInt(id).toString(16)}`;

export const ID_KINDS: readonly IdKind[] = [
  { kind: 'id', json: s, text: s, verdict: 'act' },
  { kind: 'string', json: (id) => q(s(id)), verdict: 'exact' },
  { kind: 'string-padded', json: (id) => q(` ${id}`), text: (id) => `%20${id}`, verdict: 'exact' },
  { kind: 'decimal-point-zero', json: (id) => `${id}.0`, text: (id) => `${id}.0`, verdict: 'exact' },
  { kind: 'exponent', json: (id) => `${id}e0`, text: (id) => `${id}e0`, verdict: 'exact' },
  { kind: 'plus-sign', text: (id) => `+${id}`, verdict: 'exact' },
  { kind: 'leading-zero', text: (id) => `0${id}`, verdict: 'exact' },
  { kind: 'hex', json: (id) => q(hex(id)), text: hex, verdict: 'exact' },
  { kind: 'suffix-letters', json: (id) => q(`${id}abc`), text: (id) => `${id}abc`, verdict: 'none' },
  { kind: 'suffix-sql', json: (id) => q(`${id} OR 1=1`), text: (id) => `${id}%20OR%201=1`, verdict: 'none' },
  { kind: 'suffix-semicolon', text: (id) => `${id};x=1`, verdict: 'none' },
  { kind: 'suffix-nul', json: (id) => q(`${id}\u0000`), text: (id) => `${id}%00`, verdict: 'none' },
  { kind: 'fraction', json: (id) => `${id}.5`, text: (id) => `${id}.5`, verdict: 'none' },
  { kind: 'string-fraction', json: (id) => q(`${id}.5`), verdict: 'none' },
  { kind: 'array', json: (id) => `[${id}]`, text: (id) => `%5B${id}%5D`, verdict: 'none' },
  { kind: 'object', json: (id) => `{"id":${id}}`, verdict: 'none' },
  { kind: 'negative', json: (id) => `-${id}`, text: (id) => `-${id}`, verdict: 'none' },
  { kind: 'zero', json: () => '0', text: () => '0', verdict: 'none' },
  { kind: 'boolean', json: () => 'true', text: () => 'true', verdict: 'none' },
  { kind: 'null', json: () => 'null', text: () => 'null', verdict: 'none' },
  { kind: 'empty-string', json: () => '""', verdict: 'none' },
  { kind: '2^63', json: () => '9223372036854775808', text: () => '9223372036854775808', verdict: 'none' },
  { kind: '2^64', json: () => '18446744073709551616', text: () => '18446744073709551616', verdict: 'none' },
  { kind: '10^20', json: () => '100000000000000000000', text: () => '100000000000000000000', verdict: 'none' },
  { kind: 'nan', text: () => 'NaN', verdict: 'none' },
];
