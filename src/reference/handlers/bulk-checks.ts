/** POST /api/checks/bulk-delete/ (interface § Endpoints): up to 100 check ids to delete. */
import { BulkCheckDeleteRequest, type Id } from '../../spec/index.ts';
import type { Answer } from '../http.ts';
import { bulkRequest } from './bulk.ts';
import { lookupIn } from './lookup.ts';
import type { BatchSpec, BulkCheckPoints, Env } from '../points.ts';

const SPEC: BatchSpec = {
  // Stryker disable next-line StringLiteral: the op tag is read by the switches only, not by the correct behaviour
  op: 'bulk-checks',
  key: 'ids',
  schema: BulkCheckDeleteRequest,
};

/** The correct removal: the check is gone. */
export function bulkCheckDefaults(env: Env): BulkCheckPoints {
  return { removeCheck: (check) => env.store.deleteCheck(check.org, check.id) };
}

/** Deletes each named check; its case changes with it (updated_at). */
export function bulkDeleteChecks(env: Env, org: string, body: unknown): Answer {
  return bulkRequest(
    env,
    SPEC,
    body,
    (id) => ({ id }),
    (entry) => {
      const id = entry as Id;
      // Stryker disable next-line StringLiteral: the op tag is read by the switches only, not by the correct behaviour
      const check = lookupIn(env, org, 'bulk-checks', (o) => env.store.getCheck(o, id));
      if (!check) throw env.b.notFound({ kind: 'check', org, id });
      env.b.removeCheck(check);
      const c = env.store.getCase(check.org, check.caseId);
      if (c) env.b.saveCase(c);
      return { key: { id }, status: 'deleted' };
    },
  );
}
