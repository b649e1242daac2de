/**
 * Authentication, the credentials a server must refuse (interface § Authentication): missing, malformed, never
 * issued (unknown, or made from ours: near misses) and expired ones are refused, change nothing and show none of the
 * organisation's data; a valid one in another spelling of the scheme opens. The credentials sent are the credential
 * dimension of the input matrix (spec/credential-matrix.ts: credentialCells), crossed with every protected
 * endpoint; each check sends the cells its requirement owns, on targets all the refusals of the file share, read back
 * once per group, and gives each cell a verdict (kit/credential-cells.ts CellRecord).
 *
 * A target with brute-force protection may lock out a client that sends so many: this file runs after every other
 * suite file, alone (runner/phases.ts), so a lockout meets no other check; the requests go through a guard
 * (kit/lockout.ts) that sees a lockout by the run's own credential, waits it out and sends again what it answered,
 * and the last check records every lockout (AUTH-LOCKOUT). --credential-guesses thins the near misses
 * (spec/credential-matrix.ts thinCells).
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe } from 'vitest';
import type { ReceivedResponse } from '../src/client/transport.ts';
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
  type AuthTargets,
  authTargets,
  type CellRecord,
  cellRecord,
  effectShown,
  type EndpointRequest,
  notSentRecords,
  type PlannedCell,
  sendTo,
  sentCells,
} from '../src/kit/credential-cells.ts';
import {
  check,
  ConformanceFailure,
  confirmedByRead,
  deepEqual,
  excerpt,
  expectNoPrivateData,
  fail,
  readCase,
  show,
  stableFields,
  type CheckApi,
} from '../src/kit/index.ts';
import { type Guarded, LockoutGuard, ownCredentialProbe } from '../src/kit/lockout.ts';
import { type CredentialCell, thinCells } from '../src/spec/credential-matrix.ts';
import type { RequirementId } from '../src/spec/index.ts';

/** A cell as sent, with the private values of the case its request named or acted on. */
interface Sent {
  cell: CredentialCell;
  req: EndpointRequest;
  tokens: [string, string][];
}

const spareCase = spareCaseOf();

/** The guard every request of the file that a server may refuse for its credential goes through (kit/lockout.ts). */
let guard: Promise<LockoutGuard> | undefined;
function guardOf(t: CheckApi): Promise<LockoutGuard> {
  guard ??= (async () => {
    const spare = await spareCase(t);
    // Probed once before any cell: whether GET of a case answers is known before the cells are planned (a GET cell
    // is sent only where it does), and a lockout left by what ran before is waited out first.
    const g = new LockoutGuard(ownCredentialProbe(t, spare.id));
    await g.open();
    return g;
  })().catch((err: unknown) => {
    guard = undefined;
    throw err;
  });
  return guard;
}

/** The requirements whose cells carry credentials a server must refuse: the near misses --credential-guesses thins. */
const REFUSALS: readonly RequirementId[] = [
  'AUTH-REQUIRED-MISSING',
  'AUTH-REQUIRED-MALFORMED',
  'AUTH-REQUIRED-WRONG',
  'AUTH-CREDENTIAL-TRAILING-TEXT',
  'AUTH-TOKEN-EXPIRED',
];

/** The near misses --credential-guesses keeps (every one without it): chosen once for the file, over all of them. */
let kept: Promise<{ ids: Set<string>; of: number; budget: number } | undefined> | undefined;
function keptCells(t: CheckApi) {
  const budget = t.run.credentialGuesses;
  kept ??= (async () => {
    if (budget === undefined) return undefined;
    await guardOf(t);
    const planned = sentCells((await Promise.all(REFUSALS.map((o) => ownedCells(t, o)))).flat()).map((p) => p.cell);
    return { ids: new Set(thinCells(planned, budget).map((c) => c.id)), of: planned.length, budget };
  })();
  return kept;
}

/** The cells of the variations a requirement owns as this run sends them: thinned by --credential-guesses. */
async function guessCells(t: CheckApi, owner: RequirementId, value?: string): Promise<PlannedCell[]> {
  await guardOf(t);
  const plan = await ownedCells(t, owner, value);
  const k = REFUSALS.includes(owner) ? await keptCells(t) : undefined;
  if (!k) return plan;
  const why = `thinned: --credential-guesses ${k.budget} sends ${k.ids.size} of the ${k.of} near misses`;
  return plan.map((p) => ('auth' in p && !k.ids.has(p.cell.id) ? { cell: p.cell, notSent: why } : p));
}

/**
 * Sends each planned cell once, in order, through the guard; the cells whose answers came while the run's own
 * credential opened, and the records of those a lockout kept from one (not judged, with why).
 */
