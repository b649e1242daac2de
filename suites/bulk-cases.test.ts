/**
 * POST /api/cases/bulk-update/ (interface § Endpoints › Bulk Update Cases; § Errors 1; § Limits).
 *
 * Item fields are not shown: screenconf sends id plus the PATCH fields, the natural reading of
 * "each item identifies a case by id" beside the Update Case table (the decision is recorded on
 * BULK-CASES-ACCEPT-100). The answer's shape is not shown either: src/kit/bulk-report.ts
 * recognises the per-item report, and --bulk-failures-path names the failure list of other
 * shapes. What a batch did is always judged by reading the cases back.
 */
import fc from 'fast-check';
import { describe } from 'vitest';
import { invalidCasePatch, validCasePatch, type CasePatchInvalidReason } from '../src/arbitraries/index.ts';
import {
  appliedButReportedFailed,
  changedFields,
  changedNames,
  check,
  describeLimitFields,
  differentValue,
  describeItems,
  describeReport,
  exchanged,
  expectBatchReport,
  expectBatchSuccess,
  expectFailuresReported,
  expectMalformedHandled,
  expectNoServerError,
  expectOverLimitRefused,
  fail,
  failReadBack,
  fieldsTaken,
  fromPool,
  fieldsUnequal,
  freshExternalIds,
  inOrder,
  itemLabels,
  keepingEvidence,
  learnBefore,
  limitBatches,
  limitPool,
  malformedBulkBodies,
  mapLimit,
  property,
  readBackProblems,
  readBulkReport,
  readCase,
  someOf,
  unknownId,
  type BulkSent,
  type PoolLease,
  type CaseBody,
  type CheckApi,
  type JsonObject,
  type MixedEntry,
  type MixedSetup,
  type Organisation,
  type ReadBack,
} from '../src/kit/index.ts';
import { asCell } from '../src/kit/containers/index.ts';
import { type Id, LIMITS, READ_ONLY_CASE_FIELDS } from '../src/spec/index.ts';
import { exact } from '../src/spec/inputs/values.ts';

const LIMIT = LIMITS.bulkMaxItems;
const CONCURRENCY = 8;
/** Fields the read representation may leave out: not judged when absent. */
const OPTIONAL_IN_READ = new Set(['webhook_url', 'delete_after', 'metadata', 'sync_platforms']);
/**
 * Defects every conforming server rejects, whichever way it counts length or coerces types:
 * over-long values, delete_after outside int32 or not an integer. (Numeric strings and wrong
 * JSON types are left out: a server may coerce them; the limits suites judge them.)
 */
const ALWAYS_REJECTED: readonly CasePatchInvalidReason[] = [
  'too-long-by-one',
  'too-long',
  'out-of-range',
  'non-integer',
];
const MAX_VALID = 3;
const MAX_INVALID = 3;
const MAX_UNKNOWN = 2;

function send(t: CheckApi, body: unknown) {
  return exchanged(t, () => t.primary.api.bulkUpdateCases(body));
}

/** The fields of an item a case read back is judged on: all but id; one the read may leave out, only when there. */
function judgedPart(read: CaseBody, sent: JsonObject): JsonObject {
  return Object.fromEntries(
    Object.entries(sent).filter(([field]) => field !== 'id' && (field in read || !OPTIONAL_IN_READ.has(field))),
  );
}

/** How the case differs from what the item sent (fields the read leaves out are not judged). */
function notApplied(read: CaseBody, sent: JsonObject): string[] {
  return fieldsUnequal(read, judgedPart(read, sent)).map((f) =>
    f.received === 'absent'
      ? `${f.name} missing`
      : `${f.name} is ${f.received.slice(0, 120)}, the item sent ${f.expected.slice(0, 120)}`,
  );
}

/** The run's 101 cases the 100- and 101-item batches act on (shared with the bulk-customers suite). */
const pool = limitPool();

