/**
 * Public types of the webhook receiver (its errors are in src/errors.ts). A delivery is one HTTP request the receiver
 * answered; it is attributed to the endpoint whose path it hit, or recorded as a stray.
 */

export interface WebhookDelivery {
  /** Order of arrival across the whole receiver (strays included), from 1. */
  readonly seq: number;
  readonly method: string;
  /** Request target as sent (path and query), e.g. `/hooks/Ab3…` */
  readonly path: string;
  /** Header names lowercased; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
  /** Body as UTF-8 text, at most `maxBodyBytes` bytes of it. */
  readonly body: string;
  /** True when the body went over `maxBodyBytes`: `body` holds the first part only. */
  readonly truncated: boolean;
  /** Parsed body, or undefined when it is empty, truncated or not JSON. */
  readonly json: unknown;
  /** When the request reached the receiver, ms since the epoch and as ISO 8601. */
  readonly receivedAt: number;
  readonly receivedAtIso: string;
  /** The status the receiver answered (204 by default, 413 over the cap, 404 for strays). */
  readonly status: number;
  /** The answer never reached the sender: it gave up (closed the connection) while the answer was held. */
  readonly dropped?: true;
  /** Label of the endpoint it was attributed to; undefined for strays and unlabelled endpoints. */
  readonly label: string | undefined;
}

/** What a responder sees: the delivery before the receiver has chosen its status. */
export type PendingDelivery = Omit<WebhookDelivery, 'status'>;

export type WebhookResponder = (delivery: PendingDelivery) => { status: number } | undefined;

export interface WebhookReceiverOptions {
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
  /** Port to listen on. Default 0 (a free port). */
  port?: number;
  /**
   * Base URL the target should call instead of http://host:port (a tunnel, a CI service
   * address). Absolute http(s), no query, fragment or credentials. A path prefix is allowed;
   * requests arriving with or without it are attributed alike.
   */
  publicUrl?: string;
  /** Largest body recorded; a larger one is answered 413. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Chooses the status for deliveries without a queued `respondWith` status. Default 204. */
  responder?: WebhookResponder;
}

export interface WaitOptions {
  timeoutMs: number;
  /** Deliveries to wait for, counting ones that arrived before the call. Default 1. */
  count?: number;
}

export interface WebhookEndpoint {
  /** Full URL to hand to the target (publicUrl-based when set). */
  readonly url: string;
  /** Path the receiver matches, `/hooks/<token>`. */
  readonly path: string;
  readonly label: string | undefined;
  /** Deliveries so far, oldest first (a copy). */
  deliveries(): WebhookDelivery[];
  /** Resolves with all deliveries once `count` have arrived; rejects with WebhookTimeoutError. */
  waitForDelivery(options: WaitOptions): Promise<WebhookDelivery[]>;
  /** Waits `ms`, then returns all deliveries (to check that none, or how many, arrived). */
  deliveriesWithin(ms: number): Promise<WebhookDelivery[]>;
  /** Queues statuses for the next deliveries, one each; afterwards the default applies. */
  respondWith(statuses: number[]): void;
  /**
   * Holds the answers to this endpoint's deliveries from now on (a slow or silent receiver): each delivery is
   * recorded when it arrives (its waits settle then) and answered, with the status chosen at arrival, only when
   * the returned release is called. Release answers what is held and stops holding; the receiver's close() drops
   * held connections unanswered. A body over the cap is answered at once.
   */
  hold(): () => void;
}

export interface WebhookReceiver {
  /** Base URL of the listener (publicUrl when set), without trailing slash. */
  readonly url: string;
  /** Port actually bound. */
  readonly port: number;
  endpoint(label?: string): WebhookEndpoint;
  /** Requests to paths no endpoint owns, answered 404 (a copy). */
  strays(): WebhookDelivery[];
  /** Stops listening, drops open connections, rejects pending waits. Idempotent. */
  close(): Promise<void>;
}
