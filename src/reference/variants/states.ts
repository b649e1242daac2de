/**
 * Variants of the states a record can be in (issue 33 §4): a check type processing does not decide, and a case
 * without checks that processing refuses to start. Both leave a state the harness reads without a score or a
 * webhook it may ask for.
 */
import { HttpError } from '../http.ts';
import { variant } from '../switches.ts';

export const STATE_VARIANTS = [
  variant(
    'processing.info-skipped',
    'information checks (INFO_BLOCK) are not decided: processing marks them SKIPPED, their outcome and risk_score ' +
      'null (the case risk_score the maximum of the others)',
    (base) => ({
      scoreCheck: (caseId, check) => (check.check_type === 'INFO_BLOCK' ? null : base.scoreCheck(caseId, check)),
    }),
  ),
  variant(
    'cases.empty-start-refused',
    'starting processing of a case without checks (created without, or all deleted) is refused with 409: there is ' +
      'nothing to process, and no webhook follows',
    (base, env) => ({
      findCase(org, id, op) {
        const c = base.findCase(org, id, op);
        if (op === 'start' && env.store.checksOfCase(c.org, c.id).length === 0)
          throw new HttpError(409, 'no_checks', `case ${String(c.id)} has no checks to process`);
        return c;
      },
    }),
  ),
];
