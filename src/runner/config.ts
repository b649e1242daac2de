/**
 * Run configuration: flags > environment (SCREENCONF_*) > config file, validated with the rules
 * of config-schema.ts. A bad value is reported where it came from (the flag, the variable, or the
 * config file and line) with the rule it breaks, and never echoed when it is a secret.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { z } from 'zod';
import { lineAt, parseJsonText } from '../base/json.ts';
import { isLoopbackHost } from '../base/net.ts';
import { HarnessError } from '../errors.ts';
import {
  type Config,
  type ConfigInput,
  ConfigSchema,
  TARGET_CREDENTIALS,
  TARGET_LABEL,
  type TargetConfig,
  type TargetSetting,
} from './config-schema.ts';
import { applyCredentialsFile } from './credentials-file.ts';
import { SECRET_FILES, SECRET_SETTINGS, SETTINGS, type SettingKey } from './settings.ts';

export type { Config, ConfigInput, TargetConfig } from './config-schema.ts';

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
  /** The whole environment: the credentials file may name the variable of a secret. */
  environment?: NodeJS.ProcessEnv;
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
        `config file ${file}${line ? ` line ${line}` : ''}: unknown setting "${key}" (known: ` +
          `${Object.keys(SETTINGS).join(', ')})`,
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
  if (merged.credentials !== undefined)
    applyCredentialsFile(merged, settingBase('credentials', sources), sources.environment);
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
          : `${describeSource(key, sources)} ${ruleText(issue)}${schemeHint(key, merged)}`;
    throw new HarnessError('SC_CONFIG', message);
  }
  const { targets: entries, ...rest } = result.data;
  const config: Config = rest;
  if (entries) config.targets = entries.map((entry, i) => resolveTarget(entry, i, config, sources));
  if (config.expect !== undefined) config.expect = resolve(settingBase('expect', sources), config.expect);
  if (config.suitesDir !== undefined) config.suitesDir = resolve(settingBase('suitesDir', sources), config.suitesDir);
  if (config.userCatalogue !== undefined) {
    config.userCatalogue = resolve(settingBase('userCatalogue', sources), config.userCatalogue);
  }
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
        `${where} is plain http:// to ${url.hostname}, which is not this machine: the credentials and access tokens ` +
          `would cross the network unencrypted. Use https://, or pass --allow-insecure-http to accept that`,
      );
    }
  }
  return config;
}

/**
 * A zod issue as the rule a value breaks: "must be a string, not a number" rather than zod's "Invalid input: expected
 * string, received number".
 */
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
  const named = typeof label === 'string' && label && TARGET_LABEL.test(label) ? ` ("${label}")` : '';
  const name = `target ${index + 1}${named}`;
  if (issue.code === 'unrecognized_keys')
    return (
      `${name}: unknown key ${issue.keys.map((k) => `"${k}"`).join(', ')} (known: label, baseUrl, ` +
      `${TARGET_CREDENTIALS.join(', ')}, clientSecretFile, apiKeyFile, peerClientSecretFile)`
    );
  const field = issue.path[2];
  return `${name}${field === undefined || field === 'label' ? '' : ` ${String(field)}`} ${ruleText(issue)}`;
}

/** A target entry with its secret files read and the shared credentials filled in where it gives none. */
function resolveTarget(
  entry: z.infer<typeof TargetSetting>,
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
      `${where} has no credentials: give --client-id and --client-secret (or --api-key) for every target, or ` +
        `clientId and clientSecret in its entry of the config file`,
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

/**
 * For a base URL without a scheme (`staging.example.com`), the value echoed with the scheme it lacks:
 * "did you mean https://staging.example.com (http:// for a server on this machine)?".
 */
function schemeHint(key: string, merged: ConfigInput): string {
  const value = key === 'baseUrl' ? merged.baseUrl : undefined;
  // Only what looks like a host, a port and a path: never an arbitrary value (or user:password@).
  if (typeof value !== 'string' || !/^[A-Za-z0-9.-]+(:\d+)?(\/\S*)?$/.test(value)) return '';
  return `: "${value}" has no scheme; did you mean https://${value} (http://${value} for a plain-HTTP server)?`;
}