/** The values of a 101-item batch's item a case read back shows (it took the item). */
function tookFields(read: CaseBody, item: JsonObject) {
  const { id: _id, ...values } = item;
  return fieldsTaken(read, values);
}

/** The value an item of the 100-item batch (`full`: the largest legal one) or the 101-item batch sets, per field. */
const LIMIT_VALUES: Record<string, (v: { full: boolean; externalId: string; n: number }) => unknown> = {
  external_id: (v) => (v.full ? exact(`${v.externalId}-`, LIMITS.caseExternalIdMaxLength, 'x') : v.externalId),
  delete_after: (v) => (v.full ? LIMITS.deleteAfterMin : 2000) + v.n,
  webhook_url: (v) =>
    v.full
      ? exact(`https://hooks.example.com/screenconf/${v.externalId}/`, LIMITS.webhookUrlMaxLength)
      : `https://hooks.example.com/screenconf/${v.externalId}/over`,
  metadata: (v) => ({ screenconf: v.externalId }),
  sync_platforms: (v) => [{ domain: 'screenconf.example', id: v.externalId }],
};
/** An ordinary value of each field, for an item sent alone (kit/item-fields.ts). */
const PROBE_VALUES: Record<string, (externalId: string) => unknown> = {
  external_id: (externalId) => externalId,
  delete_after: () => 30,
  webhook_url: (externalId) => `https://hooks.example.com/screenconf/${externalId}/probe`,
  metadata: (externalId) => ({ screenconf: externalId }),
  sync_platforms: (externalId) => [{ domain: 'screenconf.example', id: externalId }],
};

/**
 * The 100- and 101-item batches, read back once after both (kit/limit-batches.ts). Each item sets
 * a fresh external_id and a delete_after no case holds yet (from the bottom of its range for 100 items,
 * 2000… for 101, moved on by each further batch of the kind): a case showing one of its item's values
 * took it. The 100-item batch is the largest legal request: every string at its limit (webhook_url 511,
 * external_id 512 characters), delete_after at the edge of its range. Where the items take none of those
 * (each refused sent alone: "Item fields … not shown"), they set metadata and sync_platforms, each value fresh.
 */
const limit = limitBatches<CaseBody, CaseBody>({
  hold: (t, fn) => pool.use(t, ({ cases }) => fn(cases)),
  fields: { preferred: ['external_id', 'delete_after', 'webhook_url'], fallback: ['metadata', 'sync_platforms'] },
  probe: (t, c) => ({
    item: (field) => ({ id: c.id, [field]: PROBE_VALUES[field]!(t.primary.provision.externalId('probe')) }),
    sendAlone: (item) => t.primary.api.bulkUpdateCases({ items: [item] }),
    key: (item) => ({ id: item.id }),
  }),
  items: (t, cases, kind, round, fields) =>
    cases.map((c, i) => {
      const full = kind === 'full';
      const externalId = t.primary.provision.externalId(`bulk${full ? LIMIT : LIMIT + 1}-${i}`);
      const v = { full, externalId, n: 2000 * round + i };
      return { id: c.id, ...Object.fromEntries(fields.map((f) => [f, LIMIT_VALUES[f]!(v)])) };
    }),
  send: (t, body) => t.primary.api.bulkUpdateCases(body),
  read: (t, c) => readCase(t.primary, c.id),
  applied: (read, item) => notApplied(read, item).length === 0,
});

/**
 * external_ids must stay unique: generated ones start with a placeholder slot, replaced at send
 * time by a fresh prefix of the same length, so no two items or runs ever share a value.
 */
function externalIds(t: CheckApi) {
  const ids = freshExternalIds(t.primary, 'bulk');
  const fresh = (patch: JsonObject): JsonObject => {
    const v = patch.external_id;
    return typeof v === 'string' && v.startsWith(ids.slot) ? { ...patch, external_id: ids.fresh(v) } : patch;
  };
  return { slot: ids.slot, fresh };
}

