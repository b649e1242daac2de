/**
 * One HTTP exchange over undici: a whole-exchange timeout, a cap on the response size, redirects
 * never followed (so Authorization never travels to another origin), a limit on the load sent
 * (concurrency and rate), 429 answers retried after their Retry-After within a budget, a
 * liveness read after a request that got no answer (liveness.ts: the target's answer to that request, or a target
 * gone), a breaker that stops sending once the target is gone, and a redacted record of what was sent and received.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { request, type Dispatcher } from 'undici';
import { HarnessError, TransportError } from '../errors.ts';
import { describe } from './transport-errors.ts';
import { flattenHeaders, isoTime, readCapped, retryAfterMs } from './reading.ts';
import { type Liveness, type LivenessRead, LivenessProbe } from './liveness.ts';
import type { CredentialKind, Exchange, OrganisationRole } from '../results/exchange.ts';
import { logRenewal, logThrottle, type Renewal } from './run-logs.ts';
import { startDeadline } from './deadline.ts';
import { Limiter, sleep } from './limiter.ts';
import { refuseWhenStopping, stoppingReason } from './stopping.ts';
import { parseJson } from '../base/json.ts';
import type { Redactor } from '../base/redact.ts';

export { targetUrl } from './target-url.ts';
export { retryAfterMs } from './reading.ts';

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
  /**
   * Requests in a row that got no answer within the timeout while the target answered the liveness read after each,
   * after which no more is sent (default 3; 0: no bound): a target that answers only the liveness read would
   * otherwise hold every request of the run for the whole timeout.
   */
  breakerThreshold?: number;
  /**
   * Whether a request that got no answer is followed by a liveness read (default true). Without it no answer is
   * taken as a target gone, and nothing stops the sending (tests of the exchange itself).
   */
  liveness?: boolean;
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
// Three timeouts in a row (45 s with the defaults) of a target that answers only the liveness reads: no more is sent.
const DEFAULT_BREAKER_THRESHOLD = 3;
/** A request refused while the target restarted is sent again once it answers, at most this many times. */
const MAX_RESENDS = 2;

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

/** Each TransportError of a request the target got and answered with no answer, by the exchange recorded. */
const droppedIn = new WeakMap<TransportError, Exchange>();

/**
 * The exchange of a request that got no answer while the target answered the liveness read after it (a connection
 * closed or reset, nothing within the timeout): that was its answer, and a check judging the request fails on it.
 */
