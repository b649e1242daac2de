/**
 * Run configuration: flags > environment (SCREENCONF_*) > config file, validated with zod.
 * A bad value is reported where it came from (the flag, the variable, or the config file and
 * line) with the rule it breaks, and never echoed when it is a secret.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { HarnessError } from '../errors.ts';
import { lineAt, parseJsonText } from './json-text.ts';
import { FAULTS, isFaultName, type FaultName } from '../reference/faults.ts';
import { isVariantName, type VariantName, VARIANTS, variantConflict } from '../reference/variants.ts';
import { PACKAGE_ROOT } from '../version.ts';

/** The suites: the files suites/<name>.test.ts, by name. */
export const SUITES: readonly string[] = readdirSync(resolve(PACKAGE_ROOT, 'suites'))
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => f.slice(0, -'.test.ts'.length))
  .sort();
export type SuiteName = string;

/** One row per setting: its key in the config file, its flag, its environment variable. */
export const SETTINGS = {
  baseUrl: {
    flag: 'base-url',
    env: 'SCREENCONF_BASE_URL',
    help: 'target base URL; without it the embedded reference server is started',
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
    help: 'folder of the reports: one folder per run (<UTC time>-<run id>/: conformance.json, report.html, report.md, junit.xml, SHA256SUMS), a "latest" link to the newest, and the run ledger (default reports/)',
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
  runs: { flag: 'runs', env: 'SCREENCONF_RUNS', help: 'generated cases per property (default 25)' },
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
    help: `requests started per second, for the whole run (default 20 with --base-url, unbounded on the embedded server); 0 = unbounded`,
  },
  suites: { flag: 'suites', env: 'SCREENCONF_SUITES', help: `comma-separated subset of: ${SUITES.join(', ')}` },
  provisioner: {
    flag: 'provisioner',
    env: 'SCREENCONF_PROVISIONER',
    help: 'module (.mjs, .js or .ts) that creates and starts cases on a target with other conventions (see fixtures/provisioner.example.mjs)',
  },
  bulkFailuresPath: {
    flag: 'bulk-failures-path',
    env: 'SCREENCONF_BULK_FAILURES_PATH',
    help: 'where bulk responses list failed items, as a JSON path (e.g. $.errors), for shapes the harness does not recognise',
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
    help: 'how long to wait for a webhook delivery, in ms (default 15000)',
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
  targetImage: {
    flag: 'target-image',
    env: 'SCREENCONF_TARGET_IMAGE',
    help: 'container image to start and run against (testcontainers: a Docker-compatible engine, DOCKER_HOST); removed at the end; instead of --base-url',
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
export function loadLimits(config: Pick<Config, 'concurrency' | 'maxRps'>, kind: 'embedded' | 'url') {
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

const list = z.preprocess(
  (v) =>
    typeof v === 'string'
      ? v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : v,
  z.array(z.string()),
);
const bool = z.preprocess(
  (v) => {
    if (typeof v !== 'string') return v;
    const t = v.trim().toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(t)) return true;
    if (['', '0', 'false', 'no', 'off'].includes(t)) return false;
    return v;
  },
  z.boolean({ message: 'must be true or false' }),
);
const intFrom = (min: number, max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v),
    z
      .int({ message: 'must be an integer' })
      .min(min, { message: `must be at least ${min}` })
      .max(max, { message: `must be at most ${max}` }),
  );

function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

function hasNoUserinfo(s: string): boolean {
  try {
    const u = new URL(s);
    return u.username === '' && u.password === '';
  } catch {
    return true;
  }
}

/** Whether a host name is this machine: localhost, *.localhost, 127.0.0.0/8, ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  return (
    h === 'localhost' ||
    h.endsWith('.localhost') ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) ||
    h === '::1' ||
    /^::ffff:127\./.test(h)
  );
}

/** `K=V` lines or items, or an object {K: V}, as the environment of a target container. */
const envMap = z.preprocess(
  (v) => {
    const items = typeof v === 'string' ? v.split(/\r?\n/).filter((l) => l.trim() !== '') : v;
    if (!Array.isArray(items)) return items;
    const out: Record<string, unknown> = {};
    for (const item of items) {
      if (typeof item !== 'string') return items;
      const eq = item.indexOf('=');
      if (eq <= 0) return items;
      out[item.slice(0, eq)] = item.slice(eq + 1);
    }
    return out;
  },
  z.record(
    z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { message: 'names must be letters, digits and _, not starting with a digit' }),
    z.string(),
    { message: 'must be K=V items (variable: one K=V per line)' },
  ),
);

/** A target label: what names it in reports and the expectations file (`us`, `eu-west`). */
export const TARGET_LABEL = /^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/;

/** Credentials a target entry of the config file may carry; those it leaves out are the shared ones. */
export const TARGET_CREDENTIALS = ['clientId', 'clientSecret', 'apiKey', 'peerClientId', 'peerClientSecret'] as const;

/** One target of a run with several (`--target LABEL=URL`, or an entry of `targets` in the config file). */
const TargetEntry = z
  .object({
    label: z.string().regex(TARGET_LABEL, { message: 'must be LABEL=URL, the label 1 to 32 letters, digits, - or _' }),
    baseUrl: z
      .string()
      .refine(isHttpUrl, { message: 'must be an absolute http:// or https:// URL' })
      .refine(hasNoUserinfo, { message: 'must not carry user:password@' }),
    clientId: z.uuid({ message: 'must be a UUID' }).optional(),
    clientSecret: z.string().min(1, { message: 'must not be empty' }).optional(),
    clientSecretFile: z.string().min(1, { message: 'must not be empty' }).optional(),
    apiKey: z.string().min(1, { message: 'must not be empty' }).optional(),
    apiKeyFile: z.string().min(1, { message: 'must not be empty' }).optional(),
    peerClientId: z.uuid({ message: 'must be a UUID' }).optional(),
    peerClientSecret: z.string().min(1, { message: 'must not be empty' }).optional(),
    peerClientSecretFile: z.string().min(1, { message: 'must not be empty' }).optional(),
  })
  .strict();

/** `us=https://…` → {label, baseUrl}; a variable holds them comma-separated. */
const targetList = z.preprocess(
  (v) => {
    const items =
      typeof v === 'string'
        ? v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : v;
    if (!Array.isArray(items)) return items;
    return items.map((item) => {
      if (typeof item !== 'string') return item;
      const eq = item.indexOf('=');
      return eq > 0
        ? { label: item.slice(0, eq).trim(), baseUrl: item.slice(eq + 1).trim() }
        : { label: '', baseUrl: item };
    });
  },
  z.array(TargetEntry).min(1, { message: 'must name at least one target' }),
);

export const ConfigSchema = z
  .object({
    baseUrl: z
      .string()
      .refine(isHttpUrl, { message: 'must be an absolute http:// or https:// URL' })
      .refine(hasNoUserinfo, {
        message: 'must not carry user:password@ (credentials go in --client-id/--client-secret or --api-key)',
      })
      .optional(),
    clientId: z.uuid({ message: 'must be a UUID' }).optional(),
    clientSecret: z.string().min(1, { message: 'must not be empty' }).optional(),
    apiKey: z.string().min(1, { message: 'must not be empty' }).optional(),
    peerClientId: z.uuid({ message: 'must be a UUID' }).optional(),
    peerClientSecret: z.string().min(1, { message: 'must not be empty' }).optional(),
    clientSecretFile: z.string().min(1, { message: 'must not be empty' }).optional(),
    apiKeyFile: z.string().min(1, { message: 'must not be empty' }).optional(),
    peerClientSecretFile: z.string().min(1, { message: 'must not be empty' }).optional(),
    allowInsecureHttp: bool.default(false),
    keep: bool.default(false),
    reportDir: z.string().min(1).default('reports'),
    seed: intFrom(0, 2 ** 31 - 1).optional(),
    runs: intFrom(1, 100_000).default(25),
    timeoutMs: intFrom(100, 600_000).default(15_000),
    deadlineMs: intFrom(1, 86_400_000).optional(),
    maxResponseBytes: intFrom(1024, 1024 ** 3).default(4 * 1024 * 1024),
    concurrency: intFrom(1, 1000).optional(),
    maxRps: intFrom(0, 100_000).optional(),
    suites: list
      .refine((xs) => xs.every((x) => SUITES.includes(x)), { message: `each must be one of ${SUITES.join(', ')}` })
      .optional(),
    provisioner: z.string().min(1, { message: 'must name a module file' }).optional(),
    bulkFailuresPath: z
      .string()
      .regex(/^\$(\.[A-Za-z_][A-Za-z0-9_-]*|\[\d+\])+$/, {
        message: 'must be a JSON path of keys and indexes, like $.errors or $.data.failed',
      })
      .optional(),
    webhookHost: z.string().min(1).default('127.0.0.1'),
    webhookPort: intFrom(0, 65535).default(0),
    webhookPublicUrl: z
      .string()
      .refine(isHttpUrl, { message: 'must be an absolute http:// or https:// URL' })
      .optional(),
    webhookTimeoutMs: intFrom(100, 600_000).default(15_000),
    referenceFaults: list
      .refine((xs) => xs.every(isFaultName), { message: `each must be one of ${Object.keys(FAULTS).join(', ')}` })
      .transform((xs) => xs as FaultName[])
      .default([]),
    referenceVariants: list
      .refine((xs) => xs.every(isVariantName), { message: `each must be one of ${Object.keys(VARIANTS).join(', ')}` })
      .transform((xs) => xs as VariantName[])
      .superRefine((xs, ctx) => {
        const problem = variantConflict(xs);
        if (problem) ctx.addIssue({ code: 'custom', message: `names alternatives: ${problem}` });
      })
      .default([]),
    targets: targetList.optional(),
    expect: z.string().min(1, { message: 'must name a file' }).optional(),
    strict: bool.default(false),
    targetImage: z
      .string()
      .regex(/^[^\s]+$/, { message: 'must be an image name, like localhost/screenconf-reference:latest' })
      .optional(),
    targetPort: intFrom(1, 65535).optional(),
    targetEnv: envMap.optional(),
    targetReadyTimeoutMs: intFrom(1000, 3_600_000).optional(),
  })
  .strict()
  .superRefine((c, ctx) => {
    const need = (ok: boolean, path: SettingKey, message: string) => {
      if (!ok) ctx.addIssue({ code: 'custom', path: [path], message });
    };
    if (c.targetImage !== undefined) {
      need(
        c.baseUrl === undefined,
        'targetImage',
        'and --base-url (SCREENCONF_BASE_URL) both name the target; give one of them',
      );
      need(
        c.targets === undefined,
        'targetImage',
        'and --target (SCREENCONF_TARGETS) both name the target; give one of them',
      );
    } else {
      for (const key of ['targetPort', 'targetEnv', 'targetReadyTimeoutMs'] as const)
        need(c[key] === undefined, key, 'applies only with --target-image');
    }
    if (c.targets !== undefined) {
      need(
        c.baseUrl === undefined,
        'targets',
        'and --base-url (SCREENCONF_BASE_URL) both name the target; give one of them',
      );
      for (const key of ['referenceFaults', 'referenceVariants'] as const)
        need(c[key].length === 0, key, 'applies only to the embedded reference server (no --base-url or --target)');
      const seen = new Set<string>();
      c.targets.forEach((t, i) => {
        if (seen.has(t.label.toLowerCase()))
          ctx.addIssue({
            code: 'custom',
            path: ['targets', i, 'label'],
            message: `names the target "${t.label}" twice`,
          });
        seen.add(t.label.toLowerCase());
      });
    } else if (c.baseUrl === undefined && c.targetImage === undefined) {
      for (const key of ['clientId', 'clientSecret', 'apiKey', 'peerClientId', 'peerClientSecret'] as const) {
        need(
          c[key] === undefined,
          key,
          'is only used with --base-url, --target or --target-image (without them the embedded server supplies credentials)',
        );
      }
    } else {
      for (const key of ['referenceFaults', 'referenceVariants'] as const)
        need(
          c[key].length === 0,
          key,
          `applies only to the embedded reference server (no ${c.baseUrl === undefined ? '--target-image' : '--base-url'})`,
        );
      need(
        (c.clientId === undefined) === (c.clientSecret === undefined),
        c.clientId === undefined ? 'clientId' : 'clientSecret',
        'client id and secret go together',
      );
      need(
        c.clientId !== undefined || c.apiKey !== undefined,
        'clientId',
        `is required with ${c.baseUrl === undefined ? '--target-image' : '--base-url'} (or give --api-key)`,
      );
    }
    need(
      (c.peerClientId === undefined) === (c.peerClientSecret === undefined),
      c.peerClientId === undefined ? 'peerClientId' : 'peerClientSecret',
      'peer client id and secret go together',
    );
  });

/** A target of a run with several, its credentials resolved (its own, else the shared ones). */
export interface TargetConfig {
  label: string;
  baseUrl: string;
  clientId?: string;
  clientSecret?: string;
  apiKey?: string;
  peerClientId?: string;
  peerClientSecret?: string;
}

export type Config = Omit<z.infer<typeof ConfigSchema>, 'targets'> & { targets?: TargetConfig[] };
export type ConfigInput = Partial<Record<SettingKey, unknown>>;

/** Where a config file is, and its text, to name the line of a bad value. */
export interface ConfigFileSource {
  path: string;
  text: string;
}

export interface ConfigSources {
  flags: ConfigInput;
  env: ConfigInput;
  file: ConfigInput;
  /** The config file the `file` values came from, when there is one. */
  fileSource?: ConfigFileSource | undefined;
  /** Folder that relative paths given by flags or variables are resolved against. */
  cwd?: string;
}

/** The line of a top-level key in a JSON object's text (a tiny scanner: strings, nesting). */
export function keyLine(text: string, key: string): number | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      const start = i;
      let value = '';
      for (i++; i < text.length && text[i] !== '"'; i++) {
        if (text[i] === '\\') {
          value += text.slice(i, i + 2);
          i++;
        } else value += text[i];
      }
      if (depth !== 1) continue;
      let j = i + 1;
      while (j < text.length && /\s/.test(text[j]!)) j++;
      if (text[j] !== ':') continue;
      let name: string;
      try {
        name = JSON.parse(`"${value}"`) as string;
      } catch {
        name = value;
      }
      if (name === key) return lineAt(text, start);
    } else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') depth--;
  }
  return undefined;
}

