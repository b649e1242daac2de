import { requirements } from '../requirement.ts';

const LOCKOUT_DECISION =
  'A server may protect itself against guessing. The requests with credentials it must refuse (the suite ' +
  'auth-guesses: about 210 near misses, fewer with --credential-guesses) are sent after every other suite file has ' +
  'ended, alone, so a lockout they cause meets no other check; they go in groups of a few, and after each group a ' +
  "request with the run's own credential (a read of a case) shows whether it still opens. When it does not, the " +
  'lockout is waited out (its Retry-After, else reads further apart, at most 60 s in all per run) and the group is ' +
  'sent again, smaller where nothing passed since the last lockout: each cell is judged on an answer given while ' +
  "the run's own credential opened. A cell the lockout kept from such an answer within that time is not judged, " +
  'and says why; so are the checks after it. Recorded here once: every lockout seen, never a failure.';

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
    statement:
      'A bearer credential that the server did not issue is rejected with a 4xx and changes nothing, on every ' +
      'protected endpoint: an unknown one, and one made from an issued access token or API key (a character ' +
      'changed, cut short, a prefix of it, with a suffix, its letters in the other case; for an API key with ' +
      "separators, each segment alone or one changed; for a JWT, another organisation's payload under our " +
      'signature, its signature removed, alg "none", or re-signed with a key the client can derive from its own ' +
      "client secret); one claiming another organisation opens none of that organisation's records either.",
    source:
      'interface § Authentication 1-2; RFC 6750 §3.1 (invalid_token); RFC 7515 §5.2 (a JWS is checked whole); ' +
      'RFC 8725 §2.1, §3.1, §3.5 (alg "none", keys of little entropy)',
    decision:
      'A credential is the string issued: one that differs from it in any character is another credential, which ' +
      'the server did not issue (spec/credential-matrix.ts and spec/credential-parts.ts list how each is made). Its ' +
      'letters in the other case are sent only for a credential that is not all hexadecimal digits and dashes (a ' +
      'UUID or hex token may be read in either case, RFC 9562 §4). A suffix is a whole base64 quantum ("AAAA"), ' +
      "and a changed character changes its base64 value's top bit, so neither decodes to the bytes of the issued " +
      'credential. An API key is cut at its separators (".", "_", "-"): what precedes the first, what follows the ' +
      'first, what follows the last, and the key with the first or the last segment changed whole. A JWT is ' +
      're-signed HS256 with our client secret, its SHA-256 in hexadecimal, or an empty key: with our claims and a ' +
      "jti of its own, or with every text claim the peer's token holds otherwise (its client, organisation, jti) " +
      "taken from it. A credential claiming the peer is sent to the peer's records (read back with the peer's " +
      'credential): a server that takes the claim acts as the peer, and on our records would only find nothing.',
  },
  {
    id: 'AUTH-REFUSAL-NO-DATA',
    level: 'MUST',
    area: 'auth',
    statement:
      'The answer to a request refused for its credential (missing, malformed, never issued, expired) holds none ' +
      "of the organisation's data: none of the external_id, webhook_url, metadata or customer name of the case it " +
      'names or acts on appears in the body.',
    source:
      'interface § Authentication 1 ("every request … carries a bearer credential"); § Endpoints ("All ' +
      'require authentication")',
    decision:
      "Judged as TENANT-REFUSAL-NO-DATA judges another organisation's refusals: the case is given values holding " +
      'random tokens, and every answer that is not a 2xx must hold none of them (the id the request named may be ' +
      'echoed). A 2xx is the credential opening the endpoint: AUTH-REQUIRED-* fail it, not this.',
  },
  {
    id: 'AUTH-SCHEME-FORMS',
    level: 'SHOULD',
    area: 'auth',
    statement:
      'A valid access token or API key opens every protected endpoint with the scheme in lower case ("bearer") ' +
      'and with more than one space between the scheme and the credential.',
    source:
      'RFC 9110 §11.1 (the scheme is a case-insensitive token), §11.4 (credentials = auth-scheme 1*SP …); ' +
      'RFC 6750 §2.1',
    decision:
      'The interface shows "Bearer <token>" only; the RFCs define the other spellings as the same header but put ' +
      'no MUST on the recipient, so a refusal is a SHOULD warning. Judged by status: the request that opens with ' +
      '"Bearer " answers 2xx; DELETE and the bulk check delete name ids that do not exist and must answer as they ' +
      'do with "Bearer ".',
  },
  {
    id: 'AUTH-CREDENTIAL-TRAILING-TEXT',
    level: 'SHOULD',
    area: 'auth',
    statement:
      'A valid access token or API key followed by a space and more text ("Bearer <credential> x") is rejected ' +
      'with a 4xx and changes nothing, on every protected endpoint.',
    source: 'RFC 6750 §2.1 (credentials = "Bearer" 1*SP b64token), §3.1 (invalid_request: SHOULD answer 400)',
    decision:
      'The header is not a bearer credential: RFC 6750 §3.1 says the server SHOULD answer invalid_request (400); ' +
      'any 4xx that changes nothing passes (a 401 too). A server that splits the header on spaces and takes the ' +
      'second word opens with it. A SHOULD, as the RFC words it: the run warns, and fails only with --strict.',
  },
  {
    id: 'AUTH-TOKEN-LIFETIME',
    level: 'SHOULD',
    area: 'auth',
    statement:
      'An access token keeps opening the protected endpoints while the lifetime its expires_in states (in seconds) ' +
      'lasts, unless a newer token was issued to the client since.',
    source: 'RFC 6749 §5.1 (expires_in: the lifetime in seconds); interface § Authentication 4 (unit: not shown)',
    decision:
      "The interface leaves the unit open, so this is RFC 6749's reading, a SHOULD. A server may revoke a " +
      "client's earlier tokens when it issues a new one (AUTH-TOKEN-SUPERSEDED): the check judges only where the " +
      'server keeps them. A token got at the start of the auth suite is used again 2 s before its stated lifetime ' +
      'ends where that is at most 10 s after its issue (as AUTH-TOKEN-EXPIRED waits), else at the end of the suite ' +
      "(a longer wait is not made); not judged within 1 s of its end. And from the run's record of its token " +
      "renewals (every request refused 401 with the run's own token and sent again with a new one): a refusal " +
      'fails it where the refused token was the newest of its client (no token request of that client, from any ' +
      "process of the run, a check's own included, was answered between its issue and the refusal), the refusal " +
      'came before a tenth of its stated lifetime (at least 1 s) was left, the new token was taken, and it was not ' +
      'among the near misses (where a lockout may refuse any credential). The report lists every renewal with its ' +
      'cause (summary.renewals).',
  },
  {
    id: 'AUTH-TOKEN-EXPIRED',
    level: 'SHOULD',
    area: 'auth',
    statement:
      'An access token used after the lifetime its expires_in states (in seconds) is refused with a 4xx and ' +
      'changes nothing, on every protected endpoint.',
    source:
      'RFC 6749 §5.1, §7 ("the resource server MUST validate the access token and ensure that it has not ' +
      'expired"); RFC 6750 §3.1; interface § Authentication 4 (unit: not shown)',
    decision:
      "A SHOULD, for the unit of expires_in is the RFC's, not the interface's. Sent 1 s after the stated lifetime " +
      'has passed, and only where that is at most 10 s after the token was issued: a run does not wait longer, so ' +
      'against a server whose tokens live longer it is not judged.',
  },
  {
    id: 'AUTH-TOKEN-SUPERSEDED',
    level: 'OBSERVE',
    area: 'auth',
    statement: 'Whether an access token still opens the endpoints after a newer one was issued to the same client.',
    source: 'interface § Authentication (how many tokens a client may hold: not shown); RFC 6750 §3.1 (revoked)',
    decision: 'Either is legal; recorded, and used to decide whether AUTH-TOKEN-LIFETIME can be judged.',
  },
  {
    id: 'AUTH-401-WWW-AUTHENTICATE',
    level: 'SHOULD',
    area: 'auth',
    statement: 'A 401 answer to a request without valid credentials carries a WWW-Authenticate header.',
    source: 'RFC 9110 §15.5.2; RFC 6750 §3',
  },
  {
    id: 'AUTH-LOCKOUT',
    level: 'OBSERVE',
    area: 'auth',
    statement:
      'Whether the server locked the run out after the requests with credentials it refuses (brute-force ' +
      "protection): after how many, how it answered the run's own credential meanwhile (429 with Retry-After, 423, " +
      '403, or 401 to a credential that opened before), and for how long.',
    source: 'interface § Authentication; § Limits (rate limits: not shown)',
    decision: LOCKOUT_DECISION,
  },
  {
    id: 'AUTH-REJECT-STATUS',
    level: 'OBSERVE',
    area: 'auth',
    statement: 'The status code and body the server gives a request with missing or wrong credentials.',
    source: 'interface § Errors (error status codes and body shape: not shown)',
  },
]);
