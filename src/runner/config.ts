/**
 * Run configuration: flags > environment (SCREENCONF_*) > config file, validated with zod.
 * A bad value is reported with the flag (and variable) that carries it and the rule it breaks.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { HarnessError } from '../errors.ts';
import { FAULTS, isFaultName, type FaultName } from '../reference/faults.ts';
import { PACKAGE_ROOT } from '../version.ts';

/** The suites: the files suites/<name>.test.ts, by name. */
export const SUITES: readonly string[] = readdirSync(resolve(PACKAGE_ROOT, 'suites'))
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => f.slice(0, -'.test.ts'.length))
  .sort();
export type SuiteName = string;

/** One row per setting: its key in the config file, its flag, its environment variable. */
export const SETTINGS = {
  baseUrl: { flag: 'base-url', env: 'SCREENCONF_BASE_URL', help: 'target base URL; without it the embedded reference server is started' },
  clientId: { flag: 'client-id', env: 'SCREENCONF_CLIENT_ID', help: 'OAuth client_id (a UUID)' },
  clientSecret: { flag: 'client-secret', env: 'SCREENCONF_CLIENT_SECRET', help: 'OAuth client_secret', secret: true },
  apiKey: { flag: 'api-key', env: 'SCREENCONF_API_KEY', help: 'API key of the same organisation (enables the API-key checks)', secret: true },
  peerClientId: { flag: 'peer-client-id', env: 'SCREENCONF_PEER_CLIENT_ID', help: 'client_id of a second organisation (enables tenant checks)' },
  peerClientSecret: { flag: 'peer-client-secret', env: 'SCREENCONF_PEER_CLIENT_SECRET', help: 'client_secret of the second organisation', secret: true },
  reportDir: { flag: 'report-dir', env: 'SCREENCONF_REPORT_DIR', help: 'folder for conformance.json and junit.xml (default reports/)' },
  seed: { flag: 'seed', env: 'SCREENCONF_SEED', help: 'seed of the generated inputs; a run with the same seed replays them' },
  runs: { flag: 'runs', env: 'SCREENCONF_RUNS', help: 'generated cases per property (default 25)' },
  timeoutMs: { flag: 'timeout-ms', env: 'SCREENCONF_TIMEOUT_MS', help: 'per-request timeout in ms (default 15000)' },
  suites: { flag: 'suites', env: 'SCREENCONF_SUITES', help: `comma-separated subset of: ${SUITES.join(', ')}` },
  bulkFailuresPath: { flag: 'bulk-failures-path', env: 'SCREENCONF_BULK_FAILURES_PATH', help: 'where bulk responses list failed items, as a JSON path (e.g. $.errors), for shapes the harness does not recognise' },
  webhookHost: { flag: 'webhook-host', env: 'SCREENCONF_WEBHOOK_HOST', help: 'address the webhook receiver binds (default 127.0.0.1)' },
  webhookPort: { flag: 'webhook-port', env: 'SCREENCONF_WEBHOOK_PORT', help: 'port the webhook receiver binds (default: a free port)' },
  webhookPublicUrl: { flag: 'webhook-public-url', env: 'SCREENCONF_WEBHOOK_PUBLIC_URL', help: 'base URL the target must call to reach the receiver (a tunnel or CI service address)' },
  webhookTimeoutMs: { flag: 'webhook-timeout-ms', env: 'SCREENCONF_WEBHOOK_TIMEOUT_MS', help: 'how long to wait for a webhook delivery, in ms (default 15000)' },
  referenceFaults: { flag: 'reference-faults', env: 'SCREENCONF_REFERENCE_FAULTS', help: 'self-tests only: fault switches for the embedded reference server, comma-separated' },
} as const satisfies Record<string, { flag: string; env: string; help: string; secret?: boolean }>;

export type SettingKey = keyof typeof SETTINGS;

const list = z.preprocess(
  (v) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : v),
  z.array(z.string()),
);
const intFrom = (min: number, max: number) =>
  z.preprocess((v) => (typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v), z.int({ message: 'must be an integer' }).min(min, { message: `must be at least ${min}` }).max(max, { message: `must be at most ${max}` }));

function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

