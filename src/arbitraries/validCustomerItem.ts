import fc from 'fast-check';
import { CUSTOMER_TYPES, type Id, isId, LIMITS } from '../spec/index.ts';
import { checkKeys, checkPrefix, checkRate, fail } from './constraints.ts';
import { prefixedId } from './externalId.ts';
import { nullable } from './nullable.ts';
import { unicodeText } from './unicodeText.ts';

export interface CustomerItem {
  id?: Id;
  external_id?: string | null;
  full_name?: string;
  customer_type?: (typeof CUSTOMER_TYPES)[number] | '' | null;
}

export interface ValidCustomerItemConstraints {
  /** How an item names its customer. Default 'either'. */
  by?: 'id' | 'external_id' | 'either';
  /** Customer ids to draw from (existing customers; beyond 2^53 as bigints). Default: any positive int32. */
  ids?: readonly Id[];
  /** Customer external_ids to draw from when identifying by external_id. Default: fresh text. */
  externalIds?: readonly string[];
  /** Prepended to fresh external_ids (within 255 in total). Default ''. */
  externalIdPrefix?: string;
  /** Chance that external_id, when set alongside an id, and customer_type are null. Default 0.1. */
  nullRate?: number;
}

export const VALID_CUSTOMER_ITEM_KEYS = ['by', 'ids', 'externalIds', 'externalIdPrefix', 'nullRate'] as const;

/** Checked constraints and the arbitraries built from them; shared with invalidCustomerItem. */
export function customerItemParts(fn: string, constraints: ValidCustomerItemConstraints) {
  const by = constraints.by ?? 'either';
  if (!['id', 'external_id', 'either'].includes(by))
    fail(fn, `by must be 'id', 'external_id' or 'either', got ${String(by)}`);
  const ids = constraints.ids;
  if (ids !== undefined && (!Array.isArray(ids) || ids.length === 0 || !ids.every(isId))) {
    fail(fn, 'ids must be a non-empty array of integers (safe integers, or bigints beyond 2^53)');
  }
  const externalIds = constraints.externalIds;
  if (externalIds !== undefined) {
    if (!Array.isArray(externalIds) || externalIds.length === 0)
      fail(fn, 'externalIds must be a non-empty array of strings');
    for (const e of externalIds) {
      checkPrefix(fn, 'each of externalIds', e, LIMITS.customerExternalIdMaxLength);
      if (e === '') fail(fn, 'each of externalIds must be non-empty');
    }
  }
  const prefix = checkPrefix(
    fn,
    'externalIdPrefix',
    constraints.externalIdPrefix ?? '',
    LIMITS.customerExternalIdMaxLength,
  );
  const nullRate = checkRate(fn, 'nullRate', constraints.nullRate ?? 0.1);

  const freshExternalId = prefixedId(prefix, LIMITS.customerExternalIdMaxLength);
  // ids as a database hands them out;
  const id = ids ? fc.constantFrom(...ids) : fc.integer({ min: 1, max: 0x7fffffff });
  const identifier: fc.Arbitrary<Pick<CustomerItem, 'id' | 'external_id'>> = fc.oneof(
    ...(by === 'external_id' ? [] : [id.map((n) => ({ id: n }))]),
    ...(by === 'id'
      ? []
      : [(externalIds ? fc.constantFrom(...externalIds) : freshExternalId).map((e) => ({ external_id: e }))]),
  );
  const optional = {
    full_name: unicodeText({ minLength: 1, maxLength: LIMITS.customerFullNameMaxLength, trim: true }),
    customer_type: nullable(fc.constantFrom<CustomerItem['customer_type']>(...CUSTOMER_TYPES, ''), nullRate),
  };
  // An item found by id may also set its external_id; one found by external_id keeps it.
  const extraExternalId = nullable(freshExternalId, nullRate);
  return { identifier, optional, extraExternalId };
}

/** Bulk customer update items the interface allows: identified by id or external_id, other fields optional. */
export function validCustomerItem(constraints: ValidCustomerItemConstraints = {}): fc.Arbitrary<CustomerItem> {
  const fn = 'validCustomerItem';
  checkKeys(fn, constraints, VALID_CUSTOMER_ITEM_KEYS);
  const { identifier, optional, extraExternalId } = customerItemParts(fn, constraints);
  return fc
    .tuple(identifier, fc.record(optional, { requiredKeys: [] }), fc.option(extraExternalId, { nil: undefined }))
    .map(([ident, rest, ext]) => ({
      ...ident,
      ...(ident.id !== undefined && ext !== undefined ? { external_id: ext } : {}),
      ...rest,
    }));
}
