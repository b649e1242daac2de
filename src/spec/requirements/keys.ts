/**
 * The requirements of the input matrix's key dimension (issue 33 §3, src/spec/inputs/keys.ts KEY_OWNERS): the
 * keys a write carries beside its fields. Those of answered, and of read-only on PATCH and bulk case items, are
 * the way's own (CASE-PATCH-ANSWERED, CASE-PATCH-READ-ONLY-UNCHANGED…); these are the ones no way had.
 */
import { requirements } from '../requirement.ts';

/** Why a key other than a field a write takes is ignored or refused, and how that is judged. */
export const KEYS_DECISION =
  'The PATCH table lists the fields a client writes (a bulk case item: the same, beside its id; a bulk customer ' +
  "item: the nested Customer's, beside its identifier); every other key of a body or item is one the server does " +
  'not take: the read-only ones, those the representation does not show but a model has (an organisation, owner ' +
  'or customer id, timestamps, deleted and archived flags) and those no model has. Ignoring such a key (2xx, ' +
  'nothing of it applied) and refusing it (4xx, nothing applied) both conform; a 5xx never. Applying it is mass ' +
  'assignment (Rails without strong parameters, a ModelSerializer with fields "__all__", update(req.body), an ' +
  'entity bound from @RequestBody, a nested object written through), so values name other records, ours and ' +
  "another organisation's, beside plausible ones. Records are judged by reads: ours with our credentials, the " +
  "peer's with its own; a key's effect is told from its group's others by what it could change.";

const SOURCE_PATCH = 'interface § Endpoints › PATCH /api/cases/{id}/ (body fields; "only the fields provided")';

export const CASE_KEY_REQUIREMENTS = requirements([
  {
    id: 'CASE-PATCH-OWN-RECORD',
    level: 'MUST',
    area: 'case-patch',
    statement:
      'A PATCH acts on the case its path names and no other, whatever other keys its body carries: an id, pk, _id ' +
      'or case_id naming another case, a customer, customer_id or checks naming other records (ours or another ' +
      "organisation's) change none of them, and a PATCH answered 2xx applies its fields to the case its path names.",
    source: `${SOURCE_PATCH}; path parameter id "identifies the case"`,
    decision: KEYS_DECISION,
  },
  {
    id: 'CASE-PATCH-HIDDEN-KEYS',
    level: 'MUST',
    area: 'case-patch',
    statement:
      'A PATCH carrying keys the representation does not show (an organisation, tenant or owner id, deleted or ' +
      'archived flags and timestamps, keys no model has) never assigns them: the case stays ours (we read it, ' +
      'another organisation does not) and is neither deleted nor archived.',
    source: `${SOURCE_PATCH}; § Authentication 1-2 (a credential belongs to an organisation)`,
    decision: KEYS_DECISION,
  },
]);

export const BULK_CASES_KEY_REQUIREMENTS = requirements([
  {
    id: 'BULK-CASES-HIDDEN-KEYS',
    level: 'MUST',
    area: 'bulk-cases',
    statement:
      'A bulk case item carrying keys the representation does not show (an organisation, tenant or owner id, ' +
      'deleted or archived flags and timestamps, keys no model has) never assigns them: the case stays ours and ' +
      'is neither deleted nor archived.',
    source: 'interface § Endpoints › POST /api/cases/bulk-update/ (each item identifies a case by id); § Resources',
    decision: KEYS_DECISION,
  },
]);

export const BULK_CUSTOMERS_KEY_REQUIREMENTS = requirements([
  {
    id: 'BULK-CUSTOMERS-READ-ONLY-UNCHANGED',
    level: 'MUST',
    area: 'bulk-customers',
    statement:
      'A bulk customer item carrying keys other than the fields of the nested Customer (timestamps, identifiers ' +
      'of other records, an update operator, keys no model has) changes nothing but the fields it writes: the ' +
      "customer's other fields and its case read as before.",
    source:
      'interface § Endpoints › POST /api/customers/bulk-update/ (each item identifies a customer by id or ' +
      'external_id); § Resources › Customer',
    decision: KEYS_DECISION,
  },
  {
    id: 'BULK-CUSTOMERS-HIDDEN-KEYS',
    level: 'MUST',
    area: 'bulk-customers',
    statement:
      'A bulk customer item carrying keys the representation does not show (an organisation, tenant or owner id, ' +
      'deleted or archived flags) never assigns them: the customer stays ours, and the case that uses it still ' +
      'shows it.',
    source: 'interface § Endpoints › POST /api/customers/bulk-update/; § Resources › Customer; § Authentication 1-2',
    decision: KEYS_DECISION,
  },
]);
