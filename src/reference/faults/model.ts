/** Faults of the data model across endpoints (requirement MODEL-CONSISTENT). */
import type { Id } from '../../spec/index.ts';
import type { CaseRecord, CustomerRecord } from '../store.ts';
import { fault } from '../switches.ts';

type Updatable = Pick<CaseRecord, 'webhook_url' | 'delete_after' | 'metadata' | 'sync_platforms' | 'external_id'>;

export const MODEL_FAULTS = [
  fault(
    'model.stale-after-bulk',
    'PATCH starts from the case as the previous PATCH (or creation) left it, undoing bulk updates made since',
    (base) => {
      // A copy of the updatable fields kept by each PATCH and creation: what a bulk update changed since is undone.
      const copies = new Map<Id, Updatable>();
      const keep = (c: CaseRecord) => {
        const { webhook_url, delete_after, metadata, sync_platforms, external_id } = c;
        copies.set(c.id, { webhook_url, delete_after, metadata, sync_platforms, external_id });
      };
      return {
        caseCreated(c) {
          base.caseCreated(c);
          keep(c);
        },
        async patchWrite(org, c, patch) {
          const copy = copies.get(c.id);
          if (copy) Object.assign(c, copy);
          await base.patchWrite(org, c, patch);
          keep(c);
        },
      };
    },
  ),
  fault(
    'model.delete-resurrects',
    'a bulk update naming a deleted case brings it back and applies the item',
    (base, env) => {
      // A deleted case is kept aside, and a bulk update naming it brings it back.
      const deleted = new Map<Id, { record: CaseRecord; customer: CustomerRecord | undefined }>();
      return {
        deleteCase(c) {
          deleted.set(c.id, { record: c, customer: env.store.getCustomer(c.org, c.customerId) });
          base.deleteCase(c);
        },
        findCase(org, id, op) {
          const gone = deleted.get(id);
          if (op === 'bulk-cases' && gone && gone.record.org === org && !env.store.getCase(org, id)) {
            if (gone.customer && !env.store.getCustomer(org, gone.customer.id)) env.store.putCustomer(gone.customer);
            env.store.putCase(gone.record);
            deleted.delete(id);
          }
          return base.findCase(org, id, op);
        },
      };
    },
  ),
];
