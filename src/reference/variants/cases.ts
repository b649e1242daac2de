/** Variants of the case endpoints: DELETE's answer and effects, GET's absence, what a save touches. */
import { HttpError } from '../http.ts';
import { variant } from '../switches.ts';

const NO_GET = 'GET /api/cases/{id}/';

/** A timestamp as a store keeping whole seconds shows it, with a numeric offset: `…T04:05:06+00:00`. */
const wholeSecond = (v: unknown) => (typeof v === 'string' ? v.replace(/(\.\d+)?Z$/, '+00:00') : v);

/** A case or check with its created_at and updated_at as wholeSecond shows them. */
function timesToTheSecond(o: unknown): unknown {
  if (o === null || typeof o !== 'object' || Array.isArray(o)) return o;
  const r = o as Record<string, unknown>;
  return { ...r, created_at: wholeSecond(r.created_at), updated_at: wholeSecond(r.updated_at) };
}

export const CASE_VARIANTS = [
  variant(
    'patch.reject-read-only',
    "a PATCH body or bulk case item holding a read-only field (note, outcome, risk_score…; a bulk item's id " +
      'aside) is refused with 400 naming it, and nothing of it is applied',
    () => ({
      readOnlySent(_c, fields) {
        const names = Object.keys(fields);
        if (names.length === 0) return;
        throw new HttpError(400, 'validation_error', 'request body is invalid', {
          fields: Object.fromEntries(names.map((f) => [f, ['is read-only']])),
        });
      },
    }),
  ),
  variant('delete.status-200', 'DELETE answers 200 with {"id", "deleted": true}, not 204 without a body', () => ({
    deletedAnswer: (c) => ({ status: 200, body: { id: c.id, deleted: true } }),
  })),
  variant(
    'delete.absent-no-op',
    "DELETE of a case the caller has not (never made, deleted already, another organisation's) answers 204 and " +
      'does nothing, as a DELETE that found it does',
    () => ({ deleteAbsent: () => ({ status: 204 }) }),
  ),
  variant('delete.keeps-customer', 'deleting a case keeps its customer, even when no case uses it any more', () => ({
    customerOrphaned: () => {},
  })),
  variant(
    'read.get-405',
    'no GET /api/cases/{id}/: it answers 405 with Allow: PATCH, DELETE (alternative to read.get-404, read.get-403)',
    () => ({ caseMethods: ['PATCH', 'DELETE'] }),
    NO_GET,
  ),
  variant(
    'read.get-404',
    'no GET /api/cases/{id}/: it answers 404, as an unknown route (alternative to read.get-405, read.get-403)',
    () => ({
      readCase: (_org, id) => {
        throw new HttpError(404, 'not_found', `no route for GET /api/cases/${id}/`);
      },
    }),
    NO_GET,
  ),
  variant(
    'read.get-403',
    'no GET /api/cases/{id}/: it answers 403, not permitted to any credential (alternative to read.get-405, ' +
      'read.get-404)',
    () => ({
      readCase: () => {
        throw new HttpError(403, 'permission_denied', 'you do not have permission to read a case by id');
      },
    }),
    NO_GET,
  ),
  variant(
    'read.get-whole-seconds',
    "GET /api/cases/{id}/ shows the case's and its checks' created_at and updated_at to the whole second with " +
      'a +00:00 offset, as stored; the answers to writes (creation, PATCH, bulk) show them to the millisecond ' +
      'with Z, as made (alternative to read.get-405, read.get-404, read.get-403)',
    (base) => ({
      readCase(org, id) {
        const answer = base.readCase(org, id);
        const c = timesToTheSecond(answer.body) as Record<string, unknown>;
        const checks = Array.isArray(c.checks) ? c.checks.map(timesToTheSecond) : c.checks;
        return { ...answer, body: { ...c, checks } };
      },
    }),
    NO_GET,
  ),
  variant(
    'model.save-touches-checks',
    "every save of a case (PATCH, bulk update, a check deleted) sets its checks' updated_at to the case's",
    (base, env) => ({
      saveCase(c) {
        base.saveCase(c);
        for (const k of env.store.checksOfCase(c.org, c.id)) k.updated_at = c.updated_at;
      },
    }),
  ),
];
