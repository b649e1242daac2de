/** Faults of the completion webhook (requirements WEBHOOK-*). */
import type { Id } from '../../spec/index.ts';
import { sendWebhook } from '../handlers/webhook.ts';
import type { CaseRecord } from '../store.ts';
import { fault, type Switch } from '../switches.ts';

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
