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
 *  3. An object keyed by index, id, external_id or a label (below): under a name of rule 2 every
 *     such key takes that outcome (other keys beside them are searched on); anywhere else it counts
 *     when every key is one and its values carry a status as in rule 1.
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
 *    number when it is one;
 *  - a label (bulk-report/labels.ts): a map key, a `field` / `path` / `loc` / `source.pointer`…
 *    of an entry, or the head of a message before its colon, that carries a requested id after a
 *    word for one (`case 45`, `id=45`), a requested external_id (`customer cust-b`), or an index:
 *    an array subscript (`items[1].id`, `items.1.id`, `/items/1`, `loc: ["body", "items", 1]`) or
 *    an ordinal (`item 1`, `#1`, `row 2`). Whether a kind of index counts from 0 or from 1 is
 *    decided from the answer (bulk-report/bases.ts): a count that puts a label on no item, or on an
 *    item the rest of the answer reports the other way, is out; when both fit, subscripts count
 *    from 0 and an ordinal by the count the rest of the answer agrees with, or stays unplaced.
 * An entry's own status decides its outcome; failing that, the name of its list or map.
 * An item reported both ways is 'contradictory'. A bare number is never read as 1-based.
 *
 * What reports items but cannot be tied to one (an ordinal whose count nothing tells, a message
 * naming no item, an entry naming no requested item, a failure-named string) or whose status is not
 * read is listed in `unplaced`: an item found nowhere else is then not "not reported" but could
 * not be judged (mayReportFailed). When nothing is recognised, or a failed item may be in an
 * unplaced part, the checks do not fail the server: that is a harness limitation
 * (SC_BULK_UNRECOGNISED, kit/bulk-verdict.ts), reported with the body.
 *
 * With `failuresPath` (--bulk-failures-path, e.g. `$.errors`, `$.data.failed`) only the value
 * there is read, as a failure list or map under rules 2–4 (entries carrying a success status of
 * their own still count as successes, so the path may name a results list), and nothing else.
 */
import { isJsonObject } from '../base/json.ts';
import { jsonPathValue, parsePath } from './bulk-report/json-path.ts';
import { Reader } from './bulk-report/reader.ts';
import type { BulkReport, BulkReportOptions, BulkRequestItem, Unplaced } from './bulk-report/types.ts';

export { jsonPathValue } from './bulk-report/json-path.ts';
export type { BulkReport, BulkReportOptions, BulkRequestItem, ItemReport, Unplaced } from './bulk-report/types.ts';

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
  return reader.report();
}

/**
 * The parts of an answer not tied to an item that may report item `index` as failed: those reporting a failure (or
 * saying nothing readable) about any item, or about that one. An item found nowhere else is then not "not
 * reported": it could not be judged.
 */
export function mayReportFailed(report: BulkReport, index: number): Unplaced[] {
  return report.unplaced.filter((u) => u.outcome !== 'succeeded' && (u.items === undefined || u.items.includes(index)));
}
