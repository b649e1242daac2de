/**
 * Ids beyond 2^53 (issue 26): the interface says ids are integers and nothing about how large, and JSON.parse
 * turns 2^62 + 3 into 2^62. The lossless path, piece by piece: JSON read and written exactly, the one id type and
 * its helpers, the transport over a real listener (answer in, request out), the ledger, the bulk report reader and
 * the reproduction plan, each with ids that JSON.parse would make one number.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { parseJson, stringifyJson } from '../src/base/json.ts';
import { Redactor } from '../src/base/redact.ts';
import { ApiClient } from '../src/client/api.ts';
import { encodeBody } from '../src/client/encode.ts';
import { Transport } from '../src/client/transport.ts';
import { recogniseBulkReport } from '../src/kit/bulk-report.ts';
import type { SentCell } from '../src/kit/inputs/cell.ts';
import { spellingsTaken } from '../src/kit/inputs/spellings.ts';
import { malformedBulkBodies } from '../src/kit/malformed.ts';
import { Ledger, readLedger } from '../src/provision/ledger.ts';
import { planSteps } from '../src/report/repro-plan.ts';
import type { Exchange } from '../src/results/exchange.ts';
import { Case, compareIds, type Id, IdSchema, idFromText, idPlus, isId, toId } from '../src/spec/index.ts';
import { binary64Blind, fractionOf, ID_KINDS } from '../src/spec/inputs/ids.ts';
import { tempDir } from './support/cli.ts';

/** 2^62 + 3 and 2^62 + 5: JSON.parse reads both as 2^62. */
const A = 2n ** 62n + 3n;
const B = 2n ** 62n + 5n;

describe('parseJson and stringifyJson', () => {
  it('reads an integer beyond 2^53 as the exact bigint, where JSON.parse reads another number', () => {
    const text = `{"id":${A},"others":[${B},-9007199254740993,9007199254740991,1.5,12345678901234567.5]}`;
    expect(BigInt(JSON.parse(text).id)).not.toBe(A);
    expect(parseJson(text)).toEqual({
      id: A,
      others: [B, -9007199254740993n, 9007199254740991, 1.5, JSON.parse('12345678901234567.5')],
    });
  });

  it('reads every other value as JSON.parse does: safe integers stay numbers, long digits in strings stay text', () => {
    const texts = [
      '{"id":5,"s":"46116860184273879071234","n":null,"b":[true,false],"f":-0.25e3}',
      '{"a":1,"a":2,"nested":{"x":[{"y":"z"}]}}',
      '{"__proto__":{"x":1},"k":"12345678901234567890 in a string"}',
      '[1,2,3]',
      '"text"',
    ];
    for (const text of texts) expect(parseJson(text)).toEqual(JSON.parse(text));
    expect(Object.getPrototypeOf(parseJson('{"__proto__":{"x":1},"n":12345678901234567890}'))).toBe(Object.prototype);
  });

  it('throws SyntaxError on text that is not JSON, on either path', () => {
    expect(() => parseJson('{"id": 1,}')).toThrow(SyntaxError);
    expect(() => parseJson(`{"id": ${A},}`)).toThrow(SyntaxError);
  });

  it('writes a bigint as its exact integer, and anything else as JSON.stringify does', () => {
    expect(stringifyJson({ id: A, ids: [B, 7] })).toBe(`{"id":${A},"ids":[${B},7]}`);
    expect(stringifyJson({ items: [{ id: A }] }, 2)).toBe(`{\n  "items": [\n    {\n      "id": ${A}\n    }\n  ]\n}`);
    const plain = { a: 'x', n: 1.5, u: undefined, d: new Date(0), l: [null, undefined] };
    expect(stringifyJson(plain)).toBe(JSON.stringify(plain));
    expect(stringifyJson(undefined)).toBeUndefined();
    expect(parseJson(stringifyJson({ id: A }))).toEqual({ id: A });
  });

  it('still throws on a circular value', () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(() => stringifyJson(circular)).toThrow(TypeError);
  });
});

