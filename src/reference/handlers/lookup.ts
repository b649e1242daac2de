/**
 * Finding a record for a request: only among the records of the caller's organisation; what is
 * not there is answered as not found, whether or not another organisation has it.
 */
import { HttpError } from '../http.ts';
import type { Env, LookupPoints, Op } from '../points.ts';

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
