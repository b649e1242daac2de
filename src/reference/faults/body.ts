/**
 * Faults the body dimension of the input matrix must catch (issue 33 §1): defects of ordinary stacks in reading a
 * body as a whole, which no value of a field shows. On different endpoints and ways in: the token endpoint taking
 * the first JSON value of its body, a bulk case update answering 500 to deep nesting, a multipart PATCH applying a
 * field's parts in turn, a PATCH validated on the first of a key given twice and written with the last.
 */
import { parseJson } from '../../base/json.ts';
import { LIMITS } from '../../spec/index.ts';
import { AnswerNow, repeatedFields } from '../http.ts';
import { firstValueEnd, nesting } from './json-text.ts';
import { fault } from '../switches.ts';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The string fields of a PATCH and their limits: what a handler writing parts as they come checks, each alone. */
const PART_LIMITS: Record<string, number> = {
  webhook_url: LIMITS.webhookUrlMaxLength,
  external_id: LIMITS.caseExternalIdMaxLength,
};

/** The decoded entries of a form field given as JSON text, or none. */
function jsonList(text: string): unknown[] {
  try {
    const v = parseJson(text);
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

export const BODY_FAULTS = [
  fault(
    'body.json-first-value',
    'PATCH and the bulk endpoints read the first JSON value of a body and ignore what follows (Jackson without ' +
      'FAIL_ON_TRAILING_TOKENS, its default): an object followed by more text, or by a second object, is applied',
    (base) => ({
      jsonBody(op, text) {
        return base.jsonBody(op, op === 'token' ? text : text.slice(0, firstValueEnd(text)));
      },
    }),
  ),
  fault(
    'body.bulk-lists-merged',
    'a bulk body giving items (or ids) twice, as a JSON key or a form field, applies both lists, as a streaming ' +
      'parser acting on each one it meets',
    (base) => ({
      jsonBody(op, text) {
        if (!op.startsWith('bulk-') || text.trim() === '') return base.jsonBody(op, text);
        base.jsonBody(op, text);
        const merge = (a: unknown, b: unknown) => (Array.isArray(a) && Array.isArray(b) ? [...a, ...b] : b);
        return parseJson(text, merge);
      },
      decodeBody(op, mediaType, body, header) {
        const items = isObject(body) ? repeatedFields.get(body)?.fields.items : undefined;
        if (op.startsWith('bulk-') && items && isObject(body)) body.items = items.flatMap(jsonList);
        return base.decodeBody(op, mediaType, body, header);
      },
    }),
  ),
  fault(
    'body.token-first-value',
    "the token endpoint reads the first JSON value of its body and ignores what follows (a Go json.Decoder's one " +
      'Decode): the credentials followed by more text, or by a second value, get a token',
    (base) => ({
      jsonBody(op, text) {
        return base.jsonBody(op, op === 'token' ? text.slice(0, firstValueEnd(text)) : text);
      },
    }),
  ),
  fault(
    'body.bulk-deep-500',
    'a bulk case update nested deeper than 512 levels answers 500, as a recursive parser overflowing its stack ' +
      "(Python's RecursionError, uncaught)",
    (base) => ({
      jsonBody(op, text) {
        if (op === 'bulk-cases' && nesting(text) > 512)
          throw new AnswerNow({ status: 500, body: { error: 'RecursionError: maximum recursion depth exceeded' } });
        return base.jsonBody(op, text);
      },
    }),
  ),
  fault(
    'body.multipart-parts-in-turn',
    'a multipart PATCH writes each part into the case as it arrives (a streaming parser): a field given twice has ' +
      'its first part written, when within its limit, before the last is checked, so a PATCH refused for the last ' +
      'keeps the first',
    (base) => ({
      parsePatch(org, c, body) {
        const repeated = isObject(body) ? repeatedFields.get(body) : undefined;
        if (repeated?.mediaType === 'multipart/form-data')
          for (const [key, values] of Object.entries(repeated.fields)) {
            const limit = PART_LIMITS[key];
            if (limit === undefined) continue;
            for (const v of values.slice(0, -1)) {
              if ([...v].length > limit) continue;
              if (key === 'webhook_url') c.webhook_url = v;
              else c.external_id = v;
            }
          }
        return base.parsePatch(org, c, body);
      },
    }),
  ),
  fault(
    'body.duplicate-key-validated-first',
    'a PATCH is validated on the first value of a key given twice and written with the last (a schema validator ' +
      'and a JSON parser that disagree): a webhook_url over 511 after a valid one is stored',
    (base) => {
      /** The body as the writing parser read it (last values), by the body the validator read (first values). */
      const written = new WeakMap<object, Record<string, unknown>>();
      return {
        jsonBody(op, text) {
          const last = base.jsonBody(op, text);
          if (op !== 'patch' || !isObject(last) || text.trim() === '') return last;
          const first = parseJson(text, 'first');
          if (isObject(first)) written.set(first, last);
          return first;
        },
        parsePatch(org, c, body) {
          const patch = base.parsePatch(org, c, body) as Record<string, unknown>;
          const last = isObject(body) ? written.get(body) : undefined;
          if (last) for (const key of Object.keys(patch)) if (key in last) patch[key] = last[key];
          return patch as ReturnType<typeof base.parsePatch>;
        },
      };
    },
  ),
];
