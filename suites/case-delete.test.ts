/** DELETE /api/cases/{id}/ (interface § Endpoints › Delete Case). */
import { randomInt } from 'node:crypto';
import { describe } from 'vitest';
import {
  anotherCase,
  check,
  describeIdentity,
  excerpt,
  expectRejected,
  expectSuccess,
  fail,
  identityOf,
  isJsonObject,
} from '../src/kit/index.ts';

describe('DELETE /api/cases/{id}/', () => {
  check(
    'DELETE removes the case: a later PATCH of it is rejected',
    ['CASE-DELETE-REMOVES', 'CASE-DELETE-STATUS', 'CASE-DELETE-REPEAT'],
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
      const later = await t.primary.api.patchCase(c.id, { delete_after: 5 });
      // Another case answering there (made since, given the id again) shows the deleted one gone: that is
      // CASE-ID-NOT-REUSED's (the invariant watcher saw the answer). The deleted case answering is not gone.
      const was = identityOf(c)!;
      const other =
        later.status >= 200 && later.status <= 299 && isJsonObject(later.json) && anotherCase(was, later.json);
      if (other) {
        // A second DELETE would delete that other case.
        t.observe(
          'CASE-DELETE-REPEAT',
          `not sent: a PATCH of case ${c.id} after its deletion was answered by another case with its id ` +
            `(${describeIdentity(identityOf(later.json as Record<string, unknown>)!)})`,
        );
      } else {
        expectRejected(later, `PATCH of case ${c.id} after it was deleted`);
        const again = await t.primary.api.deleteCase(c.id);
        if (again.status >= 500)
          fail(`second DELETE of case ${c.id}`, 'a 4xx, or a 2xx as an idempotent no-op', excerpt(again), {
            judged: [again],
            expect: { status: ['2xx', '4xx'] },
          });
        t.observe('CASE-DELETE-REPEAT', `second DELETE answered HTTP ${again.status}`);
      }
      // A case made right after a deletion, where a server that recycles ids gives the deleted one out again: the
      // invariant watcher judges its answer (CASE-ID-NOT-REUSED).
      await t.primary.provision.createCase();
    },
  );

  check('DELETE of a case that does not exist is not a server error', ['CASE-DELETE-UNKNOWN-ID'], async (t) => {
    const id = 2_147_480_000 + randomInt(0, 3000);
    const res = await t.primary.api.deleteCase(id);
    if (res.status >= 500 || res.status < 200 || (res.status >= 300 && res.status < 400)) {
      fail(`DELETE of case ${id}, which does not exist`, 'a 4xx, or a 2xx that deletes nothing', excerpt(res), {
        judged: [res],
        expect: { status: ['2xx', '4xx'] },
      });
    }
  });
});
