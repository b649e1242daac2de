/**
 * Variants of how a server reads a client's input where the interface leaves it open (issue 25): the input
 * matrix's oracles must judge each conforming. Numeric spellings taken as the integer they mean exactly;
 * an empty form value read as "not given"; NUL refused.
 */
import { stringifyJson } from '../../base/json.ts';
import { isForm } from '../handlers/content.ts';
import { HttpError } from '../http.ts';
import { variant } from '../switches.ts';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The integer a text or number means exactly, as a lenient parser (Django REST framework's IntegerField, Python's
 * int(), a JavaScript Number()) takes it: "5", " 7", "12.0", "1e1", "0x11", "1_0", +5, 2.0; undefined for anything
 * else.
 */
export function exactInteger(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? v : undefined;
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  if (/^[+-]?\d+(_\d+)+$/.test(t)) return exactInteger(t.replace(/_/g, ''));
  if (!/^[+-]?(\d+(\.0*)?|\d+(\.\d+)?e\+?\d+|0x[0-9a-f]+)$/i.test(t)) return undefined;
  const n = Number(t);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** An integer field of a body, taken as the integer it means where it means one exactly. */
function coerce(o: Record<string, unknown>, key: string): void {
  const n = exactInteger(o[key]);
  if (n !== undefined) o[key] = n;
}

export const INPUT_VARIANTS = [
  variant(
    'numbers.lenient',
    'integers are read as leniently as exactness allows: delete_after, a bulk item id and a bulk check delete id ' +
      'given as "5", " 7", "12.0", "1e1", "0x11" or "1_0", and a path id given as 5.0, +5, 05, 5e0 or 1_0, are the ' +
      'integer they mean',
    (base) => ({
      decodeBody(op, mediaType, body, header) {
        const decoded = base.decodeBody(op, mediaType, body, header);
        if (!isObject(decoded)) return decoded;
        if (op === 'patch') coerce(decoded, 'delete_after');
        if ((op === 'bulk-cases' || op === 'bulk-customers') && Array.isArray(decoded.items))
          for (const item of decoded.items) {
            if (!isObject(item)) continue;
            coerce(item, 'id');
            if (op === 'bulk-cases') coerce(item, 'delete_after');
          }
        if (op === 'bulk-checks' && Array.isArray(decoded.ids))
          decoded.ids = decoded.ids.map((e) => exactInteger(e) ?? e);
        return decoded;
      },
      caseId(idText) {
        const n = exactInteger(decodeURIComponent(idText));
        return n !== undefined && n > 0 ? n : base.caseId(idText);
      },
    }),
  ),
  variant(
    'form.empty-skips',
    'an empty value in a form-urlencoded or multipart PATCH leaves its field unchanged, as not given (Django REST ' +
      "framework's partial update)",
    (base) => ({
      decodeBody(op, mediaType, body, header) {
        const decoded = base.decodeBody(op, mediaType, body, header);
        if (op !== 'patch' || !isForm(mediaType) || !isObject(decoded)) return decoded;
        return Object.fromEntries(Object.entries(decoded).filter(([, v]) => v !== null && v !== ''));
      },
    }),
  ),
  variant(
    'text.nul-refused',
    'a PATCH holding NUL (\\u0000) in any text, metadata included, is refused with 400 (a PostgreSQL text column ' +
      'cannot hold it)',
    (base) => ({
      decodeBody(op, mediaType, body, header) {
        const decoded = base.decodeBody(op, mediaType, body, header);
        if (op === 'patch' && stringifyJson(decoded)?.includes('\\u0000'))
          throw new HttpError(400, 'validation_error', 'text may not hold NUL');
        return decoded;
      },
    }),
  ),
];
