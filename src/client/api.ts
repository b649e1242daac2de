/** Typed operations of the interface over one Transport, with a chosen credential. */
import { type TokenEndpointAuth, TokenSource, TOKEN_PATH } from './auth.ts';
import { encodeBody, type ContentType } from './encode.ts';
import { HarnessError } from '../errors.ts';
import type { Id } from '../spec/index.ts';
import type { CredentialKind, OrganisationRole } from '../results/exchange.ts';
import { type ReceivedResponse, targetUrl, type Transport } from './transport.ts';

/**
 * How a request authenticates: the OAuth token (default when client credentials are set), the
 * API key in either scheme, nothing, a literal Authorization header (for negative tests), or one
 * of the organisation's own credentials written in a form of the check's choosing.
 */
export type AuthMode = 'token' | 'api-key-bearer' | 'api-key-token' | 'none' | { header: string } | CredentialForm;

/**
 * The Authorization header made from the organisation's own access token or API key by `form` ("bearer <token>"):
 * recorded as that credential, and, for the token, renewed when refused, as 'token' is.
 */
export interface CredentialForm {
  credential: 'token' | 'api-key';
  form: (credential: string) => string;
}

export interface RequestOptions {
  body?: unknown;
  contentType?: ContentType;
  auth?: AuthMode;
  headers?: Record<string, string>;
  /** Teardown: sent even while the run is stopping. */
  cleanup?: boolean;
  /** Past the load limiter, at once (see OutgoingRequest.unpaced). */
  unpaced?: boolean;
}

export const PATHS = {
  token: TOKEN_PATH,
  case: (id: Id | string) => `/api/cases/${id}/`,
  bulkUpdateCases: '/api/cases/bulk-update/',
  bulkUpdateCustomers: '/api/customers/bulk-update/',
  bulkDeleteChecks: '/api/checks/bulk-delete/',
} as const;

/** The credentials of one organisation, as the harness is given them (any may be missing). */
export interface Credentials {
  clientId?: string | undefined;
  clientSecret?: string | undefined;
  apiKey?: string | undefined;
}

export interface ApiClientOptions {
  baseUrl: string;
  transport: Transport;
  /** Access tokens of the organisation's OAuth client, when it has one. */
  tokens?: TokenSource | undefined;
  apiKey?: string | undefined;
  /** Whose credentials these are: recorded with every request, so a report names the credential used. */
  organisation?: OrganisationRole | undefined;
}

export class ApiClient {
  readonly baseUrl: string;
  readonly transport: Transport;
  readonly organisation: OrganisationRole | undefined;
  readonly #tokens: TokenSource | undefined;
  readonly #apiKey: string | undefined;

  constructor(options: ApiClientOptions) {
    this.baseUrl = options.baseUrl;
    this.transport = options.transport;
    this.organisation = options.organisation;
    this.#tokens = options.tokens;
    this.#apiKey = options.apiKey;
  }

  get hasApiKey(): boolean {
    return this.#apiKey !== undefined;
  }

  /**
   * The access token requests go out with now, for checks that send a credential made from it (never recorded:
   * an Authorization header's credential is redacted); undefined without client credentials.
   */
  accessToken(): Promise<string | undefined> {
    return this.#tokens ? this.#tokens.get() : Promise.resolve(undefined);
  }

