/**
 * The invariant watcher: every case body a suite's clients receive, whatever the check that
 * asked, is judged against the invariants of the Case read representation. At the end of a
 * suite file its findings go into the file's task meta (setup.ts), and the reporter turns
 * them into outcomes of the requirements below, one mechanism for every suite.
 */
import { z } from 'zod';
import { toCurl } from '../client/curl.ts';
import type { Redactor } from '../client/redact.ts';
import type { Exchange, OutgoingRequest, ReceivedResponse } from '../client/transport.ts';
import {
  Case,
  Check,
  CHECK_STATUSES,
  CHECK_TYPES,
  Customer,
  CUSTOMER_TYPES,
  LIMITS,
  OUTCOMES,
  type RequirementId,
} from '../spec/index.ts';
import type { Evidence } from './meta.ts';

/** What the watcher judges on every case body, one requirement per invariant. */
export const WATCHED_REQUIREMENTS = [
  'READ-CASE-SCHEMA',
  'READ-ENUMS',
  'READ-RISK-SCORE-RANGE',
  'READ-CASE-RISK-MAX',
  'CASE-EXTERNAL-ID-STRING',
  'CASE-ORIGIN-URL-ALIAS',
] as const satisfies readonly RequirementId[];
export type WatchedRequirement = (typeof WATCHED_REQUIREMENTS)[number];

/** One broken invariant in one case body. */
export interface InvariantFinding {
  requirement: WatchedRequirement;
  what: string;
  expected: string;
  received: string;
}

export interface InvariantViolation extends InvariantFinding {
  caseId: number | null;
  /** The request whose answer held the case: `GET /api/cases/12/`. */
  request: string;
}

/** What one suite file's watch saw; plain data, so it travels in task meta. */
export interface InvariantFindings {
  /** Case bodies judged. */
  watched: number;
  /** Violations, the first few distinct ones per requirement. */
  violations: InvariantViolation[];
  /** Violations per requirement, all of them. */
  counts: Partial<Record<WatchedRequirement, number>>;
  /** The first exchanges that showed a violation, per requirement, with curl reproductions. */
  evidence: Partial<Record<WatchedRequirement, Evidence>>;
  /** Defects of the watcher itself (never a verdict on the server). */
  errors: string[];
  /**
   * Case bodies each requirement applied to (see applicableInvariants): a requirement that
   * applied to none was not judged, however many bodies were watched, so its outcome is a skip,
   * not a pass. Optional for findings recorded before it existed.
   */
  judged?: Partial<Record<WatchedRequirement, number>>;
}

const VIOLATIONS_KEPT = 10;
const EXCHANGES_KEPT = 3;
const RECORDED_BODY_CHARS = 16_384;
const RISK_EPSILON = 1e-9;

// Enum values, risk ranges and external_id's type are judged by their own invariants below:
// the shape only asks for presence and type, so one defect breaks one requirement. Lengths are
// the LIMIT-* requirements' (judged where they are set, with ASCII): a webhook_url the server
// accepted within 511 characters and shows percent-encoded is not a broken representation.
const present = z.unknown().refine((v) => v !== undefined, { message: 'missing' });
const CheckShape = Check.extend({
  risk_score: z.number().nullable(),
  outcome: z.string().nullable(),
  status: z.string(),
  check_type: z.string().nullable().optional(),
});
const CaseShape = Case.extend({
  external_id: present,
  webhook_url: z.string().nullable().optional(),
  risk_score: z.number().nullable(),
  outcome: z.string().nullable(),
  customer: Customer.extend({ customer_type: z.string().nullable().optional() }),
  checks: z.array(CheckShape),
});

type Json = Record<string, unknown>;

