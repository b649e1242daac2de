import { requirements } from '../requirement.ts';

export const AUTH_REQUIREMENTS = requirements([
  {
    id: 'AUTH-TOKEN-OPENS',
    level: 'MUST',
    area: 'auth',
    statement:
      'An access token from the token endpoint, sent as Authorization: Bearer <token>, opens every protected ' +
      'endpoint: PATCH and DELETE /api/cases/{id}/ and the three bulk endpoints each answer 2xx and take effect.',
    source: 'interface § Authentication 1-2(a); § Endpoints ("All require authentication")',
    decision:
      'Each endpoint is tried with the same request, body and all, that AUTH-REQUIRED-* send without a valid ' +
      'credential: the positive control shows a refusal there is for the credential, not the body. The bulk check ' +
      'delete names one of two checks of its case, which keeps the other ("A case holds one or more checks", § What ' +
      'the service does 2: a server may refuse to delete a last check).',
  },
  {
    id: 'AUTH-API-KEY-BEARER',
    level: 'MUST',
    area: 'auth',
    statement:
      "The organisation's API key sent as Authorization: Bearer <key> opens every protected endpoint: PATCH and " +
      'DELETE /api/cases/{id}/ and the three bulk endpoints each answer 2xx and take effect.',
    source: 'interface § Authentication 1-2(b)',
    decision:
      '2(b) says the key is "sent as a bearer token"; that is the normative form, and "two schemes are accepted" ' +
      'holds for every endpoint. The requests are those AUTH-TOKEN-OPENS sends (a case of two checks, one deleted). ' +
      'Skipped when no API key is configured.',
  },
  {
    id: 'AUTH-API-KEY-TOKEN-SCHEME',
    level: 'OBSERVE',
    area: 'auth',
    statement: 'Whether the API key is also accepted as Authorization: Token <key>.',
    source: 'interface § Authentication 2(b) ("also described as")',
    decision: '"Also described as" is a description, not a second rule; the answer is recorded, never judged.',
  },
  {
    id: 'AUTH-REQUIRED-MISSING',
    level: 'MUST',
    area: 'auth',
    statement:
      'Each protected endpoint rejects a request without an Authorization header with a 4xx and changes nothing.',
    source: 'interface § Authentication 1; § Endpoints ("All require authentication")',
  },
  {
    id: 'AUTH-REQUIRED-MALFORMED',
    level: 'MUST',
    area: 'auth',
    statement:
      'A malformed Authorization header (no credential, unknown scheme, Basic) is rejected with a 4xx and changes ' +
      'nothing.',
    source: 'interface § Authentication 1-2',
  },
  {
    id: 'AUTH-REQUIRED-WRONG',
    level: 'MUST',
    area: 'auth',
    statement: 'A bearer credential that the server did not issue is rejected with a 4xx and changes nothing.',
    source: 'interface § Authentication 1-2',
  },
  {
    id: 'AUTH-401-WWW-AUTHENTICATE',
    level: 'SHOULD',
    area: 'auth',
    statement: 'A 401 answer to a request without valid credentials carries a WWW-Authenticate header.',
    source: 'RFC 9110 §15.5.2; RFC 6750 §3',
  },
  {
    id: 'AUTH-REJECT-STATUS',
    level: 'OBSERVE',
    area: 'auth',
    statement: 'The status code and body the server gives a request with missing or wrong credentials.',
    source: 'interface § Errors (error status codes and body shape: not shown)',
  },
]);
