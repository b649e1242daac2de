/**
 * Tenant isolation (interface § Authentication 1-2; § Errors 2): with another organisation's
 * credentials (the peer: --peer-client-id, --peer-client-secret) none of our cases, customers or
 * checks can be updated or deleted, singly or in bulk. Every check reads our side back with our
 * own credentials; bulk items naming our resources must be reported as failed.
 *
 * The bulk suites (bulk-*.test.ts) send our batches with the peer's ids among their failing
 * items; here the peer sends batches naming ours, each beside a valid item of its own, so the
 * answer is a partial success whose report can be read.
 */
import { randomBytes } from 'node:crypto';
import type fc from 'fast-check';
import { describe } from 'vitest';
import { validCasePatch } from '../src/arbitraries/index.ts';
import type { ReceivedResponse } from '../src/client/transport.ts';
import {
  caseWithChecks,
  changedFields,
  check,
  checkIds,
  confirmedByRead,
  CUSTOMER_FIELDS,
  customerOf,
  excerpt,
  expectBatchReport,
  expectDeleteOfNoCase,
  expectNoServerError,
  expectFailuresReported,
  expectRejected,
  fail,
  freshExternalIds,
  keepingEvidence,
  property,
  readCase,
  show,
  stateBefore,
  unknownId,
  type CaseBody,
  type CaseCustomer,
  type CaseWithChecks,
  type CheckApi,
  type ExpectedItem,
  type JsonObject,
  type Organisation,
} from '../src/kit/index.ts';
import type { Id } from '../src/spec/index.ts';

const NO_PEER =
  'no peer organisation is configured: give --peer-client-id and --peer-client-secret (a second organisation) to ' +
  'run the tenant checks';

function peerOf(t: CheckApi): Organisation {
  return t.peer ?? t.skip(NO_PEER);
}

/** Our case read back with our credentials: there, and unchanged since `before`; else a failure naming the request. */
async function expectOursUnchanged(t: CheckApi, before: CaseBody, what: string): Promise<CaseBody> {
  const res = await t.primary.provision.readCase(before.id);
  if (res.status !== 200)
    fail(
      `our case ${before.id} read back with our credentials after the ${what}`,
      'HTTP 200: the case still there',
      excerpt(res),
      { judged: [res], expect: { status: ['200'] } },
    );
  const changed = changedFields(before, (res.json ?? {}) as JsonObject);
  if (changed.length)
    fail(`our case ${before.id} read back after the ${what}`, 'unchanged', changed.join(', '), { judged: [res] });
  return res.json as CaseBody;
}

/** Records how a refusal of our case compares with the answer for an id that exists nowhere. */
async function observeRefusal(
  t: CheckApi,
  peer: Organisation,
  method: 'PATCH' | 'DELETE',
  res: ReceivedResponse,
  caseId: Id,
): Promise<void> {
  const id = unknownId();
  const nowhere = method === 'PATCH' ? await peer.api.patchCase(id, {}) : await peer.api.deleteCase(id);
  const same =
    nowhere.status === res.status
      ? "the same answer: the case's existence is not disclosed"
      : "a different answer: the case's existence shows";
  t.observe(
    'TENANT-REFUSAL-STATUS',
    `${method} of our case ${caseId} by the other organisation: HTTP ${res.status}; ${method} of case ${id}, which ` +
      `exists nowhere: HTTP ${nowhere.status} (${same})`,
  );
}

