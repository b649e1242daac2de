/** DELETE /api/cases/{id}/ (interface § Endpoints › Delete Case). */
import type { Id } from '../src/spec/index.ts';
import { describe } from 'vitest';
import {
  check,
  excerpt,
  expectDeleteOfNoCase,
  expectRejected,
  expectSuccess,
  readCase,
  unknownId,
  type CheckApi,
} from '../src/kit/index.ts';

/** The case the first check deleted: the second DELETEs it again rather than deleting a case of its own. */
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
      expectRejected(
        await t.primary.api.patchCase(c.id, { delete_after: 5 }),
        `PATCH of case ${c.id} after it was deleted`,
      );
      deleted = c.id;
    },
  );

  check(
    'DELETE of a case deleted already, or of an id that names no case, deletes nothing and is no server error',
    ['CASE-DELETE-UNKNOWN-ID', 'CASE-DELETE-REPEAT'],
    async (t) => {
      const bystander = await t.primary.provision.createCase();
      const gone = await deletedCase(t);
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
