/**
 * The body dimension's own parts (issue 33 §1): the cells the kit sends are the cells the spec enumerates; each kind
 * of body is what its name says (not JSON, JSON of another type, a key twice, nested deep, a multipart body cut
 * short); the rounds give each slot one body that may change it; the judging of a round by its reads; the token
 * bodies never show the secret. Runs against faulty and legal servers are in faults.test.ts and variants.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { parseJson } from '../src/base/json.ts';
import { type BodyCell, CHECK_CELLS_NEED, recordBodyCells } from '../src/kit/inputs/body-cells.ts';
import { bodyLabel, judgeBodyRound, type RecordState, slotsOf } from '../src/kit/inputs/body-judge.ts';
import { runTokenBodies, tokenBodyCells } from '../src/kit/inputs/body-token.ts';
import { planBodyRounds } from '../src/kit/inputs/body.ts';
import { tagger } from '../src/kit/inputs/send.ts';
import { firstValueEnd, nesting } from '../src/reference/faults/json-text.ts';
import { CATALOGUE, LIMITS } from '../src/spec/index.ts';
import {
  BODY_CHOICES,
  BODY_ORACLE_NAMES,
  BODY_WAYS,
  bodyCells,
  bodyOwner,
  DEEP_LEVELS,
} from '../src/spec/inputs/body.ts';

const RECORDS = {
  patch: 1,
  cases: [2, 3] as const,
  customers: [20, 30] as const,
  checksCase: 4,
  checks: Array.from({ length: CHECK_CELLS_NEED }, (_, i) => 41 + i),
};
const cells = () =>
  recordBodyCells(RECORDS, { case: 'delete_after', customer: 'full_name' }, tagger(), (l) => `ext-${l}`);
const cell = (list: BodyCell[], id: string) => list.find((c) => c.spec.id === id)!;
const isObject = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);

describe('the body dimension', () => {
  it('the kit sends exactly the cells the spec enumerates, each once', () => {
    const sent = [...cells(), ...tokenBodyCells()].map((c) => c.spec.id);
    const enumerated = bodyCells().map((c) => c.id);
    expect(new Set(sent).size).toBe(sent.length);
    expect([...sent].sort()).toEqual([...enumerated].sort());
  });

  it('every owner is a requirement of the catalogue: MUST, the choices OBSERVE', () => {
    const byId = new Map(CATALOGUE.map((r) => [r.id as string, r]));
    for (const way of BODY_WAYS)
      for (const o of BODY_ORACLE_NAMES) {
        const id = bodyOwner(way, o);
        if (id) expect(byId.get(id)?.level, id).toBe('MUST');
      }
    expect(byId.get(BODY_CHOICES)?.level).toBe('OBSERVE');
  });

  it('each kind of body is what its name says', () => {
    for (const c of cells().filter((x) => x.spec.encoding === 'json')) {
      const { kind } = c.spec;
      const parsed = () => JSON.parse(c.text);
      if (kind === 'whitespace') {
        expect(c.text).not.toBe(c.text.trim());
        expect(isObject(parsed())).toBe(true);
      } else if (kind === 'trailing-text' || kind === 'second-value') {
        expect(parsed).toThrow();
        expect(isObject(JSON.parse(c.text.slice(0, firstValueEnd(c.text))))).toBe(true);
      } else if (['null', 'array', 'string', 'number'].includes(kind)) expect(isObject(parsed())).toBe(false);
      else if (kind === 'bom') {
        expect(c.text.startsWith('\uFEFF')).toBe(true);
        expect(isObject(JSON.parse(c.text.slice(1)))).toBe(true);
      } else if (kind === 'empty') expect(c.text).toBe('');
      else if (kind.startsWith('duplicate-key'))
        expect(parseJson(c.text, 'first'), c.spec.id).not.toEqual(parseJson(c.text, 'last'));
      else if (kind === 'deep') expect(nesting(c.text)).toBeGreaterThanOrEqual(DEEP_LEVELS);
    }
    const list = cells();
    const form = cell(list, 'body/form/patch/repeated-field');
    expect(new URLSearchParams(form.text).getAll('external_id')).toHaveLength(2);
    const over = cell(list, 'body/multipart/patch/repeated-field-over-limit');
    expect(over.text.match(/name="external_id"/g)).toHaveLength(2);
    expect(String((over.readings[1]![0] as { value: unknown }).value).length).toBe(LIMITS.caseExternalIdMaxLength + 1);
    for (const id of ['body/multipart/patch/cut-short', 'body/multipart/bulk-checks/cut-short']) {
      expect(cell(list, id).text).toMatch(/^--/);
      expect(cell(list, id).text).not.toMatch(/--\r\n$/);
    }
  });

  it('a key given twice on PATCH: a value its field allows, and one over the limit, both ways round', () => {
    const list = cells();
    for (const [id, allowed] of [
      ['body/json/patch/duplicate-key', 0],
      ['body/json/patch/duplicate-key-reversed', 1],
    ] as const) {
      const c = cell(list, id);
      expect(c.allowed).toEqual([allowed]);
      const refused = (c.readings[1 - allowed]![0] as { value: string }).value;
      expect(refused.length).toBeGreaterThan(LIMITS.webhookUrlMaxLength);
    }
  });

  it('the reads of the JSON-text helpers see through strings', () => {
    expect(firstValueEnd(' {"a":"}{"} x')).toBe(11);
    expect(firstValueEnd('"a\\"b" 1')).toBe(6);
    expect(firstValueEnd('12 3')).toBe(2);
    expect(nesting('{"a":"[[[[","b":[[1]]}')).toBe(3);
  });
});

describe('the rounds of a lane', () => {
  it('give each slot at most one body that may change it a round, and send every cell once', () => {
    const list = cells();
    for (const lane of [['patch'], ['bulk-cases', 'bulk-customers'], ['bulk-checks']]) {
      const mine = list.filter((c) => lane.includes(c.spec.field));
      const rounds = planBodyRounds(mine);
      const placed = rounds.flat();
      expect(placed.length).toBe(mine.length);
      expect(new Set(placed).size).toBe(mine.length);
      for (const round of rounds) {
        const takers = round.filter((c) => ['accept', 'open', 'one-of'].includes(c.spec.verdict));
        const slots = takers.flatMap(slotsOf);
        expect(new Set(slots).size, lane.join()).toBe(slots.length);
      }
    }
  });
});

/** A case as a read shows it, with the fields a round compares. */
const caseRead = (id: number, more: Record<string, unknown> = {}) => ({
  id,
  webhook_url: null,
  external_id: `case-${id}`,
  origin_url: `case-${id}`,
  delete_after: 30,
  metadata: null,
  customer: { id: id * 10, full_name: 'Before', external_id: null, customer_type: null },
  checks: id === RECORDS.checksCase ? RECORDS.checks.map((k) => ({ id: k })) : [],
  ...more,
});

