/**
 * The cells of the credential matrix (spec/credential-matrix.ts) as a check sends them: each with the Authorization
 * it carries, made from the credentials the run holds now, or why it is not sent (the plan); the targets they act on
 * (a case whose values hold random tokens, its customer and check, a case to delete: one set shared by the cells of a
 * check, read back once after them); the request each sends; and each cell's verdict per oracle, as the report's
 * matrix records it.
 */
import { randomBytes } from 'node:crypto';
import type { AuthMode } from '../client/api.ts';
import type { ReceivedResponse } from '../client/transport.ts';
import { HarnessError } from '../errors.ts';
import type { MatrixCellRecord } from '../results/outcome.ts';
import {
  type CredentialBase,
  type CredentialCell,
  type CredentialVariation,
  jwtParts,
  type Oracle,
  ORACLE_VERDICTS,
  type ProtectedEndpoint,
  type VariationContext,
} from '../spec/credential-matrix.ts';
import { type Id, isId } from '../spec/index.ts';
import { deepEqual } from './assert.ts';
import { type CaseBody, checkIds, show, stateBefore } from './cases.ts';
import type { Harness, Organisation } from './context.ts';
import { unknownId } from './bulk.ts';
import { privateCase } from './private-case.ts';

export type PlannedCell = { cell: CredentialCell; auth: AuthMode } | { cell: CredentialCell; notSent: string };

const WORDS: Record<CredentialBase, string> = { 'access-token': 'access token', 'api-key': 'API key' };

async function credentialOf(t: Harness, base: CredentialBase, peer: boolean): Promise<string | undefined> {
  const org = peer ? t.peer : t.primary;
  if (!org) return undefined;
  return base === 'access-token' ? org.api.accessToken() : org.credentials.apiKey;
}

/** A variation's Authorization, or why it cannot be made. */
async function authorizationOf(
  t: Harness,
  v: CredentialVariation,
  random: string,
  value: string | undefined,
): Promise<{ auth: AuthMode } | { notSent: string }> {
  const own = v.from === undefined ? '' : (value ?? (await credentialOf(t, v.from, false)));
  if (own === undefined) return { notSent: `no ${WORDS[v.from!]} is configured` };
  const context: VariationContext = { random };
  // The peer's credential and our client secret only where a variation may splice or sign with them: a JWT.
  if (v.from !== undefined && jwtParts(own)) {
    context.peer = await credentialOf(t, v.from, true);
    context.clientSecret = t.primary.credentials.clientSecret;
  }
  const header = v.header(own, context);
  if (header === undefined) return { auth: 'none' };
  if (typeof header !== 'string') return { notSent: header.notApplicable };
  // A credential that must open is written from the one the request goes out with (a token renewed when it was
  // revoked or expired meanwhile), unless the cell is about that one token.
  if (v.from !== undefined && v.expect === 'opens' && value === undefined)
    return {
      auth: {
        credential: v.from === 'access-token' ? 'token' : 'api-key',
        form: (c) => {
          const written = v.header(c, context);
          if (typeof written !== 'string') throw new HarnessError('SC_HARNESS', `${v.name} cannot be written`);
          return written;
        },
      },
    };
  // Made from a secret, it nearly is one: an answer that echoes it must not put it in a report.
  if (v.from !== undefined && !v.shown) t.redactor.add(header.replace(/^\S+\s+/, ''));
  return { auth: { header } };
}

/**
 * Each cell with the Authorization it sends, or why it is not sent: its credential is not configured or not of
 * the form the variation needs, or it is a GET of a case and the target has not answered one (`getAnswers`).
 * `value` is the credential timed variations are made from (a token the check got for them).
 */
