/** Credentials for the protected endpoints: OAuth client credentials (cached) or an API key. */
import { HarnessError, TransportError } from '../errors.ts';
import { encodeBody } from './encode.ts';
import { type SharedToken, type TokenIssue, TokenShare } from './token-share.ts';
import { exchangeOfNoAnswer, type ReceivedResponse, targetUrl, type Transport } from './transport.ts';

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

export const TOKEN_PATH = '/api/oauth/token/';

/**
 * What a token request carries besides the client credentials in its body: nothing, or the organisation's API key
 * as Authorization: Bearer <API key>. The interface documents the token endpoint "with a bearer Authorization
 * header of the form Bearer <token>" (§ Authentication 3) without saying which token, nor that it is required.
 */
export type TokenEndpointAuth = 'none' | 'api-key';

/** Token statuses after which a request without the header is sent again with the API key. */
const HEADER_WANTED = [400, 401, 403];

export interface TokenSourceOptions {
  /** A folder the run's worker processes share their tokens in (token-share.ts); without it, each its own. */
  shareDir?: string | undefined;
  /** The organisation's API key: sent to the token endpoint when it wants a bearer header. */
  apiKey?: string | undefined;
  /**
   * What token requests carry, when known (the run's preflight found it). Unknown: sent without the header first;
   * when the endpoint refuses that (400, 401, 403) and an API key is given, again with it, and whichever was answered
   * with a token is kept for every later request.
   */
  endpointAuth?: TokenEndpointAuth | undefined;
}

/** Who asks for a token. */
export interface TokenAsk {
  /**
   * Teardown (a cleanup request) needs it: the token request is sent while the run is stopping and
   * waits out as many 429s as cleanup does. Otherwise it has the ordinary 429 budget: a target that
   * throttles its token endpoint before anything was created ends the run soon, with SC_TARGET_THROTTLED.
   */
  cleanup?: boolean | undefined;
}

/**
 * Gets access tokens with the client-credentials grant and keeps one until shortly before it
 * expires. Lenient in what it consumes (a harness must keep going to judge); the token suite
 * is where the response is judged.
 */
export class TokenSource {
  #token?: SharedToken;
  #pending?: { value: Promise<string>; cleanup: boolean };
  readonly #share: TokenShare | undefined;
  readonly #apiKey: string | undefined;
  #endpointAuth: TokenEndpointAuth | undefined;
  /** The status a token request without the header was refused with, when the API key then got a token. */
  #refusedWithout: number | undefined;
  /** The issue of the last tokens this source handed out (its own and those read from the share), by value. */
  readonly #issues = new Map<string, TokenIssue>();

  constructor(
    private readonly baseUrl: string,
    private readonly credentials: ClientCredentials,
    private readonly transport: Transport,
    private readonly now: () => number = Date.now,
    options: TokenSourceOptions = {},
  ) {
    this.#share = options.shareDir ? new TokenShare(options.shareDir, credentials.clientId) : undefined;
    this.#apiKey = options.apiKey;
    this.#endpointAuth = options.endpointAuth === 'api-key' && !options.apiKey ? undefined : options.endpointAuth;
  }

  /** What token requests carry (see TokenSourceOptions.endpointAuth); undefined until the first token says. */
  get endpointAuth(): TokenEndpointAuth | undefined {
    return this.#endpointAuth;
  }

  /** When the API key had to be sent: the status the token endpoint refused a request without it with. */
  get refusedWithoutHeader(): number | undefined {
    return this.#refusedWithout;
  }

  /** The token request that issued a token this source handed out, where it was recorded. */
  issueOf(token: string): TokenIssue | undefined {
    return this.#issues.get(token);
  }

  /** Keeps a token as the one in use, and its issue. */
  #hold(t: SharedToken): void {
    this.#token = t;
    if (!t.issued) return;
    this.#issues.set(t.value, t.issued);
    // A few: a refused token is the one in use, or the one just before it.
    if (this.#issues.size > 8) this.#issues.delete(this.#issues.keys().next().value!);
  }

