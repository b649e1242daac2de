/**
 * The requirements the input matrix owns (src/spec/inputs/matrix.ts OWNERS): per way in, the oracles a
 * client's input is judged by, where no requirement of the way's own file already states them. Each
 * list sits in the catalogue beside its area's (catalogue.ts).
 */
import { requirements } from '../requirement.ts';

const ANSWERED_DECISION =
  'The interface shows no error statuses, but an answer to what a client sent is a 2xx (taken) or a 4xx (the ' +
  "client's mistake); a 5xx says the server failed (RFC 9110 §15.6), and no answer within the deadline leaves the " +
  'client unable to tell either: neither conforms, whatever the input.';

const STORED_DECISION =
  'A write stores what the field is given: a value its type and limit allow is taken, and a taken value reads ' +
  'back as sent. The interface leaves open only surrounding whitespace (trimmed), Unicode normalisation (NFC), ' +
  'the exact number a numeric spelling means ("5", 2.0 stored as 5, 2), and for values it does not decide (a ' +
  'length in UTF-16 units, NUL, a URL the field may refuse) whether to take them at all; a value taken and ' +
  'stored otherwise (truncated, rounded, rewritten, a key dropped) is another value than the one sent. Open is ' +
  'not anything: where taking a value is left open but its value is not decided (a number past binary64, whose ' +
  'range RFC 8259 §6 lets an implementation limit; a lone surrogate; a sync_platforms entry of other types), a ' +
  'value taken still reads back as a value of the type sent: a number as a JSON number of any size, never null ' +
  '(what JavaScript\'s JSON.stringify makes of Infinity) nor a string ("Infinity"); a string as a string, never a ' +
  'number or null; sync_platforms as a list of {domain, id} strings or an object.';

/**
 * customer_type "" (issue 33 §6): a listed value, so a value. The interface's words: Customer › customer_type, type
 * "enum or null", values "INDIVIDUAL, COMPANY, or empty string".
 */
const BLANK_TYPE_DECISION =
  'customer_type "" is one of the values the interface lists for the enum ("INDIVIDUAL, COMPANY, or empty ' +
  'string"), named as INDIVIDUAL is, beside the type\'s "or null": a value a client sets, so it reads back as "", ' +
  "not null (a store that keeps no empty string, such as Oracle's VARCHAR2, or a blank-to-null normaliser, " +
  'turns the value sent into one the enum does not list, and answers as if it had taken it). Nor may it be ' +
  'refused: it is listed. null is not a value of the enum but its absence, which a store without null (a Go ' +
  "string, a NOT NULL column defaulting to '') shows as the enum's blank value: null sent may read back as null or " +
  '"" (which a customer without a type shows is not said: read.customer-type-blank). MUST, as every value stored: ' +
  'the interface lists the value, and a silent change of it is a wrong answer, not a choice.';

const READABLE_DECISION =
  'A value the server took is part of the record: a record it then cannot read or write (an answer that fails, or is ' +
  'no JSON) fails the write that let the value in, not the read that meets it.';

const OWN_RECORD_DECISION =
  'An id is an integer: a spelling that means the same integer exactly ("7", 7.0, +7) may be taken as it, or ' +
  'refused; one a lenient parser reads as a number it does not mean (7abc read as 7, 7.5, [7], true) names no ' +
  'record, so nothing ' +
  'is acted on. The record such a reading would hit is read back afterwards.';

const SOURCE_PATCH = 'interface § Endpoints › PATCH /api/cases/{id}/ (body field types and constraints); § Limits';

/** The spellings of id 10 other than its digits the input matrix sends (src/spec/inputs/ids.ts, verdict exact). */
const SPELLINGS = '"10", " 10", 10.0, 10e0, +10, 010, 0xa, 1_0';

const SPELLINGS_DECISION =
  'A spelling that means the id exactly may be taken as it or refused (see the OWN-RECORD decision): neither ' +
  "fails. Which ones a server takes is recorded, so that its parser's leniency shows in the report instead of " +
  "passing unseen: Python's int() reads 1_0 as 10, JavaScript's Number() reads 0xa, Go's ParseInt (base 0) both, " +
  'most path parsers 010, and a JSON parser that keeps no spelling reads 10.0 and 10e0 as the number 10.';

