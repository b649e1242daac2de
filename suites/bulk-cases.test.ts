/**
 * POST /api/cases/bulk-update/ (interface § Endpoints › Bulk Update Cases; § Errors 1; § Limits).
 *
 * Item fields are not shown: screenconf sends id plus the PATCH fields, the natural reading of
 * "each item identifies a case by id" beside the Update Case table (the decision is recorded on
 * BULK-CASES-ACCEPT-100). The answer's shape is not shown either: src/kit/bulk-report.ts
 * recognises the per-item report, and --bulk-failures-path names the failure list of other
 * shapes. What a batch did is always judged by reading the cases back.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe } from 'vitest';
import { invalidCasePatch, validCasePatch, type CasePatchInvalidReason } from '../src/arbitraries/index.ts';
import type { Exchange, ReceivedResponse } from '../src/client/transport.ts';
import {
  check,
  deepEqual,
  describeItems,
  describeReport,
  expectBulkAnswer,
  expectFailuresReported,
  expectRejected,
  fail,
  keepingEvidence,
  mapLimit,
  property,
  readCase,
  readBulkReport,
  someOf,
  stableFields,
  unknownId,
  type CaseBody,
  type CheckApi,
  type ExpectedItem,
  type Organisation,
} from '../src/kit/index.ts';
import { LIMITS } from '../src/spec/index.ts';

const LIMIT = LIMITS.bulkMaxItems;
const CONCURRENCY = 8;
/** Fields the read representation may leave out: not judged when absent. */
const OPTIONAL_IN_READ = new Set(['webhook_url', 'delete_after', 'metadata', 'sync_platforms']);
/**
 * Defects every conforming server rejects, whichever way it counts length or coerces types:
 * over-long values, delete_after outside int32 or not an integer. (Numeric strings and wrong
 * JSON types are left out: a server may coerce them; the limits suites judge them.)
 */
const ALWAYS_REJECTED: readonly CasePatchInvalidReason[] = ['too-long-by-one', 'too-long', 'out-of-range', 'non-integer'];
const MAX_VALID = 3;
const MAX_INVALID = 3;
const MAX_UNKNOWN = 2;

type Json = Record<string, unknown>;

async function send(t: CheckApi, body: unknown): Promise<{ res: ReceivedResponse; exchange: Exchange | undefined }> {
  const res = await t.primary.api.bulkUpdateCases(body);
  return { res, exchange: t.exchanges.at(-1) };
}

/** How the case differs from what the item sent (fields the read leaves out are not judged). */
function notApplied(read: CaseBody, sent: Json): string[] {
  const wrong: string[] = [];
  for (const [field, value] of Object.entries(sent)) {
    if (field === 'id') continue;
    if (!(field in read)) {
      if (!OPTIONAL_IN_READ.has(field)) wrong.push(`${field} missing`);
      continue;
    }
    if (!deepEqual(read[field], value)) wrong.push(`${field} is ${JSON.stringify(read[field])?.slice(0, 120)}, the item sent ${JSON.stringify(value)?.slice(0, 120)}`);
  }
  return wrong;
}

/** The fields that changed between two reads of a case (updated_at aside). */
function changedFields(before: CaseBody, after: CaseBody): string[] {
  const a = stableFields(before);
  const b = stableFields(after);
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => !deepEqual(a[k], b[k])).map((k) => `${k} ${JSON.stringify(a[k])?.slice(0, 80)} → ${JSON.stringify(b[k])?.slice(0, 80)}`);
}

/** The file's 101 cases, created once: the 100- and 101-item batches share them. */
let hundredAndOne: Promise<CaseBody[]> | undefined;
function bigPool(t: CheckApi): Promise<CaseBody[]> {
  hundredAndOne ??= mapLimit(Array.from({ length: LIMIT + 1 }), CONCURRENCY, () => t.primary.provision.createCase());
  return hundredAndOne;
}

/**
 * external_ids must stay unique: generated ones start with a placeholder `slot`, replaced at
 * send time by a fresh prefix of the same length, so no two items or runs ever share a value.
 */
