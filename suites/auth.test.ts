/**
 * Authentication of the protected endpoints (interface § Authentication), the credentials that must open them: the
 * access token and the API key open every one; a token keeps opening while its stated lifetime lasts; what a token
 * does once a newer one was issued, and the Token scheme, are recorded. The credentials a server must refuse (missing,
 * malformed, never issued, expired) are sent by the auth-guesses suite, after every other suite (runner/phases.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe } from 'vitest';
import type { AuthMode } from '../src/client/api.ts';
import type { ReceivedResponse } from '../src/client/transport.ts';
import { HarnessError } from '../src/errors.ts';
import {
  GRACE_MS,
  MAX_WAIT_S,
  newToken,
  ownedCells,
  skipCells,
  spareCaseOf,
  statedSeconds,
} from '../src/kit/auth-checks.ts';
import {
  authTargets,
  cellRecord,
  type EndpointRequest,
  sendTo,
  sentCells,
  valuesOf,
} from '../src/kit/credential-cells.ts';
import {
  aloneRefused,
  anotherCase,
  check,
  checkIds,
  deepEqual,
  excerpt,
  expectSuccess,
  fail,
  identityOf,
  isJsonObject,
  readCase,
  show,
  type CheckApi,
} from '../src/kit/index.ts';
import type { CredentialCell } from '../src/spec/credential-matrix.ts';
import type { RequirementId } from '../src/spec/index.ts';

/**
 * Sends the requests of the refusal cells to the five endpoints of the interface with a credential that must open
 * them: each answers 2xx and takes effect (read back with the run's own credential).
 */
async function openEveryEndpoint(t: CheckApi, auth: AuthMode, label: string): Promise<void> {
  const x = await authTargets(t);
  const attempts: EndpointRequest[] = [];
  for (const e of ['patch', 'delete', 'bulk-cases', 'bulk-customers', 'bulk-checks'] as const)
    attempts.push(await sendTo(t, x, e, auth));
  for (const a of attempts) expectSuccess(a.res, `${a.what} ${label}`);
  t.primary.provision.forget(x.victim.id);
  const after = await readCase(t.primary, x.c.id, `reading case ${x.c.id} after the requests ${label}`);
  const [patch, , cases, customers] = attempts.map((a) => valuesOf(a.n));
  // Which fields a bulk item takes is not shown: an item (each is sent alone) the answer refuses is one the server
  // does not take (kit/bulk.ts aloneRefused), and the endpoint opened.
  const [casesTaken, customersTaken] = [
    !aloneRefused(t, attempts[2]!.res, { id: x.c.id }),
    !aloneRefused(t, attempts[3]!.res, { id: x.customerId }),
  ];
  const problems: string[] = [];
  // delete_after is not among the always-present fields: judged where the read shows it.
  if ('delete_after' in after && after.delete_after !== patch!.delete_after)
    problems.push(`delete_after is ${show(after.delete_after)}, PATCH sent ${patch!.delete_after}`);
  if (casesTaken && 'metadata' in after && !deepEqual(after.metadata, cases!.metadata))
    problems.push(`metadata is ${show(after.metadata)}, the bulk case update sent ${show(cases!.metadata)}`);
  const fullName = (after.customer as { full_name?: unknown } | undefined)?.full_name;
  if (customersTaken && !deepEqual(fullName, customers!.full_name))
    problems.push(
      `customer full_name is ${show(fullName)}, the bulk customer update sent ${show(customers!.full_name)}`,
    );
  if (checkIds(after).includes(x.checkId)) problems.push(`check ${x.checkId} is still listed after the bulk delete`);
  const gone = await t.primary.api.patchCase(x.victim.id, {});
  // Another case answering there (given the id since) shows the victim gone: CASE-ID-NOT-REUSED's.
  const other = isJsonObject(gone.json) && anotherCase(identityOf(x.victim)!, gone.json);
  if (gone.status >= 200 && gone.status <= 299 && !other)
    problems.push(`case ${x.victim.id} still answers PATCH after DELETE`);
  if (problems.length)
    fail(`the cases read back after the requests ${label}`, 'every request applied', problems.join('; '), {
      judged: [attempts[0]!.res, after],
    });
}

/** The case the checks that only PATCH {} with a credential send to (the Token scheme, the token's life). */
const spareCase = spareCaseOf();

/** Ms of its stated lifetime a token has left when it is used late (AUTH-TOKEN-LIFETIME), where the run can wait. */
const LATE_LEFT_MS = 2000;
/** A token the file got for the timed cells, and its answer once a newer one was issued to the client. */
interface TokenLife {
  token: string;
  /** When its answer came (epoch ms): its lifetime counts from no earlier. */
  receivedAt: number;
  expiresIn: unknown;
  afterNewer: ReceivedResponse;
  /** The cell that answer is. */
  superseded: CredentialCell;
}
let life: Promise<TokenLife> | undefined;

/** The timed cell of a requirement on PATCH, made from `token`. */
async function timedCell(
  t: CheckApi,
  owner: RequirementId,
  token: string,
): Promise<{ cell: CredentialCell; auth: AuthMode }> {
  const [planned] = sentCells(await ownedCells(t, owner, token)).filter((p) => p.cell.endpoint === 'patch');
  if (!planned) throw new HarnessError('SC_HARNESS', `${owner}: no PATCH cell to send`);
  return planned;
}

