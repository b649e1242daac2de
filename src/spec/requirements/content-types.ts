import { requirements } from '../requirement.ts';

const SOURCE =
  'interface § Endpoints ("Request bodies may be sent as application/json, application/x-www-form-urlencoded or ' +
  'multipart/form-data unless noted")';

export const CONTENT_TYPES_REQUIREMENTS = requirements([
  {
    id: 'CONTENT-FORM-PATCH',
    level: 'MUST',
    area: 'content-types',
    statement:
      'A PATCH of webhook_url, delete_after and external_id sent as application/x-www-form-urlencoded has the same ' +
      'effect as the same PATCH sent as JSON.',
    source: `${SOURCE}; § Endpoints › PATCH /api/cases/{id}/`,
    decision:
      'Only fields with a flat form are judged: strings as text, delete_after as its decimal digits. null has no ' +
      'form spelling (CONTENT-FORM-EMPTY-VALUE records it), nor do objects (CONTENT-FORM-JSON-FIELDS).',
  },
  {
    id: 'CONTENT-MULTIPART-PATCH',
    level: 'MUST',
    area: 'content-types',
    statement:
      'A PATCH of webhook_url, delete_after and external_id sent as multipart/form-data has the same effect as the ' +
      'same PATCH sent as JSON.',
    source: `${SOURCE}; § Endpoints › PATCH /api/cases/{id}/`,
    decision: 'As CONTENT-FORM-PATCH: text parts of UTF-8, only fields with a flat form judged.',
  },
  {
    id: 'CONTENT-FORM-JSON-FIELDS',
    level: 'OBSERVE',
    area: 'content-types',
    statement:
      'What a form or multipart PATCH carrying metadata and sync_platforms as JSON text does: the objects stored, ' +
      'the text stored as a string, or a rejection.',
    source:
      `${SOURCE}; § Endpoints › PATCH /api/cases/{id}/ (metadata: object or null; sync_platforms: list of ` +
      `objects)`,
    decision:
      'The interface allows form bodies but shows no way to put an object in one; JSON text is the common ' +
      'convention, not a rule, so what happens is recorded.',
  },
  {
    id: 'CONTENT-FORM-EMPTY-VALUE',
    level: 'OBSERVE',
    area: 'content-types',
    statement: 'What an empty form value for webhook_url (nullable) becomes: null, an empty string, or a rejection.',
    source: `${SOURCE}; § Endpoints › PATCH /api/cases/{id}/ (webhook_url: string or null)`,
    decision: 'A form has no null; whether an empty value means null is not shown.',
  },
  {
    id: 'CONTENT-BULK-MEDIA-TYPES',
    level: 'MUST',
    area: 'content-types',
    statement:
      'The three bulk endpoints do not refuse a form-urlencoded or multipart body for its media type (no 415) and ' +
      'never answer it with a 5xx.',
    source: `${SOURCE}; § Endpoints › bulk-update (cases, customers), bulk-delete (checks): no exception is noted`,
    decision:
      'How an array travels in a form is not shown, so a 4xx for the encoding of ids or items conforms; only a ' +
      'refusal of the media type itself (415) or a 5xx breaks the rule.',
  },
  {
    id: 'CONTENT-BULK-DELETE-IDS-FORM',
    level: 'OBSERVE',
    area: 'content-types',
    statement:
      'Whether a bulk check delete sent as form-urlencoded or multipart with the ids as repeated `ids` fields ' +
      'deletes those checks, as the same request in JSON does.',
    source: `${SOURCE}; § Endpoints › POST /api/checks/bulk-delete/ (ids: array of integers)`,
    decision:
      'Repeated names are how HTML forms send several values, and most frameworks read them as a list, but ids[]=, ' +
      'ids[0]= and comma lists are also in use and the interface names none: recorded, not judged.',
  },
  {
    id: 'CONTENT-BULK-UPDATE-ITEMS-FORM',
    level: 'OBSERVE',
    area: 'content-types',
    statement:
      'Whether a bulk case or customer update sent as form-urlencoded or multipart with `items` as JSON text ' +
      'applies its items, as the same request in JSON does.',
    source:
      `${SOURCE}; § Endpoints › POST /api/cases/bulk-update/, POST /api/customers/bulk-update/ (items: array ` +
      `of objects)`,
    decision:
      'An array of objects has no flat form; JSON text in one field is a convention the interface does not name: ' +
      'recorded, not judged.',
  },
  {
    id: 'CONTENT-JSON-CHARSET',
    level: 'SHOULD',
    area: 'content-types',
    statement:
      'A PATCH or bulk body sent as application/json with parameters (application/json; charset=utf-8, ' +
      'application/json;charset=UTF-8) is read as JSON: it answers and takes effect as the same request sent as ' +
      'plain application/json.',
    source:
      'RFC 9110 §8.3.1 (a media type is type/subtype, then parameters; names case-insensitive); RFC 8259 §11 ' +
      `("Adding one really has no effect on compliant recipients"); ${SOURCE}`,
    decision:
      'The interface names the media type application/json and no parameter; that a charset parameter leaves it ' +
      "application/json is HTTP's rule (RFC 9110 §8.3.1, and RFC 8259 §11 for JSON), which the interface does not " +
      'restate: a SHOULD (DESIGN.md), warned, failed only with --strict. Matching the whole header string against ' +
      '"application/json" (answering 415, or reading the body as empty) is the defect warned. Each request is ' +
      'compared with its twin in plain JSON on a case of its own, so only the label differs.',
  },
]);
