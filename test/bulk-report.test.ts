/** The recogniser of per-item failure reports (src/kit/bulk-report.ts): many shapes; what a batch read back shows. */
import { describe, expect, it } from 'vitest';
import type { ReceivedResponse } from '../src/client/transport.ts';
import { jsonPathValue, recogniseBulkReport, type BulkRequestItem } from '../src/kit/bulk-report.ts';
import { expectDeleteOfNoCase } from '../src/kit/assert.ts';
import {
  expectBatchReport,
  expectBatchSuccess,
  expectOverLimitRefused,
  readBackProblems,
  type MixedEntry,
  type ReadBack,
} from '../src/kit/bulk.ts';
import { expectFailuresReported } from '../src/kit/bulk-verdict.ts';
import type { Harness } from '../src/kit/context.ts';
import { HarnessError } from '../src/errors.ts';

/** Cases 501, 502, 503 (ids far from any index). */
const CASES: BulkRequestItem[] = [{ id: 501 }, { id: 502 }, { id: 503 }];
/** Customers named by id, by external_id, by id. */
const CUSTOMERS: BulkRequestItem[] = [{ id: 501 }, { external_id: 'cust-b' }, { id: 503 }];

function items(body: unknown, request: readonly BulkRequestItem[] = CASES, failuresPath?: string) {
  return recogniseBulkReport(body, request, failuresPath === undefined ? {} : { failuresPath }).items;
}

describe('results lists with a per-item status', () => {
  it("reads the reference server's shape: results with index and status", () => {
    const body = {
      succeeded: 2,
      failed: 1,
      results: [
        { index: 0, id: 501, status: 'updated' },
        { index: 1, id: 502, status: 'failed', error: { code: 'not_found' } },
        { index: 2, id: 503, status: 'updated' },
      ],
    };
    const report = recogniseBulkReport(body, CASES);
    expect(report.items).toEqual(['succeeded', 'failed', 'succeeded']);
    expect(report.recognised).toBe(true);
    expect(report.shape).toContain('results list at $.results');
    expect(report.where[1]).toEqual(['$.results[1]']);
  });

  it('matches by id when the list is in another order, with an ok flag', () => {
    const body = {
      results: [
        { id: 503, ok: true },
        { id: 501, ok: true },
        { id: 502, ok: false, message: 'no such case' },
      ],
    };
    expect(items(body)).toEqual(['succeeded', 'failed', 'succeeded']);
  });

  it('matches by position when entries carry no identifier and there is one per item', () => {
    const body = { data: [{ success: true }, { success: false, reason: 'invalid' }, { success: true }] };
    const report = recogniseBulkReport(body, CASES);
    expect(report.items).toEqual(['succeeded', 'failed', 'succeeded']);
    expect(report.shape).toContain('matched by position');
  });

  it('reads HTTP statuses per item (a multi-status answer)', () => {
    const body = {
      responses: [
        { id: 501, status: 200 },
        { id: 502, status: 404, body: { detail: 'Not found.' } },
        { id: 503, status_code: 204 },
      ],
    };
    expect(items(body)).toEqual(['succeeded', 'failed', 'succeeded']);
  });

  it('reads an error field: non-empty fails, null succeeds', () => {
    const body = {
      items: [
        { id: 501, error: null },
        { id: 502, error: 'Case not found' },
        { id: 503, errors: [] },
      ],
    };
    expect(items(body)).toEqual(['succeeded', 'failed', 'succeeded']);
  });

  it('reads a bare array answer', () => {
    expect(
      items([
        { id: 501, result: 'OK' },
        { id: 502, result: 'NOT_FOUND' },
        { id: 503, result: 'OK' },
      ]),
    ).toEqual(['succeeded', 'failed', 'succeeded']);
  });

  it('says nothing about items a results list leaves out (a silent failure)', () => {
    const body = {
      results: [
        { index: 0, status: 'updated' },
        { index: 2, status: 'updated' },
      ],
    };
    expect(items(body)).toEqual(['succeeded', 'unreported', 'succeeded']);
  });

  it('reads a failure reported as a success as a success', () => {
    const body = {
      results: [
        { index: 0, status: 'updated' },
        { index: 1, status: 'updated' },
        { index: 2, status: 'updated' },
      ],
    };
    expect(items(body)).toEqual(['succeeded', 'succeeded', 'succeeded']);
  });

  it('matches customers by external_id when the item named one, and by id otherwise', () => {
    const body = {
      results: [
        { id: 503, external_id: 'c3', status: 'updated' },
        { id: null, external_id: 'cust-b', status: 'error' },
      ],
    };
    expect(items(body, CUSTOMERS)).toEqual(['unreported', 'failed', 'succeeded']);
  });

  it('matches through a nested item echo', () => {
    const body = {
      outcomes: [
        { item: { id: 502 }, state: 'rejected' },
        { item: { id: 501 }, state: 'applied' },
      ],
    };
    expect(items(body)).toEqual(['succeeded', 'failed', 'unreported']);
  });

  it('does not read the status of a Case or a Check as a report', () => {
    const check = { id: 77, check_type: 'PEP', status: 'ERROR', risk_score: null };
    const body = { updated: [{ id: 501, checks: [check] }], checks: [check] };
    const report = recogniseBulkReport(body, CASES);
    expect(report.items).toEqual(['succeeded', 'unreported', 'unreported']);
  });

  it('calls an entry with opposite signs contradictory', () => {
    expect(items({ results: [{ index: 0, status: 'updated', error: 'boom' }] })).toEqual([
      'contradictory',
      'unreported',
      'unreported',
    ]);
  });
});

