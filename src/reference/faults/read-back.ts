/**
 * Faults of what a value reads back as where the interface leaves its taking open, or lists it (issue 33 §5, §6):
 * a value taken and shown as another type (a number past binary64 as null or as a string), a listed value shown as
 * another (customer_type "" as null). Only a read of the value the write left, judged by its type, shows them.
 */
import { fault } from '../switches.ts';
import { buildRules, freeObject } from '../validation.ts';
import { parseOr400 } from '../validation.ts';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The value with every non-finite number as the text a writer that keeps NaN and Infinity as strings writes. */
function infinityAsText(v: unknown): unknown {
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  if (Array.isArray(v)) return v.map(infinityAsText);
  if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, infinityAsText(x)]));
  return v;
}

/** The items of a bulk body, each an object (others left out). */
const itemsOf = (body: unknown): Record<string, unknown>[] =>
  isObject(body) && Array.isArray(body.items) ? body.items.filter(isObject) : [];

export const READ_BACK_FAULTS = [
  fault(
    'input.beyond-double-null',
    'a PATCH takes a number past binary64 in metadata (1e400, parsed to Infinity) and every read shows it as null, ' +
      "as JavaScript's JSON.stringify writes Infinity",
    (base) => {
      const rules = buildRules({ ...base, metadata: freeObject(false) });
      return { parsePatch: (_org, _c, body) => parseOr400(rules.casePatch, body) };
    },
  ),
  fault(
    'input.bulk-beyond-double-string',
    'a bulk case item takes a number past binary64 in metadata as a double (Infinity) and every read shows it as ' +
      'the string "Infinity", as Jackson writes a non-finite double by default',
    (base) => ({
      decodeBody(op, mediaType, body, header) {
        const decoded = base.decodeBody(op, mediaType, body, header);
        if (op === 'bulk-cases')
          for (const item of itemsOf(decoded)) if ('metadata' in item) item.metadata = infinityAsText(item.metadata);
        return decoded;
      },
    }),
  ),
  fault(
    'customer-type.blank-stored-null',
    'a bulk customer item\'s customer_type "" is stored as null (blank strings normalised to null, as Rails\' ' +
      '`presence` or a column that keeps no empty string)',
    (base) => ({
      decodeBody(op, mediaType, body, header) {
        const decoded = base.decodeBody(op, mediaType, body, header);
        if (op === 'bulk-customers')
          for (const item of itemsOf(decoded)) if (item.customer_type === '') item.customer_type = null;
        return decoded;
      },
    }),
  ),
  fault(
    'customer-type.blank-shown-null',
    'customer_type "" is stored, but every representation of the customer shows it as null (`customer_type || ' +
      'null` in the serializer)',
    (base) => ({
      customerView: (cu) => ({ ...base.customerView(cu), customer_type: cu.customer_type || null }),
    }),
  ),
];
