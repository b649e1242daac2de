/** The Case read representation (interface § Resources), with its nested customer and checks. */
import type { Env, ViewPoints } from '../points.ts';

/** The correct representation: every field of the interface's tables, risk_score the maximum. */
export function viewDefaults(env: Env): ViewPoints {
  return {
    caseView(c) {
      const { b } = env;
      const customer = env.store.getCustomer(c.org, c.customerId);
      const checks = env.store.checksOfCase(c.org, c.id);
      return {
        id: c.id,
        external_id: c.external_id,
        origin_url: c.external_id,
        customer: customer ? b.customerView(customer) : null,
        webhook_url: c.webhook_url,
        note: c.note,
        risk_score: b.caseRiskScore(checks.map((k) => k.risk_score).filter((s): s is number => s !== null)),
        outcome: c.outcome,
        is_started: c.is_started,
        is_complete: c.is_complete,
        failed: c.failed,
        created_at: c.created_at,
        updated_at: c.updated_at,
        checks: b.checkOrder(checks).map((k) => b.checkView(k)),
        delete_after: c.delete_after,
        rfi: c.rfi,
        metadata: c.metadata,
        sync_platforms: c.sync_platforms,
      };
    },
    checkView: (k) => ({
      id: k.id,
      input_details: k.input_details,
      check_type: k.check_type,
      risk_score: k.risk_score,
      title: k.title,
      note: k.note,
      reasoning: k.reasoning,
      outcome: k.outcome,
      status: k.status,
      created_at: k.created_at,
      updated_at: k.updated_at,
      delete_after: k.delete_after,
    }),
    customerView: (cu) => ({
      id: cu.id,
      external_id: cu.external_id,
      full_name: cu.full_name,
      customer_type: cu.customer_type,
    }),
    caseRiskScore: (scores) => (scores.length ? Math.max(...scores) : null),
    checkOrder: (checks) => checks,
  };
}
