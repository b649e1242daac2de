/** Variants of webhook delivery (interface § Events: "Webhook request shape, signing and retries: not shown"). */
import { randomUUID } from 'node:crypto';
import { variant } from '../switches.ts';

/** webhook.slow: how long after completion the first attempt goes out. */
const SLOW_MS = 3000;
/** webhook.at-least-once: the pause before the repeat. */
const REPEAT_MS = 100;

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
];