/** Gets a token, then a newer one for the same client, and sends the first with PATCH {}: once for the file. */
function tokenLife(t: CheckApi): Promise<TokenLife> {
  life ??= (async () => {
    const c = await spareCase(t);
    const first = await newToken(t);
    await newToken(t);
    const { cell: superseded, auth } = await timedCell(t, 'AUTH-TOKEN-SUPERSEDED', first.token);
    const afterNewer = await t.primary.api.patchCase(c.id, {}, { auth });
    return { ...first, afterNewer, superseded };
  })().catch((err: unknown) => {
    life = undefined;
    throw err;
  });
  return life;
}

const is2xx = (status: number) => status >= 200 && status <= 299;

describe('authentication', () => {
  check('an access token after a newer one was issued to its client', ['AUTH-TOKEN-SUPERSEDED'], async (t) => {
    const l = await tokenLife(t);
    const status = l.afterNewer.status;
    const what = is2xx(status) ? 'still opens' : status >= 400 && status <= 499 ? 'refused' : 'unclear';
    const text = `PATCH {} with a token after a newer one was issued: HTTP ${status} (${what})`;
    t.observe('AUTH-TOKEN-SUPERSEDED', text);
    t.recordCells([cellRecord(l.superseded, 'observed', 'not-judged', { status, why: text })]);
  });

  check('an access token opens every protected endpoint', ['AUTH-TOKEN-OPENS'], async (t) => {
    if (!t.primary.credentials.clientId) t.skip('no client credentials configured');
    await openEveryEndpoint(t, 'token', 'with the access token');
  });

  check('the API key as a Bearer credential opens every protected endpoint', ['AUTH-API-KEY-BEARER'], async (t) => {
    if (!t.primary.api.hasApiKey) t.skip('no API key configured (--api-key)');
    await openEveryEndpoint(t, 'api-key-bearer', 'with Authorization: Bearer <API key>');
  });

  check('the API key in the Token scheme', ['AUTH-API-KEY-TOKEN-SCHEME'], async (t) => {
    if (!t.primary.api.hasApiKey) t.skip('no API key configured (--api-key)');
    const c = await spareCase(t);
    const res = await t.primary.api.patchCase(c.id, {}, { auth: 'api-key-token' });
    t.observe(
      'AUTH-API-KEY-TOKEN-SCHEME',
      `PATCH with Authorization: Token <API key> answered HTTP ${res.status} ` +
        `(${res.status === 200 ? 'accepted' : 'not accepted'})`,
    );
  });

  check('an access token still opens late in its stated lifetime', ['AUTH-TOKEN-LIFETIME'], async (t) => {
    const l = await tokenLife(t);
    const kept = l.afterNewer.status;
    if (!is2xx(kept))
      skipCells(
        t,
        'AUTH-TOKEN-LIFETIME',
        `the token answered HTTP ${kept} once a newer one was issued (AUTH-TOKEN-SUPERSEDED): a server may revoke a ` +
          "client's earlier tokens, so a later refusal could be that",
      );
    let token = { token: l.token, receivedAt: l.receivedAt };
    const stated = statedSeconds(t, l.expiresIn);
    // The file's token grew too old while other checks ran (a busy machine): a token of its own, which no newer
    // one revokes (the server kept the file's first token after a newer was issued: AUTH-TOKEN-SUPERSEDED).
    if (Date.now() > token.receivedAt + stated * 1000 - LATE_LEFT_MS) token = await newToken(t);
    // Late: near its end where the run can wait for that (as for AUTH-TOKEN-EXPIRED), else now, at the suite's end.
    const end = token.receivedAt + stated * 1000;
    if (Date.now() > end - GRACE_MS)
      skipCells(
        t,
        'AUTH-TOKEN-LIFETIME',
        `the token is ${((Date.now() - token.receivedAt) / 1000).toFixed(1)} s old, too near its lifetime ` +
          `(${stated} s)`,
      );
    if (stated <= MAX_WAIT_S) await sleep(Math.max(0, end - LATE_LEFT_MS - Date.now()));
    const elapsed = Date.now() - token.receivedAt;
    const c = await spareCase(t);
    const { cell, auth } = await timedCell(t, 'AUTH-TOKEN-LIFETIME', token.token);
    const res = await t.primary.api.patchCase(c.id, {}, { auth });
    const why = `a token ${(elapsed / 1000).toFixed(1)} s old, expires_in ${stated}: HTTP ${res.status}`;
    t.recordCells([cellRecord(cell, 'opens', is2xx(res.status) ? 'pass' : 'fail', { status: res.status, why })]);
    if (!is2xx(res.status))
      fail(
        `PATCH {} of case ${c.id} with a token issued ${(elapsed / 1000).toFixed(1)} s before, with expires_in ` +
          `${stated} (it still opened an endpoint after a newer token was issued)`,
        'a 2xx: the token is within its stated lifetime',
        excerpt(res),
        { judged: [res], expect: { status: ['2xx'] } },
      );
  });
});
