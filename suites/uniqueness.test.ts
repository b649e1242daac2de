/**
 * external_id uniqueness (interface § Endpoints › PATCH /api/cases/{id}/: "must be unique per
 * organisation among non-archived cases"; § Errors 2).
 *
 * Values are generated (rich in Unicode, up to the 512 limit) after a prefix unique to each
 * use, so no two checks, generated cases or runs ever share one by accident. What a request did
 * is judged by reading the cases back, and a value is compared as the server shows it (a server
 * may normalise Unicode: the value a case holds is what its read shows).
 */
import { stringifyJson } from '../src/base/json.ts';
import fc from 'fast-check';
import { describe } from 'vitest';
import { prefixedId } from '../src/arbitraries/externalId.ts';
import type { ReceivedResponse } from '../src/client/transport.ts';
import type { Exchange } from '../src/results/exchange.ts';
import { HarnessError } from '../src/errors.ts';
import {
  aloneRefused,
  CASE_FIELDS,
  changedFields,
  check,
  ConformanceFailure,
  deepEqual,
  excerpt,
  expectNoServerError,
  expectBatchReport,
  expectCaseBody,
  expectFailuresReported,
  expectRejected,
  expectSuccess,
  fail,
  freshExternalIds,
  keepingEvidence,
  mapLimit,
  property,
  readBulkReport,
  readCase,
  show,
  type CaseBody,
  type CheckApi,
  type ExpectedItem,
  type JsonObject,
  type Organisation,
  validReportedFailed,
} from '../src/kit/index.ts';
import { type Id, LIMITS } from '../src/spec/index.ts';

/** PATCHes released together in each round of a race, and the rounds. */
const RACERS = 6;
const RACE_ROUNDS = 4;

/**
 * Generated external_ids for one use: Unicode text after a placeholder, which fresh() swaps for
 * a prefix never used before (see freshExternalIds), so every value is new and within the limit.
 */
function externalIds(org: Organisation, label: string) {
  const { slot, fresh } = freshExternalIds(org, label);
  return { arbitrary: prefixedId(slot, LIMITS.caseExternalIdMaxLength), fresh };
}

/** The external_id a case shows (the value sent when the read shows none, which READ-* judge). */
function held(c: CaseBody, sent: string): string {
  return typeof c.external_id === 'string' ? c.external_id : sent;
}

/**
 * Gives case `id` a fresh value; returns the value as the case then shows it, and the case, as the
 * answer shows them (interface § PATCH: "200 with the Case read representation"). That the case
 * kept it is asked only when a verdict would rest on it (holderOf): a read after every PATCH cost
 * about a hundred requests of a run.
 */
async function giveValue(
  org: Organisation,
  id: Id,
  value: string,
  role: string,
): Promise<{ value: string; read: CaseBody }> {
  const what = `PATCH giving case ${id} the unused external_id ${show(value)} (${role})`;
  const res = await org.api.patchCase(id, { external_id: value });
  expectSuccess(res, what);
  const read = expectCaseBody(res.json, id, `${what}: the answer`);
  return { value: held(read, value), read };
}

/** The fields of a case but external_id and its alias origin_url. */
const BESIDE_EXTERNAL_ID: ReadonlySet<string> = new Set(
  [...CASE_FIELDS].filter((f) => f !== 'external_id' && f !== 'origin_url'),
);

/**
 * Whether the target keeps what its PATCHes answer, asked of case `id` independently of any judged
 * request: it is given a fresh value and read. Not kept: SC_SETUP_NOT_KEPT. Kept: the PATCH's answer.
 */
async function probeKept(org: Organisation, id: Id): Promise<CaseBody> {
  const what = 'a probe, after a failure, of whether this target keeps what its PATCHes answer';
  const { value, read: answered } = await giveValue(org, id, org.provision.externalId('probe'), what);
  const read = await readCase(org, id, `reading case ${id} after ${what}`);
  if (read.external_id !== value)
    throw new HarnessError(
      'SC_SETUP_NOT_KEPT',
      `case ${id}, given external_id ${show(value)} by a PATCH answered 200 (${what}), reads back holding ` +
        `${show(read.external_id)}: the value the check's setup PATCH gave it may not have been kept either, ` +
        'and its verdict would rest on that value',
    );
  return answered;
}

