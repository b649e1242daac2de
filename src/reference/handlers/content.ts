/**
 * Request bodies of the case, customer and check endpoints: JSON, form-urlencoded or multipart
 * (interface § Endpoints), decoded into one JSON value whatever the content type.
 */
import type { IncomingMessage } from 'node:http';
import { type FormFieldKind, mediaTypeOf, readRequestBody, strictJsonBody } from '../http.ts';
import type { ContentPoints, Env, Op } from '../points.ts';

/** How the fields of a form body become JSON values (see http.ts). */
const FORM_KINDS: Record<string, FormFieldKind> = {
  delete_after: 'integer',
  metadata: 'json',
  sync_platforms: 'json',
  items: 'json',
  ids: 'integer-list',
  id: 'integer',
};

/**
 * The correct reading: every content type stands for what it carries; a JSON body is one JSON text (RFC 8259 §2),
 * a byte-order mark refused (JSON.parse), a key given twice keeping its last value, an empty body no fields.
 */
export function contentDefaults(): ContentPoints {
  return {
    decodeBody: (_op, _mediaType, body) => body,
    jsonBody: (_op, text) => strictJsonBody(text),
    // Stryker disable next-line StringLiteral: 'refuse' is readRequestBody's default; only a variant reads file parts
    fileParts: 'refuse',
  };
}

/** Reads and decodes a request body for an operation. */
export async function readApiBody(env: Env, req: IncomingMessage, op: Op): Promise<unknown> {
  const body = await readRequestBody(req, FORM_KINDS, undefined, (text) => env.b.jsonBody(op, text), env.b.fileParts);
  // The correct decodeBody returns the body: the media type and the header matter to the switches only.
  // Stryker disable next-line StringLiteral,LogicalOperator: the correct decodeBody never reads the header
  return env.b.decodeBody(op, mediaTypeOf(req), body, String(req.headers['content-type'] ?? ''));
}

// Stryker disable all: only the fault switches call isForm; a run of the correct server never does
/** Whether a media type is one of the form encodings. */
export function isForm(mediaType: string): boolean {
  return mediaType === 'application/x-www-form-urlencoded' || mediaType === 'multipart/form-data';
}
// Stryker restore all
