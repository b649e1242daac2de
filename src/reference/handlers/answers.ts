/** How refusals are answered, and the Content-Type of JSON answers. */
import type { AnswerPoints, Env } from '../points.ts';

/**
 * The correct answers: the refusal's own status, body `{error, detail, …extra}`, plain media types, persistent
 * connections.
 */
export function answerDefaults(env: Env): AnswerPoints {
  return {
    errorStatus: (err) => err.status,
    errorAnswer: (err) => ({
      status: env.b.errorStatus(err),
      body: { error: err.code, detail: err.message, ...err.extra },
      headers: err.headers,
    }),
    contentType: (mediaType) => mediaType,
    // Stryker disable next-line BooleanLiteral: Connection: close is a legal choice (variant http.connection-close)
    closeAfterAnswer: false,
  };
}
