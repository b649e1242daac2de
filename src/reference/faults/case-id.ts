/** Faults of the case id in the path of /api/cases/{id}/ (requirement CASE-ID-NON-INTEGER). */
import { AnswerNow } from '../http.ts';
import { fault } from '../switches.ts';

export const CASE_ID_FAULTS = [
  fault(
    'cases.non-integer-id-500',
    'a case path id that is no integer, or one too large for a safe integer, answers 500 (as a failed cast would)',
    (base) => ({
      caseId(idText) {
        if (!/^\d+$/.test(idText) || !Number.isSafeInteger(Number(idText)))
          throw new AnswerNow({ status: 500, body: { error: 'server_error', detail: 'internal error' } });
        return base.caseId(idText);
      },
    }),
  ),
];
