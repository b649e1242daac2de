/**
 * Judging the per-item report of a bulk answer (BULK-*-REPORTED, UNIQUE-BULK-REPORTED, TENANT-BULK-*-REPORTED): the
 * recogniser's reading at the run's --bulk-failures-path, the verdict on it, and how it is described in a report.
 * What the recogniser could not read, or could not tie to an item, is a harness limitation, never the server's.
 */
import { stringifyJson } from '../base/json.ts';
import type { ReceivedResponse } from '../client/transport.ts';
import { HarnessError } from '../errors.ts';
import { fail } from './assert.ts';
import {
  jsonPathValue,
  mayReportFailed,
  recogniseBulkReport,
  type BulkReport,
  type BulkRequestItem,
} from './bulk-report.ts';
import type { Harness } from './context.ts';

/** An item of a batch, by its index in the request, with what makes it succeed or fail. */
export interface ExpectedItem {
  index: number;
  /** `unknown case id 2147481234`, `invalid delete_after (out-of-range)`, … */
  label: string;
}

/** The recogniser's reading of a bulk answer, at the run's --bulk-failures-path when one is set. */
export function readBulkReport(t: Harness, res: ReceivedResponse, request: readonly BulkRequestItem[]): BulkReport {
  return recogniseBulkReport(res.json, request, t.run.bulkFailuresPath ? { failuresPath: t.run.bulkFailuresPath } : {});
}

const BODY_SHOWN = 1200;

/** The body of an answer for a message, cut at BODY_SHOWN characters. */
export function shownBody(res: ReceivedResponse): string {
  return res.text.length > BODY_SHOWN ? `${res.text.slice(0, BODY_SHOWN)}… (${res.text.length} chars)` : res.text;
}

function hint(failuresPath: string | undefined): string {
  return failuresPath
    ? `(failures read only at --bulk-failures-path ${failuresPath})`
    : 'If this server lists failed items in a shape screenconf does not recognise, name that list with ' +
        '--bulk-failures-path (a JSON path such as $.errors or $.data.failed).';
}

function list(items: readonly ExpectedItem[]): string {
  return items.map((i) => `item ${i.index} (${i.label})`).join(', ');
}

/** What a verdict on the report judges, as the object of "could not judge whether …". */
function judged(expected: { failed: readonly ExpectedItem[]; applied: readonly ExpectedItem[] }): string {
  const failed = expected.failed.length
    ? `${list(expected.failed)} ${expected.failed.length > 1 ? 'are' : 'is'} reported as failed`
    : '';
  const applied = expected.applied.length
    ? `${list(expected.applied)} ${expected.applied.length > 1 ? 'are' : 'is'} not reported as failed`
    : '';
  return [failed, applied].filter((s) => s !== '').join(', and whether ') || 'how its items are reported';
}

/**
 * Judges the per-item report of a bulk answer: each item of `failed` is reported as failed, and no item of
 * `applied` is. Every item at fault is named in one message, with the shape the recogniser saw and the body. An
 * answer it cannot read, or a failed item it finds nowhere while part of the answer stays unplaced (a label whose
 * index may count from 0 or from 1, a message naming no item), is not judged: that part may be the item's report.
 */
export function expectFailuresReported(
  t: Harness,
  res: ReceivedResponse,
  request: readonly BulkRequestItem[],
  expected: { failed: readonly ExpectedItem[]; applied: readonly ExpectedItem[] },
  what: string,
): BulkReport {
  const failuresPath = t.run.bulkFailuresPath;
  const report = readBulkReport(t, res, request);
  const expectation =
    'each failed item reported as failed (by its id, external_id or index), and no applied item reported as failed';
  const limitation = (why: string, items: string) =>
    new HarnessError(
      'SC_BULK_UNRECOGNISED',
      `${what}: ${why}, so it could not judge whether ${items} (a harness limitation, not a failure of the ` +
        `server): HTTP ${res.status} ${shownBody(res)}\n${hint(failuresPath)}`,
    );
  if (!report.recognised) {
    // Not a verdict on the server: the interface does not show the shape of a per-item report.
    const notes = report.notes.length ? ` (${report.notes.join('; ')})` : '';
    throw limitation(`screenconf does not recognise how this answer reports its items${notes}`, judged(expected));
  }
  const at = (i: number) => report.where[i]!.join(', ');
  const problems: string[] = [];
  const undecided: ExpectedItem[] = [];
  for (const item of expected.failed) {
    const state = report.items[item.index];
    if (state === 'succeeded')
      problems.push(`item ${item.index} (${item.label}) failed but is reported as a success at ${at(item.index)}`);
    else if (state === 'unreported' && mayReportFailed(report, item.index).length > 0) undecided.push(item);
    else if (state === 'unreported')
      problems.push(`item ${item.index} (${item.label}) failed but is not reported at all`);
    else if (state === 'contradictory')
      problems.push(
        `item ${item.index} (${item.label}) failed but is reported both as failed and as succeeded at ` +
          `${at(item.index)}`,
      );
  }
  for (const item of expected.applied) {
    const state = report.items[item.index];
    if (state === 'failed' || state === 'contradictory')
      problems.push(`item ${item.index} (${item.label}) was applied but is reported as failed at ${at(item.index)}`);
  }
  if (problems.length > 0) {
    fail(
      `${what}: the per-item failure report`,
      expectation,
      `${problems.join('; ')}\nshape recognised: ${report.shape}\nbody: ${shownBody(res)}\n${hint(failuresPath)}`,
      { judged: [res] },
    );
  }
  if (undecided.length > 0) {
    const parts = [...new Set(mayReportFailed(report, undecided[0]!.index).map((u) => `${u.where}: ${u.why}`))];
    const more = parts.length > 3 ? `; and ${parts.length - 3} more` : '';
    throw limitation(
      `screenconf finds ${list(undecided)} nowhere in this answer, but could not tie every part of it to an item ` +
        `(${parts.slice(0, 3).join('; ')}${more}); shape recognised: ${report.shape}`,
      `${list(undecided)} ${undecided.length > 1 ? 'are' : 'is'} reported as failed`,
    );
  }
  return report;
}

/** One line on a report for an observation: the status, the shape, and the entry of one failed item. */
export function describeReport(res: ReceivedResponse, report: BulkReport, sample?: ExpectedItem): string {
  let entry = '';
  const where = sample ? report.where[sample.index]?.[0] : undefined;
  if (sample && where)
    entry =
      `; the entry for item ${sample.index} (${sample.label}) is ` +
      `${stringifyJson(jsonPathValue(res.json, where))?.slice(0, 240)}`;
  const unrecognised =
    `unrecognised${report.notes.length ? ` (${report.notes.join('; ')})` : ''}: ` + `${shownBody(res).slice(0, 240)}`;
  const unplaced = report.unplaced.length
    ? `; not tied to an item: ${[...new Set(report.unplaced.map((u) => u.where))].slice(0, 3).join(', ')}`
    : '';
  return `HTTP ${res.status}; ${report.recognised ? report.shape : unrecognised}${entry}${unplaced}`;
}

/** Each item as the recogniser reads it, for an observation: `0 succeeded, 1 failed`. */
export function describeItems(report: BulkReport): string {
  return report.items.map((s, i) => `item ${i} ${s}`).join(', ');
}
