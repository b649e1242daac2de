/**
 * The Limits table at its exact edges (interface § Limits; § Endpoints › PATCH, bulk customer
 * update). Each edge is tried from both sides: the last value inside is accepted and shown,
 * the first value outside is rejected and the state keeps what was there. Lengths are judged
 * with ASCII values, and at the limit with é (U+00E9), which code points and UTF-16 units (the
 * two legal readings of "characters") count alike and UTF-8 bytes do not: a server counting bytes
 * fails. Astral characters, where the legal readings differ, only feed LIMIT-LENGTH-UNIT.
 */
import { stringifyJson } from '../src/base/json.ts';
import { describe } from 'vitest';
import { httpUrlOfLength } from '../src/arbitraries/index.ts';
import {
  check,
  expectNoServerError,
  expectCaseBody,
  expectRejected,
  expectStatus,
  expectSuccess,
  fail,
  readCase,
  type CaseBody,
  type CheckApi,
} from '../src/kit/index.ts';
import type { ReceivedResponse } from '../src/client/transport.ts';
import { codePointLength, type Id, isId, LIMITS } from '../src/spec/index.ts';

const { deleteAfterMin: MIN, deleteAfterMax: MAX } = LIMITS;

/** Fields the interface marks optional in the read representation. */
type OptionalField = 'webhook_url' | 'delete_after';

/**
 * A value of exactly `length` ASCII characters that starts with `prefix` (the run's id, for cleanup and uniqueness).
 */
function asciiOfLength(prefix: string, length: number): string {
  if (prefix.length >= length) throw new Error(`prefix ${prefix} is longer than ${length}`);
  return prefix + 'x'.repeat(length - prefix.length);
}

/**
 * A value of exactly `length` characters filled with é (U+00E9): one code point and one UTF-16
 * unit each, so both legal readings of "characters" count `length`; two UTF-8 bytes each, so a
 * server counting bytes (not a legal reading) refuses it.
 */
function bmpOfLength(prefix: string, length: number): string {
  if (prefix.length >= length) throw new Error(`prefix ${prefix} is longer than ${length}`);
  return prefix + '\u00e9'.repeat(length - prefix.length);
}

/**
 * The case every check of the file PATCHes: each sets the field it judges to a value of its own
 * before judging it, so what the checks before it left does not matter.
 */
let shared: Promise<CaseBody> | undefined;
function limitCase(t: CheckApi): Promise<CaseBody> {
  shared ??= t.primary.provision.createCase().catch((err: unknown) => {
    shared = undefined; // a check's re-run tries again
    throw err;
  });
  return shared;
}

/** A value at the limit in a non-ASCII character both readings count alike: accepted and shown. */
async function acceptedAtLimit(t: CheckApi, field: 'external_id', value: string): Promise<void> {
  const c = await limitCase(t);
  const what =
    `PATCH {${field}: ${short(value)}} on case ${c.id} (at the limit in code points and in UTF-16 units, ` +
    'over it in UTF-8 bytes)';
  shows(await patchOk(t, c.id, { [field]: value }, what), field, value, `the answer to ${what}`);
  shows(await readCase(t.primary, c.id), field, value, `case ${c.id} read after ${what}`);
}

function short(v: unknown): string {
  const s = stringifyJson(v) ?? String(v);
  return s.length > 80
    ? `${s.slice(0, 60)}… (${typeof v === 'string' ? `${codePointLength(v)} characters` : `${s.length} chars`})`
    : s;
}

async function patchOk(t: CheckApi, id: Id, patch: Record<string, unknown>, what: string): Promise<CaseBody> {
  const res = await t.primary.api.patchCase(id, patch);
  expectStatus(res, 200, what);
  return expectCaseBody(res.json, id, `${what}: response body`);
}

/**
 * The body shows `value` in `field`; an optional field left out is allowed and reported (false).
 * external_id is always present, so its absence fails.
 */
