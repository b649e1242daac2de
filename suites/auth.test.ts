/**
 * Authentication of the protected endpoints (interface § Authentication): the token and the API key open them;
 * every other credential (missing, malformed, never issued, expired) is refused, changes nothing and shows none
 * of the organisation's data. The credentials sent are the credential dimension of the input matrix
 * (spec/credential-matrix.ts: credentialCells), crossed with every protected endpoint; each check sends the cells
 * its requirement owns, on targets all the refusals of the file share, read back once per group, and gives each
 * cell a verdict (kit/credential-cells.ts CellRecord).
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe } from 'vitest';
import type { AuthMode } from '../src/client/api.ts';
import type { ReceivedResponse } from '../src/client/transport.ts';
import { HarnessError } from '../src/errors.ts';
import {
  type AuthTargets,
  authTargets,
  type CellRecord,
  cellRecord,
  effectShown,
  type EndpointRequest,
  notSentRecords,
  type PlannedCell,
  planCells,
  sendTo,
  sentCells,
  valuesOf,
} from '../src/kit/credential-cells.ts';
import {
  aloneRefused,
  anotherCase,
  check,
  checkIds,
  ConformanceFailure,
  confirmedByRead,
  deepEqual,
  excerpt,
  expectNoPrivateData,
  expectSuccess,
  fail,
  identityOf,
  isJsonObject,
  readCase,
  show,
  stableFields,
  type CaseBody,
  type CheckApi,
} from '../src/kit/index.ts';
import { type CredentialCell, credentialCells, variationsOwnedBy } from '../src/spec/credential-matrix.ts';
import type { RequirementId } from '../src/spec/index.ts';

/** A cell as sent, with the private values of the case its request named or acted on. */
interface Sent {
  cell: CredentialCell;
  req: EndpointRequest;
  tokens: [string, string][];
}

/** Sends each planned cell once, in order. */
async function sendCells(t: CheckApi, x: AuthTargets, plan: readonly PlannedCell[]): Promise<Sent[]> {
  const sent: Sent[] = [];
  for (const { cell, auth } of sentCells(plan)) {
    const req = await sendTo(t, x, cell.endpoint, auth);
    sent.push({ cell, req: { ...req, what: `${req.what} with ${cell.variation.description}` }, tokens: x.tokens });
  }
  return sent;
}

const refused = (s: Sent) => s.req.res.status >= 400 && s.req.res.status <= 499;

/**
 * The refused requests' targets, shared by every refusal in the file: once a refusal is shown to
 * have changed nothing (the case read back as before, the victim still there), the case as read
 * back is the next refusal's state before it. Taken away while a refusal is judged, so a refusal
 * that does not pass leaves the next one fresh targets.
 */
let unchanged: AuthTargets | undefined;

/** Every request the file sent with a credential that must be refused, for AUTH-REFUSAL-NO-DATA. */
let refusals: Sent[] = [];

/** Records a check's cells for the report, and fails with every failed one, one line each, judging their requests. */
function failCells(
  t: CheckApi,
  records: readonly CellRecord[],
  judged: readonly unknown[],
  what: string,
  expected: string,
): void {
  t.recordCells(records);
  const failed = records.filter((r) => r.result === 'fail');
  const sent = records.filter((r) => r.status !== undefined).length;
  const lines = failed.map((r) => `${r.cell}: ${r.why}`).join('\n');
  if (failed.length) fail(`${failed.length} of ${sent} ${what}`, expected, lines, { judged });
}

/**
 * Sends the cells of a plan, each of which must be refused: every answer a 4xx, and the target case (its customer
 * and its check with it) and the case to delete read once after the last; a cell whose own value the read shows,
 * or a deletion, took effect. A change cannot be undone by a later request (each sends values of its own, and a
 * deletion stays), so one read after all of them shows what any of them did. A change no cell's value explains is
 * judged again on new targets read first (confirmedByRead): a creation's answer may show the case otherwise than a
 * read.
 */
