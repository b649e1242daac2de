import { requirements } from '../requirement.ts';

const REPORT_DECISION =
  'The shape is not shown: screenconf recognises results lists with a per-item status, separate lists of successes ' +
  'and failures, and maps keyed by index, id or external_id (src/kit/bulk-report.ts); --bulk-failures-path ' +
  'names the failure list of any other shape.';
const PARTIAL_DECISION =
  'A batch with failing items is not a failed request ("report failures per item rather than failing the whole ' +
  'request", § Errors 1), so it is a success and gets the success answer the interface shows: "200 with JSON ' +
  'body". A 207 Multi-Status is another answer than the one shown. This is the one rule for the status of a ' +
  "batch's answer (src/kit expectBatchSuccess), judged here and by BULK-*-ACCEPT-100; the checks that read the " +
  'per-item report (BULK-*-REPORTED, UNIQUE-BULK-REPORTED, TENANT-BULK-*-REPORTED) take any 2xx with JSON and ' +
  'leave the status to this one. Failures are per item, so one failing item changes nothing about the others: ' +
  'besides generated batches in generated order, a batch whose failing items (one of each kind) come first and ' +
  'between the valid ones is always sent, and a valid item after a failure that is not applied fails. Every value ' +
  'the interface lists for a field is valid in an item (customer_type "" and null among them), never sent as a ' +
  'failing one. Item fields are not shown: a valid item a batch left unapplied is blamed on the batch only when ' +
  'it is applied sent alone; one refused alone too is an item the server does not take.';
const ITEM_FIELDS_DECISION =
  'Which fields an item takes is not shown: where the batch is not applied whole, each field is sent alone in an ' +
  'item (a batch of one), and one the answer refuses (a 4xx, or the item reported failed) is not a field the items ' +
  'take and is left out of the batches; one answered as taken stays, and must be applied (src/kit/item-fields.ts, ' +
  'the one rule of aloneRefused).';
const LIMIT_DECISION =
  'The limit ("maximum length 100") bounds the request body: a body of 101 entries is not a request the server ' +
  'may carry out, in whole or in part, so none of its items is applied ("up to 100" per request). How that is ' +
  'answered is not shown (error statuses: not shown), and failures are reported per item (§ Errors 1): rejecting ' +
  'the request whole (any 4xx) and answering 2xx with its items reported failed both conform, and which one is ' +
  'recorded. An item applied, or reported as a success, fails; a 5xx never conforms. One rule for the three ' +
  'endpoints (src/kit expectOverLimitRefused). The limit counts the entries of the body, whatever they name: 101 ' +
  'items naming one record, or two, are 101 entries (a server that merges them before it counts takes them). It ' +
  'holds on every way in: in form and multipart bodies too (items as JSON text in one field, ids as repeated ' +
  'fields, plain or file parts), where an entry read is judged as in JSON.';
const FLAT_DECISION =
  'How a list travels in a form or multipart body is not shown (items as JSON text in one field, ids as repeated ' +
  'fields, are conventions): a batch of 100 in such a body is judged where the server takes one there (an item sent ' +
  'alone taken; two ids sent, both deleted), and not judged, with why, where it takes none (src/spec/inputs/' +
  'containers.ts).';
const ELEMENT_DECISION =
  'An entry of another kind than its list holds (null, a number, text, an array, {}, an item naming no record) ' +
  'breaks the body\'s type ("an array of objects", "an array of integers") and is also one failing item ("failures ' +
  'are reported per item"): refusing the request whole with nothing applied, and failing that entry while the ' +
  'valid ones apply, both conform; an entry of another kind is never acted on.';

const MALFORMED_SOURCE =
  '§ Errors 1 (bulk operations report failures per item); RFC 9110 §15.5 (4xx: the client seems to have erred) and ' +
  '§15.6 (5xx: the server is incapable of performing the request)';
