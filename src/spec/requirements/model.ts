import { requirements } from '../requirement.ts';

export const MODEL_REQUIREMENTS = requirements([
  {
    id: 'MODEL-CONSISTENT',
    level: 'MUST',
    area: 'model',
    statement:
      'Over any sequence of PATCH, bulk case update, bulk check delete, DELETE and reads, every case read and PATCH ' +
      'answer shows the state the operations so far imply: accepted updates persist, rejected ones change ' +
      'nothing, deleted cases and checks stay gone, and external_id stays unique.',
    source: 'interface § Endpoints (PATCH, DELETE, bulk-update, bulk-delete); § Errors 1–2; § Resources › Case',
    decision:
      'Bulk items carry the PATCH fields beside id (item fields are not shown); only order-independent batches are ' +
      'sent; whether a deleted case frees its external_id is not shown (archived vs deleted), so either answer ' +
      'is accepted and followed; bulk answers are judged by the state read back, not by their shape.',
  },
]);