/** A case holding a value a check judges a request against. */
interface Holder {
  /**
   * Judges with `judge`; a failure stands only when the probe shows the target keeps what its
   * PATCHes answer (else SC_SETUP_NOT_KEPT, not judged). A judgement that passes costs no request.
   */
  judge(judge: () => Promise<void>): Promise<void>;
  /** What the judged request changed on the holder, read `after` it: `field before → after` each. */
  changes(after: CaseBody): Promise<string[]>;
}

/**
 * Case `id`, given `value` by the PATCH before the judged request, as that PATCH answered it: its
 * state before, with no read spent on a passing round. When a verdict would rest on it, the target
 * is probed (probeKept) rather than the holder read: a read after the judged request cannot tell a
 * setup not kept from a request that changed the holder (a server giving it a fresh value when
 * another case takes its own). Probe kept: the setup was kept, so the holder held `value` before
 * the request; the fields beside external_id are compared answer with answer, the probe's with the
 * setup's (a write's answer may show a case otherwise than a read: a timestamp's precision, a field
 * it leaves out; the probe changes external_id only). CASE-PATCH-ROUNDTRIP is where a target that
 * does not keep what it answers fails.
 */
function holderOf(org: Organisation, id: Id, value: string, answered: CaseBody): Holder {
  let probe: Promise<CaseBody> | undefined;
  const probed = () => {
    probe ??= probeKept(org, id);
    return probe;
  };
  return {
    async judge(judge) {
      try {
        await judge();
      } catch (err) {
        if (err instanceof ConformanceFailure) await probed();
        throw err;
      }
    },
    async changes(after) {
      if (changedFields(answered, after).length === 0) return [];
      const now = await probed();
      const held = deepEqual(after.external_id, value)
        ? []
        : [`external_id ${show(value)} → ${show(after.external_id)}`];
      return [...held, ...changedFields(answered, now, BESIDE_EXTERNAL_ID)];
    },
  };
}

function cases(org: Organisation, n: number): Promise<CaseBody[]> {
  return mapLimit(Array.from({ length: n }), n, () => org.provision.createCase());
}

/**
 * Our cases, shared by the file's checks: each check gives them the fresh values it judges and
 * reads them before judging, so what an earlier check left on them cannot decide it. Grown to the
 * most a check asks for; a failed creation is not kept, so a re-run makes cases again.
 */
let ours: Promise<CaseBody[]> | undefined;
function sharedCases(t: CheckApi, n: number): Promise<CaseBody[]> {
  const before = ours;
  ours = (async () => {
    const have = (await before?.catch(() => undefined)) ?? [];
    return have.length >= n ? have : [...have, ...(await cases(t.primary, n - have.length))];
  })();
  return ours.then((all) => all.slice(0, n));
}

/**
 * The last read of each case a check keeps using, as read after a round judged it: the next
 * round's state before, with no read of its own. An entry is dropped just before a request that
 * may change its case, so it is never older than the case.
 */
type LastRead = Map<Id, CaseBody>;

/** The case as last read, or as read now. */
async function lastOrRead(org: Organisation, known: LastRead, id: Id): Promise<CaseBody> {
  return known.get(id) ?? readCase(org, id);
}

/** Reads a case after a request, keeping the read as its state for the next round. */
async function readAfter(org: Organisation, known: LastRead, id: Id, what: string): Promise<CaseBody> {
  const read = await readCase(org, id, `reading case ${id} after the ${what}`);
  known.set(id, read);
  return read;
}

/** A PATCH body: the external_id alone, or with a valid field beside it (which must share its fate). */
const withCompanion = fc.boolean();

/** The case read back shows `expected` as its external_id. */
function expectExternalId(what: string, read: CaseBody, expected: string): void {
  if (read.external_id === expected) return;
  const [e, r] = [stringifyJson(expected), stringifyJson(read.external_id)];
  fail(what, `external_id ${show(expected)}`, `external_id ${show(read.external_id)}`, {
    judged: [read],
    expect: { fields: [{ name: 'external_id', expected: e, received: r === undefined ? 'absent' : r }] },
  });
}