  #valid(t: SharedToken | undefined, not?: string): t is SharedToken {
    return t !== undefined && t.value !== not && this.now() < t.refreshAt;
  }

  /** A valid access token, from the cache or freshly issued. */
  async get(ask: TokenAsk = {}): Promise<string> {
    if (this.#valid(this.#token)) return this.#token.value;
    return this.#replace(undefined, ask.cleanup === true);
  }

  /**
   * A token to use instead of `rejected`, which the target refused (401): the one in use now when
   * another request (or worker) already replaced it, else a new one. A target may let tokens
   * expire early or revoke a client's earlier tokens when it issues a new one (the interface
   * leaves both open).
   */
  async renew(rejected: string, ask: TokenAsk = {}): Promise<string> {
    if (!this.#pending) {
      if (this.#valid(this.#token, rejected)) return this.#token.value;
      this.invalidate();
    }
    return this.#replace(rejected, ask.cleanup === true);
  }

  /**
   * One replacement at a time in this process; across processes, under the share's lock. Teardown
   * that finds a check's token request under way waits for it, and asks again itself (with the
   * cleanup budget) when that one gave up.
   */
  #replace(rejected: string | undefined, cleanup: boolean): Promise<string> {
    const pending = this.#pending;
    if (pending)
      return !cleanup || pending.cleanup ? pending.value : pending.value.catch(() => this.#replace(rejected, true));
    const value = (async () => {
      const share = this.#share;
      if (!share) return this.#issue(cleanup, rejected !== undefined);
      return share.locked(async () => {
        const shared = share.read();
        if (this.#valid(shared, rejected)) {
          this.transport.redactor.add(shared.value);
          this.#hold(shared);
          return shared.value;
        }
        const value = await this.#issue(cleanup, rejected !== undefined);
        if (this.#token) share.write(this.#token);
        return value;
      });
    })().finally(() => {
      this.#pending = undefined;
    });
    this.#pending = { value, cleanup };
    return value;
  }

  /** Forgets the cached token, so the next get() asks for a new one. */
  invalidate(): void {
    this.#token = undefined;
  }

  /** One token request, with the API key as a bearer header or without; transport errors become harness errors. */
  async #post(withKey: boolean, cleanup: boolean): Promise<ReceivedResponse> {
    const { contentType, text } = encodeBody(
      {
        client_id: this.credentials.clientId,
        client_secret: this.credentials.clientSecret,
        grant_type: 'client_credentials',
      },
      'json',
    );
    const url = targetUrl(this.baseUrl, TOKEN_PATH);
    try {
      return await this.transport.send({
        method: 'POST',
        url,
        headers: {
          'content-type': contentType,
          accept: 'application/json',
          ...(withKey ? { authorization: `Bearer ${this.#apiKey}` } : {}),
        },
        body: text,
        credential: withKey ? 'api-key' : 'none',
        ...(cleanup ? { cleanup: true } : {}),
        token: true,
      });
    } catch (err) {
      if (err instanceof TransportError) {
        if (err.code === 'SC_TARGET_PLAIN_HTTP') throw err;
        // No answer from a target that still answers others (its liveness read) is its answer: a broken one.
        if (err.noAnswer && !exchangeOfNoAnswer(err)) {
          throw new HarnessError('SC_TARGET_UNREACHABLE', `token endpoint unreachable: ${err.message}`, { cause: err });
        }
        throw new HarnessError('SC_TARGET_BROKEN', `token endpoint gave no usable answer: ${err.message}`, {
          cause: err,
        });
      }
      throw err;
    }
  }

  /** A new token; `renewal`: in place of one the target refused, so these credentials were accepted before. */
  async #issue(cleanup: boolean, renewal = false): Promise<string> {
    const url = targetUrl(this.baseUrl, TOKEN_PATH);
    let res = await this.#post(this.#endpointAuth === 'api-key', cleanup);
    let also = '';
    if (this.#endpointAuth === undefined && this.#apiKey && HEADER_WANTED.includes(res.status)) {
      // The endpoint may want the bearer header § Authentication 3 documents: the API key is the bearer credential
      // a client holds before its first token.
      const again = await this.#post(true, cleanup);
      const issued =
        again.status === 200 && typeof (again.json as { access_token?: unknown })?.access_token === 'string';
      if (issued) {
        this.#refusedWithout = res.status;
        this.#endpointAuth = 'api-key';
        res = again;
      } else also = ` (sent again with Authorization: Bearer <API key>: HTTP ${again.status})`;
    }
    if (res.status === 400 || res.status === 401 || res.status === 403 || res.status === 423) {
      // Accepted before in this run: not a mistake in the settings, but a target that now refuses the client.
      const why = renewal
        ? ', which it had accepted before in this run: a lockout (brute-force protection), or the client revoked'
        : '; check --client-id and --client-secret';
      throw new HarnessError(
        'SC_CREDENTIALS_REJECTED',
        `the token endpoint (POST ${url}) refused the client credentials: HTTP ${res.status} ` +
          `${oauthError(res.json, res.text)}${also}${why}`,
      );
    }
    const body = res.json as { access_token?: unknown; expires_in?: unknown } | undefined;
    if (res.status !== 200 || typeof body?.access_token !== 'string' || body.access_token === '') {
      const type = res.headers['content-type'] ?? 'no content type';
      const what =
        res.json === undefined
          ? res.text === ''
            ? 'an empty body'
            : `a body that is not JSON (${type})`
          : 'no access_token string';
      const hint = res.status === 404 || res.status === 405 ? "; is the base URL the service's base address?" : '';
      throw new HarnessError(
        'SC_TARGET_BROKEN',
        `the token endpoint (POST ${url}) answered HTTP ${res.status} with ${what}; cannot authenticate${hint}`,
      );
    }
    this.transport.redactor.add(body.access_token);
    this.#endpointAuth ??= 'none';
    const seconds = Number(body.expires_in);
    const ttlMs = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 300_000;
    // Refresh a tenth of the lifetime early, at most a minute early.
    const margin = Math.min(60_000, ttlMs / 10);
    const issued = res.exchange && { at: res.exchange.at, ms: res.exchange.durationMs, expiresIn: body.expires_in };
    this.#hold({ value: body.access_token, refreshAt: this.now() + ttlMs - margin, ...(issued ? { issued } : {}) });
    return body.access_token;
  }
}

/**
 * What a token endpoint said when it refused: RFC 6749's `error` and `error_description`, or the
 * size of a body without them (never the body itself: it might echo what was sent).
 */
function oauthError(json: unknown, text: string): string {
  const body = (json ?? {}) as { error?: unknown; error_description?: unknown };
  const field = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v.slice(0, 200)) : undefined);
  const error = field(body.error);
  const description = field(body.error_description);
  if (error === undefined)
    return text === '' ? 'with an empty body' : `with a body of ${text.length} characters, no "error"`;
  return `{"error": ${error}${description === undefined ? '' : `, "error_description": ${description}`}}`;
}
