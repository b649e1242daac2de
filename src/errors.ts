/**
 * Every error screenconf raises, in one file (as undici keeps lib/core/errors.js): a base class,
 * subclasses with a stable `code` that callers branch on, never their message or name.
 *
 * Harness errors are kept apart from conformance failures (src/results/failure.ts): a
 * HarnessError means screenconf could not judge (bad config, target unreachable) or, for the codes
 * whose `inCheck` is 'fails', that an exchange broke down in a way that is itself a verdict on the
 * target (no answer within the timeout, a body over the cap, a webhook that never came).
 */

/** What a check that meets the error has done: judged the target (it fails), or not judged it. */
export type InCheck = 'fails' | 'not-judged';

interface CodeInfo {
  /** Exit status of a command that ends with this error. */
  readonly exit: number;
  /** Inside a check: the check fails (the target's behaviour decided it), or it could not judge. */
  readonly inCheck: InCheck;
  readonly summary: string;
}

const code = (exit: number, summary: string, inCheck: InCheck = 'not-judged'): CodeInfo => ({ exit, inCheck, summary });

/** Every code, with its exit status and meaning; the README's error table lists each one. */
export const ERROR_CODES = {
  SC_USAGE: code(2, 'unknown command, unknown flag or missing argument'),
  SC_CONFIG: code(2, 'a configuration value breaks its rule'),
  SC_CONFIG_FILE: code(2, 'the configuration file cannot be read or parsed'),
  SC_EXPECT_FILE: code(
    2,
    'the expectations file (--expect) cannot be read, is not valid, or names an unknown requirement or target',
  ),
  SC_INSECURE_TRANSPORT: code(2, 'credentials would travel over plain HTTP to a host that is not loopback'),
  SC_LEDGER: code(2, 'the ledger file given to cleanup cannot be read or is not a screenconf ledger'),
  SC_REPORT_INVALID: code(
    2,
    'the conformance.json given to report cannot be read, is not JSON, or does not fit the report schema',
  ),
  SC_MERGE_MISMATCH: code(
    2,
    'the reports given to merge are not shards of one run: a different seed, runs, catalogue, target or settings, ' +
      'a shard given twice, or a report of a run without --shard',
  ),
  SC_MERGE_INCOMPLETE: code(2, 'the reports given to merge lack a shard (each of 1/N … N/N is needed)'),
  SC_KEY_FILE: code(
    2,
    'a key file (run --sign-key, verify --public-key) cannot be read or is not an Ed25519 key in PEM; or keygen ' +
      'would overwrite one',
  ),
  SC_INIT_EXISTS: code(2, 'a file screenconf init would write exists (it is named); --force overwrites it'),
  SC_PROVISIONER: code(
    2,
    'the --provisioner module cannot be loaded or has the wrong shape (checked before any ' + 'request)',
  ),
  SC_USER_CATALOGUE: code(
    2,
    'the user catalogue (--user-catalogue, or catalogue.json in --suites-dir) cannot be read or parsed, breaks a ' +
      "rule, gives an id twice or one of screenconf's ids",
  ),
  SC_USER_SUITES: code(
    2,
    '--suites-dir cannot be read, holds no suite file (*.test.ts, .js, .mjs), or a suite file has the name of ' +
      "one of screenconf's suites",
  ),
  SC_UNKNOWN_REQUIREMENT: code(
    2,
    "a suite file names a requirement id in neither screenconf's catalogue nor the user's",
  ),
  SC_CREDENTIALS_REJECTED: code(2, 'the target refused the configured client credentials'),
  SC_TARGET_PLAIN_HTTP: code(2, 'the base URL says https:// but the port speaks plain HTTP (try http://)'),
  SC_TARGET_UNREACHABLE: code(3, 'no HTTP answer from the target (refused, reset, DNS)'),
  SC_TARGET_TIMEOUT: code(3, 'the target gave no complete answer within --timeout-ms', 'fails'),
  SC_TARGET_TOO_LARGE: code(3, 'a response body was larger than --max-response-bytes', 'fails'),
  SC_TARGET_PROTOCOL: code(3, 'the HTTP exchange broke off or was not HTTP', 'fails'),
  SC_TARGET_BROKEN: code(3, 'the target answered in a way the run cannot go on from'),
  SC_TARGET_THROTTLED: code(3, 'the target kept answering 429 beyond the retry budget'),
  SC_CONTAINER: code(
    3,
    'the target container (--target-image) could not be started: no container engine, image missing, or it never ' +
      'answered HTTP',
  ),
  SC_BULK_UNRECOGNISED: code(
    3,
    'a bulk answer reports its items in a shape screenconf does not recognise (a harness limitation, not a verdict ' +
      'on the server): --bulk-failures-path names where failed items are listed',
  ),
  SC_CONTAINER_SUPPORT: code(
    2,
    '--target-image needs the optional dependency testcontainers, which is not installed (npm install testcontainers)',
  ),
  SC_SETUP_NOT_KEPT: code(
    3,
    'a change a check made to set up what it judges was answered as done but a read shows it was not kept: the ' +
      'check cannot judge its requirement (the requirement of that change fails where it is judged)',
  ),
  SC_POOL_BUSY: code(
    3,
    'the cases the bulk suites share were held by another suite file longer than a check may wait (a slow ' +
      'target, or a low --max-rps): the check could not act on them',
  ),
  SC_WEBHOOK_TIMEOUT: code(3, 'an awaited webhook delivery did not arrive within --webhook-timeout-ms', 'fails'),
  SC_WEBHOOK_CLOSED: code(3, 'the webhook receiver was closed while a check waited for a delivery'),
  SC_INCOMPLETE: code(3, 'the run finished but some checks could not judge the target (see the report)'),
  SC_DEADLINE: code(3, 'the run deadline (--deadline-ms) passed; the run was stopped and cleaned up'),
  SC_INTERRUPTED: code(3, 'the run is stopping (a signal or the deadline): only cleanup requests are sent'),
  SC_HARNESS: code(3, 'a fault inside screenconf itself'),
} as const satisfies Record<string, CodeInfo>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** Whether a string is one of the codes (reports and task metadata carry codes as text). */
export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(ERROR_CODES, value);
}