function externalIds(t: CheckApi) {
  const base = `${t.primary.provision.externalIdPrefix}bulk-`;
  const slot = `${base}${'x'.repeat(8)}-`;
  let seq = 0;
  const fresh = (patch: Json): Json => {
    const v = patch.external_id;
    if (typeof v !== 'string' || !v.startsWith(slot)) return patch;
    seq += 1;
    const unique = `${base}${seq.toString(36).padStart(4, '0')}${randomBytes(2).toString('hex')}-`;
    return { ...patch, external_id: unique + v.slice(slot.length) };
  };
  return { slot, fresh };
}

interface Batch {
  valid: Json[];
  invalid: { patch: Json; field: string; reason: string }[];
  unknown: Json[];
  peer: boolean;
  order: number[];
}

function batches(slot: string, withPeer: boolean): fc.Arbitrary<Batch> {
  const patch = validCasePatch({ externalIdPrefix: slot }) as fc.Arbitrary<Json>;
  return fc.record({
    valid: fc.array(patch, { minLength: 1, maxLength: MAX_VALID }),
    invalid: fc.array(
      invalidCasePatch({ fields: ['webhook_url', 'delete_after', 'external_id'], externalIdPrefix: slot }).filter((p) => ALWAYS_REJECTED.includes(p.reason)),
      { minLength: 1, maxLength: MAX_INVALID },
    ),
    unknown: fc.array(patch, { maxLength: MAX_UNKNOWN }),
    peer: withPeer ? fc.boolean() : fc.constant(false),
    order: fc.array(fc.nat(), { minLength: MAX_VALID + MAX_INVALID + MAX_UNKNOWN + 1, maxLength: MAX_VALID + MAX_INVALID + MAX_UNKNOWN + 1 }),
  });
}

interface Entry extends ExpectedItem {
  item: Json;
  /** Whether the item must be applied; failing items must change nothing. */
  valid: boolean;
  /** The case the item names, and the organisation that can read it (none for unknown ids). */
  target?: { org: Organisation; id: number; key: string; before?: CaseBody };
}

interface Sent {
  entries: Entry[];
  res: ReceivedResponse;
  exchange: Exchange | undefined;
  what: string;
}

/**
 * The cases mixed batches act on, shared by the file's mixed-batch checks (each run writes new
 * values), a peer case, and the state each was last read in: reads are what a run against a
 * rate-limited server spends most on, so a failing item's case is compared with its last read.
 */
interface MixedSetup {
  pool: CaseBody[];
  peerCase?: CaseBody;
  known: Map<string, CaseBody>;
}
let mixed: Promise<MixedSetup> | undefined;
function mixedSetup(t: CheckApi): Promise<MixedSetup> {
  mixed ??= (async () => {
    const pool = await mapLimit(Array.from({ length: MAX_VALID + MAX_INVALID }), CONCURRENCY, () => t.primary.provision.createCase());
    const peerCase = t.peer ? await t.peer.provision.createCase() : undefined;
    return { pool, ...(peerCase ? { peerCase } : {}), known: new Map() };
  })();
  return mixed;
}

/**
 * Builds the request for a generated batch and sends it; with `before`, first learns the state
 * of what the failing items name (from their last read, or by reading them).
 */