function flagName(key: string): string {
  const s = SETTINGS[key as SettingKey];
  return s ? `--${s.flag} (${s.env})` : `"${key}"`;
}

/** Names where a setting's value came from: the flag, the variable, or the config file and line. */
function describeSource(key: string, sources: ConfigSources): string {
  const s = SETTINGS[key as SettingKey];
  if (!s) return `"${key}"`;
  if (sources.flags[key as SettingKey] !== undefined) return `--${s.flag} (${s.env})`;
  if (sources.env[key as SettingKey] !== undefined) return `${s.env} (--${s.flag})`;
  if (sources.file[key as SettingKey] !== undefined && sources.fileSource) {
    const line = keyLine(sources.fileSource.text, key);
    return `config file ${sources.fileSource.path}${line ? ` line ${line}` : ''}: "${key}" (--${s.flag})`;
  }
  return flagName(key);
}

/** Reads a JSON config file: its values and its source (path and text) for locating errors. */
export function loadConfigFile(
  path: string | undefined,
  cwd: string,
): { values: ConfigInput; source?: ConfigFileSource } {
  const file = path ? resolve(cwd, path) : resolve(cwd, 'screenconf.config.json');
  if (!existsSync(file)) {
    if (path) throw new HarnessError('SC_CONFIG_FILE', `config file not found: ${file}`);
    return { values: {} };
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new HarnessError(
      'SC_CONFIG_FILE',
      `config file ${file} cannot be read: ${(err as { code?: string }).code ?? (err as Error).message}`,
    );
  }
  const json = parseJsonText(text);
  if (!json.ok)
    throw new HarnessError('SC_CONFIG_FILE', `config file ${file}${json.where} is not valid JSON: ${json.message}`);
  const parsed = json.value;
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new HarnessError('SC_CONFIG_FILE', `config file ${file} must hold a JSON object`);
  }
  for (const key of Object.keys(parsed)) {
    if (!(key in SETTINGS)) {
      const line = keyLine(text, key);
      throw new HarnessError(
        'SC_CONFIG_FILE',
        `config file ${file}${line ? ` line ${line}` : ''}: unknown setting "${key}" (known: ${Object.keys(SETTINGS).join(', ')})`,
      );
    }
  }
  return { values: parsed as ConfigInput, source: { path: file, text } };
}

