/** Reading cases back to compare states: the only way a check sees what a request changed. */
import type { Organisation } from './context.ts';
import { Case, Customer } from '../spec/index.ts';
import { expectStatus, fail } from './assert.ts';

export type CaseBody = Record<string, unknown> & { id: number };

/**
 * Reads a case (GET, or an empty PATCH where GET is missing). Only status and identity are
 * checked here: judging the representation is the schema requirements' job, so a schema fault
 * is not blamed on every check that reads state.
 */
export async function readCase(org: Organisation, id: number, what = `reading case ${id}`): Promise<CaseBody> {
  const res = await org.provision.readCase(id);
  expectStatus(res, 200, what);
  return expectCaseBody(res.json, id, what);
}

/** The body is a JSON object with the case's id. */
export function expectCaseBody(json: unknown, id: number, what: string): CaseBody {
  if (json === null || typeof json !== 'object' || Array.isArray(json) || (json as { id?: unknown }).id !== id) {
    fail(what, `a case object with id ${id}`, JSON.stringify(json)?.slice(0, 300) ?? String(json));
  }
  return json as CaseBody;
}

/** The fields of the Case read representation the interface defines. */
export const CASE_FIELDS: ReadonlySet<string> = new Set(Object.keys(Case.shape));
/** The fields of the nested Customer the interface defines. */
export const CUSTOMER_FIELDS: ReadonlySet<string> = new Set(Object.keys(Customer.shape));

/**
 * A case's interface-defined fields, except those that move by themselves (updated_at). Fields
 * the interface does not define (a version, an etag) may change on any write, so they are left out.
 */
export function stableFields(c: Record<string, unknown>, fields: ReadonlySet<string> = CASE_FIELDS): Record<string, unknown> {
  return Object.fromEntries(Object.entries(c).filter(([k]) => k !== 'updated_at' && fields.has(k)));
}