export function isObject(v: unknown): v is Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function pathText(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${String(p)}`)).join('') || '(root)';
}

function at(value: unknown, path: readonly PropertyKey[]): unknown {
  let v = value;
  for (const p of path) v = isObject(v) || Array.isArray(v) ? (v as Record<PropertyKey, unknown>)[p] : undefined;
  return v;
}

function show(v: unknown): string {
  return v === undefined ? 'missing' : (JSON.stringify(v)?.slice(0, 200) ?? String(v));
}

/** The risk scores of the checks, when the case has checks and every one of them is scored. */
function everyCheckScore(body: Json): number[] | undefined {
  if (!Array.isArray(body.checks) || body.checks.length === 0) return undefined;
  const scores = body.checks.map((k: unknown) => (isObject(k) ? k.risk_score : undefined));
  return scores.every((s) => typeof s === 'number') ? (scores as number[]) : undefined;
}

function caseLabel(body: Json): string {
  return Number.isInteger(body.id) ? `case ${String(body.id)}` : 'a case';
}

/** Every invariant of the Case read representation that `body` breaks. */
export function caseInvariants(body: Json): InvariantFinding[] {
  const label = caseLabel(body);
  const findings: InvariantFinding[] = [];
  const found = (requirement: WatchedRequirement, field: string, expected: string, value: unknown) =>
    findings.push({ requirement, what: `${field} of ${label}`, expected, received: show(value) });

  const shape = CaseShape.safeParse(body);
  if (!shape.success) {
    const issues = shape.error.issues.slice(0, 6).map((i) => {
      const value = at(body, i.path);
      return `${pathText(i.path)}: ${value === undefined ? 'missing' : `${i.message} (${show(value)})`}`;
    });
    const more =
      shape.error.issues.length > issues.length ? `; and ${shape.error.issues.length - issues.length} more` : '';
    findings.push({
      requirement: 'READ-CASE-SCHEMA',
      what: `the representation of ${label}`,
      expected: 'every always-present field of the case, its customer and its checks, with its type',
      received: issues.join('; ') + more,
    });
  }

  const checks = Array.isArray(body.checks) ? body.checks.filter(isObject) : [];
  const enumValue = (field: string, value: unknown, allowed: readonly string[], extra: string) => {
    if (typeof value === 'string' && !allowed.includes(value))
      found('READ-ENUMS', field, `one of ${allowed.join(', ')}${extra}`, value);
  };
  enumValue('outcome', body.outcome, OUTCOMES, ' or null');
  if (isObject(body.customer)) {
    const type = body.customer.customer_type;
    if (type !== '') enumValue('customer.customer_type', type, CUSTOMER_TYPES, ', an empty string or null');
  }
  checks.forEach((k, i) => {
    enumValue(`checks[${i}].status`, k.status, CHECK_STATUSES, '');
    enumValue(`checks[${i}].outcome`, k.outcome, OUTCOMES, ' or null');
    if (k.check_type !== '')
      enumValue(`checks[${i}].check_type`, k.check_type, CHECK_TYPES, ', an empty string or null');
  });

  const inRange = (field: string, value: unknown) => {
    if (typeof value === 'number' && !(value >= LIMITS.riskScoreMin && value <= LIMITS.riskScoreMax)) {
      found(
        'READ-RISK-SCORE-RANGE',
        field,
        `null or a number from ${LIMITS.riskScoreMin.toFixed(1)} to ${LIMITS.riskScoreMax.toFixed(1)}`,
        value,
      );
    }
  };
  inRange('risk_score', body.risk_score);
  for (const [i, k] of checks.entries()) inRange(`checks[${i}].risk_score`, k.risk_score);

  const scores = everyCheckScore(body);
  if (scores) {
    const max = Math.max(...scores);
    const r = body.risk_score;
    const wrong =
      typeof r === 'number'
        ? Math.abs(r - max) > RISK_EPSILON * Math.max(1, Math.abs(max))
        : r === null && body.is_complete === true;
    if (wrong) {
      found(
        'READ-CASE-RISK-MAX',
        'risk_score',
        `${max}, the maximum of its checks' risk scores ${JSON.stringify(scores)}${r === null ? ' (null only while is_complete is false)' : ''}`,
        r,
      );
    }
  }

  if ('external_id' in body && typeof body.external_id !== 'string')
    found('CASE-EXTERNAL-ID-STRING', 'external_id', 'a string', body.external_id);
  if (typeof body.origin_url === 'string' && body.origin_url !== body.external_id) {
    found(
      'CASE-ORIGIN-URL-ALIAS',
      'origin_url (deprecated alias of external_id)',
      `null or the external_id ${show(body.external_id)}`,
      body.origin_url,
    );
  }
  return findings;
}

/**
 * The watched requirements a case body can be judged on: an invariant about values the body
 * does not have (no risk score, no check scored, no origin_url) passes on it without judging.
 */
export function applicableInvariants(body: Json): WatchedRequirement[] {
  const checks = Array.isArray(body.checks) ? body.checks.filter(isObject) : [];
  const customer = isObject(body.customer) ? body.customer : {};
  const out: WatchedRequirement[] = ['READ-CASE-SCHEMA'];
  const enums = [body.outcome, customer.customer_type, ...checks.flatMap((k) => [k.status, k.outcome, k.check_type])];
  if (enums.some((v) => typeof v === 'string' && v !== '')) out.push('READ-ENUMS');
  if ([body.risk_score, ...checks.map((k) => k.risk_score)].some((v) => typeof v === 'number'))
    out.push('READ-RISK-SCORE-RANGE');
  if (everyCheckScore(body)) out.push('READ-CASE-RISK-MAX');
  if ('external_id' in body) out.push('CASE-EXTERNAL-ID-STRING');
  if (typeof body.origin_url === 'string') out.push('CASE-ORIGIN-URL-ALIAS');
  return out;
}

const CASE_KEYS = [
  'checks',
  'created_at',
  'customer',
  'external_id',
  'failed',
  'is_complete',
  'is_started',
  'note',
  'origin_url',
  'outcome',
  'rfi',
  'risk_score',
  'updated_at',
];
const CASES_PATH = /\/api\/cases\//;
const ONE_CASE_PATH = /\/api\/cases\/\d+\/$/;

