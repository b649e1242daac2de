/**
 * What the invariant watcher saw in one suite file's case bodies: plain data, so it travels in
 * task metadata from the suite's worker to the runner (src/kit/invariants.ts does the watching).
 */
import type { Id } from '../spec/index.ts';
import type { Evidence } from './evidence.ts';
import type { Exchange } from './exchange.ts';
import type { Expectation } from './failure.ts';

/**
 * What the watcher judges on every case body, one requirement per invariant (CASE-ID-NOT-REUSED across bodies: a
 * deleted case's id shown by another case).
 */
export const WATCHED_REQUIREMENTS = [
  'READ-CASE-SCHEMA',
  'READ-ENUMS',
  'READ-RISK-SCORE-RANGE',
  'READ-CHECK-DECIDED-SCORE',
  'READ-CASE-RISK-MAX',
  'CASE-EXTERNAL-ID-STRING',
  'CASE-ORIGIN-URL-ALIAS',
  'CASE-ID-NOT-REUSED',
] as const;
export type WatchedRequirement = (typeof WATCHED_REQUIREMENTS)[number];

/** How a report names the invariant watch of a suite file, as a check: `invariant watch: <suite>`. */
export const WATCH_NAME = 'invariant watch: ';

/** One broken invariant in one case body. */
export interface InvariantFinding {
  requirement: WatchedRequirement;
  what: string;
  expected: string;
  received: string;
  /**
   * What the answer must show, as data a reproduction script checks, where a replay shows the same
   * defect the same way: a value outside an enum, a field left out. (A risk score out of range is
   * not: a replay's scores differ.)
   */
  expect?: Expectation;
}

export interface InvariantViolation extends InvariantFinding {
  caseId: Id | null;
  /** The request whose answer held the case: `GET /api/cases/12/`. */
  request: string;
}

/** What one suite file's watch saw. */
export interface InvariantFindings {
  /** Case bodies judged. */
  watched: number;
  /** Violations, the first few distinct ones per requirement. */
  violations: InvariantViolation[];
  /** Violations per requirement, all of them. */
  counts: Partial<Record<WatchedRequirement, number>>;
  /** The first exchanges that showed a violation, per requirement, with curl reproductions. */
  evidence: Partial<Record<WatchedRequirement, Evidence>>;
  /** The expectation of the first violation each kept exchange showed, by exchangeKey(), per requirement. */
  expects?: Partial<Record<WatchedRequirement, Record<string, Expectation>>>;
  /** Defects of the watcher itself (never a verdict on the server). */
  errors: string[];
  /**
   * Case bodies each requirement applied to: a requirement that applied to none was not judged,
   * however many bodies were watched, so its outcome is a skip, not a pass.
   */
  judged: Partial<Record<WatchedRequirement, number>>;
}

/** An exchange's key among a suite file's: when it was sent, and what. */
export function exchangeKey(e: Pick<Exchange, 'at' | 'request'>): string {
  return `${e.at} ${e.request.method} ${e.request.url}`;
}
