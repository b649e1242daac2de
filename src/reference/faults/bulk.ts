/**
 * Faults of the bulk endpoints (requirements BULK-*): the 100-entry limit, all-or-nothing
 * batches, misreported items, lookups and deletions that do not happen.
 */
import { isId, LIMITS } from '../../spec/index.ts';
import { AnswerNow, HttpError } from '../http.ts';
import { entriesOf, isObject, itemJson, overLimit, rawEntries } from '../handlers/bulk.ts';
import { fault } from '../switches.ts';
import { writeReadOnly } from './patch.ts';
import type { BatchSpec, Behaviour, ItemResult } from '../points.ts';

const LIMIT = LIMITS.bulkMaxItems;

/** What a server that trusts the envelope's shape answers when it is not what it expects. */
const CRASH = new AnswerNow({ status: 500, body: { error: 'server_error', detail: 'internal error' } });

/** A body that is no object, whose entries are missing or no array, or (items) holds a non-object. */
function malformed(spec: BatchSpec, body: unknown): boolean {
  const raw = rawEntries(spec, body);
  if (!isObject(body) || !raw) return true;
  return spec.key === 'items' && raw.some((e) => !isObject(e));
}

/** What an entry names, as a skipped item's result shows it. */
function namedBy(entry: unknown): ItemResult['key'] {
  if (!isObject(entry)) return { id: entry ?? null };
  return { id: entry.id ?? null, ...('external_id' in entry ? { external_id: entry.external_id } : {}) };
}

/**
 * A batch run item by item that stops at the first result `stops` holds (a database transaction
 * aborted by its error, the loop's rest lost): the items after it are never run, yet reported as
 * succeeded. Only the batches of `ops` (every one when absent) stop.
 */
export function stopAfter(
  base: Behaviour,
  stops: (r: ItemResult) => boolean,
  ops?: readonly BatchSpec['op'][],
): Pick<Behaviour, 'runBatch'> {
  return {
    runBatch(spec, body, run) {
      if (ops && !ops.includes(spec.op)) return base.runBatch(spec, body, run);
      return base.runBatch(spec, body, (entries) => {
        const ok = spec.op === 'bulk-checks' ? 'deleted' : 'updated';
        let stopped = false;
        return entries.map((entry, index): ItemResult => {
          if (stopped) return { index, key: namedBy(entry), status: ok };
          const r = { ...run([entry])[0]!, index };
          stopped = stops(r);
          return r;
        });
      });
    },
  };
}

/** Runs every entry of a batch over the limit, each checked as in a batch within it: a server that never counts. */
export function runAll(spec: BatchSpec, body: unknown, raw: unknown[], run: (entries: unknown[]) => ItemResult[]) {
  const entries: unknown[] = [];
  for (let i = 0; i < raw.length; i += LIMIT)
    entries.push(...entriesOf(spec, { ...(body as object), [spec.key]: raw.slice(i, i + LIMIT) }));
  return run(entries);
}

/**
 * A fault whose bulk case items drop `field` unread (a serializer that ignores a field it does not declare) and
 * are reported updated: a value answered as taken and then not shown, never a field the items refuse.
 */
function dropping<N extends string>(name: N, field: string) {
  return fault(
    name,
    `a bulk case item's ${field} is dropped unread (a serializer that ignores a field it does not declare), and ` +
      'the item reported updated',
    (base) => ({
      runBatch: (spec, body, run) =>
        base.runBatch(spec, body, (entries) =>
          run(
            spec.op !== 'bulk-cases'
              ? entries
              : entries.map((e) =>
                  isObject(e) ? Object.fromEntries(Object.entries(e).filter(([k]) => k !== field)) : e,
                ),
          ),
        ),
    }),
  );
}