describe('separate lists of successes and failures', () => {
  it('reads lists of bare ids', () => {
    const report = recogniseBulkReport({ updated: [501, 503], failed: [502] }, CASES);
    expect(report.items).toEqual(['succeeded', 'failed', 'succeeded']);
    expect(report.shape).toContain('failure list at $.failed (entries are ids)');
  });

  it('reads suffixed and camel-case names: failed_ids, deletedIds, not_found', () => {
    expect(items({ deletedIds: [501], not_found: [502], failed_ids: [503] })).toEqual([
      'succeeded',
      'failed',
      'failed',
    ]);
  });

  it('reads failure objects carrying an id, an index or an external_id', () => {
    expect(items({ errors: [{ id: 502, message: 'not found' }] })).toEqual(['unreported', 'failed', 'unreported']);
    expect(items({ errors: [{ index: 2, message: 'invalid' }] })).toEqual(['unreported', 'unreported', 'failed']);
    expect(items({ rejected: [{ external_id: 'cust-b', reason: 'unknown' }] }, CUSTOMERS)).toEqual([
      'unreported',
      'failed',
      'unreported',
    ]);
  });

  it('reads bare external_ids and numeric strings', () => {
    expect(items({ failures: ['cust-b', '503'] }, CUSTOMERS)).toEqual(['unreported', 'failed', 'failed']);
  });

  it('reads lists nested under a neutral key', () => {
    expect(items({ data: { succeeded: [{ id: 501 }], failed: [{ id: 503, error: { code: 404 } }] } })).toEqual([
      'succeeded',
      'unreported',
      'failed',
    ]);
  });

  it('inherits the outcome of a named object down to its list', () => {
    expect(items({ failed: { count: 1, items: [502] } })).toEqual(['unreported', 'failed', 'unreported']);
  });

  it('ignores counts', () => {
    const report = recogniseBulkReport({ succeeded: 2, failed: 1 }, CASES);
    expect(report.recognised).toBe(false);
    expect(report.shape).toBe('unrecognised');
  });

  it('calls an item found in both lists contradictory', () => {
    expect(items({ updated: [501, 502], failed: [502] })).toEqual(['succeeded', 'contradictory', 'unreported']);
  });

  it('reads a positional error list, empty where the item succeeded', () => {
    const report = recogniseBulkReport(
      { errors: [null, { full_name: ['Ensure this field has no more than 255 characters.'] }, {}] },
      CUSTOMERS,
    );
    expect(report.items).toEqual(['succeeded', 'failed', 'succeeded']);
    expect(report.shape).toContain('positional failure list');
  });

  it('reads an empty failure list as a report that names no failure', () => {
    const report = recogniseBulkReport({ errors: [] }, CASES);
    expect(report.recognised).toBe(true);
    expect(report.items).toEqual(['unreported', 'unreported', 'unreported']);
    expect(report.shape).toContain('empty');
  });
});

describe('objects keyed by index, id or external_id', () => {
  it('reads a failure map keyed by index', () => {
    expect(items({ errors: { '1': 'Case not found' } })).toEqual(['unreported', 'failed', 'unreported']);
  });

  it('reads a results map keyed by id with status words', () => {
    const report = recogniseBulkReport({ results: { '501': 'updated', '502': 'not_found', '503': 'updated' } }, CASES);
    expect(report.items).toEqual(['succeeded', 'failed', 'succeeded']);
    expect(report.shape).toContain('keyed by id');
  });

  it('reads a top-level map keyed by index with status objects', () => {
    expect(items({ '0': { ok: true }, '1': { ok: false }, '2': { ok: true } })).toEqual([
      'succeeded',
      'failed',
      'succeeded',
    ]);
  });

  it('reads a failure map keyed by external_id', () => {
    expect(items({ failed: { 'cust-b': { detail: 'no such customer' } } }, CUSTOMERS)).toEqual([
      'unreported',
      'failed',
      'unreported',
    ]);
  });
});

