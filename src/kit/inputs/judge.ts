/**
 * The verdict of one oracle over a way's cells, as a check gives it: every cell that broke the oracle named
 * in one failure (the first few in full, with the exchanges they rest on), the rest counted.
 */
import { ORACLES, type OracleName } from '../../spec/inputs/matrix.ts';
import { fail } from '../assert.ts';
import type { CheckApi } from '../check.ts';
import type { CellVerdict } from './cell.ts';

/** Failures told in full in a message; the rest are counted. */
const SHOWN = 6;

/** A cell as an oracle's verdicts are given: the value matrix's, or another dimension's with oracles of its own. */
export interface JudgedCell<O extends string = OracleName> {
  spec: { id: string; verdict: string; oracles: readonly O[] };
  status?: number;
  verdicts: Partial<Record<O, CellVerdict>>;
}

/**
 * Fails the check when a cell broke `oracle`; `what` names the way in (`PATCH /api/cases/{id}/`); `statement` what
 * the oracle says (the value matrix's ORACLES by default).
 */
export function judgeOracle<O extends string = OracleName>(
  t: CheckApi,
  cells: readonly JudgedCell<O>[],
  oracle: O,
  requirement: string,
  what: string,
  statement: string = ORACLES[oracle as unknown as OracleName],
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
    statement,
    `${shown.map((c) => `- ${c.verdicts[oracle]!.why}`).join('\n')}${more}`,
    {
      judged: shown.flatMap((c) => c.verdicts[oracle]!.judged ?? []),
      // Each answer judged was to be a 2xx or a 4xx: what a reproduction checks of the last.
      ...(oracle === 'answered' ? { expect: { status: ['2xx', '4xx'] } } : {}),
    },
  );
}