export async function planCells(
  t: Harness,
  cells: readonly CredentialCell[],
  options: { value?: string } = {},
): Promise<PlannedCell[]> {
  const random = randomBytes(32).toString('base64url');
  const made = new Map<CredentialVariation, Awaited<ReturnType<typeof authorizationOf>>>();
  const planned: PlannedCell[] = [];
  for (const cell of cells) {
    if (!made.has(cell.variation))
      made.set(cell.variation, await authorizationOf(t, cell.variation, random, options.value));
    const how = made.get(cell.variation)!;
    if (cell.endpoint === 'read' && t.primary.provision.getAnswers !== true)
      planned.push({ cell, notSent: 'the target does not answer GET of a case (not in the interface)' });
    else if (cell.variation.records === 'peer' && !t.peer)
      planned.push({ cell, notSent: 'no peer organisation is configured (give --peer-client-id) to own its records' });
    else planned.push({ cell, ...how });
  }
  return planned;
}

/** The cells a plan sends. */
export function sentCells(plan: readonly PlannedCell[]): { cell: CredentialCell; auth: AuthMode }[] {
  return plan.filter((p): p is { cell: CredentialCell; auth: AuthMode } => 'auth' in p);
}

/** What the protected requests act on: a case whose values hold random tokens, its customer, its check, a victim. */
export interface AuthTargets {
  /** The organisation whose records they are (ours, or the peer's for a credential claiming the peer). */
  org: Organisation;
  c: CaseBody;
  victim: CaseBody;
  customerId: Id;
  checkId: Id;
  /** The case as known before any request: as created (or read, `fromRead`), then as last read back unchanged. */
  before: CaseBody;
  /** The case's values, each holding a random token (kit/private-case.ts). */
  tokens: [string, string][];
}

/**
 * New targets. The case is read first (not taken as its creation answered it) when `fromRead`, or while it is not
 * yet known whether the target answers GET of a case: the GET cells are sent only where it does.
 */
/**
 * Two checks, so the bulk check delete takes one and the case keeps the other: "a case holds one or more checks"
 * (§ What the service does 2), and a server may refuse to delete a case's last one.
 */
const TWO_CHECKS = { checks: [{ check_type: 'PEP' as const }, { check_type: 'SANCTIONS' as const }] };

export async function authTargets(t: Harness, fromRead = false, org: Organisation = t.primary): Promise<AuthTargets> {
  const { case: c, tokens } = await privateCase(org, TWO_CHECKS);
  const victim = await org.provision.createCase();
  const before = await stateBefore(org, c, fromRead || org.provision.getAnswers === undefined);
  // The case is created with two checks; without one the bulk check delete could not be tried,
  // and leaving it out silently would judge four endpoints while claiming five.
  const checkId = (before.checks as { id?: unknown }[] | undefined)?.find((k) => isId(k?.id))?.id as Id | undefined;
  if (checkId === undefined)
    throw new HarnessError(
      'SC_TARGET_BROKEN',
      `provisioning: case ${c.id} was created with two checks but shows none, so POST /api/checks/bulk-delete/ ` +
        `cannot be tried`,
    );
  return { org, c, victim, customerId: (c.customer as { id: Id }).id, checkId, before, tokens };
}

const HOOK = 'https://hooks.example.com/screenconf/auth';
const FULL_NAME = 'Screenconf Auth Changed';

/** The values the n-th request of a worker sends: no two requests send the same, so a read tells which took effect. */
export const valuesOf = (n: number) => ({
  delete_after: 1000 + n,
  metadata: { screenconf_cell: n },
  full_name: `${FULL_NAME} ${n}`,
});
/** How many requests each run's harness has sent through the cells (a warm worker serves several runs). */
const sequences = new WeakMap<Harness, number>();

/** A request as sent to one endpoint: its answer, what it was, and the values it sent (valuesOf(n)). */
export interface EndpointRequest {
  res: ReceivedResponse;
  what: string;
  n: number;
}

/**
 * The request a cell sends to an endpoint, the same whether its credential must open it or be refused. `ids`
 * 'unknown' names records that do not exist, for requests that must open without changing anything (DELETE, the
 * bulk check delete).
 */