  /**
   * The Authorization header and the kind of credential it carries; with our access token in it, the token and how
   * the header is written from it (to write it again with a renewed one).
   */
  async #authorization(
    mode: AuthMode,
    cleanup: boolean,
  ): Promise<[string | undefined, CredentialKind, { token: string; written: (token: string) => string }?]> {
    if (typeof mode === 'object' && 'header' in mode) return [mode.header, 'other'];
    if (typeof mode === 'object') {
      if (mode.credential === 'api-key') {
        if (!this.#apiKey) throw new HarnessError('SC_HARNESS', 'a check sent the API key, but none is configured');
        return [mode.form(this.#apiKey), 'api-key'];
      }
      if (!this.#tokens) throw new HarnessError('SC_HARNESS', 'a check sent an access token, but none is configured');
      const token = await this.#tokens.get({ cleanup });
      return [mode.form(token), 'access-token', { token, written: mode.form }];
    }
    const bearer = (token: string) => `Bearer ${token}`;
    switch (mode) {
      case 'none':
        return [undefined, 'none'];
      case 'api-key-bearer':
      case 'api-key-token':
        if (!this.#apiKey) throw new HarnessError('SC_HARNESS', 'a check sent the API key, but none is configured');
        return [`${mode === 'api-key-bearer' ? 'Bearer' : 'Token'} ${this.#apiKey}`, 'api-key'];
      case 'token':
        if (this.#tokens) {
          const token = await this.#tokens.get({ cleanup });
          return [bearer(token), 'access-token', { token, written: bearer }];
        }
        if (this.#apiKey) return [`Bearer ${this.#apiKey}`, 'api-key'];
        throw new HarnessError('SC_HARNESS', 'a check sent a request with credentials, but none are configured');
    }
  }

  /** Sends a request to a path of the target. */
  async request(method: string, path: string, options: RequestOptions = {}): Promise<ReceivedResponse> {
    const [authorization, credential, ours] = await this.#authorization(
      options.auth ?? 'token',
      options.cleanup === true,
    );
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (authorization !== undefined) headers.authorization = authorization;
    let body: string | undefined;
    if (options.body !== undefined) {
      const encoded = encodeBody(options.body, options.contentType ?? 'json');
      // A Content-Type the caller gives (a media type with parameters) labels the encoded body.
      headers['content-type'] = options.headers?.['content-type'] ?? encoded.contentType;
      // '' sends the body unlabelled, with no Content-Type at all (the input matrix's unlabelled bodies).
      if (headers['content-type'] === '') delete headers['content-type'];
      body = encoded.text;
    }
    const url = targetUrl(this.baseUrl, path);
    const req = {
      method,
      url,
      headers,
      body,
      credential,
      ...(this.organisation && credential !== 'none' ? { organisation: this.organisation } : {}),
      ...(options.cleanup ? { cleanup: true } : {}),
      ...(options.unpaced ? { unpaced: true } : {}),
    };
    let res = await this.transport.send(req);
    // Our own access token refused: it may have expired early or been revoked by a newer one (the
    // interface leaves a token's life open). A new token, and the request again; up to three times,
    // since a fresh token can expire or be revoked (by another worker's renewal) again while its
    // request waits out a 429. What the last retry answers stands.
    const tries = 3;
    let used = ours?.token;
    for (let i = 0; i < tries; i++) {
      if (res.status !== 401 || !ours || !this.#tokens || used === undefined) return res;
      const refused = { res, issue: this.#tokens.issueOf(used) };
      used = await this.#tokens.renew(used, { cleanup: options.cleanup });
      // What the server did with a request it refused 401 is nothing: its later answer counts, and it is no setup.
      if (res.exchange) res.exchange.superseded = true;
      let again: ReceivedResponse | undefined;
      try {
        again = await this.transport.send({ ...req, headers: { ...headers, authorization: ours.written(used) } });
      } finally {
        // With how old the refused token was and what lifetime it stated: runner/token-renewals.ts judges it.
        this.transport.logTokenRenewal(req, {
          status: refused.res.status,
          refused: refused.res.exchange,
          token: refused.issue,
          retry: again?.status,
        });
      }
      res = again;
    }
    return res;
  }

  /**
   * What this organisation's token requests carry besides their body: the API key as a bearer header when the token
   * endpoint was found to want it (TokenSource.endpointAuth), else nothing.
   */
  get tokenEndpointAuth(): TokenEndpointAuth {
    return this.#tokens?.endpointAuth === 'api-key' && this.#apiKey ? 'api-key' : 'none';
  }

  /**
   * POST to the token endpoint with a body of the caller's choosing, with the Authorization the organisation's
   * token requests carry (none, or the API key where the endpoint wants it) unless the caller names one.
   */
  requestToken(body: unknown, options: Omit<RequestOptions, 'body'> = {}) {
    const auth: AuthMode = this.tokenEndpointAuth === 'api-key' ? 'api-key-bearer' : 'none';
    return this.request('POST', PATHS.token, { auth, ...options, body });
  }

  patchCase(id: Id | string, patch: unknown, options: Omit<RequestOptions, 'body'> = {}) {
    return this.request('PATCH', PATHS.case(id), { ...options, body: patch });
  }

  deleteCase(id: Id | string, options: Omit<RequestOptions, 'body'> = {}) {
    return this.request('DELETE', PATHS.case(id), options);
  }

  bulkUpdateCases(body: unknown, options: Omit<RequestOptions, 'body'> = {}) {
    return this.request('POST', PATHS.bulkUpdateCases, { ...options, body });
  }

  bulkUpdateCustomers(body: unknown, options: Omit<RequestOptions, 'body'> = {}) {
    return this.request('POST', PATHS.bulkUpdateCustomers, { ...options, body });
  }

  bulkDeleteChecks(body: unknown, options: Omit<RequestOptions, 'body'> = {}) {
    return this.request('POST', PATHS.bulkDeleteChecks, { ...options, body });
  }
}

/**
 * The client of one organisation: OAuth tokens when it has a client id and secret, else its API
 * key; undefined when it has neither (cleanup then has no way to act for it).
 */
export function organisationClient(options: {
  baseUrl: string;
  credentials: Credentials | undefined;
  transport: Transport;
  organisation?: OrganisationRole;
  /** Where the run's worker processes share their access tokens (token-share.ts). */
  shareDir?: string | undefined;
  /** What token requests carry, when the run found it (preflight); unknown, the token source finds it. */
  tokenEndpointAuth?: TokenEndpointAuth | undefined;
}): ApiClient | undefined {
  const { baseUrl, credentials, transport, organisation, shareDir, tokenEndpointAuth } = options;
  if (!credentials) return undefined;
  const { clientId, clientSecret, apiKey } = credentials;
  const tokens =
    clientId && clientSecret
      ? new TokenSource(baseUrl, { clientId, clientSecret }, transport, Date.now, {
          shareDir,
          apiKey,
          endpointAuth: tokenEndpointAuth,
        })
      : undefined;
  if (!tokens && !apiKey) return undefined;
  return new ApiClient({ baseUrl, transport, tokens, apiKey, organisation });
}
