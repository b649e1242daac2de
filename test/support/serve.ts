/** `screenconf serve` as a child process, and what a run left on it, asked of the server itself. */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { readLedger } from '../../src/provision/ledger.ts';
import type { TenantCredentials } from '../../src/reference/server.ts';
import { BIN, cleanEnv, ROOT, tempDir } from './cli.ts';

export interface Served {
  child: ChildProcess;
  baseUrl: string;
  organisations: TenantCredentials[];
  /** The credentials file serve wrote. */
  file: string;
}

/** Starts `screenconf serve` (with these extra arguments) and waits for its credentials file. */
export async function serve(args: string[] = []): Promise<Served> {
  const file = join(tempDir(), 'credentials.json');
  const child = spawn(process.execPath, [BIN, 'serve', '--credentials-out', file, ...args], {
    cwd: ROOT,
    env: cleanEnv(),
    stdio: 'ignore',
  });
  for (let i = 0; !(existsSync(file) && readFileSync(file, 'utf8').trim().endsWith('}')); i++) {
    if (child.exitCode !== null) throw new Error(`screenconf serve exited with ${child.exitCode}`);
    if (i > 2000) throw new Error('screenconf serve wrote no credentials');
    await new Promise((r) => setTimeout(r, 20));
  }
  const creds = JSON.parse(readFileSync(file, 'utf8')) as { baseUrl: string; organisations: TenantCredentials[] };
  return { child, baseUrl: creds.baseUrl, organisations: creds.organisations, file };
}

/** `run` arguments and environment for the served target: both organisations, the API key. */
export function targetOf(s: Served): { args: string[]; env: NodeJS.ProcessEnv } {
  const [a, b] = s.organisations;
  return {
    args: ['--base-url', s.baseUrl, '--client-id', a!.clientId, '--peer-client-id', b!.clientId],
    env: {
      SCREENCONF_CLIENT_SECRET: a!.clientSecret,
      SCREENCONF_API_KEY: a!.apiKey,
      SCREENCONF_PEER_CLIENT_SECRET: b!.clientSecret,
    },
  };
}

/**
 * The cases a ledger says were created that the server still holds: each is asked for with a PATCH by its own
 * organisation (a case that is gone answers 404). Returns how many were created, and those left.
 */
export async function leftOnServer(s: Served, ledger: string): Promise<{ created: number; left: number[] }> {
  const tokens: Record<string, string> = {};
  for (const [org, o] of [
    ['a', s.organisations[0]!],
    ['b', s.organisations[1]!],
  ] as const) {
    const res = await request(`${s.baseUrl}/api/oauth/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: o.clientId, client_secret: o.clientSecret, grant_type: 'client_credentials' }),
    });
    tokens[org] = ((await res.body.json()) as { access_token: string }).access_token;
  }
  const lines = readFileSync(ledger, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { event: string; id?: number; org?: string });
  const created = lines.filter((l) => l.event === 'created');
  const left: number[] = [];
  for (const c of created) {
    const res = await request(`${s.baseUrl}/api/cases/${c.id}/`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${tokens[c.org!]}`, 'content-type': 'application/json' },
      body: '{}',
    });
    await res.body.dump();
    if (res.statusCode !== 404) left.push(c.id!);
  }
  expectNoPending(ledger);
  return { created: created.length, left };
}

/** The ledger itself lists nothing pending or unconfirmed. */
function expectNoPending(ledger: string): void {
  const state = readLedger(ledger);
  if (state.pending.length || state.unconfirmed.length)
    throw new Error(`the ledger still lists ${state.pending.length} pending, ${state.unconfirmed.length} unconfirmed`);
}
