/**
 * POST /api/customers/bulk-update/ (interface § Endpoints › Bulk Update Customers; § Resources ›
 * Customer; § Errors 1; § Limits).
 *
 * Customers are not created or read on their own in the interface: each case the run creates
 * carries a new customer (with an external_id), and a customer is read back through its case's
 * nested summary. Item fields are not shown: screenconf sends full_name and customer_type beside
 * id or external_id, never both (with both, which one identifies the customer is not shown).
 */
import { stringifyJson } from '../src/base/json.ts';
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe } from 'vitest';
import { invalidCustomerItem, unicodeText, type CustomerItemInvalidReason } from '../src/arbitraries/index.ts';
import {
  appliedButReportedFailed,
  changedFields,
  changedNames,
  check,
  CUSTOMER_FIELDS,
  customerOf,
  describeItems,
  describeLimitFields,
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
  fieldsUnequal,
  fromPool,
  inOrder,
  itemLabels,
  keepingEvidence,
  learnBefore,
  limitBatches,
  limitPool,
  partOfBody,
  malformedBulkBodies,
  mapLimit,
  property,
  readBackProblems,
  readBulkReport,
  readCase,
  someOf,
  unknownId,
  type BulkSent,
  type CaseBody,
  type CaseCustomer,
  type CheckApi,
  type JsonObject,
  type MixedEntry,
  type MixedSetup,
  type Organisation,
  type PoolLease,
  type ReadBack,
} from '../src/kit/index.ts';
import { asCell } from '../src/kit/containers/index.ts';
import { CUSTOMER_TYPES, LIMITS } from '../src/spec/index.ts';
import { exact } from '../src/spec/inputs/values.ts';

const LIMIT = LIMITS.bulkMaxItems;
const CONCURRENCY = 8;
/**
 * Defects every conforming server rejects: over-long full_name or external_id, a null
 * full_name, a customer_type outside the enum, a non-integer id, no identifier at all. (An
 * empty full_name, wrong JSON types and numeric strings are left out: a server may allow or
 * coerce them.)
 */
const ALWAYS_REJECTED: readonly CustomerItemInvalidReason[] = [
  'too-long-by-one',
  'too-long',
  'null-not-allowed',
  'not-in-enum',
  'no-identifier',
  'non-integer',
];
const MAX_VALID = 3;
const MAX_INVALID = 3;
/** Placeholders the generated invalid items name; replaced by a real customer at send time. */
const SLOT_ID = -424_242;
const SLOT_EXTERNAL_ID = 'screenconf-slot-external-id';

/** The customer nested in a case read back. */
function customerIn(read: CaseBody): JsonObject {
  const customer = (read.customer ?? {}) as JsonObject;
  // Judging the customer judges the read it came in.
  partOfBody(customer, read);
  return customer;
}

async function readCustomer(org: Organisation, k: CaseCustomer, what?: string): Promise<JsonObject> {
  return customerIn(await readCase(org, k.caseId, what ?? `reading case ${k.caseId} (customer ${k.id})`));
}

function send(t: CheckApi, body: unknown) {
  return exchanged(t, () => t.primary.api.bulkUpdateCustomers(body));
}

/** What an item sets on its customer: full_name and customer_type (id and external_id identify it). */
function setFields(sent: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(sent).filter(([f]) => f === 'full_name' || f === 'customer_type'));
}

/** How the customer differs from what the item set (full_name, customer_type). */
function notApplied(read: JsonObject, sent: JsonObject): string[] {
  return fieldsUnequal(read, setFields(sent)).map(
    (f) => `${f.name} is ${f.received.slice(0, 120)}, the item sent ${f.expected.slice(0, 120)}`,
  );
}

/** `n` new cases' customers. */
function newCustomers(t: CheckApi, n: number): Promise<CaseCustomer[]> {
  return mapLimit(Array.from({ length: n }), CONCURRENCY, async () =>
    customerOf(await t.primary.provision.createCase()),
  );
}

/** The run's 101 cases whose customers the 100- and 101-item batches act on (shared with the bulk-cases suite). */
const pool = limitPool();

/** The customers of `n` of the limit pool's cases, from its start or (`fromEnd`) its end, when it was made. */
function poolCustomers(lease: PoolLease | undefined, n: number, fromEnd = false): CaseCustomer[] | undefined {
  return fromPool(lease, n, fromEnd)?.map(customerOf);
}

