/**
 * The release gate: from the verdicts of one target to "does this run pass".
 *   - a MUST failure fails the gate, and so does a SHOULD warning under --strict,
 *     unless an unexpired expectation names the requirement (shown as expected-fail);
 *   - an expectation whose requirement passed fails the gate (the file is out of date: remove it);
 *   - an expired expectation fails the gate, whatever its requirement did;
 *   - an expectation whose requirement was not judged (skipped) changes nothing.
 * The verdicts themselves stay what they are: `verdict` says what the server did, `expected`
 * says what the team knew.
 */
import { inOtherShard } from './judge.ts';
import type { ExpectedMark, GateRef, GateSummary, RequirementResult } from './report.ts';

/** One entry of the expectations file (--expect): a known failure, why, and until when. */
export interface Expectation {
  /** A requirement id of the catalogue. */
  id: string;
  reason: string;
  /** The last day the expectation holds, YYYY-MM-DD; from the day after, it fails the gate. */
  expires: string;
  /** Only for this target (a run with `--target LABEL=URL`); absent: every target. */
  target?: string;
  /** Position in the file, 1-based, and the line its object starts on. */
  entry: number;
  line?: number;
}

type ExpectedOutcome = ExpectedMark['outcome'];

export interface GateOptions {
  strict: boolean;
  /** --require-complete: a MUST requirement no check judged fails the gate. */
  requireComplete?: boolean;
  /** YYYY-MM-DD. */
  today: string;
  /** The target these results are of, in a run with several. */
  label?: string;
  expectationsFile?: string;
}

function ref(id: string, label: string | undefined): GateRef {
  return label === undefined ? { id } : { id, target: label };
}

function problem(r: RequirementResult, strict: boolean): boolean {
  return r.verdict === 'fail' || (strict && r.level === 'SHOULD' && r.verdict === 'warn');
}

export function applyGate(
  results: RequirementResult[],
  expectations: readonly Expectation[],
  options: GateOptions,
): { results: RequirementResult[]; gate: GateSummary } {
  const { strict, today, label } = options;
  const mine = expectations.filter((e) => e.target === undefined || e.target === label);
  const gate: GateSummary = {
    passed: true,
    strict,
    ...(options.expectationsFile ? { expectations: options.expectationsFile } : {}),
    expectedFailures: [],
    unexpectedPasses: [],
    expired: [],
    gating: [],
    requireComplete: options.requireComplete === true,
    notJudged: results
      .filter((r) => r.level === 'MUST' && r.verdict === 'skip' && !inOtherShard(r.reason))
      .map((r) => ref(r.id, label)),
  };
  const gated = results.map((r): RequirementResult => {
    const e = mine.find((x) => x.id === r.id);
    const failing = r.verdict === 'fail' || r.verdict === 'warn';
    let outcome: ExpectedOutcome | undefined;
    if (e) {
      if (e.expires < today) {
        outcome = 'expired';
      } else if (failing) {
        outcome = 'expected-fail';
        gate.expectedFailures.push(ref(r.id, label));
      } else if (r.verdict === 'pass') {
        outcome = 'unexpected-pass';
        gate.unexpectedPasses.push(ref(r.id, label));
      } else outcome = 'not-judged';
    }
    if (problem(r, strict) && outcome !== 'expected-fail') gate.gating.push(ref(r.id, label));
    return e && outcome ? { ...r, expected: { reason: e.reason, expires: e.expires, outcome } } : r;
  });
  gate.expired = mine
    .filter((e) => e.expires < today)
    .map((e) => ({ ...ref(e.id, e.target), expires: e.expires, entry: e.entry }));
  const incomplete = gate.requireComplete === true && (gate.notJudged?.length ?? 0) > 0;
  gate.passed =
    gate.gating.length === 0 && gate.unexpectedPasses.length === 0 && gate.expired.length === 0 && !incomplete;
  return { results: gated, gate };
}

/** The gate of a run with several targets: it passes when every target's does. */
export function combineGates(
  gates: GateSummary[],
  strict: boolean,
  expectationsFile?: string,
  requireComplete = false,
): GateSummary {
  return {
    passed: gates.every((g) => g.passed),
    strict,
    requireComplete,
    notJudged: gates.flatMap((g) => g.notJudged ?? []),
    ...(expectationsFile ? { expectations: expectationsFile } : {}),
    expectedFailures: gates.flatMap((g) => g.expectedFailures),
    unexpectedPasses: gates.flatMap((g) => g.unexpectedPasses),
    expired: [...new Map(gates.flatMap((g) => g.expired).map((e) => [e.entry, e])).values()].sort(
      (a, b) => a.entry - b.entry,
    ),
    gating: gates.flatMap((g) => g.gating),
  };
}
