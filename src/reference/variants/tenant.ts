/** Variants of how another organisation's records are refused (interface § Errors: "not shown"). */
import { HttpError } from '../http.ts';
import { variant } from '../switches.ts';
import type { Env, Missing } from '../points.ts';

/** Whether another organisation than the one that looked has the record. */
function elsewhere(env: Env, m: Missing): boolean {
  return env.organisations.some((o) => {
    if (o.name === m.org) return false;
    if (m.kind === 'case') return env.store.getCase(o.name, m.id!) !== undefined;
    if (m.kind === 'check') return env.store.getCheck(o.name, m.id!) !== undefined;
    if (m.id !== undefined) return env.store.getCustomer(o.name, m.id) !== undefined;
    return env.store.findCustomersByExternalId(o.name, m.externalId!).length > 0;
  });
}

export const TENANT_VARIANTS = [
  variant(
    'tenant.forbidden',
    "another organisation's case, customer or check answers 403 forbidden, not 404 " +
      '(GET, PATCH, DELETE, start; bulk items fail with code forbidden)',
    (base, env) => ({
      notFound: (m) =>
        elsewhere(env, m)
          ? new HttpError(403, 'forbidden', `the ${m.kind} belongs to another organisation`)
          : base.notFound(m),
    }),
  ),
];