export async function sendTo(
  t: Harness,
  x: AuthTargets,
  endpoint: ProtectedEndpoint,
  auth: AuthMode,
  ids: 'real' | 'unknown' = 'real',
): Promise<EndpointRequest> {
  const api = t.primary.api;
  const n = (sequences.get(t) ?? 0) + 1;
  sequences.set(t, n);
  const v = valuesOf(n);
  const victim = ids === 'real' ? x.victim.id : unknownId();
  const check = ids === 'real' ? x.checkId : unknownId();
  const sent = async (what: string, res: Promise<ReceivedResponse>) => ({ what, res: await res, n });
  switch (endpoint) {
    case 'patch':
      return sent(
        `PATCH /api/cases/${x.c.id}/`,
        api.patchCase(x.c.id, { webhook_url: HOOK, delete_after: v.delete_after }, { auth }),
      );
    case 'delete':
      return sent(`DELETE /api/cases/${victim}/`, api.deleteCase(victim, { auth }));
    case 'bulk-cases':
      return sent(
        'POST /api/cases/bulk-update/',
        api.bulkUpdateCases({ items: [{ id: x.c.id, metadata: v.metadata }] }, { auth }),
      );
    case 'bulk-customers':
      return sent(
        'POST /api/customers/bulk-update/',
        api.bulkUpdateCustomers({ items: [{ id: x.customerId, full_name: v.full_name }] }, { auth }),
      );
    case 'bulk-checks':
      return sent(
        `POST /api/checks/bulk-delete/ {"ids": [${check}]}`,
        api.bulkDeleteChecks({ ids: [check] }, { auth }),
      );
    case 'read':
      return sent(`GET /api/cases/${x.c.id}/`, t.primary.provision.getCase(x.c.id, auth));
  }
}

/**
 * What a read back shows a request of an endpoint did, by the values only that request sent, or by what is gone
 * (a deletion); undefined when it shows nothing of it.
 */
export function effectShown(
  after: CaseBody,
  x: AuthTargets,
  endpoint: ProtectedEndpoint,
  n: number,
  victimGone: boolean,
): string | undefined {
  const v = valuesOf(n);
  switch (endpoint) {
    case 'patch':
      return after.delete_after === v.delete_after ? `delete_after ${v.delete_after}` : undefined;
    case 'bulk-cases':
      return deepEqual(after.metadata, v.metadata) ? `metadata ${show(v.metadata)}` : undefined;
    case 'bulk-customers': {
      const fullName = (after.customer as { full_name?: unknown } | undefined)?.full_name;
      return fullName === v.full_name ? `customer full_name ${show(v.full_name)}` : undefined;
    }
    case 'delete':
      return victimGone ? `case ${x.victim.id} deleted` : undefined;
    case 'bulk-checks':
      return checkIds(after).includes(x.checkId) ? undefined : `check ${x.checkId} deleted`;
    case 'read':
      return undefined;
  }
}

/** One oracle's verdict on one cell, as a check records it for the report (checks[].cells). */
export type CellRecord = MatrixCellRecord & { oracle: Oracle };

/** A cell's record under one of its oracles. */
export function cellRecord(
  cell: CredentialCell,
  oracle: Oracle,
  result: CellRecord['result'],
  detail: { status?: number; why?: string } = {},
): CellRecord {
  const judged = cell.judgedBy.find((j) => j.oracle === oracle);
  if (!judged) throw new HarnessError('SC_HARNESS', `${cell.id} is not judged by ${oracle}`);
  return {
    cell: cell.id,
    oracle,
    requirement: judged.requirement,
    verdict: ORACLE_VERDICTS[oracle],
    result,
    ...detail,
  };
}

/** The records of the cells a plan did not send, under an oracle, with why. */
export function notSentRecords(plan: readonly PlannedCell[], oracle: Oracle): CellRecord[] {
  return plan.flatMap((p) => ('notSent' in p ? [cellRecord(p.cell, oracle, 'not-judged', { why: p.notSent })] : []));
}
