/**
 * The verdict of one oracle over a way's cells, as a check gives it: every cell that broke the oracle named
 * in one failure (the first few in full, with the exchanges they rest on), the rest counted.
 */
import { ORACLES, type OracleName } from '../../spec/inputs/matrix.ts';
import { fail } from '../assert.ts';
import type { CheckApi } from '../check.ts';
import type { SentCell } from './cell.ts';

/** Failures told in full in a message; the rest are counted. */
const SHOWN = 6;

/** Fails the check when a cell broke `oracle`; `what` names the way in (`PATCH /api/cases/{id}/`). */
export function judgeOracle(
  t: CheckApi,
  cells: readonly SentCell[],
  oracle: OracleName,
  requirement: string,
  what: string,
): void {
  // A cell the oracle has no verdict on is one it does not apply to (limits on a value the field allows).
  const mine = cells.filter((c) => c.spec.oracles.includes(oracle) && c.verdicts[oracle] !== undefined);
  t.recordCells(
    mine.map((c) => {
      const v = c.verdicts[oracle];
      return {
        cell: c.spec.id,
        oracle,
        requirement,
        verdict: c.spec.verdict,
        result: v!.result,
        ...(c.status !== undefined ? { status: c.status } : {}),
        ...(v?.why !== undefined && v.result !== 'pass' ? { why: v.why } : {}),
      };
    }),
  );
  const failures = mine.filter((c) => c.verdicts[oracle]?.result === 'fail');
  if (failures.length === 0) return;
  const shown = failures.slice(0, SHOWN);
  const more =
    failures.length > SHOWN ? `\n… and ${failures.length - SHOWN} more (the report's input matrix lists them)` : '';
  fail(
    `${what}: ${failures.length} of ${mine.length} inputs broke the rule`,
    ORACLES[oracle],
    `${shown.map((c) => `- ${c.verdicts[oracle]!.why}`).join('\n')}${more}`,
    { judged: shown.flatMap((c) => c.verdicts[oracle]!.judged ?? []) },
  );
}
