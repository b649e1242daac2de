/** Faults of the completion webhook (requirements WEBHOOK-*). */
import type { Id } from '../../spec/index.ts';
import { post, sendWebhook } from '../handlers/webhook.ts';
import type { CaseRecord } from '../store.ts';
import { fault, type Switch } from '../switches.ts';
import type { Delivery } from '../points.ts';

/**
 * A webhook body as a serializer that leaves out some values writes it (nulls, empty strings): the case, its
 * customer and its checks without the fields holding a value `dropped` picks.
 */
export function withoutValues(
  body: Record<string, unknown>,
  dropped: (v: unknown) => boolean,
): Record<string, unknown> {
  const without = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => !dropped(v)));
  const kept = without(body);
  const customer = kept.customer as Record<string, unknown> | undefined;
  const checks = kept.checks as Record<string, unknown>[] | undefined;
  return {
    ...kept,
    ...(customer ? { customer: without(customer) } : {}),
    ...(checks ? { checks: checks.map(without) } : {}),
  };
}

/**
 * Deliveries one at a time per queue (`queueOf` names it), each attempt waiting for the receiver's answer with no
 * timeout of its own, as a worker that sends and waits does: a receiver that never answers holds up its queue.
 */
function queued(queueOf: (d: Delivery) => string) {
  const tails = new Map<string, Promise<unknown>>();
  return (d: Delivery): Promise<boolean> => {
    const key = queueOf(d);
    const attempt = (tails.get(key) ?? Promise.resolve()).then(async () => (await post(d)).ok);
    tails.set(
      key,
      attempt.catch(() => undefined),
    );
    return attempt;
  };
}

/** A fault that remembers something of each case when its processing starts, until it completes. */
function atStart<N extends string, T>(
  name: N,
  description: string,
  remember: (c: CaseRecord, env: Parameters<Switch['apply']>[1]) => T,
  override: (kept: Map<Id, T>, ...args: Parameters<Switch['apply']>) => ReturnType<Switch['apply']>,
): Switch<N> {
  return fault(name, description, (base, env) => {
    const kept = new Map<Id, T>();
    return {
      processingStarted(c) {
        base.processingStarted(c);
        kept.set(c.id, remember(c, env));
      },
      caseCompleted(c) {
        base.caseCompleted(c);
        kept.delete(c.id);
      },
      ...override(kept, base, env),
    };
  });
}

