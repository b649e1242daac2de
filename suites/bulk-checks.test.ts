/**
 * POST /api/checks/bulk-delete/ (interface § Endpoints › Bulk Delete Checks; § Errors 1; § Limits).
 *
 * Checks are seen through their case: a deleted check is gone from the case's `checks` when the
 * case is read back. Every case a batch is judged on keeps at least one check ("a case holds one or
 * more checks", § What the service does 2), so a server that refuses to empty a case is judged as any
 * other; what it does with a case's last check is recorded on its own (BULK-CHECKS-LAST-CHECK).
 */
import fc from 'fast-check';
import { describe } from 'vitest';
import {
  caseWithChecks,
  check,
  checkIds,
  deepEqual,
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
  inOrder,
  itemLabels,
  keepingEvidence,
  malformedBulkBodies,
  mapLimit,
  property,
  readBulkReport,
  readCase,
  someOf,
  unknownId,
  validReportedFailed,
  type BulkSent,
  type CaseWithChecks,
  type CheckApi,
  type ExpectedItem,
} from '../src/kit/index.ts';
import { asCell } from '../src/kit/containers/index.ts';
import { compareIds, type Id, LIMITS } from '../src/spec/index.ts';

const LIMIT = LIMITS.bulkMaxItems;
/** Checks per case in mixed batches: up to three are deleted, one always stays. */
const MIXED_CHECKS = 4;
const MAX_UNKNOWN = 2;
/**
 * Checks of a case BULK-CHECKS-PARTIAL's batches take their existing ids from: a batch deletes at
 * most MIXED_CHECKS - 1 of them and its read-back shows which remain, so several batches share it.
 */
const POOLED_CHECKS = 12;

async function checksNow(h: CaseWithChecks, what?: string): Promise<Id[]> {
  return checkIds(await readCase(h.org, h.caseId, what));
}

/** Each case shows exactly the checks expected of it; one line per case that does not. */
async function checkProblems(expected: { holder: CaseWithChecks; ids: Id[] }[], what: string): Promise<string[]> {
  const problems: string[] = [];
  for (const { holder, ids } of expected) {
    const now = await checksNow(holder, `reading case ${holder.caseId} after the ${what}`);
    const want = [...ids].sort(compareIds);
    if (deepEqual(now, want)) continue;
    const kept = now.filter((id) => !want.includes(id));
    const lost = want.filter((id) => !now.includes(id));
    const some = (ids: Id[]) =>
      ids.length > 8 ? `${ids.slice(0, 8).join(', ')}, … (${ids.length} in all)` : ids.join(', ');
    const parts = [
      kept.length ? `checks ${some(kept)} still there` : '',
      lost.length ? `checks ${some(lost)} gone` : '',
    ];
    problems.push(`case ${holder.caseId}: ${parts.filter(Boolean).join(', ')}`);
  }
  return problems;
}

function send(t: CheckApi, ids: unknown[]) {
  return exchanged(t, () => t.primary.api.bulkDeleteChecks({ ids }));
}

interface Batch {
  existing: number;
  unknown: number;
  peer: boolean;
  order: number[];
}

function batches(withPeer: boolean): fc.Arbitrary<Batch> {
  const length = MIXED_CHECKS - 1 + MAX_UNKNOWN + 1;
  return fc
    .record({
      existing: fc.integer({ min: 1, max: MIXED_CHECKS - 1 }),
      unknown: fc.integer({ min: 0, max: MAX_UNKNOWN }),
      peer: withPeer ? fc.boolean() : fc.constant(false),
      order: fc.array(fc.nat(), { minLength: length, maxLength: length }),
    })
    .filter((b) => b.unknown > 0 || b.peer); // at least one id that cannot be deleted
}

/**
 * A batch whose failing ids come first and between the existing ones: the defect of a server
 * whose loop stops at the first failure shows only there. Planned order: existing, unknown, peer.
 */
