import { requirements } from '../requirement.ts';

/**
 * What the harness sends the token endpoint. § Authentication 3 documents it "with a bearer Authorization header of
 * the form Bearer <token>" without saying which token, nor that it is required.
 */
const TOKEN_HEADER_DECISION =
  '§ Authentication 3 documents the token endpoint with a bearer header without saying which token nor that it is ' +
  'required, and the client credentials in the body are a credential of their own (RFC 6749 §2.3.1). So a token ' +
  'request is sent without one first; when the endpoint refuses it (400, 401 or 403) and an API key is configured, ' +
  'the request is sent again with Authorization: Bearer <API key> (the only bearer credential a client has before ' +
  'its first token), and when that is answered with a token every token request of the run carries the header. ' +
  'The run says so, and TOKEN-ENDPOINT-BEARER-HEADER records it: a server that wants the header is judged on what ' +
  'each check varies, not on the header. Requiring the header and ignoring it both conform.';
const CLIENT_AUTH_DECISION =
  'The access token opens every protected endpoint (§ Authentication 2(a)), and they "All require authentication": ' +
  'a token issued without the client authenticated would open them to anyone who names a client_id. So the ' +
  "interface's own words make the client's credentials something the token endpoint checks; RFC 6749 §5.2 names " +
  'the error (invalid_client), whose status is not judged: any 4xx.';

export const TOKEN_REQUIREMENTS = requirements([
  {
    id: 'TOKEN-ISSUE',
    level: 'MUST',
    area: 'token',
    statement:
      'Valid client credentials (JSON body, grant_type client_credentials) get 200 application/json with ' +
      'access_token (string), token_type (string) and expires_in (integer).',
    source: 'interface § Endpoints › POST /api/oauth/token/; § Authentication 4',
    decision: TOKEN_HEADER_DECISION,
  },
  {
    id: 'TOKEN-REJECT-WRONG-SECRET',
    level: 'MUST',
    area: 'token',
    statement:
      'A token request with a known client_id and a wrong client_secret is rejected with a 4xx and issues no token.',
    source:
      'interface § Endpoints ("All require authentication"); § Authentication 2(a) (an access token "obtained from ' +
      'POST /api/oauth/token/ with the client credentials grant"); § Endpoints › POST /api/oauth/token/ ' +
      '(client_secret: required); RFC 6749 §5.2 invalid_client',
    decision: CLIENT_AUTH_DECISION,
  },
  {
    id: 'TOKEN-REJECT-UNKNOWN-CLIENT',
    level: 'MUST',
    area: 'token',
    statement: 'A token request for a client_id the server does not know is rejected with a 4xx and issues no token.',
    source:
      'interface § Endpoints ("All require authentication"); § Authentication 2(a) (an access token "obtained from ' +
      'POST /api/oauth/token/ with the client credentials grant"); RFC 6749 §5.2 invalid_client',
    decision: CLIENT_AUTH_DECISION,
  },
  {
    id: 'TOKEN-REJECT-GRANT-TYPE',
    level: 'MUST',
    area: 'token',
    statement:
      'A grant_type other than client_credentials (password, authorization_code, refresh_token) is rejected with a ' +
      '4xx and issues no token.',
    source: 'interface § Endpoints › POST /api/oauth/token/ (grant_type: enum, "only client_credentials")',
    decision:
      'The words decide other grant types. The same value in another letter case is not one of them: the interface ' +
      'says nothing of letter case, so that is TOKEN-GRANT-TYPE-CASE, a SHOULD.',
  },
  {
    id: 'TOKEN-GRANT-TYPE-CASE',
    level: 'SHOULD',
    area: 'token',
    statement:
      'client_credentials in another letter case (CLIENT_CREDENTIALS) is rejected with a 4xx and issues no token.',
    source:
      'RFC 6749 §1.9 ("all the protocol parameter names and values are case sensitive"); interface § Endpoints › ' +
      'POST /api/oauth/token/ (grant_type: "only client_credentials")',
    decision:
      'The interface lists the value without saying how letter case is matched; that OAuth values are ' +
      'case-sensitive is RFC 6749, which the interface does not restate, so a server matching it case-insensitively ' +
      'is warned, not failed (DESIGN.md: an RFC norm the interface does not restate is a SHOULD).',
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
      'Whether the token endpoint wants an Authorization: Bearer header (the API key), and what it answers a valid ' +
      'token request sent the other way: with the header where it does not want one, without where it does.',
    source: 'interface § Authentication 3 ("documented with a bearer Authorization header of the form Bearer <token>")',
    decision: TOKEN_HEADER_DECISION,
  },
]);