interface Batch {
  valid: JsonObject[];
  invalid: { patch: JsonObject; field: string; reason: string }[];
  unknown: JsonObject[];
  /** An item giving a case the external_id another case holds (a uniqueness conflict). */
  conflict: boolean;
  peer: boolean;
  order: number[];
}

/** Planned items: up to MAX_VALID valid, MAX_INVALID invalid, MAX_UNKNOWN unknown, a conflict, a peer's case. */
const ORDER_LENGTH = MAX_VALID + MAX_INVALID + MAX_UNKNOWN + 2;

/**
 * A batch whose failing items come first and between the valid ones, one of every kind: the
 * defect of a server whose loop stops at the first failure (a uniqueness conflict aborting the
 * transaction) shows only there. Planned order: valid, invalid, unknown, conflict, peer.
 */
function failuresFirst(slot: string, withPeer: boolean): Batch {
  return {
    valid: [
      { external_id: `${slot}after-failures` },
      { delete_after: 4321 },
      { metadata: { screenconf: 'after-failures' }, webhook_url: 'https://example.com/screenconf/after' },
    ],
    invalid: [
      {
        patch: { external_id: 'x'.repeat(LIMITS.caseExternalIdMaxLength + 1) },
        field: 'external_id',
        reason: 'too-long',
      },
      { patch: { delete_after: 'never' }, field: 'delete_after', reason: 'wrong type' },
    ],
    unknown: [{ delete_after: 4242 }],
    conflict: true,
    peer: withPeer,
    // conflict, unknown, peer, over-long first; the wrong type between the first valid items.
    order: [4, 6, 7, 3, 5, 1, 0, 2],
  };
}

function batches(slot: string, withPeer: boolean): fc.Arbitrary<Batch> {
  const patch = validCasePatch({ externalIdPrefix: slot }) as fc.Arbitrary<JsonObject>;
  return fc.record({
    valid: fc.array(patch, { minLength: 1, maxLength: MAX_VALID }),
    invalid: fc.array(
      invalidCasePatch({ fields: ['webhook_url', 'delete_after', 'external_id'], externalIdPrefix: slot }).filter((p) =>
        ALWAYS_REJECTED.includes(p.reason),
      ),
      { minLength: 1, maxLength: MAX_INVALID },
    ),
    unknown: fc.array(patch, { maxLength: MAX_UNKNOWN }),
    conflict: fc.boolean(),
    peer: withPeer ? fc.boolean() : fc.constant(false),
    order: fc.array(fc.nat(), { minLength: ORDER_LENGTH, maxLength: ORDER_LENGTH }),
  });
}

/** A case an item names, and the organisation that can read it. */
type Entry = MixedEntry<{ org: Organisation; id: Id }, CaseBody>;
/** The mixed batches' cases, and a case apart whose external_id the conflicting item asks for. */
type Setup = MixedSetup<CaseBody, CaseBody> & { holder: CaseBody };

const CASES: ReadBack<{ org: Organisation; id: Id }, CaseBody> = {
  noun: 'case',
  read: (target, after) => readCase(target.org, target.id, after ? `reading case ${target.id} ${after}` : undefined),
  notApplied,
  sets: judgedPart,
  changed: (before, after) => changedFields(before, after),
  sendAlone: (target, item) => target.org.api.bulkUpdateCases({ items: [item] }),
  key: (item) => ({ id: item.id }),
};

/**
 * The cases mixed batches act on (MixedSetup), chosen once for the file: the limit pool's first
 * when it was made (the check holds the pool), else new ones. What the file knew of them is
 * forgotten when another file acted on the pool since: a mixed batch learns the state of what it names.
 */
let mixed: Promise<Setup> | undefined;
async function mixedSetup(t: CheckApi, lease: PoolLease | undefined): Promise<Setup> {
  mixed ??= (async () => {
    const n = MAX_VALID + MAX_INVALID + 1;
    const cases =
      fromPool(lease, n) ??
      (await mapLimit(Array.from({ length: n }), CONCURRENCY, () => t.primary.provision.createCase()));
    const holder = await t.primary.provision.createCase({ external_id: t.primary.provision.externalId('held') });
    const peer = t.peer ? await t.peer.provision.createCase() : undefined;
    return { pool: cases, holder, ...(peer ? { peer } : {}), known: new Map() };
  })();
  const setup = await mixed;
  if (lease?.changedElsewhere) setup.known.clear();
  return setup;
}

