/**
 * The reference server's request rules: the interface's schemas from src/spec, with the choices
 * the reference makes where the interface is silent (see docs/reference-server.md). They
 * are built from a few points of behaviour (limits, how a length is counted, what a string
 * becomes, the delete_after and metadata types), so a switch bends a rule by changing a value.
 */
import { z } from 'zod';
import {
  CHECK_TYPES,
  CasePatch,
  codePointLength,
  CustomerType,
  IdSchema,
  Int32,
  LIMITS,
  SyncPlatforms,
} from '../spec/index.ts';
import { HttpError } from './http.ts';

/** The length limits of strings, in the unit `textLength` counts. */
export interface TextLimits {
  webhookUrl: number;
  caseExternalId: number;
  customerFullName: number;
  customerExternalId: number;
}

export interface RulePoints {
  /** Length limits of the PATCH and bulk fields (creation keeps the interface's own). */
  limits: TextLimits;
  /** How long a string is, for the limits. */
  textLength(s: string): number;
  /** What a string of external_id, webhook_url or a customer's name or external_id becomes, before it is checked. */
  text(s: string): string;
  /** The delete_after a PATCH or bulk item may send. */
  deleteAfter: z.ZodType<number>;
  /** The metadata object a PATCH or bulk item may send. */
  metadata: z.ZodType<Record<string, unknown>>;
}

/** Whether every number of a JSON value is finite: one past binary64 parses to Infinity, which JSON cannot show. */
export function allFinite(v: unknown): boolean {
  if (typeof v === 'number') return Number.isFinite(v);
  if (Array.isArray(v)) return v.every(allFinite);
  if (v !== null && typeof v === 'object') return Object.values(v).every(allFinite);
  return true;
}

const FINITE = { message: 'numbers must be within the range of a double' };

/**
 * A JSON object, kept as it came: zod's record copies keys by assignment, which makes a `__proto__` key the copy's
 * prototype instead of a key (so it is lost); the value a client sent is stored as sent. Without `finite`, a number
 * past binary64 is kept as Infinity (which a JSON answer shows as null): the correct rules refuse it.
 */
export function freeObject(finite = true) {
  return z
    .custom<Record<string, unknown>>((v) => v !== null && typeof v === 'object' && !Array.isArray(v), {
      message: 'must be a JSON object',
    })
    .refine((v) => !finite || allFinite(v), FINITE);
}
export const FreeObject = freeObject();

export const RULE_DEFAULTS: RulePoints = {
  limits: {
    webhookUrl: LIMITS.webhookUrlMaxLength,
    caseExternalId: LIMITS.caseExternalIdMaxLength,
    customerFullName: LIMITS.customerFullNameMaxLength,
    customerExternalId: LIMITS.customerExternalIdMaxLength,
  },
  textLength: codePointLength,
  text: (s) => s,
  deleteAfter: Int32,
  metadata: FreeObject,
};

function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

/** A string of at most `max` characters (as `p.textLength` counts), after `p.text`; `more` adds rules. */
function text(p: RulePoints, max: number, more: (s: z.ZodString) => z.ZodString = (s) => s) {
  const bounded = z.string().refine((v) => p.textLength(v) <= max, { message: `must be at most ${max} characters` });
  return z.preprocess((v) => (typeof v === 'string' ? p.text(v) : v), more(bounded));
}

const httpUrl = (s: z.ZodString) => s.refine(isHttpUrl, { message: 'must be an absolute http or https URL' });
const nonEmpty = (s: z.ZodString) => s.min(1);

/** The request rules of the points in force: PATCH, bulk items, and creation (a provisioning convention). */
export function buildRules(p: RulePoints) {
  const casePatch = CasePatch.extend({
    webhook_url: text(p, p.limits.webhookUrl, httpUrl).nullable().optional(),
    delete_after: p.deleteAfter.optional(),
    metadata: p.metadata.nullable().optional(),
    sync_platforms: SyncPlatforms.refine(allFinite, FINITE).optional(),
    external_id: text(p, p.limits.caseExternalId, nonEmpty).nullable().optional(),
  });
  const bulkCustomerItem = z
    .object({
      id: IdSchema.optional(),
      external_id: text(p, p.limits.customerExternalId).nullable().optional(),
      full_name: text(p, p.limits.customerFullName, nonEmpty).optional(),
      customer_type: CustomerType.optional(),
    })
    .refine((item) => item.id !== undefined || (item.external_id !== undefined && item.external_id !== null), {
      message: 'an item is identified by id or by external_id',
    });
  /** Creation keeps the interface's limits and types whatever the switches: only PATCH and bulk are judged. */
  const caseCreate = z.object({
    customer: z.union([
      z.object({ id: IdSchema }),
      z.object({
        full_name: text(p, LIMITS.customerFullNameMaxLength, nonEmpty),
        customer_type: CustomerType.optional(),
        external_id: text(p, LIMITS.customerExternalIdMaxLength).nullable().optional(),
      }),
    ]),
    external_id: text(p, LIMITS.caseExternalIdMaxLength, nonEmpty).optional(),
    webhook_url: text(p, LIMITS.webhookUrlMaxLength, httpUrl).nullable().optional(),
    metadata: FreeObject.nullable().optional(),
    delete_after: Int32.optional(),
    sync_platforms: SyncPlatforms.refine(allFinite, FINITE).optional(),
    checks: z
      .array(
        z.object({
          check_type: z
            .union([z.enum(CHECK_TYPES), z.literal('')])
            .nullable()
            .optional(),
          input_details: FreeObject.nullable().optional(),
        }),
      )
      .max(LIMITS.bulkMaxItems)
      .optional(),
  });
  return { casePatch, bulkCaseItem: casePatch.extend({ id: IdSchema }), bulkCustomerItem, caseCreate };
}

/** The request rules one server instance applies. */
export type RequestRules = ReturnType<typeof buildRules>;
export type CasePatchInput = z.infer<RequestRules['casePatch']>;
export type BulkCustomerItem = z.infer<RequestRules['bulkCustomerItem']>;
export type CaseCreateInput = z.infer<RequestRules['caseCreate']>;

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
