/**
 * Authentication of the protected endpoints (interface § Authentication): the token and the
 * API key open them; missing, malformed and wrong credentials are rejected and change nothing.
 */
import { randomBytes } from 'node:crypto';
import { describe } from 'vitest';
import type { AuthMode } from '../src/client/api.ts';
import type { ReceivedResponse } from '../src/client/transport.ts';
import { HarnessError } from '../src/errors.ts';
import {
  anotherCase,
  check,
  checkIds,
  confirmedByRead,
  deepEqual,
  expectEqual,
  expectRejected,
  expectSuccess,
  fail,
  identityOf,
  isJsonObject,
  readCase,
  show,
  stableFields,
  stateBefore,
  type CaseBody,
  type CheckApi,
} from '../src/kit/index.ts';
import { type Id, isId } from '../src/spec/index.ts';

interface Attempt {
  what: string;
  res: ReceivedResponse;
}

/** What the protected requests act on: a case, its customer and check, and a case to delete. */
interface Targets {
  c: CaseBody;
  victim: CaseBody;
  customerId: Id;
  checkId: Id;
  /** The case as known before any request: as created (or read, `fromRead`), then as last read back unchanged. */
  before: CaseBody;
}

const HOOK = 'https://hooks.example.com/screenconf/auth';
const FULL_NAME = 'Screenconf Auth Changed';

/**
 * Two checks, so the bulk check delete takes one and the case keeps the other: "a case holds one or more checks"
 * (§ What the service does 2), and a server may refuse to delete a case's last one.
 */
const TWO_CHECKS = { checks: [{ check_type: 'PEP' as const }, { check_type: 'SANCTIONS' as const }] };

async function targets(t: CheckApi, fromRead = false): Promise<Targets> {
  const c = await t.primary.provision.createCase(TWO_CHECKS);
  const victim = await t.primary.provision.createCase();
  // The answer to a creation is the case's read representation (provisioning conventions).
  const before = await stateBefore(t.primary, c, fromRead);
  // The case is created with two checks; without one the bulk check delete could not be tried,
  // and leaving it out silently would judge four endpoints while claiming five.
  const checkId = (before.checks as { id?: unknown }[] | undefined)?.find((k) => isId(k?.id))?.id as Id | undefined;
  if (checkId === undefined)
    throw new HarnessError(
      'SC_TARGET_BROKEN',
      `provisioning: case ${c.id} was created with two checks but shows none, so POST /api/checks/bulk-delete/ ` +
        `cannot be tried`,
    );
  return { c, victim, customerId: (c.customer as { id: Id }).id, checkId, before };
}

/**
 * One state-changing request to each protected endpoint with the given credential: the same
 * requests, bodies and all, whether the credential must open them or be refused.
 */
async function sendToEveryEndpoint(t: CheckApi, x: Targets, auth: AuthMode, label: string): Promise<Attempt[]> {
  const api = t.primary.api;
  return [
    {
      what: `PATCH /api/cases/${x.c.id}/ ${label}`,
      res: await api.patchCase(x.c.id, { webhook_url: HOOK, delete_after: 7 }, { auth }),
    },
    { what: `DELETE /api/cases/${x.victim.id}/ ${label}`, res: await api.deleteCase(x.victim.id, { auth }) },
    {
      what: `POST /api/cases/bulk-update/ ${label}`,
      res: await api.bulkUpdateCases({ items: [{ id: x.c.id, metadata: { changed: true } }] }, { auth }),
    },
    {
      what: `POST /api/customers/bulk-update/ ${label}`,
      res: await api.bulkUpdateCustomers({ items: [{ id: x.customerId, full_name: FULL_NAME }] }, { auth }),
    },
    { what: `POST /api/checks/bulk-delete/ ${label}`, res: await api.bulkDeleteChecks({ ids: [x.checkId] }, { auth }) },
  ];
}

/**
 * The refused requests' targets, shared by every refusal in the file: once a refusal is shown to
 * have changed nothing (the case read back as before, the victim still there), the case as read
 * back is the next refusal's state before it. Taken away while a refusal is judged, so a refusal
 * that does not pass leaves the next one fresh targets.
 */
let unchanged: Targets | undefined;

/**
 * Sends the protected requests with each credential of a check, all of which must be refused; the
 * target case (its customer and its check with it) and the case to delete are read after the
 * check's last refusal, and any change fails the check. A change cannot be undone by a later
 * request of the check (each sends the same values, and a deletion stays), so one read after all
 * of them shows what any of them did; the failure names every credential it sent. Judged against
 * the case as created or last read, and when that fails, again on new targets read first
 * (confirmedByRead): a creation's answer may show the case otherwise than a read.
 */
async function tryEveryEndpoint(t: CheckApi, credentials: [AuthMode, string][]): Promise<Attempt[]> {
  let attempts: Attempt[] = [];
  await confirmedByRead(async (fromRead) => {
    attempts = await refuseAll(t, credentials, fromRead);
  });
  return attempts;
}

