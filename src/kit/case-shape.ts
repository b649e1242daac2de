/** Recognising a Case read representation among other JSON (bulk answers, webhook envelopes). */
import { isJsonObject, type JsonObject } from '../base/json.ts';
import { isId } from '../spec/index.ts';

/** The fields the interface says are always present in a case, besides id. */
export const CASE_KEYS: readonly string[] = [
  'checks',
  'created_at',
  'customer',
  'external_id',
  'failed',
  'is_complete',
  'is_started',
  'note',
  'origin_url',
  'outcome',
  'rfi',
  'risk_score',
  'updated_at',
];

/**
 * An object that can only be a case, not a check or a customer that shares its id (ids may be per
 * resource): an integer id and a field only a case has (checks, a customer, is_complete,
 * is_started), or most of a case's fields.
 */
export function looksLikeCase(v: unknown): v is JsonObject {
  if (!isJsonObject(v) || !isId(v.id)) return false;
  if (Array.isArray(v.checks) || isJsonObject(v.customer) || 'is_complete' in v || 'is_started' in v) return true;
  return CASE_KEYS.filter((k) => k in v).length >= 4;
}
