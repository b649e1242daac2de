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

// Stryker disable all: only the fault switches drop a request; a run of the correct server never does
/**
 * How a request ends with no answer at all: its connection closed (a worker that died, a proxy that gave up), reset
 * (a process that crashed on the request: the kernel resets its sockets), or held open and silent (a handler waiting
 * on a lock never released) until the client gives up.
 */
export type Drop = 'close' | 'reset' | 'silent';

/** Thrown to end the request with no answer: a fault's dropped connection. */
export class DropNow extends Error {
  constructor(readonly how: Drop) {
    super(`no answer (${how})`);
  }
}

/** Ends a request with no answer, as `how` says. */
export function dropAnswer(res: ServerResponse, how: Drop): void {
  if (how === 'reset') res.socket?.resetAndDestroy();
  else if (how === 'close') res.socket?.destroy();
  // silent: nothing is written; the socket stays open until the client gives up or the server closes.
}
// Stryker restore all

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

/** The fields a decoded form body was given more than once, with their values in order (decodeFormValue keeps one). */
export const repeatedFields = new WeakMap<object, { mediaType: string; fields: Record<string, string[]> }>();

function fromEntries(
  entries: Iterable<[string, unknown]>,
  kinds: Record<string, FormFieldKind>,
  mediaType: string,
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
  const repeated = [...grouped].filter(([, values]) => values.length > 1);
  if (repeated.length) repeatedFields.set(out, { mediaType, fields: Object.fromEntries(repeated) });
  return out;
}

/** A JSON body's text as one JSON text (read by `parse`), or a 400; an empty body is no fields ({}). */
export function strictJsonBody(text: string, parse: (text: string) => unknown = parseJson): unknown {
  if (text === '') return {};
  try {
    return parse(text);
  } catch {
    throw new HttpError(400, 'invalid_json', 'request body is not valid JSON');
  }
}

/**
 * Decodes a request body sent as application/json, application/x-www-form-urlencoded or
 * multipart/form-data into a JSON value; `json` reads a JSON body's text (an empty one too). A body with no
 * Content-Type and no bytes decodes to {}. A multipart part sent as a file (with a filename) is refused, or read
 * as its text (`fileParts`).
 */
export async function readRequestBody(
  req: IncomingMessage,
  kinds: Record<string, FormFieldKind>,
  allowed: readonly string[] = ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'],
  json: (text: string) => unknown = strictJsonBody,
  fileParts: 'refuse' | 'text' = 'refuse',
): Promise<unknown> {
  const raw = await readBody(req);
  const contentType = String(req.headers['content-type'] ?? '');
  const mediaType = mediaTypeOf(req);
  if (raw.length === 0 && mediaType === '') return {};
  if (!allowed.includes(mediaType)) {
    throw new HttpError(415, 'unsupported_media_type', `content type must be one of ${allowed.join(', ')}`);
  }
  if (mediaType === 'application/json') return json(raw.toString('utf8'));
  if (mediaType === 'application/x-www-form-urlencoded') {
    return fromEntries(new URLSearchParams(raw.toString('utf8')), kinds, mediaType);
  }
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(raw), { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new HttpError(400, 'invalid_body', 'request body is not valid multipart/form-data');
  }
  const entries: [string, unknown][] = [];
  // Stryker disable next-line all: only the variant content.file-parts-as-text reads a file part (taking it is legal)
  for (const [key, value] of form.entries() as Iterable<[string, unknown]>)
    entries.push([key, fileParts === 'text' && value instanceof Blob ? await value.text() : value]);
  return fromEntries(entries, kinds, mediaType);
}
