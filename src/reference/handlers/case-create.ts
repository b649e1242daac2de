/**
 * POST /api/cases/ (a provisioning convention, docs/architecture.md): a case with a new or existing
 * customer and its checks, PENDING until processing starts.
 */
import { randomUUID } from 'node:crypto';
import type { Id } from '../../spec/index.ts';
import { type Answer, HttpError } from '../http.ts';
import type { CaseRecord } from '../store.ts';
import { parseOr400 } from '../validation.ts';
import { assertExternalIdFree } from './case-write.ts';
import type { Env } from '../points.ts';

/** Creates a case from a request body; answers 201 with its read representation. */
export function createCase(env: Env, org: string, body: unknown): Answer {
  const { store } = env;
  const input = parseOr400(env.rules.caseCreate, body);
  if (input.external_id !== undefined && env.b.uniqueChecked('create'))
    assertExternalIdFree(env, org, input.external_id);
  const now = new Date().toISOString();
  let customerId: Id;
  if ('id' in input.customer) {
    if (!store.getCustomer(org, input.customer.id))
      throw new HttpError(400, 'validation_error', 'unknown customer', {
        fields: { 'customer.id': ['no such customer'] },
      });
    customerId = input.customer.id;
  } else {
    customerId = store.nextId();
    store.putCustomer({
      id: customerId,
      org,
      full_name: input.customer.full_name,
      customer_type: input.customer.customer_type ?? null,
      external_id: input.customer.external_id ?? null,
    });
  }
  const record: CaseRecord = {
    id: env.b.caseIdFor(() => store.nextId()),
    org,
    external_id: input.external_id ?? randomUUID(),
    webhook_url: input.webhook_url ?? null,
    note: null,
    outcome: null,
    is_started: false,
    is_complete: false,
    failed: false,
    created_at: now,
    updated_at: now,
    delete_after: input.delete_after ?? -1,
    rfi: null,
    metadata: input.metadata ?? null,
    sync_platforms: input.sync_platforms ?? null,
    customerId,
    generation: 0,
  };
  store.putCase(record);
  env.b.caseCreated(record);
  for (const check of input.checks ?? []) {
    store.putCheck({
      id: store.nextId(),
      org,
      caseId: record.id,
      check_type: check.check_type ?? null,
      input_details: check.input_details ?? null,
      risk_score: null,
      title: null,
      note: null,
      reasoning: null,
      outcome: null,
      status: 'PENDING',
      created_at: now,
      updated_at: now,
      delete_after: -1,
    });
  }
  return { status: 201, body: env.b.caseView(record) };
}
