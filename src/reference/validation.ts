/**
 * The reference server's request rules: the interface's zod schemas from src/spec, with the
 * choices the reference makes where the interface is silent (see README, "Reference server
 * choices").
 */
import { z } from 'zod';
import { BulkCustomerUpdateItem, CasePatch, CustomerType, JsonObject, LIMITS, maxCodePoints, SyncPlatforms, Int32, CHECK_TYPES } from '../spec/index.ts';
import { HttpError } from './http.ts';

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
        check_type: z.union([z.enum(CHECK_TYPES), z.literal('')]).nullable().optional(),
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
