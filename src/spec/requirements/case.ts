import { requirements } from '../requirement.ts';

const READ_ONLY_DECISION =
  'The interface marks the fields read-only without saying how a write of one is answered: ignoring it (2xx, the ' +
  'field unchanged) and rejecting the request (4xx, nothing changed) both conform, and which is recorded. The ' +
  'comparison is of the fields the interface defines, read before and after; updated_at may move, checks are ' +
  'compared by id and the nested customer by its own fields. updated_at is read-only too: a write may move it on ' +
  '(the interface does not say a write leaves it), never back nor to the value a client sent (issue 33 §3).';

export const CASE_REQUIREMENTS = requirements([
  {
    id: 'CASE-PATCH-ROUNDTRIP',
    level: 'MUST',
    area: 'case-patch',
    statement:
      'A PATCH setting an updatable field (webhook_url, delete_after, metadata, sync_platforms, external_id) ' +
      'answers 200 and the returned case shows the new value.',
    source: 'interface § Endpoints › PATCH /api/cases/{id}/',
    decision:
      'webhook_url, delete_after, metadata and sync_platforms are optional in the read representation: when the ' +
      'response leaves one out it is recorded, not failed.',
  },
  {
    id: 'CASE-PATCH-PARTIAL',
    level: 'MUST',
    area: 'case-patch',
    statement: 'A PATCH changes only the fields it provides; every other field keeps its value.',
    source: 'interface § Endpoints › PATCH /api/cases/{id}/ ("only the fields provided are changed")',
  },
  {
    id: 'CASE-PATCH-RESPONSE-SCHEMA',
    level: 'MUST',
    area: 'case-patch',
    statement:
      'A successful PATCH answers 200 with a body that is the Case read representation (always-present fields, ' +
      'types, enums, nested customer and checks).',
    source:
      'interface § Endpoints › PATCH /api/cases/{id}/ (Success: 200 with the Case read representation); § Resources ' +
      '› Case',
  },
  {
    id: 'CASE-PATCH-NULLABLE',
    level: 'MUST',
    area: 'case-patch',
    statement:
      'A PATCH setting webhook_url, metadata, sync_platforms or external_id to null answers 200; webhook_url, ' +
      'metadata and sync_platforms then show null (or the optional field is left out).',
    source:
      'interface § Endpoints › PATCH /api/cases/{id}/ (webhook_url: string or null; metadata, sync_platforms: ' +
      'object or null; external_id: string or null)',
    decision:
      'null is a value the PATCH table lists for each of the four, so a PATCH sending it is accepted. external_id ' +
      'reads as a string all the same (§ Resources › Case): which string it then shows is not shown, so it is ' +
      'recorded (CASE-PATCH-EXTERNAL-ID-NULL), and that it is a string is judged on every read ' +
      '(CASE-EXTERNAL-ID-STRING).',
  },
  {
    id: 'CASE-PATCH-EXTERNAL-ID-NULL',
    level: 'OBSERVE',
    area: 'case-patch',
    statement: 'What external_id becomes after a PATCH sets it to null (the read representation still shows a string).',
    source:
      'interface § Endpoints › PATCH (external_id: string or null); § Resources › Case (external_id: string, ' +
      'auto-generated UUID if not provided at creation)',
    decision:
      'That null is accepted is decided (CASE-PATCH-NULLABLE); what the server shows instead (a new UUID, the value ' +
      'it held) is not shown, so it is recorded; CASE-EXTERNAL-ID-STRING still applies.',
  },
  {
    id: 'CASE-PATCH-UNKNOWN-ID',
    level: 'MUST',
    area: 'case-patch',
    statement: 'A PATCH of a case id that does not exist is rejected with a 4xx.',
    source:
      'interface § Endpoints › PATCH /api/cases/{id}/ (id "identifies the case"; "Success: 200 with the Case read ' +
      'representation")',
    decision:
      'Success is shown, and is the case it changed: an id naming no case cannot have it, so the PATCH fails, and a ' +
      "failure is the client's (4xx). DELETE differs: it shows no success answer at all (CASE-DELETE-UNKNOWN-ID).",
  },
  {
    id: 'CASE-PATCH-READ-ONLY-UNCHANGED',
    level: 'MUST',
    area: 'case-patch',
    statement:
      'A PATCH sending a read-only field (id, outcome, risk_score, is_complete, is_started, failed, note, rfi, ' +
      'checks, customer, created_at, updated_at, origin_url) with a different value, or one naming another record ' +
      "(another case's checks, another customer, ours or another organisation's), or any other key that is no " +
      'field it writes, is answered with a 2xx or a 4xx, and the case read afterwards is unchanged but for its ' +
      'written fields (updated_at may move on, never to the value sent).',
    source: 'interface § Resources › Case (each of these fields: read-only); § Endpoints › PATCH /api/cases/{id}/',
    decision: READ_ONLY_DECISION,
  },
  {
    id: 'CASE-PATCH-READ-ONLY-FIELDS',
    level: 'OBSERVE',
    area: 'case-patch',
    statement: 'What the server does with each read-only field sent in a PATCH: ignore it (2xx) or reject it (4xx).',
    source: 'interface § Resources › Case (read-only); § Errors (not shown)',
  },
  {
    id: 'BULK-CASES-READ-ONLY-UNCHANGED',
    level: 'MUST',
    area: 'bulk-cases',
    statement:
      'A bulk case update whose items send a read-only field (outcome, risk_score, is_complete, is_started, failed, ' +
      'note, rfi, checks, customer, created_at, updated_at, origin_url) beside the id, with a different value or ' +
      'one naming another record, or any other key that is no field an item writes, is answered with a 2xx or a ' +
      '4xx, and each case read afterwards is unchanged but for its written fields (updated_at never the value ' +
      'sent).',
    source:
      'interface § Resources › Case (read-only); § Endpoints › POST /api/cases/bulk-update/ (each item identifies ' +
      'a case by id)',
    decision: `${READ_ONLY_DECISION} The item's id identifies the case, so it is not sent with another value.`,
  },
  {
    id: 'CASE-ID-NON-INTEGER',
    level: 'MUST',
    area: 'case-patch',
    statement:
      'PATCH and DELETE of /api/cases/{id}/ with an id that is no integer ("abc", "<id>.5", "1.5", ' +
      '99999999999999999999) are answered with a 4xx, or a 2xx that changes nothing; never a 5xx.',
    source:
      'interface § Endpoints › PATCH /api/cases/{id}/ (path parameter id: integer); § Endpoints › DELETE; RFC 9110 ' +
      '§15.5, §15.6',
    decision:
      'Such a path names no case; 404 or 400 are the natural answers, and a 2xx is judged only by its effect: the ' +
      'case whose id the text begins with is read afterwards and must be unchanged and still there (a lenient ' +
      'integer parse would hit it). A 5xx never conforms.',
  },
  {
    id: 'CASE-PATCH-INVALID-REJECTED',
    level: 'MUST',
    area: 'case-patch',
    statement:
      "A PATCH with a value outside its field's type or limit (string over its maximum length, delete_after outside " +
      'int32, fractional, null or not a number, metadata an array or a scalar, a boolean/object/array for a ' +
      'string) is rejected with a 4xx; no generated value is ever answered with a 5xx.',
    source: 'interface § Endpoints › PATCH /api/cases/{id}/ (body field types and constraints); § Limits',
    decision:
      'Values a lenient server may coerce or accept are recorded under CASE-PATCH-COERCION, not judged: a numeric ' +
      'string or a boolean for delete_after (form bodies, which the interface allows, carry integers as text; ' +
      'DRF and pydantic coerce them), a number for a string field (DRF coerces it), a string of JSON object ' +
      'text for metadata, and any scalar for sync_platforms (the interface types it both as an object and as a ' +
      'list, too loosely to require a rejection).',
  },
  {
    id: 'CASE-PATCH-INVALID-ATOMIC',
    level: 'MUST',
    area: 'case-patch',
    statement: 'A rejected PATCH changes nothing: the valid fields sent beside the invalid one are not applied either.',
    source:
      'interface § Errors 1 (bulk operations report failures per item "rather than failing the whole request": a ' +
      'request that is not a bulk one fails whole); § Endpoints › PATCH /api/cases/{id}/ ("only the fields provided ' +
      'are changed"); RFC 5789 §2',
    decision:
      "The interface contrasts the bulk endpoints' per-item failures with failing the whole request, which is how " +
      'any other request fails: a PATCH refused is refused whole, so none of its fields is applied (RFC 5789 §2 says ' +
      'the same of PATCH). updated_at is not compared (a read-only timestamp).',
  },
  {
    id: 'CASE-PATCH-COERCION',
    level: 'OBSERVE',
    area: 'case-patch',
    statement:
      'What the server does with values of the wrong JSON type that a lenient server may coerce or accept: "5" or ' +
      'true for delete_after, a number for webhook_url or external_id, a JSON-text string for metadata, a ' +
      'scalar for sync_platforms.',
    source: 'interface § Endpoints (request bodies as JSON, form-urlencoded or multipart); § Errors (not shown)',
    decision:
      'The interface types the fields but also allows form bodies, where every value is text; coercion or rejection ' +
      'both conform, a 5xx does not (judged by CASE-PATCH-INVALID-REJECTED).',
  },
  {
    id: 'CASE-DELETE-REMOVES',
    level: 'MUST',
    area: 'case-delete',
    statement: 'DELETE of an existing case answers 2xx, and a later PATCH of that case is rejected with a 4xx.',
    source: 'interface § Endpoints › DELETE /api/cases/{id}/ ("Deletes the specified case")',
    decision:
      'A later PATCH answered 2xx by another case, created since with the same id, shows the deleted case gone ' +
      '(the id reused: CASE-ID-NOT-REUSED); the deleted case answering again, with its own created_at and ' +
      'external_id, fails this.',
  },
  {
    id: 'CASE-ID-NOT-REUSED',
    level: 'SHOULD',
    area: 'case-delete',
    statement:
      "Once a case is deleted, its id names no other case: no answer shows a deleted case's id on a case created at " +
      'another time, or with an external_id the deleted case never had.',
    source:
      'interface § Endpoints › PATCH (path id: "identifies the case"), › DELETE ("Deletes the specified case"); ' +
      '§ Resources › Case (id: integer, read-only); RFC 9110 §9.2.2 (DELETE is idempotent: a client may repeat it)',
    decision:
      'SHOULD, not MUST: the interface says the id identifies the case, but not for how long nor that an id is ' +
      'never given again, where for external_id it states the uniqueness and its scope. Reuse still defeats what ' +
      'a client does with an id: one it kept (from a webhook, in its own records) or a DELETE repeated after a ' +
      'lost answer, which RFC 9110 §9.2.2 allows, then acts on another case; so it is warned. Judged by the ' +
      'invariant watcher on every answer of every suite: each case the run deleted (a DELETE answered 2xx) is ' +
      "known by created_at and external_id, across the run's worker processes; a case showing its id that was " +
      'created a second or more apart, or shows an external_id the deleted case never showed nor was sent, is ' +
      'another case. The deleted case itself answering again is not reuse: CASE-DELETE-REMOVES and ' +
      'MODEL-CONSISTENT judge that, and neither fails when it is another case. The case-delete suite creates a ' +
      'case right after a deletion, where a server that recycles ids hands one out again.',
  },
  {
    id: 'CASE-DELETE-STATUS',
    level: 'OBSERVE',
    area: 'case-delete',
    statement: 'The status code and body of a successful DELETE.',
    source: 'interface § Endpoints › DELETE /api/cases/{id}/ (success status code and body: not shown)',
  },
  {
    id: 'CASE-DELETE-REPEAT',
    level: 'OBSERVE',
    area: 'case-delete',
    statement: 'What a second DELETE of the same case answers.',
    source: 'interface § Endpoints › DELETE /api/cases/{id}/ (success status code and response body: not shown)',
    decision:
      'A case deleted already is a case that does not exist: the answer is judged by the one rule of ' +
      'CASE-DELETE-UNKNOWN-ID (a 4xx, or a 2xx that deletes nothing) and recorded here.',
  },
  {
    id: 'CASE-DELETE-UNKNOWN-ID',
    level: 'MUST',
    area: 'case-delete',
    statement:
      'A DELETE naming no case (an id that never named one, a case deleted already) is answered with a 4xx, or a ' +
      '2xx that deletes nothing; never a 5xx; and another case of the organisation is still there after it.',
    source:
      'interface § Endpoints › DELETE /api/cases/{id}/ ("Deletes the specified case"; "Success status code and ' +
      'response body: not shown"); RFC 9110 §9.2.2 (DELETE is idempotent)',
    decision:
      'The interface shows no status for DELETE, so it requires none of a DELETE that finds nothing to delete, and ' +
      'DELETE is idempotent: a 2xx that does nothing is as legal as a 4xx; only its effect is judged (nothing else ' +
      'deleted), and a 5xx never conforms. One rule (src/kit expectDeleteOfNoCase) wherever a check meets such a ' +
      "DELETE: a second DELETE, the stateful model's DELETE of a deleted case, a path id that is no integer " +
      "(CASE-ID-NON-INTEGER), another organisation's DELETE of our case (TENANT-DELETE).",
  },
  {
    id: 'CASE-EXTERNAL-ID-STRING',
    level: 'MUST',
    area: 'read',
    statement: 'external_id in every case read is a string.',
    source: 'interface § Resources › Case (external_id: string; always present)',
  },
  {
    id: 'CASE-ORIGIN-URL-ALIAS',
    level: 'MUST',
    area: 'read',
    statement: 'origin_url, where not null, equals external_id (deprecated alias).',
    source: 'interface § Resources › Case (origin_url: deprecated alias of external_id)',
    decision: 'An alias carries the same value; null is allowed by its type.',
  },
]);
