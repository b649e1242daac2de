/** PATCH /api/cases/{id}/ (interface § Endpoints › Update Case; § Resources › Case). */
import { stringifyJson } from '../src/base/json.ts';
import { randomBytes, randomInt } from 'node:crypto';
import { describe } from 'vitest';
import type { ReceivedResponse } from '../src/client/transport.ts';
import {
  check,
  changedFields,
  confirmedByRead,
  differentValue,
  processingBegun,
  expectCaseBody,
  expectDeleteOfNoCase,
  expectEqual,
  expectNoServerError,
  expectRejected,
  expectSchema,
  expectStatus,
  fail,
  readCase,
  show,
  stableFields,
  stateBefore,
  type CaseBody,
  type CheckApi,
} from '../src/kit/index.ts';
import { Case, CASE_PATCH_FIELDS, type CasePatchField, type Id, READ_ONLY_CASE_FIELDS } from '../src/spec/index.ts';
import { binary64Blind, ID_KINDS } from '../src/spec/inputs/ids.ts';

/** A fresh valid value for each updatable field (distinct on every call). */
function freshValue(t: CheckApi, field: CasePatchField): unknown {
  const tag = randomBytes(4).toString('hex');
  switch (field) {
    case 'webhook_url':
      return `https://hooks.example.com/screenconf/${tag}`;
    case 'delete_after':
      return randomInt(1, 3650);
    case 'metadata':
      return { screenconf: { tag, nested: [1, 'two', null, true, { deep: 'ü' }] } };
    case 'sync_platforms':
      return [{ domain: 'crm.example.com', id: `CRM-${tag}` }];
    case 'external_id':
      return t.primary.provision.externalId('patched');
  }
}

/** Fields the interface marks optional in the read representation: absent means "not shown". */
const OPTIONAL_IN_READ = new Set<string>(['webhook_url', 'delete_after', 'metadata', 'sync_platforms']);

async function patchOk(t: CheckApi, id: Id, patch: Record<string, unknown>, what: string): Promise<CaseBody> {
  const res = await t.primary.api.patchCase(id, patch);
  expectStatus(res, 200, what);
  return expectCaseBody(res.json, id, `${what}: response body`);
}

/** The field shows the value, or (optional fields only) is left out; returns false when left out. */
function expectShows(body: CaseBody, field: string, value: unknown, what: string): boolean {
  if (!(field in body)) {
    if (OPTIONAL_IN_READ.has(field)) return false;
    fail(what, `${field} present`, 'field missing', {
      judged: [body],
      expect: { fields: [{ name: field, expected: stringifyJson(value), received: 'absent' }] },
    });
  }
  expectEqual(body[field], value, `${what}: ${field}`, { judged: [body], field });
  return true;
}

/**
 * The case the checks that set what they judge share (round trip, partial update, the answer's
 * schema, null): each PATCHes fresh values into the fields it judges first, so what a check before
 * it left there cannot decide it. Made once for the file (a failed creation is made again).
 */
let shared: Promise<CaseBody> | undefined;
function sharedCase(t: CheckApi): Promise<CaseBody> {
  shared ??= t.primary.provision
    .createCase({ checks: [{ check_type: 'PEP' }, { check_type: 'SANCTIONS', input_details: { list: 'OFAC' } }] })
    .catch((err: unknown) => {
      shared = undefined;
      throw err;
    });
  return shared;
}

