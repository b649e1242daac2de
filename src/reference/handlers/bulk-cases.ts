/** POST /api/cases/bulk-update/ (interface § Endpoints): up to 100 case patches, each with its id. */
import { BulkCaseUpdateRequest } from '../../spec/index.ts';
import { type Answer, HttpError } from '../http.ts';
import { fieldErrors } from '../validation.ts';
import { bulkRequest, isObject } from './bulk.ts';
import { applyPatch, CASE_KEYS, otherKeysOf, readOnlyFieldsOf } from './case-write.ts';
import type { BatchSpec, Env } from '../points.ts';

const SPEC: BatchSpec = {
  // Stryker disable next-line StringLiteral: the op tag is read by the switches only, not by the correct behaviour
  op: 'bulk-cases',
  key: 'items',
  schema: BulkCaseUpdateRequest,
};

/** Applies each item as a PATCH of the case it names. */
export function bulkUpdateCases(env: Env, org: string, body: unknown): Answer {
  return bulkRequest(
    env,
    SPEC,
    body,
    (item) => ({ id: (isObject(item) ? item.id : undefined) ?? null }),
    (item) => {
      const parsed = env.rules.bulkCaseItem.safeParse(item);
      if (!parsed.success)
        throw new HttpError(400, 'validation_error', 'item is invalid', { fields: fieldErrors(parsed.error) });
      const { id, ...patch } = parsed.data;
      // Stryker disable next-line StringLiteral: the op tag is read by the switches only, not by the correct behaviour
      const c = env.b.findCase(org, id, 'bulk-cases');
      // The correct server ignores the read-only fields a write sends: what readOnlySent is given matters to the
      // fault and variant switches only.
      // Stryker disable next-line ArrayDeclaration,StringLiteral: readOnlySent does nothing in the correct server
      env.b.readOnlySent(c, readOnlyFieldsOf(item, ['id']), 'bulk-cases');
      // Stryker disable next-line ObjectLiteral,ArrayDeclaration,StringLiteral: otherKeysSent does nothing in the correct server
      env.b.otherKeysSent({ case: c }, otherKeysOf(item, CASE_KEYS), 'bulk-cases');
      // Stryker disable next-line StringLiteral: the op tag is read by the switches only, not by the correct behaviour
      applyPatch(env, org, c, patch, env.b.uniqueChecked('bulk-cases'));
      return { key: { id }, status: 'updated' };
    },
  );
}