describe("another organisation's PATCH and DELETE", () => {
  check('the other organisation cannot PATCH our case', ['TENANT-PATCH', 'TENANT-REFUSAL-STATUS'], async (t) => {
    const peer = peerOf(t);
    // Our case as created (the answer to a creation is its read representation, provisioning
    // conventions), then as read back unchanged after each refusal; after a failure against the
    // creation's answer, a new case read first (confirmedByRead).
    let ours = await t.primary.provision.createCase();
    let before = await stateBefore(t.primary, ours, false);
    const ids = freshExternalIds(t.primary, 'tenant');
    let observed = false;
    await property(
      t,
      'tenant: PATCH by the other organisation',
      validCasePatch({ externalIdPrefix: ids.slot }) as fc.Arbitrary<JsonObject>,
      (generated) =>
        confirmedByRead(async (fromRead) => {
          if (fromRead) {
            ours = await t.primary.provision.createCase();
            before = await stateBefore(t.primary, ours, true);
          }
          const patch = { ...generated };
          if (typeof patch.external_id === 'string') patch.external_id = ids.fresh(patch.external_id);
          const what = `PATCH ${show(patch)} of our case ${ours.id} with the other organisation's credentials`;
          const res = await peer.api.patchCase(ours.id, patch);
          const exchange = t.exchanges.at(-1);
          if (!observed) {
            observed = true;
            await observeRefusal(t, peer, 'PATCH', res, ours.id);
          }
          await keepingEvidence(t, exchange, async () => {
            expectRejected(res, what);
            before = await expectOursUnchanged(t, before, what);
          });
        }),
      { scale: 0.4 },
    );
  });

  check('the other organisation cannot DELETE our case', ['TENANT-DELETE', 'TENANT-REFUSAL-STATUS'], async (t) => {
    const peer = peerOf(t);
    await confirmedByRead(async (fromRead) => {
      const ours = await t.primary.provision.createCase();
      const before = await stateBefore(t.primary, ours, fromRead);
      const what = `DELETE of our case ${ours.id} with the other organisation's credentials`;
      const res = await peer.api.deleteCase(ours.id);
      const exchange = t.exchanges.at(-1);
      if (!fromRead) await observeRefusal(t, peer, 'DELETE', res, ours.id);
      // To the other organisation our case does not exist: answered as a DELETE of a case that does not exist is
      // (a 4xx, or a 2xx that deletes nothing), one rule wherever a check meets it; what must not change is read.
      await keepingEvidence(t, exchange, async () => {
        expectDeleteOfNoCase(res, what);
        await expectOursUnchanged(t, before, what);
      });
    });
  });
});

/** A bulk batch sent with the peer's credentials: items naming ours (must fail) and one of its own (valid). */
interface PeerBatch {
  request: { id?: unknown; external_id?: unknown }[] | Id[];
  ours: ExpectedItem[];
  own: ExpectedItem;
  res: ReceivedResponse;
  what: string;
}

/** Judges the report of a peer batch: ours failed; the peer's own item not failed when `ownApplied`. */
function expectOursReported(t: CheckApi, batch: PeerBatch, ownApplied: boolean): void {
  expectBatchReport(batch.res, batch.what);
  expectFailuresReported(
    t,
    batch.res,
    batch.request,
    { failed: batch.ours, applied: ownApplied ? [batch.own] : [] },
    batch.what,
  );
}

interface CasesSetup {
  ours: CaseBody[];
  own: CaseBody;
}

/**
 * Our cases and customers as read back after a bulk check of the other organisation showed them
 * unchanged: the REPORTED check after it sends its batch at them rather than at new ones (the
 * other organisation's own case or customer is always new). Taken by the check that uses them.
 */
let unchangedCases: CaseBody[] | undefined;
let unchangedCustomers: CaseCustomer[] | undefined;
/** Our case whose checks a bulk check delete of the other organisation was shown to leave in place. */
let unchangedChecks: CaseWithChecks | undefined;

/** Our two cases as created (or read, `fromRead`: see confirmedByRead), and one of the peer's. */
async function casesSetup(t: CheckApi, peer: Organisation, fromRead = false): Promise<CasesSetup> {
  const ours = [await t.primary.provision.createCase(), await t.primary.provision.createCase()];
  const own = await peer.provision.createCase();
  return {
    ours: [await stateBefore(t.primary, ours[0]!, fromRead), await stateBefore(t.primary, ours[1]!, fromRead)],
    own,
  };
}

const OWN_DELETE_AFTER = 77;

async function sendCases(t: CheckApi, peer: Organisation, s: CasesSetup): Promise<PeerBatch> {
  const [x, y] = s.ours as [CaseBody, CaseBody];
  const items = [
    { id: x.id, delete_after: 4242, external_id: `${t.primary.provision.externalId('tenant-bulk')}` },
    { id: s.own.id, delete_after: OWN_DELETE_AFTER },
    { id: y.id, metadata: { screenconf: 'tenant-probe' }, webhook_url: 'https://example.com/screenconf/tenant' },
  ];
  const res = await peer.api.bulkUpdateCases({ items });
  return {
    request: items.map((i) => ({ id: i.id })),
    ours: [
      { index: 0, label: `our case ${x.id}` },
      { index: 2, label: `our case ${y.id}` },
    ],
    own: { index: 1, label: `its own case ${s.own.id}` },
    res,
    what:
      `bulk update of cases ${x.id} and ${y.id} (ours) and ${s.own.id} (its own) with the other organisation's ` +
      `credentials`,
  };
}

