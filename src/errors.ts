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

/** Every code, with its exit status and meaning; docs/reference/errors.md (`npm run docs`) lists each one. */
export const ERROR_CODES = {
  SC_USAGE: code(2, 'unknown command or flag, bad argument'),
  SC_CONFIG: code(2, 'a setting breaks its rule; the message names the flag and variable'),
  SC_CONFIG_FILE: code(2, 'the config file is missing, not JSON, or has an unknown key (named with its line)'),
  SC_EXPECT_FILE: code(
    2,
    'the expectations file is missing, not JSON (the line is named), or an entry names an unknown ' +
      'requirement, an OBSERVE requirement, an impossible date or a target the run does not have',
  ),
  SC_INSECURE_TRANSPORT: code(
    2,
    'credentials would go over plain HTTP to a host that is not loopback (no connection was made); see ' +
      '`--allow-insecure-http`',
  ),
  SC_LEDGER: code(2, 'the ledger given to `cleanup` cannot be read or is not a screenconf ledger'),
  SC_REPORT_INVALID: code(
    2,
    'the `conformance.json` given to `report` cannot be read, is not JSON, or does not fit the report ' +
      'schema (the first problem is named with its path)',
  ),
  SC_MERGE_MISMATCH: code(
    2,
    'the folders given to `merge` are not the shards of one run: a report of a run without `--shard`, a ' +
      'different seed, runs per property, catalogue version, target or setting (`--suites`, `--only`, ' +
      '`--strict`, `--require-complete`, `--expect`, `--shard-by`), or a shard given twice; what differs is ' +
      'named',
  ),
  SC_MERGE_INCOMPLETE: code(
    2,
    'the folders given to `merge` lack a shard (each of 1/N … N/N is needed); the missing ones are named',
  ),
  SC_KEY_FILE: code(
    2,
    'a key file (`run --sign-key`, `verify --public-key`) cannot be read or is not an Ed25519 key in PEM ' +
      '(a private key given as `--public-key` is refused too); or `keygen` would overwrite a key',
  ),
  SC_INIT_EXISTS: code(2, 'a file screenconf init would write exists (it is named); --force overwrites it'),
  SC_PROVISIONER: code(
    2,
    'the `--provisioner` module cannot be loaded or has the wrong shape (checked before any request)',
  ),
  SC_USER_CATALOGUE: code(
    2,
    'your catalogue (`--user-catalogue`, or `catalogue.json` in `--suites-dir`) cannot be read, is not ' +
      'JSON, breaks a rule (an entry without `id`, `level` MUST/SHOULD/OBSERVE, `statement` or `source`, or ' +
      "with a field it does not know), gives an id twice or one of screenconf's ids (checked before any " +
      'request)',
  ),
  SC_USER_SUITES: code(
    2,
    '`--suites-dir` cannot be read, holds no suite file (`*.test.ts`, `*.test.js`, `*.test.mjs`), or a ' +
      "suite file has the name of one of screenconf's suites",
  ),
  SC_UNKNOWN_REQUIREMENT: code(
    2,
    "a suite file names a requirement id in neither screenconf's catalogue nor yours: refused before any " +
      'request when the id is written in its `check()` or `t.observe()` call; an id the scan cannot see ' +
      '(held in a variable) fails its file when the suites are collected (the run is then INCOMPLETE)',
  ),
  SC_CREDENTIALS_REJECTED: code(2, 'the token endpoint refused the configured client credentials'),
  SC_TARGET_PLAIN_HTTP: code(
    2,
    'the base URL says `https://` but the port speaks plain HTTP (the TLS handshake met an HTTP answer): ' +
      'the message names the `http://` URL to try; nothing was sent',
  ),
  SC_TARGET_UNREACHABLE: code(
    3,
    'no HTTP answer from the target: refused or unknown host, or it stopped answering (a request got none, nor did ' +
      'the liveness read sent right after it; the run then sends nothing more)',
  ),
  SC_TARGET_TIMEOUT: code(
    3,
    'the target gave no complete answer within `--timeout-ms` while it still answered the liveness read sent right ' +
      'after (inside a check: the check fails, the exchange shown as one that got no answer)',
    'fails',
  ),
  SC_TARGET_DROPPED: code(
    3,
    'the target closed or reset the connection before a complete answer while it still answered the liveness read ' +
      'sent right after: that was its answer to the request (inside a check: the check fails, the exchange shown as ' +
      'one that got no answer)',
    'fails',
  ),
  SC_TARGET_TOO_LARGE: code(
    3,
    'a response body was larger than `--max-response-bytes` (inside a check: the check fails)',
    'fails',
  ),
  SC_TARGET_PROTOCOL: code(3, 'the HTTP exchange broke off or was not HTTP (inside a check: the check fails)', 'fails'),
  SC_TARGET_BROKEN: code(3, 'the target answered in a way the run cannot go on from'),
  SC_TARGET_THROTTLED: code(3, 'the target kept answering 429 beyond the retry budget'),
  SC_CONTAINER: code(
    3,
    'the `--target-image` container could not be started: no container engine answers (see ' +
      '`DOCKER_HOST`), the image is not there and cannot be pulled, or the container exited or never ' +
      'answered HTTP on its port',
  ),
  SC_BULK_UNRECOGNISED: code(
    3,
    'a bulk answer reports its items in a shape screenconf does not recognise, or a failed item is found ' +
      'nowhere while part of the answer could not be tied to an item (a label that may count from 0 or from 1, ' +
      'a message naming no item): a harness limitation, not a MUST failure of the server; the check could not ' +
      'judge, and the report shows the body (inside a check: not judged). `--bulk-failures-path` names where ' +
      'failed items are listed',
  ),
  SC_CONTAINER_SUPPORT: code(
    2,
    '`--target-image` needs testcontainers, an optional peer dependency that is not installed: ' +
      '`npm install --save-dev testcontainers` beside screenconf (the message gives its version range)',
  ),
  SC_SETUP_NOT_KEPT: code(
    3,
    'a change a check made to set up what it judges (a PATCH giving a case a value) was answered as done, ' +
      'but a read shows the target did not keep it: the check cannot judge its own requirement (inside a ' +
      'check: not judged); the requirement of that change (CASE-PATCH-ROUNDTRIP) fails where it is judged',
  ),
  SC_POOL_BUSY: code(
    3,
    'the 101 cases the two bulk suites share were held by the other suite file for longer than a check ' +
      'may wait (75 s; a slow target or a low `--max-rps`): the check could not act on them (inside a ' +
      'check: not judged)',
  ),
  SC_WEBHOOK_TIMEOUT: code(
    3,
    'an awaited webhook delivery did not arrive within `--webhook-timeout-ms` (inside a check: the check ' + 'fails)',
    'fails',
  ),
  SC_WEBHOOK_CLOSED: code(3, 'the webhook receiver was closed while a check waited for a delivery'),
  SC_INCOMPLETE: code(3, 'the run finished but some checks could not judge the target (see the report)'),
  SC_DEADLINE: code(3, '`--deadline-ms` passed; the run was stopped, cleaned up and reported'),
  SC_INTERRUPTED: code(3, 'the run is stopping (a signal or the deadline): only cleanup requests are sent'),
  SC_HARNESS: code(3, 'a fault inside screenconf'),
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
  | 'SC_TARGET_DROPPED'
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

  /** No answer at all (refused, closed, reset, silent until the timeout): what a liveness read decides on. */
  get noAnswer(): boolean {
    return (
      this.code === 'SC_TARGET_UNREACHABLE' || this.code === 'SC_TARGET_TIMEOUT' || this.code === 'SC_TARGET_DROPPED'
    );
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
