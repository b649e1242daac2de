/**
 * Every field a client writes, per way in, as data (interface § Endpoints, § Resources, § Limits):
 * what the input matrix crosses with the kinds of value (values.ts) and the body encodings
 * (ways.ts). A field added here gets its cells without another line of check code.
 */
import { CUSTOMER_TYPES } from '../enums.ts';
import { LIMITS } from '../limits.ts';

/** The type of a writable field, as the interface gives it. */
export type FieldType =
  | {
      readonly type: 'string';
      readonly max: number;
      /** "string or null". */
      readonly nullable: boolean;
      /** A URL (webhook_url): the interface gives no format, so a non-URL string may be refused. */
      readonly url?: boolean;
      /** What a server may substitute for null (external_id: a new value; read type string). */
      readonly nullBecomes?: 'null' | 'any-string';
    }
  | { readonly type: 'int32' }
  /** metadata: "object or null, free JSON". */
  | { readonly type: 'object' }
  /** sync_platforms: "object or null … described as a list of objects with string fields domain and id". */
  | { readonly type: 'platforms' }
  | { readonly type: 'enum'; readonly values: readonly string[]; readonly blank: boolean; readonly nullable: boolean };

export interface FieldSpec {
  readonly name: string;
  readonly field: FieldType;
  /** Where a read of the case shows it: on the case, or on its nested customer. */
  readonly shownOn: 'case' | 'customer';
}

const string = (max: number, nullable: boolean, more: Partial<Extract<FieldType, { type: 'string' }>> = {}) =>
  ({ type: 'string', max, nullable, ...more }) as const;

/** The PATCH body's fields (interface § Endpoints › PATCH /api/cases/{id}/), which a bulk case item carries too. */
export const CASE_WRITE_FIELDS: readonly FieldSpec[] = [
  { name: 'webhook_url', field: string(LIMITS.webhookUrlMaxLength, true, { url: true }), shownOn: 'case' },
  { name: 'delete_after', field: { type: 'int32' }, shownOn: 'case' },
  { name: 'metadata', field: { type: 'object' }, shownOn: 'case' },
  { name: 'sync_platforms', field: { type: 'platforms' }, shownOn: 'case' },
  {
    name: 'external_id',
    field: string(LIMITS.caseExternalIdMaxLength, true, { nullBecomes: 'any-string' }),
    shownOn: 'case',
  },
];

/**
 * A bulk customer item's fields beside its identifier: the nested customer's writable fields
 * (interface § Resources › Customer; the item fields are not shown, so the resource's are taken).
 */
export const CUSTOMER_WRITE_FIELDS: readonly FieldSpec[] = [
  { name: 'external_id', field: string(LIMITS.customerExternalIdMaxLength, true), shownOn: 'customer' },
  { name: 'full_name', field: string(LIMITS.customerFullNameMaxLength, false), shownOn: 'customer' },
  {
    name: 'customer_type',
    field: { type: 'enum', values: CUSTOMER_TYPES, blank: true, nullable: true },
    shownOn: 'customer',
  },
];