async function sendCustomers(
  peer: Organisation,
  ours: CaseCustomer[],
  own: CaseCustomer,
  ownName: string,
): Promise<PeerBatch> {
  const [byId, byExternalId] = ours as [CaseCustomer, CaseCustomer];
  if (byExternalId.externalId === null)
    fail(
      `the customer of our case ${byExternalId.caseId}`,
      'an external_id (set at creation)',
      show(byExternalId.read),
      { judged: [byExternalId.read] },
    );
  const items = [
    { id: byId.id, full_name: 'Screenconf Tenant Probe', customer_type: 'COMPANY' },
    { id: own.id, full_name: ownName },
    { external_id: byExternalId.externalId, full_name: 'Screenconf Tenant Probe', customer_type: 'COMPANY' },
  ];
  const res = await peer.api.bulkUpdateCustomers({ items });
  return {
    request: items.map((i) => ('id' in i ? { id: i.id } : { external_id: i.external_id })),
    ours: [
      { index: 0, label: `our customer ${byId.id}, by id` },
      { index: 2, label: `our customer ${byExternalId.id}, by external_id ${show(byExternalId.externalId)}` },
    ],
    own: { index: 1, label: `its own customer ${own.id}` },
    res,
    what:
      `bulk update of customers ${byId.id} (ours, by id), ${byExternalId.id} (ours, by external_id) and ` +
      `${own.id} (its own) with the other organisation's credentials`,
  };
}

/**
 * Our two customers as created (a creation's answer is the case read) or read (`fromRead`: see
 * confirmedByRead), and one of the peer's.
 */
async function customersSetup(
  t: CheckApi,
  peer: Organisation,
  fromRead = false,
): Promise<{ ours: CaseCustomer[]; own: CaseCustomer }> {
  const ours = [await t.primary.provision.createCase(), await t.primary.provision.createCase()];
  const own = customerOf(await peer.provision.createCase());
  const [x, y] = [await stateBefore(t.primary, ours[0]!, fromRead), await stateBefore(t.primary, ours[1]!, fromRead)];
  return { ours: [customerOf(x), customerOf(y)], own };
}

async function sendChecks(peer: Organisation, ours: CaseWithChecks, own: CaseWithChecks): Promise<PeerBatch> {
  const ids = [ours.checks[0]!, own.checks[0]!, ours.checks[1]!];
  const res = await peer.api.bulkDeleteChecks({ ids });
  return {
    request: ids,
    ours: [
      { index: 0, label: `our check ${ids[0]}` },
      { index: 2, label: `our check ${ids[2]}` },
    ],
    own: { index: 1, label: `its own check ${ids[1]}` },
    res,
    what:
      `bulk delete of checks ${ids[0]} and ${ids[2]} (of our case ${ours.caseId}) and ${ids[1]} (its own) with ` +
      `the other organisation's credentials`,
  };
}

