/** The settings of one reference server that are neither state nor behaviour: timings. */

export interface ProcessingOptions {
  /** Delay between two processing steps, in ms. */
  stepMs: number;
  /** Delays before webhook retries after a failed delivery, in ms. */
  retryDelaysMs: readonly number[];
  /** Time allowed for one webhook delivery, in ms. */
  deliveryTimeoutMs: number;
}

export const DEFAULT_PROCESSING: ProcessingOptions = {
  stepMs: 40,
  retryDelaysMs: [500, 1500],
  deliveryTimeoutMs: 5000,
};

export interface ServerOptions {
  processing: ProcessingOptions;
  /** Lifetime of an access token, in seconds, unless a switch says otherwise. */
  tokenTtlSeconds: number;
}
