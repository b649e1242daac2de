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
  check,
  expectEqual,
  expectRejected,
  expectStatus,
  fail,
  readCase,
  stableFields,
  type CheckApi,
} from '../src/kit/index.ts';

interface Attempt {
  what: string;
  res: ReceivedResponse;
}

/**
 * Sends one state-changing request to each protected endpoint with the given credential and
 * returns the answers; the target case, its customer and its check are read before and after,
 * and any change fails the check.
 */
async function tryEveryEndpoint(t: CheckApi, auth: AuthMode, label: string): Promise<Attempt[]> {
  const api = t.primary.api;
  const c = await t.primary.provision.createCase();
  const victim = await t.primary.provision.createCase();
  const customerId = (c.customer as { id: number }).id;
  const before = await readCase(t.primary, c.id);
  // Every case is created with one check; without it the bulk check delete could not be tried,
  // and leaving it out silently would judge four endpoints while claiming five.
  const checkId = ((c.checks ?? before.checks) as { id?: unknown }[] | undefined)?.find((k) => Number.isInteger(k?.id))
    ?.id as number | undefined;
  if (checkId === undefined)
    throw new HarnessError(
      'SC_TARGET_BROKEN',
      `provisioning: case ${c.id} was created with one check but shows none, so POST /api/checks/bulk-delete/ ` +
        `cannot be tried`,
    );
  const attempts: Attempt[] = [
    {
      what: `PATCH /api/cases/${c.id}/ ${label}`,
      res: await api.patchCase(c.id, { webhook_url: 'https://attacker.example/hook', delete_after: 7 }, { auth }),
    },
    { what: `DELETE /api/cases/${victim.id}/ ${label}`, res: await api.deleteCase(victim.id, { auth }) },
    {
      what: `POST /api/cases/bulk-update/ ${label}`,
      res: await api.bulkUpdateCases({ items: [{ id: c.id, metadata: { changed: true } }] }, { auth }),
    },
    {
      what: `POST /api/customers/bulk-update/ ${label}`,
      res: await api.bulkUpdateCustomers({ items: [{ id: customerId, full_name: 'Changed Name' }] }, { auth }),
    },
    { what: `POST /api/checks/bulk-delete/ ${label}`, res: await api.bulkDeleteChecks({ ids: [checkId] }, { auth }) },
  ];
  for (const a of attempts) expectRejected(a.res, a.what);
  const after = await readCase(t.primary, c.id, `reading case ${c.id} after the rejected requests`);
  expectEqual(stableFields(after), stableFields(before), `case ${c.id} after requests ${label} (nothing may change)`, {
    judged: [after],
  });
  await readCase(t.primary, victim.id, `case ${victim.id} still exists after DELETE ${label}`);
  return attempts;
}

const MALFORMED: [string, string][] = [
  ['scheme without credential', 'Bearer'],
  ['empty credential', 'Bearer '],
  ['Basic scheme', `Basic ${Buffer.from('user:password').toString('base64')}`],
  ['two credentials', 'Bearer abc def'],
  ['credential without scheme', randomBytes(16).toString('hex')],
];

describe('authentication', () => {
  check('an access token opens the protected endpoints', ['AUTH-TOKEN-OPENS'], async (t) => {
    if (!t.primary.credentials.clientId) t.skip('no client credentials configured');
    const c = await t.primary.provision.createCase();
    const res = await t.primary.api.patchCase(c.id, {}, { auth: 'token' });
    expectStatus(res, 200, `PATCH /api/cases/${c.id}/ with the access token`);
    const bulk = await t.primary.api.bulkUpdateCases({ items: [{ id: c.id, delete_after: 3 }] }, { auth: 'token' });
    expectStatus(bulk, 200, 'POST /api/cases/bulk-update/ with the access token');
  });

  check('the API key as a Bearer credential opens the protected endpoints', ['AUTH-API-KEY-BEARER'], async (t) => {
    if (!t.primary.api.hasApiKey) t.skip('no API key configured (--api-key)');
    const c = await t.primary.provision.createCase();
    const res = await t.primary.api.patchCase(c.id, {}, { auth: 'api-key-bearer' });
    expectStatus(res, 200, `PATCH /api/cases/${c.id}/ with Authorization: Bearer <API key>`);
  });

  check('the API key in the Token scheme', ['AUTH-API-KEY-TOKEN-SCHEME'], async (t) => {
    if (!t.primary.api.hasApiKey) t.skip('no API key configured (--api-key)');
    const c = await t.primary.provision.createCase();
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
      const attempts = await tryEveryEndpoint(t, 'none', 'without Authorization');
      t.observe(
        'AUTH-REJECT-STATUS',
        `missing credentials: ${[...new Set(attempts.map((a) => a.res.status))].join(', ')}; body: ` +
          `${attempts[0]!.res.text.slice(0, 200)}`,
      );
    },
  );

  check('malformed Authorization headers are rejected and change nothing', ['AUTH-REQUIRED-MALFORMED'], async (t) => {
    for (const [label, header] of MALFORMED)
      await tryEveryEndpoint(t, { header }, `with a malformed Authorization (${label})`);
  });

  check(
    'credentials the server did not issue are rejected and change nothing',
    ['AUTH-REQUIRED-WRONG', 'AUTH-REJECT-STATUS'],
    async (t) => {
      const bogus = randomBytes(32).toString('base64url');
      const attempts = [
        ...(await tryEveryEndpoint(t, { header: `Bearer ${bogus}` }, 'with an unknown bearer token')),
        ...(await tryEveryEndpoint(t, { header: `Token ${bogus}` }, 'with an unknown API key in the Token scheme')),
      ];
      t.observe(
        'AUTH-REJECT-STATUS',
        `wrong credentials: ${[...new Set(attempts.map((a) => a.res.status))].join(', ')}`,
      );
    },
  );

  check('a 401 carries WWW-Authenticate', ['AUTH-401-WWW-AUTHENTICATE'], async (t) => {
    const c = await t.primary.provision.createCase();
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
