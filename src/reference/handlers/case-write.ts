/**
 * Writing a case (interface § PATCH /api/cases/{id}/, § Errors 2): a partial update, atomic,
 * with external_id unique per organisation. PATCH and bulk case update both write through here.
 */
import { randomUUID } from 'node:crypto';
import { HttpError } from '../http.ts';
import { CASE_PATCH_FIELDS, type Id, READ_ONLY_CASE_FIELDS } from '../../spec/index.ts';
import type { CaseRecord } from '../store.ts';
import { type CasePatchInput, parseOr400 } from '../validation.ts';
import type { CaseWritePoints, Env } from '../points.ts';

/** The correct writes: merge the fields given, a null external_id gets a new UUID, uniqueness checked. */
export function caseWriteDefaults(env: Env): CaseWritePoints {
  return {
    uniqueChecked: () => true,
    externalIdTaken(org, externalId, self) {
      const holder = env.store.findCaseByExternalId(org, externalId);
      return holder !== undefined && holder.id !== self;
    },
    applyCaseFields(c, patch) {
      if (patch.webhook_url !== undefined) c.webhook_url = patch.webhook_url;
      if (patch.delete_after !== undefined) c.delete_after = patch.delete_after;
      if (patch.metadata !== undefined) c.metadata = patch.metadata;
      if (patch.sync_platforms !== undefined) c.sync_platforms = patch.sync_platforms;
      // The read type of external_id is a string: null asks for a new one, as at creation.
      if (patch.external_id !== undefined) c.external_id = patch.external_id ?? randomUUID();
    },
    saveCase(c) {
      c.updated_at = new Date().toISOString();
    },
    parsePatch: (_org, _c, body) => parseOr400(env.rules.casePatch, body),
    readOnlySent: () => {},
    otherKeysSent: () => {},
    patchWrite: (org, c, patch) => applyPatch(env, org, c, patch, env.b.uniqueChecked('patch')),
    caseCreated: () => {},
  };
}

/** Throws 409 when another non-archived case of the organisation holds this external_id. */
export function assertExternalIdFree(env: Env, org: string, externalId: string, self?: Id) {
  if (!env.b.externalIdTaken(org, externalId, self)) return;
  throw new HttpError(409, 'external_id_conflict', 'external_id is already used by another case of this organisation', {
    fields: { external_id: ['must be unique per organisation'] },
  });
}

/** Writes a valid patch into a case, uniqueness first when `checkUnique`; throws HttpError on refusal. */
export function applyPatch(env: Env, org: string, c: CaseRecord, patch: CasePatchInput, checkUnique: boolean) {
  if (typeof patch.external_id === 'string' && checkUnique) assertExternalIdFree(env, org, patch.external_id, c.id);
  env.b.applyCaseFields(c, patch);
  env.b.saveCase(c);
}

/** The keys a case write knows: the fields it writes, and the read-only ones (readOnlySent). */
export const CASE_KEYS: readonly string[] = [...CASE_PATCH_FIELDS, ...READ_ONLY_CASE_FIELDS];

/** The keys of a body or item beyond `known` (none when it is no object). */
export function otherKeysOf(body: unknown, known: readonly string[]): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return {};
  return Object.fromEntries(Object.entries(body).filter(([k]) => !known.includes(k)));
}

/** The read-only case fields a request body holds (those in `except` aside). */
export function readOnlyFieldsOf(body: unknown, except: readonly string[] = []): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return {};
  const sent = body as Record<string, unknown>;
  return Object.fromEntries(
    READ_ONLY_CASE_FIELDS.filter((f) => Object.hasOwn(sent, f) && !except.includes(f)).map((f) => [f, sent[f]]),
  );
}
