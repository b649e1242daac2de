/**
 * The generators themselves: valid ones pass their schema, invalid ones fail it, a seed replays, constraints are
 * checked.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CASE_PATCH_INVALID_REASONS,
  CUSTOMER_ITEM_INVALID_REASONS,
  deleteAfter,
  httpUrl,
  httpUrlOfLength,
  invalidCasePatch,
  invalidCustomerItem,
  metadata,
  syncPlatforms,
  unicodeText,
  validCasePatch,
  validCustomerItem,
} from '../src/arbitraries/index.ts';
import {
  BulkCustomerUpdateItem,
  CasePatch,
  codePointLength,
  JsonObject,
  LIMITS,
  SyncPlatforms,
} from '../src/spec/index.ts';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const NON_BMP = /[\uD800-\uDBFF][\uDC00-\uDFFF]/;
const COMBINING = /[\u0300-\u036F]/;
const RTL = /[\u0590-\u05FF\u0600-\u06FF]/;

const runs = { numRuns: 200 };

/** True when `u` is an absolute http(s) URL of at most `max` characters. */
function isHttpUrl(u: string, max: number): boolean {
  if (u.length > max) return false;
  if (!URL.canParse(u)) return false;
  const parsed = new URL(u);
  return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '';
}

function expectWithin(s: string, min: number, max: number): void {
  expect(s.length).toBeLessThanOrEqual(max);
  expect(codePointLength(s)).toBeLessThanOrEqual(max);
  expect(codePointLength(s)).toBeGreaterThanOrEqual(min);
  expect(s).not.toMatch(LONE_SURROGATE);
  expect(s).not.toContain('\0');
}

const GENERATORS: Record<string, () => fc.Arbitrary<unknown>> = {
  unicodeText: () => unicodeText({ minLength: 1, maxLength: 40 }),
  httpUrl: () => httpUrl(),
  deleteAfter: () => deleteAfter(),
  metadata: () => metadata(),
  syncPlatforms: () => syncPlatforms(),
  validCasePatch: () => validCasePatch({ externalIdPrefix: 'run-1-' }),
  invalidCasePatch: () => invalidCasePatch(),
  validCustomerItem: () => validCustomerItem(),
  invalidCustomerItem: () => invalidCustomerItem(),
};

describe('every generator', () => {
  for (const [name, make] of Object.entries(GENERATORS)) {
    it(`${name}: the same seed gives the same values`, () => {
      const first = fc.sample(make(), { seed: 42, numRuns: 20 });
      const again = fc.sample(make(), { seed: 42, numRuns: 20 });
      expect(again).toEqual(first);
      expect(fc.sample(make(), { seed: 43, numRuns: 20 })).not.toEqual(first);
    });
  }

  it('throws at once on bad constraints, naming the function', () => {
    const bad: [string, () => unknown][] = [
      ['unicodeText', () => unicodeText({ minLength: 5, maxLength: 4 })],
      ['unicodeText', () => unicodeText({ maxLength: -1 })],
      ['unicodeText', () => unicodeText({ maxLen: 5 } as never)],
      ['httpUrl', () => httpUrl({ maxLength: 10 })],
      ['httpUrl', () => httpUrl({ maxLength: 1.5 })],
      ['httpUrlOfLength', () => httpUrlOfLength(19)],
      ['deleteAfter', () => deleteAfter({ min: 10, max: 0 })],
      ['deleteAfter', () => deleteAfter({ max: 2 ** 31 })],
      ['metadata', () => metadata({ maxDepth: 0 })],
      ['syncPlatforms', () => syncPlatforms({ maxLength: -1 })],
      ['validCasePatch', () => validCasePatch({ fields: [] })],
      ['validCasePatch', () => validCasePatch({ fields: ['note' as never] })],
      ['validCasePatch', () => validCasePatch({ nullRate: 2 })],
      ['validCasePatch', () => validCasePatch({ externalIdPrefix: 'x'.repeat(513) })],
      ['validCasePatch', () => validCasePatch({ externalIdPrefix: '\uD800' })],
      ['invalidCasePatch', () => invalidCasePatch({ fields: ['delete_after', 'delete_after'] })],
      ['validCustomerItem', () => validCustomerItem({ by: 'name' as never })],
      ['validCustomerItem', () => validCustomerItem({ ids: [] })],
      ['validCustomerItem', () => validCustomerItem({ externalIds: ['x'.repeat(256)] })],
      ['invalidCustomerItem', () => invalidCustomerItem({ ids: [1.5] })],
      ['validCustomerItem', () => validCustomerItem({ ids: [2 ** 60] })],
    ];
    for (const [name, build] of bad) expect(build).toThrow(new RegExp(`^${name}: `));
  });
});