export function exchangeOfNoAnswer(err: unknown): Exchange | undefined {
  return err instanceof TransportError ? droppedIn.get(err) : undefined;
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

export class Transport {
  readonly #limiter: Limiter;
  readonly #liveness: LivenessProbe;
  #throttled = 0;
  /** Timeouts in a row of a target that answered the liveness read after each. */
  #timeoutsInARow = 0;
  /** Whether the target answered any request of this transport: a refusal after that may be a restart. */
  #answered = false;
  #stopped?: TransportError;

  constructor(
    readonly options: TransportOptions,
    readonly redactor: Redactor,
    private readonly record: (exchange: Exchange) => void = () => {},
    wait?: (ms: number) => Promise<void>,
  ) {
    this.#limiter = new Limiter({ concurrency: options.concurrency ?? 0, maxRps: options.maxRps ?? 0 });
    this.#liveness = new LivenessProbe((url) => this.#livenessRead(url), wait);
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
      if (this.options.throttleLog)
        logThrottle(this.options.throttleLog, this.redactor, req, res.headers['retry-after'], wait, !giveUp);
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
  logTokenRenewal(req: OutgoingRequest, renewal: Renewal): void {
    if (this.options.tokenRenewalLog)
      logRenewal(this.options.tokenRenewalLog, this.redactor, req, renewal, this.renewalTag());
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

  async #sendOnce(req: OutgoingRequest, resent = 0): Promise<ReceivedResponse> {
    refuseWhenStopping(req);
    this.#stopped ??= this.#givenUpElsewhere();
    if (this.#stopped) {
      throw new TransportError(
        'SC_TARGET_UNREACHABLE',
        `${this.#stopped.message}; the target stopped answering, so no more requests are sent to it`,
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
    const recorded = this.#newRecord(req);
    let res: ReceivedResponse;
    try {
      res = await this.#exchange(req, recorded);
    } catch (err) {
      release();
      if (!(err instanceof TransportError) || !err.noAnswer) {
        this.record(recorded);
        throw err;
      }
      return this.#noAnswer(req, err, recorded, resent);
    }
    release();
    this.record(recorded);
    this.#answered = true;
    if (!req.token) this.#timeoutsInARow = 0;
    return res;
  }

  /** A new record of a request, redacted (its answer or error is filled in when it comes). */
  #newRecord(req: OutgoingRequest): Exchange {
    return {
      at: isoTime(Date.now()),
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
  }

  /** One exchange, into `recorded`: the answer, or a TransportError (redacted) when no complete one came. */
  async #exchange(req: OutgoingRequest, recorded: Exchange): Promise<ReceivedResponse> {
    const started = Date.now();
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
      if (json !== null && typeof json === 'object') answeredIn.set(json, recorded);
      return { status: res.statusCode, headers, text, json, exchange: recorded };
    } catch (err) {
      const e = describe(err, req.url, this.options.timeoutMs);
      e.message = this.redactor.redact(e.message);
      recorded.error = e.message;
      throw e;
    } finally {
      deadline.end();
      recorded.durationMs = Date.now() - started;
    }
  }

  /** A liveness read (liveness.ts): GET of the URL, no credential, no body, sent past the load limiter. */
  async #livenessRead(url: string): Promise<LivenessRead> {
    const req: OutgoingRequest = { method: 'GET', url, headers: { accept: '*/*' }, credential: 'none' };
    const exchange = this.#newRecord(req);
    try {
      return { status: (await this.#exchange(req, exchange)).status, exchange };
    } catch (err) {
      if (err instanceof TransportError) return { error: err, exchange };
      throw err;
    }
  }

  /** Puts the liveness reads in the record once, after the exchange that called for them. */
  #recordAfter(recorded: Exchange, live: Liveness | undefined): void {
    this.record(recorded);
    for (const read of live?.unrecorded.splice(0) ?? []) this.record(read);
  }

  /**
   * A request that got no answer: a liveness read decides. The target gone, nothing more is sent (the run stops,
   * INCOMPLETE); a refused request (never sent) is sent again once the target answers again (it restarted); a request
   * the target got and answered with no answer while it answers the liveness read is the target's answer to it.
   */
  async #noAnswer(
    req: OutgoingRequest,
    e: TransportError,
    recorded: Exchange,
    resent: number,
  ): Promise<ReceivedResponse> {
    // Given up on meanwhile (here, or by another transport of the run): the target is gone, no read tells more.
    this.#stopped ??= this.#givenUpElsewhere();
    if (this.#stopped) {
      recorded.error = `${e.message}; the target had stopped answering (${this.#stopped.message})`;
      this.record(recorded);
      throw new TransportError('SC_TARGET_UNREACHABLE', recorded.error, { cause: e, notSent: e.notSent });
    }
    // A target that never answered this transport and refuses it was not reached at all: no read tells more.
    const live =
      this.options.liveness === false || (e.notSent && !this.#answered)
        ? undefined
        : await this.#liveness.check(req.url, this.#answered);
    const said = live && this.redactor.redact(live.said);
    if (live && !live.alive) {
      recorded.error = `${e.message}; the liveness read right after it got none either (${said}): the target is gone`;
      this.#recordAfter(recorded, live);
      const gone = new TransportError('SC_TARGET_UNREACHABLE', recorded.error, {
        cause: e,
        notSent: e.notSent,
      });
      this.#giveUp(gone);
      throw gone;
    }
    if (!live) {
      this.record(recorded);
      throw e;
    }
    if (e.notSent) {
      const again = resent < MAX_RESENDS;
      recorded.error = `${e.message}; the target answers again (${said})${again ? ': sent again' : ''}`;
      this.#recordAfter(recorded, live);
      if (!again) throw e;
      return this.#sendOnce(req, resent + 1);
    }
    const answer = `the target answered a liveness read right after it (${said}), so this was its answer`;
    recorded.error = `${e.message}; ${answer}`;
    this.#recordAfter(recorded, live);
    droppedIn.set(e, recorded);
    const threshold = this.options.breakerThreshold ?? DEFAULT_BREAKER_THRESHOLD;
    if (e.code === 'SC_TARGET_TIMEOUT' && threshold > 0 && ++this.#timeoutsInARow >= threshold) {
      this.#giveUp(
        new TransportError(
          'SC_TARGET_UNREACHABLE',
          `${threshold} requests in a row got no answer within ${this.options.timeoutMs} ms, though the target ` +
            'answered a liveness read after each',
        ),
      );
    }
    throw e;
  }
}
