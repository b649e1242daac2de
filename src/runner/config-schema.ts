/**
 * The rules every setting's value must keep, as a zod schema; config.ts resolves the sources
 * (flags, environment, file) and reports a broken rule where its value came from.
 */
import { z } from 'zod';
import { FAULTS, type FaultName, isFaultName } from '../reference/faults.ts';
import { isVariantName, VARIANTS, type VariantName, variantConflict } from '../reference/variants.ts';
import { findRequirement } from '../spec/index.ts';
import { DEFAULT_MD_MAX_CHARS, MIN_MD_MAX_CHARS } from '../report/markdown.ts';
import { type SettingKey, SUITES } from './settings.ts';
import { didYouMean } from '../base/suggest.ts';

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

/** What --only says of ids that are in no catalogue the run has. */
export function unknownRequirements(ids: readonly string[]): string {
  return `names unknown requirements: ${ids.join(', ')} (screenconf list)`;
}

/** A target label: what names it in reports and the expectations file (`us`, `eu-west`). */
export const TARGET_LABEL = /^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/;

/** Credentials a target entry of the config file may carry; those it leaves out are the shared ones. */
export const TARGET_CREDENTIALS = ['clientId', 'clientSecret', 'apiKey', 'peerClientId', 'peerClientSecret'] as const;

/** One target of a run with several (`--target LABEL=URL`, or an entry of `targets` in the config file). */
export const TargetSetting = z
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
  z.array(TargetSetting).min(1, { message: 'must name at least one target' }),
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
    credentials: z.string().min(1, { message: 'must name a file' }).optional(),
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
    signKey: z.string().min(1, { message: 'must name a key file' }).optional(),
    mdMaxChars: intFrom(MIN_MD_MAX_CHARS, 10_000_000).default(DEFAULT_MD_MAX_CHARS),
    seed: intFrom(0, 2 ** 31 - 1).optional(),
    runs: intFrom(1, 100_000).default(20),
    shard: z
      .string()
      .trim()
      .regex(/^\d+\/\d+$/, { message: 'must be I/N, like 2/4' })
      .transform((v) => {
        const [index, count] = v.split('/').map(Number) as [number, number];
        return { index, count };
      })
      .refine((s) => s.count >= 1 && s.index >= 1 && s.index <= s.count, {
        message: 'must be I/N with 1 ≤ I ≤ N, like 2/4',
      })
      .optional(),
    duration: z
      .string()
      .trim()
      .regex(/^\d+(ms|s|m|h)$/, { message: 'must be a time like 90s, 30m or 2h' })
      .transform((v) => {
        const [, n, unit] = /^(\d+)(ms|s|m|h)$/.exec(v)!;
        return Number(n) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[unit as 'ms' | 's' | 'm' | 'h'];
      })
      .refine((ms) => ms >= 1000 && ms <= 7 * 86_400_000, { message: 'must be from 1s to 168h' })
      .optional(),
    shardBy: z.enum(['files', 'runs'], { message: 'must be files or runs' }).default('files'),
    timeoutMs: intFrom(100, 600_000).default(15_000),
    deadlineMs: intFrom(1, 86_400_000).optional(),
    maxResponseBytes: intFrom(1024, 1024 ** 3).default(4 * 1024 * 1024),
    concurrency: intFrom(1, 1000).optional(),
    maxRps: intFrom(0, 100_000).optional(),
    suites: list
      .superRefine((xs, ctx) => {
        const unknown = xs.find((x) => !SUITES.includes(x));
        if (unknown !== undefined)
          ctx.addIssue({
            code: 'custom',
            message: `names "${unknown}", not a suite${didYouMean(unknown, SUITES)}; the suites: ${SUITES.join(', ')}`,
          });
      })
      .optional(),
    suitesDir: z.string().min(1, { message: 'must name a folder' }).optional(),
    userCatalogue: z.string().min(1, { message: 'must name a file' }).optional(),
    // Its ids are checked against the catalogue below, and against the user's too with --suites-dir (user-suites.ts).
    only: list.refine((xs) => xs.length > 0, { message: 'must name at least one requirement' }).optional(),
    // Names hold commas: one per flag, one per line of the variable.
    checks: z
      .preprocess(
        (v) => (typeof v === 'string' ? v.split(/\r?\n/).filter((l) => l.trim() !== '') : v),
        z.array(z.string().trim().min(1, { message: 'must not be empty' })),
      )
      .refine((xs) => xs.length > 0, { message: 'must name at least one check' })
      .optional(),
    credentialGuesses: intFrom(0, 100_000).optional(),
    maxFailures: intFrom(1, 100_000).optional(),
    exitFirst: bool.default(false),
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
    // Its default is the target's (runner/target.ts): the embedded server's deliveries come sooner.
    webhookTimeoutMs: intFrom(100, 600_000).optional(),
    processingTimeoutMs: intFrom(100, 600_000).default(10_000),
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
    requireComplete: bool.default(false),
    quiet: bool.default(false),
    progressIntervalMs: intFrom(100, 3_600_000).default(10_000),
    shrinkTimeMs: intFrom(0, 3_600_000).default(10_000),
    shrinkRequests: intFrom(0, 1_000_000).default(300),
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
    if (c.only !== undefined && c.suitesDir === undefined) {
      const unknown = c.only.filter((x) => !findRequirement(x));
      need(unknown.length === 0, 'only', unknownRequirements(unknown));
    }
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
          'is only used with --base-url, --target or --target-image (without them the embedded server supplies ' +
            'credentials)',
        );
      }
    } else {
      for (const key of ['referenceFaults', 'referenceVariants'] as const)
        need(
          c[key].length === 0,
          key,
          `applies only to the embedded reference server (no ` +
            `${c.baseUrl === undefined ? '--target-image' : '--base-url'})`,
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
    if (c.shard !== undefined) {
      need(c.seed !== undefined, 'shard', 'needs --seed (SCREENCONF_SEED), the same on every shard');
      const selected = c.suites?.length ?? SUITES.length;
      // With --suites-dir the user's files are shared out too; how many there are is known once the folder is read.
      if (c.shardBy === 'files' && c.suitesDir === undefined)
        need(
          c.shard.count <= selected,
          'shard',
          `splits ${selected} suite file(s) into ${c.shard.count} shards: at most ${selected}`,
        );
      else if (c.shardBy === 'runs')
        need(
          c.shard.count <= c.runs,
          'shard',
          `splits --runs ${c.runs} into ${c.shard.count} shards: at most ${c.runs}`,
        );
    } else need(c.shardBy === 'files', 'shardBy', 'applies only with --shard');
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
