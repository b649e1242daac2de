/**
 * Faults that answer a legal request with no answer at all (requirements of the request dropped; issue 33 §8): the
 * connection closed, reset, or held silent, while the server goes on answering every other request. Each is the
 * target's answer to that request, never a target gone: the run ends NOT CONFORMING, the check that sent it failed.
 */
import { LIMITS } from '../../spec/index.ts';
import { rawEntries } from '../handlers/bulk.ts';
import { DropNow } from '../http.ts';
import { fault } from '../switches.ts';

export const DROP_FAULTS = [
  fault(
    'drop.bulk-cases-100-closed',
    'a bulk case update of 100 items (the largest legal batch) gets its connection closed, no answer (a worker that ' +
      'dies on it, a proxy that gives up on it)',
    (base) => ({
      runBatch(spec, body, run) {
        if (spec.op === 'bulk-cases' && rawEntries(spec, body)?.length === LIMITS.bulkMaxItems)
          throw new DropNow('close');
        return base.runBatch(spec, body, run);
      },
    }),
  ),
  fault(
    'drop.patch-sync-platforms-null-reset',
    'a PATCH setting sync_platforms to null gets its connection reset, no answer (a process that crashes reading the ' +
      'null as a list, restarted at once)',
    (base) => ({
      parsePatch(org, c, body) {
        if (body !== null && typeof body === 'object' && (body as Record<string, unknown>).sync_platforms === null)
          throw new DropNow('reset');
        return base.parsePatch(org, c, body);
      },
    }),
  ),
  fault(
    'drop.delete-absent-silent',
    'a DELETE of a case the caller does not have (never one, or deleted already) is never answered (a lookup that ' +
      'waits on a lock nobody releases)',
    () => ({
      deleteAbsent() {
        throw new DropNow('silent');
      },
    }),
  ),
];
