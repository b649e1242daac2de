/**
 * The run's access tokens refused while in use, judged (issue 33 §9). Every request the target refused 401 with the
 * run's own access token is sent again with a new one and recorded (token-renewals.jsonl: client/api.ts). A renewal
 * is evidence that a token died inside the lifetime its expires_in stated (AUTH-TOKEN-LIFETIME) only where nothing
 * legal explains it: the token was still the newest of its client (no token request of that client, from any
 * process of the run, a check's own included, could have been answered with a newer one between its issue and the
 * refusal: a server may revoke a client's earlier tokens, AUTH-TOKEN-SUPERSEDED), the refusal came well inside its
 * stated lifetime, the new token was taken (a target that refuses the new one too refuses the client, not the
 * token), and it was not sent among the near misses (a lockout refuses the run's own credential: AUTH-LOCKOUT).
 */
import { z } from 'zod';
import type { LoggedExchange } from './exchange-log.ts';
import { OrganisationRoleSchema } from './exchange.ts';
import { obj, text } from './schema-helpers.ts';

/** When a request was sent (ISO 8601, as an exchange's `at`) and how long its answer took. */
const TimedSchema = obj({ at: z.string(), ms: z.number() });

/** One line of token-renewals.jsonl: a request refused 401 with the run's own access token, and what followed. */
export const RenewalLineSchema = obj({
  at: z.string(),
  method: z.string(),
  url: z.string(),
  status: z.int(),
  organisation: OrganisationRoleSchema.optional(),
  /** The refused exchange. */
  refused: TimedSchema.optional(),
  /** The token request that issued the refused token, and the expires_in its answer stated. */
  token: TimedSchema.extend({ expiresIn: z.unknown() }).optional(),
  /** The status of the request sent again with the new token. */
  retry: z.int().optional(),
  suite: z.string().optional(),
  check: z.string().optional(),
});
export type RenewalLine = z.infer<typeof RenewalLineSchema>;

/** Why the target refused a token of the run's (the renewal's cause), as the report names it. */
export const RenewalCauseSchema = z
  .enum([
    'inside-lifetime',
    'superseded',
    'lifetime-ending',
    'no-stated-lifetime',
    'refused-again',
    'near-misses',
    'not-recorded',
  ])
  .describe(
    'inside-lifetime: refused well inside the lifetime its expires_in stated while the newest token of its client ' +
      '(AUTH-TOKEN-LIFETIME fails); superseded: a newer token may have been issued to its client since; ' +
      'lifetime-ending: refused near or past its stated lifetime; no-stated-lifetime: its expires_in was no ' +
      'positive number; refused-again: the new token was refused too (the client refused, not the token); ' +
      "near-misses: among the near-miss credentials, where a lockout may refuse any; not-recorded: the token's " +
      "issue, or the run's token requests, were not recorded",
  );
export type RenewalCause = z.infer<typeof RenewalCauseSchema>;

/** A renewal as the report shows it. */
export const RenewalSchema = obj({
  at: text('when the refused request was sent (ISO 8601)'),
  request: text('the refused request: method and path'),
  organisation: OrganisationRoleSchema.optional(),
  check: text('the check that sent it (suite › name), or the stage of the run').optional(),
  tokenAgeMs: z.int().describe('ms from the token request that issued it to the refusal').optional(),
  expiresIn: z.number().describe('the lifetime, in seconds, its token response stated').optional(),
  retryStatus: z.int().describe('the status of the request sent again with a new token').optional(),
  cause: RenewalCauseSchema,
  why: text('the cause in words'),
}).meta({ id: 'TokenRenewal' });
export type Renewal = z.infer<typeof RenewalSchema>;

/** The name of the outcome the runner gives AUTH-TOKEN-LIFETIME from the renewals (no check of a suite file). */
export const RENEWALS_CHECK = "token renewals: the run's access tokens refused while in use";

/** How many renewals a report lists (tokenRenewals counts them all); those inside their lifetime first. */
export const RENEWALS_LISTED = 50;

/** The suite of the near-miss credentials (runner/phases.ts), sent last and alone: a lockout there is expected. */
export const NEAR_MISS_SUITE = 'auth-guesses';

/**
 * How far inside its stated lifetime a refusal must come to be evidence: a tenth of it, and at least a second (a
 * server may count the lifetime from a whole second before the issue, as a JWT's iat does).
 */
export function lifetimeMarginMs(statedSeconds: number): number {
  return Math.max(1000, (statedSeconds * 1000) / 10);
}

/** A token request of the run answered 2xx: it may have issued a token to the client it names. */
interface TokenRequest {
  start: number;
  end: number;
  at: string;
  url: string;
  /** The client_id its body names, when it can be read. */
  clientId: string | undefined;
  where: string;
}

const TOKEN_PATH = /\/api\/oauth\/token\/?$/;

