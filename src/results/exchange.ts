/**
 * One HTTP exchange as the harness records it: what was sent and what came back, with secrets
 * redacted. The transport records every exchange; evidence, failures and the reports carry them.
 */
import { z } from 'zod';
import { obj, text } from './schema-helpers.ts';

/** Which kind of credential a request carried. */
export const CredentialKindSchema = z
  .enum(['access-token', 'api-key', 'none', 'other'])
  .describe('which credential the request carried');
export type CredentialKind = z.infer<typeof CredentialKindSchema>;

/** Whose credential: the organisation under test ("ours") or the second organisation ("peer"). */
export const OrganisationRoleSchema = z
  .enum(['ours', 'peer'])
  .describe('whose credential: ours or the peer ' + "organisation's");
export type OrganisationRole = z.infer<typeof OrganisationRoleSchema>;

/**
 * The lowest of the ids the harness makes up for records that do not exist (near the top of the
 * int32 range): a request naming an id from here up names nothing on purpose, and a reproduction
 * sends it as it is.
 */
export const UNKNOWN_ID_FLOOR = 2_147_400_000;

/**
 * Whether an id is one the harness made up (from UNKNOWN_ID_FLOOR to the top of the int32 range): a server's own
 * ids may lie above it (sparse 64-bit ids), and those name real records.
 */
export function isMadeUpId(id: number | bigint): boolean {
  return id >= UNKNOWN_ID_FLOOR && id < 2 ** 31;
}

export const ExchangeSchema = obj({
  at: text('when the request was sent (ISO 8601)'),
  durationMs: z.number().describe('request to last byte of the response, in ms'),
  request: obj({
    method: z.string(),
    url: text('absolute URL, secrets redacted'),
    headers: z.record(z.string(), z.string()).describe('as sent; Authorization and Cookie values redacted'),
    body: text('as sent (first 1048576 characters), secrets redacted').optional(),
    credential: CredentialKindSchema.optional(),
    organisation: OrganisationRoleSchema.optional(),
    cleanup: z.boolean().optional(),
  }),
  response: obj({
    status: z.int(),
    headers: z.record(z.string(), z.string()).describe('as received; Set-Cookie redacted'),
    body: text('as received (first 16384 characters), secrets redacted'),
  })
    .describe('absent when no HTTP answer came (see error)')
    .optional(),
  error: text('why no answer came (refused, timeout, too large, …)').optional(),
  superseded: z
    .boolean()
    .describe(
      'refused 401 with our access token and sent again with a new one: the later answer is the one that counts',
    )
    .optional(),
  judged: z.boolean().describe('in a failure: this is an exchange the failed assertion judged').optional(),
})
  .describe('one request and its response, as recorded, with secrets redacted ([REDACTED])')
  .meta({ id: 'Exchange' });

export type Exchange = z.infer<typeof ExchangeSchema>;

/** How a report names the credential a request carried: ours, the peer's, an API key, none. */
export const CredentialUsedSchema = z
  .enum(['our-token', 'peer-token', 'our-api-key', 'peer-api-key', 'none', 'other'])
  .describe('the credential the request carried: our access token, the peer organisation’s, an API key, none');
export type CredentialUsed = z.infer<typeof CredentialUsedSchema>;

/** The request of an exchange in a few words: method, path (with query) and the credential it carried. */
export const RequestRefSchema = obj({
  method: z.string(),
  path: text('path and query, relative to the target'),
  credential: CredentialUsedSchema,
}).meta({ id: 'RequestRef' });
export type RequestRef = z.infer<typeof RequestRefSchema>;

/** The credential an exchange carried, as a report names it. */
export function credentialUsed(request: Exchange['request']): CredentialUsed {
  const peer = request.organisation === 'peer';
  switch (request.credential) {
    case 'access-token':
      return peer ? 'peer-token' : 'our-token';
    case 'api-key':
      return peer ? 'peer-api-key' : 'our-api-key';
    case 'none':
      return 'none';
    default:
      return 'other';
  }
}

/** The request of an exchange as a reference: its path relative to `baseUrl` when it is under it. */
export function requestRef(exchange: Exchange, baseUrl?: string): RequestRef {
  const { url } = exchange.request;
  let path = url;
  if (baseUrl && url.startsWith(baseUrl)) path = url.slice(baseUrl.replace(/\/+$/, '').length) || '/';
  else {
    try {
      const u = new URL(url);
      path = `${u.pathname}${u.search}`;
    } catch {
      // not a URL: shown as recorded
    }
  }
  return { method: exchange.request.method, path, credential: credentialUsed(exchange.request) };
}

/** `PATCH /api/cases/12/ with our access token`: a request reference in words. */
export function describeRequest(ref: RequestRef): string {
  const words: Record<CredentialUsed, string> = {
    'our-token': 'our access token',
    'peer-token': "the peer organisation's access token",
    'our-api-key': 'our API key',
    'peer-api-key': "the peer organisation's API key",
    none: 'no credential',
    other: 'a hand-made Authorization header',
  };
  return `${ref.method} ${ref.path} with ${words[ref.credential]}`;
}
