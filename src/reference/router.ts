/** Which handler answers a request: the endpoints of the interface and the provisioning conventions. */
import type { IncomingMessage } from 'node:http';
import type { BulkOp, Env } from './behaviour.ts';
import { authenticate } from './handlers/auth.ts';
import { bulkDeleteChecks } from './handlers/bulk-checks.ts';
import { bulkUpdateCases } from './handlers/bulk-cases.ts';
import { bulkUpdateCustomers } from './handlers/bulk-customers.ts';
import { createCase } from './handlers/case-create.ts';
import { allowOnly, caseRoute } from './handlers/cases.ts';
import { readApiBody } from './handlers/content.ts';
import { issueToken } from './handlers/token.ts';
import { type Answer, HttpError } from './http.ts';

const BULK = new Map<string, { op: BulkOp; handle: (env: Env, org: string, body: unknown) => Answer }>([
  ['/api/cases/bulk-update/', { op: 'bulk-cases', handle: bulkUpdateCases }],
  ['/api/customers/bulk-update/', { op: 'bulk-customers', handle: bulkUpdateCustomers }],
  ['/api/checks/bulk-delete/', { op: 'bulk-checks', handle: bulkDeleteChecks }],
]);

/** The answer to a request; throws HttpError (or AnswerNow) to refuse it. */
export async function route(env: Env, req: IncomingMessage): Promise<Answer> {
  const path = new URL(req.url ?? '/', 'http://reference.invalid').pathname;
  const method = req.method ?? 'GET';
  env.b.admit(req);
  if (path === '/api/oauth/token/') {
    allowOnly(method, ['POST']);
    return issueToken(env, req);
  }
  const bulk = BULK.get(path);
  if (bulk) {
    allowOnly(method, ['POST']);
    const org = authenticate(env, req, bulk.op);
    const answer = bulk.handle(env, org, await readApiBody(env, req, bulk.op));
    env.b.afterBulk(req, bulk.op);
    return answer;
  }
  if (path === '/api/cases/') {
    allowOnly(method, ['POST']);
    const org = authenticate(env, req, 'create');
    return createCase(env, org, await readApiBody(env, req, 'create'));
  }
  const m = /^\/api\/cases\/([^/]+)\/(start\/)?$/.exec(path);
  if (m) return caseRoute(env, req, m[1]!, m[2] !== undefined);
  throw new HttpError(404, 'not_found', `no route for ${path}`);
}