function failuresFirst(withPeer: boolean): Batch {
  return { existing: MIXED_CHECKS - 1, unknown: MAX_UNKNOWN, peer: withPeer, order: [3, 5, 6, 0, 4, 1] };
}

interface Entry extends ExpectedItem {
  id: Id;
  /** An existing check of ours, which must go; the others fail. */
  valid: boolean;
}

interface Sent extends BulkSent<Entry> {
  holder: CaseWithChecks;
  peer?: CaseWithChecks;
}

async function sendMixed(
  t: CheckApi,
  holder: CaseWithChecks,
  peer: CaseWithChecks | undefined,
  batch: Batch,
): Promise<Sent> {
  const planned: Omit<Entry, 'index'>[] = holder.checks
    .slice(0, batch.existing)
    .map((id) => ({ id, valid: true, label: `check ${id} of case ${holder.caseId}` }));
  const unknown = new Set<Id>();
  while (unknown.size < batch.unknown) unknown.add(unknownId());
  for (const id of unknown) planned.push({ id, valid: false, label: `unknown check id ${id}` });
  if (batch.peer && peer)
    planned.push({ id: peer.checks[0]!, valid: false, label: `check ${peer.checks[0]} of another organisation` });
  const entries = inOrder(planned, batch.order);
  const { res, exchange } = await send(
    t,
    entries.map((e) => e.id),
  );
  return {
    entries,
    holder,
    ...(peer ? { peer } : {}),
    res,
    exchange,
    what: `bulk delete of ${entries.length} checks (${itemLabels(entries)})`,
  };
}

/**
 * The two cases of LIMIT / 2 + 1 checks the rejected batch of 101 named, read back with every check
 * in place: the batch of exactly 100 is sent at them, as at new ones. Taken by the check that uses them.
 */
let untouched: CaseWithChecks[] | undefined;

/** Checks of a case the duplicate-id check left in place (as read), for the non-integer check. */
let spareChecks: CaseWithChecks | undefined;

/**
 * A case whose checks were last read back: the next batch naming some takes them from there (and
 * reads it back after), so several batches share one case. Taken away while a batch is judged.
 */
interface Pooled {
  holder?: CaseWithChecks;
}

async function pooledHolder(t: CheckApi, pool: Pooled): Promise<CaseWithChecks> {
  const holder =
    pool.holder && pool.holder.checks.length >= MIXED_CHECKS
      ? pool.holder
      : await caseWithChecks(t.primary, POOLED_CHECKS);
  delete pool.holder;
  return holder;
}

