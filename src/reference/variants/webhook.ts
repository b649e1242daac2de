/** Variants of webhook delivery (interface § Events: "Webhook request shape, signing and retries: not shown"). */
import { randomUUID } from 'node:crypto';
import { post } from '../handlers/webhook.ts';
import { variant } from '../switches.ts';

/** webhook.slow: how long after completion the first attempt goes out. */
const SLOW_MS = 3000;
/** webhook.at-least-once: the pause before the repeat. */
const REPEAT_MS = 100;
/** webhook.queue-timeout: how long one attempt may wait for the receiver's answer. */
const QUEUED_ATTEMPT_MS = 2000;

export const WEBHOOK_VARIANTS = [
  variant('webhook.slow', 'completion webhooks go out 3 s after the case completes', (base, env) => ({
    async deliver(delivery) {
      await env.timers.sleep(SLOW_MS);
      return base.deliver(delivery);
    },
  })),
  variant(
    'webhook.at-least-once',
    'every completion webhook is delivered twice (at-least-once delivery), both with the same Webhook-Id header',
    (base, env) => ({
      async deliver(delivery) {
        const once = { ...delivery, headers: { ...delivery.headers, 'webhook-id': randomUUID() } };
        const ok = await base.deliver(once);
        if (ok) {
          await env.timers.sleep(REPEAT_MS);
          await base.deliver(once);
        }
        return ok;
      },
    }),
  ),
  variant(
    'webhook.envelope',
    'the webhook body is an envelope: an event name, a summary of the case (id, is_complete, outcome, ' +
      'risk_score) and the whole case under data',
    (base) => ({
      webhookBody(c) {
        const data = base.webhookBody(c);
        const { id, is_complete, outcome, risk_score } = data;
        return { event: 'case.completed', summary: { id, is_complete, outcome, risk_score }, data };
      },
    }),
  ),
  variant(
    'webhook.queue-timeout',
    'webhooks go out from one queue, one attempt at a time, each given 2 s to be answered before the next goes',
    () => {
      let tail: Promise<unknown> = Promise.resolve();
      return {
        postDelivery(delivery) {
          const attempt = tail.then(async () => (await post(delivery, QUEUED_ATTEMPT_MS)).ok);
          tail = attempt.catch(() => undefined);
          return attempt;
        },
      };
    },
  ),
];