export const WEBHOOK_FAULTS = [
  fault('webhook.none', 'no completion webhook is ever sent', () => ({ deliver: async () => false })),
  fault(
    'webhook.omit-nulls',
    'the webhook body is written by a serializer that drops null fields: the case, its customer and its checks ' +
      'show no field whose value is null (the case read shows them as null)',
    (base) => ({ webhookBody: (c) => withoutValues(base.webhookBody(c), (v) => v === null) }),
  ),
  fault(
    'webhook.customer-summary',
    "the webhook shows the case's customer as a summary of its id and full_name, leaving out the external_id and " +
      'customer_type the case read shows',
    (base) => ({
      webhookBody(c) {
        const body = base.webhookBody(c);
        const customer = body.customer as Record<string, unknown> | null;
        return customer ? { ...body, customer: { id: customer.id, full_name: customer.full_name } } : body;
      },
    }),
  ),
  fault(
    'webhook.before-commit',
    'the completion webhook is sent before the completion is saved, as a transaction around the delivery would: ' +
      'the case reads is_complete false, with no outcome, until the receiver has answered',
    (_base, env) => ({
      caseCompleted(c) {
        const done = { is_complete: c.is_complete, outcome: c.outcome };
        const delivery = sendWebhook(env, c); // its body is the completed case
        if (!delivery) return;
        Object.assign(c, { is_complete: false, outcome: null });
        void delivery.finally(() => Object.assign(c, done));
      },
    }),
  ),
  fault(
    'webhook.outcome-after',
    "the completion webhook goes out once the case is marked complete, but the case's outcome is saved in a " +
      'second write after the receiver answered: meanwhile the case reads is_complete true with outcome null',
    (_base, env) => ({
      caseCompleted(c) {
        const { outcome } = c;
        const delivery = sendWebhook(env, c);
        if (!delivery) return;
        c.outcome = null;
        void delivery.finally(() => {
          c.outcome = outcome;
        });
      },
    }),
  ),
  fault('webhook.no-checks', 'the webhook body leaves out the checks array', (base) => ({
    webhookBody(c) {
      const body = base.webhookBody(c);
      delete body.checks;
      return body;
    },
  })),
  fault(
    'webhook.early',
    'the webhook is sent when the last check starts deciding, before completion, with the case as it is then ' +
      '(is_complete false); none at completion',
    (base, env) => ({
      checkDeciding(c, check, last) {
        base.checkDeciding(c, check, last);
        if (last) sendWebhook(env, c);
      },
      caseCompleted: () => {},
    }),
  ),
  atStart(
    'webhook.stale-checks',
    'the webhook body shows the completed case but its checks as they were when processing started (undecided, ' +
      'no scores)',
    (c, env) => env.store.checksOfCase(c.org, c.id).map((k) => env.b.checkView(k)),
    (kept, base) => ({
      webhookBody: (c) => {
        const body = base.webhookBody(c);
        return { ...body, checks: kept.get(c.id) ?? body.checks };
      },
    }),
  ),
  fault('webhook.no-input-details', 'the webhook body shows every check with input_details null', (base) => ({
    webhookBody(c) {
      const body = base.webhookBody(c);
      if (!Array.isArray(body.checks)) return body;
      return {
        ...body,
        checks: (body.checks as Record<string, unknown>[]).map((k) => ({ ...k, input_details: null })),
      };
    },
  })),
  fault(
    'webhook.twice',
    'every completion webhook the receiver acknowledged is sent a second time, 50 ms later',
    (base, env) => ({
      async deliver(delivery) {
        const ok = await base.deliver(delivery);
        if (ok) {
          await env.timers.sleep(50);
          await base.deliver(delivery);
        }
        return ok;
      },
    }),
  ),
  fault(
    'webhook.retry-204',
    'a delivery counts as taken only when the receiver answers 200: a 204 or any other 2xx is taken as a failure ' +
      'and the webhook is sent again',
    (_base, env) => ({
      postDelivery: async (d) => (await post(d, env.options.processing.deliveryTimeoutMs)).status === 200,
    }),
  ),
  fault(
    'webhook.retry-202',
    'a delivery counts as taken when the receiver answers 200 or 204; a 201 or 202 is taken as a failure and the ' +
      'webhook is sent again',
    (_base, env) => ({
      postDelivery: async (d) => [200, 204].includes((await post(d, env.options.processing.deliveryTimeoutMs)).status),
    }),
  ),
  fault(
    'webhook.on-save',
    'every save of a case whose processing has completed (a PATCH, a bulk update item) sends the completion ' +
      'webhook again, as a save hook that notifies complete cases would',
    (base, env) => ({
      saveCase(c) {
        base.saveCase(c);
        if (c.is_complete) void sendWebhook(env, c);
      },
    }),
  ),
  fault(
    'webhook.serial-queue',
    'every webhook goes out from one queue, one attempt at a time, each waiting for its answer with no timeout: a ' +
      'receiver that never answers holds up every later webhook',
    () => ({ postDelivery: queued(() => 'all') }),
  ),
  fault(
    'webhook.host-queue',
    'webhooks to one host go out over one connection, one attempt at a time, each waiting for its answer with no ' +
      'timeout: a receiver URL that never answers holds up every later webhook to that host',
    () => ({ postDelivery: queued((d) => new URL(d.url).host) }),
  ),
  atStart(
    'webhook.old-url',
    'a case whose webhook_url changed to another URL while it was processed notifies the URL it had when ' +
      'processing started',
    (c) => c.webhook_url,
    (kept, base) => ({
      webhookTarget(c) {
        const before = kept.get(c.id) ?? null;
        return before !== null && c.webhook_url !== null ? before : base.webhookTarget(c);
      },
    }),
  ),
  atStart(
    'webhook.null-notifies',
    'a case whose webhook_url was set to null while it was processed still notifies the URL it had when ' +
      'processing started',
    (c) => c.webhook_url,
    (kept, base) => ({
      webhookTarget(c) {
        const before = kept.get(c.id) ?? null;
        return before !== null && c.webhook_url === null ? before : base.webhookTarget(c);
      },
    }),
  ),
  fault(
    'webhook.crosstalk',
    "every webhook carries the body of the organisation's most recently started case",
    (base, env) => {
      const lastStarted = new Map<string, Id>();
      return {
        processingStarted(c) {
          base.processingStarted(c);
          lastStarted.set(c.org, c.id);
        },
        webhookBody: (c) => base.webhookBody(env.store.getCase(c.org, lastStarted.get(c.org) ?? c.id) ?? c),
      };
    },
  ),
];
