/**
 * One HTTP exchange over undici: per-request timeout, a cap on the response size, redirects
 * never followed, and a redacted record of what was sent and received.
 */
import { errors as undiciErrors, request, type Dispatcher } from 'undici';
import type { Redactor } from './redact.ts';

export interface TransportOptions {
  /** Time allowed for headers and for the body, each, in ms. */
  timeoutMs: number;
  /** Largest response body read, in bytes; more is a TransportError. */
  maxResponseBytes: number;
  dispatcher?: Dispatcher;
}

export const DEFAULT_TRANSPORT: TransportOptions = { timeoutMs: 15_000, maxResponseBytes: 4 * 1024 * 1024 };

/** Which credential a request carries, so a reproduction can name the right variable. */
export type CredentialKind = 'access-token' | 'api-key' | 'none' | 'other';

export interface OutgoingRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  credential?: CredentialKind;
}

export interface ReceivedResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The body parsed as JSON, or undefined when it is empty or not JSON. */
  json: unknown;
}

/** A request and its response as recorded, with secrets redacted. */
export interface Exchange {
  at: string;
  durationMs: number;
  request: OutgoingRequest;
  response?: { status: number; headers: Record<string, string>; body: string };
  error?: string;
}

export type TransportErrorKind = 'unreachable' | 'timeout' | 'too-large' | 'protocol';

/** The target gave no usable HTTP answer. */
export class TransportError extends Error {
  override readonly name = 'TransportError';
  constructor(
    readonly kind: TransportErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const RECORDED_BODY_CHARS = 16_384;

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function describe(err: unknown, url: string, timeoutMs: number): TransportError {
  const origin = (() => {
    try {
      return new URL(url).host;
    } catch {
      return url;
    }
  })();
  if (err instanceof TransportError) return err;
  if (err instanceof undiciErrors.HeadersTimeoutError || err instanceof undiciErrors.BodyTimeoutError || err instanceof undiciErrors.ConnectTimeoutError) {
    return new TransportError('timeout', `no answer from ${origin} within ${timeoutMs} ms`, { cause: err });
  }
  const code = (err as { code?: string })?.code ?? '';
  if (['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED'].includes(code)) {
    return new TransportError('unreachable', `cannot reach ${origin}: ${code}`, { cause: err });
  }
  return new TransportError('protocol', `HTTP exchange with ${origin} failed: ${(err as Error)?.message ?? String(err)}`, { cause: err });
}

async function readCapped(body: Dispatcher.ResponseData['body'], max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > max) {
      body.destroy();
      throw new TransportError('too-large', `response body over ${max} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export class Transport {
  constructor(
    readonly options: TransportOptions,
    readonly redactor: Redactor,
    private readonly record: (exchange: Exchange) => void = () => {},
  ) {}

  /** Sends one request; throws TransportError when no complete HTTP answer arrives. */
  async send(req: OutgoingRequest): Promise<ReceivedResponse> {
    const started = Date.now();
    const recorded: Exchange = {
      at: new Date(started).toISOString(),
      durationMs: 0,
      request: {
        method: req.method,
        url: this.redactor.redact(req.url),
        headers: this.redactor.redactHeaders(req.headers),
        ...(req.credential ? { credential: req.credential } : {}),
        ...(req.body !== undefined ? { body: this.redactor.redact(req.body.slice(0, RECORDED_BODY_CHARS)) } : {}),
      },
    };
    try {
      const res = await request(req.url, {
        method: req.method as Dispatcher.HttpMethod,
        headers: req.headers,
        body: req.body,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
        ...(this.options.dispatcher ? { dispatcher: this.options.dispatcher } : {}),
      });
      const buf = await readCapped(res.body, this.options.maxResponseBytes);
      const text = buf.toString('utf8');
      const headers = flattenHeaders(res.headers);
      let json: unknown;
      if (text.length > 0) {
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
      }
      recorded.response = {
        status: res.statusCode,
        headers: this.redactor.redactHeaders(headers),
        body: this.redactor.redact(text.slice(0, RECORDED_BODY_CHARS)),
      };
      return { status: res.statusCode, headers, text, json };
    } catch (err) {
      const e = describe(err, req.url, this.options.timeoutMs);
      recorded.error = this.redactor.redact(e.message);
      throw e;
    } finally {
      recorded.durationMs = Date.now() - started;
      this.record(recorded);
    }
  }
}
