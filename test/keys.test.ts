/**
 * Issue 33 §3, §5, §6 in parts: the key dimension's cells are the ones its kit sends, and a change a read shows is
 * blamed on the keys that could have made it; an open value taken is judged by its type (a number past binary64 as
 * a number, never null nor "Infinity"); customer_type "" reads back as "". Runs against faulty and legal servers
 * are in faults.test.ts and variants.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { shows } from '../src/kit/inputs/cell.ts';
import { changesOf, type GroupSent, judgeGroup } from '../src/kit/inputs/key-judge.ts';
import { keyCellsToSend } from '../src/kit/inputs/keys.ts';
import { integerBeyondDouble } from '../src/reference/variants/read-back.ts';
import { CATALOGUE } from '../src/spec/index.ts';
import { CUSTOMER_WRITE_FIELDS, CASE_WRITE_FIELDS } from '../src/spec/inputs/fields.ts';
import { KEY_REQUIREMENTS, keyCells } from '../src/spec/inputs/keys.ts';
import { valueKinds } from '../src/spec/inputs/values.ts';
import { tagger } from '../src/kit/inputs/send.ts';
import type { CaseBody } from '../src/kit/cases.ts';
import type { ReceivedResponse } from '../src/client/transport.ts';

const kindOf = (fields: typeof CASE_WRITE_FIELDS, name: string, kind: string) =>
  valueKinds(fields.find((f) => f.name === name)!.field, tagger()).find((k) => k.kind === kind)!;

describe('the key dimension', () => {
  it('sends exactly the cells it enumerates, each once, each with what it could change', () => {
    const ids = keyCells().map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(keyCellsToSend().map((c) => c.spec.id)).toEqual(ids);
    for (const c of keyCells().filter((x) => x.value !== 'unknown')) expect(c.reach.length, c.id).toBeGreaterThan(0);
  });

  it('every requirement owning a key oracle is a MUST of the catalogue', () => {
    const byId = new Map(CATALOGUE.map((r) => [r.id as string, r]));
    for (const id of KEY_REQUIREMENTS) expect(byId.get(id)?.level, id).toBe('MUST');
  });

  const base = {
    id: 7,
    customer: { id: 3, full_name: 'A', customer_type: 'COMPANY', external_id: null },
    checks: [],
    note: null,
    outcome: null,
    delete_after: -1,
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
  } as unknown as CaseBody;
  const res = (status: number, json: unknown) => ({ status, json, headers: {}, text: '' }) as ReceivedResponse;
  /** A PATCH group of the cells named, answered 200, its marker 5. */
  const group = (fields: string[], kind = 'flags'): GroupSent => {
    const cells = keyCellsToSend().filter((c) => c.spec.way === 'patch-keys' && c.spec.kind === kind);
    const chosen = cells.filter((c) => fields.includes(c.spec.field));
    for (const c of chosen) c.status = 200;
    return { cells: chosen, parts: [{ cells: chosen, marker: 5, res: res(200, { id: 7 }) }], tag: 'mtag' };
  };

  it('blames a change on the keys that could have made it, and passes the rest', () => {
    const sent = group(['$set', 'screenconf_unknown', 'is_deleted']);
    const after = { ...base, delete_after: 5, note: 'screenconf keys mtag' };
    judgeGroup(
      sent,
      base,
      true,
      changesOf(sent, undefined, base, { body: after, res: res(200, after) }, undefined, []),
    );
    const verdict = (f: string) => sent.cells.find((c) => c.spec.field === f)!.verdicts['read-only']!.result;
    expect(verdict('$set')).toBe('fail');
    expect(verdict('is_deleted')).toBe('pass');
    expect(verdict('screenconf_unknown')).toBe('pass');
  });

  it('a case gone from our reads fails hidden; a PATCH answered 2xx that wrote nothing fails own-record', () => {
    const gone = group(['is_deleted', 'screenconf_unknown']);
    judgeGroup(
      gone,
      base,
      false,
      changesOf(gone, undefined, base, { res: res(404, {}), problem: 'HTTP 404' }, undefined, []),
    );
    expect(gone.cells.find((c) => c.spec.field === 'is_deleted')!.verdicts.hidden!.result).toBe('fail');
    expect(gone.cells.find((c) => c.spec.field === 'is_deleted')!.verdicts['read-only']!.result).toBe('not-judged');
    const lost = group(['screenconf_unknown']);
    judgeGroup(lost, base, true, changesOf(lost, undefined, base, { body: base, res: res(200, base) }, undefined, []));
    expect(lost.cells[0]!.verdicts['own-record']!.result).toBe('fail');
  });

  it('updated_at may move on, never to the value sent nor back', () => {
    const sent = group(['updated_at'], 'plausible');
    sent.cells[0]!.value = '2001-02-03T04:05:06Z';
    const later = { ...base, delete_after: 5, updated_at: '2026-01-02T00:00:00Z' };
    judgeGroup(
      sent,
      base,
      true,
      changesOf(sent, undefined, base, { body: later, res: res(200, later) }, undefined, []),
    );
    expect(sent.cells[0]!.verdicts['read-only']!.result).toBe('pass');
    const kept = { ...base, delete_after: 5, updated_at: '2001-02-03T04:05:06Z' };
    const again = group(['updated_at'], 'plausible');
    again.cells[0]!.value = '2001-02-03T04:05:06Z';
    judgeGroup(
      again,
      base,
      true,
      changesOf(again, undefined, base, { body: kept, res: res(200, kept) }, undefined, []),
    );
    expect(again.cells[0]!.verdicts['read-only']!.result).toBe('fail');
  });
});