describe('Id', () => {
  it('is a safe integer number, or a bigint beyond the safe range: one value, one type', () => {
    expect([5, -3, A, 2n ** 53n].map(isId)).toEqual([true, true, true, true]);
    expect([5n, 2 ** 60, 1.5, '5', null].map(isId)).toEqual([false, false, false, false, false]);
    expect(toId(5n)).toBe(5);
    expect(toId(A)).toBe(A);
    expect(idFromText(String(A))).toBe(A);
    expect(idFromText('42')).toBe(42);
    expect(idFromText('4.2')).toBeUndefined();
    expect(IdSchema.safeParse(A).success).toBe(true);
    expect(IdSchema.safeParse(5n).success).toBe(false);
    expect(IdSchema.safeParse(2 ** 60).success).toBe(false);
  });

  it('adds and orders exactly across 2^53', () => {
    expect(idPlus(Number.MAX_SAFE_INTEGER, 1)).toBe(2n ** 53n);
    expect(idPlus(A, 2)).toBe(B);
    expect(idPlus(2n ** 53n, -1)).toBe(Number.MAX_SAFE_INTEGER);
    expect([B, 7, A, 2n ** 53n, Number.MAX_SAFE_INTEGER].sort(compareIds)).toEqual([
      7,
      Number.MAX_SAFE_INTEGER,
      2n ** 53n,
      A,
      B,
    ]);
  });

  it('is what the Case schema takes as an id', () => {
    const parsed = Case.shape.id.safeParse(parseJson(`${A}`));
    expect(parsed.success && parsed.data).toBe(A);
  });
});

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

describe('over HTTP', () => {
  it('the transport reads a big id exactly, and a request carries it back exactly in path and body', async () => {
    const seen: { url: string; body: string }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        seen.push({ url: req.url ?? '', body });
        res.setHeader('content-type', 'application/json');
        res.end(`{"id":${A},"customer":{"id":${B}}}`);
      });
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const api = new ApiClient({
      baseUrl: url,
      transport: new Transport({ timeoutMs: 2000, maxResponseBytes: 4096 }, new Redactor()),
    });
    const res = await api.patchCase(A, { delete_after: 5 }, { auth: 'none' });
    const json = res.json as { id: unknown; customer: { id: unknown } };
    expect(json.id).toBe(A);
    expect(json.customer.id).toBe(B);
    await api.request('POST', '/api/cases/bulk-update/', { body: { items: [{ id: json.id }] }, auth: 'none' });
    await api.request('POST', '/api/checks/bulk-delete/', {
      body: { ids: [json.id, json.customer.id] },
      contentType: 'form',
      auth: 'none',
    });
    expect(seen.map((s) => [s.url, s.body])).toEqual([
      [`/api/cases/${A}/`, '{"delete_after":5}'],
      ['/api/cases/bulk-update/', `{"items":[{"id":${A}}]}`],
      ['/api/checks/bulk-delete/', `ids=${A}&ids=${B}`],
    ]);
    expect(encodeBody({ o: { id: A } }, 'form').text).toBe(`o=${encodeURIComponent(`{"id":${A}}`)}`);
  });
});

describe('what the harness writes and reads back', () => {
  it('the ledger keeps each id exact: two cases JSON.parse would make one stay two, and each deletion its own', () => {
    const path = `${tempDir()}/ledger.jsonl`;
    const ledger = new Ledger(path, 'run1', 'http://target.example');
    ledger.created('a', 'ext-a', A, { customerId: idPlus(A, 1) });
    ledger.created('a', 'ext-b', B, { customerId: idPlus(B, 1) });
    ledger.deleted('a', A);
    const state = readLedger(path);
    expect(state.pending.map((c) => c.id)).toEqual([B]);
    expect(state.removed).toBe(1);
    expect(state.customers).toEqual({ run1: 2 });
  });

  it('the bulk report reader matches items by their exact ids', () => {
    const report = recogniseBulkReport(parseJson(`{"failed_ids":[${B}],"succeeded_ids":[${A}]}`), [A, B]);
    expect(report.items).toEqual(['succeeded', 'failed']);
    const keyed = recogniseBulkReport(parseJson(`{"errors":{"${B}":"not found"}}`), [{ id: A }, { id: B }]);
    expect(keyed.items).toEqual(['unreported', 'failed']);
  });

  it('a reproduction names each created id by its own variable, and an id it did not create as unresolved', () => {
    const exchange = (method: string, url: string, status: number, body: string, sent?: string): Exchange => ({
      at: '2026-01-01T00:00:00.000Z',
      durationMs: 1,
      request: { method, url: `http://t.example${url}`, headers: {}, ...(sent ? { body: sent } : {}) },
      response: { status, headers: {}, body },
    });
    const unknownToTheScript = idPlus(B, 1000);
    const steps = planSteps(
      [
        exchange('POST', '/api/cases/', 201, `{"id":${A},"checks":[]}`, '{}'),
        exchange('POST', '/api/cases/', 201, `{"id":${B},"checks":[]}`, '{}'),
        exchange('PATCH', `/api/cases/${B}/`, 200, '{}', '{}'),
        exchange('POST', '/api/cases/bulk-update/', 200, '{}', `{"items":[{"id":${A}},{"id":${unknownToTheScript}}]}`),
      ],
      'http://t.example',
      'run1',
    );
    expect(steps[2]!.path).toEqual([{ text: '/api/cases/' }, { variable: 'ID_2_1' }, { text: '/' }]);
    expect(steps[3]!.body).toContainEqual({ variable: 'ID_1_1' });
    expect(steps[3]!.unresolved).toEqual([unknownToTheScript]);
  });
});