describe('unicodeText', () => {
  it('keeps both length counts within bounds, with no lone surrogate or NUL', () => {
    for (const [min, max] of [
      [0, 64],
      [1, 1],
      [3, 5],
      [1, 512],
      [255, 255],
    ] as const) {
      fc.assert(
        fc.property(unicodeText({ minLength: min, maxLength: max }), (s) => {
          expectWithin(s, min, max);
        }),
        runs,
      );
    }
  });

  it('with trim, has no leading or trailing whitespace', () => {
    fc.assert(
      fc.property(unicodeText({ minLength: 1, maxLength: 30, trim: true }), (s) => {
        expect(s.trim()).toBe(s);
      }),
      runs,
    );
  });

  it('mixes non-BMP characters, combining marks, right-to-left text and values at the limit', () => {
    const sample = fc.sample(unicodeText({ maxLength: 64 }), { seed: 7, numRuns: 500 });
    expect(sample.some((s) => NON_BMP.test(s))).toBe(true);
    expect(sample.some((s) => COMBINING.test(s))).toBe(true);
    expect(sample.some((s) => RTL.test(s))).toBe(true);
    expect(sample.some((s) => /^[\x20-\x7e]+$/.test(s))).toBe(true);
    expect(sample.some((s) => s.length === 64)).toBe(true);
  });
});

describe('httpUrl', () => {
  it('gives parseable http(s) URLs within maxLength, unchanged by URL normalisation', () => {
    for (const max of [20, 40, 511]) {
      fc.assert(
        fc.property(httpUrl({ maxLength: max }), (u) => {
          expect(isHttpUrl(u, max)).toBe(true);
          expect(new URL(u).href).toBe(u);
        }),
        runs,
      );
    }
  });

  it('reaches the limit exactly and uses both schemes', () => {
    const sample = fc.sample(httpUrl(), { seed: 7, numRuns: 300 });
    expect(sample.some((u) => u.length === LIMITS.webhookUrlMaxLength)).toBe(true);
    expect(sample.some((u) => u.startsWith('http://'))).toBe(true);
    expect(sample.some((u) => u.startsWith('https://'))).toBe(true);
  });

  it('httpUrlOfLength gives URLs of exactly 511 and 512 characters', () => {
    for (const n of [20, 511, 512]) {
      expect(httpUrlOfLength(n)).toHaveLength(n);
      expect(isHttpUrl(httpUrlOfLength(n), n)).toBe(true);
    }
  });
});

describe('deleteAfter', () => {
  it('stays in the int32 range and draws -1 and both ends', () => {
    fc.assert(
      fc.property(deleteAfter(), (n) => {
        expect(Number.isInteger(n) && n >= LIMITS.deleteAfterMin && n <= LIMITS.deleteAfterMax).toBe(true);
      }),
      runs,
    );
    const sample = fc.sample(deleteAfter(), { seed: 7, numRuns: 500 });
    for (const edge of [-1, 0, LIMITS.deleteAfterMin, LIMITS.deleteAfterMax]) expect(sample).toContain(edge);
  });

  it('respects a narrower range', () => {
    fc.assert(
      fc.property(deleteAfter({ min: 0, max: 30 }), (n) => {
        expect(n >= 0 && n <= 30).toBe(true);
      }),
      runs,
    );
  });
});