/**
 * Builds the request for a generated batch and sends it; with `before`, first learns the state
 * of what the failing items name (from their last read, or by reading them).
 */
async function sendMixed(
  t: CheckApi,
  setup: Setup,
  fresh: (p: JsonObject) => JsonObject,
  batch: Batch,
  before: boolean,
): Promise<BulkSent<Entry>> {
  const { pool, peer } = setup;
  const planned: Omit<Entry, 'index'>[] = [];
  batch.valid.forEach((p, i) => {
    const id = pool[i]!.id;
    planned.push({
      item: { id, ...fresh(p) },
      valid: true,
      label: `valid ${Object.keys(p).join('+')} for case ${id}`,
      target: { org: t.primary, id, key: `a:${id}` },
    });
  });
  batch.invalid.forEach((p, j) => {
    const id = pool[MAX_VALID + j]!.id;
    planned.push({
      item: { id, ...fresh(p.patch) },
      valid: false,
      label: `invalid ${p.field} (${p.reason}) for case ${id}`,
      target: { org: t.primary, id, key: `a:${id}` },
    });
  });
  const unknown = new Set<number>();
  for (const p of batch.unknown) {
    let id = unknownId();
    while (unknown.has(id)) id = unknownId();
    unknown.add(id);
    planned.push({ item: { id, ...fresh(p) }, valid: false, label: `unknown case id ${id}` });
  }
  if (batch.conflict) {
    const id = pool[MAX_VALID + MAX_INVALID]!.id;
    planned.push({
      item: { id, external_id: setup.holder.external_id as string },
      valid: false,
      label: `case ${id} given the external_id case ${setup.holder.id} holds`,
      target: { org: t.primary, id, key: `a:${id}` },
    });
  }
  if (batch.peer && peer && t.peer) {
    const id = peer.id;
    planned.push({
      item: { id, delete_after: 4242 },
      valid: false,
      label: `case ${id} of another organisation`,
      target: { org: t.peer, id, key: `b:${id}` },
    });
  }
  const entries = inOrder(planned, batch.order);
  await learnBefore(entries, setup, CASES, before);
  const { res, exchange } = await send(t, { items: entries.map((e) => e.item) });
  return { entries, res, exchange, what: `bulk update of ${entries.length} cases (${itemLabels(entries)})` };
}

