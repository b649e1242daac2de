/**
 * The local webhook receiver: a real HTTP listener that hands out unguessable endpoint URLs,
 * records every request to them, and lets a test wait for deliveries with a deadline.
 * Requests to any other path are strays: recorded apart, answered 404, never attributed.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseJson } from '../base/json.ts';
import { HarnessError, WebhookReceiverClosedError, WebhookTimeoutError } from '../errors.ts';
import type {
  PendingDelivery,
  WaitOptions,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookReceiver,
  WebhookReceiverOptions,
  WebhookResponder,
} from './types.ts';

const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** Past the cap the rest of a body is discarded, not buffered; past this much more, the socket is cut. */
const MAX_DISCARD_BYTES = 8 * 1024 * 1024;
const HOOK_PREFIX = '/hooks/';

interface Waiter {
  /** Settles the wait if its condition now holds. */
  check(): void;
  fail(error: Error): void;
}

class Endpoint implements WebhookEndpoint {
  readonly #deliveries: WebhookDelivery[] = [];
  readonly #statuses: number[] = [];
  readonly #waiters = new Set<Waiter>();
  /** Answers waiting for release() while the endpoint holds them; undefined when it does not hold. */
  #held: (() => void)[] | undefined;

  constructor(
    readonly url: string,
    readonly path: string,
    readonly label: string | undefined,
    private readonly isClosed: () => boolean,
  ) {}

  deliveries(): WebhookDelivery[] {
    return [...this.#deliveries];
  }

  respondWith(statuses: number[]): void {
    for (const status of statuses) assertStatus(status, 'respondWith');
    this.#statuses.push(...statuses);
  }

  hold(): () => void {
    this.#held ??= [];
    return () => {
      const held = this.#held ?? [];
      this.#held = undefined;
      for (const answer of held) answer();
    };
  }

  /** Sends an answer now, or keeps it until release when the endpoint holds its answers. */
  answer(send: () => void): void {
    if (this.#held) this.#held.push(send);
    else send();
  }

  /** Marks a recorded delivery whose answer never reached its sender. */
  drop(delivery: WebhookDelivery): void {
    const at = this.#deliveries.indexOf(delivery);
    if (at >= 0) this.#deliveries[at] = Object.freeze({ ...delivery, dropped: true });
  }

  /** The status queued for the next delivery, if any (consumed). */
  nextQueuedStatus(): number | undefined {
    return this.#statuses.shift();
  }

  record(delivery: WebhookDelivery): void {
    this.#deliveries.push(delivery);
    for (const waiter of [...this.#waiters]) waiter.check();
  }

  waitForDelivery({ timeoutMs, count = 1 }: WaitOptions): Promise<WebhookDelivery[]> {
    assertDuration(timeoutMs, 'timeoutMs');
    if (!Number.isInteger(count) || count < 1) {
      throw new RangeError(`count must be a positive integer, got ${count}`);
    }
    return this.#wait(
      timeoutMs,
      () => this.#deliveries.length >= count,
      () =>
        new WebhookTimeoutError({
          url: this.url,
          label: this.label,
          timeoutMs,
          expected: count,
          arrived: this.#deliveries.length,
        }),
    );
  }

  deliveriesWithin(ms: number): Promise<WebhookDelivery[]> {
    assertDuration(ms, 'ms');
    return this.#wait(ms, () => false, undefined);
  }

  /** Rejects every pending wait; called once by the receiver's close(). */
  failWaits(): void {
    for (const waiter of [...this.#waiters]) {
      waiter.fail(new WebhookReceiverClosedError(this.url, this.label));
    }
  }

  /**
   * Resolves with all deliveries when `ready()` holds (now or on a later delivery). At the
   * deadline: rejects with `onTimeout()` if given, else resolves with all deliveries.
   */
  #wait(ms: number, ready: () => boolean, onTimeout: (() => Error) | undefined): Promise<WebhookDelivery[]> {
    if (ready()) return Promise.resolve(this.deliveries());
    if (this.isClosed()) return Promise.reject(new WebhookReceiverClosedError(this.url, this.label));
    return new Promise((resolve, reject) => {
      const settle = (): void => {
        clearTimeout(timer);
        this.#waiters.delete(waiter);
      };
      const waiter: Waiter = {
        check: () => {
          if (!ready()) return;
          settle();
          resolve(this.deliveries());
        },
        fail: (error) => {
          settle();
          reject(error);
        },
      };
      const timer = setTimeout(() => {
        settle();
        if (onTimeout) reject(onTimeout());
        else resolve(this.deliveries());
      }, ms);
      this.#waiters.add(waiter);
    });
  }
}

export async function createWebhookReceiver(options: WebhookReceiverOptions = {}): Promise<WebhookReceiver> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 0;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isInteger(maxBodyBytes) || maxBodyBytes < 0) {
    throw new HarnessError('SC_CONFIG', `webhook maxBodyBytes must be a non-negative integer, got ${maxBodyBytes}`);
  }
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new HarnessError('SC_CONFIG', `webhook receiver port must be an integer in 0..65535, got ${port}`);
  }
  const publicBase = options.publicUrl === undefined ? undefined : parsePublicUrl(options.publicUrl);
  const responder = options.responder;

