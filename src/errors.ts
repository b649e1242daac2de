/**
 * Harness faults, kept apart from conformance failures: a HarnessError means screenconf could
 * not judge (bad config, target unreachable), never that the server broke a requirement.
 * Each code is stable and documented in the README; each maps to one exit status.
 */
export const HARNESS_ERROR_CODES = {
  SC_USAGE: { exit: 2, summary: 'unknown command, unknown flag or missing argument' },
  SC_CONFIG: { exit: 2, summary: 'a configuration value breaks its rule' },
  SC_CONFIG_FILE: { exit: 2, summary: 'the configuration file cannot be read or parsed' },
  SC_EXPECT_FILE: {
    exit: 2,
    summary: 'the expectations file (--expect) cannot be read, is not valid, or names an unknown requirement or target',
  },
  SC_INSECURE_TRANSPORT: {
    exit: 2,
    summary: 'credentials would travel over plain HTTP to a host that is not loopback',
  },
  SC_LEDGER: { exit: 2, summary: 'the ledger file given to cleanup cannot be read or is not a screenconf ledger' },
  SC_REPORT_INVALID: {
    exit: 2,
    summary: 'the conformance.json given to report cannot be read, is not JSON, or does not fit the report schema',
  },
  SC_PROVISIONER: {
    exit: 2,
    summary: 'the --provisioner module cannot be loaded or has the wrong shape (checked before any request)',
  },
  SC_CREDENTIALS_REJECTED: { exit: 2, summary: 'the target refused the configured client credentials' },
  SC_TARGET_UNREACHABLE: { exit: 3, summary: 'no HTTP answer from the target (refused, reset, timed out, DNS)' },
  SC_TARGET_BROKEN: { exit: 3, summary: 'the target answered in a way the run cannot go on from' },
  SC_TARGET_THROTTLED: { exit: 3, summary: 'the target kept answering 429 beyond the retry budget' },
  SC_CONTAINER: {
    exit: 3,
    summary:
      'the target container (--target-image) could not be started: no container engine, image missing, or it never answered HTTP',
  },
  SC_INCOMPLETE: { exit: 3, summary: 'the run finished but some checks could not judge the target (see the report)' },
  SC_DEADLINE: { exit: 3, summary: 'the run deadline (--deadline-ms) passed; the run was stopped and cleaned up' },
  SC_INTERRUPTED: {
    exit: 3,
    summary: 'the run is stopping (a signal or the deadline): only cleanup requests are sent',
  },
  SC_HARNESS: { exit: 3, summary: 'a fault inside screenconf itself' },
} as const;

export type HarnessErrorCode = keyof typeof HARNESS_ERROR_CODES;

export class HarnessError extends Error {
  override readonly name = 'HarnessError';
  constructor(
    readonly code: HarnessErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  get exitCode(): number {
    return HARNESS_ERROR_CODES[this.code].exit;
  }
}
