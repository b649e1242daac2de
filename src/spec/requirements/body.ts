/**
 * The requirements of the body as a whole (issue 33 §1; src/spec/inputs/body.ts): per endpoint, a body is one JSON
 * object (or one well-formed form) and a key given twice takes one value; what the interface and RFC 8259 leave
 * open is recorded. Each list sits in the catalogue beside its area's (catalogue.ts).
 */
import { requirements } from '../requirement.ts';

const JSON_SOURCE =
  'interface § Endpoints (request bodies as application/json, application/x-www-form-urlencoded or ' +
  'multipart/form-data); RFC 8259 §2 (a JSON text is one value, whitespace around it allowed), §4 (names SHOULD be ' +
  'unique: with duplicates, behaviour is unpredictable), §8.1 (a parser MAY ignore a byte-order mark); RFC 2046 ' +
  '§5.1.1 (a multipart body ends with its close delimiter)';

const WHOLE_DECISION =
  'A body of the media type its Content-Type names is one JSON text: text or a second value after the object is not ' +
  'JSON (a parser that reads the first value and stops, as Jackson without FAIL_ON_TRAILING_TOKENS or a Go ' +
  'json.Decoder read once, applies what the client never sent as one request), and a JSON value of another type is ' +
  'not the object the interface gives the body. Such a body is refused and nothing of it is applied; one with ' +
  'whitespace around the object is JSON (RFC 8259 §2) and is taken. What is left open is recorded under ' +
  'CONTENT-BODY-CHOICES, and judged only as what it holds: a byte-order mark (RFC 8259 §8.1: MAY be ignored) and ' +
  'nesting 1,100 levels deep (no limit is shown) may be refused, or taken and applied as sent; an empty body may be ' +
  'refused or read as no fields, changing nothing; a multipart body without its close delimiter (RFC 2046 §5.1.1 ' +
  'requires one, no RFC a refusal) may be refused, changing nothing, or taken as the parts it holds. RFC 8259 §9 ' +
  'lets a parser accept non-JSON forms, but a body labelled application/json that is not one JSON text is not the ' +
  'request the interface describes, as the catalogue reads NaN or a trailing comma (CASE-PATCH-INVALID-REJECTED). ' +
  'A key given twice (RFC 8259 §4: behaviour unpredictable) and a form field or multipart part given twice (not ' +
  'shown) may be refused, or take either value; but the value taken ' +
  'is one the field allows (a validator and a parser that disagree on which one store a value no check let in), ' +
  'the answer and a later read show the same one, and never both (merged, joined, or each applied in turn).';

const BULK_NO_OBJECT =
  ' A JSON body that is no object is a malformed body, answered 4xx or 2xx as BULK-*-MALFORMED read it, but nothing ' +
  'of it is applied (a bare list of items is not the body with items).';

const bulkBody = (id: string, area: 'bulk-cases' | 'bulk-customers' | 'bulk-checks', path: string, what: string) =>
  ({
    id,
    level: 'MUST',
    area,
    statement:
      `A ${what} body is one JSON object, whitespace around it taken, or one well-formed form: more text or a second ` +
      'JSON value after the object is refused with a 4xx, a JSON value that is no object applies nothing, and ' +
      `neither changes anything; a top-level key or form field given twice is refused, or one of its values is ` +
      'applied, never both.',
    source: `interface § Endpoints › POST ${path}; ${JSON_SOURCE}`,
    decision: WHOLE_DECISION + BULK_NO_OBJECT,
  }) as const;

export const CASE_BODY_REQUIREMENTS = requirements([
  {
    id: 'CASE-PATCH-BODY',
    level: 'MUST',
    area: 'case-patch',
    statement:
      'A PATCH body is one JSON object, whitespace around it taken, or one well-formed form: more text or a second ' +
      'JSON value after the object, or a JSON value that is no object (null, an array, a string, a number) is ' +
      'refused with a 4xx and changes nothing; a key, form field or multipart part given ' +
      'twice is refused changing nothing, or takes one of the values sent that its field allows, shown alike by the ' +
      'answer and a later read.',
    source: `interface § Endpoints › PATCH /api/cases/{id}/ (body fields); ${JSON_SOURCE}; RFC 5789 §2`,
    decision: WHOLE_DECISION,
  },
]);

export const BULK_CASES_BODY_REQUIREMENTS = requirements([
  bulkBody('BULK-CASES-BODY', 'bulk-cases', '/api/cases/bulk-update/', 'bulk case update'),
]);
export const BULK_CUSTOMERS_BODY_REQUIREMENTS = requirements([
  bulkBody('BULK-CUSTOMERS-BODY', 'bulk-customers', '/api/customers/bulk-update/', 'bulk customer update'),
]);
export const BULK_CHECKS_BODY_REQUIREMENTS = requirements([
  bulkBody('BULK-CHECKS-BODY', 'bulk-checks', '/api/checks/bulk-delete/', 'bulk check delete'),
]);

export const TOKEN_BODY_REQUIREMENTS = requirements([
  {
    id: 'TOKEN-BODY',
    level: 'MUST',
    area: 'token',
    statement:
      'A token request whose body is not exactly one JSON object (the exact credentials followed by more text or a ' +
      'second value, or held in null, an array, a string, a number; an empty body) gets no token: a 4xx. The same ' +
      'request with whitespace around the object is one JSON text and gets a token.',
    source: `interface § Endpoints › POST /api/oauth/token/ (Body, application/json); ${JSON_SOURCE}; RFC 6749 §5.2`,
    decision:
      'A token issued for a body that is not one JSON text is issued for a request the client did not make (a Go ' +
      'json.Decoder read once takes the first value and ignores the rest). A byte-order mark, a key given twice ' +
      '(RFC 6749 §5.2 names a repeated parameter invalid_request, for form parameters; RFC 8259 §4 leaves a JSON ' +
      'duplicate unpredictable), nesting deep in a key the server does not know (RFC 6749 §3.2: unrecognised ' +
      'parameters are ignored), and a form body are open: recorded under CONTENT-BODY-CHOICES.',
  },
]);

export const CONTENT_BODY_REQUIREMENTS = requirements([
  {
    id: 'CONTENT-BODY-CHOICES',
    level: 'OBSERVE',
    area: 'content-types',
    statement:
      'What each endpoint does with the bodies the interface and RFC 8259 leave open: a byte-order mark, an empty ' +
      'body, a top-level key given twice, a form field or multipart part given twice, nesting 1,100 levels deep, a ' +
      'multipart body without its close delimiter, and on the token endpoint a form body.',
    source: JSON_SOURCE,
    decision:
      'Each may be refused or taken (see the *-BODY requirements, which judge what a taken body applies); which one ' +
      "a server chose, and which value of a key given twice it took, is recorded: its parser's choices show in the " +
      'report instead of passing unseen.',
  },
]);
