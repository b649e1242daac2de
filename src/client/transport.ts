/**
 * One HTTP exchange over undici: a whole-exchange timeout, a cap on the response size, redirects
 * never followed (so Authorization never travels to another origin), a limit on the load sent
 * (concurrency and rate), 429 answers retried after their Retry-After within a budget, a
 * breaker that stops sending once the target has stopped answering, and a redacted record of
 * what was sent and received.
 */
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { request, type Dispatcher } from 'undici';
import { HarnessError, TransportError } from '../errors.ts';
import { describe } from './transport-errors.ts';
import type { CredentialKind, Exchange, OrganisationRole } from '../results/exchange.ts';
import type { RenewalLine } from '../results/token-renewals.ts';
import type { TokenIssue } from './token-share.ts';
import { startDeadline } from './deadline.ts';
import { Limiter, sleep } from './limiter.ts';
import { refuseWhenStopping, stoppingReason } from './stopping.ts';
import { parseJson } from '../base/json.ts';
import type { Redactor } from '../base/redact.ts';

export { targetUrl } from './target-url.ts';

export interface TransportOptions {
  /** Time allowed for one whole exchange (connect, headers, body), in ms. */
  timeoutMs: number;
  /** Largest response body read, in bytes; more is a TransportError. */
  maxResponseBytes: number;
  /** Requests in flight at once through this transport; 0 or absent: unbounded. */
  concurrency?: number;
  /** Requests started per second through this transport; 0 or absent: unbounded. */
  maxRps?: number;
  /** 429 handling: retries after Retry-After, at most maxRetries times and maxWaitMs in all. */
  retry429?: { maxRetries: number; maxWaitMs: number };
  /** A JSON-lines file that gets one line per 429 received (the runner counts them). */
  throttleLog?: string;
  /** A JSON-lines file that gets one line per request sent again with a new access token after a 401 (counted). */
  tokenRenewalLog?: string;
  /** Failures in a row with no HTTP answer (refused, reset, timeout) after which no more is sent. */
  breakerThreshold?: number;
  /**
   * A file the transports of one run share: the first to give up on the target writes why, and
   * every transport that finds it sends nothing more (suite files run in processes of their own).
   */
  breakerFile?: string;
  dispatcher?: Dispatcher;
  /** Headers sent with every request and kept out of its record (see Transport.unrecordedHeaders). */
  unrecordedHeaders?: Record<string, string>;
}

export const DEFAULT_TRANSPORT: TransportOptions = { timeoutMs: 15_000, maxResponseBytes: 4 * 1024 * 1024 };
// The wait (30 s in all) is the bound a polite client keeps; the count is high because under a fixed-window
// limit shared by several worker processes a request can lose the race for a window many times in a row.
export const DEFAULT_RETRY_429 = { maxRetries: 12, maxWaitMs: 30_000 } as const;
// Two requests in a row with no answer (a timeout each, with the defaults 30 s) is a target that stopped answering.
const DEFAULT_BREAKER_THRESHOLD = 2;

export interface OutgoingRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  credential?: CredentialKind;
  /** Whose credential it carries (absent for requests that carry none). */
  organisation?: OrganisationRole;
  /** Sent even while the run is stopping: teardown, and the token requests it needs. */
  cleanup?: boolean;
  /**
   * A token request: its answer does not show that the API answers, so it does not reset the
   * breaker (a target whose token endpoint answers and whose API hangs must still be given up on).
   */
  token?: boolean;
  /**
   * Sent at once, past the load limiter: one of a few requests a check releases together to make
   * them contend (UNIQUE-RACE). The check bounds how many; paced, they would not race at all.
   */
  unpaced?: boolean;
}

export interface ReceivedResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The body parsed as JSON (integers beyond 2^53 as exact bigints), or undefined when it is empty or not JSON. */
  json: unknown;
  /** The exchange as recorded (redacted), for the evidence of an assertion that judges this answer. */
  exchange?: Exchange;
}

/** Each JSON body (object or array) received, by the exchange it came in: what a failure judging a body judged. */
const answeredIn = new WeakMap<object, Exchange>();

/** The exchange a JSON body (as parsed by a Transport) came in, when it is one. */
export function exchangeOfBody(body: unknown): Exchange | undefined {
  return body !== null && typeof body === 'object' ? answeredIn.get(body) : undefined;
}

/** An object nested in a body came in the body's exchange: a failure judging the part judges that exchange. */
export function partOfBody(part: object, body: unknown): void {
  const exchange = exchangeOfBody(body);
  if (exchange) answeredIn.set(part, exchange);
}

/** What an answer's body is recorded of, at most: a hostile server's answer cannot fill the run's memory. */
const RECORDED_BODY_CHARS = 16_384;
/**
 * What a request's body is recorded of, at most: the harness's own requests are bounded (the
 * largest legal request, 100 items with every field at its limit, is some 110 KB), and are kept
 * whole so that a reproduction sends exactly what the run sent.
 */
const RECORDED_REQUEST_CHARS = 1_048_576;

