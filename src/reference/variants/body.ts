/**
 * Variants of how a server reads a body as a whole where the interface and RFC 8259 leave it open (issue 33 §1): a
 * byte-order mark taken, an empty body refused, a key given twice keeping its first value or refused, a form field
 * or multipart part given twice refused, nesting past 100 levels refused. The body dimension's oracles must judge
 * each conforming; the correct server's own choices (a byte-order mark refused, an empty body read as no fields, the
 * last value of a key or field kept, no depth limit) are the others.
 */
import { parseJson } from '../../base/json.ts';
import { HttpError, repeatedFields } from '../http.ts';
import type { Behaviour } from '../behaviour.ts';
import { variant } from '../switches.ts';
import { nesting } from '../faults/json-text.ts';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * A JSON body read as the server otherwise reads it, then again keeping the first value of a key given twice, or
 * refusing it (400).
 */
function duplicates(keep: 'first' | 'refuse') {
  return (base: Behaviour): Partial<Behaviour> => ({
    jsonBody(op, text) {
      const read = base.jsonBody(op, text);
      if (text.trim() === '') return read;
      try {
        return parseJson(text.replace(/^\uFEFF/, ''), keep);
      } catch (err) {
        throw new HttpError(400, 'duplicate_key', (err as Error).message);
      }
    },
  });
}

export const BODY_VARIANTS = [
  variant(
    'body.bom-taken',
    'a JSON body beginning with a byte-order mark is read without it (RFC 8259 §8.1: a parser MAY ignore one), on ' +
      'every endpoint, the token endpoint too',
    (base) => ({
      jsonBody: (op, text) => base.jsonBody(op, text.startsWith('\uFEFF') ? text.slice(1) : text),
    }),
  ),
  variant(
    'body.empty-refused',
    'an empty body labelled application/json is refused with 400, as not JSON (Flask, Spring), on every endpoint',
    (base) => ({
      jsonBody(op, text) {
        if (text === '') throw new HttpError(400, 'invalid_json', 'an empty body is not JSON');
        return base.jsonBody(op, text);
      },
    }),
  ),
  variant(
    'body.duplicate-keys-first',
    'a key given twice in a JSON body keeps its first value (alternative to body.duplicate-keys-refused)',
    duplicates('first'),
    'duplicate-keys',
  ),
  variant(
    'body.duplicate-keys-refused',
    'a JSON body giving a key twice is refused with 400 (a strict parser; alternative to body.duplicate-keys-first)',
    duplicates('refuse'),
    'duplicate-keys',
  ),
  variant(
    'body.repeated-field-refused',
    'a form-urlencoded or multipart body giving a field twice is refused with 400; ids, which repeat by convention ' +
      'in a bulk check delete, aside',
    (base) => ({
      decodeBody(op, mediaType, body, header) {
        const repeated = isObject(body) ? repeatedFields.get(body) : undefined;
        const twice = Object.keys(repeated?.fields ?? {}).filter((k) => k !== 'ids');
        if (twice.length) throw new HttpError(400, 'repeated_field', `${twice.join(', ')} given more than once`);
        return base.decodeBody(op, mediaType, body, header);
      },
    }),
  ),
  variant(
    'body.depth-limit-100',
    "a JSON body nested deeper than 100 levels is refused with 400 (Ruby's JSON max_nesting, as Rails reads a body)",
    (base) => ({
      jsonBody(op, text) {
        if (nesting(text) > 100) throw new HttpError(400, 'invalid_json', 'nesting of 101 levels is too deep');
        return base.jsonBody(op, text);
      },
    }),
  ),
];
