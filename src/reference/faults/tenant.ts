/** Faults of tenant isolation (requirements TENANT-*): one operation reaches every organisation's records. */
import { compareIds } from '../../spec/index.ts';
import { HttpError } from '../http.ts';
import { fault, type Switch } from '../switches.ts';
import type { Op } from '../points.ts';

/** A fault whose operation looks in every organisation, the caller's first. */
function leak<N extends string>(name: N, op: Op, description: string): Switch<N> {
  return fault(name, description, (base, env) => ({
    scope: (org, asked) =>
      asked === op ? [org, ...env.organisations.map((o) => o.name).filter((n) => n !== org)] : base.scope(org, asked),
  }));
}

export const TENANT_FAULTS = [
  leak(
    'tenant.leak-patch',
    'patch',
    "PATCH finds cases of every organisation: another organisation's case can be updated",
  ),
  leak(
    'tenant.leak-delete',
    'delete',
    "DELETE finds cases of every organisation: another organisation's case can be deleted",
  ),
  leak(
    'tenant.leak-bulk-cases',
    'bulk-cases',
    "bulk case update finds cases of every organisation: another organisation's cases are updated",
  ),
  leak(
    'tenant.leak-bulk-customers',
    'bulk-customers',
    'bulk customer update finds customers of every organisation, by id and by external_id',
  ),
  leak(
    'tenant.leak-bulk-checks',
    'bulk-checks',
    "bulk check delete finds checks of every organisation: another organisation's checks are deleted",
  ),
  fault(
    'tenant.customer-external-id-global',
    'bulk customer update looks external_id up across organisations: the lowest-id customer holding it is changed',
    (_b, env) => ({
      customersByExternalId: (_org, externalId) =>
        env.organisations
          .flatMap((o) => env.store.findCustomersByExternalId(o.name, externalId))
          .sort((a, b) => compareIds(a.id, b.id))
          .slice(0, 1),
    }),
  ),
  fault(
    'tenant.refusal-leaks-case',
    "a case another organisation holds is refused as not found, with that case's representation in the body",
    (base, env) => ({
      notFound(m) {
        const err = base.notFound(m);
        if (m.kind !== 'case' || m.id === undefined) return err;
        const held = env.organisations.map((o) => env.store.getCase(o.name, m.id!)).find((c) => c !== undefined);
        return held ? new HttpError(err.status, err.code, err.message, { ...err.extra, ...env.b.caseView(held) }) : err;
      },
    }),
  ),
];
