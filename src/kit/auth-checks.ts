/**
 * What the two authentication suites share: auth (the credentials that must open) and auth-guesses (those a server
 * refuses, sent after every other suite: runner/phases.ts). The cells a requirement owns, planned with the run's
 * credentials; a token of the suite's own and its stated lifetime; a case for requests that change nothing.
 */
import { type CaseBody, show } from './cases.ts';
import type { CheckApi } from './check.ts';
import { excerpt } from './assert.ts';
import { cellRecord, type PlannedCell, planCells } from './credential-cells.ts';
import { type CredentialCell, credentialCells, variationsOwnedBy } from '../spec/credential-matrix.ts';
import type { RequirementId } from '../spec/index.ts';
import type { Harness } from './context.ts';

/**
 * Ms of its stated lifetime a token must have left to be judged on (AUTH-TOKEN-LIFETIME), and that must have passed
 * after it for it to be expired (AUTH-TOKEN-EXPIRED): the request's way to the server, and a clock's second.
 */
export const GRACE_MS = 1000;
/** The longest a check waits for a token to expire (AUTH-TOKEN-EXPIRED, AUTH-TOKEN-LIFETIME): a run waits no longer. */
export const MAX_WAIT_S = 10;

/** The cells of the variations a requirement owns, planned with the run's credentials (or `value`). */
export function ownedCells(t: Harness, owner: RequirementId, value?: string): Promise<PlannedCell[]> {
  return planCells(t, credentialCells(variationsOwnedBy(owner)), value === undefined ? {} : { value });
}

/** Records a requirement's cells as not judged, for why, and skips the check with it. */
export function skipCells(t: CheckApi, owner: RequirementId, why: string): never {
  const oracle = (c: CredentialCell) => c.judgedBy[0]!.oracle;
  t.recordCells(credentialCells(variationsOwnedBy(owner)).map((c) => cellRecord(c, oracle(c), 'not-judged', { why })));
  return t.skip(why);
}

/** A new access token for the run's client, got by the check itself (a skip where it cannot be got). */
export async function newToken(t: CheckApi): Promise<{ token: string; expiresIn: unknown; receivedAt: number }> {
  const { clientId, clientSecret } = t.primary.credentials;
  if (!clientId || !clientSecret) t.skip('no client credentials configured (API key only)');
  const res = await t.primary.api.requestToken({
    client_id: clientId,
    client_secret: clientSecret,
    grant_type: 'client_credentials',
  });
  const body = res.json as { access_token?: unknown; expires_in?: unknown } | undefined;
  if (res.status !== 200 || typeof body?.access_token !== 'string' || body.access_token === '')
    t.skip(`the token endpoint answered ${excerpt(res).slice(0, 200)} (TOKEN-ISSUE judges it)`);
  t.redactor.add(body.access_token);
  return { token: body.access_token, expiresIn: body.expires_in, receivedAt: Date.now() };
}

/** A token's stated lifetime in seconds, or a skip. */
export function statedSeconds(t: CheckApi, expiresIn: unknown): number {
  if (typeof expiresIn !== 'number' || !(expiresIn > 0))
    t.skip(`the token response's expires_in is ${show(expiresIn)}, not a positive number of seconds`);
  return expiresIn;
}

/**
 * A case made once for a suite file (at its first use), for the requests that change nothing (PATCH {} with a
 * credential, a read): call once at the file's top level.
 */
export function spareCaseOf(): (t: Harness) => Promise<CaseBody> {
  let spare: Promise<CaseBody> | undefined;
  return (t) => {
    spare ??= t.primary.provision.createCase().catch((err: unknown) => {
      spare = undefined;
      throw err;
    });
    return spare;
  };
}
