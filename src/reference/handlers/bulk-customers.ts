/**
 * POST /api/customers/bulk-update/ (interface § Endpoints): up to 100 customer updates, each
 * naming its customer by id or by external_id.
 */
import { BulkCustomerUpdateRequest, type Id } from '../../spec/index.ts';
import { type Answer, HttpError } from '../http.ts';
import { fieldErrors } from '../validation.ts';
import { bulkRequest, isObject } from './bulk.ts';
import { otherKeysOf } from './case-write.ts';
import { lookupIn } from './lookup.ts';
import type { BatchSpec, BulkCustomerPoints, Env } from '../points.ts';

const SPEC: BatchSpec = { op: 'bulk-customers', key: 'items', schema: BulkCustomerUpdateRequest };

/** The keys a customer item writes or is identified by (the nested Customer's fields). */
const CUSTOMER_ITEM_KEYS = ['id', 'external_id', 'full_name', 'customer_type'] as const;

/** The correct lookup by external_id: every customer of the caller's organisation that has it. */
export function bulkCustomerDefaults(env: Env): BulkCustomerPoints {
  return {
    customersByExternalId(org, externalId, op) {
      const found = lookupIn(env, org, op, (o) => {
        const list = env.store.findCustomersByExternalId(o, externalId);
        return list.length > 0 ? list : undefined;
      });
      return found ?? [];
    },
  };
}

/** Updates each named customer; an external_id that several customers share is refused as ambiguous. */
export function bulkUpdateCustomers(env: Env, org: string, body: unknown): Answer {
  return bulkRequest(
    env,
    SPEC,
    body,
    (item) => ({
      id: (isObject(item) ? item.id : undefined) ?? null,
      external_id: (isObject(item) ? item.external_id : undefined) ?? null,
    }),
    (item) => {
      const parsed = env.rules.bulkCustomerItem.safeParse(item);
      if (!parsed.success)
        throw new HttpError(400, 'validation_error', 'item is invalid', { fields: fieldErrors(parsed.error) });
      const data = parsed.data;
      const customer = findCustomer(env, org, data.id, data.external_id);
      // Stryker disable next-line ObjectLiteral,ArrayDeclaration,StringLiteral: otherKeysSent does nothing in the correct server
      env.b.otherKeysSent({ customer }, otherKeysOf(item, CUSTOMER_ITEM_KEYS), 'bulk-customers');
      if (data.id !== undefined && data.external_id !== undefined) customer.external_id = data.external_id;
      if (data.full_name !== undefined) customer.full_name = data.full_name;
      if (data.customer_type !== undefined) customer.customer_type = data.customer_type;
      return { key: { id: customer.id, external_id: customer.external_id }, status: 'updated' };
    },
  );
}

/** The customer an item names: by id when it has one, else by external_id. */
function findCustomer(env: Env, org: string, id: Id | undefined, externalId: string | null | undefined) {
  if (id !== undefined) {
    const customer = lookupIn(env, org, 'bulk-customers', (o) => env.store.getCustomer(o, id));
    if (!customer) throw env.b.notFound({ kind: 'customer', org, id });
    return customer;
  }
  const found = env.b.customersByExternalId(org, externalId!, 'bulk-customers');
  if (found.length === 0) throw env.b.notFound({ kind: 'customer', org, externalId: externalId! });
  if (found.length > 1) throw new HttpError(409, 'ambiguous', `several customers have external_id ${externalId}`);
  return found[0]!;
}
