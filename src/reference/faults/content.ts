/** Faults of request content types (requirements CONTENT-*). */
import { isForm } from '../handlers/content.ts';
import { HttpError } from '../http.ts';
import { fault } from '../switches.ts';

export const CONTENT_FAULTS = [
  fault(
    'content.form-ignored',
    'form-urlencoded and multipart bodies of PATCH and bulk requests are read as empty (a PATCH then answers ' +
      '200, changing nothing)',
    (base) => ({
      decodeBody: (op, mediaType, body, header) =>
        isForm(mediaType) && (op === 'patch' || op.startsWith('bulk-'))
          ? {}
          : base.decodeBody(op, mediaType, body, header),
    }),
  ),
  fault('content.bulk-json-only', 'bulk endpoints answer 415 to form-urlencoded and multipart bodies', (base) => ({
    decodeBody(op, mediaType, body, header) {
      if (isForm(mediaType) && op.startsWith('bulk-'))
        throw new HttpError(415, 'unsupported_media_type', 'bulk requests must be sent as application/json');
      return base.decodeBody(op, mediaType, body, header);
    },
  })),
  fault(
    'content.json-exact-match',
    'a JSON body is read only when its Content-Type is exactly application/json: with parameters ' +
      '(application/json; charset=utf-8) PATCH and bulk bodies are read as empty (a PATCH then answers 200, ' +
      'changing nothing)',
    (base) => ({
      decodeBody: (op, mediaType, body, header) =>
        mediaType === 'application/json' && header.trim() !== 'application/json' && op !== 'token'
          ? {}
          : base.decodeBody(op, mediaType, body, header),
    }),
  ),
];