export const BULK_FAULTS = [
  fault(
    'bulk.malformed-500',
    'a bulk body that is no object, or whose items or ids are missing or no array, or an item that is no object, ' +
      'answers 500 (as an unhandled TypeError would)',
    (base) => ({
      runBatch(spec, body, run) {
        if (malformed(spec, body)) throw CRASH;
        return base.runBatch(spec, body, run);
      },
    }),
  ),
  fault(
    'bulk.checks-non-integer-500',
    'a bulk check delete whose ids hold a non-integer entry answers 500',
    (base) => ({
      runBatch(spec, body, run) {
        if (spec.op === 'bulk-checks' && rawEntries(spec, body)?.some((e) => !isId(e))) throw CRASH;
        return base.runBatch(spec, body, run);
      },
    }),
  ),
  fault(
    'bulk.read-only-writable',
    'bulk case update writes the read-only fields an item sends (as patch.read-only-writable does for PATCH)',
    (base) => ({
      readOnlySent: (c, fields, op) =>
        op === 'bulk-cases' ? writeReadOnly(c, fields) : base.readOnlySent(c, fields, op),
    }),
  ),
  fault('bulk.no-limit', 'bulk endpoints accept more than 100 items and apply them all', (base) => ({
    runBatch(spec, body, run) {
      const raw = rawEntries(spec, body);
      if (!raw || raw.length <= LIMIT) return base.runBatch(spec, body, run);
      return runAll(spec, body, raw, run);
    },
  })),
  fault('bulk.limit-99', 'bulk endpoints reject a request of exactly 100 items', (base) => ({
    runBatch(spec, body, run) {
      if (rawEntries(spec, body)?.length === LIMIT) throw overLimit(spec, LIMIT - 1);
      return base.runBatch(spec, body, run);
    },
  })),
  fault(
    'bulk.partial-over-limit',
    'bulk endpoints given over 100 items apply the first 100, then answer 400',
    (base) => ({
      runBatch(spec, body, run) {
        const raw = rawEntries(spec, body);
        if (!raw || raw.length <= LIMIT) return base.runBatch(spec, body, run);
        run(entriesOf(spec, { ...(body as object), [spec.key]: raw.slice(0, LIMIT) }));
        throw overLimit(spec);
      },
    }),
  ),
  fault(
    'bulk.all-or-nothing',
    'one failing item fails the whole bulk request with 400, and nothing is applied',
    (base, env) => ({
      runBatch(spec, body, run) {
        const rollback = env.store.snapshot();
        const results = base.runBatch(spec, body, run);
        const failed = results.filter((r) => r.status === 'failed');
        if (failed.length === 0) return results;
        rollback();
        throw new HttpError(400, 'item_failed', 'an item of the batch failed; nothing was applied', {
          results: failed.map(itemJson),
        });
      },
    }),
  ),
  fault('bulk.silent-failure', 'bulk answers leave failed items out of their results', (base) => ({
    bulkAnswer: (op, results) =>
      base.bulkAnswer(
        op,
        results.filter((r) => r.status !== 'failed'),
      ),
  })),
  dropping('bulk.items-drop-sync-platforms', 'sync_platforms'),
  dropping('bulk.items-drop-webhook-url', 'webhook_url'),
  fault('bulk.multi-status', 'bulk answers with any failed item get 207 Multi-Status instead of 200', (base) => ({
    bulkAnswer(op, results) {
      const answer = base.bulkAnswer(op, results);
      return results.some((r) => r.status === 'failed') ? { ...answer, status: 207 } : answer;
    },
  })),
  fault(
    'bulk.failure-as-success',
    'bulk answers report failed items as succeeded (status "updated", or "deleted" for checks)',
    (base) => ({
      bulkAnswer(op, results) {
        const ok = op === 'bulk-checks' ? 'deleted' : 'updated';
        return base.bulkAnswer(
          op,
          results.map((r) => (r.status === 'failed' ? { index: r.index, key: r.key, status: ok } : r)),
        );
      },
    }),
  ),
  fault(
    'bulk.stop-after-failure',
    'bulk endpoints stop at the first failing item: the items after it are not applied, yet reported as succeeded',
    (base) => stopAfter(base, (r) => r.status === 'failed'),
  ),
  fault('bulk.customers-ignore-external-id', 'bulk customer update never finds a customer by external_id', () => ({
    customersByExternalId: () => [],
  })),
  fault(
    'bulk.customers-external-id-ci',
    'bulk customer update finds customers by external_id ignoring letter case and accents (as MySQL ' +
      'utf8mb4_general_ci compares): an item naming abc-1 updates the customer holding ABC-1',
    (_b, env) => {
      const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
      return {
        customersByExternalId: (org, externalId) =>
          env.store.customersOf(org).filter((c) => c.external_id !== null && fold(c.external_id) === fold(externalId)),
      };
    },
  ),
  fault(
    'bulk.over-limit-rollback-stale',
    'a case or customer batch over 100 items answers 400, and its rollback restores each record it names from ' +
      'the copy saved before the last batch of that endpoint that named it (a stale savepoint): that batch is ' +
      'undone, though the rejected one took no value of its own',
    (base, env) => {
      const saved = new Map<string, object>();
      const recordsOf = (op: string, body: unknown) => {
        const ids = (rawEntries({ op, key: 'items' } as BatchSpec, body) ?? []).flatMap((e) =>
          isObject(e) && isId(e.id) ? [e.id] : [],
        );
        return ids.flatMap((id) =>
          env.organisations.flatMap((o) => {
            const r = op === 'bulk-cases' ? env.store.getCase(o.name, id) : env.store.getCustomer(o.name, id);
            return r ? [{ key: `${op} ${o.name} ${id}`, record: r as object }] : [];
          }),
        );
      };
      return {
        runBatch(spec, body, run) {
          if (spec.op !== 'bulk-cases' && spec.op !== 'bulk-customers') return base.runBatch(spec, body, run);
          const named = recordsOf(spec.op, body);
          if ((rawEntries(spec, body)?.length ?? 0) <= LIMIT) {
            for (const { key, record } of named) saved.set(key, structuredClone(record));
            return base.runBatch(spec, body, run);
          }
          for (const { key, record } of named) {
            const copy = saved.get(key);
            if (copy) Object.assign(record, structuredClone(copy));
          }
          throw overLimit(spec);
        },
      };
    },
  ),
  fault('bulk.checks-delete-noop', 'bulk check delete reports the checks deleted but keeps them', () => ({
    removeCheck: () => {},
  })),
];