describe('external_id is unique per organisation', () => {
  check(
    "a PATCH taking another case's external_id is rejected and changes neither case",
    ['UNIQUE-EXTERNAL-ID-REJECTED', 'UNIQUE-CONFLICT-STATUS'],
    async (t) => {
      const [a, b] = await sharedCases(t, 2);
      const ids = externalIds(t.primary, 'taken');
      const known: LastRead = new Map();
      let observed = false;
      await property(
        t,
        'uniqueness: a taken value is rejected',
        fc.record({ value: ids.arbitrary, companion: withCompanion }),
        async ({ value, companion }) => {
          const { value: taken, read } = await giveValue(
            t.primary,
            a!.id,
            ids.fresh(value),
            `so that case ${a!.id} holds it`,
          );
          const holder = holderOf(t.primary, a!.id, taken, read);
          const takerBefore = await lastOrRead(t.primary, known, b!.id);
          const patch: JsonObject = { external_id: taken, ...(companion ? { delete_after: 4242 } : {}) };
          const what = `PATCH ${show(patch)} on case ${b!.id}, while case ${a!.id} holds that external_id`;
          known.delete(b!.id);
          const res = await t.primary.api.patchCase(b!.id, patch);
          if (!observed) {
            observed = true;
            t.observe('UNIQUE-CONFLICT-STATUS', `${what}: ${excerpt(res)}`);
          }
          await keepingEvidence(t, t.exchanges.at(-1), () =>
            holder.judge(async () => {
              expectRejected(res, what);
              const problems: string[] = [];
              const changedA = await holder.changes(await readAfter(t.primary, known, a!.id, what));
              if (changedA.length) problems.push(`case ${a!.id}: ${changedA.join(', ')}`);
              const changedB = changedFields(takerBefore, await readAfter(t.primary, known, b!.id, what));
              if (changedB.length) problems.push(`case ${b!.id}: ${changedB.join(', ')}`);
              if (problems.length) fail(`${what}: the cases read back`, 'both cases unchanged', problems.join('; '));
            }),
          );
        },
        { scale: 0.4 },
      );
    },
  );

  check('a PATCH re-sending the external_id the case holds is accepted', ['UNIQUE-OWN-VALUE'], async (t) => {
    const [a] = await sharedCases(t, 1);
    const ids = externalIds(t.primary, 'own');
    await property(
      t,
      'uniqueness: re-sending the own value is accepted',
      fc.record({ value: ids.arbitrary, companion: withCompanion }),
      async ({ value, companion }) => {
        const { value: own, read } = await giveValue(t.primary, a!.id, ids.fresh(value), 'the value it will re-send');
        const patch: JsonObject = { external_id: own, ...(companion ? { delete_after: 4343 } : {}) };
        const what = `PATCH ${show(patch)} on case ${a!.id}, which holds that external_id`;
        const res = await t.primary.api.patchCase(a!.id, patch);
        await keepingEvidence(t, t.exchanges.at(-1), () =>
          holderOf(t.primary, a!.id, own, read).judge(async () => {
            expectSuccess(res, what);
            const after = await readCase(t.primary, a!.id, `reading case ${a!.id} after the ${what}`);
            if (after.external_id !== own) expectExternalId(`${what}: the case read back`, after, own);
          }),
        );
      },
      { scale: 0.4 },
    );
  });

  check('a value freed by a rename can be taken by another case', ['UNIQUE-FREED-VALUE'], async (t) => {
    const [a, b] = await sharedCases(t, 2);
    const ids = externalIds(t.primary, 'freed');
    await property(
      t,
      'uniqueness: a freed value can be taken',
      fc.record({ first: ids.arbitrary, second: ids.arbitrary }),
      async ({ first, second }) => {
        const { value: freed } = await giveValue(t.primary, a!.id, ids.fresh(first), 'the value it will give up');
        const { value: renamed, read } = await giveValue(
          t.primary,
          a!.id,
          ids.fresh(second),
          `renaming it away from ${show(freed)}`,
        );
        const what = `PATCH giving case ${b!.id} external_id ${show(freed)}, which case ${a!.id} was renamed away from`;
        const res = await t.primary.api.patchCase(b!.id, { external_id: freed });
        await keepingEvidence(t, t.exchanges.at(-1), () =>
          holderOf(t.primary, a!.id, renamed, read).judge(async () => {
            expectSuccess(res, what);
            const after = await readCase(t.primary, b!.id, `reading case ${b!.id} after the ${what}`);
            if (after.external_id !== freed) expectExternalId(`${what}: the case read back`, after, freed);
          }),
        );
      },
      { scale: 0.4 },
    );
  });

  check('the external_id of a deleted case is free again', ['UNIQUE-DELETED-VALUE'], async (t) => {
    // The case deleted is made for it, holding the value from its creation (the answer shows it as
    // held); the one taking its value is shared.
    const sent = t.primary.provision.externalId('deleted');
    const [a, [b]] = [await t.primary.provision.createCase({ external_id: sent }), await sharedCases(t, 1)];
    const value = held(a, sent);
    const del = await t.primary.api.deleteCase(a.id);
    if (del.status < 200 || del.status > 299)
      t.skip(`DELETE of case ${a.id} answered ${excerpt(del)}: no deleted case (CASE-DELETE-REMOVES judges that)`);
    t.primary.provision.forget(a.id);
    const what = `PATCH giving case ${b!.id} external_id ${show(value)}, which deleted case ${a.id} held`;
    const res = await t.primary.api.patchCase(b!.id, { external_id: value });
    await keepingEvidence(t, t.exchanges.at(-1), async () => {
      expectSuccess(res, what);
      const after = await readCase(t.primary, b!.id, `reading case ${b!.id} after the ${what}`);
      if (!deepEqual(after.external_id, value)) expectExternalId(`${what}: the case read back`, after, value);
    });
  });

  check(
    'external_ids differing only in letter case or accents are different values',
    ['UNIQUE-EXACT-MATCH'],
    async (t) => {
      const [a, b] = await sharedCases(t, 2);
      const base = t.primary.provision.externalId('exact');
      // Only letter case or accents differ: never whitespace or a normalisation form (both may be normalised).
      const pairs: [string, string, string][] = [
        ['letter case', `${base}-Abc`, `${base}-abc`],
        ['letter case', `${base}-XYZ`, `${base}-xyz`],
        ['an accent', `${base}-caf\u00e9`, `${base}-cafe`],
        ['an accent', `${base}-Sa\u00f1o`, `${base}-Sano`],
      ];
      for (const [differ, held, other] of pairs) {
        const { value: near, read } = await giveValue(t.primary, a!.id, held, 'the value the other case will be near');
        const what =
          `PATCH giving case ${b!.id} external_id ${show(other)} while case ${a!.id} holds ${show(near)} ` +
          `(they differ in ${differ} only)`;
        // The PATCH that gave case a its value is judged too: without it the conflict is not reproduced.
        const holderPatch = [...t.exchanges]
          .reverse()
          .find(
            (e) =>
              e.request.method === 'PATCH' &&
              e.request.url.endsWith(`/api/cases/${a!.id}/`) &&
              (e.request.body ?? '').includes('external_id'),
          );
        const res = await t.primary.api.patchCase(b!.id, { external_id: other });
        const judged = t.exchanges.at(-1);
        await keepingEvidence(t, holderPatch, () =>
          keepingEvidence(t, judged, () =>
            holderOf(t.primary, a!.id, near, read).judge(async () => {
              // Case a is read after whatever the answer: it must still hold its value.
              const afterA = await readCase(t.primary, a!.id, `reading case ${a!.id} after the ${what}`);
              expectSuccess(res, what);
              const afterB = await readCase(t.primary, b!.id, `reading case ${b!.id} after the ${what}`);
              if (!deepEqual(afterB.external_id, other))
                expectExternalId(`${what}: case ${b!.id} read back`, afterB, other);
              if (!deepEqual(afterA.external_id, near))
                expectExternalId(`${what}: case ${a!.id} read back`, afterA, near);
            }),
          ),
        );
      }
    },
  );

  check('another organisation may hold the same external_id', ['UNIQUE-PER-ORGANISATION'], async (t) => {
    const peer = t.peer;
    if (!peer)
      return t.skip(
        'no peer organisation is configured: give --peer-client-id and --peer-client-secret (a second organisation) ' +
          'to check that the rule is per organisation',
      );
    const [a] = await sharedCases(t, 1);
    const [p] = await cases(peer, 1);
    const ids = externalIds(t.primary, 'org');
    await property(
      t,
      'uniqueness: the rule is per organisation',
      ids.arbitrary,
      async (value) => {
        const { value: ours, read: before } = await giveValue(
          t.primary,
          a!.id,
          ids.fresh(value),
          'a value of our organisation',
        );
        const what =
          `PATCH by the other organisation giving its case ${p!.id} external_id ${show(ours)}, which our ` +
          `case ${a!.id} holds`;
        const res = await peer.api.patchCase(p!.id, { external_id: ours });
        const holder = holderOf(t.primary, a!.id, ours, before);
        await keepingEvidence(t, t.exchanges.at(-1), () =>
          holder.judge(async () => {
            // Our case is read after whatever the answer: it must be left alone.
            const after = await readCase(t.primary, a!.id, `reading our case ${a!.id} after the ${what}`);
            expectSuccess(res, what);
            const theirs = await readCase(
              peer,
              p!.id,
              `reading the other organisation's case ${p!.id} after the ${what}`,
            );
            if (theirs.external_id !== ours) expectExternalId(`${what}: its case read back`, theirs, ours);
            const changed = await holder.changes(after);
            if (changed.length) fail(`${what}: our case read back`, 'unchanged', changed.join(', '), { judged: [res] });
          }),
        );
      },
      { scale: 0.4 },
    );
  });
});

