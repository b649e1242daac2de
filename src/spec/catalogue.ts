/**
 * The requirement catalogue: one entry per normative statement of the interface, plus the
 * HTTP and OAuth norms (RFC 6749/6750/9110) screenconf adds as SHOULD.
 */
import { AUTH_REQUIREMENTS } from './requirements/auth.ts';
import {
  BULK_CASES_BODY_REQUIREMENTS,
  BULK_CHECKS_BODY_REQUIREMENTS,
  BULK_CUSTOMERS_BODY_REQUIREMENTS,
  CASE_BODY_REQUIREMENTS,
  CONTENT_BODY_REQUIREMENTS,
  TOKEN_BODY_REQUIREMENTS,
} from './requirements/body.ts';
import { BULK_REQUIREMENTS } from './requirements/bulk.ts';
import { CASE_REQUIREMENTS } from './requirements/case.ts';
import { CONTENT_TYPES_REQUIREMENTS } from './requirements/content-types.ts';
import {
  BULK_CASES_INPUT_REQUIREMENTS,
  BULK_CHECKS_INPUT_REQUIREMENTS,
  BULK_CUSTOMERS_INPUT_REQUIREMENTS,
  CASE_INPUT_REQUIREMENTS,
  TOKEN_INPUT_REQUIREMENTS,
} from './requirements/inputs.ts';
import {
  BULK_CASES_KEY_REQUIREMENTS,
  BULK_CUSTOMERS_KEY_REQUIREMENTS,
  CASE_KEY_REQUIREMENTS,
} from './requirements/keys.ts';
import { LIMITS_REQUIREMENTS } from './requirements/limits.ts';
import { MODEL_REQUIREMENTS } from './requirements/model.ts';
import { READ_REQUIREMENTS } from './requirements/read.ts';
import { TENANT_REQUIREMENTS } from './requirements/tenant.ts';
import { TOKEN_REQUIREMENTS } from './requirements/token.ts';
import { UNIQUENESS_REQUIREMENTS } from './requirements/uniqueness.ts';
import { WEBHOOK_REQUIREMENTS } from './requirements/webhook.ts';
import type { Requirement } from './requirement.ts';

/** Bumped whenever an entry is added, removed or changes meaning. */
export const CATALOGUE_VERSION = '1.3.0';

/** In report order: one file per area under requirements/. */
export const CATALOGUE = [
  ...TOKEN_REQUIREMENTS,
  ...TOKEN_INPUT_REQUIREMENTS,
  ...TOKEN_BODY_REQUIREMENTS,
  ...AUTH_REQUIREMENTS,
  ...CASE_REQUIREMENTS,
  ...CASE_INPUT_REQUIREMENTS,
  ...CASE_BODY_REQUIREMENTS,
  ...CASE_KEY_REQUIREMENTS,
  ...READ_REQUIREMENTS,
  ...LIMITS_REQUIREMENTS,
  ...UNIQUENESS_REQUIREMENTS,
  ...BULK_REQUIREMENTS,
  ...BULK_CASES_INPUT_REQUIREMENTS,
  ...BULK_CASES_BODY_REQUIREMENTS,
  ...BULK_CASES_KEY_REQUIREMENTS,
  ...BULK_CUSTOMERS_INPUT_REQUIREMENTS,
  ...BULK_CUSTOMERS_BODY_REQUIREMENTS,
  ...BULK_CUSTOMERS_KEY_REQUIREMENTS,
  ...BULK_CHECKS_INPUT_REQUIREMENTS,
  ...BULK_CHECKS_BODY_REQUIREMENTS,
  ...CONTENT_TYPES_REQUIREMENTS,
  ...CONTENT_BODY_REQUIREMENTS,
  ...TENANT_REQUIREMENTS,
  ...MODEL_REQUIREMENTS,
  ...WEBHOOK_REQUIREMENTS,
] as const;

export type RequirementId = (typeof CATALOGUE)[number]['id'];

const byId = new Map<string, Requirement>();
for (const r of CATALOGUE as readonly Requirement[]) {
  if (byId.has(r.id)) throw new Error(`catalogue: duplicate requirement id ${r.id}`);
  byId.set(r.id, r);
}

/** The catalogue entry for an id, or undefined. */
export function findRequirement(id: string): Requirement | undefined {
  return byId.get(id);
}

/** The catalogue entry for an id; throws on an unknown id (a defect in a suite). */
export function requirement(id: string): Requirement {
  const r = byId.get(id);
  if (!r) throw new Error(`unknown requirement id: ${id}`);
  return r;
}