  const endpoints = new Map<string, Endpoint>();
  const strays: WebhookDelivery[] = [];
  let seq = 0;
  let closed = false;
  let closing: Promise<void> | undefined;

  const server = createServer((req, res) => {
    const endpoint = endpoints.get(stripPrefix(requestPathname(req.url ?? '/'), publicBase?.prefix));
    readBody(req, maxBodyBytes, (pending, overCap) => {
      const delivery = { seq: ++seq, ...pending, label: endpoint?.label };
      let status: number;
      if (!endpoint) status = 404;
      else if (overCap) status = 413;
      else status = endpoint.nextQueuedStatus() ?? chooseStatus(responder, delivery);
      const recorded: WebhookDelivery = Object.freeze({ ...delivery, status });
      const send = () => respond(res, status, overCap);
      // Recorded at arrival (a wait settles then), answered now or, held, when released.
      if (!endpoint) {
        strays.push(recorded);
        send();
        return;
      }
      endpoint.record(recorded);
      // A sender that gives up before its answer went out (a held one) was never answered.
      res.once('close', () => {
        if (!res.writableFinished) endpoint.drop(recorded);
      });
      if (overCap) send();
      else endpoint.answer(send);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((cause: unknown) => {
    throw new HarnessError('SC_HARNESS', `webhook receiver cannot listen on ${host}:${port}: ${String(cause)}`, {
      cause,
    });
  });

  const bound = (server.address() as AddressInfo).port;
  const base = publicBase?.base ?? `http://${urlHost(host)}:${bound}`;

  return {
    url: base,
    port: bound,
    endpoint(label?: string): WebhookEndpoint {
      if (closed) throw new HarnessError('SC_HARNESS', 'webhook receiver is closed: no new endpoints');
      const path = HOOK_PREFIX + randomBytes(16).toString('base64url');
      const endpoint = new Endpoint(base + path, path, label, () => closed);
      endpoints.set(path, endpoint);
      return endpoint;
    },
    strays: () => [...strays],
    close(): Promise<void> {
      if (closing) return closing;
      closed = true;
      for (const endpoint of endpoints.values()) endpoint.failWaits();
      closing = new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/**
 * Reads the body, then calls `done` once. As soon as the body goes over the cap, `done` is
 * called with the first `cap` bytes (so the answer goes out early, with Connection: close) and
 * the rest is discarded unbuffered, up to a limit past which the socket is destroyed.
 * A request aborted before its end is not recorded.
 */
function readBody(
  req: IncomingMessage,
  cap: number,
  done: (pending: Omit<PendingDelivery, 'seq' | 'label'>, overCap: boolean) => void,
): void {
  const receivedAt = Date.now();
  const chunks: Buffer[] = [];
  let kept = 0;
  let seen = 0;
  let finished = false;

  const finish = (overCap: boolean): void => {
    finished = true;
    const body = Buffer.concat(chunks).toString('utf8');
    chunks.length = 0;
    done(
      {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: flattenHeaders(req),
        body,
        truncated: overCap,
        json: overCap ? undefined : parseBody(body),
        receivedAt,
        receivedAtIso: new Date(receivedAt).toISOString(),
      },
      overCap,
    );
  };

  req.on('error', () => {}); // client went away: nothing to record, nothing to answer
  req.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (finished) {
      if (seen > cap + MAX_DISCARD_BYTES) req.socket.destroy();
      return;
    }
    if (kept + chunk.length > cap) {
      chunks.push(chunk.subarray(0, cap - kept));
      kept = cap;
      finish(true);
      return;
    }
    chunks.push(chunk);
    kept += chunk.length;
  });
  req.on('end', () => {
    if (!finished) finish(false);
  });
}

function respond(res: ServerResponse, status: number, closeAfter: boolean): void {
  if (res.destroyed || res.headersSent) return; // a held answer after the sender gave up, or the receiver closed
  const headers: Record<string, string> = status === 204 || status === 304 ? {} : { 'content-length': '0' };
  if (closeAfter) headers.connection = 'close';
  res.writeHead(status, headers);
  res.end();
}

function chooseStatus(responder: WebhookResponder | undefined, delivery: PendingDelivery): number {
  if (!responder) return 204;
  try {
    const status = responder(delivery)?.status;
    if (status === undefined) return 204;
    assertStatus(status, 'responder');
    return status;
  } catch {
    return 500; // a broken responder must not take the listener down; the delivery still counts
  }
}

function assertStatus(status: number, where: string): void {
  if (!Number.isInteger(status) || status < 200 || status > 599) {
    throw new RangeError(`${where}: status must be an integer in 200..599, got ${status}`);
  }
}

function assertDuration(ms: number, name: string): void {
  if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`${name} must be a non-negative number, got ${ms}`);
}

function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** The body as JSON (ids beyond 2^53 exact), or undefined when it is empty or not JSON. */
function parseBody(body: string): unknown {
  if (body.trim() === '') return undefined;
  try {
    return parseJson(body);
  } catch {
    return undefined;
  }
}

/** Pathname of a request target, origin-form or absolute-form, without the query. */
function requestPathname(target: string): string {
  if (/^https?:\/\//i.test(target)) {
    try {
      return new URL(target).pathname;
    } catch {
      return target;
    }
  }
  const query = target.indexOf('?');
  return query === -1 ? target : target.slice(0, query);
}

function stripPrefix(pathname: string, prefix: string | undefined): string {
  return prefix && pathname.startsWith(`${prefix}/`) ? pathname.slice(prefix.length) : pathname;
}

function parsePublicUrl(raw: string): { base: string; prefix: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new HarnessError(
      'SC_CONFIG',
      'webhook publicUrl must be an absolute http(s) URL, e.g. https://hooks.example.test',
    );
  }
  // Messages quote only origin and path: a rejected URL may carry credentials.
  const shown = JSON.stringify(url.origin + url.pathname);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new HarnessError('SC_CONFIG', `webhook publicUrl must use http or https, got ${url.protocol} URL`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new HarnessError('SC_CONFIG', `webhook publicUrl must not carry credentials: ${shown}`);
  }
  if (raw.includes('?') || raw.includes('#')) {
    throw new HarnessError('SC_CONFIG', `webhook publicUrl must not have a query or fragment: ${shown}`);
  }
  const prefix = url.pathname.replace(/\/+$/, '');
  return { base: url.origin + prefix, prefix };
}

/** Host part for the listener's own URL: unspecified addresses become loopback, IPv6 is bracketed. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
