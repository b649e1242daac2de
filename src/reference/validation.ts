/**
 * The reference server's request rules: the interface's zod schemas from src/spec, with the
 * choices the reference makes where the interface is silent (see README, "Reference server
 * choices").
 */
import { z } from 'zod';
import {
  BulkCustomerUpdateItem,
  CasePatch,
  CustomerType,
  JsonObject,
  LIMITS,
  maxCodePoints,
  SyncPlatforms,
  Int32,
  CHECK_TYPES,
} from '../spec/index.ts';
import { HttpError } from './http.ts';
import type { FaultName } from './faults.ts';

function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

/** webhook_url must also be an absolute http(s) URL; external_id must not be empty. */
export const ReferenceCasePatch = CasePatch.extend({
  webhook_url: maxCodePoints(LIMITS.webhookUrlMaxLength)
    .refine(isHttpUrl, { message: 'must be an absolute http or https URL' })
    .nullable()
    .optional(),
  external_id: maxCodePoints(LIMITS.caseExternalIdMaxLength).min(1).nullable().optional(),
});

export const ReferenceBulkCaseItem = ReferenceCasePatch.extend({ id: z.int() });
export const ReferenceBulkCustomerItem = BulkCustomerUpdateItem;

/** The request rules one server instance applies: the clean schemas, or their bounds bent by faults. */
export interface RequestRules {
  casePatch: typeof ReferenceCasePatch;
  bulkCaseItem: typeof ReferenceBulkCaseItem;
  bulkCustomerItem: typeof ReferenceBulkCustomerItem;
}

const RULE_FAULTS: readonly FaultName[] = [
  'limit.webhook-url-512',
  'limit.webhook-url-510',
  'limit.external-id-513',
  'limit.customer-full-name-256',
  'limit.customer-external-id-256',
  'limit.delete-after-int64',
  'limit.delete-after-truncate',
  'limit.delete-after-negative',
  'patch.accept-invalid-metadata',
];

/**
 * The request rules with the faults in force. Faults of limits and types (limit.*,
 * patch.accept-invalid-metadata) swap a field's schema, so a faulty server still validates
 * through the one mechanism; the output types are the clean schemas' (casts below).
 */
export function requestRules(faults: ReadonlySet<FaultName>): RequestRules {
  if (!RULE_FAULTS.some((f) => faults.has(f))) {
    return {
      casePatch: ReferenceCasePatch,
      bulkCaseItem: ReferenceBulkCaseItem,
      bulkCustomerItem: ReferenceBulkCustomerItem,
    };
  }
  const by = (fault: FaultName, delta: number) => (faults.has(fault) ? delta : 0);
  const webhookMax = LIMITS.webhookUrlMaxLength + by('limit.webhook-url-512', 1) + by('limit.webhook-url-510', -1);
  const externalIdMax = LIMITS.caseExternalIdMaxLength + by('limit.external-id-513', 1);
  const int64 = faults.has('limit.delete-after-int64');
  const range = z
    .number()
    .min(int64 ? Number.MIN_SAFE_INTEGER : LIMITS.deleteAfterMin)
    .max(int64 ? Number.MAX_SAFE_INTEGER : LIMITS.deleteAfterMax);
  const bounded = faults.has('limit.delete-after-truncate') ? range.transform(Math.trunc) : int64 ? z.int() : Int32;
  // Fault limit.delete-after-negative: "days until deletion" read as never negative, -1 aside.
  const deleteAfter = faults.has('limit.delete-after-negative')
    ? bounded.refine((n) => n >= 0 || n === -1, { message: 'must be -1 or at least 0' })
    : bounded;
  const metadata = faults.has('patch.accept-invalid-metadata')
    ? z.union([JsonObject, z.array(z.unknown())])
    : JsonObject;
  const casePatch = ReferenceCasePatch.extend({
    webhook_url: maxCodePoints(webhookMax)
      .refine(isHttpUrl, { message: 'must be an absolute http or https URL' })
      .nullable()
      .optional(),
    delete_after: deleteAfter.optional(),
    metadata: metadata.nullable().optional(),
    external_id: maxCodePoints(externalIdMax).min(1).nullable().optional(),
  }) as unknown as typeof ReferenceCasePatch;
  const bulkCustomerItem = BulkCustomerUpdateItem.safeExtend({
    external_id: maxCodePoints(LIMITS.customerExternalIdMaxLength + by('limit.customer-external-id-256', 1))
      .nullable()
      .optional(),
    full_name: maxCodePoints(LIMITS.customerFullNameMaxLength + by('limit.customer-full-name-256', 1))
      .min(1)
      .optional(),
  }) as unknown as typeof ReferenceBulkCustomerItem;
  return { casePatch, bulkCaseItem: casePatch.extend({ id: z.int() }), bulkCustomerItem };
}

/** Provisioning convention: POST /api/cases/ (DESIGN.md, "Provisioning conventions"). */
export const CaseCreate = z.object({
  customer: z.union([
    z.object({ id: z.int() }),
    z.object({
      full_name: maxCodePoints(LIMITS.customerFullNameMaxLength).min(1),
      customer_type: CustomerType.optional(),
      external_id: maxCodePoints(LIMITS.customerExternalIdMaxLength).nullable().optional(),
    }),
  ]),
  external_id: maxCodePoints(LIMITS.caseExternalIdMaxLength).min(1).optional(),
  webhook_url: ReferenceCasePatch.shape.webhook_url,
  metadata: JsonObject.nullable().optional(),
  delete_after: Int32.optional(),
  sync_platforms: SyncPlatforms.optional(),
  checks: z
    .array(
      z.object({
        check_type: z
          .union([z.enum(CHECK_TYPES), z.literal('')])
          .nullable()
          .optional(),
        input_details: JsonObject.nullable().optional(),
      }),
    )
    .max(LIMITS.bulkMaxItems)
    .optional(),
});

/** Field errors in the shape the reference answers with: { field: [message, …] }. */
export function fieldErrors(error: z.ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join('.') : 'non_field_errors';
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

/** Parses with a schema or throws a 400 naming each field at fault. */
export function parseOr400<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new HttpError(400, 'invalid_body', 'request body must be a JSON object');
  }
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new HttpError(400, 'validation_error', 'request body is invalid', { fields: fieldErrors(result.error) });
  }
  return result.data;
}