function shows(body: CaseBody, field: OptionalField | 'external_id', value: unknown, what: string): boolean {
  if (!(field in body)) {
    if (field === 'external_id') fail(what, `external_id ${short(value)}`, 'field missing', { judged: [body] });
    return false;
  }
  if (body[field] !== value) {
    const expect = {
      fields: [{ name: field, expected: stringifyJson(value), received: stringifyJson(body[field]) }],
    };
    fail(`${what}: ${field}`, short(value), short(body[field]), { judged: [body], expect });
  }
  return true;
}

/**
 * Sets `field` to `inside` (accepted, shown in the answer and a read), then sends `outside`
 * (rejected with a 4xx), and reads the case to see it kept `inside`.
 */
async function edge(
  t: CheckApi,
  field: OptionalField | 'external_id',
  inside: unknown,
  outside: unknown,
): Promise<boolean> {
  const c = await limitCase(t);
  const accept = `PATCH {${field}: ${short(inside)}} on case ${c.id} (inside the limit)`;
  let shown = shows(await patchOk(t, c.id, { [field]: inside }, accept), field, inside, `the answer to ${accept}`);
  shown = shows(await readCase(t.primary, c.id), field, inside, `case ${c.id} read after ${accept}`) || shown;
  const reject = `PATCH {${field}: ${short(outside)}} on case ${c.id} (outside the limit)`;
  expectRejected(await t.primary.api.patchCase(c.id, { [field]: outside }), reject);
  shows(
    await readCase(t.primary, c.id),
    field,
    inside,
    `case ${c.id} read after the rejected ${reject} (the value before it)`,
  );
  return shown;
}

/** Sends each value outside the range to a case with a known delete_after; each is rejected and changes nothing. */
async function refused(t: CheckApi, values: readonly number[]): Promise<boolean> {
  const c = await limitCase(t);
  const known = 30;
  let shown = shows(
    await patchOk(t, c.id, { delete_after: known }, `PATCH {delete_after: ${known}} on case ${c.id}`),
    'delete_after',
    known,
    `case ${c.id}`,
  );
  for (const value of values) {
    const what = `PATCH {delete_after: ${value}} on case ${c.id}`;
    expectRejected(await t.primary.api.patchCase(c.id, { delete_after: value }), what);
    shown =
      shows(
        await readCase(t.primary, c.id),
        'delete_after',
        known,
        `case ${c.id} read after the rejected ${what} (the value before it)`,
      ) || shown;
  }
  return shown;
}

/**
 * Sets a customer field through bulk update to `inside` (applied, seen in the case's nested
 * customer), then to `outside`: not applied, never a 5xx. How the failure is reported (a failed
 * item in a 200, or a 4xx for the whole request) is the bulk suites' to judge.
 */
async function customerEdge(
  t: CheckApi,
  field: 'full_name' | 'external_id',
  inside: string,
  outside: string,
): Promise<void> {
  const c = await limitCase(t);
  const customer = c.customer as { id?: unknown } | undefined;
  if (!isId(customer?.id))
    fail(`the customer nested in case ${c.id}`, 'an object with an integer id', short(c.customer), { judged: [c] });
  const customerId = customer.id;
  const seen = async (what: string) => {
    const read = await readCase(t.primary, c.id);
    const nested = read.customer as Record<string, unknown> | undefined;
    if (!nested || typeof nested !== 'object')
      fail(`${what}: customer of case ${c.id}`, 'the nested customer', short(read.customer), { judged: [read] });
    return { value: nested[field], read };
  };
  const apply =
    `POST /api/customers/bulk-update/ {items: [{id: ${customerId}, ${field}: ${short(inside)}}]} ` +
    `(inside the limit)`;
  const res = await t.primary.api.bulkUpdateCustomers({ items: [{ id: customerId, [field]: inside }] });
  expectSuccess(res, apply);
  const { value: after, read: afterRead } = await seen(apply);
  if (after !== inside)
    fail(`customer ${customerId}.${field}, read through case ${c.id} after ${apply}`, short(inside), short(after), {
      judged: [res, afterRead],
    });

  const over =
    `POST /api/customers/bulk-update/ {items: [{id: ${customerId}, ${field}: ${short(outside)}}]} ` +
    `(outside the limit)`;
  const refusedRes = await t.primary.api.bulkUpdateCustomers({ items: [{ id: customerId, [field]: outside }] });
  expectNoServerError(refusedRes, over);
  const { value: kept, read: keptRead } = await seen(over);
  if (kept !== inside)
    fail(
      `customer ${customerId}.${field}, read through case ${c.id} after ${over}`,
      `${short(inside)} (not applied)`,
      short(kept),
      { judged: [refusedRes, keptRead] },
    );
}