interface BulkRound {
  /** The case holding the contested value (as its PATCH answered), the case an item tries to give it to. */
  holder: CaseBody;
  contested: string;
  takerId: Id;
  /** The taker as read (or last read) just before the batch, when asked for. */
  taker?: CaseBody;
  /** Cases valid items give fresh values, before and after the conflicting item. */
  bystanderIds: Id[];
  items: JsonObject[];
  conflicting: ExpectedItem;
  valid: ExpectedItem[];
  res: ReceivedResponse;
  exchange: Exchange | undefined;
  what: string;
}

/** Valid items in a bulk round: the conflicting item goes before, between or after them. */
const BYSTANDERS = 2;

/**
 * One bulk update holding an item that gives the taker the value the holder holds, and valid items
 * giving the bystanders fresh values, the conflicting item at position `takerAt`. The holder is
 * returned as its PATCH answered; the taker as last read before the batch with `takerBefore` (a
 * check that judges it unchanged), else not read. No bystander is read before: what their items
 * did is judged against the values they gave.
 */
async function bulkRound(
  t: CheckApi,
  pool: CaseBody[],
  known: LastRead,
  ids: ReturnType<typeof externalIds>,
  round: { contested: string; takerAt: number },
  takerBefore: boolean,
): Promise<BulkRound> {
  const [h, k, ...s] = pool as [CaseBody, CaseBody, ...CaseBody[]];
  const { value: contested, read: holder } = await giveValue(
    t.primary,
    h.id,
    ids.fresh(round.contested),
    `so that case ${h.id} holds it`,
  );
  const taker = takerBefore ? await lastOrRead(t.primary, known, k.id) : undefined;
  // Plain ASCII values, so a server normalising Unicode still shows each as sent.
  const items: JsonObject[] = s.map((c) => ({
    id: c.id,
    external_id: t.primary.provision.externalId('bystander'),
  }));
  items.splice(round.takerAt, 0, { id: k.id, external_id: contested });
  const conflicting: ExpectedItem = {
    index: round.takerAt,
    label: `case ${k.id} given the external_id case ${h.id} holds`,
  };
  const valid = items.flatMap((item, index): ExpectedItem[] =>
    index === round.takerAt ? [] : [{ index, label: `case ${String(item.id)} given an unused external_id` }],
  );
  for (const c of pool) known.delete(c.id);
  const res = await t.primary.api.bulkUpdateCases({ items });
  const what = `bulk update of ${items.length} cases (${[conflicting, ...valid]
    .sort((a, b) => a.index - b.index)
    .map((e) => `item ${e.index}: ${e.label}`)
    .join('; ')})`;
  return {
    holder,
    contested,
    takerId: k.id,
    ...(taker ? { taker } : {}),
    bystanderIds: s.map((c) => c.id),
    items,
    conflicting,
    valid,
    res,
    exchange: t.exchanges.at(-1),
    what,
  };
}

