/**
 * What the invariant watcher saw in one suite file's case bodies: plain data, so it travels in
 * task metadata from the suite's worker to the runner (src/kit/invariants.ts does the watching).
 */
import type { Id } from '../spec/index.ts';
import { type Evidence, oldestFirst } from './evidence.ts';
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
  /**
   * What a kept exchange's violation rests on, by exchangeKey(), per requirement: the keys of the exchanges (kept too)
   * in the order they happened (the deletion that freed an id, then the creation given it), which the evidence keeps
   * before it whatever their times say (another worker's request may have been sent before and answered after).
   */
  rests?: Partial<Record<WatchedRequirement, Record<string, string[]>>>;
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

/**
 * Exchanges (or what carries one) oldest first, each chain of keys (what a violation rests on, then the exchange that
 * showed it) kept in its order: one that comes before the one preceding it in its chain is moved to just after it.
 * Requests of several workers are ordered by when they were sent, which is not always the order the server took them
 * in: a creation sent before another worker's deletion may be given the id that deletion freed.
 */
export function inChainOrder<T extends { at: string }>(
  items: Iterable<T>,
  key: (item: T) => string,
  chains: readonly (readonly string[])[],
): T[] {
  const list = oldestFirst(items);
  for (let moved = true, rounds = 0; moved && rounds <= list.length; rounds++) {
    moved = false;
    for (const chain of chains) {
      for (let n = 1; n < chain.length; n++) {
        const before = list.findIndex((x) => key(x) === chain[n - 1]);
        const at = list.findIndex((x) => key(x) === chain[n]);
        if (before < 0 || at < 0 || at > before) continue;
        const [item] = list.splice(at, 1);
        list.splice(before, 0, item!);
        moved = true;
      }
    }
  }
  return list;
}

/** The chains of a requirement's evidence (InvariantFindings.rests): each kept exchange after what it rests on. */
export function restChains(rests: Readonly<Record<string, readonly string[]>> | undefined): string[][] {
  return Object.entries(rests ?? {}).map(([judged, before]) => [...before, judged]);
}
