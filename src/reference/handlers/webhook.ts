/**
 * The completion webhook (interface § Events 1-2): a POST of the case read representation to
 * the webhook_url the case has when it completes; retried after a failed delivery.
 */
import { stringifyJson } from '../../base/json.ts';
import type { CaseRecord } from '../store.ts';
import type { Delivery, Env, WebhookPoints } from '../points.ts';

/** The correct webhook: the case as it is now, to its current URL, each refusal retried after a delay. */
export function webhookDefaults(env: Env): WebhookPoints {
  return {
    webhookTarget: (c) => c.webhook_url,
    webhookBody: (c) => env.b.caseView(c),
    async deliver(delivery) {
      const { retryDelaysMs } = env.options.processing;
      for (let attempt = 0; !env.timers.closed; attempt++) {
        if (await env.b.postDelivery(delivery)) return true;
        const delay = retryDelaysMs[attempt];
        if (delay === undefined) return false;
        await env.timers.sleep(delay);
      }
      return false;
    },
    postDelivery: async (delivery) => (await post(delivery, env.options.processing.deliveryTimeoutMs)).ok,
  };
}

/**
 * Sends a case's completion webhook, when it has a URL, built from the case as it is now; the delivery goes on in
 * the background. Returns it (settling true when the receiver took it), or undefined when the case has no URL.
 */
export function sendWebhook(env: Env, c: CaseRecord): Promise<boolean> | undefined {
  const url = env.b.webhookTarget(c);
  if (!url) return undefined;
  const body = stringifyJson(env.b.webhookBody(c)) ?? '';
  const headers = { 'content-type': env.b.contentType('application/json'), 'user-agent': 'screenconf-reference' };
  return env.b.deliver({ url, body, headers }).catch((err: unknown) => {
    process.emitWarning(`reference server: webhook delivery: ${(err as Error)?.stack ?? String(err)}`);
    return false;
  });
}

/**
 * One attempt: the receiver's status (0 when it did not answer within `timeoutMs`, or at all without one), and
 * whether it is a 2xx. Redirects are not followed.
 */
export async function post(delivery: Delivery, timeoutMs?: number): Promise<{ status: number; ok: boolean }> {
  try {
    const res = await fetch(delivery.url, {
      method: 'POST',
      headers: delivery.headers,
      body: delivery.body,
      redirect: 'manual',
      ...(timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(timeoutMs) }),
    });
    await res.arrayBuffer().catch(() => undefined);
    return { status: res.status, ok: res.status >= 200 && res.status < 300 };
  } catch {
    return { status: 0, ok: false };
  }
}
