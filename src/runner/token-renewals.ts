/**
 * The run's token renewals judged once its requests are done (results/token-renewals.ts): each with its cause for the
 * report, and an outcome of AUTH-TOKEN-LIFETIME from them. The record is the run's own (token-renewals.jsonl, and the
 * token requests of the exchange log, from every worker process and the runner): no check of a suite file judges it.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { RequestRef } from '../results/exchange.ts';
import { parseExchangeLog } from '../results/exchange-log.ts';
import { failureMessage } from '../results/failure.ts';
import type { CheckOutcome } from '../results/outcome.ts';
import {
  causeCounts,
  judgeRenewals,
  type Renewal,
  type RenewalLine,
  RenewalLineSchema,
  RENEWALS_CHECK,
  RENEWALS_LISTED,
  tokenRequests,
} from '../results/token-renewals.ts';

/** The lines of a JSON-lines file that parse as renewals; none when it is missing. */
function renewalLines(path: string): RenewalLine[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .flatMap((l) => {
      if (!l.trim()) return [];
      try {
        const parsed = RenewalLineSchema.safeParse(JSON.parse(l));
        return parsed.success ? [parsed.data] : [];
      } catch {
        return [];
      }
    });
}

/** The request of a renewal as a failure names it. */
function requestOf(r: Renewal): RequestRef {
  const [method, path] = r.request.split(' ');
  return { method: method!, path: path ?? '', credential: r.organisation === 'peer' ? 'peer-token' : 'our-token' };
}

/**
 * The renewals of a run with their causes (those inside their stated lifetime first, at most RENEWALS_LISTED), and
 * the outcome of AUTH-TOKEN-LIFETIME they give: failed where a token was refused inside its stated lifetime while
 * the newest of its client, else skipped with the causes; none without renewals.
 */
export function judgeRunRenewals(
  renewalLog: string,
  exchangeLog: string,
  clients: Partial<Record<'ours' | 'peer', string>>,
): { renewals: Renewal[]; outcome?: CheckOutcome } {
  const lines = renewalLines(renewalLog);
  if (lines.length === 0) return { renewals: [] };
  const log = existsSync(exchangeLog) ? parseExchangeLog(readFileSync(exchangeLog, 'utf8')) : undefined;
  const all = judgeRenewals(lines, log && tokenRequests(log), clients);
  const early = all.filter((r) => r.cause === 'inside-lifetime');
  const renewals = [...early, ...all.filter((r) => r.cause !== 'inside-lifetime')].slice(0, RENEWALS_LISTED);
  const base = { name: RENEWALS_CHECK, requirements: ['AUTH-TOKEN-LIFETIME'], observations: [], durationMs: 0 };
  if (early.length === 0)
    return {
      renewals,
      outcome: {
        ...base,
        suite: 'auth',
        state: 'skipped',
        skipReason:
          `the target refused the run's access token ${all.length} time(s), each explained (${causeCounts(all)}): ` +
          'none is a token refused inside its stated lifetime while the newest of its client',
      },
    };
  const first = early[0]!;
  const detail = {
    what:
      `${early.length} request(s) refused 401 with the run's own access token inside the lifetime its expires_in ` +
      'stated, while the newest token of its client (from the record of the token renewals)',
    expected: 'each opened: an access token keeps opening while the lifetime its expires_in states lasts',
    received:
      `${first.request} (${first.check ?? 'the runner'}): ${first.why}; sent again with a new token: HTTP ` +
      `${first.retryStatus}${early.length > 1 ? ` (and ${early.length - 1} more: the report's token renewals)` : ''}`,
    request: requestOf(first),
  };
  const suite = first.check?.split(' › ')[0] ?? 'auth';
  return {
    renewals,
    outcome: { ...base, suite, state: 'failed', failure: { ...detail, message: failureMessage(detail) } },
  };
}
