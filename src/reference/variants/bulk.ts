/** Variants of the bulk answer's shape (interface § Errors: "Shape of per-item failure entries: not shown"). */
import type { BulkOp } from '../behaviour.ts';
import type { ItemResult } from '../handlers/bulk.ts';
import type { HttpError } from '../http.ts';
import { type Switch, variant } from '../switches.ts';

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

/** The status word of an item in bulk.shape-status-per-id. */
function statusWord(r: ItemResult): string {
  if (r.status !== 'failed') return r.status;
  if (r.error?.code === 'not_found' || r.error?.code === 'forbidden') return r.error.code;
  return 'invalid';
}

export const BULK_VARIANTS = [
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
