/**
 * `run --credentials FILE`: the file `serve --credentials-out` writes, as settings. Its first
 * organisation gives --client-id, --client-secret and --api-key, its second the peer's
 * --peer-client-id and --peer-client-secret, its baseUrl --base-url; a setting given any other
 * way (flag, variable, config file, a secret's file) wins over the file's.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { HarnessError } from '../errors.ts';
import { readCredentialsJson } from '../reference/credentials.ts';
import type { ConfigInput } from './config-schema.ts';

/** Fills the settings `merged` leaves unset from the credentials file it names, if any; `base` resolves its path. */
export function applyCredentialsFile(merged: ConfigInput, base: string): void {
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
  const given = readCredentialsJson(text, `--credentials ${file}`);
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