describe('metadata', () => {
  it('is a plain JSON object that survives a JSON round trip unchanged', () => {
    fc.assert(
      fc.property(metadata(), (m) => {
        expect(Array.isArray(m)).toBe(false);
        expect(Object.getPrototypeOf(m)).toBe(Object.prototype);
        expect(JsonObject.safeParse(m).success).toBe(true);
        expect(JSON.parse(JSON.stringify(m))).toStrictEqual(m);
      }),
      runs,
    );
  });

  it('nests no deeper than maxDepth', () => {
    const depth = (v: unknown): number =>
      v !== null && typeof v === 'object' ? 1 + Math.max(0, ...Object.values(v).map(depth)) : 0;
    fc.assert(
      fc.property(metadata({ maxDepth: 2 }), (m) => {
        expect(depth(m)).toBeLessThanOrEqual(2);
      }),
      runs,
    );
    expect(fc.sample(metadata(), { seed: 7, numRuns: 300 }).some((m) => depth(m) === 3)).toBe(true);
  });
});

describe('syncPlatforms', () => {
  it('gives 0..5 objects with string domain and id', () => {
    fc.assert(
      fc.property(syncPlatforms(), (ps) => {
        expect(ps.length).toBeLessThanOrEqual(5);
        expect(SyncPlatforms.safeParse(ps).success).toBe(true);
        for (const p of ps) expect(Object.keys(p).sort()).toEqual(['domain', 'id']);
      }),
      runs,
    );
  });
});

describe('validCasePatch', () => {
  it('passes CasePatch, is non-empty and keeps external_id within 512 in both counts', () => {
    fc.assert(
      fc.property(validCasePatch({ externalIdPrefix: 'run-😀-' }), (p) => {
        expect(CasePatch.safeParse(p).success).toBe(true);
        expect(Object.keys(p).length).toBeGreaterThan(0);
        for (const v of Object.values(p)) expect(v).not.toBeUndefined();
        if (p.external_id != null) {
          expect(p.external_id.startsWith('run-😀-')).toBe(true);
          expectWithin(p.external_id, 1, LIMITS.caseExternalIdMaxLength);
        }
        if (typeof p.webhook_url === 'string') expect(isHttpUrl(p.webhook_url, LIMITS.webhookUrlMaxLength)).toBe(true);
      }),
      runs,
    );
  });

  it('uses only the fields asked for, and null only where allowed', () => {
    fc.assert(
      fc.property(validCasePatch({ fields: ['external_id', 'delete_after'], nullRate: 0.5 }), (p) => {
        expect(Object.keys(p).every((k) => k === 'external_id' || k === 'delete_after')).toBe(true);
        expect(p.external_id).not.toBeNull();
      }),
      runs,
    );
    const sample = fc.sample(validCasePatch({ allowNullExternalId: true, nullRate: 0.5 }), { seed: 7, numRuns: 200 });
    expect(sample.some((p) => p.external_id === null)).toBe(true);
    expect(sample.some((p) => p.webhook_url === null)).toBe(true);
  });

  it('carries every field, alone and together', () => {
    const sample = fc.sample(validCasePatch(), { seed: 7, numRuns: 300 });
    for (const f of ['webhook_url', 'delete_after', 'metadata', 'sync_platforms', 'external_id']) {
      expect(sample.some((p) => f in p)).toBe(true);
    }
    expect(sample.some((p) => Object.keys(p).length === 1)).toBe(true);
    expect(sample.some((p) => Object.keys(p).length === 5)).toBe(true);
  });
});

