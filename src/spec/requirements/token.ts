import { requirements } from '../requirement.ts';

export const TOKEN_REQUIREMENTS = requirements([
  {
    id: 'TOKEN-ISSUE',
    level: 'MUST',
    area: 'token',
    statement:
      'Valid client credentials (JSON body, grant_type client_credentials) get 200 application/json with ' +
      'access_token (string), token_type (string) and expires_in (integer).',
    source: 'interface § Endpoints › POST /api/oauth/token/; § Authentication 4',
    decision:
      'The request carries no Authorization header: the client credentials in the body are the credential (RFC 6749 ' +
      '§2.3.1); "documented with a bearer header" is recorded by TOKEN-ENDPOINT-BEARER-HEADER.',
  },
  {
    id: 'TOKEN-REJECT-WRONG-SECRET',
    level: 'MUST',
    area: 'token',
    statement:
      'A token request with a known client_id and a wrong client_secret is rejected with a 4xx and issues no token.',
    source: 'interface § Authentication 2(a); RFC 6749 §5.2 invalid_client',
  },
  {
    id: 'TOKEN-REJECT-UNKNOWN-CLIENT',
    level: 'MUST',
    area: 'token',
    statement: 'A token request for a client_id the server does not know is rejected with a 4xx.',
    source: 'interface § Authentication 2(a); RFC 6749 §5.2 invalid_client',
  },
  {
    id: 'TOKEN-REJECT-GRANT-TYPE',
    level: 'MUST',
    area: 'token',
    statement: 'A grant_type other than client_credentials is rejected with a 4xx.',
    source: 'interface § Endpoints › POST /api/oauth/token/ (grant_type: only client_credentials)',
  },
  {
    id: 'TOKEN-REJECT-MISSING-FIELD',
    level: 'MUST',
    area: 'token',
    statement: 'A token request missing client_id, client_secret or grant_type is rejected with a 4xx.',
    source: 'interface § Endpoints › POST /api/oauth/token/ (all three required)',
  },
  {
    id: 'TOKEN-REJECT-NON-UUID-CLIENT-ID',
    level: 'MUST',
    area: 'token',
    statement: 'A client_id that is not a UUID is rejected with a 4xx.',
    source: 'interface § Endpoints › POST /api/oauth/token/ (client_id: string, uuid)',
  },
  {
    id: 'TOKEN-TYPE-BEARER',
    level: 'SHOULD',
    area: 'token',
    statement: 'token_type is "Bearer" (case-insensitive), the scheme the token is then sent with.',
    source: 'RFC 6749 §7.1; RFC 6750 §4; interface § Authentication 2(a)',
  },
  {
    id: 'TOKEN-NO-STORE',
    level: 'SHOULD',
    area: 'token',
    statement: 'A token response carries Cache-Control: no-store.',
    source: 'RFC 6749 §5.1',
  },
  {
    id: 'TOKEN-EXPIRES-IN-UNIT',
    level: 'OBSERVE',
    area: 'token',
    statement: 'The value of expires_in, which the harness reads as seconds (RFC 6749 §5.1) for its refresh timing.',
    source: 'interface § Authentication 4 (unit of expires_in: not shown)',
    decision: 'The interface gives no unit; a value is recorded, never judged.',
  },
  {
    id: 'TOKEN-ENDPOINT-BEARER-HEADER',
    level: 'OBSERVE',
    area: 'token',
    statement:
      'What the token endpoint does with a request that also carries an Authorization: Bearer header (the API key).',
    source: 'interface § Authentication 3',
    decision:
      'A bearer header to obtain a bearer token is circular for OAuth clients; the interface gives no rule, so the ' +
      'behaviour is recorded.',
  },
]);
