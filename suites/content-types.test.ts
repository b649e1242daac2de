/**
 * Request content types (interface § Endpoints: "Request bodies may be sent as application/json,
 * application/x-www-form-urlencoded or multipart/form-data unless noted").
 *
 * A form carries text only. The fields with a flat form, webhook_url, delete_after (its digits)
 * and external_id, must have the same effect in all three types (MUST). How null, objects and
 * arrays travel in a form is not shown: the client sends null as an empty value, objects and
 * `items` as JSON text and `ids` as repeated fields, and what the server does with them is
 * recorded (OBSERVE). Only a refusal of the media type itself (415) fails a bulk endpoint.
 */
import { stringifyJson } from '../src/base/json.ts';
import fc from 'fast-check';
import { describe } from 'vitest';
import { unicodeText, validCasePatch } from '../src/arbitraries/index.ts';
import type { ContentType } from '../src/client/encode.ts';
import type { ReceivedResponse } from '../src/client/transport.ts';
import {
  caseWithChecks,
  check,
  checkIds,
  customerOf,
  deepEqual,
  excerpt,
  expectCaseBody,
  expectStatus,
  fail,
  property,
  readCase,
  someOf,
  type CaseBody,
  type CheckApi,
  type JsonObject,
} from '../src/kit/index.ts';
import type { Id } from '../src/spec/index.ts';
type FormType = Extract<ContentType, 'form' | 'multipart'>;

const MEDIA: Record<FormType, string> = { form: 'application/x-www-form-urlencoded', multipart: 'multipart/form-data' };

const flatPatches = fc.record({
  patch: validCasePatch({ fields: ['webhook_url', 'delete_after'], nullRate: 0 }) as fc.Arbitrary<JsonObject>,
  externalId: fc.option(unicodeText({ minLength: 1, maxLength: 64, trim: true }), { nil: undefined }),
});

/**
 * The two cases the form and multipart PATCH checks send their twin PATCHes to, made once for the
 * file: every run compares only the fields it sends, with the values it sends (a case left by an
 * earlier run is what a property's later runs meet anyway). Each case's state as last answered or
 * read goes with it, for the observations of how structured fields travel in a form.
 */
interface Twins {
  json: CaseBody;
  form: CaseBody;
}
let twins: Promise<Twins> | undefined;
function twinCases(t: CheckApi): Promise<Twins> {
  const p = t.primary.provision;
  twins ??= (async () => ({ json: await p.createCase(), form: await p.createCase() }))().catch((err: unknown) => {
    twins = undefined; // a re-run makes them again
    throw err;
  });
  return twins;
}

/**
 * The same PATCH as JSON on one case and as `type` on another: the form case must end as the
 * JSON case does (external_id, unique per case, compared with what each was sent). The JSON
 * case's state is its PATCH's answer (the Case read representation); the form case is read.
 */