async function sendMixed(t: CheckApi, setup: MixedSetup, fresh: (p: Json) => Json, batch: Batch, before: boolean): Promise<Sent> {
  const { pool, peerCase } = setup;
  const planned: Omit<Entry, 'index'>[] = [];
  batch.valid.forEach((p, i) => {
    const id = pool[i]!.id;
    planned.push({ item: { id, ...fresh(p) }, valid: true, label: `valid ${Object.keys(p).join('+')} for case ${id}`, target: { org: t.primary, id, key: `a:${id}` } });
  });
  batch.invalid.forEach((p, j) => {
    const id = pool[MAX_VALID + j]!.id;
    planned.push({ item: { id, ...fresh(p.patch) }, valid: false, label: `invalid ${p.field} (${p.reason}) for case ${id}`, target: { org: t.primary, id, key: `a:${id}` } });
  });
  const unknown = new Set<number>();
  for (const p of batch.unknown) {
    let id = unknownId();
    while (unknown.has(id)) id = unknownId();
    unknown.add(id);
    planned.push({ item: { id, ...fresh(p) }, valid: false, label: `unknown case id ${id}` });
  }
  if (batch.peer && peerCase && t.peer) {
    const id = peerCase.id;
    planned.push({ item: { id, delete_after: 4242 }, valid: false, label: `case ${id} of another organisation`, target: { org: t.peer, id, key: `b:${id}` } });
  }
  const order = planned.map((_, k) => k).sort((a, b) => batch.order[a]! - batch.order[b]! || a - b);
  const entries: Entry[] = order.map((k, index) => ({ ...planned[k]!, index }));
  for (const e of entries) {
    if (!before || e.valid || !e.target) continue;
    e.target.before = setup.known.get(e.target.key) ?? (await readCase(e.target.org, e.target.id));
  }
  // What the batch does to its cases is known again only once they are read back.
  for (const e of entries) if (e.target) setup.known.delete(e.target.key);
  const { res, exchange } = await send(t, { items: entries.map((e) => e.item) });
  return { entries, res, exchange, what: `bulk update of ${entries.length} cases (${entries.map((e) => `${e.index}: ${e.label}`).join(', ')})` };
}

/** What read-back shows is wrong: valid items not applied, failing items that changed their case. */
async function readBackProblems(setup: MixedSetup, sent: Sent): Promise<string[]> {
  const problems: string[] = [];
  for (const e of sent.entries) {
    if (!e.target) continue;
    const read = await readCase(e.target.org, e.target.id, `reading case ${e.target.id} after the ${sent.what}`);
    setup.known.set(e.target.key, read);
    if (e.valid) {
      const wrong = notApplied(read, e.item);
      if (wrong.length) problems.push(`item ${e.index} (${e.label}) not applied: ${wrong.join(', ')}`);
    } else if (e.target.before) {
      const changed = changedFields(e.target.before, read);
      if (changed.length) problems.push(`item ${e.index} (${e.label}) failed but changed the case: ${changed.join(', ')}`);
    }
  }
  return problems;
}

/**
 * The valid items the report calls failed that were in fact applied (read back): only those
 * make the report wrong; a valid item not applied is BULK-CASES-PARTIAL's defect.
 */
async function appliedButReportedFailed(t: CheckApi, sent: Sent, request: { id: unknown }[]): Promise<Entry[]> {
  const report = readBulkReport(t, sent.res, request);
  const suspects = sent.entries.filter((e) => e.valid && e.target && (report.items[e.index] === 'failed' || report.items[e.index] === 'contradictory'));
  const applied: Entry[] = [];
  for (const e of suspects) if (notApplied(await readCase(e.target!.org, e.target!.id), e.item).length === 0) applied.push(e);
  return applied;
}