function judged(c: BodyCell, status: number, after: Record<number, Record<string, unknown>>, answer?: unknown) {
  c.status = status;
  c.answer = answer;
  const states = new Map<number, RecordState>(
    c.records.map((id) => [id as number, { before: caseRead(id as number), after: after[id as number]! }]),
  );
  judgeBodyRound([c], states, (x) => x.spec.verdict);
  return c.verdicts;
}

describe('judging a round by its reads', () => {
  it('a body that is not one JSON object, refused yet applied, fails; refused and unchanged, passes', () => {
    const c = cell(cells(), 'body/json/patch/trailing-text');
    const url = (c.readings[0]![0] as { value: unknown }).value;
    expect(judged(c, 400, { 1: caseRead(1, { webhook_url: url }) }).whole?.result).toBe('fail');
    const again = cell(cells(), 'body/json/patch/trailing-text');
    expect(judged(again, 400, { 1: caseRead(1) }).whole?.result).toBe('pass');
    const taken = cell(cells(), 'body/json/patch/trailing-text');
    expect(judged(taken, 200, { 1: caseRead(1) }).whole?.why).toMatch(/where a 4xx refuses it/);
  });

  it('a key given twice: the value the field refuses, or an answer the read contradicts, fails', () => {
    const c = cell(cells(), 'body/json/patch/duplicate-key');
    const [valid, over] = c.readings.map((r) => (r[0] as { value: unknown }).value);
    expect(
      judged(c, 200, { 1: caseRead(1, { webhook_url: over }) }, caseRead(1, { webhook_url: over }))['one-value']?.why,
    ).toMatch(/a value its field refuses/);
    const d = cell(cells(), 'body/json/patch/duplicate-key');
    const [v2] = d.readings.map((r) => (r[0] as { value: unknown }).value);
    expect(
      judged(d, 200, { 1: caseRead(1, { webhook_url: v2 }) }, caseRead(1, { webhook_url: 'x' }))['one-value']?.why,
    ).toMatch(/the answer shows webhook_url/);
    const e = cell(cells(), 'body/json/patch/duplicate-key');
    const [v3] = e.readings.map((r) => (r[0] as { value: unknown }).value);
    expect(
      judged(e, 200, { 1: caseRead(1, { webhook_url: v3 }) }, caseRead(1, { webhook_url: v3 }))['one-value']?.result,
    ).toBe('pass');
    expect(valid).not.toEqual(over);
  });

  it('a form field given twice: both batches applied, or a value none of them sent, fails', () => {
    const c = cell(cells(), 'body/form/bulk-cases/repeated-field');
    const [a, b] = c.readings.map((r) => (r[0] as { value: unknown }).value);
    const both = judged(c, 200, { 2: caseRead(2, { delete_after: a }), 3: caseRead(3, { delete_after: b }) });
    expect(both['one-value']?.why).toMatch(/both values/);
    const joined = cell(cells(), 'body/form/patch/repeated-field');
    const values = joined.readings.map((r) => (r[0] as { value: unknown }).value);
    expect(judged(joined, 200, { 1: caseRead(1, { external_id: values.join(',') }) })['one-value']?.why).toMatch(
      /no value it sent/,
    );
  });

  it('a multipart body without its close delimiter: refused yet applied fails; taken as its part passes', () => {
    const url = (c: BodyCell) => (c.readings[0]![0] as { value: unknown }).value;
    const c = cell(cells(), 'body/multipart/patch/cut-short');
    expect(judged(c, 400, { 1: caseRead(1, { webhook_url: url(c) }) }).whole?.why).toMatch(/yet applied \(in part\)/);
    const d = cell(cells(), 'body/multipart/patch/cut-short');
    expect(judged(d, 200, { 1: caseRead(1, { webhook_url: url(d) }) }).whole?.result).toBe('pass');
  });

  it('a round is read in the order it was sent: a later value hides an earlier one, never the other way', () => {
    const value = (c: BodyCell) => (c.readings[0]![0] as { value: unknown }).value;
    const round = (ids: string[]) => {
      const list = cells();
      return ids.map((id) => Object.assign(cell(list, id), { status: id.endsWith('whitespace') ? 200 : 400 }));
    };
    const judge = (r: BodyCell[], shown: unknown) => {
      const states = new Map([[1, { before: caseRead(1), after: caseRead(1, { webhook_url: shown }) }]]);
      judgeBodyRound(r, states, (x) => x.spec.verdict);
      return r.map((c) => c.verdicts.whole?.result);
    };
    const taken = round(['body/json/patch/whitespace', 'body/json/patch/trailing-text']);
    expect(judge(taken, value(taken[0]!))).toEqual(['pass', 'pass']);
    const kept = round(['body/json/patch/whitespace', 'body/json/patch/trailing-text']);
    expect(judge(kept, value(kept[1]!))).toEqual(['not-judged', 'fail']);
    const two = round(['body/json/patch/trailing-text', 'body/json/patch/array']);
    expect(judge(two, value(two[1]!))).toEqual(['not-judged', 'fail']);
  });

  it('what no body of the round sent, changed on its record, fails the bodies that may change nothing', () => {
    const c = cell(cells(), 'body/json/patch/null');
    expect(judged(c, 400, { 1: caseRead(1, { delete_after: 99 }) }).whole?.why).toMatch(/delete_after changed/);
  });

  it('whitespace around the object: refused fails, taken and applied passes', () => {
    const without = (c: BodyCell) => {
      const gone = (c.readings[0]![0] as { check: number }).check;
      return caseRead(4, { checks: RECORDS.checks.filter((k) => k !== gone).map((k) => ({ id: k })) });
    };
    const c = cell(cells(), 'body/json/bulk-checks/whitespace');
    expect(judged(c, 400, { 4: caseRead(4) }).whole?.why).toMatch(/whitespace around one JSON object is JSON/);
    const d = cell(cells(), 'body/json/bulk-checks/whitespace');
    expect(judged(d, 200, { 4: without(d) }).whole?.result).toBe('pass');
    const e = cell(cells(), 'body/json/bulk-checks/whitespace');
    expect(judged(e, 200, { 4: caseRead(4) }).whole?.why).toMatch(/none of it/);
  });
});

describe('the token bodies', () => {
  it('never show the secret in a message', async () => {
    const secret = 'S3cr3t-value-never-shown';
    const sent: string[] = [];
    const org = {
      api: {
        requestToken: async (body: { text: string }) => {
          sent.push(body.text);
          return { status: 400, json: { error: 'invalid_request' }, text: '', headers: {}, exchange: undefined };
        },
      },
    };
    const list = await runTokenBodies(org as never, { clientId: '00000000-0000-4000-8000-000000000000', secret });
    expect(sent.some((t) => t.includes(secret))).toBe(true);
    for (const c of list) {
      expect(bodyLabel(c)).not.toContain(secret);
      for (const v of Object.values(c.verdicts)) expect(v?.why ?? '').not.toContain(secret);
    }
  });
});