describe("another organisation's bulk requests", () => {
  check('a bulk case update by the other organisation changes none of our cases', ['TENANT-BULK-CASES'], async (t) => {
    const peer = peerOf(t);
    await confirmedByRead(async (fromRead) => {
      const s = await casesSetup(t, peer, fromRead);
      const batch = await sendCases(t, peer, s);
      await keepingEvidence(t, t.exchanges.at(-1), async () => {
        expectNoServerError(batch.res, batch.what);
        const after: CaseBody[] = [];
        for (const before of s.ours) after.push(await expectOursUnchanged(t, before, batch.what));
        unchangedCases = after;
      });
    });
  });

  check(
    'a bulk case update by the other organisation reports our cases as failed',
    ['TENANT-BULK-CASES-REPORTED'],
    async (t) => {
      const peer = peerOf(t);
      const ours = unchangedCases;
      unchangedCases = undefined;
      const s = ours ? { ours, own: await peer.provision.createCase() } : await casesSetup(t, peer);
      const batch = await sendCases(t, peer, s);
      await keepingEvidence(t, t.exchanges.at(-1), async () => {
        const own = await readCase(
          peer,
          s.own.id,
          `reading its own case ${s.own.id} with the other organisation's credentials`,
        );
        expectOursReported(t, batch, own.delete_after === OWN_DELETE_AFTER);
      });
    },
  );

  check(
    'a bulk customer update by the other organisation changes none of our customers',
    ['TENANT-BULK-CUSTOMERS'],
    async (t) => {
      const peer = peerOf(t);
      await confirmedByRead(async (fromRead) => {
        const s = await customersSetup(t, peer, fromRead);
        const batch = await sendCustomers(peer, s.ours, s.own, 'Screenconf Peer Own');
        await keepingEvidence(t, t.exchanges.at(-1), async () => {
          expectNoServerError(batch.res, batch.what);
          const problems: string[] = [];
          const read: CaseCustomer[] = [];
          for (const k of s.ours) {
            const after = customerOf(
              await readCase(
                t.primary,
                k.caseId,
                `reading our case ${k.caseId} (customer ${k.id}) after the ${batch.what}`,
              ),
            );
            read.push(after);
            const changed = changedFields(k.read, after.read, CUSTOMER_FIELDS);
            if (changed.length) problems.push(`customer ${k.id}: ${changed.join(', ')}`);
          }
          if (problems.length)
            fail(`our customers read back after the ${batch.what}`, 'unchanged', problems.join('; '));
          unchangedCustomers = read;
        });
      });
    },
  );

  check(
    'a bulk customer update by the other organisation reports our customers as failed',
    ['TENANT-BULK-CUSTOMERS-REPORTED'],
    async (t) => {
      const peer = peerOf(t);
      const ours = unchangedCustomers;
      unchangedCustomers = undefined;
      const s = ours ? { ours, own: customerOf(await peer.provision.createCase()) } : await customersSetup(t, peer);
      const ownName = `Screenconf Peer Own ${randomBytes(3).toString('hex')}`;
      const batch = await sendCustomers(peer, s.ours, s.own, ownName);
      await keepingEvidence(t, t.exchanges.at(-1), async () => {
        const own = customerOf(
          await readCase(
            peer,
            s.own.caseId,
            `reading its own case ${s.own.caseId} with the other organisation's credentials`,
          ),
        );
        expectOursReported(t, batch, own.read.full_name === ownName);
      });
    },
  );

  check(
    'a bulk check delete by the other organisation deletes none of our checks',
    ['TENANT-BULK-CHECKS'],
    async (t) => {
      const peer = peerOf(t);
      const [ours, own] = [await caseWithChecks(t.primary, 2), await caseWithChecks(peer, 2)];
      const batch = await sendChecks(peer, ours, own);
      await keepingEvidence(t, t.exchanges.at(-1), async () => {
        expectNoServerError(batch.res, batch.what);
        const now = checkIds(
          await readCase(t.primary, ours.caseId, `reading our case ${ours.caseId} after the ${batch.what}`),
        );
        const gone = ours.checks.filter((id) => !now.includes(id));
        if (gone.length)
          fail(
            `our case ${ours.caseId} read back after the ${batch.what}`,
            `checks ${ours.checks.join(', ')} still there`,
            `checks ${gone.join(', ')} gone`,
          );
        unchangedChecks = ours;
      });
    },
  );

  check(
    'a bulk check delete by the other organisation reports our checks as failed',
    ['TENANT-BULK-CHECKS-REPORTED'],
    async (t) => {
      const peer = peerOf(t);
      const kept = unchangedChecks;
      unchangedChecks = undefined;
      const [ours, own] = [kept ?? (await caseWithChecks(t.primary, 2)), await caseWithChecks(peer, 2)];
      const batch = await sendChecks(peer, ours, own);
      await keepingEvidence(t, t.exchanges.at(-1), async () => {
        const left = checkIds(
          await readCase(
            peer,
            own.caseId,
            `reading its own case ${own.caseId} with the other organisation's credentials`,
          ),
        );
        expectOursReported(t, batch, !left.includes(own.checks[0]!));
      });
    },
  );
});