/** The OBSERVE entry of one way in: which exact spellings of an id it took. */
const spellings = <const I extends string, const A extends 'case-patch' | BulkArea>(
  id: I,
  area: A,
  where: string,
  source: string,
) =>
  ({
    id,
    level: 'OBSERVE',
    area,
    statement: `Which spellings of an id other than its digits (${SPELLINGS}) ${where} takes as that id.`,
    source,
    decision: SPELLINGS_DECISION,
  }) as const;

type BulkArea = 'bulk-cases' | 'bulk-customers' | 'bulk-checks';

export const CASE_INPUT_REQUIREMENTS = requirements([
  {
    id: 'CASE-PATCH-ANSWERED',
    level: 'MUST',
    area: 'case-patch',
    statement:
      'Every PATCH, whatever its fields hold and however its body is encoded (JSON, form-urlencoded, multipart with ' +
      'plain or file parts), is answered with a 2xx or a 4xx within the deadline: never a 5xx, never silence.',
    source: `${SOURCE_PATCH}; § Endpoints (request bodies as JSON, form or multipart); RFC 9110 §15.6`,
    decision: ANSWERED_DECISION,
  },
  {
    id: 'CASE-PATCH-STORED-AS-SENT',
    level: 'MUST',
    area: 'case-patch',
    statement:
      'A PATCH of a value its field allows is answered 2xx, and any value a PATCH is answered 2xx for is shown by a ' +
      'later read of the case as sent (or trimmed, NFC, the exact number a numeric spelling means), on every encoding.',
    source: `${SOURCE_PATCH} ("only the fields provided are changed"; Success: 200 with the Case read representation)`,
    decision: STORED_DECISION,
  },
  {
    id: 'CASE-PATCH-READABLE',
    level: 'MUST',
    area: 'case-patch',
    statement: 'After any PATCH answered 2xx, the case still answers a read (200 with the case) and further PATCHes.',
    source: `${SOURCE_PATCH}; § Resources › Case (the read representation)`,
    decision: READABLE_DECISION,
  },
  spellings(
    'CASE-ID-SPELLINGS',
    'case-patch',
    'a PATCH or DELETE of /api/cases/{id}/',
    'interface § Endpoints › PATCH /api/cases/{id}/ (path parameter id: integer); › DELETE',
  ),
]);

const bulk = (area: 'bulk-cases' | 'bulk-customers', prefix: string, what: string, path: string, more = '') =>
  [
    {
      id: `${prefix}-ANSWERED`,
      level: 'MUST',
      area,
      statement:
        `Every bulk ${what} update, whatever its items hold (entries of every kind, none at all) and however its ` +
        'body is encoded, is answered with a 2xx or a 4xx within the deadline: never a 5xx, never silence.',
      source: `interface § Endpoints › POST ${path}; § Errors 1 (failures reported per item); RFC 9110 §15.6`,
      decision: ANSWERED_DECISION,
    },
    {
      id: `${prefix}-ITEM-LIMITS`,
      level: 'MUST',
      area,
      statement:
        `An item of a bulk ${what} update whose field holds a value outside its type or limit is not applied (the ` +
        `${what} reads as before), on every encoding the server takes the batch in.`,
      source: `interface § Endpoints › POST ${path}; § Limits; § Errors 1`,
      decision:
        'The item fields are not shown; the fields of the resource are taken, with their types and limits. Such an ' +
        'item fails on its own (BULK-*-PARTIAL judges that the rest still apply); how it is reported is judged by ' +
        'BULK-*-REPORTED.',
    },
    {
      id: `${prefix}-STORED-AS-SENT`,
      level: 'MUST',
      area,
      statement:
        `An item of a bulk ${what} update setting a value its field allows is applied, and any value an item ` +
        'applies is shown by a later read as sent (or trimmed, NFC, the exact number a numeric spelling means).',
      source: `interface § Endpoints › POST ${path}; § Resources`,
      decision:
        `${STORED_DECISION} Item fields are not shown: a field no value of which an item takes (every value it ` +
        `allows refused, on a way in and encoding) is the server's choice, recorded and not judged.${more}`,
    },
    {
      id: `${prefix}-READABLE`,
      level: 'MUST',
      area,
      statement: `After any item a bulk ${what} update applied, the case still answers a read (200 with the case).`,
      source: `interface § Endpoints › POST ${path}; § Resources › Case`,
      decision: READABLE_DECISION,
    },
    {
      id: `${prefix}-OWN-RECORD`,
      level: 'MUST',
      area,
      statement:
        `An item of a bulk ${what} update acts on the record its id names and no other: an id that is no integer ` +
        `(7abc, 7.5, [7], true, 2^64) changes no ${what}, nor does an entry that is an array holding an item, an ` +
        'item without an id, or any other key of the item naming another record (pk, _id, a customer_id, case_id ' +
        "or nested object naming one of ours or another organisation's).",
      source: `interface § Endpoints › POST ${path} ("Each item identifies a ${what} by id")`,
      decision: OWN_RECORD_DECISION,
    },
    spellings(
      `${prefix}-ID-SPELLINGS`,
      area,
      `an item of a bulk ${what} update`,
      `interface § Endpoints › POST ${path} ("Each item identifies a ${what} by id")`,
    ),
  ] as const;