/** An exchange's `at`: requests started in the same millisecond share the text (toISOString is not free). */
let isoOf = { ms: Number.NaN, text: '' };
function isoTime(ms: number): string {
  if (isoOf.ms !== ms) isoOf = { ms, text: new Date(ms).toISOString() };
  return isoOf.text;
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/**
 * The body, all of it, or a TransportError once it passes `max` bytes. Read with listeners rather
 * than an async iterator: the iterator's machinery (end-of-stream watcher, a promise per chunk)
 * cost more than the rest of reading a small answer.
 */
function readCapped(body: Dispatcher.ResponseData['body'], max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      reject(err);
    };
    body.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > max) {
        fail(new TransportError('SC_TARGET_TOO_LARGE', `response body over ${max} bytes`));
        body.destroy();
        return;
      }
      chunks.push(chunk);
    });
    body.on('end', () => {
      if (settled) return;
      settled = true;
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    });
    body.on('error', fail);
    // Closed with neither an end nor an error: what the iterator reported as a premature close. Every body
    // closes, after its end too, so the Error (and its stack) is made only when nothing settled the read.
    body.on('close', () => {
      if (!settled) fail(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    });
  });
}

/**
 * Retry-After as a wait in ms: delay-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable.
 */
export function retryAfterMs(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export class Transport {
  readonly #limiter: Limiter;
  #throttled = 0;
  #failuresInARow = 0;
  #stopped?: TransportError;

  constructor(
    readonly options: TransportOptions,
    readonly redactor: Redactor,
    private readonly record: (exchange: Exchange) => void = () => {},
  ) {
    this.#limiter = new Limiter({ concurrency: options.concurrency ?? 0, maxRps: options.maxRps ?? 0 });
  }

  /** How many 429 answers this transport received. */
  get throttled(): number {
    return this.#throttled;
  }

  /**
   * Sends one request; a 429 is sent again after its Retry-After, within the retry budget.
   * Throws TransportError when no complete HTTP answer arrives, HarnessError when the target
   * keeps throttling beyond the budget.
   */
  async send(req: OutgoingRequest): Promise<ReceivedResponse> {
    const given = this.options.retry429 ?? DEFAULT_RETRY_429;
    // Cleanup must get through: what it cannot delete stays on the target. It waits out more 429s.
    const budget = req.cleanup ? { maxRetries: given.maxRetries * 5, maxWaitMs: given.maxWaitMs * 4 } : given;
    let waitedMs = 0;
    for (let retry = 0; ; retry++) {
      const res = await this.#sendOnce(req);
      if (res.status !== 429) return res;
      this.#throttled += 1;
      const asked = retryAfterMs(res.headers['retry-after']);
      // Up to half as long again, at random: requests throttled together do not all return together.
      const wait = Math.round((asked ?? 1000 * 2 ** retry) * (1 + Math.random() / 2));
      const giveUp = retry >= budget.maxRetries || waitedMs + wait > budget.maxWaitMs;
      this.#logThrottle(req, res, wait, !giveUp);
      if (giveUp) {
        const why =
          retry >= budget.maxRetries
            ? `after ${retry} retries`
            : `it asked to wait ${Math.ceil((asked ?? wait) / 1000)} s more, beyond the ` +
              `${Math.round(budget.maxWaitMs / 1000)} s budget`;
        throw new HarnessError(
          'SC_TARGET_THROTTLED',
          `${req.method} ${this.redactor.redact(new URL(req.url).pathname)} kept answering 429 Too Many Requests; ` +
            `gave up ${why}`,
        );
      }
      this.#limiter.pause(asked ?? wait);
      await sleep(wait);
      waitedMs += wait;
    }
  }

  #logThrottle(req: OutgoingRequest, res: ReceivedResponse, waitMs: number, retried: boolean): void {
    if (!this.options.throttleLog) return;
    const line = {
      at: new Date().toISOString(),
      method: req.method,
      url: this.redactor.redact(req.url),
      retryAfter: res.headers['retry-after'] ?? null,
      waitMs,
      retried,
    };
    try {
      appendFileSync(this.options.throttleLog, `${JSON.stringify(line)}\n`);
    } catch {
      // Counting is best effort; the request itself is unaffected.
    }
  }

  /**
   * Headers sent with a request but kept out of its record: what the harness says of itself to its own embedded
   * server (`unrecordedHeaders` of the options; kit/context.ts: the check sending it), which neither a report nor a
   * reproduction shows.
   */
  protected unrecordedHeaders(): Record<string, string> | undefined {
    return this.options.unrecordedHeaders;
  }

  /**
   * Where a request is sent from, for the record of a token renewal: the check, where the transport knows it (the
   * kit's, in a worker).
   */
  protected renewalTag(): { suite?: string; check?: string } {
    return {};
  }

  /**
   * Records that a request answered 401 with the run's access token is sent again with a new one: the refused
   * exchange, the token request that issued the refused token (and the expires_in it stated), the new answer.
   */
  logTokenRenewal(
    req: OutgoingRequest,
    renewal: { status: number; refused?: Exchange | undefined; token?: TokenIssue | undefined; retry?: number },
  ): void {
    if (!this.options.tokenRenewalLog) return;
    const { status, refused, token, retry } = renewal;
    const line: RenewalLine = {
      at: new Date().toISOString(),
      method: req.method,
      url: this.redactor.redact(req.url),
      status,
      ...(req.organisation ? { organisation: req.organisation } : {}),
      ...(refused ? { refused: { at: refused.at, ms: refused.durationMs } } : {}),
      ...(token ? { token } : {}),
      ...(retry !== undefined ? { retry } : {}),
      ...this.renewalTag(),
    };
    try {
      appendFileSync(this.options.tokenRenewalLog, `${JSON.stringify(line)}\n`);
    } catch {
      // Counting is best effort; the request itself is unaffected.
    }
  }

  /** Stops sending to the target, and tells the other transports of the run. */
  #giveUp(e: TransportError): void {
    this.#stopped = e;
    if (!this.options.breakerFile) return;
    try {
      writeFileSync(this.options.breakerFile, e.message, { flag: 'wx' });
    } catch {
      // Another transport gave up first, or the folder is gone: this one stops either way.
    }
  }

  /** The reason another transport of the run gave up on the target, when one did. */
  #givenUpElsewhere(): TransportError | undefined {
    const file = this.options.breakerFile;
    if (!file || !existsSync(file)) return undefined;
    let why = 'another part of the run got no answer';
    try {
      why = readFileSync(file, 'utf8');
    } catch {
      // unreadable: the generic reason
    }
    return new TransportError('SC_TARGET_UNREACHABLE', why, { notSent: true });
  }

  async #sendOnce(req: OutgoingRequest): Promise<ReceivedResponse> {
    refuseWhenStopping(req);
    this.#stopped ??= this.#givenUpElsewhere();
    if (this.#stopped) {
      throw new TransportError(
        'SC_TARGET_UNREACHABLE',
        `${this.#stopped.message}; the target stopped answering (requests in a row got no answer), so no more ` +
          `requests are sent to it`,
        { notSent: true },
      );
    }
    const release = req.unpaced
      ? () => {}
      : (this.#limiter.acquireNow() ?? (await this.#limiter.acquire(() => !req.cleanup && !!stoppingReason())));
    // The run may have begun stopping while the request waited its turn: it is not sent then.
    try {
      refuseWhenStopping(req);
    } catch (err) {
      release();
      throw err;
    }
    const started = Date.now();
    const recorded: Exchange = {
      at: isoTime(started),
      durationMs: 0,
      request: {
        method: req.method,
        url: this.redactor.redact(req.url),
        headers: this.redactor.redactHeaders(req.headers),
        ...(req.credential ? { credential: req.credential } : {}),
        ...(req.organisation ? { organisation: req.organisation } : {}),
        ...(req.body !== undefined ? { body: this.redactor.redact(req.body.slice(0, RECORDED_REQUEST_CHARS)) } : {}),
      },
    };
    const deadline = startDeadline(this.options.timeoutMs);
    try {
      const extra = this.unrecordedHeaders();
      const res = await request(req.url, {
        method: req.method as Dispatcher.HttpMethod,
        headers: extra ? { ...req.headers, ...extra } : req.headers,
        body: req.body,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
        signal: deadline,
        ...(this.options.dispatcher ? { dispatcher: this.options.dispatcher } : {}),
      });
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > this.options.maxResponseBytes) {
        res.body.destroy();
        throw new TransportError(
          'SC_TARGET_TOO_LARGE',
          `response body of ${declared} bytes (Content-Length), over the ${this.options.maxResponseBytes}-byte cap`,
        );
      }
      const buf = await readCapped(res.body, this.options.maxResponseBytes);
      const text = buf.toString('utf8');
      const headers = flattenHeaders(res.headers);
      let json: unknown;
      if (text.length > 0) {
        try {
          json = parseJson(text);
        } catch {
          json = undefined;
        }
      }
      recorded.response = {
        status: res.statusCode,
        headers: this.redactor.redactHeaders(headers),
        body: this.redactor.redact(text.slice(0, RECORDED_BODY_CHARS)),
      };
      if (!req.token) this.#failuresInARow = 0;
      if (json !== null && typeof json === 'object') answeredIn.set(json, recorded);
      return { status: res.statusCode, headers, text, json, exchange: recorded };
    } catch (err) {
      const e = describe(err, req.url, this.options.timeoutMs);
      e.message = this.redactor.redact(e.message);
      recorded.error = e.message;
      if (e.noAnswer) {
        this.#failuresInARow += 1;
        const threshold = this.options.breakerThreshold ?? DEFAULT_BREAKER_THRESHOLD;
        if (threshold > 0 && this.#failuresInARow >= threshold) this.#giveUp(e);
      }
      throw e;
    } finally {
      deadline.end();
      release();
      recorded.durationMs = Date.now() - started;
      this.record(recorded);
    }
  }
}