/** What one length probe did: accepted and stored as sent, stored otherwise, or refused. */
async function probe(
  t: CheckApi,
  id: Id,
  field: 'external_id' | 'webhook_url',
  value: string,
): Promise<{ accepted: boolean; text: string }> {
  const res: ReceivedResponse = await t.primary.api.patchCase(id, { [field]: value });
  if (res.status < 200 || res.status > 299) {
    return {
      accepted: false,
      text: `rejected (HTTP ${res.status}${res.status >= 500 ? ', a 5xx: never a conforming rejection' : ''})`,
    };
  }
  const read = await readCase(t.primary, id);
  const stored = read[field];
  if (stored === value) return { accepted: true, text: `accepted (HTTP ${res.status}), stored as sent` };
  if (typeof stored !== 'string')
    return { accepted: true, text: `accepted (HTTP ${res.status}), shown as ${short(stored)}` };
  const how =
    stored.normalize('NFC') === value.normalize('NFC')
      ? 'Unicode-normalised'
      : encodeURI(value) === stored
        ? 'percent-encoded'
        : 'changed';
  return {
    accepted: true,
    text:
      `accepted (HTTP ${res.status}), stored ${how}: ${codePointLength(stored)} code points, ${stored.length} ` +
      `UTF-16 units`,
  };
}

const graphemes = new Intl.Segmenter('und', { granularity: 'grapheme' });

function sizes(s: string): string {
  const clusters = [...graphemes.segment(s)].length;
  return (
    `${clusters} graphemes, ${codePointLength(s)} code points, ${s.length} UTF-16 units, ` +
    `${Buffer.byteLength(s)} UTF-8 bytes`
  );
}

