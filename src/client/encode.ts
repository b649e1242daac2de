/**
 * Request body encodings the interface allows: JSON, form-urlencoded and multipart (`multipart-file`: every
 * field a file part, with a filename and text/plain, as a browser sends a file input).
 */
import { stringifyJson } from '../base/json.ts';

export type ContentType = 'json' | 'form' | 'multipart' | 'multipart-file';

export const MEDIA_TYPES: Record<ContentType, string> = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  multipart: 'multipart/form-data',
  'multipart-file': 'multipart/form-data',
};

const MULTIPART_BOUNDARY = 'screenconf-boundary-7MA4YWxkTrZu0gW';

/** How one JSON value travels as a flat form field: null as empty, objects as JSON text. */
export function flatFormValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return stringifyJson(value) ?? '';
  return String(value);
}

/** Flat form entries for an object; an array of numbers or texts (`ids`) repeats the field. */
function formEntries(body: Record<string, unknown>): [string, string][] {
  const entries: [string, string][] = [];
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined) continue;
    // A list of numbers or texts (ids) repeats the field, as HTML forms send several values.
    if (Array.isArray(value) && value.every((v) => ['number', 'bigint', 'string'].includes(typeof v))) {
      for (const v of value) entries.push([key, String(v)]);
    } else {
      entries.push([key, flatFormValue(value)]);
    }
  }
  return entries;
}

export interface EncodedBody {
  contentType: string;
  text: string;
}

/** A JSON body sent as this exact text, valid JSON or not (for malformed requests). */
export class RawJson {
  constructor(readonly text: string) {}
}

export function encodeBody(body: unknown, type: ContentType): EncodedBody {
  if (body instanceof RawJson) return { contentType: MEDIA_TYPES.json, text: body.text };
  if (type === 'json') return { contentType: MEDIA_TYPES.json, text: stringifyJson(body) as string };
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new TypeError(`a ${type} body must be an object`);
  }
  const entries = formEntries(body as Record<string, unknown>);
  if (type === 'form') return { contentType: MEDIA_TYPES.form, text: new URLSearchParams(entries).toString() };
  const file = type === 'multipart-file';
  const parts = entries.map(([k, v]) => {
    const name = k.replace(/"/g, '%22');
    const disposition = file
      ? `form-data; name="${name}"; filename="${name}.txt"\r\nContent-Type: text/plain; charset=utf-8`
      : `form-data; name="${name}"`;
    return `--${MULTIPART_BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n\r\n${v}\r\n`;
  });
  return {
    contentType: `${MEDIA_TYPES.multipart}; boundary=${MULTIPART_BOUNDARY}`,
    text: `${parts.join('')}--${MULTIPART_BOUNDARY}--\r\n`,
  };
}
