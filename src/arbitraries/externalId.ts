import type fc from 'fast-check';
import { unicodeText } from './unicodeText.ts';

/**
 * Non-empty identifiers of at most `maxLength` (both counts): `prefix` plus Unicode text.
 * Trimmed, because a server may trim identifiers and then report a harmless mismatch.
 * Callers check the prefix; it keeps values apart between runs sharing an organisation.
 */
export function prefixedId(prefix: string, maxLength: number): fc.Arbitrary<string> {
  return unicodeText({ minLength: prefix === '' ? 1 : 0, maxLength: maxLength - prefix.length, trim: true }).map(
    (t) => prefix + t,
  );
}