const bulkRounds = (ids: ReturnType<typeof externalIds>) =>
  fc.record({ contested: ids.arbitrary, takerAt: fc.integer({ min: 0, max: BYSTANDERS }) });

/**
 * The bystanders of a round that do not hold the value their item gave them, one line each. Which fields a bulk
 * item takes is not shown: a bystander whose item is refused sent alone too (kit/bulk.ts aloneRefused) is an item
 * the server does not take (its bulk items take no external_id), not one the conflict kept out.
 */
async function bystandersNotApplied(t: CheckApi, sent: BulkRound, known: LastRead): Promise<string[]> {
  const wrong: string[] = [];
  for (const id of sent.bystanderIds) {
    const item = sent.items.find((i) => i.id === id)!;
    const after = await readAfter(t.primary, known, id, sent.what);
    if (after.external_id === item.external_id) continue;
    known.delete(id);
    if (aloneRefused(t, await t.primary.api.bulkUpdateCases({ items: [item] }), { id })) continue;
    wrong.push(`case ${id} holds external_id ${show(after.external_id)}, its item gave ${show(item.external_id)}`);
  }
  return wrong;
}

describe('external_id uniqueness in bulk case updates', () => {
  check("an item taking another case's external_id is not applied", ['UNIQUE-BULK'], async (t) => {
    const pool = await sharedCases(t, 2 + BYSTANDERS);
    const ids = externalIds(t.primary, 'bulk');
    const known: LastRead = new Map();
    await property(
      t,
      'uniqueness: bulk item taking a held value not applied',
      bulkRounds(ids),
      async (round) => {
        const sent = await bulkRound(t, pool, known, ids, round, true);
        const holder = holderOf(t.primary, sent.holder.id, sent.contested, sent.holder);
        await keepingEvidence(t, sent.exchange, () =>
          holder.judge(async () => {
            expectNoServerError(sent.res, sent.what);
            const problems: string[] = [];
            const changedHolder = await holder.changes(await readAfter(t.primary, known, sent.holder.id, sent.what));
            if (changedHolder.length) problems.push(`case ${sent.holder.id}: ${changedHolder.join(', ')}`);
            const changedTaker = changedFields(sent.taker!, await readAfter(t.primary, known, sent.takerId, sent.what));
            if (changedTaker.length) problems.push(`case ${sent.takerId}: ${changedTaker.join(', ')}`);
            // The conflict fails its item only: a batch whose later items are lost with it is the defect too.
            problems.push(...(await bystandersNotApplied(t, sent, known)));
            if (problems.length)
              fail(
                `${sent.what}: the cases read back`,
                `cases ${sent.holder.id} and ${sent.takerId} unchanged, every other item applied`,
                problems.join('; '),
              );
          }),
        );
      },
      { scale: 0.4 },
    );
  });

  check(
    'two items of one batch giving the same new external_id leave it on one case at most',
    ['UNIQUE-BULK'],
    async (t) => {
      const pool = await sharedCases(t, 2);
      const ids = externalIds(t.primary, 'twice');
      await property(
        t,
        'uniqueness: one value twice in a batch',
        ids.arbitrary,
        async (value) => {
          const v = ids.fresh(value);
          const items = pool.map((c) => ({ id: c.id, external_id: v }));
          const what =
            `bulk update giving cases ${pool.map((c) => c.id).join(' and ')} the same unused external_id ` +
            `${show(v)}`;
          const res = await t.primary.api.bulkUpdateCases({ items });
          await keepingEvidence(t, t.exchanges.at(-1), async () => {
            expectNoServerError(res, what);
            const after = await mapLimit(pool, pool.length, (c) =>
              readCase(t.primary, c.id, `reading case ${c.id} after the ${what}`),
            );
            // Both showing no external_id is a read-representation defect (READ-* judge it), not this one.
            if (typeof after[0]!.external_id === 'string' && after[0]!.external_id === after[1]!.external_id) {
              fail(
                `${what}: the cases read back`,
                'the value on one case at most',
                `both hold external_id ${show(after[0]!.external_id)}`,
                { judged: after },
              );
            }
          });
        },
        { scale: 0.4 },
      );
    },
  );

  check("an item taking another case's external_id is reported as failed", ['UNIQUE-BULK-REPORTED'], async (t) => {
    const pool = await sharedCases(t, 2 + BYSTANDERS);
    const ids = externalIds(t.primary, 'bulkrep');
    const known: LastRead = new Map();
    await property(
      t,
      'uniqueness: bulk item taking a held value reported',
      bulkRounds(ids),
      async (round) => {
        const sent = await bulkRound(t, pool, known, ids, round, false);
        const request = sent.items.map((i) => ({ id: i.id }));
        await keepingEvidence(t, sent.exchange, () =>
          holderOf(t.primary, sent.holder.id, sent.contested, sent.holder).judge(async () => {
            expectBatchReport(sent.res, sent.what);
            // Only a valid item reported failed yet applied makes the report wrong (one not applied is
            // UNIQUE-BULK's defect): a bystander is read only when the report calls its item failed.
            const entries = sent.valid.map((e) => ({ ...e, valid: true }));
            const applied: ExpectedItem[] = [];
            for (const e of validReportedFailed(readBulkReport(t, sent.res, request), entries)) {
              const item = sent.items[e.index]!;
              const after = await readCase(t.primary, item.id as Id, `reading case ${item.id} after the ${sent.what}`);
              if (after.external_id === item.external_id) applied.push(e);
            }
            expectFailuresReported(t, sent.res, request, { failed: [sent.conflicting], applied }, sent.what);
          }),
        );
      },
      { scale: 0.4 },
    );
  });
});

