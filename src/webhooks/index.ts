// The webhook receiver: a local listener that records deliveries and lets a test wait for one.
export { createWebhookReceiver } from './receiver.ts';
export {
  WebhookReceiverClosedError,
  WebhookTimeoutError,
  type PendingDelivery,
  type WaitOptions,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookReceiver,
  type WebhookReceiverOptions,
  type WebhookResponder,
} from './types.ts';