describe('bare numbers: an index 3 or an id 3', () => {
  const SMALL_IDS: BulkRequestItem[] = [{ id: 7 }, { id: 3 }, { id: 9 }, { id: 12 }];

  it('reads a number that is a requested id as that id', () => {
    expect(items({ failed: [3] }, SMALL_IDS)).toEqual(['unreported', 'failed', 'unreported', 'unreported']);
  });

  it('reads a number that is no requested id as an index', () => {
    expect(items({ failed: [2] }, SMALL_IDS)).toEqual(['unreported', 'unreported', 'failed', 'unreported']);
  });

  it('reads a list as a whole: all valid indexes, not all ids, means indexes', () => {
    // 3 is a requested id, but 0 is not: the list is read as indexes 0 and 3.
    expect(items({ failed: [0, 3] }, SMALL_IDS)).toEqual(['failed', 'unreported', 'unreported', 'failed']);
  });

  it('reads a list as a whole: all requested ids means ids', () => {
    expect(items({ failed: [3, 12] }, SMALL_IDS)).toEqual(['unreported', 'failed', 'unreported', 'failed']);
  });

  it('falls back number by number when neither reading fits the whole list', () => {
    // 12 is only an id, 2 only an index.
    expect(items({ failed: [12, 2] }, SMALL_IDS)).toEqual(['unreported', 'unreported', 'failed', 'failed']);
  });

  it('prefers explicit fields over bare numbers', () => {
    expect(items({ failed: [{ index: 3 }] }, SMALL_IDS)).toEqual(['unreported', 'unreported', 'unreported', 'failed']);
    expect(items({ failed: [{ id: 3 }] }, SMALL_IDS)).toEqual(['unreported', 'failed', 'unreported', 'unreported']);
  });

  it('reads map keys by the same rule', () => {
    expect(items({ errors: { '3': 'x' } }, SMALL_IDS)).toEqual(['unreported', 'failed', 'unreported', 'unreported']);
    expect(items({ errors: { '0': 'x', '3': 'y' } }, SMALL_IDS)).toEqual([
      'failed',
      'unreported',
      'unreported',
      'failed',
    ]);
  });

  it('reads duplicate ids in the request as every item with that id', () => {
    expect(items({ failed: [5] }, [5, 5, 6])).toEqual(['failed', 'failed', 'unreported']);
    // With one entry per item, in order, the positions tell them apart.
    expect(
      items(
        {
          results: [
            { id: 5, status: 'deleted' },
            { id: 5, status: 'not_found' },
            { id: 6, status: 'deleted' },
          ],
        },
        [5, 5, 6],
      ),
    ).toEqual(['succeeded', 'failed', 'succeeded']);
  });

  it('reads bare check ids of a bulk delete', () => {
    expect(items({ deleted: [41, 42], not_found: [999999] }, [41, 999999, 42])).toEqual([
      'succeeded',
      'failed',
      'succeeded',
    ]);
  });
});

describe('the shapes of other servers (issue 14), without --bulk-failures-path', () => {
  /** Cases 1, 2, 3: ids that are also valid indexes. */
  const SMALL: BulkRequestItem[] = [{ id: 1 }, { id: 2 }, { id: 3 }];

  it('results[{index, id, ok, errors}]', () => {
    const body = {
      results: [
        { index: 0, id: 501, ok: true, errors: [] },
        { index: 1, id: 502, ok: false, errors: ['no such case'] },
        { index: 2, id: 503, ok: true, errors: [] },
      ],
    };
    expect(items(body)).toEqual(['succeeded', 'failed', 'succeeded']);
  });

  it('succeeded[ids] and errors[{index, reason}]', () => {
    const body = { succeeded: [501, 503], errors: [{ index: 1, reason: 'not found' }] };
    expect(items(body)).toEqual(['succeeded', 'failed', 'succeeded']);
  });

  it('results[{id, status}], customers by external_id', () => {
    const body = {
      results: [
        { id: 501, status: 'updated' },
        { external_id: 'cust-b', status: 'not_found' },
        { id: 503, status: 'invalid' },
      ],
    };
    expect(items(body, CUSTOMERS)).toEqual(['succeeded', 'failed', 'failed']);
  });

  it('reads bare numbers as indexes when the name says so, even where they are also requested ids', () => {
    expect(items({ failed_indexes: [1] }, SMALL)).toEqual(['unreported', 'failed', 'unreported']);
    expect(items({ errorIndices: [2], updated_ids: [1, 2] }, SMALL)).toEqual(['succeeded', 'succeeded', 'failed']);
    expect(items({ failed_ids: [1] }, SMALL)).toEqual(['failed', 'unreported', 'unreported']);
  });

  it("does not take a returned case's own failed: true for a failed item", () => {
    const body = {
      results: [
        { id: 501, status: 'updated', case: { id: 501 } },
        { index: 1, ok: false },
      ],
      updated: [{ id: 503, failed: true, is_complete: true, checks: [], customer: { id: 9 } }],
    };
    expect(items(body)).toEqual(['succeeded', 'failed', 'succeeded']);
  });
});