/** The client_id a token request's body (JSON or form) names, when it can be read. */
function clientIdOf(body: string | undefined): string | undefined {
  if (!body) return undefined;
  try {
    const json = JSON.parse(body) as { client_id?: unknown } | null;
    if (typeof json?.client_id === 'string') return json.client_id;
  } catch {
    // not JSON: a form, perhaps
  }
  const form = new URLSearchParams(body).get('client_id');
  return form ?? undefined;
}

/** Where a logged exchange was sent, in words: the check (suite › name), or the stage of the run. */
export function whereOf(e: Pick<LoggedExchange, 'stage' | 'suite' | 'check'>): string {
  if (e.check) return `${e.suite ?? '?'} › ${e.check}`;
  return e.suite ? `${e.suite} (${e.stage})` : e.stage;
}

/** The token requests of an exchange log answered 2xx, each possibly the issue of a token. */
export function tokenRequests(log: readonly LoggedExchange[]): TokenRequest[] {
  return log.flatMap((e) => {
    const { request, response, at, durationMs } = e.exchange;
    if (request.method !== 'POST' || !response || response.status < 200 || response.status > 299) return [];
    let path: string;
    try {
      path = new URL(request.url).pathname;
    } catch {
      return [];
    }
    if (!TOKEN_PATH.test(path)) return [];
    const start = Date.parse(at);
    return [
      { start, end: start + durationMs, at, url: request.url, clientId: clientIdOf(request.body), where: whereOf(e) },
    ];
  });
}

/** How many renewals of each cause: "27 superseded, 5 lifetime-ending". */
export function causeCounts(renewals: readonly Pick<Renewal, 'cause'>[]): string {
  const by = new Map<string, number>();
  for (const r of renewals) by.set(r.cause, (by.get(r.cause) ?? 0) + 1);
  return [...by].map(([cause, n]) => `${n} ${cause}`).join(', ');
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Each renewal with its cause. `requests`: the run's token requests answered 2xx (undefined: not recorded, so none is
 * judged). `clients`: the client id of each organisation, so that a token request naming the
 * other organisation's client is not taken for one that superseded the token; one naming neither, or none that can
 * be read, is taken as one that may have.
 */
export function judgeRenewals(
  lines: readonly RenewalLine[],
  requests: readonly TokenRequest[] | undefined,
  clients: Partial<Record<'ours' | 'peer', string>>,
): Renewal[] {
  return lines.map((line) => {
    let path = line.url;
    try {
      path = new URL(line.url).pathname;
    } catch {
      // shown as logged
    }
    const refusedAt = line.refused ? Date.parse(line.refused.at) : Date.parse(line.at);
    const refusedEnd = line.refused ? refusedAt + line.refused.ms : refusedAt;
    const issued = line.token ? Date.parse(line.token.at) : undefined;
    const stated = typeof line.token?.expiresIn === 'number' ? line.token.expiresIn : undefined;
    const base: Omit<Renewal, 'cause' | 'why'> = {
      at: line.refused?.at ?? line.at,
      request: `${line.method} ${path}`,
      ...(line.organisation ? { organisation: line.organisation } : {}),
      ...(line.check ? { check: `${line.suite ?? '?'} › ${line.check}` } : line.suite ? { check: line.suite } : {}),
      ...(issued !== undefined ? { tokenAgeMs: Math.max(0, Math.round(refusedEnd - issued)) } : {}),
      ...(stated !== undefined ? { expiresIn: stated } : {}),
      ...(line.retry !== undefined ? { retryStatus: line.retry } : {}),
    };
    const of = (cause: RenewalCause, why: string): Renewal => ({ ...base, cause, why });
    if (line.suite === NEAR_MISS_SUITE)
      return of('near-misses', 'sent among the near-miss credentials, where a lockout may refuse any credential');
    if (line.retry === 401) return of('refused-again', 'the new token was refused too: the client was refused');
    if (issued === undefined || !line.token) return of('not-recorded', "the token's issue was not recorded");
    if (!requests) return of('not-recorded', "the run's token requests were not recorded (no exchange log)");
    if (stated === undefined || !(stated > 0))
      return of('no-stated-lifetime', `its token response stated expires_in ${JSON.stringify(line.token.expiresIn)}`);
    const other = line.organisation === 'peer' ? clients.ours : clients.peer;
    const own = requests.findIndex((r) => r.at === line.token!.at && r.start === issued);
    const since = requests.find(
      (r, i) => i !== own && (other === undefined || r.clientId !== other) && r.start <= refusedEnd && r.end >= issued,
    );
    const age = refusedEnd - issued;
    if (since)
      return of(
        'superseded',
        `another token request of its client (${since.where}) was answered between its issue and the refusal: ` +
          'a newer token may have revoked it',
      );
    if (refusedEnd >= issued + stated * 1000 - lifetimeMarginMs(stated))
      return of('lifetime-ending', `refused ${seconds(age)} after its issue, near the end of its ${stated} s`);
    return of(
      'inside-lifetime',
      `refused ${seconds(age)} after its issue, inside the ${stated} s its expires_in stated, while the newest ` +
        'token of its client',
    );
  });
}