/**
 * Issue 34 §1: RFC 8259 § 6 lets a server read JSON numbers as binary64 doubles (JSON.parse), and such a server acts,
 * legally, on the integer it reads. A probe meant to name no record is evidence only where that reading still names
 * none; JSON.parse itself is the double reader here.
 */
describe('numeric probes a binary64 reader can tell from an id', () => {
  const kind = (name: string) => ID_KINDS.find((k) => k.kind === name)!;
  const numeric = ID_KINDS.filter((k) => k.binary64 !== undefined);
  /** The number a probe spells, as a double reader has it (the JSON text of a string probe is its content). */
  const asDouble = (name: string, id: Id) => Number(kind(name).binary64!.spells(id));
  /** Ids on both sides of 2^52, 2^53 and 2^63, and around them. */
  const ids = fc.oneof(
    fc.integer({ min: 1, max: 2 ** 40 }),
    fc.bigInt({ min: 2n ** 51n, max: 2n ** 54n }).map(toId),
    fc.bigInt({ min: 2n ** 62n, max: 2n ** 63n - 1n }).map(toId),
  );

  it('sends the fraction N.5 only while a double reads it as no integer: below 2^52', () => {
    for (const name of ['fraction', 'string-fraction']) {
      expect(binary64Blind(kind(name), 7)).toBeUndefined();
      expect(binary64Blind(kind(name), 2 ** 52 - 1)).toBeUndefined();
      expect(JSON.parse(kind('fraction').json!(2 ** 52 - 1))).toBe(2 ** 52 - 0.5);
      // From 2^52 on, N.5 is N or N + 1 to a double (ties to even), never a fraction.
      for (const id of [2 ** 52, 2 ** 52 + 1, Number.MAX_SAFE_INTEGER, 2n ** 53n + 2n, 2n ** 62n + 3n])
        expect(binary64Blind(kind(name), id), String(id)).toMatch(/^not sent: .*RFC 8259 § 6/);
    }
    expect(binary64Blind(kind('fraction'), 2 ** 52 + 1)).toContain(`is ${2 ** 52 + 2}, an integer`);
    expect(binary64Blind(kind('fraction'), 2n ** 53n + 2n)).toContain(`is ${2n ** 53n + 2n}, an integer`);
  });

  it('judges every probe JSON.parse reads as naming no id near the record, and no other', () => {
    fc.assert(
      fc.property(ids, (id) => {
        for (const k of numeric) {
          const read = JSON.parse(k.binary64!.spells(id)) as number;
          const judged = binary64Blind(k, id) === undefined;
          if (k.binary64!.apart === 'no-integer') expect(judged, `${k.kind} ${id}`).toBe(!Number.isInteger(read));
          else expect(judged, `${k.kind} ${id}`).toBe(read > Number(id));
        }
      }),
      { seed: 34, numRuns: 500 },
    );
  });

  it('sends 2^63, 2^64 and 10^20 unless a double reads them as no more than the id', () => {
    for (const name of ['2^63', '2^64', '10^20']) {
      expect(binary64Blind(kind(name), 7)).toBeUndefined();
      expect(binary64Blind(kind(name), 2n ** 62n + 3n)).toBeUndefined();
    }
    // 2^63 - 1 and 2^63 - 100 are 2^63 to a double: a double reader cannot tell the probe from them.
    expect(asDouble('2^63', 2n ** 63n - 1n)).toBe(Number(2n ** 63n - 1n));
    expect(binary64Blind(kind('2^63'), 2n ** 63n - 1n)).toContain('no larger than id 9223372036854775807');
    expect(binary64Blind(kind('2^63'), 2n ** 63n - 100n)).toBeDefined();
    expect(binary64Blind(kind('2^64'), 2n ** 63n - 1n)).toBeUndefined();
  });

  it('leaves every other spelling to be judged on any id', () => {
    for (const k of ID_KINDS.filter((x) => x.binary64 === undefined))
      for (const id of [7, 2 ** 52 + 1, 2n ** 53n + 2n, 2n ** 63n - 1n]) expect(binary64Blind(k, id)).toBeUndefined();
  });

  it('puts a fraction of an unknown id in a malformed bulk check delete only where a double reads one', () => {
    expect(fractionOf(2_147_400_001)).toBe(2_147_400_001.5);
    expect([fractionOf(2 ** 52), fractionOf(2n ** 62n + 3n)]).toEqual([undefined, undefined]);
    const fractions = (entry: Id) =>
      malformedBulkBodies('ids', entry)
        .filter((b) => b.label === 'an entry that is a fraction')
        .map((b) => stringifyJson(b.body));
    expect(fractions(2_147_400_001)).toEqual(['{"ids":[2147400001,2147400001.5]}']);
    // 2^52 + 1 + 0.5 is 2^52 + 2 to a double: sent as it is, it would name another id, not a fraction.
    expect(fractions(2 ** 52 + 1)).toEqual([]);
    expect(fractions(2n ** 62n + 3n)).toEqual([]);
  });
});