/** Reads a JSON config file; a missing explicit file is an error, a missing default one is not. */
export function readConfigFile(path: string | undefined, cwd: string): ConfigInput {
  return loadConfigFile(path, cwd).values;
}

/** Values from SCREENCONF_* variables; empty variables count as unset. */
export function readEnv(env: NodeJS.ProcessEnv): ConfigInput {
  const out: ConfigInput = {};
  for (const [key, s] of Object.entries(SETTINGS)) {
    const v = env[s.env];
    if (v !== undefined && v !== '') out[key as SettingKey] = v;
  }
  return out;
}

/** 3 for a flag, 2 for a variable, 1 for the config file, 0 when unset. */
function rank(key: SettingKey, sources: ConfigSources): number {
  if (sources.flags[key] !== undefined) return 3;
  if (sources.env[key] !== undefined) return 2;
  if (sources.file[key] !== undefined) return 1;
  return 0;
}

/**
 * Replaces each `...File` setting by the secret read from that file (a trailing newline
 * dropped). The secret and its file given at the same level is an error; otherwise the
 * higher level wins. The file's content never appears in a message.
 */
function readSecretFiles(merged: ConfigInput, sources: ConfigSources): void {
  for (const [secretKey, fileKey] of Object.entries(SECRET_FILES) as [SettingKey, SettingKey][]) {
    const fileRank = rank(fileKey, sources);
    if (fileRank === 0) continue;
    const secretRank = rank(secretKey, sources);
    if (secretRank === fileRank) {
      throw new HarnessError(
        'SC_CONFIG',
        `${describeSource(fileKey, sources)} and --${SETTINGS[secretKey].flag} both give the ${secretKey}; give one`,
      );
    }
    const pathValue = merged[fileKey];
    delete merged[fileKey];
    if (secretRank > fileRank) continue;
    if (typeof pathValue !== 'string' || pathValue === '')
      throw new HarnessError('SC_CONFIG', `${describeSource(fileKey, sources)} must name a file`);
    merged[secretKey] = readSecretFile(
      resolve(settingBase(fileKey, sources), pathValue),
      describeSource(fileKey, sources),
    );
  }
}