async function refuseAll(t: CheckApi, credentials: [AuthMode, string][], fromRead: boolean): Promise<Attempt[]> {
  const x = (fromRead ? undefined : unchanged) ?? (await targets(t, fromRead));
  unchanged = undefined;
  const attempts: Attempt[] = [];
  for (const [auth, label] of credentials) {
    const sent = await sendToEveryEndpoint(t, x, auth, label);
    for (const a of sent) expectRejected(a.res, a.what);
    attempts.push(...sent);
  }
  const labels = credentials.map(([, label]) => label).join('; ');
  const after = await readCase(t.primary, x.c.id, `reading case ${x.c.id} after the rejected requests`);
  expectEqual(
    stableFields(after),
    stableFields(x.before),
    `case ${x.c.id} after requests ${labels} (nothing may change)`,
    {
      judged: [after],
    },
  );
  await readCase(t.primary, x.victim.id, `case ${x.victim.id} still exists after DELETE ${labels}`);
  unchanged = { ...x, before: after };
  return attempts;
}

/**
 * Sends the same protected requests with a credential that must open them: each answers 2xx
 * and takes effect (read back with the run's own credential).
 */
async function openEveryEndpoint(t: CheckApi, auth: AuthMode, label: string): Promise<void> {
  const x = await targets(t);
  const attempts = await sendToEveryEndpoint(t, x, auth, label);
  for (const a of attempts) expectSuccess(a.res, a.what);
  t.primary.provision.forget(x.victim.id);
  const after = await readCase(t.primary, x.c.id, `reading case ${x.c.id} after the requests ${label}`);
  const problems: string[] = [];
  // delete_after is not among the always-present fields: judged where the read shows it.
  if ('delete_after' in after && after.delete_after !== 7)
    problems.push(`delete_after is ${show(after.delete_after)}, PATCH sent 7`);
  if ('metadata' in after && !deepEqual(after.metadata, { changed: true }))
    problems.push(`metadata is ${show(after.metadata)}, the bulk case update sent {"changed":true}`);
  const fullName = (after.customer as { full_name?: unknown } | undefined)?.full_name;
  if (!deepEqual(fullName, FULL_NAME))
    problems.push(`customer full_name is ${show(fullName)}, the bulk customer update sent ${show(FULL_NAME)}`);
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
 * The case the two checks that only PATCH {} with a credential send to (the Token scheme, the 401's
 * header): a PATCH {} changes nothing, and neither judges the case. Made once for the file.
 */
let spare: Promise<CaseBody> | undefined;
function spareCase(t: CheckApi): Promise<CaseBody> {
  spare ??= t.primary.provision.createCase().catch((err: unknown) => {
    spare = undefined;
    throw err;
  });
  return spare;
}

const MALFORMED: [string, string][] = [
  ['scheme without credential', 'Bearer'],
  ['empty credential', 'Bearer '],
  ['Basic scheme', `Basic ${Buffer.from('user:password').toString('base64')}`],
  ['two credentials', 'Bearer abc def'],
  ['credential without scheme', randomBytes(16).toString('hex')],
];

describe('authentication', () => {
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
      const attempts = await tryEveryEndpoint(t, [['none', 'without Authorization']]);
      t.observe(
        'AUTH-REJECT-STATUS',
        `missing credentials: ${[...new Set(attempts.map((a) => a.res.status))].join(', ')}; body: ` +
          `${attempts[0]!.res.text.slice(0, 200)}`,
      );
    },
  );

  check('malformed Authorization headers are rejected and change nothing', ['AUTH-REQUIRED-MALFORMED'], async (t) => {
    await tryEveryEndpoint(
      t,
      MALFORMED.map(([label, header]) => [{ header }, `with a malformed Authorization (${label})`]),
    );
  });

  check(
    'credentials the server did not issue are rejected and change nothing',
    ['AUTH-REQUIRED-WRONG', 'AUTH-REJECT-STATUS'],
    async (t) => {
      const bogus = randomBytes(32).toString('base64url');
      const attempts = await tryEveryEndpoint(t, [
        [{ header: `Bearer ${bogus}` }, 'with an unknown bearer token'],
        [{ header: `Token ${bogus}` }, 'with an unknown API key in the Token scheme'],
      ]);
      t.observe(
        'AUTH-REJECT-STATUS',
        `wrong credentials: ${[...new Set(attempts.map((a) => a.res.status))].join(', ')}`,
      );
    },
  );

  check('a 401 carries WWW-Authenticate', ['AUTH-401-WWW-AUTHENTICATE'], async (t) => {
    const c = await spareCase(t);
    const answers = [
      await t.primary.api.patchCase(c.id, {}, { auth: 'none' }),
      await t.primary.api.patchCase(c.id, {}, { auth: { header: `Bearer ${randomBytes(32).toString('base64url')}` } }),
    ];
    const unauthorized = answers.filter((r) => r.status === 401);
    if (unauthorized.length === 0)
      t.skip(`the server rejected with ${answers.map((r) => r.status).join(', ')}, not 401`);
    for (const r of unauthorized) {
      if (!r.headers['www-authenticate'])
        fail(
          '401 answer to PATCH without valid credentials',
          'a WWW-Authenticate header',
          'no WWW-Authenticate header',
          { judged: [r], expect: { header: { name: 'www-authenticate', contains: '' } } },
        );
    }
  });
});
