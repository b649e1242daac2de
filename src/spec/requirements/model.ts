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
      "sent; a bulk check delete never takes a case's last check (a case holds one or more checks); whether a " +
      'deleted case frees its external_id is judged by UNIQUE-DELETED-VALUE, so the model follows either answer ' +
      '(one defect, one requirement); a DELETE of a case deleted earlier is judged by the one rule of ' +
      'CASE-DELETE-UNKNOWN-ID (a 4xx, or a 2xx that deletes nothing); bulk answers are judged by the state read ' +
      'back, not by their status or shape (BULK-* judge those).',
  },
]);