/** A secret read from its file, a trailing newline dropped; `what` names the setting in errors (never the content). */
function readSecretFile(file: string, what: string): string {
  let content: string;
  try {
    content = readFileSync(file, 'utf8');
  } catch (err) {
    throw new HarnessError(
      'SC_CONFIG',
      `${what} cannot be read: ${file}: ${(err as { code?: string }).code ?? (err as Error).message}`,
    );
  }
  const secret = content.replace(/[\r\n]+$/, '');
  if (secret === '') throw new HarnessError('SC_CONFIG', `${what}: ${file} is empty`);
  return secret;
}

/** Merges the sources (flags win over env, env over file), reads secret files, and validates the result. */
export function resolveConfig(sources: ConfigSources): Config {
  const merged: ConfigInput = { ...sources.file, ...sources.env, ...sources.flags };
  for (const k of Object.keys(merged)) if (merged[k as SettingKey] === undefined) delete merged[k as SettingKey];
  readSecretFiles(merged, sources);
  const result = ConfigSchema.safeParse(merged);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const key = String(issue.path[0] ?? '');
    const message =
      key === 'targets' && typeof issue.path[1] === 'number'
        ? `${describeSource(key, sources)} ${targetIssue(issue, merged.targets)}`
        : issue.code === 'unrecognized_keys'
          ? `unknown setting ${issue.keys.map(flagName).join(', ')}`
          : `${describeSource(key, sources)} ${ruleText(issue)}`;
    throw new HarnessError('SC_CONFIG', message);
  }
  const { targets: entries, ...rest } = result.data;
  const config: Config = rest;
  if (entries) config.targets = entries.map((entry, i) => resolveTarget(entry, i, config, sources));
  if (config.expect !== undefined) config.expect = resolve(settingBase('expect', sources), config.expect);
  for (const t of config.targets ?? [{ label: '', ...config }]) {
    if (t.baseUrl === undefined || config.allowInsecureHttp) continue;
    const credentials = t.clientSecret !== undefined || t.apiKey !== undefined || t.peerClientSecret !== undefined;
    const url = new URL(t.baseUrl);
    if (credentials && url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
      const where = t.label
        ? `${describeSource('targets', sources)} target "${t.label}"`
        : describeSource('baseUrl', sources);
      throw new HarnessError(
        'SC_INSECURE_TRANSPORT',
        `${where} is plain http:// to ${url.hostname}, which is not this machine: the credentials and access tokens would cross the network unencrypted. Use https://, or pass --allow-insecure-http to accept that`,
      );
    }
  }
  return config;
}