/** The full_name of a 101-item batch's item its customer, read back in its case, shows (it took the item). */
function tookName(read: CaseBody, item: JsonObject) {
  return fieldsTaken(customerIn(read), { full_name: item.full_name });
}

/**
 * The 100- and 101-item batches, read back once after both (kit/limit-batches.ts). Each item sets
 * a full_name no customer holds yet (a random tag per batch), the 100 items a customer_type too: a
 * customer showing its item's name took it. The case is read, and judged, whole: its customer is
 * nested. Where the items take one of the two only (the other refused sent alone: "Item fields … not
 * shown"), they set that one.
 */
const limit = limitBatches<CaseCustomer, CaseBody>({
  hold: (t, fn) => pool.use(t, ({ cases }) => fn(cases.map(customerOf))),
  fields: { preferred: ['full_name', 'customer_type'], fallback: [] },
  probe: (t, k) => ({
    item: (field) => ({ id: k.id, [field]: field === 'full_name' ? 'Screenconf Probe' : 'COMPANY' }),
    sendAlone: (item) => t.primary.api.bulkUpdateCustomers({ items: [item] }),
    key: requestKey,
  }),
  items: (_t, customers, kind, round, fields) => {
    const tag = randomBytes(3).toString('hex');
    return customers.map((k, i) => {
      // The largest legal request: full_name at its 255-character limit (external_id, by which other checks of the
      // file find these customers, is left as it is; the input matrix takes it to its limit).
      const name =
        kind === 'full'
          ? exact(`Screenconf Bulk ${tag} ${i} `, LIMITS.customerFullNameMaxLength, 'x')
          : `Screenconf Over Limit ${tag} ${i}`;
      const values: JsonObject = { full_name: name, customer_type: CUSTOMER_TYPES[(i + round) % 2]! };
      // The 101 items set a name only, whose value no customer holds: one a customer shows, it took.
      const set = kind === 'over' && fields.includes('full_name') ? ['full_name'] : fields;
      return { id: k.id, ...Object.fromEntries(set.map((f) => [f, values[f]!])) };
    });
  },
  send: (t, body) => t.primary.api.bulkUpdateCustomers(body),
  read: (t, k) => readCase(t.primary, k.caseId, `reading case ${k.caseId} (customer ${k.id})`),
  applied: (read, item) => notApplied(customerIn(read), item).length === 0,
});

const validFields = fc.record(
  {
    full_name: unicodeText({ minLength: 1, maxLength: LIMITS.customerFullNameMaxLength, trim: true }),
    customer_type: fc.constantFrom(...CUSTOMER_TYPES),
  },
  { requiredKeys: ['full_name'] },
) as fc.Arbitrary<JsonObject>;

interface Batch {
  valid: JsonObject[];
  invalid: { item: JsonObject; field: string; reason: string }[];
  unknownId: JsonObject[];
  unknownExternalId: JsonObject[];
  peer: 'none' | 'id' | 'external_id';
  order: number[];
}

const ORDER_LENGTH = MAX_VALID + MAX_INVALID + 3;

/**
 * A batch whose failing items come first and between the valid ones, one of every kind: the
 * defect of a server whose loop stops at the first failure shows only there. Planned order:
 * valid, invalid, unknown id, unknown external_id, peer.
 */
function failuresFirst(withPeer: boolean): Batch {
  const tag = randomBytes(3).toString('hex');
  return {
    valid: [
      { full_name: `Screenconf After Failures ${tag} 0`, customer_type: 'COMPANY' },
      { full_name: `Screenconf After Failures ${tag} 1` },
      { full_name: `Screenconf After Failures ${tag} 2`, customer_type: 'INDIVIDUAL' },
    ],
    invalid: [
      {
        item: { id: SLOT_ID, full_name: 'x'.repeat(LIMITS.customerFullNameMaxLength + 1) },
        field: 'full_name',
        reason: 'too-long',
      },
      { item: { id: SLOT_ID, customer_type: 'PARTNERSHIP' }, field: 'customer_type', reason: 'not-in-enum' },
      { item: { id: SLOT_ID, full_name: null }, field: 'full_name', reason: 'null-not-allowed' },
    ],
    unknownId: [{ full_name: 'Screenconf Unknown' }],
    unknownExternalId: [{ full_name: 'Screenconf Unknown' }],
    peer: withPeer ? 'external_id' : 'none',
    // unknown id, peer, over-long first; the others between the valid items.
    order: [4, 6, 8, 2, 5, 7, 0, 3, 1],
  };
}