export const ConfigSchema = z
  .object({
    baseUrl: z.string().refine(isHttpUrl, { message: 'must be an absolute http:// or https:// URL' }).optional(),
    clientId: z.uuid({ message: 'must be a UUID' }).optional(),
    clientSecret: z.string().min(1, { message: 'must not be empty' }).optional(),
    apiKey: z.string().min(1, { message: 'must not be empty' }).optional(),
    peerClientId: z.uuid({ message: 'must be a UUID' }).optional(),
    peerClientSecret: z.string().min(1, { message: 'must not be empty' }).optional(),
    reportDir: z.string().min(1).default('reports'),
    seed: intFrom(0, 2 ** 31 - 1).optional(),
    runs: intFrom(1, 100_000).default(25),
    timeoutMs: intFrom(100, 600_000).default(15_000),
    suites: list
      .refine((xs) => xs.every((x) => SUITES.includes(x)), { message: `each must be one of ${SUITES.join(', ')}` })
      .optional(),
    bulkFailuresPath: z
      .string()
      .regex(/^\$(\.[A-Za-z_][A-Za-z0-9_-]*|\[\d+\])+$/, { message: 'must be a JSON path of keys and indexes, like $.errors or $.data.failed' })
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
  })
  .strict()
  .superRefine((c, ctx) => {
    const need = (ok: boolean, path: SettingKey, message: string) => {
      if (!ok) ctx.addIssue({ code: 'custom', path: [path], message });
    };
    if (c.baseUrl === undefined) {
      for (const key of ['clientId', 'clientSecret', 'apiKey', 'peerClientId', 'peerClientSecret'] as const) {
        need(c[key] === undefined, key, 'is only used with --base-url (without it the embedded server supplies credentials)');
      }
    } else {
      need(c.referenceFaults.length === 0, 'referenceFaults', 'applies only to the embedded reference server (no --base-url)');
      need((c.clientId === undefined) === (c.clientSecret === undefined), c.clientId === undefined ? 'clientId' : 'clientSecret', 'client id and secret go together');
      need(c.clientId !== undefined || c.apiKey !== undefined, 'clientId', 'is required with --base-url (or give --api-key)');
    }
    need((c.peerClientId === undefined) === (c.peerClientSecret === undefined), c.peerClientId === undefined ? 'peerClientId' : 'peerClientSecret', 'peer client id and secret go together');
  });

export type Config = z.infer<typeof ConfigSchema>;
export type ConfigInput = Partial<Record<SettingKey, unknown>>;

function describeKey(key: string): string {
  const s = SETTINGS[key as SettingKey];
  return s ? `--${s.flag} (${s.env})` : `"${key}"`;
}

/** Reads a JSON config file; a missing explicit file is an error, a missing default one is not. */
export function readConfigFile(path: string | undefined, cwd: string): ConfigInput {
  const file = path ? resolve(cwd, path) : resolve(cwd, 'screenconf.config.json');
  if (!existsSync(file)) {
    if (path) throw new HarnessError('SC_CONFIG_FILE', `config file not found: ${file}`);
    return {};
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new HarnessError('SC_CONFIG_FILE', `config file ${file} is not valid JSON: ${(err as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new HarnessError('SC_CONFIG_FILE', `config file ${file} must hold a JSON object`);
  }
  for (const key of Object.keys(parsed)) {
    if (!(key in SETTINGS)) throw new HarnessError('SC_CONFIG_FILE', `config file ${file}: unknown setting "${key}" (known: ${Object.keys(SETTINGS).join(', ')})`);
  }
  return parsed as ConfigInput;
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

/** Merges the sources (flags win over env, env over file) and validates the result. */
export function resolveConfig(sources: { flags: ConfigInput; env: ConfigInput; file: ConfigInput }): Config {
  const merged = { ...sources.file, ...sources.env, ...sources.flags };
  for (const k of Object.keys(merged)) if (merged[k as SettingKey] === undefined) delete merged[k as SettingKey];
  const result = ConfigSchema.safeParse(merged);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const key = String(issue.path[0] ?? '');
    const message = issue.code === 'unrecognized_keys' ? `unknown setting ${issue.keys.map(describeKey).join(', ')}` : `${describeKey(key)} ${issue.message}`;
    throw new HarnessError('SC_CONFIG', message);
  }
  return result.data;
}

/** The secrets of a config, for redaction. */
export function configSecrets(c: Partial<Config>): string[] {
  return Object.entries(SETTINGS)
    .filter(([, s]) => 'secret' in s && s.secret)
    .map(([k]) => c[k as SettingKey])
    .filter((v): v is string => typeof v === 'string');
}
