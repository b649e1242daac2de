/**
 * The run's JSON-lines logs a Transport appends to (the runner counts and judges them): every 429 received, and
 * every request sent again with a new access token after a 401. Best effort: a line that cannot be written is lost,
 * the request itself is unaffected.
 */
import { appendFileSync } from 'node:fs';
import type { Redactor } from '../base/redact.ts';
import type { Exchange } from '../results/exchange.ts';
import type { RenewalLine } from '../results/token-renewals.ts';
import type { TokenIssue } from './token-share.ts';

/** A renewal as the client saw it: the 401's status, the refused exchange, the token it refused, the retry's status. */
export interface Renewal {
  status: number;
  refused?: Exchange | undefined;
  token?: TokenIssue | undefined;
  retry?: number;
}

function append(file: string, line: object): void {
  try {
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  } catch {
    // Counting is best effort; the request itself is unaffected.
  }
}

/** The request a line is about. */
interface Sent {
  method: string;
  url: string;
  organisation?: Exchange['request']['organisation'];
}

/** One line per 429 answer: when, what, the Retry-After asked, the wait chosen, whether it is sent again. */
export function logThrottle(
  file: string,
  redactor: Redactor,
  req: Sent,
  retryAfter: string | undefined,
  waitMs: number,
  retried: boolean,
): void {
  append(file, {
    at: new Date().toISOString(),
    method: req.method,
    url: redactor.redact(req.url),
    retryAfter: retryAfter ?? null,
    waitMs,
    retried,
  });
}

/** One line per request sent again with a new access token after a 401 (results/token-renewals.ts reads them). */
export function logRenewal(
  file: string,
  redactor: Redactor,
  req: Sent,
  renewal: Renewal,
  from: { suite?: string; check?: string },
): void {
  const { status, refused, token, retry } = renewal;
  const line: RenewalLine = {
    at: new Date().toISOString(),
    method: req.method,
    url: redactor.redact(req.url),
    status,
    ...(req.organisation ? { organisation: req.organisation } : {}),
    ...(refused ? { refused: { at: refused.at, ms: refused.durationMs } } : {}),
    ...(token ? { token } : {}),
    ...(retry !== undefined ? { retry } : {}),
    ...from,
  };
  append(file, line);
}
