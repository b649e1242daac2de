/**
 * What identifies a case beyond its id (issue 25 §4, CASE-ID-NOT-REUSED): when it was created, and the external_ids
 * it is known to have held. A server that hands a deleted case's id to a new case shows that id with another
 * identity; one that brings a deleted case back shows its own. Teardown, the sweep and the checks that meet a deleted
 * id tell the two apart with anotherCase(), so a reused id is never taken for the case the run deleted (nor deleted
 * in its place).
 */
import { stringifyJson } from '../base/json.ts';
import { type Id, isId } from '../spec/index.ts';
import { isDeepStrictEqual } from 'node:util';

export interface CaseIdentity {
  id: Id;
  /** created_at as an answer showed it (read-only: it never changes for one case). */
  createdAt: unknown;
  /** The external_ids the case showed or was sent (a write may change it); empty when none is known. */
  externalIds: unknown[];
}

/**
 * Two created_at values this far apart or more are two creations: an answer may show created_at to the millisecond
 * where another shows whole seconds, so a closer pair may be one creation shown twice.
 */
const SAME_CREATION_MS = 1000;

/** One value shown twice: strings as canonically equivalent Unicode (a server may store text in NFC). */
function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.normalize('NFC') === b.normalize('NFC');
  return isDeepStrictEqual(a, b);
}

/** The identity a case body shows, when it has an integer id. */
export function identityOf(body: Readonly<Record<string, unknown>>): CaseIdentity | undefined {
  if (!isId(body.id)) return undefined;
  return {
    id: body.id,
    createdAt: body.created_at,
    externalIds: body.external_id === undefined ? [] : [body.external_id],
  };
}

/** Adds an external_id the case showed or was sent, once. */
export function knownAs(identity: CaseIdentity, externalId: unknown): void {
  if (externalId !== undefined && !identity.externalIds.some((v) => same(v, externalId)))
    identity.externalIds.push(externalId);
}

/** Whether two created_at values are one creation (see SAME_CREATION_MS); values that are no date must be equal. */
function sameCreation(a: unknown, b: unknown): boolean {
  const [x, y] = [Date.parse(String(a)), Date.parse(String(b))];
  if (typeof a === 'string' && typeof b === 'string' && !Number.isNaN(x) && !Number.isNaN(y))
    return Math.abs(x - y) < SAME_CREATION_MS;
  return same(a, b);
}

/**
 * Whether `body`, which shows the id of the case `was` identifies, is another case: created at another time, or
 * created within the same second but showing an external_id that case never showed nor was sent. Where neither
 * side shows what it is compared by (no created_at, no external_id), it is taken as the same case.
 */
export function anotherCase(was: CaseIdentity, body: Readonly<Record<string, unknown>>): boolean {
  if (was.createdAt !== undefined && body.created_at !== undefined && !sameCreation(was.createdAt, body.created_at))
    return true;
  if (was.externalIds.length === 0 || body.external_id === undefined) return false;
  return !was.externalIds.some((v) => same(v, body.external_id));
}

/** What a message says of an identity: `created_at …, external_id …`. */
export function describeIdentity(identity: CaseIdentity): string {
  const ids = identity.externalIds.map((v) => stringifyJson(v)).join(' or ');
  return `created_at ${stringifyJson(identity.createdAt) ?? 'unknown'}, external_id ${ids || 'unknown'}`;
}
