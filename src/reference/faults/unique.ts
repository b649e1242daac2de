/** Faults of external_id uniqueness (requirements UNIQUE-*). */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { applyPatch, assertExternalIdFree } from '../handlers/case-write.ts';
import { fault } from '../switches.ts';
import { stopAfter } from './bulk.ts';
import type { Behaviour, Env } from '../points.ts';

/** unique.race: the pause between the uniqueness check and the write. */
const RACE_WINDOW_MS = 150;

/** How a case-insensitive collation (MySQL utf8mb4_general_ci, SQL Server CI) compares. */
const caseFolded = (s: string) => s.toLowerCase();
/** How an accent-insensitive collation (SQL Server AI) compares: letters without their marks. */
const accentFolded = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '');

/** A unique index comparing values as `fold` does: another case of the organisation holds an equal value. */
function collatedIndex(env: Env, fold: (s: string) => string): Pick<Behaviour, 'externalIdTaken'> {
  return {
    externalIdTaken: (org, externalId, self) =>
      env.store.casesOf(org).some((c) => c.id !== self && fold(c.external_id) === fold(externalId)),
  };
}

/**
 * Values no case holds that stay taken all the same: `released` gives the overrides that call
 * `reserve` when a case lets a value go.
 */
function reserving(
  base: Behaviour,
  released: (reserve: (org: string, value: string) => void) => Partial<Behaviour>,
): Partial<Behaviour> {
  // As `org\nvalue`.
  const reserved = new Set<string>();
  return {
    externalIdTaken: (org, externalId, self) =>
      base.externalIdTaken(org, externalId, self) || reserved.has(`${org}\n${externalId}`),
    ...released((org, value) => reserved.add(`${org}\n${value}`)),
  };
}

export const UNIQUE_FAULTS = [
  fault(
    'unique.no-check',
    "PATCH never checks external_id uniqueness: a case can take another case's value",
    (base) => ({
      uniqueChecked: (op) => op !== 'patch' && base.uniqueChecked(op),
    }),
  ),
  fault(
    'unique.takeover',
    "a PATCH taking another case's external_id is accepted: the case holding it is given a new one (a UUID)",
    (base, env) => ({
      patchWrite(org, c, patch) {
        const holder = typeof patch.external_id === 'string' && env.store.findCaseByExternalId(org, patch.external_id);
        if (holder && holder.id !== c.id) {
          holder.external_id = randomUUID();
          env.b.saveCase(holder);
        }
        return base.patchWrite(org, c, patch);
      },
    }),
  ),
  fault(
    'unique.bulk-no-check',
    "bulk case update skips the external_id uniqueness check: an item can take another case's value",
    (base) => ({ uniqueChecked: (op) => op !== 'bulk-cases' && base.uniqueChecked(op) }),
  ),
  fault(
    'unique.self-conflict',
    "a PATCH re-sending the case's own external_id is refused as taken (409)",
    (_b, env) => ({
      externalIdTaken: (org, externalId) => env.store.findCaseByExternalId(org, externalId) !== undefined,
    }),
  ),
  fault(
    'unique.global',
    'external_id is unique across all organisations: a value another organisation holds is refused',
    (_b, env) => ({
      externalIdTaken: (_org, externalId, self) =>
        env.organisations.some((o) => {
          const holder = env.store.findCaseByExternalId(o.name, externalId);
          return holder !== undefined && holder.id !== self;
        }),
    }),
  ),
  fault(
    'unique.freed-kept',
    'an external_id a case was renamed away from stays reserved: no other case can take it',
    (base) =>
      reserving(base, (reserve) => ({
        applyCaseFields(c, patch) {
          const before = c.external_id;
          base.applyCaseFields(c, patch);
          if (c.external_id !== before) reserve(c.org, before);
        },
      })),
  ),
  fault(
    'unique.bulk-conflict-aborts',
    'after an external_id conflict in a bulk case update the later items are lost, yet reported as updated',
    (base) => stopAfter(base, (r) => r.error?.code === 'external_id_conflict', ['bulk-cases']),
  ),
  fault(
    'unique.race',
    'PATCH checks external_id uniqueness, waits, then writes: racing PATCHes for one value all succeed',
    (base, env) => ({
      async patchWrite(org, c, patch) {
        if (typeof patch.external_id !== 'string') return base.patchWrite(org, c, patch);
        // Check, then write after a pause: by the time of the write the check is stale, so
        // PATCHes racing for one value all pass it.
        assertExternalIdFree(env, org, patch.external_id, c.id);
        await sleep(RACE_WINDOW_MS);
        applyPatch(env, org, c, patch, false);
      },
    }),
  ),
  fault(
    'unique.case-insensitive',
    'the unique index compares external_ids ignoring letter case (a _ci collation): a case cannot take abc-1 ' +
      'while another holds Abc-1',
    (_b, env) => collatedIndex(env, caseFolded),
  ),
  fault(
    'unique.accent-insensitive',
    'the unique index compares external_ids ignoring accents (an _ai collation): a case cannot take cafe-1 ' +
      'while another holds café-1',
    (_b, env) => collatedIndex(env, accentFolded),
  ),
  fault(
    'unique.soft-delete-kept',
    'DELETE marks a case deleted but its row stays in the unique index: its external_id can never be taken again',
    (base) =>
      reserving(base, (reserve) => ({
        deleteCase(c) {
          reserve(c.org, c.external_id);
          base.deleteCase(c);
        },
      })),
  ),
];
