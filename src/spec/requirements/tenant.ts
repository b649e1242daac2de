import { requirements } from '../requirement.ts';

/** Where isolation comes from: the interface never states it in words. */
const SOURCE =
  "interface § Authentication 1-2 (every request carries an organisation's credential); § Errors 2 (cases belong to " +
  'an organisation)';
const ISOLATION =
  'The interface implies isolation rather than stating it: resources belong to an organisation, and every request ' +
  "carries one organisation's credential. To another organisation our resource does not exist, so its request is " +
  'answered as one naming an id that exists nowhere is, by the same rule';
const DECISION =
  `${ISOLATION}: a PATCH of a case that does not exist is rejected (CASE-PATCH-UNKNOWN-ID), so any 4xx (404 or ` +
  '403) conforms; a 2xx, even one that changes nothing, does not; a 5xx never.';
const DELETE_DECISION =
  `${ISOLATION}: a DELETE of a case that does not exist is answered with a 4xx or a 2xx that deletes nothing ` +
  '(CASE-DELETE-UNKNOWN-ID, src/kit expectDeleteOfNoCase), so both conform as long as our case is still there, ' +
  'unchanged; a 5xx never. Whether the answer tells the two apart is recorded (TENANT-REFUSAL-STATUS).';
const BULK_DECISION =
  "The other organisation's batch also holds a valid item of its own, so the answer is a partial success; items " +
  'naming our resources are read as BULK-*-REPORTED reads them (src/kit/bulk-report.ts), from any 2xx with JSON: ' +
  "the status of a batch's answer is judged by one rule, BULK-*-PARTIAL's (200).";

export const TENANT_REQUIREMENTS = requirements([
  {
    id: 'TENANT-PATCH',
    level: 'MUST',
    area: 'tenant',
    statement:
      "A PATCH of one of our cases sent with another organisation's credentials is rejected with a 4xx, and the " +
      'case is unchanged (read back with ours).',
    source: `${SOURCE}; § Endpoints › PATCH /api/cases/{id}/`,
    decision: DECISION,
  },
  {
    id: 'TENANT-DELETE',
    level: 'MUST',
    area: 'tenant',
    statement:
      "A DELETE of one of our cases sent with another organisation's credentials deletes nothing: it is answered " +
      'as a DELETE of a case that does not exist (a 4xx, or a 2xx that deletes nothing), and the case is still ' +
      'there, unchanged.',
    source: `${SOURCE}; § Endpoints › DELETE /api/cases/{id}/`,
    decision: DELETE_DECISION,
  },
  {
    id: 'TENANT-REFUSAL-STATUS',
    level: 'OBSERVE',
    area: 'tenant',
    statement:
      "The status with which another organisation's PATCH or DELETE of our case is answered (404, 403, or a 2xx " +
      'no-op for DELETE), beside the answer for an id that exists nowhere.',
    source: 'interface § Errors (error status codes: not shown)',
  },
  {
    id: 'TENANT-REFUSAL-NO-DATA',
    level: 'MUST',
    area: 'tenant',
    statement:
      "The answer to another organisation's PATCH, DELETE or read (GET, or an empty PATCH where the server has no " +
      "read) of our case holds none of the case's data: none " +
      'of its external_id, webhook_url, metadata or customer name appears in the body.',
    source: SOURCE,
    decision:
      'The interface implies isolation rather than stating it (as for TENANT-PATCH): to another organisation our ' +
      'case does not exist, so no answer to it can show the case. ' +
      'Our case is given values holding random tokens; the refusal body (whatever its status and shape) must hold ' +
      'none of them. The id the request named may be echoed.',
  },
  {
    id: 'TENANT-CUSTOMER-EXTERNAL-ID',
    level: 'MUST',
    area: 'tenant',
    statement:
      'When both organisations hold a customer with the same external_id, a bulk customer update naming it by ' +
      "external_id changes the caller's customer and never the other organisation's, whichever organisation sends it.",
    source:
      `${SOURCE}; § Resources › Customer (external_id: "id in the source system, for lookups"); § Endpoints › POST ` +
      '/api/customers/bulk-update/ (each item identifies a customer by id or external_id)',
    decision:
      "An external_id is an id in the organisation's own source system, so two organisations may hold the same " +
      "value for different customers; a lookup by it is the caller's organisation's, like every other. A server " +
      "that refuses the caller's item because the other organisation holds the value fails too.",
  },
  {
    id: 'TENANT-BULK-CASES',
    level: 'MUST',
    area: 'tenant',
    statement:
      "A bulk case update sent with another organisation's credentials, naming our cases by id, changes none of " +
      'them (and is not answered with a 5xx).',
    source: `${SOURCE}; § Endpoints › POST /api/cases/bulk-update/`,
  },
  {
    id: 'TENANT-BULK-CASES-REPORTED',
    level: 'MUST',
    area: 'tenant',
    statement:
      "The answer to another organisation's bulk case update reports each item naming one of our cases as failed, " +
      'never as a success.',
    source: `${SOURCE}; § Endpoints › POST /api/cases/bulk-update/ ("failures are reported per item"); § Errors 1`,
    decision: BULK_DECISION,
  },
  {
    id: 'TENANT-BULK-CUSTOMERS',
    level: 'MUST',
    area: 'tenant',
    statement:
      "A bulk customer update sent with another organisation's credentials, naming our customers by id and by " +
      'external_id, changes none of them (and is not answered with a 5xx).',
    source:
      `${SOURCE}; § Endpoints › POST /api/customers/bulk-update/ (each item identifies a customer by id or ` +
      `external_id)`,
  },
  {
    id: 'TENANT-BULK-CUSTOMERS-REPORTED',
    level: 'MUST',
    area: 'tenant',
    statement:
      "The answer to another organisation's bulk customer update reports each item naming one of our customers (by " +
      'id or by external_id) as failed, never as a success.',
    source: `${SOURCE}; § Endpoints › POST /api/customers/bulk-update/ ("Failures are reported per item"); § Errors 1`,
    decision: BULK_DECISION,
  },
  {
    id: 'TENANT-BULK-CHECKS',
    level: 'MUST',
    area: 'tenant',
    statement:
      "A bulk check delete sent with another organisation's credentials, naming our checks, deletes none of them " +
      '(and is not answered with a 5xx).',
    source: `${SOURCE}; § Endpoints › POST /api/checks/bulk-delete/`,
  },
  {
    id: 'TENANT-BULK-CHECKS-REPORTED',
    level: 'MUST',
    area: 'tenant',
    statement:
      "The answer to another organisation's bulk check delete reports each id of one of our checks as failed, never " +
      'as deleted.',
    source: `${SOURCE}; § Endpoints › POST /api/checks/bulk-delete/ ("failures are reported per item"); § Errors 1`,
    decision: BULK_DECISION,
  },
]);
