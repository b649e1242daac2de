/**
 * Faults the input matrix must catch (issue 25): defects of ordinary stacks that only an input no named
 * check sends, or a read no named check makes, shows. At least two per oracle, on different fields and
 * ways in: a 5xx for a value (answered), a lenient parse acting on another record (own-record), a refused
 * value kept (unchanged), a value taken and stored otherwise (stored), a case no longer readable after a
 * value was taken (readable), a limit not held on one way in (limits).
 */
import { JsonObject, LIMITS } from '../../spec/index.ts';
import { isForm } from '../handlers/content.ts';
import { AnswerNow } from '../http.ts';
import type { CaseRecord } from '../store.ts';
import { fault } from '../switches.ts';
import { buildRules, RULE_DEFAULTS } from '../validation.ts';

const CRASH = (detail: string) => new AnswerNow({ status: 500, body: { error: 'server_error', detail } });

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Every string in a JSON value, however deep. */
function strings(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap(strings);
  if (isObject(v)) return Object.values(v).flatMap(strings);
  return [];
}

/** A lone surrogate: UTF-16 that no UTF-8 encoder can write. */
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function depth(v: unknown): number {
  if (Array.isArray(v)) return 1 + Math.max(0, ...v.map(depth));
  if (isObject(v)) return 1 + Math.max(0, ...Object.values(v).map(depth));
  return 0;
}

/** What a serializer with a depth limit and a strict UTF-8 encoder cannot write of a case. */
function unwritable(c: CaseRecord): boolean {
  return strings([c.external_id, c.webhook_url, c.metadata]).some((s) => LONE.test(s)) || depth(c.metadata) > 32;
}

/** Rules without length limits: what a handler that forgot to validate a body's lengths applies. */
const UNBOUNDED = buildRules({
  ...RULE_DEFAULTS,
  limits: { webhookUrl: 1e9, caseExternalId: 1e9, customerFullName: 1e9, customerExternalId: 1e9 },
});

/** Form bodies of PATCH, as decoded (the rules of a form PATCH are looked up by the body itself). */
const formBodies = new WeakSet<object>();