describe('Promise.allSettled answers (issue 34 §2), for one item as for many', () => {
  it('reads fulfilled and rejected entries by position', () => {
    const body = [
      { status: 'fulfilled', value: { id: 501 } },
      { status: 'rejected', reason: { code: 'not_found', message: 'no case 502' } },
      { status: 'fulfilled', value: { id: 503 } },
    ];
    const report = recogniseBulkReport(body, CASES);
    expect(report.items).toEqual(['succeeded', 'failed', 'succeeded']);
    expect(report.shape).toContain('results list at $ with a per-item status, matched by position');
  });

  it('reads a one-item answer as it reads a many-item one: fulfilled with no value, or rejected', () => {
    expect(items([{ status: 'fulfilled' }], [41])).toEqual(['succeeded']);
    expect(items([{ status: 'rejected', reason: {} }], [41])).toEqual(['failed']);
  });

  it("reads the isFulfilled / isRejected flags of p-settle and Bluebird's reflect()", () => {
    expect(items([{ isFulfilled: true, isRejected: false, value: 1 }], [41])).toEqual(['succeeded']);
    expect(items([{ isFulfilled: false, isRejected: true, reason: 'x' }], [41])).toEqual(['failed']);
  });

  it('keeps an entry whose status it cannot read as unread, not as silent', () => {
    const report = recogniseBulkReport(
      {
        results: [
          { id: 501, status: 'parked' },
          { id: 502, status: 'failed' },
        ],
      },
      CASES,
    );
    expect(report.items).toEqual(['unreported', 'failed', 'unreported']);
    expect(report.unplaced).toEqual([{ where: '$.results[0]', items: [0], why: 'a status screenconf does not read' }]);
  });
});