describe('POST /api/cases/bulk-update/', () => {
  check('a batch of exactly 100 items is accepted and every item applied', ['BULK-CASES-ACCEPT-100'], async (t) => {
    const cases = (await bigPool(t)).slice(0, LIMIT);
    const items = cases.map((c, i) => ({ id: c.id, external_id: t.primary.provision.externalId(`bulk100-${i}`), delete_after: 1000 + i }));
    const what = `bulk update of ${LIMIT} cases`;
    const { res, exchange } = await send(t, { items });
    expectBulkAnswer(res, [200], what);
    await keepingEvidence(t, exchange, async () => {
      const wrong = await mapLimit(items, CONCURRENCY, async (item) => {
        const w = notApplied(await readCase(t.primary, item.id), item);
        return w.length ? `case ${item.id}: ${w.join(', ')}` : undefined;
      });
      const problems = wrong.filter((w): w is string => w !== undefined);
      if (problems.length) fail(`${what}: the cases read back`, `all ${LIMIT} items applied`, `${problems.length} not applied: ${someOf(problems)}`);
    });
  });

  check('a batch of 101 items is rejected whole and changes no case', ['BULK-CASES-REJECT-101'], async (t) => {
    const cases = await bigPool(t);
    // Values no case holds yet (fresh external_ids, delete_after 2000…2100): a case showing
    // one of its item's values took that item.
    const items = cases.map((c, i) => ({ id: c.id, external_id: t.primary.provision.externalId(`bulk101-${i}`), delete_after: 2000 + i }));
    const what = `bulk update of ${LIMIT + 1} cases (one over the limit of ${LIMIT})`;
    const { res, exchange } = await send(t, { items });
    await keepingEvidence(t, exchange, async () => {
      expectRejected(res, what);
      const after = await mapLimit(cases, CONCURRENCY, (c) => readCase(t.primary, c.id));
      const changed = after.flatMap((a, i) => {
        const took = (['external_id', 'delete_after'] as const).filter((f) => deepEqual(a[f], items[i]![f]));
        return took.length ? [`case ${a.id}: ${took.map((f) => `${f} ${JSON.stringify(a[f])}`).join(', ')}`] : [];
      });
      if (changed.length) fail(`the cases read back after the rejected ${what}`, 'no case took a value its item sent', `${changed.length} of ${LIMIT + 1} did: ${someOf(changed)}`);
    });
  });

  check('a mixed batch applies its valid items and only them', ['BULK-CASES-PARTIAL'], async (t) => {
    const setup = await mixedSetup(t);
    const { slot, fresh } = externalIds(t);
    await property(
      t,
      'bulk-cases: mixed batch applied',
      batches(slot, t.peer !== undefined),
      async (batch) => {
        const sent = await sendMixed(t, setup, fresh, batch, true);
        await keepingEvidence(t, sent.exchange, async () => {
          expectBulkAnswer(sent.res, [200], sent.what);
          const problems = await readBackProblems(setup, sent);
          if (problems.length) fail(`${sent.what}: the cases read back`, 'every valid item applied, and no case named by a failing item changed', someOf(problems));
        });
      },
      { scale: 0.4 },
    );
  });

  check('each failing item of a mixed batch is reported as failed', ['BULK-CASES-REPORTED', 'BULK-CASES-REPORT-SHAPE'], async (t) => {
    const setup = await mixedSetup(t);
    const { slot, fresh } = externalIds(t);
    let observed = false;
    await property(
      t,
      'bulk-cases: mixed batch reported',
      batches(slot, t.peer !== undefined),
      async (batch) => {
        const sent = await sendMixed(t, setup, fresh, batch, false);
        await keepingEvidence(t, sent.exchange, async () => {
          const failed = sent.entries.filter((e) => !e.valid);
          const request = sent.entries.map((e) => ({ id: e.item.id }));
          if (!observed) {
            observed = true;
            const report = readBulkReport(t, sent.res, request);
            t.observe('BULK-CASES-REPORT-SHAPE', describeReport(sent.res, report, failed.find((e) => !e.target) ?? failed[0]));
          }
          expectBulkAnswer(sent.res, '2xx', sent.what);
          const applied = await appliedButReportedFailed(t, sent, request);
          expectFailuresReported(t, sent.res, request, { failed, applied }, sent.what);
        });
      },
      { scale: 0.4 },
    );
  });

  check('a batch naming the same case twice', ['BULK-CASES-DUPLICATE-IDS'], async (t) => {
    const c = await t.primary.provision.createCase();
    const first = t.primary.provision.externalId('dup-first');
    const second = t.primary.provision.externalId('dup-second');
    const items = [{ id: c.id, external_id: first }, { id: c.id, external_id: second }];
    const { res } = await send(t, { items });
    const read = await readCase(t.primary, c.id);
    const won = read.external_id === second ? 'the second item won' : read.external_id === first ? 'the first item won' : 'neither item was applied';
    const report = readBulkReport(t, res, items.map((i) => ({ id: i.id })));
    const reported = report.recognised ? `${describeItems(report)} (${report.shape})` : `report unrecognised: ${res.text.slice(0, 200)}`;
    t.observe('BULK-CASES-DUPLICATE-IDS', `two items setting external_id on case ${c.id}: HTTP ${res.status}; ${won}; ${reported}`);
  });
});
