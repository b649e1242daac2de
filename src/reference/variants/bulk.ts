/**
 * Variants of the bulk endpoints: the answer's shape (interface § Errors: "Shape of per-item failure entries: not
 * shown"; "Item fields and the response body: not shown"), how a batch over the limit is refused (per item), and
 * a case's last check kept ("A case holds one or more checks").
 */
import { LIMITS } from '../../spec/index.ts';
import { isObject, overLimit, rawEntries } from '../handlers/bulk.ts';
import { HttpError } from '../http.ts';
import { type Switch, variant } from '../switches.ts';
import type { BatchSpec, BulkOp, Env, ItemResult } from '../points.ts';

const SHAPE = 'bulk answer shape';

/** Why an item failed, as lines: each field problem, or the refusal's message. */
function messages(err: HttpError): string[] {
  const fields = err.extra.fields as Record<string, string[]> | undefined;
  return fields ? Object.entries(fields).flatMap(([f, ms]) => ms.map((m) => `${f}: ${m}`)) : [err.message];
}

/** A variant whose bulk answers have another body, same status and headers. */
function shape<N extends string>(
  name: N,
  description: string,
  body: (op: BulkOp, results: ItemResult[]) => unknown,
): Switch<N> {
  return variant(
    name,
    description,
    (base) => ({ bulkAnswer: (op, results) => ({ ...base.bulkAnswer(op, results), body: body(op, results) }) }),
    SHAPE,
  );
}

/**
 * A variant whose bulk case update answers each applied item with a summary of the case (`fields` of its read
 * representation) in `updated`, and each failed one in `errors`; the other bulk endpoints answer as before.
 */
function caseSummaries<N extends string>(name: N, fields: readonly string[]): Switch<N> {
  return variant(
    name,
    `bulk case updates answer {"updated": [{${fields.join(', ')}}, …], "errors": [{"index", "id", "detail"}]}: ` +
      'a summary of each case updated, not its read representation',
    (base, env) => ({
      bulkAnswer(op, results) {
        const answer = base.bulkAnswer(op, results);
        if (op !== 'bulk-cases') return answer;
        const summary = (r: ItemResult) => {
          const view = env.b.caseView(caseOf(env, r.key.id as number)!);
          return Object.fromEntries(fields.map((f) => [f, view[f]]));
        };
        return {
          ...answer,
          body: {
            updated: results.filter((r) => r.status !== 'failed').map(summary),
            errors: results
              .filter((r) => r.error)
              .map((r) => ({ index: r.index, id: r.key.id, detail: messages(r.error!).join('; ') })),
          },
        };
      },
    }),
  );
}

/** The case with this id, in whichever organisation holds it (ids are one sequence). */
function caseOf(env: Env, id: number) {
  return env.organisations.map((o) => env.store.getCase(o.name, id)).find((c) => c !== undefined);
}

/** What an entry of a bulk body names, before it is checked: its id, and an item's external_id. */
function rawKey(spec: BatchSpec, entry: unknown): ItemResult['key'] {
  if (spec.key === 'ids' || !isObject(entry)) return { id: entry };
  return { id: entry.id, ...('external_id' in entry ? { external_id: entry.external_id } : {}) };
}

/**
 * What named an item of a batch, as a server that answers in the request's own terms lists it: the id sent, else the
 * external_id (a customer named by external_id alone).
 */
function namedBy(spec: BatchSpec, entry: unknown): ItemResult['key'] {
  if (spec.key === 'ids' || !isObject(entry)) return { id: entry };
  return entry.id !== undefined && entry.id !== null ? { id: entry.id } : { id: null, external_id: entry.external_id };
}

/** The status word of an item in bulk.shape-status-per-id. */
function statusWord(r: ItemResult): string {
  if (r.status !== 'failed') return r.status;
  if (r.error?.code === 'not_found' || r.error?.code === 'forbidden') return r.error.code;
  return 'invalid';
}

/**
 * A variant whose bulk case items take none of `fields` (interface § Bulk Update Cases: "Item fields … not shown"):
 * an item carrying one fails with `refusal` (of the first it carries), and the other items go on.
 */
function itemsRefusing<N extends string>(
  name: N,
  fields: readonly string[],
  description: string,
  refusal: (field: string) => HttpError,
): Switch<N> {
  return variant(name, description, (base) => ({
    runBatch(spec, body, run) {
      if (spec.op !== 'bulk-cases') return base.runBatch(spec, body, run);
      return base.runBatch(spec, body, (entries) =>
        entries.map((entry, index): ItemResult => {
          const field = isObject(entry) ? fields.find((f) => f in entry) : undefined;
          if (!isObject(entry) || field === undefined) return { ...run([entry])[0]!, index };
          const key = { id: (entry.id ?? null) as ItemResult['key']['id'] };
          return { index, key, status: 'failed', error: refusal(field) };
        }),
      );
    },
  }));
}

