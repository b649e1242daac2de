/**
 * Variants of the keys a write carries beside its fields (issue 33 §3): refusing a key the interface does not list
 * for the write is as legal as ignoring it (the default); refusing the read-only ones is patch.reject-read-only.
 */
import { HttpError } from '../http.ts';
import { variant } from '../switches.ts';

export const KEY_VARIANTS = [
  variant(
    'keys.unknown-refused',
    'a PATCH body or bulk item holding a key that is neither a field it writes, its identifier nor a read-only ' +
      'field (an organisation id, a flag, a key no model has) is refused with 400 naming it, and nothing of it is ' +
      'applied (a schema that forbids unknown fields)',
    () => ({
      otherKeysSent(_target, keys) {
        const names = Object.keys(keys);
        if (names.length === 0) return;
        throw new HttpError(400, 'validation_error', 'request body is invalid', {
          fields: Object.fromEntries(names.map((f) => [f, ['Unknown field.']])),
        });
      },
    }),
  ),
];
