/** Reading cases back to compare states: the only way a check sees what a request changed. */
import type { Organisation } from './context.ts';
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

/** A case with its fields except those that move by themselves (updated_at). */
export function stableFields(c: Record<string, unknown>): Record<string, unknown> {
  const { updated_at: _updatedAt, ...rest } = c;
  return rest;
}