async function sendCells(
  t: CheckApi,
  x: AuthTargets,
  plan: readonly PlannedCell[],
  oracle: 'refused-unchanged' | 'opens',
): Promise<{ sent: Sent[]; lockedOut: CellRecord[] }> {
  const cells = sentCells(plan);
  const g = await guardOf(t);
  const answers: Guarded<EndpointRequest>[] = await g.sendAll(cells, ({ cell, auth }) =>
    sendTo(t, x, cell.endpoint, auth),
  );
  const sent: Sent[] = [];
  const lockedOut: CellRecord[] = [];
  answers.forEach((a, i) => {
    const { cell } = cells[i]!;
    if ('notJudged' in a) lockedOut.push(cellRecord(cell, oracle, 'not-judged', { why: a.notJudged }));
    else
      sent.push({
        cell,
        req: { ...a.sent, what: `${a.sent.what} with ${cell.variation.description}` },
        tokens: x.tokens,
      });
  });
  return { sent, lockedOut };
}

const refused = (s: Sent) => s.req.res.status >= 400 && s.req.res.status <= 499;

/**
 * The refused requests' targets, shared by every refusal in the file, one set per organisation whose records the
 * requests name (ours; the peer's for a credential claiming the peer): once a refusal is shown to have changed
 * nothing (the case read back as before, the victim still there), the case as read back is the next refusal's state
 * before it. Taken away while a refusal is judged, so a refusal that does not pass leaves the next one fresh targets.
 */
const unchanged: Partial<Record<Records, AuthTargets>> = {};

/** Whose records a cell's request names. */
type Records = 'ours' | 'peer';
const recordsOf = (p: PlannedCell): Records => p.cell.variation.records ?? 'ours';

/** The shared targets of `records` (taken), or new ones (read first, `fromRead`). */
async function targetsOf(t: CheckApi, records: Records, fromRead = false): Promise<AuthTargets> {
  const kept = fromRead ? undefined : unchanged[records];
  delete unchanged[records];
  // A peer's group is planned only where a peer is configured (kit/credential-cells.ts planCells).
  return kept ?? (await authTargets(t, fromRead, records === 'peer' ? t.peer! : t.primary));
}

/** A plan's cells by whose records they name, those of ours first; only the groups with a cell to send. */
function byRecords(plan: readonly PlannedCell[]): [Records, PlannedCell[]][] {
  return (['ours', 'peer'] as const)
    .map((r): [Records, PlannedCell[]] => [r, plan.filter((p) => recordsOf(p) === r)])
    .filter(([, cells]) => sentCells(cells).length > 0);
}

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

/** Why a plan's cells are not sent: each reason once, with the variations it keeps back. */
function notSentReasons(plan: readonly PlannedCell[]): string {
  const reasons = new Map<string, Set<string>>();
  for (const p of plan)
    if ('notSent' in p) reasons.set(p.notSent, (reasons.get(p.notSent) ?? new Set()).add(p.cell.variation.name));
  return [...reasons].map(([why, names]) => `${why} (${[...names].join(', ')})`).join('; ');
}

/** Skips a check whose requirement's cells a lockout keeps from being sent: the target still locks the run out. */
async function unlessLockedOut(t: CheckApi, owner: RequirementId): Promise<void> {
  const g = await guardOf(t);
  if (!(await g.open())) skipCells(t, owner, `not judged: ${g.stuck}`);
}

/**
 * Sends the cells of a plan, each of which must be refused: every answer a 4xx, and the target case (its customer
 * and its check with it) and the case to delete read once after the last; a cell whose own value the read shows,
 * or a deletion, took effect. A change cannot be undone by a later request (each sends values of its own, and a
 * deletion stays), so one read after all of them shows what any of them did. A change no cell's value explains is
 * judged again on new targets read first (confirmedByRead): a creation's answer may show the case otherwise than a
 * read.
 */
