/**
 * From what the suites reported to what is judged: a check that could not judge is not a failure
 * of its requirement but a skip with the reason (the harness fault itself makes the run
 * INCOMPLETE); a check cut short by a stop, or never started because of it, did not run.
 */
import { oneLine } from '../base/text.ts';
import { NOT_SELECTED, otherShardReason } from '../results/judge.ts';
import type { CheckOutcome } from '../results/outcome.ts';
import type { RequirementResult } from '../results/report.ts';
import { AREA_SUITES, type Area } from '../spec/index.ts';

export function settleOutcomes(outcomes: readonly CheckOutcome[], why: string | undefined): CheckOutcome[] {
  return outcomes.map((o): CheckOutcome => {
    if (why && o.state === 'skipped' && o.notRun) return { ...o, skipReason: `not run: ${why}` };
    if (!o.harnessFault || o.state !== 'failed') return o;
    const { failure: _failure, evidence: _evidence, ...rest } = o;
    if (o.harnessFault.code === 'SC_INTERRUPTED') {
      const { harnessFault: _cut, ...kept } = rest;
      return { ...kept, state: 'skipped', skipReason: 'cut short: the run was stopping' };
    }
    return { ...rest, state: 'skipped', skipReason: `could not judge: ${oneLine(o.harnessFault.message, 200)}` };
  });
}

/**
 * Requirements of a stopped run that no check reached say so, rather than "suite not selected" —
 * those of a selected suite; the requirements of suites not selected stay "not selected".
 */
export function markNotRun(
  results: RequirementResult[],
  why: string | undefined,
  suites: readonly string[],
): RequirementResult[] {
  if (!why) return results;
  const selected = (r: RequirementResult) => (AREA_SUITES[r.area as Area] ?? []).some((s) => suites.includes(s));
  return results.map((r) =>
    r.verdict === 'skip' && r.tests.length === 0 && selected(r) ? { ...r, reason: `not run: ${why}` } : r,
  );
}

/**
 * A shard's partial report: the requirements no check of its part judged are left to the other shards, said so, and
 * not counted as gaps of its part (screenconf merge judges them from the shard that ran their checks).
 */
export function markOtherShards(
  results: RequirementResult[],
  shard: { index: number; count: number } | undefined,
): RequirementResult[] {
  if (!shard) return results;
  const reason = otherShardReason(shard);
  return results.map((r) => (r.verdict === 'skip' && r.reason === NOT_SELECTED ? { ...r, reason } : r));
}
