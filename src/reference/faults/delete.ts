/** Faults of DELETE /api/cases/{id}/ (requirements CASE-DELETE-*). */
import type { Id } from '../../spec/index.ts';
import { HttpError } from '../http.ts';
import { fault } from '../switches.ts';

export const DELETE_FAULTS = [
  fault('delete.noop', 'DELETE answers 204 but keeps the case', () => ({ deleteCase: () => {} })),
  fault('delete.unknown-id-500', 'DELETE of a case id that never existed answers 500', (base) => {
    // Ids of deleted cases, so that only ids that never existed answer 500.
    const deletedIds = new Set<Id>();
    return {
      findCase(org, id, op) {
        try {
          return base.findCase(org, id, op);
        } catch (err) {
          if (op === 'delete' && err instanceof HttpError && !deletedIds.has(id))
            throw new HttpError(500, 'server_error', 'internal error');
          throw err;
        }
      },
      deleteCase(c) {
        deletedIds.add(c.id);
        base.deleteCase(c);
      },
    };
  }),
];
