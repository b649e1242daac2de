/**
 * The body as a whole (issue 33 §1), a dimension of the input matrix on every endpoint, in each media type it
 * takes: bodies that are not exactly one JSON object or one well-formed form, whitespace around the object, and the
 * bodies the interface and RFC 8259 leave open (src/spec/inputs/body.ts). Sent once (kit/inputs/body.ts, and
 * body-token.ts for the token endpoint) and judged per endpoint by each oracle's requirement; what a server chose
 * where the choice is open is recorded.
 */
import { describe } from 'vitest';
import { check, type CheckApi, getHarness } from '../src/kit/index.ts';
import type { BodyCell } from '../src/kit/inputs/body-cells.ts';
import { runBodyMatrix } from '../src/kit/inputs/body.ts';
import { runTokenBodies } from '../src/kit/inputs/body-token.ts';
import { judgeOracle } from '../src/kit/inputs/judge.ts';
import {
  BODY_CHOICES,
  BODY_ORACLE_NAMES,
  BODY_REQUIREMENTS,
  BODY_WAYS,
  type BodyOracle,
  bodyOracleText,
  bodyOwner,
  type BodyWay,
} from '../src/spec/inputs/body.ts';

let sent: Promise<BodyCell[]> | undefined;
/** The cells of the endpoints that change records, sent once for the file (a failed attempt is made again). */
function records(): Promise<BodyCell[]> {
  sent ??= runBodyMatrix(getHarness()).catch((err: unknown) => {
    sent = undefined;
    throw err;
  });
  return sent;
}

let tokenSent: Promise<BodyCell[]> | undefined;
/** The token endpoint's cells; a run without client credentials has no token request to send. */
function tokens(t: CheckApi): Promise<BodyCell[]> {
  const { clientId, clientSecret } = t.primary.credentials;
  if (!clientId || !clientSecret) t.skip('no client credentials configured (an API key alone has no token request)');
  tokenSent ??= runTokenBodies(getHarness().primary, { clientId: clientId!, secret: clientSecret! }).catch(
    (err: unknown) => {
      tokenSent = undefined;
      throw err;
    },
  );
  return tokenSent;
}

const ENDPOINTS: Record<BodyWay, string> = {
  patch: 'PATCH /api/cases/{id}/',
  'bulk-cases': 'POST /api/cases/bulk-update/',
  'bulk-customers': 'POST /api/customers/bulk-update/',
  'bulk-checks': 'POST /api/checks/bulk-delete/',
  token: 'POST /api/oauth/token/',
};

const cellsOf = async (t: CheckApi, way: BodyWay) =>
  (way === 'token' ? await tokens(t) : await records()).filter((c) => c.spec.field === way);

for (const way of BODY_WAYS) {
  describe(`the body as a whole: ${ENDPOINTS[way]}`, () => {
    const owners = new Map<string, BodyOracle[]>();
    for (const oracle of BODY_ORACLE_NAMES) {
      const owner = bodyOwner(way, oracle);
      if (owner) owners.set(owner, [...(owners.get(owner) ?? []), oracle]);
    }
    for (const [owner, oracles] of owners) {
      const title = owner === BODY_REQUIREMENTS[way] ? 'one JSON object, one value per key' : oracles.join(', ');
      check(`every body sent: ${title}`, [owner], async (t) => {
        const cells = await cellsOf(t, way);
        for (const o of oracles) judgeOracle(t, cells, o, owner, ENDPOINTS[way], bodyOracleText(o));
      });
    }
  });
}

describe('the body as a whole: what each endpoint chose where it may', () => {
  check('a byte-order mark, an empty body, a key or field given twice, deep nesting', [BODY_CHOICES], async (t) => {
    const { clientId, clientSecret } = t.primary.credentials;
    for (const way of BODY_WAYS.filter((w) => w !== 'token' || (clientId && clientSecret))) {
      const open = (await cellsOf(t, way)).filter((c) => c.took && ['open', 'one-of'].includes(c.spec.verdict));
      if (open.length)
        t.observe(
          BODY_CHOICES,
          `${ENDPOINTS[way]}: ${open.map((c) => `${c.spec.encoding} ${c.spec.kind} ${c.took}`).join('; ')}`,
        );
    }
  });
});
