/**
 * zod schemas for everything the interface shows (interface § Resources, § Endpoints).
 * Read schemas are loose (unknown fields pass): the interface lists fields a representation
 * has, not fields it must lack. Request schemas describe what the interface allows a client
 * to send.
 */
import { z } from 'zod';
import { CHECK_STATUSES, CHECK_TYPES, CUSTOMER_TYPES, OUTCOMES } from './enums.ts';
import { IdSchema } from './id.ts';
import { codePointLength, LIMITS } from './limits.ts';

/** A string of at most `max` Unicode code points (JSON Schema's maxLength counts code points too). */
export function maxCodePoints(max: number) {
  return z
    .string()
    .refine((s) => codePointLength(s) <= max, {
      message: `must be at most ${max} characters`,
    })
    .meta({ maxLength: max });
}

export const Int32 = z
  .int({ message: 'must be an integer' })
  .min(LIMITS.deleteAfterMin, { message: `must be >= ${LIMITS.deleteAfterMin}` })
  .max(LIMITS.deleteAfterMax, { message: `must be <= ${LIMITS.deleteAfterMax}` });

export const DateTime = z.iso.datetime({ offset: true, local: false });
export const RiskScore = z.number().min(LIMITS.riskScoreMin).max(LIMITS.riskScoreMax);
export const OutcomeEnum = z.enum(OUTCOMES);
export const JsonObject = z.record(z.string(), z.unknown());

export const SyncPlatform = z.looseObject({ domain: z.string(), id: z.string() });
/** "object or null ... described as a list of objects with string fields domain and id". */
export const SyncPlatforms = z.union([z.array(SyncPlatform), JsonObject]).nullable();

export const Rfi = z.looseObject({
  body: z.string(),
  title: z.string().nullable().optional(),
  details: JsonObject.nullable().optional(),
});

export const CustomerType = z.union([z.enum(CUSTOMER_TYPES), z.literal('')]).nullable();

export const Customer = z.looseObject({
  id: IdSchema,
  external_id: maxCodePoints(LIMITS.customerExternalIdMaxLength).nullable().optional(),
  full_name: maxCodePoints(LIMITS.customerFullNameMaxLength),
  customer_type: CustomerType.optional(),
});

export const Check = z.looseObject({
  id: IdSchema,
  input_details: JsonObject.nullable().optional(),
  check_type: z
    .union([z.enum(CHECK_TYPES), z.literal('')])
    .nullable()
    .optional(),
  risk_score: RiskScore.nullable(),
  title: z.string().nullable(),
  note: z.string().nullable(),
  reasoning: z.array(z.string()).nullable(),
  outcome: OutcomeEnum.nullable(),
  status: z.enum(CHECK_STATUSES),
  created_at: DateTime,
  updated_at: DateTime,
  delete_after: Int32.optional(),
});

/** The Case read representation; the fields the interface says are always present are required. */
export const Case = z.looseObject({
  id: IdSchema,
  external_id: z.string(),
  origin_url: z.string().nullable(),
  customer: Customer,
  webhook_url: maxCodePoints(LIMITS.webhookUrlMaxLength).nullable().optional(),
  note: z.string().nullable(),
  risk_score: RiskScore.nullable(),
  outcome: OutcomeEnum.nullable(),
  is_started: z.boolean(),
  is_complete: z.boolean(),
  failed: z.boolean(),
  created_at: DateTime,
  updated_at: DateTime,
  checks: z.array(Check),
  delete_after: Int32.optional(),
  rfi: Rfi.nullable(),
  metadata: JsonObject.nullable().optional(),
  sync_platforms: SyncPlatforms.optional(),
});

/** Body of PATCH /api/cases/{id}/: every field optional, only the provided ones change. */
export const CasePatch = z.object({
  webhook_url: maxCodePoints(LIMITS.webhookUrlMaxLength).nullable().optional(),
  delete_after: Int32.optional(),
  metadata: JsonObject.nullable().optional(),
  sync_platforms: SyncPlatforms.optional(),
  external_id: maxCodePoints(LIMITS.caseExternalIdMaxLength).nullable().optional(),
});

/** The fields a PATCH may change, in the order of the interface's table. */
export const CASE_PATCH_FIELDS = ['webhook_url', 'delete_after', 'metadata', 'sync_platforms', 'external_id'] as const;
export type CasePatchField = (typeof CASE_PATCH_FIELDS)[number];

/** Fields of the Case read representation marked read-only that a client might still send in a PATCH or bulk item. */
export const READ_ONLY_CASE_FIELDS = [
  'id',
  'outcome',
  'risk_score',
  'is_complete',
  'is_started',
  'failed',
  'note',
  'rfi',
  'checks',
  'customer',
  'created_at',
  'origin_url',
] as const;
export type ReadOnlyCaseField = (typeof READ_ONLY_CASE_FIELDS)[number];

/** Bulk request envelopes: the array is bounded; each item is judged on its own. */
export const BulkCaseUpdateRequest = z.object({
  items: z.array(JsonObject).max(LIMITS.bulkMaxItems),
});
export const BulkCaseUpdateItem = CasePatch.extend({ id: IdSchema });

export const BulkCustomerUpdateRequest = z.object({
  items: z.array(JsonObject).max(LIMITS.bulkMaxItems),
});
/** A customer item: identified by id or by external_id; the other fields as in Customer. */
export const BulkCustomerUpdateItem = z
  .object({
    id: IdSchema.optional(),
    external_id: maxCodePoints(LIMITS.customerExternalIdMaxLength).nullable().optional(),
    full_name: maxCodePoints(LIMITS.customerFullNameMaxLength).min(1).optional(),
    customer_type: CustomerType.optional(),
  })
  .refine((item) => item.id !== undefined || (item.external_id !== undefined && item.external_id !== null), {
    message: 'an item is identified by id or by external_id',
  });

export const BulkCheckDeleteRequest = z.object({
  ids: z.array(IdSchema).max(LIMITS.bulkMaxItems),
});

export const TokenRequest = z.object({
  client_id: z.uuid(),
  client_secret: z.string(),
  grant_type: z.literal('client_credentials'),
});

export const TokenResponse = z.looseObject({
  access_token: z.string(),
  token_type: z.string(),
  expires_in: z.int(),
});

export type Case = z.infer<typeof Case>;
export type Check = z.infer<typeof Check>;
export type Customer = z.infer<typeof Customer>;
export type CasePatch = z.infer<typeof CasePatch>;
export type TokenResponse = z.infer<typeof TokenResponse>;
