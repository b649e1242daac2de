/**
 * What the three bulk endpoints share (interface § Endpoints, § Errors 1, § Limits): at most 100
 * entries, each item applied on its own, failures reported per item, 200 for the batch.
 */
import { LIMITS } from '../../spec/index.ts';
import { type Answer, HttpError } from '../http.ts';
import { parseOr400 } from '../validation.ts';
import type { BatchSpec, BulkPoints, Env, ItemResult } from '../points.ts';

/** The correct batches: all entries or none (over 100), and a 200 listing every item. */
export function bulkDefaults(): BulkPoints {
  return {
    runBatch: (spec, body, run) => run(entriesOf(spec, body)),
    bulkAnswer(_op, results) {
      const succeeded = results.filter((r) => r.status !== 'failed').length;
      return {
        status: 200,
        body: { succeeded, failed: results.length - succeeded, results: results.map(itemJson) },
      };
    },
  };
}

/** The entries of a bulk body, by the request schema (at most 100); 400 when it does not fit. */
export function entriesOf(spec: BatchSpec, body: unknown): unknown[] {
  return (parseOr400(spec.schema, body) as Record<string, unknown[]>)[spec.key]!;
}

/** The raw entries of a bulk body (an array, else undefined), before any check. */
export function rawEntries(spec: BatchSpec, body: unknown): unknown[] | undefined {
  const envelope = isObject(body) ? body : {};
  const raw = envelope[spec.key];
  return Array.isArray(raw) ? raw : undefined;
}

/** A 400 for a bulk request of more entries than `max`. */
export function overLimit(spec: BatchSpec, max: number = LIMITS.bulkMaxItems): HttpError {
  return new HttpError(400, 'validation_error', 'request body is invalid', {
    fields: { [spec.key]: [`must hold at most ${max} entries`] },
  });
}

/** An item result as the default bulk answer lists it. */
export function itemJson(r: ItemResult): Record<string, unknown> {
  const error = r.error && { code: r.error.code, detail: r.error.message, ...r.error.extra };
  return { index: r.index, ...r.key, status: r.status, ...(error ? { error } : {}) };
}

/** Runs each entry on its own: a refusal fails that item only (`keyOf` names it then). */
export function eachItem(
  entries: unknown[],
  keyOf: (entry: unknown) => ItemResult['key'],
  run: (entry: unknown) => Omit<ItemResult, 'index'>,
): ItemResult[] {
  return entries.map((entry, index) => {
    try {
      return { index, ...run(entry) };
    } catch (err) {
      if (err instanceof HttpError) return { index, key: keyOf(entry), status: 'failed', error: err };
      throw err;
    }
  });
}

/** A bulk request: the batch run item by item, then answered. */
export function bulkRequest(
  env: Env,
  spec: BatchSpec,
  body: unknown,
  keyOf: (entry: unknown) => ItemResult['key'],
  run: (entry: unknown) => Omit<ItemResult, 'index'>,
): Answer {
  const results = env.b.runBatch(spec, body, (entries) => eachItem(entries, keyOf, run));
  return env.b.bulkAnswer(spec.op, results);
}

/** Whether a value is a JSON object (not null, not an array). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
