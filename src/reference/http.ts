/** Request body decoding and JSON answers for the reference server. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseJson, stringifyJson } from '../base/json.ts';
import { idFromText } from '../spec/index.ts';

export const MAX_REQUEST_BODY = 1024 * 1024;

/** A rejection with an HTTP status and a machine-readable body. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** What the server answers: a status, and a JSON body unless there is none. */
export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** The media type of the body (default application/json). */
  mediaType?: string;
}

/** Thrown to answer with exactly this, whatever the error rendering in force. */
export class AnswerNow extends Error {
  constructor(readonly answer: Answer) {
    super(`answer ${answer.status}`);
  }
}

/** Writes an answer; `contentType` turns the body's media type into the Content-Type header. */
export function writeAnswer(res: ServerResponse, answer: Answer, contentType: (mediaType: string) => string) {
  if (answer.body === undefined) {
    res.writeHead(answer.status, answer.headers ?? {}).end();
    return;
  }
  const text = stringifyJson(answer.body) ?? '';
  res.writeHead(answer.status, {
    'content-type': contentType(answer.mediaType ?? 'application/json'),
    'content-length': Buffer.byteLength(text),
    ...answer.headers,
  });
  res.end(text);
}

/** The media type of a request body, without parameters, lower case ('' when none is given). */
export function mediaTypeOf(req: IncomingMessage): string {
  return String(req.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_REQUEST_BODY)
    throw new HttpError(413, 'payload_too_large', `request body over ${MAX_REQUEST_BODY} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_REQUEST_BODY)
      throw new HttpError(413, 'payload_too_large', `request body over ${MAX_REQUEST_BODY} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * How a flat form field becomes a JSON value. Form bodies carry only strings, so: an empty
 * value is null; integer fields parse as integers (beyond 2^53 as bigints); object and array fields carry JSON text;
 * `ids` may also repeat.
 */
export type FormFieldKind = 'string' | 'integer' | 'json' | 'integer-list';

function decodeFormValue(kind: FormFieldKind, values: string[]): unknown {
  const last = values[values.length - 1] ?? '';
  if (kind === 'integer-list') {
    if (values.length === 1 && last.trim().startsWith('[')) return parseJsonLoose(last);
    return values.map((v) => idFromText(v) ?? v);
  }
  if (last === '') return null;
  if (kind === 'integer') return idFromText(last) ?? last;
  if (kind === 'json') return parseJsonLoose(last);
  return last;
}

function parseJsonLoose(text: string): unknown {
  try {
    return parseJson(text);
  } catch {
    return text; // left as a string, so schema validation names the field
  }
}

function fromEntries(
  entries: Iterable<[string, unknown]>,
  kinds: Record<string, FormFieldKind>,
): Record<string, unknown> {
  const grouped = new Map<string, string[]>();
  for (const [key, value] of entries) {
    if (typeof value !== 'string')
      throw new HttpError(400, 'invalid_body', `form field ${key} must be text, not a file`);
    const list = grouped.get(key) ?? [];
    list.push(value);
    grouped.set(key, list);
  }
  const out: Record<string, unknown> = {};
  for (const [key, values] of grouped) out[key] = decodeFormValue(kinds[key] ?? 'string', values);
  return out;
}

/**
 * Decodes a request body sent as application/json, application/x-www-form-urlencoded or
 * multipart/form-data into a JSON value. An empty body decodes to {}.
 */
export async function readRequestBody(
  req: IncomingMessage,
  kinds: Record<string, FormFieldKind>,
  allowed: readonly string[] = ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'],
  parse: (text: string) => unknown = parseJson,
): Promise<unknown> {
  const raw = await readBody(req);
  const contentType = String(req.headers['content-type'] ?? '');
  const mediaType = mediaTypeOf(req);
  if (raw.length === 0 && mediaType === '') return {};
  if (!allowed.includes(mediaType)) {
    throw new HttpError(415, 'unsupported_media_type', `content type must be one of ${allowed.join(', ')}`);
  }
  if (mediaType === 'application/json') {
    if (raw.length === 0) return {};
    try {
      return parse(raw.toString('utf8'));
    } catch {
      throw new HttpError(400, 'invalid_json', 'request body is not valid JSON');
    }
  }
  if (mediaType === 'application/x-www-form-urlencoded') {
    return fromEntries(new URLSearchParams(raw.toString('utf8')), kinds);
  }
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(raw), { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new HttpError(400, 'invalid_body', 'request body is not valid multipart/form-data');
  }
  return fromEntries(form.entries() as Iterable<[string, unknown]>, kinds);
}