function batches(withPeer: boolean): fc.Arbitrary<Batch> {
  return fc.record({
    valid: fc.array(validFields, { minLength: 1, maxLength: MAX_VALID }),
    invalid: fc.array(
      invalidCustomerItem({ ids: [SLOT_ID], externalIds: [SLOT_EXTERNAL_ID] }).filter((x) =>
        ALWAYS_REJECTED.includes(x.reason),
      ),
      { minLength: 1, maxLength: MAX_INVALID },
    ),
    unknownId: fc.array(validFields, { maxLength: 1 }),
    unknownExternalId: fc.array(validFields, { maxLength: 1 }),
    peer: withPeer ? fc.constantFrom<Batch['peer']>('none', 'id', 'external_id') : fc.constant<Batch['peer']>('none'),
    order: fc.array(fc.nat(), { minLength: ORDER_LENGTH, maxLength: ORDER_LENGTH }),
  });
}

/** The customer an item names (or, for an invalid item, was built around) and who can read it. */
type Entry = MixedEntry<{ org: Organisation; customer: CaseCustomer }, JsonObject>;
type Setup = MixedSetup<CaseCustomer, JsonObject>;

const CUSTOMERS: ReadBack<{ org: Organisation; customer: CaseCustomer }, JsonObject> = {
  noun: 'customer',
  read: (target, after) =>
    readCustomer(target.org, target.customer, after ? `reading case ${target.customer.caseId} ${after}` : undefined),
  notApplied,
  sets: (_read, item) => setFields(item),
  changed: (before, after) => changedFields(before, after, CUSTOMER_FIELDS),
  sendAlone: (target, item) => target.org.api.bulkUpdateCustomers({ items: [item] }),
  key: requestKey,
};

/**
 * The customers mixed batches act on (MixedSetup), chosen once for the file: the limit pool's when
 * it was made (the check holds the pool), else new ones. What the file knew of them is forgotten
 * when another file acted on the pool since: a mixed batch learns the state of what it names.
 */
let mixed: Promise<Setup> | undefined;
async function mixedSetup(t: CheckApi, lease: PoolLease | undefined): Promise<Setup> {
  mixed ??= (async () => {
    const customers = poolCustomers(lease, MAX_VALID + MAX_INVALID) ?? (await newCustomers(t, MAX_VALID + MAX_INVALID));
    const peer = t.peer ? customerOf(await t.peer.provision.createCase()) : undefined;
    return { pool: customers, ...(peer ? { peer } : {}), known: new Map() };
  })();
  const setup = await mixed;
  if (lease?.changedElsewhere) setup.known.clear();
  return setup;
}

/** The item as the recogniser should match it: its id and external_id, as sent. */
function requestKey(item: JsonObject): { id?: unknown; external_id?: unknown } {
  return {
    ...('id' in item ? { id: item.id } : {}),
    ...('external_id' in item ? { external_id: item.external_id } : {}),
  };
}

/**
 * Builds the request for a generated batch and sends it; with `before`, first learns the state
 * of the customers the failing items name (from their last read, or by reading them).
 */