async function refuseCells(t: CheckApi, plan: readonly PlannedCell[]): Promise<Sent[]> {
  if (sentCells(plan).length === 0) {
    t.recordCells(notSentRecords(plan, 'refused-unchanged'));
    t.skip(`no cell could be sent: ${notSentReasons(plan)}`);
  }
  let judged: { sent: Sent[]; records: CellRecord[]; read: unknown[] } = { sent: [], records: [], read: [] };
  await confirmedByRead(async (fromRead) => {
    judged = await refuseAll(t, plan, fromRead);
  });
  const { sent, records, read } = judged;
  const opened = sent.filter((s) => !refused(s)).map((s) => s.req.res);
  failCells(
    t,
    [...records, ...notSentRecords(plan, 'refused-unchanged')],
    [...opened, ...(opened.length ? [] : read)],
    'requests with credentials that must be refused',
    'a 4xx rejection that changes nothing, for each (a 5xx never conforms: a rejection is a 4xx)',
  );
  return sent;
}

async function refuseAll(
  t: CheckApi,
  plan: readonly PlannedCell[],
  fromRead: boolean,
): Promise<{ sent: Sent[]; records: CellRecord[]; read: unknown[] }> {
  const x = (fromRead ? undefined : unchanged) ?? (await authTargets(t, fromRead));
  unchanged = undefined;
  const sent = await sendCells(t, x, plan);
  refusals.push(...sent);
  const after = await readCase(t.primary, x.c.id, `reading case ${x.c.id} after the rejected requests`);
  const victim = await t.primary.provision.readCase(x.victim.id);
  const victimGone = victim.status !== 200;
  // A deletion names no cell: it is the doing of a cell of its endpoint that opened it, or else of any of them.
  const opened = new Set(sent.filter((s) => !refused(s)).map((s) => s.cell.endpoint));
  const suspects = (e: string) => sent.filter((s) => s.cell.endpoint === e).length;
  const records = sent.map((s) => {
    const status = s.req.res.status;
    if (!refused(s)) return cellRecord(s.cell, 'refused-unchanged', 'fail', { status, why: excerpt(s.req.res) });
    const deletes = s.cell.endpoint === 'delete' || s.cell.endpoint === 'bulk-checks';
    const shown =
      deletes && opened.has(s.cell.endpoint) ? undefined : effectShown(after, x, s.cell.endpoint, s.req.n, victimGone);
    const which =
      deletes && suspects(s.cell.endpoint) > 1 ? ` by one of ${suspects(s.cell.endpoint)} such requests` : '';
    if (shown)
      return cellRecord(s.cell, 'refused-unchanged', 'fail', { status, why: `HTTP ${status}, yet ${shown}${which}` });
    return cellRecord(s.cell, 'refused-unchanged', 'pass', { status });
  });
  const explained = records.some((r) => r.result === 'fail');
  if (!explained && !deepEqual(stableFields(after), stableFields(x.before)))
    fail(
      `case ${x.c.id} read back after ${sent.length} rejected requests`,
      'nothing changed',
      `${show(stableFields(after))}, was ${show(stableFields(x.before))}`,
      { judged: [after, victim] },
    );
  if (!explained) unchanged = { ...x, before: after };
  return { sent, records, read: [after, victim] };
}

function notSentReasons(plan: readonly PlannedCell[]): string {
  const reasons = new Map<string, string>();
  for (const p of plan) if ('notSent' in p) reasons.set(p.cell.variation.name, p.notSent);
  return [...reasons].map(([name, why]) => `${name}: ${why}`).join('; ');
}

/** Records a requirement's cells as not sent, for why, and skips the check with it. */
function skipCells(t: CheckApi, owner: RequirementId, why: string): never {
  const oracle = (c: CredentialCell) => c.judgedBy[0]!.oracle;
  t.recordCells(credentialCells(variationsOwnedBy(owner)).map((c) => cellRecord(c, oracle(c), 'not-judged', { why })));
  return t.skip(why);
}

/** The cells of the variations a requirement owns, planned with the run's credentials (or `value`). */
function ownedCells(t: CheckApi, owner: RequirementId, value?: string): Promise<PlannedCell[]> {
  return planCells(t, credentialCells(variationsOwnedBy(owner)), value === undefined ? {} : { value });
}

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

/**
 * The case the checks that only PATCH {} with a credential send to (the Token scheme, the 401's
 * header, the token's life): a PATCH {} changes nothing, and none judges the case. Made once for the file.
 */
let spare: Promise<CaseBody> | undefined;
function spareCase(t: CheckApi): Promise<CaseBody> {
  spare ??= t.primary.provision.createCase().catch((err: unknown) => {
    spare = undefined;
    throw err;
  });
  return spare;
}

