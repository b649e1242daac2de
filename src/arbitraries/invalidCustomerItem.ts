import fc from 'fast-check';
import { LIMITS } from '../spec/index.ts';
import { checkKeys } from './constraints.ts';
import { oneOf } from './oneOf.ts';
import { overLong } from './overLong.ts';
import {
  customerItemParts,
  VALID_CUSTOMER_ITEM_KEYS,
  type CustomerItem,
  type ValidCustomerItemConstraints,
} from './validCustomerItem.ts';

export const CUSTOMER_ITEM_INVALID_REASONS = [
  'empty',
  'too-long-by-one',
  'too-long',
  'null-not-allowed',
  'wrong-type',
  'not-in-enum',
  'wrong-case',
  'no-identifier',
  'non-integer',
  'numeric-string',
] as const;
export type CustomerItemInvalidReason = (typeof CUSTOMER_ITEM_INVALID_REASONS)[number];
export type CustomerItemField = 'id' | 'external_id' | 'full_name' | 'customer_type';

export interface InvalidCustomerItem {
  item: Record<string, unknown>;
  /** The broken field; 'id' with 'no-identifier' when the item names no customer at all. */
  field: CustomerItemField;
  reason: CustomerItemInvalidReason;
}

/** Same as validCustomerItem's: they shape the valid rest of each item. */
export type InvalidCustomerItemConstraints = ValidCustomerItemConstraints;

type Break = { field: CustomerItemField; reason: CustomerItemInvalidReason; value: unknown };
const breaking = (
  field: CustomerItemField,
  reason: CustomerItemInvalidReason,
  value: fc.Arbitrary<unknown>,
): fc.Arbitrary<Break> => value.map((v) => ({ field, reason, value: v }));

const NAME = LIMITS.customerFullNameMaxLength;
const EXT = LIMITS.customerExternalIdMaxLength;

const BREAKS = fc.oneof(
  breaking('full_name', 'empty', fc.constant('')),
  breaking('full_name', 'too-long-by-one', overLong('', fc.constant(NAME + 1))),
  breaking('full_name', 'too-long', overLong('', fc.integer({ min: NAME + 50, max: 2048 }))),
  breaking('full_name', 'null-not-allowed', fc.constant(null)),
  breaking('full_name', 'wrong-type', oneOf<unknown>(42, true, ['Ann'], { first: 'Ann' })),
  breaking('customer_type', 'not-in-enum', oneOf('PERSON', 'COMPANIES', 'TRUST')),
  breaking('customer_type', 'wrong-case', oneOf('individual', 'company', 'Individual')),
  breaking('customer_type', 'wrong-type', oneOf<unknown>(1, true, ['COMPANY'])),
  breaking('external_id', 'too-long-by-one', overLong('', fc.constant(EXT + 1))),
  breaking('external_id', 'too-long', overLong('', fc.integer({ min: EXT + 50, max: 2048 }))),
  breaking('external_id', 'wrong-type', oneOf<unknown>(123, true, { id: 'x' })),
  breaking('id', 'non-integer', oneOf(1.5, -0.5)),
  breaking('id', 'numeric-string', oneOf('1', '42')),
  breaking('id', 'wrong-type', oneOf<unknown>(true, { id: 1 }, [1])),
  breaking('id', 'no-identifier', fc.constant(undefined)),
);

/** Bulk customer update items with exactly one thing wrong, named with the reason. */
export function invalidCustomerItem(
  constraints: InvalidCustomerItemConstraints = {},
): fc.Arbitrary<InvalidCustomerItem> {
  const fn = 'invalidCustomerItem';
  checkKeys(fn, constraints, VALID_CUSTOMER_ITEM_KEYS);
  const { identifier, optional } = customerItemParts(fn, constraints);
  return fc
    .tuple(BREAKS, identifier, fc.record(optional, { requiredKeys: [] }), fc.boolean())
    .map(([b, ident, rest, nullExternalId]) => {
      let item: Record<string, unknown>;
      if (b.reason === 'no-identifier') {
        // Neither key, or an external_id of null: both leave the customer unnamed.
        item = { ...(nullExternalId ? { external_id: null } : {}), ...rest };
      } else {
        // A broken id never comes with a valid external_id: a server may find the customer by
        // either (the interface does not say which wins), and the item would not be invalid.
        const { external_id: _named, ...byIdOnly } = ident;
        const base: CustomerItem = { ...(b.field === 'id' ? byIdOnly : ident), ...rest };
        item = { ...base, [b.field]: b.value };
      }
      return { item, field: b.field, reason: b.reason };
    });
}
