/** The Case read representation, built from the store's records. */
import type { FaultName } from './faults.ts';
import type { CaseRecord, CheckRecord, Store } from './store.ts';

export function checkView(c: CheckRecord, faults: ReadonlySet<FaultName> = new Set()) {
  return {
    id: c.id,
    input_details: c.input_details,
    check_type: c.check_type,
    risk_score: c.risk_score,
    title: c.title,
    note: c.note,
    reasoning: c.reasoning,
    outcome: c.outcome,
    status: faults.has('read.bad-enum') && c.status === 'DECIDED' ? 'DONE' : c.status,
    created_at: c.created_at,
    updated_at: c.updated_at,
    delete_after: c.delete_after,
  };
}

/** The case risk score: the maximum of its checks' scores, null when none has one. */
export function caseRiskScore(checks: CheckRecord[], faults: ReadonlySet<FaultName> = new Set()): number | null {
  const scores = checks.map((c) => c.risk_score).filter((s): s is number => s !== null);
  if (scores.length && faults.has('read.risk-average')) return scores.reduce((a, b) => a + b, 0) / scores.length;
  return scores.length ? Math.max(...scores) : null;
}

export function caseView(store: Store, c: CaseRecord, faults: ReadonlySet<FaultName>) {
  const customer = store.getCustomer(c.org, c.customerId);
  const checks = store.checksOfCase(c.org, c.id);
  const view: Record<string, unknown> = {
    id: c.id,
    external_id: c.external_id,
    origin_url: faults.has('read.origin-url-differs') ? `https://origin.invalid/${c.external_id}` : c.external_id,
    customer: customer
      ? {
          id: customer.id,
          external_id: customer.external_id,
          full_name: customer.full_name,
          customer_type: customer.customer_type,
        }
      : null,
    webhook_url: c.webhook_url,
    note: c.note,
    risk_score: caseRiskScore(checks, faults),
    outcome: c.outcome,
    is_started: c.is_started,
    is_complete: c.is_complete,
    failed: c.failed,
    created_at: c.created_at,
    updated_at: c.updated_at,
    checks: checks.map((k) => checkView(k, faults)),
    delete_after: c.delete_after,
    rfi: c.rfi,
    metadata: c.metadata,
    sync_platforms: c.sync_platforms,
  };
  if (faults.has('read.missing-updated-at')) delete view.updated_at;
  return view;
}
