/**
 * From check outcomes to one verdict per requirement of the catalogue.
 *   MUST:    any failed check → fail; all passed → pass
 *   SHOULD:  any failed check → warn; all passed → pass
 *   OBSERVE: something recorded → observed (with what was seen); nothing recorded and a check
 *            failed → warn (could not observe)
 *   every level: no check ran (skipped or filtered out) → skip, with the reason
 *   a check that failed, then passed when re-run, is flaky: not a failure; the verdict's reason
 *   says so, with the first failure, and summary.flaky lists the requirement
 */
import { oneLine } from '../base/text.ts';
import { type AnyRequirement, AREAS, type Area, CATALOGUE, USER_AREA, USER_AREA_TITLE } from '../spec/index.ts';
import type { CheckOutcome } from './outcome.ts';
import type { Counts, Failure, NotJudged, RequirementResult, RunVerdict, Summary, Verdict } from './report.ts';

/** The summary fields judging decides; the runner adds what the run itself produced (cleanup, errors). */
export type JudgedSummary = Pick<
  Summary,
  'verdict' | 'conforming' | 'counts' | 'mustFailures' | 'shouldWarnings' | 'harnessFaults' | 'mustNotJudged' | 'flaky'
>;

/** What decides the verdict of a run (or of one target of it). */
export interface VerdictInputs {
  mustFailures: number;
  mustNotJudged?: readonly unknown[] | undefined;
  harnessFaults: readonly unknown[];
  suiteErrors?: readonly unknown[] | undefined;
  interrupted?: unknown;
}

/**
 * The run's verdict: a MUST failure decides (not-conforming); otherwise anything not judged — a
 * MUST skipped for any reason, a check that could not judge, a suite error, a stop — leaves it
 * incomplete, never conforming: a report must not claim what was not judged.
 */
export function runVerdict(s: VerdictInputs): RunVerdict {
  if (s.mustFailures > 0) return 'not-conforming';
  const gaps = (s.mustNotJudged?.length ?? 0) + s.harnessFaults.length + (s.suiteErrors?.length ?? 0);
  return gaps > 0 || s.interrupted ? 'incomplete' : 'conforming';
}

export function emptyCounts(): Counts {
  return { pass: 0, fail: 0, warn: 0, skip: 0, observed: 0 };
}

/** The reason of a requirement no check of the run names: its suite was not selected. */
export const NOT_SELECTED = 'no check ran for it in this run (suite not selected)';
/** The reason of a check --only left out. */
export const NOT_IN_ONLY = 'not selected: --only names other requirements';

/** How the reason of a requirement left to the other shards begins (--shard: a partial report). */
export const OTHER_SHARD = 'not judged in this shard';

/** The reason of a requirement no check of this shard judged: the other shards' part, or not selected. */
export function otherShardReason(shard: { index: number; count: number }): string {
  return `${OTHER_SHARD} (${shard.index}/${shard.count}): a partial report; screenconf merge judges the whole run`;
}

/** Whether a requirement was left to the other shards of a sharded run (not a gap of this shard's part). */
export function inOtherShard(reason: string | undefined): boolean {
  return reason?.startsWith(OTHER_SHARD) === true;
}

/** Whether a requirement was left out of the run by choice (--suites, --only, --shard): counted, not listed. */
export function deselected(reason: string): boolean {
  return reason === NOT_SELECTED || reason === NOT_IN_ONLY || inOtherShard(reason);
}

/** The reason of a requirement whose check failed once and passed when re-run: what failed first follows. */
export const FLAKY = 'flaky: a check failed, then passed when re-run (not counted as a failure); it failed first with:';

/** A check that passed on its re-run after a failure, and kept that failure. */
function flakyFailure(checks: readonly CheckOutcome[]): CheckOutcome | undefined {
  return checks.find((t) => t.state === 'passed' && t.flaky === true && t.failure !== undefined);
}

function verdictFor(r: AnyRequirement, checks: CheckOutcome[]): Pick<RequirementResult, 'verdict' | 'reason'> {
  const ran = checks.filter((t) => t.state !== 'skipped');
  if (checks.length === 0) return { verdict: 'skip', reason: NOT_SELECTED };
  if (ran.length === 0) return { verdict: 'skip', reason: checks.map((t) => t.skipReason).find(Boolean) ?? 'skipped' };
  const failed = ran.filter((t) => t.state === 'failed');
  const observed = checks.some((t) => t.observations.some((o) => o.requirement === r.id));
  if (r.level === 'OBSERVE' && observed) return { verdict: 'observed' };
  if (failed.length > 0) {
    const reason = failed[0]!.failure?.message.split('\n')[0];
    return { verdict: r.level === 'MUST' ? 'fail' : 'warn', ...(reason ? { reason } : {}) };
  }
  const flaky = flakyFailure(ran);
  return {
    verdict: r.level === 'OBSERVE' ? 'observed' : 'pass',
    ...(flaky ? { reason: `${FLAKY} ${firstFailureLine(flaky.failure!)}` } : {}),
  };
}