/** A zod issue as the rule a value breaks: "must be a string, not a number" rather than zod's "Invalid input: expected string, received number". */
function ruleText(issue: z.core.$ZodIssue): string {
  const wrongType = issue.code === 'invalid_type' ? /expected (\w+), received (\w+)/.exec(issue.message) : null;
  if (!wrongType) return issue.message;
  const a = (t: string) =>
    t === 'array' ? 'a list' : t === 'object' ? 'an object' : t === 'undefined' ? 'nothing' : `a ${t}`;
  const expected = wrongType[1] === 'array' ? 'a list (a JSON array, or a comma-separated string)' : a(wrongType[1]!);
  return `must be ${expected}, not ${a(wrongType[2]!)}`;
}

/** The folder a path-valued setting is relative to: the config file's when it came from there. */
function settingBase(key: SettingKey, sources: ConfigSources): string {
  return rank(key, sources) === 1 && sources.fileSource
    ? dirname(sources.fileSource.path)
    : (sources.cwd ?? process.cwd());
}

/** A problem with one target entry, named by its position and label. */
function targetIssue(issue: z.core.$ZodIssue, raw: unknown): string {
  const index = issue.path[1] as number;
  const item = Array.isArray(raw)
    ? raw[index]
    : typeof raw === 'string'
      ? raw
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)[index]
      : undefined;
  const label = typeof item === 'string' ? item.split('=')[0] : (item as { label?: unknown } | undefined)?.label;
  const name = `target ${index + 1}${typeof label === 'string' && label && TARGET_LABEL.test(label) ? ` ("${label}")` : ''}`;
  if (issue.code === 'unrecognized_keys')
    return `${name}: unknown key ${issue.keys.map((k) => `"${k}"`).join(', ')} (known: label, baseUrl, ${TARGET_CREDENTIALS.join(', ')}, clientSecretFile, apiKeyFile, peerClientSecretFile)`;
  const field = issue.path[2];
  return `${name}${field === undefined || field === 'label' ? '' : ` ${String(field)}`} ${ruleText(issue)}`;
}

