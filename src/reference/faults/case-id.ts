/** Faults of the case id in the path of /api/cases/{id}/ (requirement CASE-ID-NON-INTEGER). */
import { AnswerNow } from '../http.ts';
import { fault } from '../switches.ts';

/** The largest signed 64-bit integer: ids up to it are legal (ids.above-2^53), one past it fails the cast. */
const INT64_MAX = 2n ** 63n - 1n;

export const CASE_ID_FAULTS = [
  fault(
    'cases.non-integer-id-500',
    'a case path id that is no integer, or one too large for a 64-bit integer, answers 500 (as a failed cast would)',
    (base) => ({
      caseId(idText) {
        if (!/^\d+$/.test(idText) || BigInt(idText) > INT64_MAX)
          throw new AnswerNow({ status: 500, body: { error: 'server_error', detail: 'internal error' } });
        return base.caseId(idText);
      },
    }),
  ),
];