async function sendMixed(t: CheckApi, setup: Setup, batch: Batch, before: boolean): Promise<BulkSent<Entry>> {
  const { pool, peer } = setup;
  const planned: Omit<Entry, 'index'>[] = [];
  batch.valid.forEach((fields, i) => {
    const k = pool[i]!;
    planned.push({
      item: { id: k.id, ...fields },
      valid: true,
      label: `valid ${Object.keys(fields).join('+')} for customer ${k.id}`,
      target: { org: t.primary, customer: k, key: `a:${k.id}` },
    });
  });
  batch.invalid.forEach((x, j) => {
    const k = pool[MAX_VALID + j]!;
    const item = { ...x.item };
    if (item.id === SLOT_ID) item.id = k.id;
    if (item.external_id === SLOT_EXTERNAL_ID) item.external_id = k.externalId;
    const label = x.reason === 'no-identifier' ? 'no id nor external_id' : `invalid ${x.field} (${x.reason})`;
    planned.push({
      item,
      valid: false,
      label: `${label}, built on customer ${k.id}`,
      target: { org: t.primary, customer: k, key: `a:${k.id}` },
    });
  });
  for (const fields of batch.unknownId) {
    const id = unknownId();
    planned.push({ item: { id, ...fields }, valid: false, label: `unknown customer id ${id}` });
  }
  for (const fields of batch.unknownExternalId) {
    const ext = `${t.primary.provision.externalIdPrefix}missing-${randomBytes(4).toString('hex')}`;
    planned.push({ item: { external_id: ext, ...fields }, valid: false, label: `unknown customer external_id ${ext}` });
  }
  if (batch.peer !== 'none' && peer && t.peer) {
    const byExternalId = batch.peer === 'external_id' && peer.externalId !== null;
    const item = byExternalId
      ? { external_id: peer.externalId, full_name: 'Screenconf Peer Probe' }
      : { id: peer.id, full_name: 'Screenconf Peer Probe' };
    planned.push({
      item,
      valid: false,
      label: `customer ${peer.id} of another organisation, by ${byExternalId ? 'external_id' : 'id'}`,
      target: { org: t.peer, customer: peer, key: `b:${peer.id}` },
    });
  }
  const entries = inOrder(planned, batch.order);
  await learnBefore(entries, setup, CUSTOMERS, before);
  const { res, exchange } = await send(t, { items: entries.map((e) => e.item) });
  return { entries, res, exchange, what: `bulk update of ${entries.length} customers (${itemLabels(entries)})` };
}

