/**
 * The settings of a run, as data: each one's config-file key, flag, environment variable and
 * help text; which are secrets; the suites there are; and the load bounds they lead to.
 */
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { REDACTED } from '../base/redact.ts';
import type { TargetKind } from '../results/report.ts';
import { suiteName } from '../base/suite-file.ts';
import { CODE_EXT, CODE_ROOT } from '../version.ts';

/** The suites: the files suites/<name>.test.ts (dist/suites/<name>.test.js installed), by name. */
export const SUITES: readonly string[] = readdirSync(resolve(CODE_ROOT, 'suites'))
  .filter((f) => f.endsWith(`.test${CODE_EXT}`))
  .map(suiteName)
  .sort();
export type SuiteName = string;

/** One row per setting: its key in the config file, its flag, its environment variable. */
export const SETTINGS = {
  baseUrl: {
    flag: 'base-url',
    env: 'SCREENCONF_BASE_URL',
    help: 'target base URL; without it the embedded reference server is started',
  },
  credentials: {
    flag: 'credentials',
    env: 'SCREENCONF_CREDENTIALS',
    help:
      'JSON file of "serve --credentials-out": base URL, client id, secret and API key, peer organisation ' +
      '(other settings win over it)',
  },
  clientId: { flag: 'client-id', env: 'SCREENCONF_CLIENT_ID', help: 'OAuth client_id (a UUID)' },
  clientSecret: {
    flag: 'client-secret',
    env: 'SCREENCONF_CLIENT_SECRET',
    help: 'OAuth client_secret (prefer the variable or --client-secret-file)',
    secret: true,
  },
  clientSecretFile: {
    flag: 'client-secret-file',
    env: 'SCREENCONF_CLIENT_SECRET_FILE',
    help: 'file holding the client_secret (a trailing newline is ignored)',
  },
  apiKey: {
    flag: 'api-key',
    env: 'SCREENCONF_API_KEY',
    help: 'API key of the same organisation (enables the API-key checks)',
    secret: true,
  },
  apiKeyFile: { flag: 'api-key-file', env: 'SCREENCONF_API_KEY_FILE', help: 'file holding the API key' },
  peerClientId: {
    flag: 'peer-client-id',
    env: 'SCREENCONF_PEER_CLIENT_ID',
    help: 'client_id of a second organisation (enables tenant checks)',
  },
  peerClientSecret: {
    flag: 'peer-client-secret',
    env: 'SCREENCONF_PEER_CLIENT_SECRET',
    help: 'client_secret of the second organisation',
    secret: true,
  },
  peerClientSecretFile: {
    flag: 'peer-client-secret-file',
    env: 'SCREENCONF_PEER_CLIENT_SECRET_FILE',
    help: "file holding the second organisation's client_secret",
  },
  allowInsecureHttp: {
    flag: 'allow-insecure-http',
    env: 'SCREENCONF_ALLOW_INSECURE_HTTP',
    help: 'allow credentials over plain http:// to a host that is not loopback',
    boolean: true,
  },
  reportDir: {
    flag: 'report-dir',
    env: 'SCREENCONF_REPORT_DIR',
    help:
      'folder of the reports: one folder per run (<UTC time>-<run id>/: conformance.json, report.html, ' +
      'report.md, junit.xml, SHA256SUMS), a "latest" link to the newest, and the run ledger (default reports/)',
  },
  signKey: {
    flag: 'sign-key',
    env: 'SCREENCONF_SIGN_KEY',
    help:
      "Ed25519 private key (PEM, from screenconf keygen): sign the run folder's SHA256SUMS into SHA256SUMS.sig, " +
      'for screenconf verify --public-key',
  },
  mdMaxChars: {
    flag: 'md-max-chars',
    env: 'SCREENCONF_MD_MAX_CHARS',
    help:
      'longest report.md, in characters (default 60000: a GitHub comment holds 65536); failures past it are ' +
      'listed one line each, then by id',
  },
  keep: {
    flag: 'keep',
    env: 'SCREENCONF_KEEP',
    help: 'leave the cases the run creates on the target, for debugging (the ledger lists them)',
    boolean: true,
  },
  seed: {
    flag: 'seed',
    env: 'SCREENCONF_SEED',
    help: 'seed of the generated inputs; a run with the same seed replays them',
  },
  runs: { flag: 'runs', env: 'SCREENCONF_RUNS', help: 'generated cases per property (default 20)' },
  shard: {
    flag: 'shard',
    env: 'SCREENCONF_SHARD',
    help:
      "I/N: run only vitest's shard I of N of the suite files (needs --seed, the same on every shard) and write a " +
      'partial report; screenconf merge makes one report of the N',
  },
  duration: {
    flag: 'duration',
    env: 'SCREENCONF_DURATION',
    help:
      'a time budget (90s, 30m, 2h): the suites run again in rounds, each property on generated cases of its own, ' +
      'until it is spent (a round that began runs to its end)',
  },
  shardBy: {
    flag: 'shard-by',
    env: 'SCREENCONF_SHARD_BY',
    help:
      'with --shard: files (default: vitest splits the suite files) or runs (a long campaign: every shard runs ' +
      'every suite file, each property its share of --runs on seeds of its own)',
  },
  timeoutMs: {
    flag: 'timeout-ms',
    env: 'SCREENCONF_TIMEOUT_MS',
    help: 'per-request timeout, connect to last byte, in ms (default 15000)',
  },
  deadlineMs: {
    flag: 'deadline-ms',
    env: 'SCREENCONF_DEADLINE_MS',
    help: 'stop the whole run after this many ms, clean up and exit 3 (default: no deadline)',
  },
  maxResponseBytes: {
    flag: 'max-response-bytes',
    env: 'SCREENCONF_MAX_RESPONSE_BYTES',
    help: 'largest response body read, in bytes (default 4194304)',
  },
  concurrency: {
    flag: 'concurrency',
    env: 'SCREENCONF_CONCURRENCY',
    help: `requests in flight at once, for the whole run (default 4 with --base-url, unbounded on the embedded server)`,
  },
  maxRps: {
    flag: 'max-rps',
    env: 'SCREENCONF_MAX_RPS',
    help:
      `requests started per second, for the whole run (default 20 with --base-url, unbounded on the embedded ` +
      `server); 0 = unbounded`,
  },
  suites: { flag: 'suites', env: 'SCREENCONF_SUITES', help: `comma-separated subset of: ${SUITES.join(', ')}` },
  suitesDir: {
    flag: 'suites-dir',
    env: 'SCREENCONF_SUITES_DIR',
    help:
      'folder of your own suite files (*.test.ts, .js, .mjs, importing from "screenconf"), run beside the suites; ' +
      'their requirements come from its catalogue.json (or --user-catalogue)',
  },
  userCatalogue: {
    flag: 'user-catalogue',
    env: 'SCREENCONF_USER_CATALOGUE',
    help: 'JSON file of your own requirements (id, level, statement, source); default catalogue.json in --suites-dir',
  },
  only: {
    flag: 'only',
    env: 'SCREENCONF_ONLY',
    help: 'REQ-ID[,…]: run only the checks that judge these requirements (screenconf list names them)',
  },
  checks: {
    flag: 'check',
    env: 'SCREENCONF_CHECKS',
    help:
      'NAME, repeatable: run only the checks of this full name ("describe > test", as report.md and conformance.json ' +
      'checks[] name them) in the suites selected (variable: one name per line)',
    multiple: true,
  },
  credentialGuesses: {
    flag: 'credential-guesses',
    env: 'SCREENCONF_CREDENTIAL_GUESSES',
    help:
      'send at most this many requests with near-miss credentials (missing, malformed, never issued: altered ' +
      'copies of ours), spread over every kind and endpoint (default: all, about 210), for a target that locks out ' +
      'guessing; they are sent by the auth-guesses suite after every other suite, and a lockout is waited out',
  },
  maxFailures: {
    flag: 'max-failures',
    env: 'SCREENCONF_MAX_FAILURES',
    help: 'stop the run after this many failed checks (cleanup still runs; the report says it was cut short)',
  },
  exitFirst: {
    flag: 'exit-first',
    env: 'SCREENCONF_EXIT_FIRST',
    help: 'stop the run at the first failed check (--max-failures 1)',
    boolean: true,
  },
  provisioner: {
    flag: 'provisioner',
    env: 'SCREENCONF_PROVISIONER',
    help:
      'module (.mjs, .js or .ts) that creates and starts cases on a target with other conventions (see ' +
      'fixtures/provisioner.example.mjs)',
  },
  bulkFailuresPath: {
    flag: 'bulk-failures-path',
    env: 'SCREENCONF_BULK_FAILURES_PATH',
    help:
      'where bulk responses list failed items, as a JSON path (e.g. $.errors), for shapes the harness does not ' +
      'recognise',
  },
  webhookHost: {
    flag: 'webhook-host',
    env: 'SCREENCONF_WEBHOOK_HOST',
    help: 'address the webhook receiver binds (default 127.0.0.1)',
  },
  webhookPort: {
    flag: 'webhook-port',
    env: 'SCREENCONF_WEBHOOK_PORT',
    help: 'port the webhook receiver binds (default: a free port)',
  },
  webhookPublicUrl: {
    flag: 'webhook-public-url',
    env: 'SCREENCONF_WEBHOOK_PUBLIC_URL',
    help: 'base URL the target must call to reach the receiver (a tunnel or CI service address)',
  },
  webhookTimeoutMs: {
    flag: 'webhook-timeout-ms',
    env: 'SCREENCONF_WEBHOOK_TIMEOUT_MS',
    help:
      'how long to wait for a webhook delivery, in ms (default 15000; 8000 against the embedded server, whose ' +
      'processing the run sets)',
  },
  processingTimeoutMs: {
    flag: 'processing-timeout-ms',
    env: 'SCREENCONF_PROCESSING_TIMEOUT_MS',
    help:
      'how long a started case may take to complete (is_complete true) while a check polls it, in ms ' +
      '(default 10000)',
  },
  referenceFaults: {
    flag: 'reference-faults',
    env: 'SCREENCONF_REFERENCE_FAULTS',
    help: 'self-tests only: fault switches for the embedded reference server, comma-separated',
  },
  referenceVariants: {
    flag: 'reference-variants',
    env: 'SCREENCONF_REFERENCE_VARIANTS',
    help: 'self-tests only: variant switches (legal choices) for the embedded reference server, comma-separated',
  },
  targets: {
    flag: 'target',
    env: 'SCREENCONF_TARGETS',
    help: 'LABEL=URL, repeatable: run against each target, one merged report (variable: comma-separated)',
    multiple: true,
  },
  expect: {
    flag: 'expect',
    env: 'SCREENCONF_EXPECT',
    help: 'expectations file (JSON): known failures, each with a reason and an expiry date',
  },
  strict: {
    flag: 'strict',
    env: 'SCREENCONF_STRICT',
    help: 'SHOULD warnings fail the run too (exit 1)',
    boolean: true,
  },
  shrinkTimeMs: {
    flag: 'shrink-time-ms',
    env: 'SCREENCONF_SHRINK_TIME_MS',
    help: 'how long a failing property may shrink its counterexample against the target, in ms (default 10000)',
  },
  shrinkRequests: {
    flag: 'shrink-requests',
    env: 'SCREENCONF_SHRINK_REQUESTS',
    help: 'how many requests a failing property may send while shrinking (default 300)',
  },
  quiet: {
    flag: 'quiet',
    env: 'SCREENCONF_QUIET',
    help: 'no live progress while the suites run (the summary is still printed)',
    boolean: true,
  },
  progressIntervalMs: {
    flag: 'progress-interval-ms',
    env: 'SCREENCONF_PROGRESS_INTERVAL_MS',
    help: 'off a terminal (a CI log): a progress line this often while the suites run, in ms (default 10000)',
  },
  requireComplete: {
    flag: 'require-complete',
    env: 'SCREENCONF_REQUIRE_COMPLETE',
    help: 'a MUST requirement no check judged (not selected, a capability missing) fails the run (exit 1)',
    boolean: true,
  },
  targetImage: {
    flag: 'target-image',
    env: 'SCREENCONF_TARGET_IMAGE',
    help:
      'container image to start and run against (testcontainers: a Docker-compatible engine, DOCKER_HOST); ' +
      'removed at the end; instead of --base-url',
  },
  targetPort: {
    flag: 'target-port',
    env: 'SCREENCONF_TARGET_PORT',
    help: 'port the image serves HTTP on inside the container (default 8080)',
  },
  targetEnv: {
    flag: 'target-env',
    env: 'SCREENCONF_TARGET_ENV',
    help: 'K=V, repeatable: an environment variable of the target container (variable: one K=V per line)',
    multiple: true,
  },
  targetReadyTimeoutMs: {
    flag: 'target-ready-timeout-ms',
    env: 'SCREENCONF_TARGET_READY_TIMEOUT_MS',
    help: 'how long the container gets to answer HTTP on its port, in ms (default 60000)',
  },
} as const satisfies Record<
  string,
  { flag: string; env: string; help: string; secret?: boolean; boolean?: boolean; multiple?: boolean }
