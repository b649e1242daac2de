/** DELETE /api/cases/{id}/ (interface § Endpoints › Delete Case). */
import type { Id } from '../src/spec/index.ts';
import { describe } from 'vitest';
import {
  anotherCase,
  check,
  describeIdentity,
  excerpt,
  expectDeleteOfNoCase,
  expectRejected,
  expectSuccess,
  identityOf,
  isJsonObject,
  readCase,
  unknownId,
  type CheckApi,
} from '../src/kit/index.ts';

/**
 * The case the first check deleted: the second DELETEs it again rather than deleting a case of its own. Not kept
 * when another case answered at its id (a server that recycles ids): a second DELETE would delete that case.
 */
let deleted: Id | undefined;

/** A case deleted (its DELETE answered 2xx), for a second DELETE; skipped when DELETE itself does not succeed. */
async function deletedCase(t: CheckApi): Promise<Id> {
  const kept = deleted;
  deleted = undefined;
  if (kept !== undefined) return kept;
  const c = await t.primary.provision.createCase();
  const res = await t.primary.api.deleteCase(c.id);
  if (res.status < 200 || res.status > 299)
    t.skip(`DELETE of case ${c.id} answered ${excerpt(res)}: no deleted case (CASE-DELETE-REMOVES judges that)`);
  t.primary.provision.forget(c.id);
  return c.id;
}

describe('DELETE /api/cases/{id}/', () => {
  check(
    'DELETE removes the case: a later PATCH of it is rejected',
    ['CASE-DELETE-REMOVES', 'CASE-DELETE-STATUS'],
    async (t) => {
      const c = await t.primary.provision.createCase();
      const res = await t.primary.api.deleteCase(c.id);
      expectSuccess(res, `DELETE of case ${c.id}`);
      t.primary.provision.forget(c.id);
      t.observe(
        'CASE-DELETE-STATUS',
        `HTTP ${res.status}` +
          (res.text ? ` with a body of ${res.text.length} chars: ${res.text.slice(0, 120)}` : ' with no body'),
      );
      // An empty PATCH: on a server that gave the id to another case since, it changes nothing of that case.
      const later = await t.primary.api.patchCase(c.id, {});
      // Another case answering there (made since, given the id again) shows the deleted one gone: that is
      // CASE-ID-NOT-REUSED's (the invariant watcher saw the answer). The deleted case answering is not gone.
      const was = identityOf(c)!;
      const other =
        later.status >= 200 && later.status <= 299 && isJsonObject(later.json) && anotherCase(was, later.json);
      if (!other) {
        expectRejected(later, `PATCH of case ${c.id} after it was deleted`);
        deleted = c.id;
      } else
        t.observe(
          'CASE-DELETE-STATUS',
          `a PATCH of case ${c.id} after its deletion was answered by another case with its id ` +
            `(${describeIdentity(identityOf(later.json as Record<string, unknown>)!)})`,
        );
      // A case made right after a deletion, where a server that recycles ids gives the deleted one out again: the
      // invariant watcher judges its answer (CASE-ID-NOT-REUSED).
      await t.primary.provision.createCase();
    },
  );

  check(
    'DELETE of a case deleted already, or of an id that names no case, deletes nothing and is no server error',
    ['CASE-DELETE-UNKNOWN-ID', 'CASE-DELETE-REPEAT'],
    async (t) => {
      const bystander = await t.primary.provision.createCase();
      let gone = await deletedCase(t);
      // A server that gave the deleted id to another case since (CASE-ID-NOT-REUSED judges it): a second DELETE there
      // would delete that case, so a case deleted just now is deleted again instead.
      if (t.watcher.idReused('ours', gone)) gone = await deletedCase(t);
      const again = await t.primary.api.deleteCase(gone);
      t.observe('CASE-DELETE-REPEAT', `second DELETE of case ${gone} answered HTTP ${again.status}`);
      expectDeleteOfNoCase(again, `second DELETE of case ${gone}`);
      const id = unknownId();
      expectDeleteOfNoCase(await t.primary.api.deleteCase(id), `DELETE of case ${id}, which does not exist`);
      await readCase(
        t.primary,
        bystander.id,
        `reading case ${bystander.id} (still there) after DELETE of case ${gone} again and of case ${id}`,
      );
    },
  );
});