describe('labels that carry an index, an id or an external_id (issue 34 §7)', () => {
  const CUSTOMER_45: BulkRequestItem[] = [{ id: 45 }, {}];

  it('reads "item 1" keys, counted from 0 because item 0 is reported a success', () => {
    const body = { updated: [45], errors: { 'item 1': ['An item needs an id or an external_id.'] } };
    const report = recogniseBulkReport(body, CUSTOMER_45);
    expect(report.items).toEqual(['succeeded', 'failed']);
    expect(report.where[1]).toEqual(['$.errors["item 1"]']);
    expect(report.shape).toMatch(
      /"item 1" counted from 0 \(from 1, "item 1" \(failed\) would be item 0, which \$\.updated/,
    );
    expect(report.unplaced).toEqual([]);
  });

  it('reads "#1" keys counted from 1 when counting from 0 would name no item', () => {
    expect(items({ '#1': 'ok', '#2': 'not found', '#3': 'ok' })).toEqual(['succeeded', 'failed', 'succeeded']);
    expect(items({ errors: { 'Item #3': 'no such case' } })).toEqual(['unreported', 'unreported', 'failed']);
  });

  it('reads an ordinal counted from 1 when only that count agrees with the rest of the answer', () => {
    const report = recogniseBulkReport({ failed_ids: [502], errors: { 'item 2': 'no such case' } }, CASES);
    expect(report.items).toEqual(['unreported', 'failed', 'unreported']);
    expect(report.shape).toContain('counted from 1 (so the rest of the answer agrees with them)');
  });

  it('reads Rails, Spring and Express subscripts: items[1].full_name, counted from 0', () => {
    expect(items({ errors: { 'items[1].full_name': ['is too long'] } })).toEqual([
      'unreported',
      'failed',
      'unreported',
    ]);
    const express = { errors: [{ type: 'field', path: 'items[2].id', msg: 'Invalid value', location: 'body' }] };
    expect(items(express)).toEqual(['unreported', 'unreported', 'failed']);
    const spring = { errors: [{ field: 'Items[0].Id', defaultMessage: 'must not be null' }], updated: [502, 503] };
    expect(items(spring)).toEqual(['failed', 'succeeded', 'succeeded']);
  });

  it("reads Laravel's items.1.id keys", () => {
    const laravel = {
      message: 'The given data was invalid.',
      errors: { 'items.1.id': ['The selected id is invalid.'] },
    };
    expect(items(laravel)).toEqual(['unreported', 'failed', 'unreported']);
  });

  it("reads pydantic's loc and JSON Pointer paths (JSON:API source.pointer, ajv instancePath)", () => {
    const pydantic = { errors: [{ loc: ['body', 'items', 2, 'id'], msg: 'field required', type: 'missing' }] };
    expect(items(pydantic)).toEqual(['unreported', 'unreported', 'failed']);
    const jsonApi = { errors: [{ status: '404', source: { pointer: '/data/1' }, detail: 'not found' }] };
    expect(items(jsonApi)).toEqual(['unreported', 'failed', 'unreported']);
    expect(items({ errors: [{ instancePath: '/items/0/full_name', message: 'too long' }] })).toEqual([
      'failed',
      'unreported',
      'unreported',
    ]);
  });

  it('reads a message that opens with a label', () => {
    expect(items({ updated: [501, 502], errors: ['Item 2: case not found'] })).toEqual([
      'succeeded',
      'succeeded',
      'failed',
    ]);
  });

  it('reads ids and external_ids inside labels, whatever counts the indexes', () => {
    expect(items({ errors: { 'case 502': 'not found', 'id=503': 'invalid' } })).toEqual([
      'unreported',
      'failed',
      'failed',
    ]);
    expect(items({ errors: { 'customer cust-b': ['no such customer'] } }, CUSTOMERS)).toEqual([
      'unreported',
      'failed',
      'unreported',
    ]);
  });

  it('leaves labels unplaced when nothing in the answer tells whether they count from 0 or from 1', () => {
    const report = recogniseBulkReport({ errors: { 'item 1': ['An item needs an id or an external_id.'] } }, CASES);
    expect(report.items).toEqual(['unreported', 'unreported', 'unreported']);
    expect(report.unplaced).toEqual([
      {
        where: '$.errors["item 1"]',
        outcome: 'failed',
        why: expect.stringContaining('may count items from 0 or from 1'),
      },
    ]);
  });

  it('leaves labels unplaced when they fit neither count', () => {
    const report = recogniseBulkReport({ updated: [501, 502, 503], errors: { 'item 1': 'x' } }, CASES);
    expect(report.items).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(report.unplaced[0]?.why).toContain('fit no count from 0 nor from 1');
  });

  it("does not take a subscript of an item's own field for the item's index", () => {
    const report = recogniseBulkReport({ errors: [{ field: 'sync_platforms[0].domain', message: 'required' }] }, CASES);
    expect(report.items).toEqual(['unreported', 'unreported', 'unreported']);
    expect(report.unplaced).toHaveLength(1);
  });

  it('keeps messages naming no item as unplaced failures', () => {
    const report = recogniseBulkReport({ updated: [501, 503], errors: ['something went wrong'], error: 'boom' }, CASES);
    expect(report.items).toEqual(['succeeded', 'unreported', 'succeeded']);
    expect(report.unplaced.map((u) => [u.where, u.outcome])).toEqual([
      ['$.errors[0]', 'failed'],
      ['$.error', 'failed'],
    ]);
  });
});

describe('answers it cannot interpret', () => {
  it.each([
    ['an empty object', {}],
    ['a flag', { ok: true }],
    ['a count', { count: 3 }],
    ['a string', 'done'],
    ['null', null],
    ['a list of bare numbers', [1, 2]],
  ])('%s is unrecognised', (_label, body) => {
    const report = recogniseBulkReport(body, CASES);
    expect(report.recognised).toBe(false);
    expect(report.shape).toBe('unrecognised');
    expect(report.items).toEqual(['unreported', 'unreported', 'unreported']);
  });

  it('notes a failure list that names no requested item', () => {
    const report = recogniseBulkReport({ errors: ['something went wrong with item three'] }, CASES);
    expect(report.recognised).toBe(false);
    expect(report.notes.join()).toContain('failure list at $.errors');
  });
});

describe('the configured failure path', () => {
  it('reads only the named list, under a name the recogniser does not know', () => {
    const body = { data: { problems: [{ ref: 'x', case: 502 }, 503] }, results: [{ index: 1, status: 'updated' }] };
    const report = recogniseBulkReport(body, CASES, { failuresPath: '$.data.problems' });
    expect(report.items).toEqual(['unreported', 'unreported', 'failed']);
    expect(report.shape).toContain('configured failure list at $.data.problems');
  });

  it('reads objects with an id or an index in it', () => {
    expect(items({ x: { bad: [{ id: 502 }, { index: 0 }] } }, CASES, '$.x.bad')).toEqual([
      'failed',
      'failed',
      'unreported',
    ]);
  });

  it('lets entries with a success status of their own count as successes', () => {
    expect(
      items(
        {
          r: [
            { index: 0, status: 'updated' },
            { index: 1, status: 'failed' },
          ],
        },
        CASES,
        '$.r',
      ),
    ).toEqual(['succeeded', 'failed', 'unreported']);
  });

  it('reads a configured map and an indexed step', () => {
    expect(items({ e: { '2': 'bad' } }, CASES, '$.e')).toEqual(['unreported', 'unreported', 'failed']);
    expect(items({ pages: [{ failed: [501] }] }, CASES, '$.pages[0].failed')).toEqual([
      'failed',
      'unreported',
      'unreported',
    ]);
  });

  it('is unrecognised when nothing is at the path', () => {
    const report = recogniseBulkReport({ errors: [502] }, CASES, { failuresPath: '$.failures' });
    expect(report.recognised).toBe(false);
    expect(report.notes).toEqual(['nothing at $.failures']);
  });

  it('recognises an empty configured list: no failure reported', () => {
    const report = recogniseBulkReport({ errors: [] }, CASES, { failuresPath: '$.errors' });
    expect(report.recognised).toBe(true);
    expect(report.items).toEqual(['unreported', 'unreported', 'unreported']);
  });
});

describe('jsonPathValue', () => {
  it('follows keys and indexes', () => {
    expect(jsonPathValue({ a: [{ b: 1 }] }, '$.a[0].b')).toBe(1);
    expect(jsonPathValue({ a: 1 }, '$.b')).toBeUndefined();
    expect(jsonPathValue({ a: 1 }, 'a')).toBeUndefined();
  });

  it('follows a key written as a JSON string in brackets, as a report names it', () => {
    expect(jsonPathValue({ errors: { 'item 1': ['x'] } }, '$.errors["item 1"]')).toEqual(['x']);
    expect(jsonPathValue({ e: { 'a"b': 2 } }, '$.e["a\\"b"]')).toBe(2);
  });
});

describe('expectFailuresReported: the verdict and its message', () => {
  const harness = (bulkFailuresPath?: string) =>
    ({ run: bulkFailuresPath ? { bulkFailuresPath } : {} }) as unknown as Harness;
  const answer = (json: unknown): ReceivedResponse => ({ status: 200, headers: {}, text: JSON.stringify(json), json });
  const failed = [{ index: 1, label: 'unknown case id 9' }];
  const applied = [{ index: 0, label: 'valid delete_after' }];

  it('passes when the failed item is reported failed and the applied one is not', () => {
    const res = answer({
      results: [
        { index: 0, status: 'updated' },
        { index: 1, status: 'failed' },
      ],
    });
    expect(() =>
      expectFailuresReported(harness(), res, [{ id: 5 }, { id: 9 }], { failed, applied }, 'bulk update'),
    ).not.toThrow();
  });

  it('names the item reported as a success, where, and the body', () => {
    const res = answer({
      results: [
        { index: 0, status: 'updated' },
        { index: 1, status: 'updated' },
      ],
    });
    expect(() =>
      expectFailuresReported(harness(), res, [{ id: 5 }, { id: 9 }], { failed, applied }, 'bulk update'),
    ).toThrow(
      /item 1 \(unknown case id 9\) failed but is reported as a success at \$\.results\[1\][\s\S]*body: \{"results"/,
    );
  });

  it('fails an applied item reported as failed', () => {
    const res = answer({ failed: [5, 9] });
    expect(() =>
      expectFailuresReported(harness(), res, [{ id: 5 }, { id: 9 }], { failed, applied }, 'bulk update'),
    ).toThrow(/item 0 \(valid delete_after\) was applied but is reported as failed/);
  });

  it('calls an answer it cannot interpret a harness limitation, shows it and points to --bulk-failures-path', () => {
    const res = answer({ ok: true });
    let thrown: unknown;
    try {
      expectFailuresReported(harness(), res, [{ id: 5 }, { id: 9 }], { failed, applied }, 'bulk update');
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(HarnessError);
    expect((thrown as HarnessError).code).toBe('SC_BULK_UNRECOGNISED');
    expect((thrown as HarnessError).inCheck).toBe('not-judged');
    expect((thrown as Error).message).toMatch(
      /harness limitation[\s\S]*HTTP 200 \{"ok":true\}[\s\S]*--bulk-failures-path/,
    );
  });

  const thrownBy = (fn: () => unknown): unknown => {
    try {
      fn();
    } catch (err) {
      return err;
    }
    return undefined;
  };

  it('names the item it could not judge in a one-item answer it cannot read (issue 34 §2)', () => {
    const res = answer([{ state: 'settled' }]);
    const item = { index: 0, label: 'check 41, the last of case 40' };
    const err = thrownBy(() => expectFailuresReported(harness(), res, [41], { failed: [], applied: [item] }, 'delete'));
    expect((err as HarnessError).code).toBe('SC_BULK_UNRECOGNISED');
    expect((err as Error).message).toContain(
      'could not judge whether item 0 (check 41, the last of case 40) is not reported as failed',
    );
  });

  it('passes the answer of the issue: the failed item under "item 1", the applied one in updated (§7)', () => {
    const res = answer({ updated: [5], errors: { 'item 1': ['An item needs an id or an external_id.'] } });
    const noId = [{ index: 1, label: 'no id nor external_id' }];
    expect(() =>
      expectFailuresReported(harness(), res, [{ id: 5 }, {}], { failed: noId, applied }, 'bulk update'),
    ).not.toThrow();
  });

  it('does not judge a failed item found nowhere while part of the answer stays unplaced (§7)', () => {
    const res = answer({ updated: [5], errors: { detail: 'An item needs an id or an external_id.' } });
    const err = thrownBy(() =>
      expectFailuresReported(harness(), res, [{ id: 5 }, { id: 9 }], { failed, applied }, 'bulk update'),
    );
    expect(err).toBeInstanceOf(HarnessError);
    expect((err as HarnessError).inCheck).toBe('not-judged');
    expect((err as Error).message).toContain(
      'finds item 1 (unknown case id 9) nowhere in this answer, but could not tie every part of it to an item ' +
        '($.errors.detail: a failure naming no item)',
    );
    // Labels beside other keys are read: the item is then placed, and judged.
    const labelled = answer({ updated: [5], errors: { 'item 1': ['x'], detail: 'An item failed.' } });
    expect(() =>
      expectFailuresReported(harness(), labelled, [{ id: 5 }, { id: 9 }], { failed, applied }, 'bulk update'),
    ).not.toThrow();
  });

  it('still fails a failed item left out when every part of the answer is placed (a silent failure)', () => {
    const res = answer({ updated: [5], errors: {} });
    expect(() =>
      expectFailuresReported(harness(), res, [{ id: 5 }, { id: 9 }], { failed, applied }, 'bulk update'),
    ).toThrow(/item 1 \(unknown case id 9\) failed but is not reported at all/);
  });

  it('still fails a failed item reported as a success, whatever stays unplaced', () => {
    const res = answer({ updated: [5, 9], errors: ['something failed'] });
    expect(() =>
      expectFailuresReported(harness(), res, [{ id: 5 }, { id: 9 }], { failed, applied }, 'bulk update'),
    ).toThrow(/item 1 \(unknown case id 9\) failed but is reported as a success at \$\.updated\[1\]/);
  });

  it('reads the configured path only', () => {
    const res = answer({ problems: [9], results: [{ index: 1, status: 'updated' }] });
    expect(() =>
      expectFailuresReported(harness('$.problems'), res, [{ id: 5 }, { id: 9 }], { failed, applied }, 'bulk update'),
    ).not.toThrow();
  });
});

describe('the one rule per answer: a batch, a batch over the limit, a DELETE of no case', () => {
  const harness = { run: {} } as unknown as Harness;
  const answer = (status: number, json?: unknown): ReceivedResponse => ({
    status,
    headers: {},
    text: json === undefined ? '' : JSON.stringify(json),
    json,
  });
  const request = [{ id: 5 }, { id: 9 }];

  it('a batch is a success, 200 with JSON, failing items or not; its report is read from any 2xx with JSON', () => {
    const report = { results: [{ index: 0, status: 'failed' }] };
    expect(() => expectBatchSuccess(answer(200, report), 'batch')).not.toThrow();
    expect(() => expectBatchSuccess(answer(207, report), 'batch')).toThrow(/HTTP 200 with a JSON body/);
    expect(() => expectBatchSuccess(answer(200), 'batch')).toThrow(/a JSON body/);
    expect(() => expectBatchReport(answer(207, report), 'batch')).not.toThrow();
    expect(() => expectBatchReport(answer(400, report), 'batch')).toThrow(/a 2xx/);
  });

  it('over the limit: a 4xx whole, or a 2xx reporting no item as a success; never anything else', () => {
    expect(expectOverLimitRefused(harness, answer(400, { detail: 'too many' }), request, 'over')).toMatch(
      /rejected whole \(HTTP 400\)/,
    );
    const perItem = {
      results: [
        { index: 0, status: 'failed' },
        { index: 1, status: 'failed' },
      ],
    };
    expect(expectOverLimitRefused(harness, answer(200, perItem), request, 'over')).toMatch(
      /HTTP 200, 2 of 2 items reported failed, none as a success/,
    );
    // An answer whose report cannot be read is judged by the reads alone.
    expect(expectOverLimitRefused(harness, answer(200, { ok: true }), request, 'over')).toMatch(/unrecognised/);
    const oneApplied = {
      results: [
        { index: 0, status: 'updated' },
        { index: 1, status: 'failed' },
      ],
    };
    expect(() => expectOverLimitRefused(harness, answer(200, oneApplied), request, 'over')).toThrow(
      /no item reported as a success[\s\S]*1 of 2 reported as a success, item 0 at \$\.results\[0\]/,
    );
    expect(() => expectOverLimitRefused(harness, answer(500, {}), request, 'over')).toThrow(/a 5xx never conforms/);
    expect(() => expectOverLimitRefused(harness, answer(302), request, 'over')).toThrow(/a 4xx, or a 2xx/);
  });

  it('a DELETE of no case: a 4xx or a 2xx no-op, never a 5xx, 1xx or 3xx', () => {
    for (const status of [204, 200, 404, 410, 403])
      expect(() => expectDeleteOfNoCase(answer(status), 'd')).not.toThrow();
    expect(() => expectDeleteOfNoCase(answer(500), 'd')).toThrow(/a 4xx, or a 2xx that deletes nothing \(a 5xx/);
    expect(() => expectDeleteOfNoCase(answer(301), 'd')).toThrow(/a 4xx, or a 2xx that deletes nothing/);
  });
});

describe('readBackProblems: what the record of a failing item must not show', () => {
  // What reading a bulk report takes of the run: no failures path of its own.
  const HARNESS = { run: {} } as Harness;
  type Entry = MixedEntry<{ id: number }, Record<string, unknown>>;
  const rb = (after: Record<string, unknown>): ReadBack<{ id: number }, Record<string, unknown>> => ({
    noun: 'case',
    read: async () => after,
    notApplied: () => [],
    sets: (_read, item) => Object.fromEntries(Object.entries(item).filter(([k]) => k !== 'id')),
    changed: (before, a) => Object.keys(a).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(a[k])),
    sendAlone: async () => ({ status: 200 }) as ReceivedResponse,
    key: (item) => ({ id: item.id }),
  });
  const problems = (before: Record<string, unknown>, item: Record<string, unknown>, after: Record<string, unknown>) => {
    const entry: Entry = {
      index: 0,
      label: 'invalid delete_after',
      item,
      valid: false,
      target: { id: 1, key: 'a:1', before },
    };
    const sent = { entries: [entry], res: {} as ReceivedResponse, exchange: undefined, what: 'bulk update' };
    return readBackProblems(HARNESS, sent, { pool: [], known: new Map() }, rb(after));
  };

  // webhook_url null was the case's already (a default): a correct server shows it too, so it is not looked for.
  it('names only values the item sent that the record did not hold before the batch', async () => {
    const before = { id: 1, webhook_url: null, external_id: 'a', delete_after: 5 };
    const item = { id: 1, webhook_url: null, external_id: 'b', delete_after: 'never' };
    const [p] = await problems(before, item, { ...before, external_id: 'b' });
    expect(p?.expect).toEqual({ unlike: [{ name: 'external_id', value: '"b"' }] });
  });

  it('names nothing when every value taken was held before (the change is told in words)', async () => {
    const before = { id: 1, webhook_url: null, note: 'x' };
    const [p] = await problems(before, { id: 1, webhook_url: null }, { ...before, note: 'y' });
    expect(p?.text).toContain('changed the case: note');
    expect(p?.expect).toBeUndefined();
  });

  // Which fields a bulk item takes is not shown: a valid item the server refuses alone too is its choice.
  it('blames a mixed batch for a valid item not applied unless that item alone is refused too', async () => {
    const valid = (appliedAlone: boolean) => {
      let sentAlone = false;
      const entry: Entry = { index: 0, label: 'valid sync_platforms', item: { id: 1, x: 1 }, valid: true };
      entry.target = { id: 1, key: 'a:1' };
      const sent = { entries: [entry], res: {} as ReceivedResponse, exchange: undefined, what: 'bulk update' };
      return readBackProblems(
        HARNESS,
        sent,
        { pool: [], known: new Map() },
        {
          ...rb({ id: 1 }),
          notApplied: () => (sentAlone && appliedAlone ? [] : ['x is absent']),
          sendAlone: async () => {
            sentAlone = true;
            return { status: appliedAlone ? 200 : 400 } as ReceivedResponse;
          },
        },
      );
    };
    expect(await valid(false)).toEqual([]);
    const [p] = await valid(true);
    expect(p?.text).toContain('item 0 (valid sync_platforms) not applied: x is absent');
  });
});