describe('POST /api/checks/bulk-delete/', () => {
  check(
    'a batch of 101 ids deletes none of them',
    ['BULK-CHECKS-REJECT-101'],
    asCell('bulk-checks', '101', async (t) => {
      const holders = await mapLimit([0, 1], 2, () => caseWithChecks(t.primary, LIMIT / 2 + 1));
      untouched = undefined;
      const ids = [...holders[0]!.checks, ...holders[1]!.checks.slice(0, LIMIT / 2)];
      const what = `bulk delete of ${ids.length} checks (one over the limit of ${LIMIT})`;
      const { res, exchange } = await send(t, ids);
      await keepingEvidence(t, exchange, async () => {
        t.observe('BULK-CHECKS-REJECT-101', expectOverLimitRefused(t, res, ids, what));
        const problems = await checkProblems(
          holders.map((h) => ({ holder: h, ids: h.checks })),
          what,
        );
        if (problems.length) fail(`the cases read back after the ${what}`, 'every check still there', someOf(problems));
        untouched = holders;
      });
    }),
  );

  check(
    'a batch of exactly 100 ids is accepted and deletes those checks',
    ['BULK-CHECKS-ACCEPT-100'],
    asCell('bulk-checks', '100', async (t) => {
      const holders = untouched ?? (await mapLimit([0, 1], 2, () => caseWithChecks(t.primary, LIMIT / 2 + 1)));
      untouched = undefined;
      const ids = holders.flatMap((h) => h.checks.slice(0, LIMIT / 2));
      const what = `bulk delete of ${LIMIT} checks of cases ${holders.map((h) => h.caseId).join(' and ')}`;
      const { res, exchange } = await send(t, ids);
      expectBatchSuccess(res, what);
      await keepingEvidence(t, exchange, async () => {
        const problems = await checkProblems(
          holders.map((h) => ({ holder: h, ids: h.checks.slice(LIMIT / 2) })),
          what,
        );
        if (problems.length)
          fail(
            `${what}: the cases read back`,
            `the ${LIMIT} checks gone, the last check of each case still there`,
            someOf(problems),
          );
      });
    }),
  );

  check('a mixed batch deletes the existing checks and nothing else', ['BULK-CHECKS-PARTIAL'], async (t) => {
    const peer = t.peer ? await caseWithChecks(t.peer, 2) : undefined;
    // The case whose checks the next batch names, with the checks it was last read back with;
    // taken away while a batch is judged, so one that does not pass leaves the next a new case.
    const pool: Pooled = {};
    await property(
      t,
      'bulk-checks: mixed batch applied',
      batches(peer !== undefined),
      async (batch) => {
        const holder = await pooledHolder(t, pool);
        const sent = await sendMixed(t, holder, peer, batch);
        await keepingEvidence(t, sent.exchange, async () => {
          expectBatchSuccess(sent.res, sent.what);
          const deleted = sent.entries.filter((e) => e.valid).map((e) => e.id);
          const peerNamed = sent.peer && sent.entries.some((e) => sent.peer!.checks.includes(e.id));
          const expected = [
            { holder: sent.holder, ids: sent.holder.checks.filter((id) => !deleted.includes(id)) },
            ...(peerNamed ? [{ holder: sent.peer!, ids: sent.peer!.checks }] : []),
          ];
          const problems = await checkProblems(expected, sent.what);
          if (problems.length)
            fail(
              `${sent.what}: the cases read back`,
              'the existing checks named gone, every other check still there',
              someOf(problems),
            );
          pool.holder = { ...holder, checks: expected[0]!.ids };
        });
      },
      { scale: 0.4, examples: [failuresFirst(peer !== undefined)] },
    );
  });

  check(
    'each id a mixed batch could not delete is reported as failed',
    ['BULK-CHECKS-REPORTED', 'BULK-CHECKS-REPORT-SHAPE'],
    async (t) => {
      const peer = t.peer ? await caseWithChecks(t.peer, 2) : undefined;
      let observed = false;
      // As for BULK-CHECKS-PARTIAL: batches share a case, read back after each (one read instead of a
      // new case and its deletion per batch); which ids are valid is what the read before showed.
      const pool: Pooled = {};
      await property(
        t,
        'bulk-checks: mixed batch reported',
        batches(peer !== undefined),
        async (batch) => {
          const sent = await sendMixed(t, await pooledHolder(t, pool), peer, batch);
          await keepingEvidence(t, sent.exchange, async () => {
            const request = sent.entries.map((e) => e.id);
            const failed = sent.entries.filter((e) => !e.valid);
            const report = readBulkReport(t, sent.res, request);
            if (!observed) {
              observed = true;
              t.observe('BULK-CHECKS-REPORT-SHAPE', describeReport(sent.res, report, failed[0]));
            }
            expectBatchReport(sent.res, sent.what);
            // Only an id reported failed yet deleted makes the report wrong (a check left in place
            // is BULK-CHECKS-PARTIAL's defect).
            const now = await checksNow(sent.holder, `reading case ${sent.holder.caseId} after the ${sent.what}`);
            const applied = validReportedFailed(report, sent.entries).filter((e) => !now.includes(e.id));
            expectFailuresReported(t, sent.res, request, { failed, applied }, sent.what);
            pool.holder = { ...sent.holder, checks: sent.holder.checks.filter((id) => now.includes(id)) };
          });
        },
        { scale: 0.4, examples: [failuresFirst(peer !== undefined)] },
      );
    },
  );

  check('malformed bodies are never answered with a 5xx', ['BULK-CHECKS-MALFORMED'], async (t) => {
    await expectMalformedHandled(
      t,
      'BULK-CHECKS-MALFORMED',
      'bulk check delete',
      malformedBulkBodies('ids', unknownId()),
      async (body) => (await exchanged(t, () => t.primary.api.bulkDeleteChecks(body))).res,
    );
  });

  check('a batch naming the same check twice', ['BULK-CHECKS-MALFORMED', 'BULK-CHECKS-DUPLICATE-IDS'], async (t) => {
    const h = await caseWithChecks(t.primary, 3);
    const id = h.checks[0]!;
    const { res } = await send(t, [id, id]);
    const left = await checksNow(h);
    const gone = !left.includes(id);
    // The case's other checks, as read: the next check names one of them.
    spareChecks = { ...h, checks: h.checks.slice(1).filter((k) => left.includes(k)) };
    const report = readBulkReport(t, res, [id, id]);
    const reported = report.recognised
      ? `${describeItems(report)} (${report.shape})`
      : `report unrecognised: ${res.text.slice(0, 200)}`;
    t.observe(
      'BULK-CHECKS-DUPLICATE-IDS',
      `ids [${id}, ${id}]: HTTP ${res.status}; the check is ${gone ? 'deleted' : 'still there'}; ${reported}`,
    );
    expectNoServerError(res, `bulk delete of check ${id} named twice`);
  });

  check(
    'a batch whose ids hold a non-integer entry',
    ['BULK-CHECKS-MALFORMED', 'BULK-CHECKS-NON-INTEGER-ID'],
    async (t) => {
      const kept = spareChecks;
      spareChecks = undefined;
      const h = kept && kept.checks.length >= 2 ? kept : await caseWithChecks(t.primary, 2);
      const id = h.checks[0]!;
      const { res } = await send(t, [id, 'abc']);
      const gone = !(await checksNow(h)).includes(id);
      let reported = '';
      if (res.status >= 200 && res.status < 300) {
        const report = readBulkReport(t, res, [id, { id: 'abc' }]);
        const read = report.recognised
          ? `${describeItems(report)} (${report.shape})`
          : `report unrecognised: ${res.text.slice(0, 200)}`;
        reported = `; ${read}`;
      }
      t.observe(
        'BULK-CHECKS-NON-INTEGER-ID',
        `ids [${id}, "abc"]: HTTP ${res.status}; check ${id} is ${gone ? 'deleted' : 'still there'}${reported}`,
      );
      expectNoServerError(res, `bulk delete of ids [${id}, "abc"]`);
    },
  );
  check("a batch naming a case's last check", ['BULK-CHECKS-REPORTED', 'BULK-CHECKS-LAST-CHECK'], async (t) => {
    // "A case holds one or more checks": deleting its only check may be done or refused. Either is recorded;
    // the answer is judged as any bulk answer's report is (the check reported failed exactly when it stays).
    const h = await caseWithChecks(t.primary, 1);
    const id = h.checks[0]!;
    const what = `bulk delete of check ${id}, the only check of case ${h.caseId}`;
    const { res, exchange } = await send(t, [id]);
    await keepingEvidence(t, exchange, async () => {
      const kept = (await checksNow(h, `reading case ${h.caseId} after the ${what}`)).includes(id);
      const report = readBulkReport(t, res, [id]);
      const reported = report.recognised
        ? `${describeItems(report)} (${report.shape})`
        : `report unrecognised: ${res.text.slice(0, 200)}`;
      t.observe(
        'BULK-CHECKS-LAST-CHECK',
        `HTTP ${res.status}; the check is ` +
          `${kept ? 'kept: the case still holds it' : 'deleted: the case shows no checks'}; ${reported}`,
      );
      expectBatchReport(res, what);
      const item = { index: 0, label: `check ${id}, the last of case ${h.caseId}` };
      expectFailuresReported(t, res, [id], { failed: kept ? [item] : [], applied: kept ? [] : [item] }, what);
    });
  });
});