async function samePatchEffect(t: CheckApi, type: FormType): Promise<void> {
  const p = t.primary.provision;
  const pair = await twinCases(t);
  const [jsonCase, formCase] = [pair.json, pair.form];
  await property(
    t,
    `content-types: PATCH as ${type}`,
    flatPatches,
    async ({ patch, externalId }) => {
      const sentJson: JsonObject = {
        ...patch,
        ...(externalId !== undefined ? { external_id: `${p.externalId('json')}-${externalId}` } : {}),
      };
      const sentForm: JsonObject = {
        ...patch,
        ...(externalId !== undefined ? { external_id: `${p.externalId(type)}-${externalId}` } : {}),
      };
      const what = `PATCH ${stringifyJson(sentForm)} of case ${formCase.id} as ${MEDIA[type]}`;
      const jsonRes = await t.primary.api.patchCase(jsonCase.id, sentJson);
      const formRes = await t.primary.api.patchCase(formCase.id, sentForm, { contentType: type });
      if (jsonRes.status !== 200) {
        // The JSON PATCH itself was refused (case-patch judges that): the form one must be too.
        if (formRes.status < 400 || formRes.status > 499)
          fail(what, `a 4xx, as the same PATCH in JSON got (HTTP ${jsonRes.status})`, excerpt(formRes), {
            judged: [formRes],
            expect: { status: ['4xx'] },
          });
        return;
      }
      expectStatus(formRes, 200, `${what} (the same PATCH in JSON got HTTP 200)`);
      const readJson = expectCaseBody(jsonRes.json, jsonCase.id, `the answer to the same PATCH in JSON`);
      const readForm = await readCase(t.primary, formCase.id);
      pair.json = readJson;
      pair.form = readForm;
      const problems: string[] = [];
      const fields: { name: string; expected: string; received: string }[] = [];
      for (const field of Object.keys(sentForm)) {
        if (!(field in readJson)) continue; // left out of the read representation: no effect to compare
        let expected = readJson[field];
        if (field === 'external_id') {
          if (!deepEqual(readJson.external_id, sentJson.external_id)) continue;
          expected = sentForm.external_id;
        }
        if (!deepEqual(readForm[field], expected)) {
          problems.push(
            `${field} is ${stringifyJson(readForm[field])?.slice(0, 160)}; by JSON it became ` +
              `${stringifyJson(expected)?.slice(0, 160)}`,
          );
          const json = (v: unknown) => (v === undefined ? 'absent' : stringifyJson(v));
          fields.push({ name: field, expected: json(expected), received: json(readForm[field]) });
        }
      }
      if (problems.length)
        fail(`case ${formCase.id} read after the ${what}`, 'the same effect as the PATCH in JSON', someOf(problems), {
          judged: [formRes, readForm],
          expect: { fields },
        });
    },
    { scale: 0.4 },
  );
}

/** How a value read back relates to what a form sent: the object, its JSON text, or nothing. */
function fate(before: unknown, after: unknown, sent: unknown): string {
  if (deepEqual(after, sent)) return 'stored as the object';
  if (typeof after === 'string' && after === stringifyJson(sent)) return 'stored as the JSON text, a string';
  if (deepEqual(after, before)) return 'unchanged';
  return `became ${stringifyJson(after)?.slice(0, 120)}`;
}

/** The answer in a few words: its status, and the start of its body when it is not a 2xx. */
function answer(res: ReceivedResponse): string {
  return res.status >= 200 && res.status < 300 ? `HTTP ${res.status}` : `HTTP ${res.status} ${res.text.slice(0, 160)}`;
}

/** application/json with parameters, as frameworks and clients commonly send it. */
// RFC 9110 §5.6.6: optional whitespace around the `;` of a parameter (a parser that splits without trimming misses it).
const JSON_WITH_PARAMETERS = [
  'application/json; charset=utf-8',
  'application/json;charset=UTF-8',
  'application/json ; charset=utf-8',
];

/** What the four requests of jsonTwinRequests did to their case, as the case read back shows it. */
function jsonEffects(read: CaseBody, sentExternalId: string, checkId: Id | undefined): Record<string, unknown> {
  return {
    webhook_url: read.webhook_url,
    metadata: read.metadata,
    'external_id (the value sent)': deepEqual(read.external_id, sentExternalId),
    'delete_after (by bulk case update)': read.delete_after,
    'customer full_name (by bulk customer update)': (read.customer as { full_name?: unknown } | undefined)?.full_name,
    'its check (after bulk check delete)': checkId === undefined ? 'none' : checkIds(read).includes(checkId),
  };
}

/**
 * PATCH, bulk case update, bulk customer update and bulk check delete of one case, each with the
 * JSON body labelled `contentType` (undefined: plain application/json); returns the answers and
 * the case's effects read back.
 */
async function jsonTwinRequests(t: CheckApi, c: CaseBody, contentType: string | undefined) {
  const api = t.primary.api;
  const options = contentType ? { headers: { 'content-type': contentType } } : {};
  const externalId = t.primary.provision.externalId('charset');
  const checkId = checkIds(c)[0];
  const sent: [string, ReceivedResponse][] = [
    [
      `PATCH /api/cases/${c.id}/`,
      await api.patchCase(
        c.id,
        { webhook_url: CHARSET_HOOK, metadata: { screenconf: 'charset' }, external_id: externalId },
        options,
      ),
    ],
    ['POST /api/cases/bulk-update/', await api.bulkUpdateCases({ items: [{ id: c.id, delete_after: 4321 }] }, options)],
    [
      'POST /api/customers/bulk-update/',
      await api.bulkUpdateCustomers({ items: [{ id: customerOf(c).id, full_name: 'Screenconf Charset' }] }, options),
    ],
    [
      'POST /api/checks/bulk-delete/',
      await api.bulkDeleteChecks({ ids: checkId === undefined ? [] : [checkId] }, options),
    ],
  ];
  const read = await readCase(t.primary, c.id, `reading case ${c.id} after the requests`);
  return { sent, effects: jsonEffects(read, externalId, checkId), read };
}

