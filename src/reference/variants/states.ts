/**
 * Variants of the states a record can be in (issue 33 §4): checks processing waits at for documents, a check type it
 * does not decide, and a case without checks it refuses to start. Each leaves a state the harness reads without a
 * score or a webhook it may ask for.
 */
import { HttpError } from '../http.ts';
import type { CheckRecord } from '../store.ts';
import { variant } from '../switches.ts';

/** The check types the interface says want documents: KYB, KYC EDD and transaction monitoring. */
const DOCUMENTS_WANTED: ReadonlySet<CheckRecord['check_type']> = new Set([
  'KYB_PROOF_OF_IDENTITY',
  'KYB_BANK_STATEMENT',
  'KYB_PROOF_OF_ADDRESS',
  'KYB_TAX_DOCUMENTS',
  'EDD_QUESTIONNAIRE',
  'TM_CRYPTO',
  'TM_CLASSIC',
  'TRANSACTION_MONITORING',
]);

export const STATE_VARIANTS = [
  variant(
    'processing.documents-awaited',
    'processing waits at a check that wants documents (KYB, KYC EDD, transaction monitoring: the interface says ' +
      'they are required) until they come: it stays PENDING and its case is never completed, so no webhook is sent',
    () => ({ awaitsDocuments: (check) => DOCUMENTS_WANTED.has(check.check_type) }),
  ),
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
