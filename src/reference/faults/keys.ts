/**
 * Faults of the keys a write carries beside its fields (issue 33 §3): mass assignment, as ordinary stacks make it
 * when a body is bound to the entity. Each writes a key no named check sends: an organisation id, a customer_id,
 * the ids of nested checks, a MongoDB update operator, updated_at; so only the key dimension of the input matrix
 * (suites/inputs-keys) shows them.
 */
import { isId } from '../../spec/index.ts';
import type { Env, KeyTarget, Op } from '../points.ts';
import { fault } from '../switches.ts';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The keys a model names its organisation with, as a careless binding writes them. */
const ORG_KEYS = ['organisation', 'organisation_id', 'organization', 'organization_id', 'org_id', 'tenant_id'];

/** The organisation a value names, as a foreign key would: its id (1, 2: its place), its client id, or its name. */
function organisationNamed(env: Env, value: unknown): string | undefined {
  const i = env.organisations.findIndex(
    (o, n) => value === n + 1 || value === String(n + 1) || value === o.clientId || value === o.name,
  );
  return i < 0 ? undefined : env.organisations[i]!.name;
}

/** Writes the organisation an item's organisation key names into its record. */
function writeOrganisation(env: Env, target: KeyTarget, keys: Record<string, unknown>): void {
  for (const k of ORG_KEYS) {
    const org = Object.hasOwn(keys, k) ? organisationNamed(env, keys[k]) : undefined;
    if (org === undefined) continue;
    if ('case' in target) target.case.org = org;
    else target.customer.org = org;
  }
}

/** A fault of one bulk operation that writes the organisation its items name into the record. */
function organisationWritten<N extends string>(name: N, on: Op, description: string) {
  return fault(name, description, (base, env) => ({
    otherKeysSent(target, keys, op) {
      if (op === on) writeOrganisation(env, target, keys);
      base.otherKeysSent(target, keys, op);
    },
  }));
}

export const KEY_FAULTS = [
  organisationWritten(
    'keys.bulk-case-organisation-written',
    'bulk-cases',
    "a bulk case item's organisation_id (or organisation, organization_id, tenant_id…) is written into the case, " +
      'as a binding of the item to the entity does: the case moves to the organisation it names (1, 2, a client id)',
  ),
  organisationWritten(
    'keys.bulk-customer-organisation-written',
    'bulk-customers',
    "a bulk customer item's organisation_id (or organisation, tenant_id…) is written into the customer: it moves " +
      'to the organisation it names, and the cases that use it show no customer',
  ),
  fault(
    'keys.patch-customer-id-written',
    "a PATCH writes customer_id, the case's foreign key, from its body (Rails without strong parameters): the case " +
      'is linked to the customer it names',
    (base) => ({
      otherKeysSent(target, keys, op) {
        if (op === 'patch' && 'case' in target && isId(keys.customer_id)) target.case.customerId = keys.customer_id;
        base.otherKeysSent(target, keys, op);
      },
    }),
  ),
  fault(
    'keys.patch-nested-checks-written',
    "a PATCH writes the checks it is sent through: an entry with an id sets that check's note, outcome and " +
      'risk_score, whatever case or organisation it belongs to (nested attributes looked up by id alone)',
    (base, env) => ({
      readOnlySent(c, fields, op) {
        if (op === 'patch' && Array.isArray(fields.checks))
          for (const entry of fields.checks.filter(isObject)) {
            const id = entry.id;
            const check = isId(id)
              ? env.organisations.map((o) => env.store.getCheck(o.name, id)).find((k) => k !== undefined)
              : undefined;
            if (!check) continue;
            if (typeof entry.note === 'string') check.note = entry.note;
            if (typeof entry.outcome === 'string') check.outcome = entry.outcome as typeof check.outcome;
            if (typeof entry.risk_score === 'number') check.risk_score = entry.risk_score;
          }
        base.readOnlySent(c, fields, op);
      },
    }),
  ),
  fault(
    'keys.patch-update-operators',
    "a PATCH body is handed to the store as an update document (Mongoose's findByIdAndUpdate(id, req.body)): a $set " +
      'in it writes the read-only fields it names (note, outcome, is_complete)',
    (base) => ({
      otherKeysSent(target, keys, op) {
        const set = keys.$set;
        if (op === 'patch' && 'case' in target && isObject(set)) {
          const c = target.case as unknown as Record<string, unknown>;
          for (const f of ['note', 'outcome', 'is_complete', 'is_started', 'failed'])
            if (Object.hasOwn(set, f)) c[f] = set[f];
        }
        base.otherKeysSent(target, keys, op);
      },
    }),
  ),
  fault(
    'keys.bulk-updated-at-kept',
    "a bulk case item's updated_at is written into the case and kept (Rails records its own timestamp only when " +
      'the attribute was not assigned)',
    (base) => {
      const assigned = new WeakMap<object, string>();
      return {
        otherKeysSent(target, keys, op) {
          if (op === 'bulk-cases' && 'case' in target && typeof keys.updated_at === 'string')
            assigned.set(target.case, keys.updated_at);
          base.otherKeysSent(target, keys, op);
        },
        saveCase(c) {
          base.saveCase(c);
          const kept = assigned.get(c);
          assigned.delete(c);
          if (kept !== undefined) c.updated_at = kept;
        },
      };
    },
  ),
];
