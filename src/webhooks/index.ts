// The webhook receiver: a local listener that records deliveries and lets a test wait for one.
export { createWebhookReceiver } from './receiver.ts';
export { WebhookReceiverClosedError, WebhookTimeoutError } from '../errors.ts';
export type {
  PendingDelivery,
  WaitOptions,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookReceiver,
  WebhookReceiverOptions,
  WebhookResponder,
} from './types.ts';