export const BULK_CASES_INPUT_REQUIREMENTS = requirements(
  bulk('bulk-cases', 'BULK-CASES', 'case', '/api/cases/bulk-update/'),
);
export const BULK_CUSTOMERS_INPUT_REQUIREMENTS = requirements(
  bulk('bulk-customers', 'BULK-CUSTOMERS', 'customer', '/api/customers/bulk-update/', ` ${BLANK_TYPE_DECISION}`),
);

export const BULK_CHECKS_INPUT_REQUIREMENTS = requirements([
  {
    id: 'BULK-CHECKS-OWN-RECORD',
    level: 'MUST',
    area: 'bulk-checks',
    statement:
      'A bulk check delete deletes the checks its ids name and no other: an entry that is no integer (7abc, 7.5, ' +
      '[7], true, 2^64, {"check_id": 7}) deletes no check.',
    source: 'interface § Endpoints › POST /api/checks/bulk-delete/ (ids: an array of integers, check identifiers)',
    decision: OWN_RECORD_DECISION,
  },
  spellings(
    'BULK-CHECKS-ID-SPELLINGS',
    'bulk-checks',
    'an entry of a bulk check delete',
    'interface § Endpoints › POST /api/checks/bulk-delete/ (ids: an array of integers, check identifiers)',
  ),
]);

export const TOKEN_INPUT_REQUIREMENTS = requirements([
  {
    id: 'TOKEN-INPUT-ANSWERED',
    level: 'MUST',
    area: 'token',
    statement:
      'Every token request, whatever its client_id, client_secret and grant_type hold (other JSON types, NUL, ' +
      'operator objects, tokens JSON does not have), is answered with a 2xx or a 4xx: never a 5xx, never silence.',
    source: 'interface § Endpoints › POST /api/oauth/token/; RFC 9110 §15.6; RFC 6749 §5.2',
    decision: ANSWERED_DECISION,
  },
  {
    id: 'TOKEN-EXACT-CREDENTIALS',
    level: 'MUST',
    area: 'token',
    statement:
      'A token is issued only for the client secret exactly as issued: a prefix, a suffix, one character changed, ' +
      'another letter case, a NUL and more, an array or an object holding it, or an operator object ' +
      '({"$ne": ""}) get ' +
      'no token; nor does a client_id that is not the client’s (its other spellings as a UUID aside).',
    source:
      'interface § Endpoints › POST /api/oauth/token/ (client_id: string, uuid; client_secret: string); ' +
      '§ Authentication 2 (a token obtained with the client credentials grant)',
    decision:
      'The client_id is a UUID, which RFC 9562 reads without regard to letter case, braces or hyphens: those ' +
      'spellings may or may not be taken. The secret is a string compared as given: a value of another type, or a ' +
      'string that is not the secret, is a credential the server never issued.',
  },
]);
