/**
 * From test outcomes to one verdict per requirement of the catalogue.
 *   MUST:    any failed test → fail; all passed → pass
 *   SHOULD:  any failed test → warn; all passed → pass
 *   OBSERVE: something recorded → observed (with what was seen); nothing recorded and a test
 *            failed → warn (could not observe)
 *   every level: no test ran (skipped or filtered out) → skip, with the reason
 */
import { AREAS, CATALOGUE, type Area, type Level, type Requirement } from '../spec/index.ts';
import type { Evidence, Observation } from '../kit/meta.ts';

export type Verdict = 'pass' | 'fail' | 'warn' | 'skip' | 'observed';

export interface TestOutcome {
  /** Suite file name without folder and extension, e.g. "token". */
  suite: string;
  /** The check's full name; `invariant watch: <suite>` for the invariant watcher's outcomes of a file. */
  name: string;
  state: 'passed' | 'failed' | 'skipped';
  requirements: string[];
  errors: string[];
  observations: Observation[];
  evidence?: Evidence;
  skipReason?: string;
  harnessFault?: string;
  /** Set when the check was re-run after failing: true when the re-run passed (flaky), false when it failed again (deterministic). */
  flaky?: boolean;
  durationMs: number;
}

export interface RequirementResult {
  id: string;
  level: Level;
  area: Area;
  statement: string;
  source: string;
  /** Where the interface is ambiguous: the reading the catalogue takes. */
  decision?: string;
  verdict: Verdict;
  /** Why skipped, or the first failure message. */
  reason?: string;
  tests: { suite: string; name: string; state: TestOutcome['state']; flaky?: boolean }[];
  observations?: string[];
  /** Each observation with the check that recorded it and the exchange it was read from. */
  observationEvidence?: { test: string; text: string; evidence?: Evidence }[];
  failures?: { test: string; message: string; flaky?: boolean; evidence?: Evidence }[];
}

export interface Summary {
  conforming: boolean;
  counts: Record<Verdict, number>;
  mustFailures: number;
  shouldWarnings: number;
  harnessFaults: string[];
}

function verdictFor(r: Requirement, tests: TestOutcome[]): Pick<RequirementResult, 'verdict' | 'reason'> {
  const ran = tests.filter((t) => t.state !== 'skipped');
  if (tests.length === 0) return { verdict: 'skip', reason: 'no check ran for it in this run (suite not selected)' };
  if (ran.length === 0) return { verdict: 'skip', reason: tests.map((t) => t.skipReason).find(Boolean) ?? 'skipped' };
  const failed = ran.filter((t) => t.state === 'failed');
  const observed = tests.some((t) => t.observations.some((o) => o.requirement === r.id));
  if (r.level === 'OBSERVE' && observed) return { verdict: 'observed' };
  if (failed.length > 0) {
    const reason = failed[0]!.errors[0]?.split('\n')[0];
    return { verdict: r.level === 'MUST' ? 'fail' : 'warn', ...(reason ? { reason } : {}) };
  }
  return { verdict: r.level === 'OBSERVE' ? 'observed' : 'pass' };
}

export function judge(
  outcomes: TestOutcome[],
  catalogue: readonly Requirement[] = CATALOGUE,
): { results: RequirementResult[]; summary: Summary } {
  const results = catalogue.map((r): RequirementResult => {
    const tests = outcomes.filter((t) => t.requirements.includes(r.id));
    const observed = tests.flatMap((t) =>
      t.observations
        .filter((o) => o.requirement === r.id)
        .map((o) => ({ test: t.name, text: o.text, ...(o.evidence ? { evidence: o.evidence } : {}) })),
    );
    const observations = observed.map((o) => o.text);
    const failures = tests
      .filter((t) => t.state === 'failed')
      .map((t) => ({
        test: t.name,
        message: t.errors.join('\n'),
        ...(t.flaky !== undefined ? { flaky: t.flaky } : {}),
        ...(t.evidence ? { evidence: t.evidence } : {}),
      }));
    return {
      id: r.id,
      level: r.level,
      area: r.area,
      statement: r.statement,
      source: r.source,
      ...(r.decision ? { decision: r.decision } : {}),
      ...verdictFor(r, tests),
      tests: tests.map((t) => ({ suite: t.suite, name: t.name, state: t.state, ...(t.flaky ? { flaky: true } : {}) })),
      ...(observations.length ? { observations, observationEvidence: observed } : {}),
      ...(failures.length ? { failures } : {}),
    };
  });
  const counts: Record<Verdict, number> = { pass: 0, fail: 0, warn: 0, skip: 0, observed: 0 };
  for (const r of results) counts[r.verdict] += 1;
  const harnessFaults = [...new Set(outcomes.map((t) => t.harnessFault).filter((f): f is string => !!f))];
  const mustFailures = results.filter((r) => r.level === 'MUST' && r.verdict === 'fail').length;
  return {
    results,
    summary: {
      conforming: mustFailures === 0 && harnessFaults.length === 0,
      counts,
      mustFailures,
      shouldWarnings: results.filter((r) => r.level === 'SHOULD' && r.verdict === 'warn').length,
      harnessFaults,
    },
  };
}

/** Verdict counts per area, in catalogue order. */
export function byArea(results: RequirementResult[]): { area: Area; title: string; counts: Record<Verdict, number> }[] {
  return (Object.keys(AREAS) as Area[])
    .map((area) => {
      const counts: Record<Verdict, number> = { pass: 0, fail: 0, warn: 0, skip: 0, observed: 0 };
      for (const r of results) if (r.area === area) counts[r.verdict] += 1;
      return { area, title: AREAS[area], counts };
    })
    .filter((row) => Object.values(row.counts).some((n) => n > 0));
}
