/**
 * Recognising per-item failure reports in bulk answers.
 *
 * The interface says bulk operations report failures per item (§ Errors 1) but not how ("Shape
 * of per-item failure entries: not shown"). recogniseBulkReport reads a parsed answer and tells,
 * for each item of the request, whether the answer reports it as failed, as succeeded, or says
 * nothing about it, and describes the shape it recognised (or 'unrecognised').
 *
 * Shapes (searched through objects up to three levels deep; arrays are not searched inside,
 * so the checks nested in a case never pass for a report):
 *  1. A results list: an array of objects of which at least one carries a per-item status:
 *     `ok` / `success` / `succeeded` / `isFulfilled` (boolean), `failed` / `error` / `isRejected`
 *     (boolean), `status` / `state` / `result` (a word: updated, deleted, ok, success, fulfilled… or
 *     failed, error, not_found, rejected, invalid, conflict, skipped…; or an HTTP status, 2xx
 *     succeeded and 4xx/5xx failed: so Promise.allSettled's entries, for one item as for many),
 *     `status_code` / `http_status` / `code` (an HTTP status), or `error` / `errors` (non-empty
 *     means failed; null or empty, with no other sign, succeeded). The `status` and `failed` of an
 *     object that is a Case or a Check (check_type, reasoning, risk_score, checks…) are its own, not
 *     a report.
 *  2. Lists named for their outcome: failed, failures, errors, rejected, invalid, not_found,
 *     missing, unknown, skipped, conflicts… against updated, succeeded, success, deleted,
 *     removed, ok, applied, done… (the words ids, items, indexes, external… in a name are
 *     ignored: `failed_ids`, `errorIndexes`). Entries are ids, external_ids, indexes, or
 *     objects carrying them. Counts (`"failed": 2`) say nothing about an item.
 *  3. An object keyed by index, id or external_id: under a name of rule 2 every key takes that
 *     outcome; anywhere else it counts when its values carry a status as in rule 1.
 *  4. A positional error list: a failure-named list with one entry per request item, empty
 *     (null, {}, "", []) where that item succeeded.
 *
 * Matching an entry to request items, most explicit first:
 *  - an `index` (idx, item_index, position) field names the item at that 0-based index;
 *  - else, in a results list with one entry per request item where every entry that names an
 *    item names the one at its own position, the entry's position;
 *  - else its `id` (pk, case_id, customer_id, check_id) and `external_id` fields, or those of a
 *    nested `item` / `request` / `input` / `data` object, name every request item with that value;
 *  - a bare number (an entry, a map key, a numeric string) is read as the name of its list or map
 *    says (`failed_indexes`, `errorIndices`, `positions` → indexes; `failed_ids` → ids); else with
 *    the list or map as a whole: as ids when every number there is a requested id; else as indexes when every number
 *    is a valid index; else number by number, a requested id first, then an index. So
 *    `{"failed": [3]}` means the item with id 3 when one was requested, the item at index 3
 *    otherwise; `{"failed": [{"index": 3}]}` and `{"failed": [{"id": 3}]}` are never ambiguous;
 *  - a bare string names the item with that external_id (or string id), else counts as a bare
 *    number when it is one.
 * An entry's own status decides its outcome; failing that, the name of its list or map.
 * An item reported both ways is 'contradictory'. 1-based positions (row, line) are not
 * recognised.
 *
 * When nothing is recognised the checks do not fail the server: that is a harness limitation
 * (SC_BULK_UNRECOGNISED, kit/bulk-verdict.ts), reported with the body.
 *
 * With `failuresPath` (--bulk-failures-path, e.g. `$.errors`, `$.data.failed`) only the value
 * there is read, as a failure list or map under rules 2–4 (entries carrying a success status of
 * their own still count as successes, so the path may name a results list), and nothing else.
 */
import { isJsonObject } from '../base/json.ts';
import { jsonPathValue, parsePath } from './bulk-report/json-path.ts';
import { Reader } from './bulk-report/reader.ts';
import type { BulkReport, BulkReportOptions, BulkRequestItem } from './bulk-report/types.ts';

export { jsonPathValue } from './bulk-report/json-path.ts';
export type { BulkReport, BulkReportOptions, BulkRequestItem, ItemReport } from './bulk-report/types.ts';

/**
 * Reads the per-item report of a bulk answer: for each request item (by index), whether the
 * answer reports it failed, succeeded, both, or not at all. `request` lists the items as sent
 * (their id and, where it identifies the item, external_id) or the ids of a bulk check delete.
 */
export function recogniseBulkReport(
  body: unknown,
  request: readonly BulkRequestItem[],
  options: BulkReportOptions = {},
): BulkReport {
  const reader = new Reader(request);
  if (options.failuresPath !== undefined) {
    const path = options.failuresPath;
    if (!parsePath(path)) {
      reader.notes.push(`${path} is not a JSON path of keys and indexes`);
      return reader.report(false);
    }
    const value = jsonPathValue(body, path);
    if (Array.isArray(value)) {
      reader.outcomeList(value, path, 'failed', 'configured failure list');
      return reader.report(true);
    }
    if (isJsonObject(value) && (reader.itemKeyed(value) || Object.keys(value).length === 0)) {
      reader.keyedMap(value, path, 'failed', 'configured failure map');
      return reader.report(true);
    }
    reader.notes.push(
      value === undefined
        ? `nothing at ${path}`
        : `the value at ${path} is neither a list nor a map keyed by index, id or external_id`,
    );
    return reader.report(false);
  }
  reader.explore(body, '$', 0, undefined);
  return reader.report(reader.signals.some((s) => s.length > 0) || reader.contexts.length > 0);
}