describe('invalidCasePatch', () => {
  it('fails CasePatch, and only because of the named field', () => {
    fc.assert(
      fc.property(invalidCasePatch({ externalIdPrefix: 'run-😀-' }), ({ patch, field }) => {
        expect(CasePatch.safeParse(patch).success).toBe(false);
        expect(field in patch).toBe(true);
        const { [field]: _broken, ...rest } = patch;
        expect(CasePatch.safeParse(rest).success).toBe(true);
        expect(Object.keys(rest).length).toBeLessThanOrEqual(2);
      }),
      runs,
    );
  });

  it('makes over-long strings too long in code points as well as UTF-16 units', () => {
    fc.assert(
      fc.property(invalidCasePatch({ fields: ['external_id', 'webhook_url'] }), ({ patch, field, reason }) => {
        const v = patch[field];
        if (reason === 'too-long-by-one') {
          const limit = field === 'external_id' ? LIMITS.caseExternalIdMaxLength : LIMITS.webhookUrlMaxLength;
          expect(codePointLength(v as string)).toBe(limit + 1);
          expect((v as string).length).toBe(limit + 1);
        }
        if (field === 'webhook_url' && typeof v === 'string') expect(URL.canParse(v)).toBe(true);
      }),
      runs,
    );
  });

  it('covers every reason code, and 2147483648 and -2147483649', () => {
    const sample = fc.sample(invalidCasePatch(), { seed: 7, numRuns: 1000 });
    expect(new Set(sample.map((s) => s.reason))).toEqual(new Set(CASE_PATCH_INVALID_REASONS));
    const deleteAfters = sample.filter((s) => s.field === 'delete_after').map((s) => s.patch.delete_after);
    expect(deleteAfters).toContain(2147483648);
    expect(deleteAfters).toContain(-2147483649);
  });
});

describe('validCustomerItem', () => {
  it('passes BulkCustomerUpdateItem', () => {
    for (const by of ['id', 'external_id', 'either'] as const) {
      fc.assert(
        fc.property(validCustomerItem({ by, externalIdPrefix: 'run-1-' }), (item) => {
          expect(BulkCustomerUpdateItem.safeParse(item).success).toBe(true);
          if (by === 'id') expect(item.id).toBeGreaterThan(0);
          if (by === 'external_id') expect(item.id).toBeUndefined();
          if (item.full_name !== undefined) expectWithin(item.full_name, 1, LIMITS.customerFullNameMaxLength);
          if (typeof item.external_id === 'string')
            expectWithin(item.external_id, 1, LIMITS.customerExternalIdMaxLength);
        }),
        runs,
      );
    }
  });

  it('draws identifiers from the given ids and externalIds', () => {
    fc.assert(
      fc.property(validCustomerItem({ ids: [7, 2n ** 62n + 3n], externalIds: ['c-1'] }), (item) => {
        if (item.id !== undefined) expect([7, 2n ** 62n + 3n]).toContain(item.id);
        else expect(item.external_id).toBe('c-1');
      }),
      runs,
    );
  });

  it('sets every customer_type, including empty and null', () => {
    const types = new Set(fc.sample(validCustomerItem(), { seed: 7, numRuns: 500 }).map((i) => i.customer_type));
    for (const t of ['INDIVIDUAL', 'COMPANY', '', null]) expect(types).toContain(t);
  });
});

describe('invalidCustomerItem', () => {
  it('fails BulkCustomerUpdateItem', () => {
    fc.assert(
      fc.property(invalidCustomerItem(), ({ item }) => {
        expect(BulkCustomerUpdateItem.safeParse(item).success).toBe(false);
      }),
      runs,
    );
  });

  it('never carries both an id and a valid external_id', () => {
    fc.assert(
      fc.property(invalidCustomerItem(), ({ item }) => {
        const validExternalId =
          typeof item.external_id === 'string' &&
          BulkCustomerUpdateItem.shape.external_id.safeParse(item.external_id).success;
        expect('id' in item && validExternalId).toBe(false);
      }),
      runs,
    );
  });

  it('covers every reason code', () => {
    const sample = fc.sample(invalidCustomerItem(), { seed: 7, numRuns: 1000 });
    expect(new Set(sample.map((s) => s.reason))).toEqual(new Set(CUSTOMER_ITEM_INVALID_REASONS));
  });
});