async function refuseCells(t: CheckApi, owner: RequirementId, plan: readonly PlannedCell[]): Promise<Sent[]> {
  if (sentCells(plan).length === 0) {
    t.recordCells(notSentRecords(plan, 'refused-unchanged'));
    t.skip(`no cell could be sent: ${notSentReasons(plan)}`);
  }
  await unlessLockedOut(t, owner);
  let judged: { sent: Sent[]; records: CellRecord[]; read: unknown[] } = { sent: [], records: [], read: [] };
  await confirmedByRead(async (fromRead) => {
    judged = await refuseAll(t, owner, plan, fromRead);
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
  owner: RequirementId,
  plan: readonly PlannedCell[],
  fromRead: boolean,
): Promise<{ sent: Sent[]; records: CellRecord[]; read: unknown[] }> {
  const all: { sent: Sent[]; records: CellRecord[]; read: unknown[] } = { sent: [], records: [], read: [] };
  for (const [records, cells] of byRecords(plan)) {
    const judged = await refuseGroup(t, owner, cells, await targetsOf(t, records, fromRead), records);
    all.sent.push(...judged.sent);
    all.records.push(...judged.records);
    all.read.push(...judged.read);
  }
  return all;
}

/** Sends the cells that name one organisation's records, and judges them by those records read back. */
async function refuseGroup(
  t: CheckApi,
  owner: RequirementId,
  plan: readonly PlannedCell[],
  x: AuthTargets,
  records: Records,
): Promise<{ sent: Sent[]; records: CellRecord[]; read: unknown[] }> {
  const { sent, lockedOut } = await sendCells(t, x, plan, 'refused-unchanged');
  refusals.push(...sent);
  // Still locked out: what the requests did cannot be read back.
  const g = await guardOf(t);
  if (g.stuck) skipCells(t, owner, `not judged: ${g.stuck}`);
  const whose = records === 'peer' ? "the peer organisation's case" : 'case';
  const after = await readCase(x.org, x.c.id, `reading ${whose} ${x.c.id} after the rejected requests`);
  const victim = await x.org.provision.readCase(x.victim.id);
  const victimGone = victim.status !== 200;
  // A deletion names no cell: it is the doing of a cell of its endpoint that opened it, or else of any of them.
  const opened = new Set(sent.filter((s) => !refused(s)).map((s) => s.cell.endpoint));
  const suspects = (e: string) => sent.filter((s) => s.cell.endpoint === e).length;
  const cellRecords = sent.map((s) => {
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
  const explained = cellRecords.some((r) => r.result === 'fail');
  if (!explained && !deepEqual(stableFields(after), stableFields(x.before)))
    fail(
      `${whose} ${x.c.id} read back after ${sent.length} rejected requests`,
      'nothing changed',
      `${show(stableFields(after))}, was ${show(stableFields(x.before))}`,
      { judged: [after, victim] },
    );
  if (!explained) unchanged[records] = { ...x, before: after };
  return { sent, records: [...cellRecords, ...lockedOut], read: [after, victim] };
}

const is2xx = (status: number) => status >= 200 && status <= 299;

describe('authentication: credentials the server must refuse (after every other suite)', () => {
  check(
    'requests without an Authorization header are rejected and change nothing',
    ['AUTH-REQUIRED-MISSING', 'AUTH-REJECT-STATUS'],
    async (t) => {
      const sent = await refuseCells(t, 'AUTH-REQUIRED-MISSING', await guessCells(t, 'AUTH-REQUIRED-MISSING'));
      if (sent.length)
        t.observe(
          'AUTH-REJECT-STATUS',
          `missing credentials: ${[...new Set(sent.map((s) => s.req.res.status))].join(', ')}; body: ` +
            `${sent[0]!.req.res.text.slice(0, 200)}`,
        );
    },
  );

  check('malformed Authorization headers are rejected and change nothing', ['AUTH-REQUIRED-MALFORMED'], async (t) => {
    await refuseCells(t, 'AUTH-REQUIRED-MALFORMED', await guessCells(t, 'AUTH-REQUIRED-MALFORMED'));
  });

  check(
    'credentials the server did not issue (unknown, or made from ours) are rejected and change nothing',
    ['AUTH-REQUIRED-WRONG', 'AUTH-REJECT-STATUS'],
    async (t) => {
      const sent = await refuseCells(t, 'AUTH-REQUIRED-WRONG', await guessCells(t, 'AUTH-REQUIRED-WRONG'));
      const statuses = [...new Set(sent.map((s) => s.req.res.status))];
      if (statuses.length) t.observe('AUTH-REJECT-STATUS', `wrong credentials: ${statuses.join(', ')}`);
    },
  );

  check(
    'a valid credential followed by more text ("Bearer <credential> x") is rejected and changes nothing',
    ['AUTH-CREDENTIAL-TRAILING-TEXT'],
    async (t) => {
      await refuseCells(t, 'AUTH-CREDENTIAL-TRAILING-TEXT', await guessCells(t, 'AUTH-CREDENTIAL-TRAILING-TEXT'));
    },
  );

  check(
    'a valid credential with the scheme in lower case or after two spaces opens every protected endpoint',
    ['AUTH-SCHEME-FORMS'],
    async (t) => {
      const plan = await guessCells(t, 'AUTH-SCHEME-FORMS');
      const cells = sentCells(plan);
      if (cells.length === 0) {
        t.recordCells(notSentRecords(plan, 'opens'));
        t.skip(`no cell could be sent: ${notSentReasons(plan)}`);
      }
      await unlessLockedOut(t, 'AUTH-SCHEME-FORMS');
      const x = await targetsOf(t, 'ours');
      // DELETE and the bulk check delete name ids that do not exist, so that every form can be tried: each must
      // answer as "Bearer <credential>" does. Elsewhere a form must answer 2xx; one that does not is compared with
      // "Bearer <credential>" too, and where that is refused as well, the form is not to blame (AUTH-TOKEN-OPENS and
      // AUTH-API-KEY-BEARER judge it). A server may refuse a spelling it does not take: the requests go through the
      // guard, each with the plain one it is compared with.
      const g = await guardOf(t);
      // Each plain answer is kept for the forms after it, until a lockout (it may have answered one).
      const canonical = new Map<string, { status: number; lockouts: number }>();
      const plainly = async (cell: CredentialCell, ids: 'real' | 'unknown') => {
        const key = `${cell.variation.from} ${cell.endpoint}`;
        if (canonical.get(key)?.lockouts !== g.lockouts.length) {
          const plain = cell.variation.from === 'access-token' ? 'token' : 'api-key-bearer';
          const { status } = (await sendTo(t, x, cell.endpoint, plain, ids)).res;
          canonical.set(key, { status, lockouts: g.lockouts.length });
        }
        return canonical.get(key)!.status;
      };
      const answers = await g.sendAll(cells, async ({ cell, auth }) => {
        const nowhere = cell.endpoint === 'delete' || cell.endpoint === 'bulk-checks';
        const { res, what } = await sendTo(t, x, cell.endpoint, auth, nowhere ? 'unknown' : 'real');
        const plain = nowhere || !is2xx(res.status) ? await plainly(cell, nowhere ? 'unknown' : 'real') : undefined;
        return { res, what, nowhere, plain };
      });
      const records: CellRecord[] = [];
      const judged: ReceivedResponse[] = [];
      for (const [i, a] of answers.entries()) {
        const { cell } = cells[i]!;
        if ('notJudged' in a) {
          records.push(cellRecord(cell, 'opens', 'not-judged', { why: a.notJudged }));
          continue;
        }
        const { res, what, nowhere, plain } = a.sent;
        const status = res.status;
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
      if (t.run.credentialGuesses === 0)
        t.skip('no request with a credential to refuse is sent (--credential-guesses 0)');
      await unlessLockedOut(t, 'AUTH-401-WWW-AUTHENTICATE');
      const c = await spareCase(t);
      const unknown = `Bearer ${randomBytes(32).toString('base64url')}`;
      const g = await guardOf(t);
      const own = await g.sendAll(['none' as const, { header: unknown }], (auth) =>
        t.primary.api.patchCase(c.id, {}, { auth }),
      );
      answers = own.flatMap((a) => ('sent' in a ? [a.sent] : []));
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

  check(
    'an access token past its stated lifetime is refused and changes nothing',
    ['AUTH-TOKEN-EXPIRED'],
    async (t) => {
      await unlessLockedOut(t, 'AUTH-TOKEN-EXPIRED');
      const token = await newToken(t);
      const stated = statedSeconds(t, token.expiresIn);
      if (stated > MAX_WAIT_S)
        skipCells(
          t,
          'AUTH-TOKEN-EXPIRED',
          `the token's stated lifetime (${stated} s) is longer than a run waits to see one expire (${MAX_WAIT_S} s)`,
        );
      const wait = token.receivedAt + stated * 1000 + GRACE_MS - Date.now();
      if (wait > 0) await sleep(wait);
      await refuseCells(t, 'AUTH-TOKEN-EXPIRED', await guessCells(t, 'AUTH-TOKEN-EXPIRED', token.token));
    },
  );

  check("a refusal for the credential shows none of the organisation's data", ['AUTH-REFUSAL-NO-DATA'], async (t) => {
    // The answers the refusal checks above got; when they did not run (--only), or on a re-run, its own.
    const judged = refusals;
    refusals = [];
    if (judged.length === 0) {
      await unlessLockedOut(t, 'AUTH-REFUSAL-NO-DATA');
      const owners: RequirementId[] = [
        'AUTH-REQUIRED-MISSING',
        'AUTH-REQUIRED-MALFORMED',
        'AUTH-REQUIRED-WRONG',
        'AUTH-CREDENTIAL-TRAILING-TEXT',
      ];
      const plan = (await Promise.all(owners.map((o) => guessCells(t, o)))).flat();
      if (sentCells(plan).length === 0) t.skip(`no cell could be sent: ${notSentReasons(plan)}`);
      for (const [records, cells] of byRecords(plan))
        judged.push(...(await sendCells(t, await targetsOf(t, records), cells, 'refused-unchanged')).sent);
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

  check('whether the target locked the run out after the near misses', ['AUTH-LOCKOUT'], async (t) => {
    if (!guard) t.skip('no request with a credential to refuse was sent in this run');
    const g = await guardOf(t);
    // The run's own credential opens again before the file's cleanup, the sweep and a next round.
    await g.open();
    t.observe('AUTH-LOCKOUT', g.describe());
  });
});