/** An object that can only be a case: an integer id and a checks array, or most of a case's fields. */
function looksLikeCase(v: unknown): v is Json {
  if (!isObject(v) || !Number.isInteger(v.id)) return false;
  return Array.isArray(v.checks) || CASE_KEYS.filter((k) => k in v).length >= 4;
}

function collectCases(v: unknown, depth: number, out: Json[]): void {
  if (looksLikeCase(v)) {
    out.push(v);
    return;
  }
  if (depth === 0) return;
  if (Array.isArray(v)) for (const x of v) collectCases(x, depth - 1, out);
  else if (isObject(v)) for (const x of Object.values(v)) collectCases(x, depth - 1, out);
}

/**
 * The case bodies in a 2xx JSON answer of a /api/cases/ endpoint. GET and PATCH of one case
 * answer with the case itself (interface § PATCH: "200 with the Case read representation");
 * other answers (creation, start, bulk update) are searched for objects that look like a case.
 */
export function caseBodies(method: string, pathname: string, json: unknown): Json[] {
  if (!CASES_PATH.test(pathname)) return [];
  if ((method === 'GET' || method === 'PATCH') && ONE_CASE_PATH.test(pathname)) return isObject(json) ? [json] : [];
  const out: Json[] = [];
  collectCases(json, 4, out);
  return out;
}

/** Sees every answer the harness receives and keeps what broke a case invariant. */
export class InvariantWatcher {
  #findings: InvariantFindings = InvariantWatcher.#empty();

  constructor(
    private readonly redactor: Redactor,
    private readonly baseUrl: string,
  ) {}

  static #empty(): InvariantFindings {
    return { watched: 0, violations: [], counts: {}, evidence: {}, errors: [], judged: {} };
  }

  /** Judges the case bodies of one answer; never throws (a watcher defect is kept as an error). */
  observe(req: OutgoingRequest, res: ReceivedResponse): void {
    try {
      if (res.status < 200 || res.status > 299 || res.json === undefined) return;
      const url = new URL(req.url);
      const bodies = caseBodies(req.method, url.pathname, res.json);
      if (bodies.length === 0) return;
      const f = this.#findings;
      // Built at the first violation: most answers break nothing.
      let request: string | undefined;
      let exchange: Exchange | undefined;
      for (const body of bodies) {
        f.watched += 1;
        const judged = (f.judged ??= {});
        for (const id of applicableInvariants(body)) judged[id] = (judged[id] ?? 0) + 1;
        for (const finding of caseInvariants(body)) {
          request ??= this.redactor.redact(`${req.method} ${url.pathname}${url.search}`);
          f.counts[finding.requirement] = (f.counts[finding.requirement] ?? 0) + 1;
          const violation: InvariantViolation = {
            ...finding,
            received: this.redactor.redact(finding.received),
            caseId: Number.isInteger(body.id) ? (body.id as number) : null,
            request,
          };
          // Polling reads repeat the same violation: keep distinct ones.
          const kept = f.violations.filter((v) => v.requirement === finding.requirement);
          if (
            kept.length < VIOLATIONS_KEPT &&
            !kept.some((v) => v.what === violation.what && v.received === violation.received && v.request === request)
          ) {
            f.violations.push(violation);
          }
          const evidence = (f.evidence[finding.requirement] ??= { exchanges: [], curl: [] });
          exchange ??= this.#exchange(req, res);
          if (evidence.exchanges.length < EXCHANGES_KEPT && !evidence.exchanges.includes(exchange)) {
            evidence.exchanges.push(exchange);
            evidence.curl.push(toCurl(exchange, this.baseUrl));
          }
        }
      }
    } catch (err) {
      if (this.#findings.errors.length < 5)
        this.#findings.errors.push(`invariant watcher: ${(err as Error)?.stack ?? String(err)}`);
    }
  }

  /** The findings since the last take; the watch starts afresh. */
  take(): InvariantFindings {
    const f = this.#findings;
    this.#findings = InvariantWatcher.#empty();
    return f;
  }

  /** The exchange as the transport records it: redacted, bodies capped. */
  #exchange(req: OutgoingRequest, res: ReceivedResponse): Exchange {
    const r = this.redactor;
    return {
      at: new Date().toISOString(),
      durationMs: 0,
      request: {
        method: req.method,
        url: r.redact(req.url),
        headers: r.redactHeaders(req.headers),
        ...(req.credential ? { credential: req.credential } : {}),
        ...(req.body !== undefined ? { body: r.redact(req.body.slice(0, RECORDED_BODY_CHARS)) } : {}),
      },
      response: {
        status: res.status,
        headers: r.redactHeaders(res.headers),
        body: r.redact(res.text.slice(0, RECORDED_BODY_CHARS)),
      },
    };
  }
}