/** Values of our case, each holding a random token: a body showing a token shows that value. */
async function privateCase(t: CheckApi): Promise<{ ours: CaseBody; tokens: [string, string][] }> {
  const token = () => randomBytes(6).toString('hex');
  const tokens: [string, string][] = [
    ['external_id', token()],
    ['webhook_url', token()],
    ['metadata', token()],
    ['customer full_name', token()],
  ];
  const [e, w, m, n] = tokens.map(([, v]) => v) as [string, string, string, string];
  const ours = await t.primary.provision.createCase({
    external_id: t.primary.provision.externalId(`private-${e}`),
    webhook_url: `https://example.com/screenconf/private-${w}`,
    metadata: { screenconf: `private-${m}` },
    customer: { full_name: `Screenconf Private ${n}` },
  });
  return { ours, tokens };
}

describe("what another organisation's answers show", () => {
  check(
    "a refusal of our case shows the other organisation none of the case's data",
    ['TENANT-REFUSAL-NO-DATA'],
    async (t) => {
      const peer = peerOf(t);
      const { ours, tokens } = await privateCase(t);
      const asks: [string, () => Promise<ReceivedResponse>][] = [
        [`PATCH {"delete_after": 5} of our case ${ours.id}`, () => peer.api.patchCase(ours.id, { delete_after: 5 })],
        [`a read of our case ${ours.id}`, () => peer.provision.readCase(ours.id)],
        [`DELETE of our case ${ours.id}`, () => peer.api.deleteCase(ours.id)],
      ];
      for (const [ask, send] of asks) {
        const res = await send();
        const shown = tokens.filter(([, v]) => res.text.includes(v)).map(([field]) => field);
        if (shown.length)
          fail(
            `${ask} with the other organisation's credentials`,
            `an answer showing none of our case's values (${tokens.map(([f]) => f).join(', ')})`,
            `our case's ${shown.join(', ')} in ${excerpt(res)}`,
            { judged: [res] },
          );
      }
    },
  );

  check(
    "a bulk customer update by an external_id both organisations hold changes the caller's customer only",
    ['TENANT-CUSTOMER-EXTERNAL-ID'],
    async (t) => {
      const peer = peerOf(t);
      const shared = t.primary.provision.externalId('shared-customer');
      const create = async (org: Organisation, label: string) => {
        const c = await org.provision.createCase({
          customer: { full_name: `Screenconf Shared ${label}`, external_id: shared },
        });
        const k = customerOf(c);
        if (k.externalId !== shared)
          t.skip(
            `the customer of case ${c.id} shows external_id ${show(k.externalId)}, not the ${show(shared)} it was ` +
              'created with (see "Provisioning conventions")',
          );
        return { org, caseId: c.id };
      };
      // Ours first: a lookup across organisations finding the oldest holder reaches ours from theirs.
      const ours = { ...(await create(t.primary, 'Ours')), who: 'our' };
      const theirs = { ...(await create(peer, 'Theirs')), who: "the other organisation's" };
      const tag = randomBytes(3).toString('hex');
      for (const [sender, other] of [
        [theirs, ours],
        [ours, theirs],
      ] as const) {
        const name = `Screenconf Shared ${tag} from ${sender === ours ? 'ours' : 'theirs'}`;
        const what =
          `bulk update by external_id ${show(shared)} (held by a customer of each organisation) with ` +
          `${sender.who} credentials`;
        const res = await sender.org.api.bulkUpdateCustomers({ items: [{ external_id: shared, full_name: name }] });
        await keepingEvidence(t, t.exchanges.at(-1), async () => {
          expectNoServerError(res, what);
          const read = async (side: typeof ours) =>
            customerOf(await readCase(side.org, side.caseId, `reading case ${side.caseId} after the ${what}`)).read;
          const untouched = await read(other);
          if (untouched.full_name === name)
            fail(`${what}: ${other.who} customer read back`, 'unchanged', `full_name ${show(name)}`, {
              judged: [res],
            });
          const own = await read(sender);
          if (own.full_name !== name)
            fail(
              `${what}: ${sender.who} customer read back`,
              `full_name ${show(name)}: the caller's customer found by its external_id and updated`,
              `full_name ${show(own.full_name)}`,
              { judged: [res] },
            );
        });
      }
    },
  );
});
