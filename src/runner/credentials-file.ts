/**
 * `run --credentials FILE`: the file `serve --credentials-out` writes, as settings. Its first
 * organisation gives --client-id, --client-secret and --api-key, its second the peer's
 * --peer-client-id and --peer-client-secret, its baseUrl --base-url; a setting given any other
 * way (flag, variable, config file, a secret's file) wins over the file's. A secret may be written as
 * {"env": "NAME"} (the template `screenconf init` writes): it is read from that environment variable,
 * so the file itself need hold no secret.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { HarnessError } from '../errors.ts';
import { readCredentialsJson } from '../reference/credentials.ts';
import type { ConfigInput } from './config-schema.ts';

/** The secrets of an organisation that may name their variable instead: {"env": "NAME"}. */
const FROM_ENV = ['clientSecret', 'apiKey'] as const;

/**
 * The credentials text with each {"env": "NAME"} secret replaced by the variable's value; SC_CONFIG
 * naming the file, the place and the variable when it is not set. Text that is not such JSON is
 * left as it is, for readCredentialsJson to judge.
 */
function withSecretsFromEnv(text: string, file: string, environment: NodeJS.ProcessEnv): string {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return text;
  }
  const organisations = (raw as { organisations?: unknown })?.organisations;
  if (!Array.isArray(organisations)) return text;
  for (const [i, o] of organisations.entries()) {
    for (const key of FROM_ENV) {
      const ref = (o as Record<string, unknown> | null)?.[key] as { env?: unknown } | undefined;
      if (ref === null || typeof ref !== 'object' || typeof ref.env !== 'string' || Object.keys(ref).length !== 1)
        continue;
      const value = environment[ref.env];
      if (value === undefined || value === '')
        throw new HarnessError(
          'SC_CONFIG',
          `--credentials ${file} organisations[${i}].${key} is read from the environment variable ${ref.env}, ` +
            'which is not set',
        );
      (o as Record<string, unknown>)[key] = value;
    }
  }
  return JSON.stringify(raw);
}

/**
 * Fills the settings `merged` leaves unset from the credentials file it names, if any; `base` resolves its path,
 * `environment` gives the secrets the file names by variable.
 */
export function applyCredentialsFile(merged: ConfigInput, base: string, environment: NodeJS.ProcessEnv = {}): void {
  if (merged.credentials === undefined) return;
  if (typeof merged.credentials !== 'string' || merged.credentials === '')
    throw new HarnessError('SC_CONFIG', '--credentials (SCREENCONF_CREDENTIALS) must name a file');
  const file = resolve(base, merged.credentials);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new HarnessError(
      'SC_CONFIG',
      `--credentials ${file} cannot be read: ${(err as { code?: string }).code ?? (err as Error).message}`,
    );
  }
  const given = readCredentialsJson(withSecretsFromEnv(text, file, environment), `--credentials ${file}`);
  const [ours, peer] = given.organisations;
  const fill: ConfigInput = {
    baseUrl: merged.targets === undefined && merged.targetImage === undefined ? given.baseUrl : undefined,
    clientId: ours?.clientId,
    clientSecret: merged.clientSecretFile === undefined ? ours?.clientSecret : undefined,
    apiKey: merged.apiKeyFile === undefined ? ours?.apiKey : undefined,
    peerClientId: peer?.clientId,
    peerClientSecret: merged.peerClientSecretFile === undefined ? peer?.clientSecret : undefined,
  };
  for (const [key, value] of Object.entries(fill) as [keyof ConfigInput, unknown][])
    if (value !== undefined && merged[key] === undefined) merged[key] = value;
}