describe('an open value taken reads back as a value of its type (§5)', () => {
  it('a number past binary64: a JSON number of any size, never null nor a string', () => {
    const k = kindOf(CASE_WRITE_FIELDS, 'metadata', 'number-beyond-double');
    expect(k.expect.verdict).toBe('open');
    const stored = k.expect.verdict === 'open' ? k.expect.stored : undefined;
    const sent = JSON.parse(k.json!.replace('1e400', '0')) as { k: string };
    expect(shows(stored!, { n: null, k: sent.k }, null)).toBe(false);
    expect(shows(stored!, { n: 'Infinity', k: sent.k }, null)).toBe(false);
    expect(shows(stored!, { n: Number.POSITIVE_INFINITY, k: sent.k }, null)).toBe(true);
    expect(shows(stored!, { n: 10n ** 400n, k: sent.k }, null)).toBe(true);
    expect(shows(stored!, { n: 1, k: 'another' }, null)).toBe(false);
    expect(shows(stored!, { n: 1, k: sent.k, more: 1 }, null)).toBe(false);
  });

  it('a lone surrogate as a string; sync_platforms of other types as a list or an object', () => {
    const lone = kindOf(CASE_WRITE_FIELDS, 'webhook_url', 'lone-surrogate').expect;
    const stored = lone.verdict === 'open' ? lone.stored : undefined;
    expect(shows(stored!, null, null)).toBe(false);
    expect(shows(stored!, 'https://x/\uFFFDx', null)).toBe(true);
    const platforms = kindOf(CASE_WRITE_FIELDS, 'sync_platforms', 'number').expect;
    const p = platforms.verdict === 'open' ? platforms.stored : undefined;
    expect(shows(p!, 5, null)).toBe(false);
    expect(shows(p!, null, null)).toBe(false);
    expect(shows(p!, [{ domain: 'a', id: 'b' }], null)).toBe(true);
  });

  it('an arbitrary-precision reader keeps 1e400 as the integer it means', () => {
    expect(integerBeyondDouble('1e400')).toBe(10n ** 400n);
    expect(integerBeyondDouble('-2.5E+401')).toBe(-25n * 10n ** 400n);
    expect(integerBeyondDouble('1.5')).toBeUndefined();
  });
});

describe('a listed value is a value (§6)', () => {
  it('customer_type "" reads back as "", null as null or ""', () => {
    const empty = kindOf(CUSTOMER_WRITE_FIELDS, 'customer_type', 'value-empty').expect;
    expect(empty.verdict).toBe('accept');
    const stored = empty.verdict === 'accept' ? empty.stored : undefined;
    expect(shows(stored!, '', null)).toBe(true);
    expect(shows(stored!, null, null)).toBe(false);
    const none = kindOf(CUSTOMER_WRITE_FIELDS, 'customer_type', 'value-null').expect;
    const nullStored = none.verdict === 'accept' ? none.stored : undefined;
    expect(shows(nullStored!, null, null)).toBe(true);
    expect(shows(nullStored!, '', null)).toBe(true);
  });
});
