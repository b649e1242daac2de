/** Variants of error answers: their status and body shape (interface § Errors: "not shown"). */
import { STATUS_CODES } from 'node:http';
import type { HttpError } from '../http.ts';
import { variant } from '../switches.ts';

/** An RFC 9457 problem: type, title, status, detail, and `errors`, one per field problem (RFC 9457 §3). */
function problem(code: string, status: number, detail: string, extra: Record<string, unknown> = {}) {
  const { fields, ...rest } = extra;
  const errors = Object.entries((fields ?? {}) as Record<string, string[]>).flatMap(([field, messages]) =>
    messages.map((message) => ({
      detail: message,
      pointer: field === 'non_field_errors' ? '#' : `#/${field.split('.').join('/')}`,
    })),
  );
  return {
    type: `https://screenconf.invalid/problems/${code.replaceAll('_', '-')}`,
    title: STATUS_CODES[status] ?? 'Error',
    status,
    detail,
    errors,
    ...rest,
  };
}

const PROBLEM = 'application/problem+json';

export const ERROR_VARIANTS = [
  variant(
    'errors.status-422',
    'validation errors (a field of the wrong type, form or size) answer 422, not 400',
    (base) => ({
      errorStatus: (err: HttpError) => (err.code === 'validation_error' ? 422 : base.errorStatus(err)),
    }),
  ),
  variant(
    'errors.problem-json',
    'every error body is RFC 9457 application/problem+json {type, title, status, detail, errors: [{detail, ' +
      'pointer}]}; token errors keep error and error_description as extension members',
    (_base, env) => ({
      errorAnswer(err) {
        const status = env.b.errorStatus(err);
        return {
          status,
          mediaType: PROBLEM,
          headers: err.headers,
          body: problem(err.code, status, err.message, err.extra),
        };
      },
      oauthError: (status, error, description) => ({
        status,
        mediaType: PROBLEM,
        headers: { 'cache-control': 'no-store' },
        body: { ...problem(error, status, description), error, error_description: description },
      }),
    }),
  ),
];