describe('external_id uniqueness under concurrency', () => {
  check('PATCHes racing for one external_id: at most one wins', ['UNIQUE-RACE'], async (t) => {
    const racers = await sharedCases(t, RACERS);
    let overloaded = 0;
    for (let round = 1; round <= RACE_ROUNDS; round++) {
      const v = t.primary.provision.externalId(`race${round}`);
      const what =
        `round ${round} of ${RACE_ROUNDS}: ${RACERS} PATCHes released together giving cases ` +
        `${racers.map((c) => c.id).join(', ')} the unused external_id ${show(v)}`;
      // Every request built first, then all released at once, past the load limiter: paced, they would not race.
      const sends = racers.map((c) => () => t.primary.api.patchCase(c.id, { external_id: v }, { unpaced: true }));
      const answers = await Promise.all(sends.map((send) => send()));
      const statuses = answers.map((r, i) => `case ${racers[i]!.id}: HTTP ${r.status}`).join(', ');
      // A gateway or load shedder refusing part of a burst sent past the load limits (502, 503, 504)
      // says nothing of uniqueness: the round is raced again on a new value, twice at most in the run.
      if (answers.some((r) => r.status === 502 || r.status === 503 || r.status === 504) && overloaded < 2) {
        overloaded += 1;
        round -= 1;
        continue;
      }
      const odd = answers.findIndex((r) => r.status < 200 || (r.status > 299 && r.status < 400) || r.status > 499);
      if (odd >= 0)
        fail(
          what,
          'each answered 2xx or 4xx (a 5xx never conforms)',
          `${statuses}; case ${racers[odd]!.id}: ${excerpt(answers[odd]!)}`,
          { judged: [answers[odd]], expect: { status: ['2xx', '4xx'] } },
        );
      const won = answers.flatMap((r, i) => (r.status >= 200 && r.status <= 299 ? [i] : []));
      if (won.length > 1) fail(what, 'at most one 2xx, 4xx for the others', statuses, { judged: answers });
      const after = await mapLimit(racers, RACERS, (c) =>
        readCase(t.primary, c.id, `reading case ${c.id} after the ${what}`),
      );
      const holders = after.flatMap((c, i) => (deepEqual(c.external_id, v) ? [i] : []));
      // The value on the one case whose PATCH succeeded, or (no winner) on none.
      if (holders.length !== won.length || holders[0] !== won[0]) {
        const shown =
          holders.map((i) => `case ${after[i]!.id} holds ${show(after[i]!.external_id)}`).join(', ') ||
          'no case holds the value';
        fail(
          `${what} (${statuses}): the cases read back`,
          won.length
            ? `only case ${racers[won[0]!]!.id}, whose PATCH succeeded, holds the value`
            : 'no case holds the value (every PATCH was refused)',
          shown,
          { judged: [...answers, ...after] },
        );
      }
    }
  });
});
