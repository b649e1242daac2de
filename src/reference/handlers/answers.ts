/** How refusals are answered, and the Content-Type of JSON answers. */
import type { Env } from '../behaviour.ts';
import type { Answer, HttpError } from '../http.ts';

export interface AnswerPoints {
  /** The status a refusal is answered with. */
  errorStatus(err: HttpError): number;
  /** The answer to a refusal. */
  errorAnswer(err: HttpError): Answer;
  /** The Content-Type header of a JSON body of this media type (answers and webhook deliveries). */
  contentType(mediaType: string): string;
}

/** The correct answers: the refusal's own status, body `{error, detail, …extra}`, plain media types. */
export function answerDefaults(env: Env): AnswerPoints {
  return {
    errorStatus: (err) => err.status,
    errorAnswer: (err) => ({
      status: env.b.errorStatus(err),
      body: { error: err.code, detail: err.message, ...err.extra },
      headers: err.headers,
    }),
    contentType: (mediaType) => mediaType,
  };
}