/** A failure on one line: what was checked, and expected against received where it says. */
function firstFailureLine(f: NonNullable<CheckOutcome['failure']>): string {
  const what = f.what || f.message.split('\n')[0]!;
  if (f.expected === undefined && f.received === undefined) return what;
  return `${what}: expected ${f.expected ?? '(not said)'}, received ${oneLine(f.received ?? '(not said)', 200)}`;
}

/** A failed check's failure as the report carries it: its fields, the message, the evidence. */
function failureOf(r: AnyRequirement, t: CheckOutcome): Failure {
  const f = t.failure;
  return {
    test: t.name,
    ...(r.level !== 'OBSERVE' ? { requirement: r.id } : {}),
    message: f?.message ?? 'failed (no message)',
    ...(f?.what !== undefined ? { what: f.what } : {}),
    ...(f?.expected !== undefined ? { expected: f.expected } : {}),
    ...(f?.received !== undefined ? { received: f.received } : {}),
    ...(f?.request ? { request: f.request } : {}),
    ...(f?.expect ? { expect: f.expect } : {}),
    ...(t.flaky !== undefined ? { flaky: t.flaky } : {}),
    ...(t.evidence ? { evidence: t.evidence } : {}),
  };
}

function resultFor(r: AnyRequirement, outcomes: CheckOutcome[]): RequirementResult {
  const checks = outcomes.filter((t) => t.requirements.includes(r.id));
  const observed = checks.flatMap((t) =>
    t.observations
      .filter((o) => o.requirement === r.id)
      .map((o) => ({ test: t.name, text: o.text, ...(o.evidence ? { evidence: o.evidence } : {}) })),
  );
  const failures = checks.filter((t) => t.state === 'failed').map((t) => failureOf(r, t));
  return {
    id: r.id,
    level: r.level,
    area: r.area,
    ...('owner' in r ? { owner: r.owner } : {}),
    statement: r.statement,
    source: r.source,
    ...(r.decision ? { decision: r.decision } : {}),
    ...verdictFor(r, checks),
    tests: checks.map((t) => ({ suite: t.suite, name: t.name, state: t.state, ...(t.flaky ? { flaky: true } : {}) })),
    ...(observed.length ? { observations: observed.map((o) => o.text), observationEvidence: observed } : {}),
    ...(failures.length ? { failures } : {}),
  };
}

/** The verdict of every requirement of the catalogue, and what they add up to. */
export function judge(
  outcomes: CheckOutcome[],
  catalogue: readonly AnyRequirement[] = CATALOGUE,
): { results: RequirementResult[]; summary: JudgedSummary } {
  const results = catalogue.map((r) => resultFor(r, outcomes));
  const counts = countVerdicts(results);
  const harnessFaults = [
    ...new Set(outcomes.map((t) => t.harnessFault?.message).filter((f): f is string => f !== undefined)),
  ];
  const mustFailures = results.filter((r) => r.level === 'MUST' && r.verdict === 'fail').length;
  const mustNotJudged = notJudged(results);
  const flaky = results.filter((r) => r.tests.some((t) => t.flaky) && r.reason?.startsWith(FLAKY)).map((r) => r.id);
  const verdict = runVerdict({ mustFailures, mustNotJudged, harnessFaults });
  return {
    results,
    summary: {
      verdict,
      conforming: verdict === 'conforming',
      mustNotJudged,
      counts,
      mustFailures,
      shouldWarnings: results.filter((r) => r.level === 'SHOULD' && r.verdict === 'warn').length,
      harnessFaults,
      ...(flaky.length ? { flaky } : {}),
    },
  };
}

/** The MUST requirements no check judged, with the reason each was skipped (a shard's: of its own part). */
export function notJudged(results: readonly RequirementResult[]): NotJudged[] {
  return results
    .filter((r) => r.level === 'MUST' && r.verdict === 'skip' && !inOtherShard(r.reason))
    .map((r) => ({ id: r.id, reason: r.reason ?? 'not judged' }));
}

/** Requirements per verdict. */
export function countVerdicts(results: readonly Pick<RequirementResult, 'verdict'>[]): Counts {
  const counts = emptyCounts();
  for (const r of results) counts[r.verdict] += 1;
  return counts;
}

/** The title of an area; an area this version does not know (a newer report) shows as it is. */
export function areaTitle(area: string): string {
  return area === USER_AREA ? USER_AREA_TITLE : (AREAS[area as Area] ?? area);
}

/** Verdict counts per area, in catalogue order, then areas this version does not know; empty areas left out. */
export function byArea(
  results: readonly Pick<RequirementResult, 'area' | 'verdict'>[],
): { area: string; title: string; counts: Record<Verdict, number>; total: number }[] {
  const order = [...Object.keys(AREAS), USER_AREA, ...results.map((r) => r.area).filter((a) => !(a in AREAS))];
  return [...new Set(order)]
    .map((area) => {
      const counts = countVerdicts(results.filter((r) => r.area === area));
      return { area, title: areaTitle(area), counts, total: Object.values(counts).reduce((a, b) => a + b, 0) };
    })
    .filter((row) => row.total > 0);
}