/** A target entry with its secret files read and the shared credentials filled in where it gives none. */
function resolveTarget(
  entry: z.infer<typeof TargetEntry>,
  index: number,
  shared: Config,
  sources: ConfigSources,
): TargetConfig {
  const where = `${describeSource('targets', sources)} target ${index + 1} ("${entry.label}")`;
  const own: Record<string, string | undefined> = { ...entry };
  for (const [secretKey, fileKey] of Object.entries(SECRET_FILES)) {
    const path = own[fileKey];
    delete own[fileKey];
    if (path === undefined) continue;
    if (own[secretKey] !== undefined)
      throw new HarnessError('SC_CONFIG', `${where}: ${secretKey} and ${fileKey} both give the ${secretKey}; give one`);
    own[secretKey] = readSecretFile(resolve(settingBase('targets', sources), path), `${where}: ${fileKey}`);
  }
  const pair = (id: 'clientId' | 'peerClientId', secret: 'clientSecret' | 'peerClientSecret') => {
    if ((own[id] === undefined) !== (own[secret] === undefined))
      throw new HarnessError('SC_CONFIG', `${where}: ${id} and ${secret} go together`);
    return own[id] !== undefined
      ? { [id]: own[id], [secret]: own[secret] }
      : { [id]: shared[id], [secret]: shared[secret] };
  };
  const target = {
    label: entry.label,
    baseUrl: entry.baseUrl,
    ...pair('clientId', 'clientSecret'),
    apiKey: own.apiKey ?? shared.apiKey,
    ...pair('peerClientId', 'peerClientSecret'),
  } as TargetConfig;
  for (const k of Object.keys(target) as (keyof TargetConfig)[]) if (target[k] === undefined) delete target[k];
  if (target.clientId === undefined && target.apiKey === undefined) {
    throw new HarnessError(
      'SC_CONFIG',
      `${where} has no credentials: give --client-id and --client-secret (or --api-key) for every target, or clientId and clientSecret in its entry of the config file`,
    );
  }
  return target;
}

/** Names of container variables whose values are treated as secrets. */
const SECRET_ENV_NAME = /SECRET|PASSWORD|PASSWD|TOKEN|CREDENTIAL|API_?KEY|PRIVATE/i;

/** The secrets of a config, for redaction. */
export function configSecrets(c: Partial<Config>): string[] {
  const own = SECRET_SETTINGS.map((k) => c[k as keyof Config]);
  const perTarget = (c.targets ?? []).flatMap((t) => [t.clientSecret, t.apiKey, t.peerClientSecret]);
  // A target container's variables with a secret-sounding name (DB_PASSWORD, SCREENCONF_SERVE_CREDENTIALS).
  const containerEnv = Object.entries(c.targetEnv ?? {})
    .filter(([k]) => SECRET_ENV_NAME.test(k))
    .map(([, v]) => v);
  return [...own, ...perTarget, ...containerEnv].filter((v): v is string => typeof v === 'string');
}