describe('POST /api/customers/bulk-update/', () => {
  check(
    'a batch of exactly 100 items is accepted and every item applied',
    ['BULK-CUSTOMERS-ACCEPT-100', 'BULK-CUSTOMERS-ITEM-FIELDS'],
    asCell('bulk-customers', '100', async (t) => {
      const batch = await limit.full(t);
      t.observe('BULK-CUSTOMERS-ITEM-FIELDS', describeLimitFields(batch));
      const what = `bulk update of ${LIMIT} customers setting ${batch.fields.join(', ')}`;
      expectBatchSuccess(batch.res, what);
      await keepingEvidence(t, batch.exchange, async () => {
        const wrong = batch.after.flatMap((read, i) => {
          const w = notApplied(customerIn(read), batch.items[i]!);
          const k = batch.members[i]!;
          return w.length
            ? [{ read, item: batch.items[i]!, text: `customer ${k.id} (case ${k.caseId}): ${w.join(', ')}` }]
            : [];
        });
        const first = wrong[0];
        if (first)
          fail(
            `${what}: the customers read back${batch.readAfterBoth ? ` (after it and the ${LIMIT + 1}-item one)` : ''}`,
            `all ${LIMIT} items applied`,
            `${wrong.length} not applied: ${someOf(wrong.map((w) => w.text))}`,
            { judged: [first.read], expect: { fields: fieldsUnequal(customerIn(first.read), setFields(first.item)) } },
          );
      });
    }),
  );

  check(
    'a batch of 101 items applies none of them',
    ['BULK-CUSTOMERS-REJECT-101'],
    asCell('bulk-customers', '101', async (t) => {
      const batch = await limit.over(t);
      const what = `bulk update of ${LIMIT + 1} customers (one over the limit of ${LIMIT})`;
      await keepingEvidence(t, batch.exchange, async () => {
        const request = batch.items.map((i) => ({ id: i.id }));
        t.observe('BULK-CUSTOMERS-REJECT-101', expectOverLimitRefused(t, batch.res, request, what));
        const changed = batch.after.flatMap((read, i) => {
          const took = tookName(read, batch.items[i]!);
          return took.length
            ? [{ read, took, text: `customer ${batch.members[i]!.id}: full_name ${took[0]!.value}` }]
            : [];
        });
        const first = changed[0];
        if (first)
          fail(
            `the customers read back after the ${what}`,
            'no customer took the full_name its item sent',
            `${changed.length} of ${LIMIT + 1} did: ${someOf(changed.map((c) => c.text))}`,
            { judged: [first.read], expect: { unlike: first.took } },
          );
        // Read before it too (a batch of its own): no customer changed at all, not even to a value of no item.
        const before = batch.before;
        if (!before) return;
        const moved = batch.after.flatMap((read, i) => {
          const [was, now] = [customerIn(before[i]!), customerIn(read)];
          const names = changedNames(was, now, CUSTOMER_FIELDS);
          return names.length
            ? [{ read, now, was, names, text: changedFields(was, now, CUSTOMER_FIELDS).join('; ') }]
            : [];
        });
        const one = moved[0];
        if (one)
          fail(
            `the customers read before and after the ${what}`,
            'every customer as it was before the batch',
            `${moved.length} of ${LIMIT + 1} changed: ${someOf(moved.map((m) => `case ${m.read.id}: ${m.text}`))}`,
            {
              judged: [one.read],
              expect: { fields: fieldsUnequal(one.now, Object.fromEntries(one.names.map((n) => [n, one.was[n]]))) },
            },
          );
      });
    }),
  );

  check('items naming customers by external_id update them', ['BULK-CUSTOMERS-BY-EXTERNAL-ID'], async (t) =>
    pool.useIfMade(t, async (lease) => {
      // The limit pool's last customers when it was made (their full_names are set afresh), else new ones.
      const customers = (poolCustomers(lease, 3, true) ?? (await newCustomers(t, 3))).filter(
        (k): k is CaseCustomer & { externalId: string } => k.externalId !== null,
      );
      if (customers.length === 0)
        t.skip(
          'the customers of the created cases show no external_id (it is set at creation; see "Provisioning ' +
            'conventions")',
        );
      const tag = randomBytes(3).toString('hex');
      const items = customers.map((k, i) => ({
        external_id: k.externalId,
        full_name: `Screenconf By External Id ${tag} ${i}`,
      }));
      const what = `bulk update of ${items.length} customers named by external_id`;
      const { res, exchange } = await send(t, { items });
      expectBatchSuccess(res, what);
      await keepingEvidence(t, exchange, async () => {
        const problems: string[] = [];
        for (const [i, k] of customers.entries()) {
          const w = notApplied(await readCustomer(t.primary, k), items[i]!);
          if (w.length) problems.push(`customer ${k.id} (external_id ${stringifyJson(k.externalId)}): ${w.join(', ')}`);
        }
        if (problems.length)
          fail(
            `${what}: the customers read back`,
            'each customer found by its external_id and updated',
            someOf(problems),
          );
      });
    }),
  );

  check(
    'an item naming a customer by external_id updates only the customer holding exactly that value',
    ['BULK-CUSTOMERS-EXTERNAL-ID-EXACT'],
    async (t) => {
      const p = t.primary.provision;
      const base = p.externalId('exact');
      const tag = randomBytes(3).toString('hex');
      const withCustomer = async (externalId: string) =>
        customerOf(
          await p.createCase({
            customer: { full_name: 'Screenconf Exact Match', customer_type: 'INDIVIDUAL', external_id: externalId },
          }),
        );
      // [what differs, the value a customer holds, the value the item names, whether a customer holds that too].
      // Only letter case or accents differ: never whitespace or a normalisation form (both may be normalised).
      const rounds: [string, string, string, boolean][] = [
        ['letter case', `${base}-ABC`, `${base}-abc`, false],
        ['letter case', `${base}-Def`, `${base}-def`, true],
        ['an accent', `${base}-caf\u00e9`, `${base}-cafe`, true],
      ];
      for (const [i, [differ, near, named, exactExists]] of rounds.entries()) {
        const bystander = await withCustomer(near);
        const target = exactExists ? await withCustomer(named) : undefined;
        const before = await readCustomer(t.primary, bystander);
        const item = { external_id: named, full_name: `Screenconf Exact ${tag} ${i}` };
        const what =
          `bulk customer update naming external_id ${stringifyJson(named)}, while customer ${bystander.id} holds ` +
          `${stringifyJson(near)} (they differ in ${differ} only)` +
          (target ? ` and customer ${target.id} holds ${stringifyJson(named)}` : ' and no customer holds it');
        const { res, exchange } = await send(t, { items: [item] });
        expectNoServerError(res, what);
        await keepingEvidence(t, exchange, async () => {
          const problems: string[] = [];
          const changed = changedFields(
            before,
            await readCustomer(t.primary, bystander, `reading customer ${bystander.id} after the ${what}`),
            CUSTOMER_FIELDS,
          );
          if (changed.length) problems.push(`customer ${bystander.id}, not named: ${changed.join(', ')}`);
          if (target) {
            const w = notApplied(await readCustomer(t.primary, target), item);
            if (w.length) problems.push(`customer ${target.id}, named exactly: ${w.join(', ')}`);
          }
          if (problems.length)
            fail(
              `${what}: the customers read back`,
              target
                ? `customer ${target.id} updated, customer ${bystander.id} unchanged`
                : `customer ${bystander.id} unchanged`,
              someOf(problems),
            );
        });
      }
    },
  );

  // Each run holds the pool (shared with the bulk-cases suite) while it learns, sends and reads back.
  check('a mixed batch applies its valid items and only them', ['BULK-CUSTOMERS-PARTIAL'], async (t) => {
    await property(
      t,
      'bulk-customers: mixed batch applied',
      batches(t.peer !== undefined),
      (batch) =>
        pool.useIfMade(t, async (lease) => {
          const setup = await mixedSetup(t, lease);
          const sent = await sendMixed(t, setup, batch, true);
          await keepingEvidence(t, sent.exchange, async () => {
            expectBatchSuccess(sent.res, sent.what);
            failReadBack(
              `${sent.what}: the customers read back`,
              'every valid item applied, and no customer named by a failing item changed',
              await readBackProblems(t, sent, setup, CUSTOMERS),
            );
          });
        }),
      { scale: 0.4, examples: [failuresFirst(t.peer !== undefined)] },
    );
  });

  check(
    'each failing item of a mixed batch is reported as failed',
    ['BULK-CUSTOMERS-REPORTED', 'BULK-CUSTOMERS-REPORT-SHAPE'],
    async (t) => {
      let observed = false;
      await property(
        t,
        'bulk-customers: mixed batch reported',
        batches(t.peer !== undefined),
        (batch) =>
          pool.useIfMade(t, async (lease) => {
            const setup = await mixedSetup(t, lease);
            const sent = await sendMixed(t, setup, batch, false);
            await keepingEvidence(t, sent.exchange, async () => {
              const failed = sent.entries.filter((e) => !e.valid);
              const request = sent.entries.map((e) => requestKey(e.item));
              if (!observed) {
                observed = true;
                t.observe(
                  'BULK-CUSTOMERS-REPORT-SHAPE',
                  describeReport(
                    sent.res,
                    readBulkReport(t, sent.res, request),
                    failed.find((e) => !e.target) ?? failed[0],
                  ),
                );
              }
              expectBatchReport(sent.res, sent.what);
              const applied = await appliedButReportedFailed(t, sent, request, CUSTOMERS, setup);
              expectFailuresReported(t, sent.res, request, { failed, applied }, sent.what);
            });
          }),
        { scale: 0.4, examples: [failuresFirst(t.peer !== undefined)] },
      );
    },
  );

  check('malformed bodies are never answered with a 5xx', ['BULK-CUSTOMERS-MALFORMED'], async (t) => {
    const bodies = malformedBulkBodies('items', { id: unknownId(), full_name: 'Screenconf Malformed' });
    await expectMalformedHandled(
      t,
      'BULK-CUSTOMERS-MALFORMED',
      'bulk customer update',
      bodies,
      async (body) => (await send(t, body)).res,
    );
  });

  check(
    'a batch naming the same customer twice',
    ['BULK-CUSTOMERS-MALFORMED', 'BULK-CUSTOMERS-DUPLICATE-IDS'],
    async (t) => {
      const k = customerOf(await t.primary.provision.createCase());
      const items = [
        { id: k.id, full_name: 'Screenconf Duplicate First' },
        { id: k.id, full_name: 'Screenconf Duplicate Second' },
      ];
      const { res } = await send(t, { items });
      const read = await readCustomer(t.primary, k);
      const won =
        read.full_name === items[1]!.full_name
          ? 'the second item won'
          : read.full_name === items[0]!.full_name
            ? 'the first item won'
            : 'neither item was applied';
      const report = readBulkReport(t, res, items.map(requestKey));
      const reported = report.recognised
        ? `${describeItems(report)} (${report.shape})`
        : `report unrecognised: ${res.text.slice(0, 200)}`;
      t.observe(
        'BULK-CUSTOMERS-DUPLICATE-IDS',
        `two items setting full_name on customer ${k.id}: HTTP ${res.status}; ${won}; ${reported}`,
      );
      expectNoServerError(res, `bulk update of customer ${k.id} in two items`);
    },
  );
});