export const BULK_VARIANTS = [
  variant(
    'bulk.over-limit-per-item',
    'a batch of more than 100 entries answers 200 with every entry reported failed ("must hold at most 100 ' +
      'entries"), and applies none of them, on each bulk endpoint',
    (base) => ({
      runBatch(spec, body, run) {
        const raw = rawEntries(spec, body);
        if (!raw || raw.length <= LIMITS.bulkMaxItems) return base.runBatch(spec, body, run);
        const error = overLimit(spec);
        return raw.map((entry, index) => ({ index, key: rawKey(spec, entry), status: 'failed' as const, error }));
      },
    }),
  ),
  variant(
    'bulk.keep-last-check',
    "a bulk check delete refuses to delete a case's last check: that item fails (409 last_check), the others go on",
    (base, env) => ({
      removeCheck(check) {
        if (env.store.checksOfCase(check.org, check.caseId).length <= 1)
          throw new HttpError(409, 'last_check', `check ${check.id} is the last of case ${check.caseId}`);
        base.removeCheck(check);
      },
    }),
  ),
  itemsRefusing(
    'bulk.items-no-sync-platforms',
    ['sync_platforms'],
    'a bulk case item takes no sync_platforms: an item carrying it fails (400 unknown_field), the others go on ' +
      '("Item fields … not shown")',
    (field) =>
      new HttpError(400, 'unknown_field', `a bulk item does not take ${field}`, {
        fields: { [field]: ['not a field of a bulk case item'] },
      }),
  ),
  itemsRefusing(
    'bulk.items-metadata-only',
    ['webhook_url', 'external_id', 'delete_after'],
    'a bulk case item takes metadata and sync_platforms only: an item carrying webhook_url, external_id or ' +
      'delete_after fails (422, {"webhook_url": ["Unknown field."]} as a schema that forbids unknown fields words ' +
      'it), the others go on ("Item fields … not shown")',
    (field) => new HttpError(422, 'invalid', 'Unknown field.', { fields: { [field]: ['Unknown field.'] } }),
  ),
  caseSummaries('bulk.case-summary-complete', ['id', 'external_id', 'is_complete']),
  caseSummaries('bulk.case-summary-outcome', ['id', 'external_id', 'outcome', 'note', 'updated_at']),
  shape(
    'bulk.shape-ok-errors',
    'bulk answers are {"results": [{"index", "id", "ok", "errors": [message, …]}]} (alternative to the other ' +
      'bulk.shape-*)',
    (_op, results) => ({
      results: results.map((r) => ({
        index: r.index,
        id: r.key.id,
        ok: r.status !== 'failed',
        errors: r.error ? messages(r.error) : [],
      })),
    }),
  ),
  shape(
    'bulk.shape-succeeded-ids',
    'bulk answers are {"succeeded": [id, …], "errors": [{"index", "reason"}]} ' +
      '(alternative to the other bulk.shape-*)',
    (_op, results) => ({
      succeeded: results.filter((r) => r.status !== 'failed').map((r) => r.key.id),
      errors: results.filter((r) => r.error).map((r) => ({ index: r.index, reason: messages(r.error!).join('; ') })),
    }),
  ),
  variant(
    'bulk.shape-item-labels',
    'bulk answers are {"updated" (or "deleted"): [the id each applied item sent, else its external_id], ' +
      '"errors": {"item <index counted from 0>": [message, …]}} (alternative to the other bulk.shape-*)',
    (base) => ({
      runBatch(spec, body, run) {
        // What each item named, not the record it reached: the answer lists items in the request's terms.
        const raw = rawEntries(spec, body) ?? [];
        return base.runBatch(spec, body, run).map((r) => (r.error ? r : { ...r, key: namedBy(spec, raw[r.index]) }));
      },
      bulkAnswer(op, results) {
        const applied = results.filter((r) => !r.error).map((r) => r.key.id ?? r.key.external_id);
        const errors = results.filter((r) => r.error).map((r) => [`item ${r.index}`, messages(r.error!)]);
        const body = { [op === 'bulk-checks' ? 'deleted' : 'updated']: applied, errors: Object.fromEntries(errors) };
        return { ...base.bulkAnswer(op, results), body };
      },
    }),
    SHAPE,
  ),
  shape(
    'bulk.shape-settled',
    'bulk answers are a list with one entry per item, as Promise.allSettled gives it: {"status": "fulfilled", ' +
      '"value": {"id"…}} (no value for a deleted check) or {"status": "rejected", "reason": {"code", "message"}} ' +
      '(alternative to the other bulk.shape-*)',
    (op, results) =>
      results.map((r) =>
        r.error
          ? { status: 'rejected', reason: { code: r.error.code, message: messages(r.error).join('; ') } }
          : { status: 'fulfilled', ...(op === 'bulk-checks' ? {} : { value: r.key }) },
      ),
  ),
  shape(
    'bulk.shape-status-per-id',
    'bulk answers are {"results": [{"id", "status": "updated" | "deleted" | "not_found" | "invalid"}]}, ' +
      'customers with their external_id (alternative to the other bulk.shape-*)',
    (op, results) => ({
      results: results.map((r) => ({
        id: r.key.id,
        ...(op === 'bulk-customers' ? { external_id: r.key.external_id } : {}),
        status: statusWord(r),
      })),
    }),
  ),
];