const MALFORMED_DECISION =
  'How a malformed body is answered is not shown: rejecting it whole (any 4xx) or answering 2xx with the entries it ' +
  'could not use reported per item both conform, and the status is recorded. A 5xx never conforms: the mistake is ' +
  "the client's, and a server error says the server could not handle a request it should have.";

export const BULK_REQUIREMENTS = requirements([
  // POST /api/cases/bulk-update/
  {
    id: 'BULK-CASES-ACCEPT-100',
    level: 'MUST',
    area: 'bulk-cases',
    statement:
      'A bulk case update of exactly 100 valid items answers 200 with a JSON body and applies every item (read ' +
      'back), as JSON and in each form and multipart encoding the server takes items in.',
    source:
      'interface § Endpoints › POST /api/cases/bulk-update/ (maximum length 100; up to 100 cases per request; ' +
      'Success: 200 with JSON body); § Limits',
    decision:
      'Item fields are not shown; screenconf sends what "each item identifies a case by id" and the Update Case ' +
      'table suggest: id plus the PATCH fields, external_id, delete_after and webhook_url at their limits. ' +
      ITEM_FIELDS_DECISION +
      ' Where none of those is taken, the items set metadata and sync_platforms; items that can set no field fail ' +
      '("up to 100 cases are updated per request"). ' +
      FLAT_DECISION,
  },
  {
    id: 'BULK-CASES-REJECT-101',
    level: 'MUST',
    area: 'bulk-cases',
    statement:
      'A bulk case update of 101 items applies none of them, in every encoding and whatever they name (101 items ' +
      'naming one case, or two): it is rejected whole (a 4xx) or answered 2xx with no item reported as a success, ' +
      'and no case changes.',
    source:
      'interface § Endpoints › POST /api/cases/bulk-update/ (items: maximum length 100); § Limits (array length max ' +
      '100)',
    decision: LIMIT_DECISION,
  },
  {
    id: 'BULK-CASES-PARTIAL',
    level: 'MUST',
    area: 'bulk-cases',
    statement:
      "A batch mixing valid items with failing ones (unknown ids, invalid fields, another organisation's cases, " +
      "another case's external_id), in any order, answers 200 with a JSON body, applies every valid item, and " +
      'changes no case a failing item names. A valid item beside entries of another kind (null, a number, text, an ' +
      'array, {}, an item without id) is applied where the server answers 2xx, and not where it refuses the request.',
    source:
      'interface § Errors 1 (failures reported per item rather than failing the whole request); § Endpoints › POST ' +
      '/api/cases/bulk-update/',
    decision: `${PARTIAL_DECISION} ${ELEMENT_DECISION}`,
  },
  {
    id: 'BULK-CASES-REPORTED',
    level: 'MUST',
    area: 'bulk-cases',
    statement:
      'The answer to a bulk case update reports each failing item as failed (by its id or its index), and no ' +
      'applied item as failed.',
    source: 'interface § Endpoints › POST /api/cases/bulk-update/ ("failures are reported per item"); § Errors 1',
    decision: REPORT_DECISION,
  },
  {
    id: 'BULK-CASES-REPORT-SHAPE',
    level: 'OBSERVE',
    area: 'bulk-cases',
    statement:
      'The status and shape of the answer to a bulk case update with failing items, and what an entry for a failed ' +
      'item looks like.',
    source:
      'interface § Endpoints › POST /api/cases/bulk-update/ (response body: not shown); § Errors (shape of per-item ' +
      'failure entries: not shown)',
  },
  {
    id: 'BULK-CASES-ITEM-FIELDS',
    level: 'OBSERVE',
    area: 'bulk-cases',
    statement:
      'Which fields the items of a bulk case update take: those the 100-item batch set, and, where it was not ' +
      'applied whole, which fields an item sent alone was refused for.',
    source: 'interface § Endpoints › POST /api/cases/bulk-update/ (item fields: not shown)',
  },
  {
    id: 'BULK-CASES-DUPLICATE-IDS',
    level: 'OBSERVE',
    area: 'bulk-cases',
    statement:
      'What a bulk case update naming the same case in two items does: the status, which item wins, how each is ' +
      'reported.',
    source: 'interface § Endpoints › POST /api/cases/bulk-update/ (not shown)',
  },
  {
    id: 'BULK-CASES-MALFORMED',
    level: 'MUST',
    area: 'bulk-cases',
    statement:
      'A malformed bulk case update (items empty, missing, an object, a string or null; an item that is a number, ' +
      'a string, null or an array; invalid JSON; a JSON array as the body; two items naming one case) is answered ' +
      'with a 2xx or a 4xx, never a 5xx.',
    source:
      `interface § Endpoints › POST /api/cases/bulk-update/ (body: object with items, an array of objects); ` +
      MALFORMED_SOURCE,
    decision: MALFORMED_DECISION,
  },
  // POST /api/customers/bulk-update/
  {
    id: 'BULK-CUSTOMERS-ACCEPT-100',
    level: 'MUST',
    area: 'bulk-customers',
    statement:
      'A bulk customer update of exactly 100 valid items answers 200 with a JSON body and applies every item (read ' +
      'back through the cases), as JSON and in each form and multipart encoding the server takes items in.',
    source:
      'interface § Endpoints › POST /api/customers/bulk-update/ (maximum length 100; Success: 200 with JSON body); ' +
      '§ Limits',
    decision:
      'Item fields are not shown; screenconf sends the fields the Customer summary shows (full_name, customer_type) ' +
      'beside id or external_id, never both: with both, which one identifies the customer is not shown. ' +
      ITEM_FIELDS_DECISION +
      ' Items that can set no field fail. ' +
      FLAT_DECISION,
  },
  {
    id: 'BULK-CUSTOMERS-REJECT-101',
    level: 'MUST',
    area: 'bulk-customers',
    statement:
      'A bulk customer update of 101 items applies none of them, in every encoding and whatever they name (101 ' +
      'items naming one customer, or two): it is rejected whole (a 4xx) or answered 2xx with no item reported as a ' +
      'success, and no customer changes.',
    source:
      'interface § Endpoints › POST /api/customers/bulk-update/ (items: maximum length 100); § Limits (array length ' +
      'max 100)',
    decision: LIMIT_DECISION,
  },
  {
    id: 'BULK-CUSTOMERS-BY-EXTERNAL-ID',
    level: 'MUST',
    area: 'bulk-customers',
    statement: 'An item naming a customer by external_id (and no id) updates that customer.',
    source:
      'interface § Endpoints › POST /api/customers/bulk-update/ ("Each item identifies a customer by id or ' +
      'external_id"); § Resources › Customer (external_id: for lookups)',
  },
  {
    id: 'BULK-CUSTOMERS-EXTERNAL-ID-EXACT',
    level: 'MUST',
    area: 'bulk-customers',
    statement:
      'An item naming a customer by external_id updates the customer holding exactly that value: never one whose ' +
      'external_id differs only in letter case or accents (an item naming abc-… leaves the customer holding ABC-… ' +
      'unchanged, and updates the one holding abc-…).',
    source:
      'interface § Endpoints › POST /api/customers/bulk-update/ ("Each item identifies a customer by id or ' +
      'external_id"); § Resources › Customer (external_id: "id in the source system, for lookups")',
    decision:
      'An id of the source system is matched as the string it is; the interface names no folding. A lookup under ' +
      'a case- or accent-insensitive collation (MySQL utf8mb4_general_ci) updates the wrong customer. Whitespace ' +
      'and normalisation forms are never the difference (storing text trimmed or NFC-normalised is legal).',
  },
  {
    id: 'BULK-CUSTOMERS-PARTIAL',
    level: 'MUST',
    area: 'bulk-customers',
    statement:
      'A batch mixing valid items with failing ones (unknown ids and external_ids, invalid fields, no identifier, ' +
      "another organisation's customers), in any order, answers 200 with a JSON body, applies every valid item, " +
      'and changes no customer a failing item names. A valid item beside entries of another kind (null, a number, ' +
      'text, an array, {}, an item naming no customer) is applied where the server answers 2xx, and not where it ' +
      'refuses the request.',
    source:
      'interface § Errors 1; § Endpoints › POST /api/customers/bulk-update/; § Limits (customer full_name and ' +
      'external_id max 255)',
    decision: `${PARTIAL_DECISION} ${ELEMENT_DECISION}`,
  },
  {
    id: 'BULK-CUSTOMERS-REPORTED',
    level: 'MUST',
    area: 'bulk-customers',
    statement:
      'The answer to a bulk customer update reports each failing item as failed (by its id, external_id or index), ' +
      'and no applied item as failed.',
    source: 'interface § Endpoints › POST /api/customers/bulk-update/ ("Failures are reported per item"); § Errors 1',
    decision: REPORT_DECISION,
  },
  {
    id: 'BULK-CUSTOMERS-REPORT-SHAPE',
    level: 'OBSERVE',
    area: 'bulk-customers',
    statement:
      'The status and shape of the answer to a bulk customer update with failing items, and what an entry for a ' +
      'failed item looks like.',
    source:
      'interface § Endpoints › POST /api/customers/bulk-update/ (response body: not shown); § Errors (shape of ' +
      'per-item failure entries: not shown)',
  },
  {
    id: 'BULK-CUSTOMERS-ITEM-FIELDS',
    level: 'OBSERVE',
    area: 'bulk-customers',
    statement:
      'Which fields the items of a bulk customer update take: those the 100-item batch set, and, where it was not ' +
      'applied whole, which fields an item sent alone was refused for.',
    source: 'interface § Endpoints › POST /api/customers/bulk-update/ (item fields: not shown)',
  },
  {
    id: 'BULK-CUSTOMERS-DUPLICATE-IDS',
    level: 'OBSERVE',
    area: 'bulk-customers',
    statement:
      'What a bulk customer update naming the same customer in two items does: the status, which item wins, how ' +
      'each is reported.',
    source: 'interface § Endpoints › POST /api/customers/bulk-update/ (not shown)',
  },
  {
    id: 'BULK-CUSTOMERS-MALFORMED',
    level: 'MUST',
    area: 'bulk-customers',
    statement:
      'A malformed bulk customer update (items empty, missing, an object, a string or null; an item that is a ' +
      'number, a string, null or an array; invalid JSON; a JSON array as the body; two items naming one customer) ' +
      'is answered with a 2xx or a 4xx, never a 5xx.',
    source:
      `interface § Endpoints › POST /api/customers/bulk-update/ (body: object with items, an array of objects); ` +
      MALFORMED_SOURCE,
    decision: MALFORMED_DECISION,
  },
  // POST /api/checks/bulk-delete/
  {
    id: 'BULK-CHECKS-ACCEPT-100',
    level: 'MUST',
    area: 'bulk-checks',
    statement:
      'A bulk delete of exactly 100 check ids answers 200 with a JSON body and removes those checks, and only ' +
      'those, from their cases, as JSON and in each form and multipart encoding the server reads ids in.',
    source:
      'interface § Endpoints › POST /api/checks/bulk-delete/ (ids: maximum length 100; deletes up to 100 checks; ' +
      'Success: 200 with JSON body); § Limits',
    decision:
      'Every case keeps one check ("A case holds one or more checks", § What the service does 2), so a server that ' +
      "refuses to delete a case's last check is judged as any other; what it does with a last check is recorded " +
      '(BULK-CHECKS-LAST-CHECK). ' +
      FLAT_DECISION,
  },
  {
    id: 'BULK-CHECKS-REJECT-101',
    level: 'MUST',
    area: 'bulk-checks',
    statement:
      'A bulk delete of 101 check ids deletes none of them, in every encoding and whatever they name (one check ' +
      'named 101 times, or two): it is rejected whole (a 4xx) or answered 2xx with no id reported as deleted, and ' +
      'every check is still there.',
    source:
      'interface § Endpoints › POST /api/checks/bulk-delete/ (ids: maximum length 100); § Limits (array length max ' +
      '100)',
    decision: LIMIT_DECISION,
  },
  {
    id: 'BULK-CHECKS-PARTIAL',
    level: 'MUST',
    area: 'bulk-checks',
    statement:
      "A bulk delete mixing existing check ids with unknown ones and another organisation's, in any order, answers " +
      '200 with a JSON body, removes the existing checks, and deletes nothing else. A valid id beside entries of ' +
      'another kind (null, text, an array, {}, an object without id) deletes its check where the server answers ' +
      '2xx, and not where it refuses the request.',
    source: 'interface § Errors 1; § Endpoints › POST /api/checks/bulk-delete/',
    decision: `${PARTIAL_DECISION} ${ELEMENT_DECISION}`,
  },
  {
    id: 'BULK-CHECKS-REPORTED',
    level: 'MUST',
    area: 'bulk-checks',
    statement:
      'The answer to a bulk check delete reports each id it could not delete as failed (by the id or its index), ' +
      'and no deleted check as failed.',
    source: 'interface § Endpoints › POST /api/checks/bulk-delete/ ("failures are reported per item"); § Errors 1',
    decision: REPORT_DECISION,
  },
  {
    id: 'BULK-CHECKS-REPORT-SHAPE',
    level: 'OBSERVE',
    area: 'bulk-checks',
    statement:
      'The status and shape of the answer to a bulk check delete with failing ids, and what an entry for a failed ' +
      'id looks like.',
    source:
      'interface § Endpoints › POST /api/checks/bulk-delete/ (response body: not shown); § Errors (shape of ' +
      'per-item failure entries: not shown)',
  },
  {
    id: 'BULK-CHECKS-DUPLICATE-IDS',
    level: 'OBSERVE',
    area: 'bulk-checks',
    statement: 'What a bulk check delete naming the same id twice does: the status, and how each entry is reported.',
    source: 'interface § Endpoints › POST /api/checks/bulk-delete/ (not shown)',
  },
  {
    id: 'BULK-CHECKS-NON-INTEGER-ID',
    level: 'OBSERVE',
    area: 'bulk-checks',
    statement:
      'What a bulk check delete whose ids hold a non-integer entry beside valid ids does: reject the request, or ' +
      'report that entry and delete the others.',
    source: 'interface § Endpoints › POST /api/checks/bulk-delete/ (ids: array of integers; failures per item)',
    decision:
      "A malformed entry breaks the body's type (reject whole) and is also one failing item (report it); the " +
      'interface does not say which, so it is recorded.',
  },
  {
    id: 'BULK-CHECKS-LAST-CHECK',
    level: 'OBSERVE',
    area: 'bulk-checks',
    statement:
      "What a bulk check delete naming a case's only check does: deletes it (the case then shows no checks) or " +
      'refuses it, and how the answer reports it.',
    source:
      'interface § What the service does 2 ("A case holds one or more checks"); § Endpoints › POST ' +
      '/api/checks/bulk-delete/ ("Deletes up to 100 checks; failures are reported per item")',
    decision:
      'Whether "one or more" binds the bulk delete is not said: deleting the last check and refusing it (a failing ' +
      'item) both conform, and which is recorded. Every other bulk check delete leaves each case a check. The ' +
      'answer is read as BULK-CHECKS-REPORTED reads any: the check reported failed when it stays, not when it is ' +
      'gone.',
  },
  {
    id: 'BULK-CHECKS-MALFORMED',
    level: 'MUST',
    area: 'bulk-checks',
    statement:
      'A malformed bulk check delete (ids empty, missing, an object, a string or null; an entry "abc", 1.5, null, ' +
      'an array or an object; invalid JSON; a JSON array as the body; one id twice) is answered with a 2xx or a ' +
      '4xx, never a 5xx.',
    source:
      `interface § Endpoints › POST /api/checks/bulk-delete/ (body: object with ids, an array of integers); ` +
      MALFORMED_SOURCE,
    decision: MALFORMED_DECISION,
  },
]);
