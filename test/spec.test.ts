/** The interface as data: catalogue well-formed, schemas accept what the interface shows. */
import { describe, expect, it } from 'vitest';
import {
  AREAS,
  Case,
  CasePatch,
  CATALOGUE,
  codePointLength,
  LIMITS,
  TokenResponse,
  BulkCheckDeleteRequest,
  BulkCustomerUpdateItem,
  requirement,
  type Requirement,
} from '../src/spec/index.ts';

/** The sections of the interface (shared/spec/interface.md), by the names a source cites them with. */
const INTERFACE_SECTIONS = [
  'What the service does',
  'Resources',
  'States and transitions',
  'Endpoints',
  'Authentication',
  'Events',
  'Errors',
  'Limits',
  'Versioning',
];

const now = '2026-11-22T10:00:00Z';
const validCase = {
  id: 1,
  external_id: 'ext-1',
  origin_url: 'ext-1',
  customer: { id: 2, full_name: 'Ann Example', customer_type: 'INDIVIDUAL', external_id: null },
  note: null,
  risk_score: 0.4,
  outcome: 'PENDING',
  is_started: true,
  is_complete: false,
  failed: false,
  created_at: now,
  updated_at: '2026-11-22T10:00:01.123+01:00',
  checks: [
    {
      id: 3,
      created_at: now,
      updated_at: now,
      note: null,
      outcome: null,
      reasoning: null,
      risk_score: 0.4,
      status: 'DECIDING',
      title: null,
    },
  ],
  rfi: null,
};

describe('requirement catalogue', () => {
  it('has unique, readable ids, a level, an area, a statement and a source for every entry', () => {
    const ids = CATALOGUE.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of CATALOGUE) {
      expect(r.id).toMatch(/^[A-Z][A-Z0-9]*(-[A-Z0-9]+)+$/);
      expect(['MUST', 'SHOULD', 'OBSERVE']).toContain(r.level);
      expect(Object.keys(AREAS)).toContain(r.area);
      expect(r.statement.length).toBeGreaterThan(20);
      expect(r.source).toMatch(/interface §|RFC \d+/);
    }
  });

  it('grounds every SHOULD in an RFC', () => {
    for (const r of CATALOGUE.filter((x) => x.level === 'SHOULD')) expect(r.source).toMatch(/RFC \d+/);
  });

  // DESIGN.md: a MUST is stated or directly implied by the interface; an RFC norm it does not restate is a SHOULD.
  it('grounds every MUST in a section of the interface, never in an RFC alone', () => {
    const cites = new RegExp(`interface § (${INTERFACE_SECTIONS.join('|')})\\b`);
    const unsourced = CATALOGUE.filter((r) => r.level === 'MUST' && !cites.test(r.source)).map((r) => r.id);
    expect(unsourced).toEqual([]);
  });

  it("says in a decision why a MUST that also cites an RFC is the interface's", () => {
    const unexplained = (CATALOGUE as readonly Requirement[]).filter(
      (r) => r.level === 'MUST' && /RFC \d+/.test(r.source) && !r.decision,
    );
    expect(unexplained.map((r) => r.id)).toEqual([]);
  });

  it('throws on an unknown id', () => {
    expect(() => requirement('NO-SUCH-REQUIREMENT')).toThrow(/unknown requirement id/);
  });
});

describe('schemas', () => {
  it('accept a case with the always-present fields and reject one without them', () => {
    expect(Case.safeParse(validCase).success).toBe(true);
    for (const field of [
      'checks',
      'created_at',
      'customer',
      'external_id',
      'failed',
      'id',
      'is_complete',
      'is_started',
      'note',
      'origin_url',
      'outcome',
      'rfi',
      'risk_score',
      'updated_at',
    ]) {
      const broken: Record<string, unknown> = { ...validCase };
      delete broken[field];
      expect(Case.safeParse(broken).success, field).toBe(false);
    }
  });

  it('hold risk scores to [0, 1] and enums to their values', () => {
    expect(Case.safeParse({ ...validCase, risk_score: 1.01 }).success).toBe(false);
    expect(Case.safeParse({ ...validCase, outcome: 'MAYBE' }).success).toBe(false);
    expect(Case.safeParse({ ...validCase, customer: { ...validCase.customer, customer_type: '' } }).success).toBe(true);
    expect(Case.safeParse({ ...validCase, customer: { ...validCase.customer, customer_type: 'PERSON' } }).success).toBe(
      false,
    );
    expect(Case.safeParse({ ...validCase, updated_at: 'yesterday' }).success).toBe(false);
  });

  it('bound PATCH fields by the limits table, counting code points', () => {
    expect(CasePatch.safeParse({ webhook_url: 'x'.repeat(LIMITS.webhookUrlMaxLength) }).success).toBe(true);
    expect(CasePatch.safeParse({ webhook_url: 'x'.repeat(LIMITS.webhookUrlMaxLength + 1) }).success).toBe(false);
    expect(CasePatch.safeParse({ external_id: '😀'.repeat(512) }).success).toBe(true);
    expect(CasePatch.safeParse({ delete_after: LIMITS.deleteAfterMin }).success).toBe(true);
    expect(CasePatch.safeParse({ delete_after: LIMITS.deleteAfterMax + 1 }).success).toBe(false);
    expect(CasePatch.safeParse({ delete_after: 1.5 }).success).toBe(false);
    expect(CasePatch.safeParse({ metadata: [1] }).success).toBe(false);
    expect(codePointLength('e\u0301😀')).toBe(3);
  });

  it('bound bulk arrays to 100 and require an identifier for customer items', () => {
    expect(BulkCheckDeleteRequest.safeParse({ ids: Array.from({ length: 100 }, (_, i) => i) }).success).toBe(true);
    expect(BulkCheckDeleteRequest.safeParse({ ids: Array.from({ length: 101 }, (_, i) => i) }).success).toBe(false);
    expect(BulkCustomerUpdateItem.safeParse({ full_name: 'No Id' }).success).toBe(false);
    expect(BulkCustomerUpdateItem.safeParse({ external_id: 'c-1', full_name: 'By External Id' }).success).toBe(true);
  });

  it('require all three token response fields, expires_in an integer', () => {
    expect(TokenResponse.safeParse({ access_token: 'a', token_type: 'Bearer', expires_in: 3600 }).success).toBe(true);
    expect(TokenResponse.safeParse({ access_token: 'a', token_type: 'Bearer', expires_in: '3600' }).success).toBe(
      false,
    );
    expect(TokenResponse.safeParse({ access_token: 'a', token_type: 'Bearer' }).success).toBe(false);
  });
});