describe('POST /api/cases/bulk-update/', () => {
  check(
    'a batch of exactly 100 items is accepted and every item applied',
    ['BULK-CASES-ACCEPT-100', 'BULK-CASES-ITEM-FIELDS'],
    asCell('bulk-cases', '100', async (t) => {
      const batch = await limit.full(t);
      t.observe('BULK-CASES-ITEM-FIELDS', describeLimitFields(batch));
      const what = `bulk update of ${LIMIT} cases setting ${batch.fields.join(', ')}`;
      expectBatchSuccess(batch.res, what);
      await keepingEvidence(t, batch.exchange, async () => {
        const wrong = batch.after.flatMap((read, i) => {
          const w = notApplied(read, batch.items[i]!);
          return w.length ? [{ read, item: batch.items[i]!, text: `case ${read.id}: ${w.join(', ')}` }] : [];
        });
        const first = wrong[0];
        if (first)
          fail(
            `${what}: the cases read back${batch.readAfterBoth ? ` (after it and the ${LIMIT + 1}-item one)` : ''}`,
            `all ${LIMIT} items applied`,
            `${wrong.length} not applied: ${someOf(wrong.map((w) => w.text))}`,
            { judged: [first.read], expect: { fields: fieldsUnequal(first.read, judgedPart(first.read, first.item)) } },
          );
      });
    }),
  );

  check(
    'a batch of 101 items applies none of them',
    ['BULK-CASES-REJECT-101'],
    asCell('bulk-cases', '101', async (t) => {
      const batch = await limit.over(t);
      const what = `bulk update of ${LIMIT + 1} cases (one over the limit of ${LIMIT})`;
      await keepingEvidence(t, batch.exchange, async () => {
        const request = batch.items.map((i) => ({ id: i.id }));
        t.observe('BULK-CASES-REJECT-101', expectOverLimitRefused(t, batch.res, request, what));
        const changed = batch.after.flatMap((read, i) => {
          const took = tookFields(read, batch.items[i]!);
          return took.length
            ? [{ read, took, text: `case ${read.id}: ${took.map((f) => `${f.name} ${f.value}`).join(', ')}` }]
            : [];
        });
        const first = changed[0];
        if (first)
          fail(
            `the cases read back after the ${what}`,
            'no case took a value its item sent',
            `${changed.length} of ${LIMIT + 1} did: ${someOf(changed.map((c) => c.text))}`,
            { judged: [first.read], expect: { unlike: first.took } },
          );
        // Read before it too (a batch of its own): no case changed at all, not even to a value of no item.
        const before = batch.before;
        if (!before) return;
        const moved = batch.after.flatMap((read, i) => {
          const names = changedNames(before[i]!, read);
          return names.length
            ? [{ read, was: before[i]!, names, text: changedFields(before[i]!, read).join('; ') }]
            : [];
        });
        const one = moved[0];
        if (one)
          fail(
            `the cases read before and after the ${what}`,
            'every case as it was before the batch',
            `${moved.length} of ${LIMIT + 1} changed: ${someOf(moved.map((m) => `case ${m.read.id}: ${m.text}`))}`,
            {
              judged: [one.read],
              expect: { fields: fieldsUnequal(one.read, Object.fromEntries(one.names.map((n) => [n, one.was[n]]))) },
            },
          );
      });
    }),
  );

  // Each run holds the pool (shared with the bulk-customers suite) while it learns, sends and reads back.
  check('a mixed batch applies its valid items and only them', ['BULK-CASES-PARTIAL'], async (t) => {
    const { slot, fresh } = externalIds(t);
    await property(
      t,
      'bulk-cases: mixed batch applied',
      batches(slot, t.peer !== undefined),
      (batch) =>
        pool.useIfMade(t, async (lease) => {
          const setup = await mixedSetup(t, lease);
          const sent = await sendMixed(t, setup, fresh, batch, true);
          await keepingEvidence(t, sent.exchange, async () => {
            expectBatchSuccess(sent.res, sent.what);
            failReadBack(
              `${sent.what}: the cases read back`,
              'every valid item applied, and no case named by a failing item changed',
              await readBackProblems(t, sent, setup, CASES),
            );
          });
        }),
      { scale: 0.4, examples: [failuresFirst(slot, t.peer !== undefined)] },
    );
  });

  check(
    'each failing item of a mixed batch is reported as failed',
    ['BULK-CASES-REPORTED', 'BULK-CASES-REPORT-SHAPE'],
    async (t) => {
      const { slot, fresh } = externalIds(t);
      let observed = false;
      await property(
        t,
        'bulk-cases: mixed batch reported',
        batches(slot, t.peer !== undefined),
        (batch) =>
          pool.useIfMade(t, async (lease) => {
            const setup = await mixedSetup(t, lease);
            const sent = await sendMixed(t, setup, fresh, batch, false);
            await keepingEvidence(t, sent.exchange, async () => {
              const failed = sent.entries.filter((e) => !e.valid);
              const request = sent.entries.map((e) => ({ id: e.item.id }));
              if (!observed) {
                observed = true;
                const report = readBulkReport(t, sent.res, request);
                t.observe(
                  'BULK-CASES-REPORT-SHAPE',
                  describeReport(sent.res, report, failed.find((e) => !e.target) ?? failed[0]),
                );
              }
              expectBatchReport(sent.res, sent.what);
              const applied = await appliedButReportedFailed(t, sent, request, CASES, setup);
              expectFailuresReported(t, sent.res, request, { failed, applied }, sent.what);
            });
          }),
        { scale: 0.4, examples: [failuresFirst(slot, t.peer !== undefined)] },
      );
    },
  );

  check(
    'read-only fields sent in bulk items leave the cases unchanged',
    ['BULK-CASES-READ-ONLY-UNCHANGED'],
    async (t) =>
      pool.useIfMade(t, async (lease) => {
        const fields = READ_ONLY_CASE_FIELDS.filter((f) => f !== 'id');
        // The limit pool's last cases when it was made (each read before it is judged), else new ones.
        const created =
          fromPool(lease, fields.length, true) ??
          (await mapLimit(fields, CONCURRENCY, () =>
            t.primary.provision.createCase({ checks: [{ check_type: 'PEP' }] }),
          ));
        const before = await mapLimit(created, CONCURRENCY, (c) => readCase(t.primary, c.id));
        const items = fields.map((f, i) => ({ id: before[i]!.id, [f]: differentValue(before[i]!, f) }));
        const what = `bulk update of ${items.length} cases, each item sending one read-only field`;
        const { res, exchange } = await send(t, { items });
        expectNoServerError(res, what);
        await keepingEvidence(t, exchange, async () => {
          const after = await mapLimit(before, CONCURRENCY, (c) =>
            readCase(t.primary, c.id, `reading case ${c.id} after the ${what}`),
          );
          const problems = after.flatMap((a, i) => {
            const changed = changedFields(before[i]!, a);
            return changed.length ? [`case ${a.id} (item sent ${fields[i]}): ${changed.join('; ')}`] : [];
          });
          if (problems.length)
            fail(`${what}: the cases read back`, 'every case unchanged (the fields are read-only)', someOf(problems));
        });
        const report =
          res.status < 300
            ? readBulkReport(
                t,
                res,
                items.map((i) => ({ id: i.id })),
              )
            : undefined;
        const how = !report
          ? 'rejected whole'
          : report.recognised
            ? `${describeItems(report)} (${report.shape})`
            : `report unrecognised: ${res.text.slice(0, 200)}`;
        t.observe('BULK-CASES-READ-ONLY-UNCHANGED', `items ${fields.join(', ')}: HTTP ${res.status}; ${how}`);
      }),
  );

  check('malformed bodies are never answered with a 5xx', ['BULK-CASES-MALFORMED'], async (t) => {
    const bodies = malformedBulkBodies('items', { id: unknownId(), delete_after: 7 });
    await expectMalformedHandled(
      t,
      'BULK-CASES-MALFORMED',
      'bulk case update',
      bodies,
      async (body) => (await send(t, body)).res,
    );
  });

  check('a batch naming the same case twice', ['BULK-CASES-MALFORMED', 'BULK-CASES-DUPLICATE-IDS'], async (t) => {
    const c = await t.primary.provision.createCase();
    const first = t.primary.provision.externalId('dup-first');
    const second = t.primary.provision.externalId('dup-second');
    const items = [
      { id: c.id, external_id: first },
      { id: c.id, external_id: second },
    ];
    const { res } = await send(t, { items });
    const read = await readCase(t.primary, c.id);
    const won =
      read.external_id === second
        ? 'the second item won'
        : read.external_id === first
          ? 'the first item won'
          : 'neither item was applied';
    const report = readBulkReport(
      t,
      res,
      items.map((i) => ({ id: i.id })),
    );
    const reported = report.recognised
      ? `${describeItems(report)} (${report.shape})`
      : `report unrecognised: ${res.text.slice(0, 200)}`;
    t.observe(
      'BULK-CASES-DUPLICATE-IDS',
      `two items setting external_id on case ${c.id}: HTTP ${res.status}; ${won}; ${reported}`,
    );
    expectNoServerError(res, `bulk update of case ${c.id} in two items`);
  });
});
