/**
 * Finding a record for a request: only among the records of the caller's organisation; what is
 * not there is answered as not found, whether or not another organisation has it.
 */
import type { Id } from '../../spec/index.ts';
import type { Env, Op } from '../behaviour.ts';
import { HttpError } from '../http.ts';
import type { CaseRecord } from '../store.ts';

/** A record a request named and did not find. */
export interface Missing {
  kind: 'case' | 'customer' | 'check';
  /** The organisation that looked. */
  org: string;
  id?: Id;
  externalId?: string;
}

export interface LookupPoints {
  /** The organisations whose records an operation of `org` reaches, the caller's first. */
  scope(org: string, op: Op): readonly string[];
  /** The refusal when a named record is not found. */
  notFound(missing: Missing): HttpError;
  /** The case an operation names; throws the refusal when there is none. */
  findCase(org: string, id: Id, op: Op): CaseRecord;
}

/** The correct lookups: the caller's organisation only, 404 for anything else. */
export function lookupDefaults(env: Env): LookupPoints {
  return {
    scope: (org) => [org],
    notFound: (m) =>
      new HttpError(
        404,
        'not_found',
        m.id !== undefined ? `no ${m.kind} with id ${m.id}` : `no ${m.kind} with external_id ${m.externalId}`,
      ),
    findCase(org, id, op) {
      const c = lookupIn(env, org, op, (o) => env.store.getCase(o, id));
      if (!c) throw env.b.notFound({ kind: 'case', org, id });
      return c;
    },
  };
}

/** The first record `find` gives in the operation's scope. */
export function lookupIn<T>(env: Env, org: string, op: Op, find: (org: string) => T | undefined): T | undefined {
  for (const o of env.b.scope(org, op)) {
    const found = find(o);
    if (found !== undefined) return found;
  }
  return undefined;
}