>;

/** The polite defaults toward a target given by --base-url (a shared staging server, say). */
export const URL_TARGET_LIMITS = { concurrency: 4, maxRps: 20 } as const;

/** Suite files run in at most this many worker processes at once. */
export const MAX_WORKERS = 2;

/** The load bounds of the run, and the share of each process (workers run in parallel). */
export function loadLimits(
  config: { concurrency?: number | undefined; maxRps?: number | undefined },
  kind: TargetKind,
) {
  const concurrency = config.concurrency ?? (kind === 'url' ? URL_TARGET_LIMITS.concurrency : 0);
  const maxRps = config.maxRps ?? (kind === 'url' ? URL_TARGET_LIMITS.maxRps : 0);
  const workers = concurrency > 0 ? Math.min(MAX_WORKERS, concurrency) : MAX_WORKERS;
  return {
    concurrency,
    maxRps,
    workers,
    perWorker: {
      concurrency: concurrency > 0 ? Math.floor(concurrency / workers) : 0,
      maxRps: maxRps > 0 ? maxRps / workers : 0,
    },
  };
}

/** Secret settings that may also be read from a file, and the setting naming the file. */
export const SECRET_FILES = {
  clientSecret: 'clientSecretFile',
  apiKey: 'apiKeyFile',
  peerClientSecret: 'peerClientSecretFile',
} as const;

export type SettingKey = keyof typeof SETTINGS;

/** Settings whose values are secrets: redacted from every output, "[REDACTED]" in the report's run.options. */
export const SECRET_SETTINGS: readonly SettingKey[] = (Object.keys(SETTINGS) as SettingKey[]).filter(
  (k) => 'secret' in SETTINGS[k] && SETTINGS[k].secret,
);

/**
 * The settings of a run as the report shows them: every set value, except that a secret is
 * "[REDACTED]" (that it was given is worth knowing; its value never leaves the harness), at
 * any depth (a target entry carries its own credentials).
 */
export function publicOptions(config: Record<string, unknown>, secretKeys: readonly string[]): Record<string, unknown> {
  const clean = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(clean);
    if (value === null || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v === undefined) continue;
      out[key] = secretKeys.includes(key) ? REDACTED : clean(v);
    }
    return out;
  };
  return clean(config) as Record<string, unknown>;
}
