/**
 * What the interface lets a server do with one value a client sends (the verdict), and what a read
 * may show once the value was accepted (stored). Stated once, here, as data; kit/inputs/cell.ts judges by it.
 */

/** What a read may show for a field after the server accepted a value for it. */
export type Stored =
  /** The value sent, or the value after one of the normalisations the interface leaves open (strings). */
  | { readonly as: 'exactly'; readonly value: unknown; readonly normalise?: readonly Normalisation[] }
  /** A number equal to this exact decimal (a numeric form taken as the number it means: `2.0`, `"5"`). */
  | { readonly as: 'number'; readonly value: string }
  | { readonly as: 'one-of'; readonly options: readonly Stored[] }
  /** The value the field held before (an empty form value read as "not given"). */
  | { readonly as: 'unchanged' }
  /**
   * Any value of a type, where the interface leaves the value open but not its type (issue 33 §5): `string` (a null
   * external_id replaced by a value not shown in advance, a lone surrogate a server rewrites), `number` (a number
   * past binary64: a JSON number of any size, never null), `sync_platforms` (a list of objects with string domain
   * and id, or an object: never null for a value that was not).
   */
  | { readonly as: 'of-type'; readonly type: 'string' | 'number' | 'sync_platforms' }
  /** An object with exactly these keys, each shown as its own Stored says (free JSON holding an open value). */
  | { readonly as: 'object'; readonly fields: Readonly<Record<string, Stored>> };

/** Normalisations of a string the interface leaves open: surrounding whitespace trimmed, Unicode NFC. */
export type Normalisation = 'trim' | 'nfc';

/**
 * The verdict for a value:
 *  - accept: a value the interface allows; it is taken (2xx, or an item not failed) and stored as `stored` says;
 *  - reject: outside the field's type or limit; refused (4xx, or a failed item) and nothing changes;
 *  - open: the interface does not decide (a coercion, a length in another unit, a character a store may refuse):
 *    either, but when taken it is stored as `stored` says, never as another value.
 */
export type Expect =
  | { readonly verdict: 'accept'; readonly stored: Stored }
  | { readonly verdict: 'reject' }
  | { readonly verdict: 'open'; readonly stored: Stored };

export const STRING_NORMALISATIONS: readonly Normalisation[] = ['trim', 'nfc'];

export const accept = (stored: Stored): Expect => ({ verdict: 'accept', stored });
export const open = (stored: Stored): Expect => ({ verdict: 'open', stored });
export const reject: Expect = { verdict: 'reject' };
export const exactly = (value: unknown, normalise?: readonly Normalisation[]): Stored =>
  normalise ? { as: 'exactly', value, normalise } : { as: 'exactly', value };
export const text = (value: string): Stored => exactly(value, STRING_NORMALISATIONS);
export const number = (value: string | number | bigint): Stored => ({ as: 'number', value: String(value) });
export const oneOf = (...options: Stored[]): Stored => ({ as: 'one-of', options });
export const UNCHANGED: Stored = { as: 'unchanged' };
export const ANY_STRING: Stored = { as: 'of-type', type: 'string' };
export const ANY_NUMBER: Stored = { as: 'of-type', type: 'number' };
export const ANY_PLATFORMS: Stored = { as: 'of-type', type: 'sync_platforms' };
export const objectOf = (fields: Record<string, Stored>): Stored => ({ as: 'object', fields });

/** The string values a normalisation the interface leaves open makes of `sent`. */
export function normalisedForms(sent: string, normalise: readonly Normalisation[] = []): string[] {
  const forms = new Set([sent]);
  for (const n of normalise) {
    for (const f of [...forms]) forms.add(n === 'trim' ? f.trim() : f.normalize('NFC'));
  }
  return [...forms];
}

/** Whether a JSON number (as JS number, bigint or its decimal text) equals an exact decimal. */
export function sameNumber(shown: unknown, decimal: string): boolean {
  if (typeof shown === 'bigint') return /^-?\d+$/.test(decimal) && BigInt(decimal) === shown;
  if (typeof shown !== 'number' || !Number.isFinite(shown)) return false;
  // Exact for the integers the matrix sends (int32 and their neighbours) and short decimals.
  if (/^-?\d+$/.test(decimal) && !Number.isSafeInteger(Number(decimal))) {
    return Number.isInteger(shown) && BigInt(shown) === BigInt(decimal);
  }
  return shown === Number(decimal);
}