/** Ms of its stated lifetime a token has left when it is used late (AUTH-TOKEN-LIFETIME), where the run can wait. */
const LATE_LEFT_MS = 2000;
/**
 * Ms of its stated lifetime a token must have left to be judged on (AUTH-TOKEN-LIFETIME), and that must have passed
 * after it for it to be expired (AUTH-TOKEN-EXPIRED): the request's way to the server, and a clock's second.
 */
const GRACE_MS = 1000;
/** The longest a check waits for a token to expire (AUTH-TOKEN-EXPIRED): a run does not wait longer. */
const MAX_WAIT_S = 10;

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

async function newToken(t: CheckApi): Promise<{ token: string; expiresIn: unknown; receivedAt: number }> {
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

/** The stated lifetime in seconds, or a skip. */
function statedSeconds(t: CheckApi, l: TokenLife): number {
  if (typeof l.expiresIn !== 'number' || !(l.expiresIn > 0))
    t.skip(`the token response's expires_in is ${show(l.expiresIn)}, not a positive number of seconds`);
  return l.expiresIn;
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

  check(
    'requests without an Authorization header are rejected and change nothing',
    ['AUTH-REQUIRED-MISSING', 'AUTH-REJECT-STATUS'],
    async (t) => {
      const sent = await refuseCells(t, await ownedCells(t, 'AUTH-REQUIRED-MISSING'));
      t.observe(
        'AUTH-REJECT-STATUS',
        `missing credentials: ${[...new Set(sent.map((s) => s.req.res.status))].join(', ')}; body: ` +
          `${sent[0]!.req.res.text.slice(0, 200)}`,
      );
    },
  );

  check('malformed Authorization headers are rejected and change nothing', ['AUTH-REQUIRED-MALFORMED'], async (t) => {
    await refuseCells(t, await ownedCells(t, 'AUTH-REQUIRED-MALFORMED'));
  });

  check(
    'credentials the server did not issue (unknown, or made from ours) are rejected and change nothing',
    ['AUTH-REQUIRED-WRONG', 'AUTH-REJECT-STATUS'],
    async (t) => {
      const sent = await refuseCells(t, await ownedCells(t, 'AUTH-REQUIRED-WRONG'));
      const statuses = [...new Set(sent.map((s) => s.req.res.status))];
      t.observe('AUTH-REJECT-STATUS', `wrong credentials: ${statuses.join(', ')}`);
    },
  );

  check(
    'a valid credential with the scheme in lower case or after two spaces opens every protected endpoint',
    ['AUTH-SCHEME-FORMS'],
    async (t) => {
      const plan = await ownedCells(t, 'AUTH-SCHEME-FORMS');
      const cells = sentCells(plan);
      if (cells.length === 0) {
        t.recordCells(notSentRecords(plan, 'opens'));
        t.skip(`no cell could be sent: ${notSentReasons(plan)}`);
      }
      const x = unchanged ?? (await authTargets(t));
      unchanged = undefined;
      // DELETE and the bulk check delete name ids that do not exist, so that every form can be tried: each must
      // answer as "Bearer <credential>" does. Elsewhere a form must answer 2xx; one that does not is compared with
      // "Bearer <credential>" too, and where that is refused as well, the form is not to blame (AUTH-TOKEN-OPENS and
      // AUTH-API-KEY-BEARER judge it).
      const canonical = new Map<string, ReceivedResponse>();
      const plainly = async (cell: CredentialCell, ids: 'real' | 'unknown') => {
        const key = `${cell.variation.from} ${cell.endpoint}`;
        if (!canonical.has(key)) {
          const plain = cell.variation.from === 'access-token' ? 'token' : 'api-key-bearer';
          canonical.set(key, (await sendTo(t, x, cell.endpoint, plain, ids)).res);
        }
        return canonical.get(key)!.status;
      };
      const records: CellRecord[] = [];
      const judged: ReceivedResponse[] = [];
      for (const { cell, auth } of cells) {
        const nowhere = cell.endpoint === 'delete' || cell.endpoint === 'bulk-checks';
        const { res, what } = await sendTo(t, x, cell.endpoint, auth, nowhere ? 'unknown' : 'real');
        const status = res.status;
        const plain = nowhere || !is2xx(status) ? await plainly(cell, nowhere ? 'unknown' : 'real') : undefined;
        if (plain !== undefined && !nowhere && !is2xx(plain)) {
          const why = `HTTP ${status}, and HTTP ${plain} with "Bearer <credential>"`;
          records.push(cellRecord(cell, 'opens', 'not-judged', { status, why }));
          continue;
        }
        const ok = nowhere ? status === plain : is2xx(status);
        const expected = nowhere ? `HTTP ${plain}, as with "Bearer <credential>"` : 'a 2xx';
        if (!ok) judged.push(res);
        const why = ok ? undefined : `${what}: expected ${expected}, got ${excerpt(res).slice(0, 200)}`;
        records.push(cellRecord(cell, 'opens', ok ? 'pass' : 'fail', { status, ...(why ? { why } : {}) }));
      }
      failCells(
        t,
        [...records, ...notSentRecords(plan, 'opens')],
        judged,
        'requests with a valid credential in another form of the scheme',
        'each answered as with "Bearer <credential>" (RFC 9110 §11.1, §11.4)',
      );
    },
  );

  check('a 401 carries WWW-Authenticate', ['AUTH-401-WWW-AUTHENTICATE'], async (t) => {
    // The refusals the checks above got; when they did not run (--only), two of its own.
    let answers = refusals.map((s) => s.req.res);
    if (answers.length === 0) {
      const c = await spareCase(t);
      const unknown = `Bearer ${randomBytes(32).toString('base64url')}`;
      answers = [
        await t.primary.api.patchCase(c.id, {}, { auth: 'none' }),
        await t.primary.api.patchCase(c.id, {}, { auth: { header: unknown } }),
      ];
    }
    const unauthorized = answers.filter((r) => r.status === 401);
    if (unauthorized.length === 0)
      t.skip(`the server rejected with ${[...new Set(answers.map((r) => r.status))].join(', ')}, not 401`);
    const bare = unauthorized.filter((r) => !r.headers['www-authenticate']);
    if (bare.length)
      fail(
        `${bare.length} of ${unauthorized.length} 401 answers to requests without valid credentials`,
        'a WWW-Authenticate header',
        'no WWW-Authenticate header',
        { judged: bare.slice(0, 1), expect: { header: { name: 'www-authenticate', contains: '' } } },
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
    const stated = statedSeconds(t, l);
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

  check(
    'an access token past its stated lifetime is refused and changes nothing',
    ['AUTH-TOKEN-EXPIRED'],
    async (t) => {
      const l = await tokenLife(t);
      const stated = statedSeconds(t, l);
      if (stated > MAX_WAIT_S)
        skipCells(
          t,
          'AUTH-TOKEN-EXPIRED',
          `the token's stated lifetime (${stated} s) is longer than a run waits to see one expire (${MAX_WAIT_S} s)`,
        );
      const wait = l.receivedAt + stated * 1000 + GRACE_MS - Date.now();
      if (wait > 0) await sleep(wait);
      await refuseCells(t, await ownedCells(t, 'AUTH-TOKEN-EXPIRED', l.token));
    },
  );

  check("a refusal for the credential shows none of the organisation's data", ['AUTH-REFUSAL-NO-DATA'], async (t) => {
    // The answers the refusal checks above got; when they did not run (--only), or on a re-run, its own.
    let judged = refusals;
    refusals = [];
    if (judged.length === 0) {
      const owners: RequirementId[] = ['AUTH-REQUIRED-MISSING', 'AUTH-REQUIRED-MALFORMED', 'AUTH-REQUIRED-WRONG'];
      const plan = (await Promise.all(owners.map((o) => ownedCells(t, o)))).flat();
      const x = unchanged ?? (await authTargets(t));
      unchanged = undefined;
      judged = await sendCells(t, x, plan);
    }
    const records: CellRecord[] = [];
    const shown: ReceivedResponse[] = [];
    for (const s of judged) {
      const status = s.req.res.status;
      if (is2xx(status)) {
        const why = 'the endpoint opened (AUTH-REQUIRED-* fail it)';
        records.push(cellRecord(s.cell, 'refusal-no-data', 'not-judged', { status, why }));
        continue;
      }
      try {
        expectNoPrivateData(s.req.res, s.tokens, s.req.what);
        records.push(cellRecord(s.cell, 'refusal-no-data', 'pass', { status }));
      } catch (err) {
        if (!(err instanceof ConformanceFailure)) throw err;
        shown.push(s.req.res);
        records.push(cellRecord(s.cell, 'refusal-no-data', 'fail', { status, why: err.detail.received ?? '' }));
      }
    }
    if (records.every((r) => r.result === 'not-judged'))
      t.skip('every request answered 2xx: AUTH-REQUIRED-* fail them');
    failCells(t, records, shown, 'refusals', "an answer showing none of the case's values");
  });
});