export const INPUT_FAULTS = [
  // answered
  fault(
    'input.int64-overflow-500',
    'a PATCH whose delete_after is past the 64-bit range (2^63, 2^64, 1e400) answers 500, as a cast to a long would',
    (base) => ({
      decodeBody(op, mediaType, body, header) {
        const v = isObject(body) ? body.delete_after : undefined;
        // Past a long: a bigint of 2^63 or more (the body is read exactly), or a number too large to be finite.
        const overflow =
          (typeof v === 'bigint' && (v >= 2n ** 63n || v < -(2n ** 63n))) ||
          (typeof v === 'number' && !Number.isFinite(v));
        if (op === 'patch' && overflow) throw CRASH('long overflow');
        return base.decodeBody(op, mediaType, body, header);
      },
    }),
  ),
  fault(
    'input.nul-500',
    'a bulk customer update holding NUL (\\u0000) in any text of an item answers 500, as a text column of ' +
      'PostgreSQL refuses it',
    (base) => ({
      decodeBody(op, mediaType, body, header) {
        if (op === 'bulk-customers' && strings(body).some((s) => s.includes('\u0000')))
          throw CRASH('invalid byte sequence for encoding "UTF8": 0x00');
        return base.decodeBody(op, mediaType, body, header);
      },
    }),
  ),
  // own-record
  fault(
    'input.path-parse-int',
    'the case id of a path is read with parseInt: 12abc, 12.5 and "12 OR 1=1" act on case 12',
    (base) => ({
      caseId(idText) {
        const n = Number.parseInt(decodeURIComponent(idText), 10);
        return Number.isSafeInteger(n) && n > 0 ? n : base.caseId(idText);
      },
    }),
  ),
  fault(
    'input.bulk-id-parse-int',
    'a bulk case item\'s id that is a string is read with parseInt: "12abc" and "12 OR 1=1" update case 12',
    (base) => ({
      decodeBody(op, mediaType, body, header) {
        if (op === 'bulk-cases' && isObject(body) && Array.isArray(body.items))
          for (const item of body.items)
            if (isObject(item) && typeof item.id === 'string') item.id = Number.parseInt(item.id, 10);
        return base.decodeBody(op, mediaType, body, header);
      },
    }),
  ),
  fault(
    'input.check-ids-flatten',
    'a bulk check delete flattens its ids: an entry [12] or {"id": 12} deletes check 12',
    (base) => ({
      decodeBody(op, mediaType, body, header) {
        if (op === 'bulk-checks' && isObject(body) && Array.isArray(body.ids))
          body.ids = body.ids.flatMap((e) => (Array.isArray(e) ? e : isObject(e) ? [e.id] : [e]));
        return base.decodeBody(op, mediaType, body, header);
      },
    }),
  ),
  // unchanged
  fault(
    'input.patch-saved-before-validated',
    'a PATCH writes webhook_url into the case before its length is checked: one over 511 is refused 400 but kept',
    (base) => ({
      parsePatch(org, c, body) {
        const url = isObject(body) ? body.webhook_url : undefined;
        if (typeof url === 'string' && [...url].length > LIMITS.webhookUrlMaxLength) c.webhook_url = url;
        return base.parsePatch(org, c, body);
      },
    }),
  ),
  fault(
    'input.customer-refused-but-truncated',
    "a bulk customer item whose full_name is over 255 is reported failed, but the customer's full_name is set to " +
      'its first 255 characters (a database that truncates with a warning)',
    (base, env) => ({
      runBatch(spec, body, run) {
        const results = base.runBatch(spec, body, run);
        if (spec.op !== 'bulk-customers' || !isObject(body) || !Array.isArray(body.items)) return results;
        for (const r of results) {
          const item = body.items[r.index];
          if (r.status !== 'failed' || !isObject(item) || typeof item.full_name !== 'string') continue;
          if (typeof item.id !== 'number') continue;
          const customer = [...env.organisations]
            .map((o) => env.store.getCustomer(o.name, item.id as number))
            .find((x) => x !== undefined);
          if (customer && [...item.full_name].length > LIMITS.customerFullNameMaxLength)
            customer.full_name = [...item.full_name].slice(0, LIMITS.customerFullNameMaxLength).join('');
        }
        return results;
      },
    }),
  ),
  // stored
  fault(
    'input.astral-as-question-marks',
    'text is stored in a 3-byte UTF-8 column: each character outside the Basic Multilingual Plane is stored as "?"',
    (base) => ({ text: (s) => base.text(s).replace(/[\u{10000}-\u{10FFFF}]/gu, '?') }),
  ),
  fault(
    'input.url-normalised',
    'webhook_url is stored as a URL parser writes it (scheme and host in lower case, default port and dot ' +
      'segments dropped)',
    (base) => ({
      applyCaseFields(c, patch) {
        base.applyCaseFields(c, patch);
        if (typeof patch.webhook_url === 'string' && URL.canParse(patch.webhook_url))
          c.webhook_url = new URL(patch.webhook_url).href;
      },
    }),
  ),
  fault(
    'input.proto-key-dropped',
    'metadata is copied key by key into a new object, so a "__proto__" key becomes its prototype and is lost',
    () => ({ metadata: JsonObject }),
  ),
  // readable
  fault(
    'input.unwritable-case-500',
    'a case holding a lone surrogate or metadata nested deeper than 32 levels is taken, but every later read or ' +
      'PATCH of it answers 500 (a strict UTF-8 encoder, a serializer with a depth limit)',
    (base) => ({
      readCase(org, id) {
        const answer = base.readCase(org, id);
        const c = base.findCase(org, id, 'read');
        if (unwritable(c)) throw CRASH('cannot encode the case');
        return answer;
      },
      parsePatch(org, c, body) {
        if (unwritable(c)) throw CRASH('cannot encode the case');
        return base.parsePatch(org, c, body);
      },
    }),
  ),
  // limits
  fault(
    'input.form-skips-limits',
    'a PATCH sent as form-urlencoded or multipart is not held to the length limits (only JSON bodies are)',
    (base) => ({
      decodeBody(op, mediaType, body, header) {
        const decoded = base.decodeBody(op, mediaType, body, header);
        if (op === 'patch' && isForm(mediaType) && isObject(decoded)) formBodies.add(decoded);
        return decoded;
      },
      parsePatch(org, c, body) {
        if (isObject(body) && formBodies.has(body)) {
          const parsed = UNBOUNDED.casePatch.safeParse(body);
          if (parsed.success) return parsed.data;
        }
        return base.parsePatch(org, c, body);
      },
    }),
  ),
  fault(
    'input.customer-limits-unchecked',
    "a bulk customer item's full_name and external_id are not held to their 255-character limits",
    () => ({
      limits: { ...RULE_DEFAULTS.limits, customerFullName: 1e9, customerExternalId: 1e9 },
    }),
  ),
];