describe('PATCH /api/cases/{id}/', () => {
  check(
    'each updatable field set by PATCH is shown in the answer and in a later read',
    ['CASE-PATCH-ROUNDTRIP'],
    async (t) => {
      // One case for every field: each field is PATCHed once, with a value it never held before.
      const c = await sharedCase(t);
      for (const field of CASE_PATCH_FIELDS) {
        const value = freshValue(t, field);
        const what = `PATCH {${field}} on case ${c.id}`;
        const answered = await patchOk(t, c.id, { [field]: value }, what);
        const shown = expectShows(answered, field, value, what);
        const read = await readCase(t.primary, c.id);
        expectShows(read, field, value, `case ${c.id} read after ${what}`);
        if (!shown)
          t.observe(
            'CASE-PATCH-ROUNDTRIP',
            `${field} is not shown in the read representation; its round trip cannot be seen`,
          );
      }
    },
  );

  check('a PATCH changes only the fields it provides', ['CASE-PATCH-PARTIAL'], async (t) => {
    const c = await sharedCase(t);
    const initial = Object.fromEntries(CASE_PATCH_FIELDS.map((f) => [f, freshValue(t, f)]));
    let state = await patchOk(t, c.id, initial, `PATCH of every updatable field on case ${c.id}`);
    // Answers are judged against the answer before, reads against the read before: a write's answer
    // may show a case otherwise than a read does (a timestamp's precision, a field it leaves out).
    let readState = await readCase(t.primary, c.id, `reading case ${c.id} after the PATCH of every field`);
    for (const field of CASE_PATCH_FIELDS) {
      const value = freshValue(t, field);
      const answered = await patchOk(t, c.id, { [field]: value }, `PATCH {${field}} on case ${c.id}`);
      // The state before with the field PATCHed; origin_url is external_id's alias: it moves with it
      // (CASE-ORIGIN-URL-ALIAS judges how).
      const expectedFrom = (before: CaseBody, after: CaseBody) => {
        const expected = { ...stableFields(before) };
        if (field in expected || field in after) expected[field] = value;
        if (field === 'external_id') delete expected.origin_url;
        return expected;
      };
      const comparable = (body: CaseBody) => {
        const rest = stableFields(body);
        if (field === 'external_id') delete rest.origin_url;
        return rest;
      };
      expectEqual(
        comparable(answered),
        expectedFrom(state, answered),
        `case ${c.id} after PATCH {${field}} (every other field unchanged)`,
        { judged: [answered] },
      );
      const read = await readCase(t.primary, c.id);
      expectEqual(comparable(read), expectedFrom(readState, read), `case ${c.id} read after PATCH {${field}}`, {
        judged: [read],
      });
      [state, readState] = [answered, read];
    }
  });

  check('every PATCH answers 200 with the Case read representation', ['CASE-PATCH-RESPONSE-SCHEMA'], async (t) => {
    // Created with two checks, one with input_details: the answer's nested checks are judged too.
    const c = await sharedCase(t);
    const patches: Record<string, unknown>[] = [
      {},
      ...CASE_PATCH_FIELDS.map((f) => ({ [f]: freshValue(t, f) })),
      Object.fromEntries(CASE_PATCH_FIELDS.map((f) => [f, freshValue(t, f)])),
      { webhook_url: null, metadata: null, sync_platforms: null },
    ];
    for (const patch of patches) {
      const what = `PATCH ${stringifyJson(patch)} on case ${c.id}`;
      expectSchema(Case, await patchOk(t, c.id, patch, what), `${what}: response body`);
    }
  });

  check('webhook_url, metadata and sync_platforms accept null', ['CASE-PATCH-NULLABLE'], async (t) => {
    // One case for the three fields: each is set and nulled only in its own turn.
    const c = await sharedCase(t);
    for (const field of ['webhook_url', 'metadata', 'sync_platforms'] as const) {
      await patchOk(t, c.id, { [field]: freshValue(t, field) }, `PATCH {${field}} on case ${c.id}`);
      const answered = await patchOk(t, c.id, { [field]: null }, `PATCH {${field}: null} on case ${c.id}`);
      expectShows(answered, field, null, `PATCH {${field}: null}`);
      expectShows(await readCase(t.primary, c.id), field, null, `case ${c.id} read after PATCH {${field}: null}`);
    }
  });

  // The PATCH table types external_id "string or null": null is a value it lists, so it is accepted. The read
  // type is string: what the case then shows is recorded, and that it is a string is judged on every read of it
  // (CASE-EXTERNAL-ID-STRING, by the invariant watcher).
  check('external_id set to null', ['CASE-PATCH-NULLABLE', 'CASE-PATCH-EXTERNAL-ID-NULL'], async (t) => {
    const c = await t.primary.provision.createCase();
    const res = await t.primary.api.patchCase(c.id, { external_id: null });
    expectStatus(res, 200, `PATCH {external_id: null} on case ${c.id}`);
    const read = await readCase(t.primary, c.id);
    const changed = read.external_id !== c.external_id;
    t.observe(
      'CASE-PATCH-EXTERNAL-ID-NULL',
      `HTTP ${res.status}; external_id ${changed ? `became ${stringifyJson(read.external_id)}` : 'kept its value'}`,
    );
  });

  check('a PATCH of a case that does not exist is rejected', ['CASE-PATCH-UNKNOWN-ID'], async (t) => {
    const id = 2_147_480_000 + randomInt(0, 3000);
    expectRejected(await t.primary.api.patchCase(id, { delete_after: 5 }), `PATCH of case ${id}, which does not exist`);
  });

  check(
    'read-only fields sent in a PATCH leave the case unchanged',
    ['CASE-PATCH-READ-ONLY-UNCHANGED', 'CASE-PATCH-READ-ONLY-FIELDS'],
    async (t) => {
      // Judged against the cases as created, and when that fails, again on new cases read first: a
      // creation's answer may show a case otherwise than a read does (confirmedByRead).
      let observed = '';
      try {
        await confirmedByRead(async (fromRead) => {
          observed = '';
          const c = await t.primary.provision.createCase({ checks: [{ check_type: 'PEP' }] });
          // The id sent is a case of this run: a server copying the body onto its record would overwrite it.
          const decoy = await t.primary.provision.createCase();
          // As created (the answer to a creation is the case's read representation, provisioning conventions) or read.
          const [decoyBefore, initial] = [
            await stateBefore(t.primary, decoy, fromRead),
            await stateBefore(t.primary, c, fromRead),
          ];
          if (processingBegun(initial))
            t.skip(
              `case ${c.id} shows processing begun though it was never started (is_started, or a check past ` +
                'PENDING): its read-only fields move on their own, so a write cannot be told from processing',
            );
          const sent: { field: string; what: string; res: ReceivedResponse; after: CaseBody; changed: string[] }[] = [];
          for (const field of READ_ONLY_CASE_FIELDS) {
            // Each PATCH is judged against the state just before it: the read after the one before.
            const before = sent.at(-1)?.after ?? initial;
            const value = field === 'id' ? decoy.id : differentValue(before, field);
            const what = `PATCH {${field}: ${show(value)}} on case ${c.id}`;
            const res = await t.primary.api.patchCase(c.id, { [field]: value });
            // A read that fails (the case gone, or moved by a written id) fails the check at once.
            const after = await readCase(t.primary, c.id, `reading case ${c.id} after ${what}`);
            sent.push({ field, what, res, after, changed: changedFields(before, after) });
          }
          const decoyAfter = await readCase(t.primary, decoy.id, `reading case ${decoy.id}, whose id the PATCH sent`);
          const decoyChanged = changedFields(decoyBefore, decoyAfter);
          if (decoyChanged.length)
            fail(
              `case ${decoy.id} read after PATCH {id: ${decoy.id}} on case ${c.id}`,
              `case ${decoy.id} unchanged (id is read-only: the PATCH names case ${c.id})`,
              decoyChanged.join('; '),
              { judged: [decoyAfter] },
            );
          const how = (s: (typeof sent)[number]) =>
            s.res.status >= 300 ? 'rejected' : s.changed.length ? 'written' : 'ignored';
          observed = sent.map((s) => `${s.field} ${how(s)} (HTTP ${s.res.status})`).join('; ');
          for (const { what, res, after, changed } of sent) {
            expectNoServerError(res, what);
            if (changed.length)
              fail(
                `case ${c.id} read after ${what}`,
                'every field unchanged (the field is read-only)',
                changed.join('; '),
                {
                  judged: [res, after],
                },
              );
          }
        });
      } finally {
        if (observed) t.observe('CASE-PATCH-READ-ONLY-FIELDS', observed);
      }
    },
  );

  const FRACTION = ID_KINDS.find((k) => k.kind === 'fraction')!;
  check('a case path id that is no integer is never a 5xx and changes nothing', ['CASE-ID-NON-INTEGER'], async (t) => {
    // Judged against the case as created, and when that fails, again on a new case read first: a
    // creation's answer may show a case otherwise than a read does (confirmedByRead).
    let answers: string[] = [];
    await confirmedByRead(async (fromRead) => {
      answers = [];
      const c = await t.primary.provision.createCase();
      const before = await stateBefore(t.primary, c, fromRead);
      // No id here may reach a case the run did not create, however leniently a server parses it.
      const unknown = 2_147_480_000 + randomInt(0, 3000);
      // `<id>.5` only where a server reading the path as a binary64 double (Number()) still reads no integer.
      const blind = binary64Blind(FRACTION, c.id);
      if (blind) answers.push(blind);
      const ids = ['abc', ...(blind ? [] : [`${c.id}.5`]), `${unknown}.5`, '99999999999999999999', `${c.id}abc`];
      const deleteAfter = before.delete_after === 4321 ? 1234 : 4321;
      for (const id of ids) {
        const what = `PATCH /api/cases/${id}/ {delete_after: ${deleteAfter}}`;
        const res = await t.primary.api.patchCase(id, { delete_after: deleteAfter });
        expectNoServerError(res, what);
        answers.push(`PATCH ${id}: HTTP ${res.status}`);
      }
      const patched = await readCase(t.primary, c.id, `reading case ${c.id} after PATCHes of non-integer ids`);
      const changed = changedFields(before, patched);
      if (changed.length)
        fail(`case ${c.id} read after PATCH of ${ids.join(', ')}`, 'unchanged (no such case id)', changed.join('; '), {
          judged: [patched],
        });
      for (const id of ids) {
        const res = await t.primary.api.deleteCase(id);
        expectDeleteOfNoCase(res, `DELETE /api/cases/${id}/`);
        answers.push(`DELETE ${id}: HTTP ${res.status}`);
      }
      await readCase(t.primary, c.id, `reading case ${c.id} (still there) after DELETE of ${ids.join(', ')}`);
    });
    t.observe('CASE-ID-NON-INTEGER', answers.join('; '));
  });

  /** The case as created, as PATCHed to a new external_id, and as read afterwards. */
  async function made(t: CheckApi): Promise<[string, CaseBody][]> {
    const c = await t.primary.provision.createCase();
    return [
      ['created case', c],
      [
        'PATCH answer',
        await patchOk(t, c.id, { external_id: freshValue(t, 'external_id') }, `PATCH {external_id} on case ${c.id}`),
      ],
      ['read after PATCH', await readCase(t.primary, c.id)],
    ];
  }

  /**
   * The three bodies, made once for the two checks below, which judge each its own field of the same
   * bodies. A check that does not pass drops them, so its re-run (and the next check) makes them afresh.
   */
  let bodies: Promise<[string, CaseBody][]> | undefined;
  async function threeReads(t: CheckApi, judge: (all: [string, CaseBody][]) => void): Promise<void> {
    bodies ??= made(t);
    try {
      judge(await bodies);
    } catch (err) {
      bodies = undefined;
      throw err;
    }
  }

  check('external_id is a string in every case read', ['CASE-EXTERNAL-ID-STRING'], (t) =>
    threeReads(t, (all) => {
      for (const [label, body] of all) {
        if (typeof body.external_id !== 'string')
          fail(`external_id in the ${label}`, 'a string', stringifyJson(body.external_id), { judged: [body] });
      }
    }),
  );

  check('origin_url mirrors external_id in every case read', ['CASE-ORIGIN-URL-ALIAS'], (t) =>
    threeReads(t, (all) => {
      for (const [label, body] of all) {
        if (body.origin_url !== null && body.origin_url !== body.external_id) {
          fail(
            `origin_url in the ${label} (deprecated alias of external_id)`,
            stringifyJson(body.external_id),
            stringifyJson(body.origin_url),
            {
              judged: [body],
              expect: {
                fields: [
                  {
                    name: 'origin_url',
                    expected: stringifyJson(body.external_id),
                    received: stringifyJson(body.origin_url),
                  },
                ],
              },
            },
          );
        }
      }
    }),
  );
});