/** The base of every error screenconf raises: a stable code with an exit status. */
export class HarnessError extends Error {
  override readonly name: string = 'HarnessError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  get exitCode(): number {
    return ERROR_CODES[this.code].exit;
  }

  /** What a check that meets this error has done (see ERROR_CODES). */
  get inCheck(): InCheck {
    return ERROR_CODES[this.code].inCheck;
  }
}

/** The codes of an exchange that gave no usable HTTP answer. */
export type TransportErrorCode =
  | 'SC_TARGET_PLAIN_HTTP'
  | 'SC_TARGET_UNREACHABLE'
  | 'SC_TARGET_TIMEOUT'
  | 'SC_TARGET_TOO_LARGE'
  | 'SC_TARGET_PROTOCOL';

/** The target gave no usable HTTP answer to one request. */
export class TransportError extends HarnessError {
  override readonly name = 'TransportError';
  /** True when the request certainly never reached the target (refused connection, unknown host, not sent). */
  readonly notSent: boolean;

  constructor(
    override readonly code: TransportErrorCode,
    message: string,
    options?: { cause?: unknown; notSent?: boolean },
  ) {
    super(code, message, options);
    this.notSent = options?.notSent ?? false;
  }

  /** No answer at all (refused, reset, silent until the timeout): what the run's breaker counts. */
  get noAnswer(): boolean {
    return this.code === 'SC_TARGET_UNREACHABLE' || this.code === 'SC_TARGET_TIMEOUT';
  }
}

/** What a webhook wait was for, when it timed out. */
export interface WebhookTimeoutDetails {
  url: string;
  label: string | undefined;
  timeoutMs: number;
  expected: number;
  arrived: number;
}

function describeEndpoint(url: string, label: string | undefined): string {
  return label === undefined ? url : `${url} (${label})`;
}

/** The awaited deliveries did not arrive in time: evidence against the target, not a harness fault. */
export class WebhookTimeoutError extends HarnessError implements WebhookTimeoutDetails {
  override readonly name = 'WebhookTimeoutError';
  readonly url: string;
  readonly label: string | undefined;
  readonly timeoutMs: number;
  readonly expected: number;
  readonly arrived: number;

  constructor(details: WebhookTimeoutDetails) {
    const { url, label, timeoutMs, expected, arrived } = details;
    const what = expected === 1 ? 'no webhook delivery' : `fewer than ${expected} webhook deliveries`;
    const where = describeEndpoint(url, label);
    super('SC_WEBHOOK_TIMEOUT', `${what} to ${where} within ${timeoutMs} ms (${arrived} of ${expected} arrived)`);
    this.url = url;
    this.label = label;
    this.timeoutMs = timeoutMs;
    this.expected = expected;
    this.arrived = arrived;
  }
}

/** The receiver was closed while a wait on one of its endpoints was pending. */
export class WebhookReceiverClosedError extends HarnessError {
  override readonly name = 'WebhookReceiverClosedError';

  constructor(url: string, label: string | undefined) {
    super(
      'SC_WEBHOOK_CLOSED',
      `webhook receiver closed while waiting for a delivery to ${describeEndpoint(url, label)}`,
    );
  }
}
