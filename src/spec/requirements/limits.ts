import { requirements } from '../requirement.ts';

/**
 * The Limits table at its exact edges. Lengths are judged with ASCII values only, where code
 * points, UTF-16 units and UTF-8 bytes agree; how non-ASCII is counted is recorded.
 */
export const LIMITS_REQUIREMENTS = requirements([
  {
    id: 'LIMIT-WEBHOOK-URL-511',
    level: 'MUST',
    area: 'limits',
    statement:
      'A webhook_url of exactly 511 characters is accepted and shown; one of 512 is rejected with a 4xx and the ' +
      'case keeps its webhook_url.',
    source: 'interface § Limits (webhook_url length: max 511 characters); § Resources › Case',
    decision:
      'Both values are valid absolute https URLs of ASCII characters, so only their length can explain a difference.',
  },
  {
    id: 'LIMIT-CASE-EXTERNAL-ID-512',
    level: 'MUST',
    area: 'limits',
    statement:
      'A case external_id of exactly 512 characters is accepted and shown; one of 513 is rejected with a 4xx and ' +
      'the case keeps its external_id.',
    source: 'interface § Limits (external_id length: max 512 characters); § Endpoints › PATCH',
  },
  {
    id: 'LIMIT-CUSTOMER-EXTERNAL-ID-255',
    level: 'MUST',
    area: 'limits',
    statement:
      "A bulk customer update setting external_id to exactly 255 characters is applied (seen in the case's " +
      'customer); 256 is not applied and never answered with a 5xx.',
    source: 'interface § Limits (customer external_id length: max 255); § Endpoints › POST /api/customers/bulk-update/',
    decision:
      'The over-long item may fail as an item of a 200 or fail the whole request with a 4xx: the interface reports ' +
      'failures per item but does not show how; how it is reported is judged by the bulk suites.',
  },
  {
    id: 'LIMIT-CUSTOMER-FULL-NAME-255',
    level: 'MUST',
    area: 'limits',
    statement:
      "A bulk customer update setting full_name to exactly 255 characters is applied (seen in the case's customer); " +
      '256 is not applied and never answered with a 5xx.',
    source: 'interface § Limits (customer full_name length: max 255); § Endpoints › POST /api/customers/bulk-update/',
    decision:
      'As for LIMIT-CUSTOMER-EXTERNAL-ID-255: a per-item failure in a 200 and a whole-request 4xx both conform.',
  },
  {
    id: 'LIMIT-DELETE-AFTER-RANGE',
    level: 'MUST',
    area: 'limits',
    statement: 'delete_after -2147483648, -1 and 2147483647 are accepted by PATCH and shown as sent.',
    source:
      'interface § Limits (delete_after: integer, -2147483648 to 2147483647; -1 = never delete); § Endpoints › PATCH',
    decision:
      'delete_after is optional in the read representation: when it is not shown, acceptance is judged and the ' +
      'missing field recorded.',
  },
  {
    id: 'LIMIT-DELETE-AFTER-OUTSIDE',
    level: 'MUST',
    area: 'limits',
    statement:
      'delete_after 2147483648 and -2147483649 (one beyond each edge) are rejected with a 4xx and the case keeps ' +
      'its delete_after.',
    source: 'interface § Limits (delete_after range -2147483648 to 2147483647)',
  },
  {
    id: 'LIMIT-DELETE-AFTER-INTEGER',
    level: 'MUST',
    area: 'limits',
    statement:
      'A delete_after with a fractional part (1.5, -1.5) is rejected with a 4xx and the case keeps its delete_after.',
    source: 'interface § Limits (delete_after: integer); § Endpoints › PATCH (delete_after: integer)',
    decision:
      'A JSON number with a fractional part is not an integer; rounding or truncating it silently stores a value ' +
      'the client did not send.',
  },
  {
    id: 'LIMIT-LENGTH-UNIT',
    level: 'OBSERVE',
    area: 'limits',
    statement:
      'How the server counts length for non-ASCII values: code points, UTF-16 units, UTF-8 bytes or graphemes ' +
      '(external_id at 512 code points of 2-byte, astral and combining characters; a webhook_url with a ' +
      'non-ASCII path).',
    source: 'interface § Limits ("max 512 characters": the unit is not shown)',
    decision: 'The interface says "characters" without a unit; every counting rule is recorded, none is judged.',
  },
]);
