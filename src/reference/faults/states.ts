/**
 * Faults that show only in some states of a record (issue 33 §4): a check decided with a score of 0, a case created
 * without checks, an empty customer_type, a check_type a table of types does not know. Each is what an ordinary
 * server on another stack does; none shows on the cases the other suites make.
 */
import type { CheckType } from '../../spec/index.ts';
import { fault } from '../switches.ts';
import { withoutValues } from './webhook.ts';

/** The check types the interface lists last: a table of types written before they were added lacks them. */
const LATE_TYPES: ReadonlySet<CheckType | '' | null> = new Set([
  'TM_CRYPTO',
  'TM_CLASSIC',
  'IDV',
  'TRANSACTION_MONITORING',
  'INFO_BLOCK',
]);

export const STATE_FAULTS = [
  fault(
    'read.zero-score-null',
    'a check decided with a risk score of 0 shows risk_score null (`score || null`): every read and the webhook',
    (base) => ({
      checkView(k) {
        const view = base.checkView(k);
        return { ...view, risk_score: view.risk_score || null };
      },
    }),
  ),
  fault(
    'read.no-checks-null',
    'a case created without checks shows checks null (a relation never set up): every read and the webhook; a ' +
      'case that had checks shows [] once they are deleted',
    (base) => {
      const hadChecks = new Set<string>();
      return {
        caseView(c) {
          const view = base.caseView(c);
          const key = `${c.org} ${String(c.id)}`;
          const checks = view.checks as unknown[];
          if (checks.length > 0) hadChecks.add(key);
          return checks.length === 0 && !hadChecks.has(key) ? { ...view, checks: null } : view;
        },
      };
    },
  ),
  fault(
    'webhook.omit-empty-strings',
    'the webhook body is written by a serializer that leaves out empty strings (omitempty): a customer_type or ' +
      'check_type of "" is missing from it, though the case read shows it',
    // Go's `omitempty` on a string field: "" is left out.
    (base) => ({ webhookBody: (c) => withoutValues(base.webhookBody(c), (v) => v === '') }),
  ),
  fault(
    'webhook.type-table-gap',
    "the completion webhook names each check's type from a table that lacks the check types the interface lists " +
      'last (TM_CRYPTO, TM_CLASSIC, IDV, TRANSACTION_MONITORING, INFO_BLOCK): for a case holding one, building its ' +
      'payload fails and nothing is sent, though the case reads complete',
    (base, env) => ({
      caseCompleted(c) {
        if (env.store.checksOfCase(c.org, c.id).some((k) => LATE_TYPES.has(k.check_type))) return;
        base.caseCompleted(c);
      },
    }),
  ),
];