describe('limits at their exact edges', () => {
  check('webhook_url: 511 characters accepted, 512 rejected', ['LIMIT-WEBHOOK-URL-511'], async (t) => {
    const shown = await edge(
      t,
      'webhook_url',
      httpUrlOfLength(LIMITS.webhookUrlMaxLength),
      httpUrlOfLength(LIMITS.webhookUrlMaxLength + 1),
    );
    if (!shown)
      t.observe(
        'LIMIT-WEBHOOK-URL-511',
        'webhook_url is not shown in the read representation: only the answers (200, then 4xx) were judged',
      );
  });

  check('case external_id: 512 characters accepted, 513 rejected', ['LIMIT-CASE-EXTERNAL-ID-512'], async (t) => {
    const prefix = `${t.primary.provision.externalId('limit')}-`;
    await edge(
      t,
      'external_id',
      asciiOfLength(prefix, LIMITS.caseExternalIdMaxLength),
      asciiOfLength(prefix, LIMITS.caseExternalIdMaxLength + 1),
    );
    await acceptedAtLimit(t, 'external_id', bmpOfLength(prefix, LIMITS.caseExternalIdMaxLength));
  });

  check('customer external_id: 255 characters applied, 256 not', ['LIMIT-CUSTOMER-EXTERNAL-ID-255'], async (t) => {
    const prefix = `${t.primary.provision.externalId('customer-limit')}-`;
    const max = LIMITS.customerExternalIdMaxLength;
    await customerEdge(t, 'external_id', asciiOfLength(prefix, max), asciiOfLength(prefix, max + 1));
  });

  check('customer full_name: 255 characters applied, 256 not', ['LIMIT-CUSTOMER-FULL-NAME-255'], async (t) => {
    const max = LIMITS.customerFullNameMaxLength;
    await customerEdge(
      t,
      'full_name',
      asciiOfLength('Screenconf Limit ', max),
      asciiOfLength('Screenconf Limit ', max + 1),
    );
    // At the limit in é: both legal readings count 255, UTF-8 bytes 493.
    await customerEdge(
      t,
      'full_name',
      bmpOfLength('Screenconf Limit ', max),
      bmpOfLength('Screenconf Limit ', max + 1),
    );
  });

  check('delete_after: -2147483648, -1 and 2147483647 accepted and shown', ['LIMIT-DELETE-AFTER-RANGE'], async (t) => {
    const c = await limitCase(t);
    let shown = false;
    for (const value of [MIN, LIMITS.deleteAfterNever, MAX]) {
      const what = `PATCH {delete_after: ${value}} on case ${c.id}`;
      shown =
        shows(await patchOk(t, c.id, { delete_after: value }, what), 'delete_after', value, `the answer to ${what}`) ||
        shown;
      shown = shows(await readCase(t.primary, c.id), 'delete_after', value, `case ${c.id} read after ${what}`) || shown;
    }
    if (!shown)
      t.observe(
        'LIMIT-DELETE-AFTER-RANGE',
        'delete_after is not shown in the read representation: only the 200 answers were judged',
      );
  });

  check('delete_after: 2147483648 and -2147483649 rejected', ['LIMIT-DELETE-AFTER-OUTSIDE'], async (t) => {
    if (!(await refused(t, [MAX + 1, MIN - 1])))
      t.observe('LIMIT-DELETE-AFTER-OUTSIDE', 'delete_after is not shown: only the rejections were judged');
  });

  check('delete_after: 1.5 and -1.5 rejected', ['LIMIT-DELETE-AFTER-INTEGER'], async (t) => {
    if (!(await refused(t, [1.5, -1.5])))
      t.observe('LIMIT-DELETE-AFTER-INTEGER', 'delete_after is not shown: only the rejections were judged');
  });

  check('how length is counted for non-ASCII values', ['LIMIT-LENGTH-UNIT'], async (t) => {
    const c = await limitCase(t);
    const max = LIMITS.caseExternalIdMaxLength;
    const prefix = (label: string) => `${t.primary.provision.externalId(`unit-${label}`)}-`;
    const fill = (p: string, unit: string, count: number) => p + unit.repeat(count);
    const twoByte = prefix('latin');
    const astral = prefix('emoji');
    const combining = prefix('combining');
    const probes: [string, string][] = [
      ['é (U+00E9)', fill(twoByte, 'é', max - twoByte.length)],
      ['😀 (U+1F600)', fill(astral, '😀', max - astral.length)],
      ['e + U+0301', fill(combining, 'e\u0301', max - combining.length)],
    ];
    const outcome: Record<string, boolean> = {};
    for (const [label, value] of probes) {
      const r = await probe(t, c.id, 'external_id', value);
      outcome[label] = r.accepted;
      t.observe('LIMIT-LENGTH-UNIT', `external_id of ${label} (${sizes(value)}): ${r.text}`);
    }
    const [latin, emoji, marks] = [outcome['é (U+00E9)'], outcome['😀 (U+1F600)'], outcome['e + U+0301']];
    const reading = !latin
      ? 'UTF-8 bytes (or non-ASCII refused)'
      : marks
        ? 'grapheme clusters (or a limit above 512)'
        : emoji
          ? 'Unicode code points'
          : 'UTF-16 code units';
    t.observe('LIMIT-LENGTH-UNIT', `external_id length reads as counted in ${reading}`);

    const url = httpUrlOfLength(20) + 'é'.repeat(LIMITS.webhookUrlMaxLength - 20);
    const r = await probe(t, c.id, 'webhook_url', url);
    t.observe(
      'LIMIT-LENGTH-UNIT',
      `webhook_url with a non-ASCII path (${sizes(url)}; ${encodeURI(url).length} characters percent-encoded): ` +
        `${r.text}`,
    );
  });
});