const CHARSET_HOOK = 'https://hooks.example.com/screenconf/charset';
const TWO_CHECKS = { checks: [{ check_type: 'PEP' as const }, { check_type: 'SANCTIONS' as const }] };

describe('request content types', () => {
  check('a PATCH of the flat fields as form-urlencoded has the same effect as in JSON', ['CONTENT-FORM-PATCH'], (t) =>
    samePatchEffect(t, 'form'),
  );

  check('a PATCH of the flat fields as multipart has the same effect as in JSON', ['CONTENT-MULTIPART-PATCH'], (t) =>
    samePatchEffect(t, 'multipart'),
  );

  check('metadata and sync_platforms as JSON text in form bodies', ['CONTENT-FORM-JSON-FIELDS'], async (t) => {
    const metadata = { screenconf: { probe: 'form', list: ['a', 2, null, true] } };
    const syncPlatforms = [{ domain: 'crm.example.com', id: 'CRM-FORM-1' }];
    // The twin cases, as last answered or read: neither was sent these values before.
    const pair = await twinCases(t);
    for (const [type, c] of [
      ['form', pair.json],
      ['multipart', pair.form],
    ] as const) {
      const res = await t.primary.api.patchCase(
        c.id,
        { metadata, sync_platforms: syncPlatforms },
        { contentType: type },
      );
      const read = await readCase(t.primary, c.id);
      const shown = (field: string, sent: unknown) =>
        field in read ? fate(c[field], read[field], sent) : 'not shown in the read representation';
      t.observe(
        'CONTENT-FORM-JSON-FIELDS',
        `${MEDIA[type]}: ${answer(res)}; metadata ${shown('metadata', metadata)}; sync_platforms ` +
          `${shown('sync_platforms', syncPlatforms)}`,
      );
    }
  });

  check('an empty form value for webhook_url', ['CONTENT-FORM-EMPTY-VALUE'], async (t) => {
    for (const type of ['form', 'multipart'] as const) {
      const c = await t.primary.provision.createCase({
        webhook_url: 'https://hooks.example.com/screenconf/empty-value',
      });
      const res = await t.primary.api.patchCase(c.id, { webhook_url: null }, { contentType: type });
      const read: CaseBody = await readCase(t.primary, c.id);
      const now = !('webhook_url' in read)
        ? 'not shown'
        : read.webhook_url === null
          ? 'null'
          : read.webhook_url === ''
            ? 'an empty string'
            : read.webhook_url === c.webhook_url
              ? 'unchanged'
              : stringifyJson(read.webhook_url);
      t.observe('CONTENT-FORM-EMPTY-VALUE', `${MEDIA[type]} webhook_url="": ${answer(res)}; webhook_url is now ${now}`);
    }
  });

  check(
    'bulk requests in form-urlencoded and multipart bodies',
    ['CONTENT-BULK-MEDIA-TYPES', 'CONTENT-BULK-DELETE-IDS-FORM', 'CONTENT-BULK-UPDATE-ITEMS-FORM'],
    async (t) => {
      const refused: string[] = [];
      const refusals: ReceivedResponse[] = [];
      const judge = (res: ReceivedResponse, what: string) => {
        if (res.status === 415 || res.status >= 500) {
          refused.push(`${what}: ${excerpt(res)}`);
          refusals.push(res);
        }
      };
      for (const type of ['form', 'multipart'] as const) {
        const p = t.primary.provision;
        // One case for the three requests, all seen in one read of it: the check delete (ids as
        // repeated fields) names two of its checks, the case and customer updates (items as JSON
        // text) its fields and its customer, and no request bears on what another changes.
        const holder = await caseWithChecks(t.primary, 3);
        const ids = holder.checks.slice(0, 2);
        const del = await t.primary.api.bulkDeleteChecks({ ids }, { contentType: type });
        judge(del, `bulk check delete as ${MEDIA[type]}`);
        const caseItem = { id: holder.caseId, delete_after: 321, external_id: p.externalId(`${type}-item`) };
        const cases = await t.primary.api.bulkUpdateCases({ items: [caseItem] }, { contentType: type });
        judge(cases, `bulk case update as ${MEDIA[type]}`);
        const fullName = `Screenconf ${type} item`;
        const customers = await t.primary.api.bulkUpdateCustomers(
          { items: [{ id: customerOf(holder.created).id, full_name: fullName }] },
          { contentType: type },
        );
        judge(customers, `bulk customer update as ${MEDIA[type]}`);
        const read = await readCase(t.primary, holder.caseId);
        const left = checkIds(read);
        const gone = ids.filter((id) => !left.includes(id)).length;
        t.observe(
          'CONTENT-BULK-DELETE-IDS-FORM',
          `${MEDIA[type]}, ids as repeated fields: ${answer(del)}; ${gone} of ${ids.length} checks deleted`,
        );
        const caseApplied = read.external_id === caseItem.external_id;
        const customerApplied = (read.customer as { full_name?: unknown } | undefined)?.full_name === fullName;
        t.observe(
          'CONTENT-BULK-UPDATE-ITEMS-FORM',
          `${MEDIA[type]}, items as JSON text: cases ${answer(cases)}, ${caseApplied ? 'applied' : 'not applied'}; ` +
            `customers ${answer(customers)}, ${customerApplied ? 'applied' : 'not applied'}`,
        );
      }
      if (refused.length)
        fail(
          'bulk requests sent as form-urlencoded and multipart/form-data',
          'no refusal of the media type (415) and no 5xx',
          someOf(refused),
          { judged: refusals },
        );
    },
  );

  check(
    'PATCH and bulk bodies labelled application/json with a charset take effect as plain JSON',
    ['CONTENT-JSON-CHARSET'],
    async (t) => {
      // One plain twin for both labels: what its requests did says nothing of one case (the values
      // are the same for every case, external_id compared with what each case was sent).
      const p = t.primary.provision;
      // Two checks each: the bulk check delete takes one, and the case keeps the other ("a case holds one or
      // more checks": a server may refuse to delete its last one, and the twins would then compare nothing).
      const plainCase = await p.createCase(TWO_CHECKS);
      const plain = await jsonTwinRequests(t, plainCase, undefined);
      for (const contentType of JSON_WITH_PARAMETERS) {
        const labelledCase = await p.createCase(TWO_CHECKS);
        const labelled = await jsonTwinRequests(t, labelledCase, contentType);
        const problems: string[] = [];
        const judged: ReceivedResponse[] = [];
        for (const [i, [what, res]] of labelled.sent.entries()) {
          const twin = plain.sent[i]![1];
          const ok = (r: ReceivedResponse) => r.status >= 200 && r.status <= 299;
          if (ok(res) !== ok(twin) || res.status >= 500) {
            problems.push(`${what}: ${excerpt(res)}; as plain JSON: HTTP ${twin.status}`);
            judged.push(res);
          }
        }
        let effectsDiffer = false;
        for (const [name, expected] of Object.entries(plain.effects)) {
          const received = labelled.effects[name];
          if (deepEqual(received, expected)) continue;
          effectsDiffer = true;
          const json = (v: unknown) => (v === undefined ? 'absent' : stringifyJson(v)?.slice(0, 120));
          problems.push(`${name}: ${json(received)}; as plain JSON: ${json(expected)}`);
        }
        if (problems.length)
          fail(
            `PATCH and the three bulk requests of case ${labelledCase.id} with Content-Type: ${contentType}, ` +
              `against the same requests of case ${plainCase.id} as application/json`,
            'the same answers and the same effect as plain application/json',
            someOf(problems),
            { judged: judged.length || !effectsDiffer ? judged : [labelled.sent[0]![1], labelled.read] },
          );
      }
    },
  );
});
