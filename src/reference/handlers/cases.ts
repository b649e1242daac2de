/**
 * One case: PATCH and DELETE /api/cases/{id}/ (interface § Endpoints), and the provisioning
 * conventions GET /api/cases/{id}/ and POST /api/cases/{id}/start/ (docs/architecture.md).
 */
import type { IncomingMessage } from 'node:http';
import { idFromText } from '../../spec/index.ts';
import { type Answer, HttpError } from '../http.ts';
import type { CaseRecord } from '../store.ts';
import { authenticate } from './auth.ts';
import { CASE_KEYS, otherKeysOf, readOnlyFieldsOf } from './case-write.ts';
import { readApiBody } from './content.ts';
import { startProcessing } from './processing.ts';
import type { CasePoints, Env, Op } from '../points.ts';

/** The correct case endpoints: GET reads; DELETE removes the case, its checks and an unused customer, 204. */
export function caseDefaults(env: Env): CasePoints {
  const { store } = env;
  return {
    caseId(idText) {
      const id = /^\d{1,40}$/.test(idText) ? idFromText(idText) : undefined;
      if (id === undefined) throw new HttpError(404, 'not_found', 'case id must be an integer');
      return id;
    },
    caseMethods: ['GET', 'PATCH', 'DELETE'],
    readCase: (org, id) => ({ status: 200, body: env.b.caseView(env.b.findCase(org, id, 'read')) }),
    deleteCase(c) {
      for (const check of store.checksOfCase(c.org, c.id)) store.deleteCheck(c.org, check.id);
      c.generation += 1; // stops processing in flight
      store.deleteCase(c.org, c.id);
      env.b.customerOrphaned(c.org, c.customerId);
    },
    customerOrphaned(org, customerId) {
      if (!store.customerInUse(org, customerId)) store.deleteCustomer(org, customerId);
    },
    deletedAnswer: () => ({ status: 204 }),
    deleteAbsent: (refusal) => {
      throw refusal;
    },
  };
}

/** Refuses a method the path does not serve. */
export function allowOnly(method: string, methods: readonly string[]) {
  if (!methods.includes(method))
    throw new HttpError(405, 'method_not_allowed', `${method} not allowed here`, {}, { allow: methods.join(', ') });
}

const OPS: Record<string, Op> = { GET: 'read', PATCH: 'patch', DELETE: 'delete' };

/** /api/cases/{id}/ and /api/cases/{id}/start/. */
export async function caseRoute(env: Env, req: IncomingMessage, idText: string, start: boolean): Promise<Answer> {
  const method = req.method ?? 'GET';
  allowOnly(method, start ? ['POST'] : env.b.caseMethods);
  const op = start ? 'start' : OPS[method]!;
  const org = authenticate(env, req, op);
  const id = env.b.caseId(idText);
  if (op === 'start') {
    const c = env.b.findCase(org, id, 'start');
    startProcessing(env, c);
    return { status: 202, body: env.b.caseView(c) };
  }
  if (op === 'read') return env.b.readCase(org, id);
  if (op === 'delete') {
    let c: CaseRecord;
    try {
      c = env.b.findCase(org, id, 'delete');
    } catch (err) {
      if (err instanceof HttpError) return env.b.deleteAbsent(err);
      throw err;
    }
    env.b.deleteCase(c);
    return env.b.deletedAnswer(c);
  }
  const body = await readApiBody(env, req, 'patch');
  const c = env.b.findCase(org, id, 'patch');
  const patch = env.b.parsePatch(org, c, body);
  env.b.readOnlySent(c, readOnlyFieldsOf(body), 'patch');
  // Stryker disable next-line ObjectLiteral,ArrayDeclaration,StringLiteral: otherKeysSent does nothing in the correct server
  env.b.otherKeysSent({ case: c }, otherKeysOf(body, CASE_KEYS), 'patch');
  await env.b.patchWrite(org, c, patch);
  return { status: 200, body: env.b.caseView(c) };
}