/** Issue 34 §3: the spellings that mean an id exactly, and the observation of those a server took. */
describe('exact spellings of an id', () => {
  const spell = (name: string, id: Id) => {
    const k = ID_KINDS.find((x) => x.kind === name)!;
    return [k.json?.(id), k.text?.(id)];
  };

  it('groups digits as Python int() and Go ParseInt (base 0) read them, one digit at least on each side', () => {
    expect(spell('digit-groups', 10)).toEqual(['"1_0"', '1_0']);
    expect(spell('digit-groups', 5)).toEqual(['"0_5"', '0_5']);
    expect(spell('digit-groups', 2n ** 62n + 3n)[1]!.replace('_', '')).toBe(String(2n ** 62n + 3n));
    expect(ID_KINDS.find((k) => k.kind === 'digit-groups')!.verdict).toBe('exact');
  });

  /** An exact cell as the matrix leaves it: sent (an exchange), taken or not, or not shown. */
  const cell = (kind: string, way: 'path' | 'bulk-checks', encoding: string, taken?: boolean): SentCell =>
    ({
      spec: { id: `${way}/${encoding}/x/${kind}`, way, encoding, field: 'PATCH {id}', kind, verdict: 'exact' },
      value: '',
      naming: 'exact',
      exchange: {},
      ...(taken !== undefined ? { taken } : {}),
      verdicts: {},
    }) as unknown as SentCell;

  it('lists the spellings taken, per place, as of id 10; what did not show apart; the rest left out', () => {
    const cells = [
      cell('plus-sign', 'path', 'json', true),
      cell('hex', 'path', 'json', true),
      cell('digit-groups', 'path', 'json', false),
      { ...cell('leading-zero', 'path', 'json'), exchange: undefined } as unknown as SentCell,
      { ...cell('fraction', 'path', 'json', true), naming: 'none' } as SentCell,
      cell('string', 'bulk-checks', 'json', false),
      cell('hex', 'bulk-checks', 'form'),
    ];
    expect(spellingsTaken(cells, (c) => `${c.spec.way} ${c.spec.encoding}`)).toBe(
      'spellings shown as of id 10. path json: took plus-sign +10, hex 0xa (2 of 3); bulk-checks json: took none ' +
        'of 1; bulk-checks form: whether it took hex 0xa did not show',
    );
    expect(spellingsTaken([cells[4]!], () => 'x')).toBe('no spelling of an id other than its digits was sent');
  });
});
