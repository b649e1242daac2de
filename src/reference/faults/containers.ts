/**
 * Faults of the containers (issue 33 §2, src/spec/inputs/containers.ts): the bulk limit counted on one way in only,
 * or after the entries were deduplicated; an entry of another kind read as entries, or crashing the server. Each
 * passes the named checks (the bulk suites' limit checks: JSON, 101 records of their own) and the matrix's other
 * cells, and is caught by the container cells, or the sync_platforms entries of each kind, alone.
 */
import { stringifyJson } from '../../base/json.ts';
import { isId, LIMITS } from '../../spec/index.ts';
import { isForm } from '../handlers/content.ts';
import { isObject, rawEntries } from '../handlers/bulk.ts';
import { AnswerNow, HttpError } from '../http.ts';
import type { BatchSpec } from '../points.ts';
import { fault } from '../switches.ts';
import { runAll } from './bulk.ts';

const LIMIT = LIMITS.bulkMaxItems;
const BULK_CASES = { op: 'bulk-cases', key: 'items' } as BatchSpec;
/** What a handler that reads a field of a value it never checked answers. */
const CRASH = new AnswerNow({ status: 500, body: { error: 'server_error', detail: 'internal error' } });

/** The sync_platforms lists a PATCH body or a bulk case update carries. */
function platformLists(op: string, body: unknown): unknown[][] {
  const holders =
    op === 'patch' ? [body] : op === 'bulk-cases' && isObject(body) ? (rawEntries(BULK_CASES, body) ?? []) : [];
  return holders.flatMap((h) => (isObject(h) && Array.isArray(h.sync_platforms) ? [h.sync_platforms] : []));
}

export const CONTAINER_FAULTS = [
  fault(
    'input.sync-platforms-entry-500',
    'a sync_platforms list holding an entry that is no object (null, a number, text, a list) answers 500, as ' +
      'reading entry.domain of it would, in a PATCH and in a bulk case item',
    (base) => ({
      decodeBody(op, mediaType, body, header) {
        if (platformLists(op, body).some((list) => list.some((e) => !isObject(e)))) throw CRASH;
        return base.decodeBody(op, mediaType, body, header);
      },
    }),
  ),
  fault(
    'bulk.flat-no-limit',
    'bulk bodies sent as form-urlencoded or multipart are not held to the 100-entry limit (only the JSON body meets ' +
      'the schema that bounds it): every entry of 101 is applied',
    (base) => {
      const flat = new WeakSet<object>();
      return {
        decodeBody(op, mediaType, body, header) {
          const decoded = base.decodeBody(op, mediaType, body, header);
          if (op.startsWith('bulk-') && isForm(mediaType) && isObject(decoded)) flat.add(decoded);
          return decoded;
        },
        runBatch(spec, body, run) {
          const raw = rawEntries(spec, body);
          if (!raw || raw.length <= LIMIT || !isObject(body) || !flat.has(body)) return base.runBatch(spec, body, run);
          return runAll(spec, body, raw, run);
        },
      };
    },
  ),
  fault(
    'bulk.count-after-dedupe',
    'bulk entries naming one record are merged (the last item for an id wins; an id listed twice is deleted once) ' +
      'before the 100-entry limit is counted: 101 items naming one case are one item, and applied',
    (base) => ({
      runBatch(spec, body, run) {
        const raw = rawEntries(spec, body);
        if (!raw || raw.length <= LIMIT) return base.runBatch(spec, body, run);
        const byRecord = new Map<string, unknown>();
        raw.forEach((e, i) => {
          const named = spec.key === 'ids' ? e : isObject(e) && e.id !== undefined ? e.id : undefined;
          byRecord.set(named === undefined ? `entry ${i}` : `record ${stringifyJson(named)}`, e);
        });
        return base.runBatch(spec, { ...(body as object), [spec.key]: [...byRecord.values()] }, run);
      },
    }),
  ),
  fault(
    'bulk.elements-no-transaction',
    'a bulk request runs its entries in order with no transaction: at the first entry of another kind than its ' +
      'list holds (an item that is no object, an id that is no integer) it stops with 400, and the entries before ' +
      'it stay applied',
    (base) => ({
      runBatch(spec, body, run) {
        const raw = rawEntries(spec, body);
        const at = raw?.findIndex((e) => (spec.key === 'items' ? !isObject(e) : !isId(e))) ?? -1;
        if (!raw || raw.length > LIMIT || at < 0) return base.runBatch(spec, body, run);
        if (at > 0) base.runBatch(spec, { ...(body as object), [spec.key]: raw.slice(0, at) }, run);
        throw new HttpError(400, 'validation_error', `entry ${at} is of another kind`);
      },
    }),
  ),
  fault(
    'content.form-small-limits',
    'form-urlencoded and multipart bodies of bulk requests are read with small limits, cut silently (as busboy ' +
      "cuts a field at limits.fieldSize, and PHP's max_input_vars drops the rest): a field's text at 2,000 " +
      'characters (items as JSON text then no longer parse), a repeated field at its first 20 values',
    (base) => ({
      decodeBody(op, mediaType, body, header) {
        const decoded = base.decodeBody(op, mediaType, body, header);
        if (!op.startsWith('bulk-') || !isForm(mediaType) || !isObject(decoded)) return decoded;
        if (Array.isArray(decoded.ids)) return { ...decoded, ids: decoded.ids.slice(0, 20) };
        if (Array.isArray(decoded.items)) {
          const text = stringifyJson(decoded.items)!;
          if (text.length > 2000) return { ...decoded, items: text.slice(0, 2000) };
        }
        return decoded;
      },
    }),
  ),
  fault(
    'bulk.items-flatten',
    'bulk case and customer updates flatten their items one level before reading them (as lodash flatten or ' +
      'itertools.chain would): an entry [{"id": 7, …}] updates case 7',
    (base) => ({
      runBatch(spec, body, run) {
        const raw = rawEntries(spec, body);
        if (spec.key !== 'items' || !raw) return base.runBatch(spec, body, run);
        return base.runBatch(spec, { ...(body as object), items: raw.flat() }, run);
      },
    }),
  ),
];
