/** The command line as a user meets it: real processes, real listeners. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CATALOGUE } from '../src/spec/index.ts';
import { BIN, cleanEnv, readReport, reportFiles, ROOT, screenconf, tempDir } from './support/cli.ts';

interface Credentials {
  baseUrl: string;
  organisations: { clientId: string; clientSecret: string; apiKey: string }[];
}

/** Starts `screenconf serve` and waits for its credentials file. */
async function serve(args: string[] = []): Promise<{ child: ChildProcess; credentials: Credentials; output: () => string }> {
  const file = join(tempDir(), 'credentials.json');
  const child = spawn(process.execPath, [BIN, 'serve', '--credentials-out', file, ...args], { cwd: ROOT, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const deadline = Date.now() + 20_000;
  while (!existsSync(file) || !readFileSync(file, 'utf8').trim().endsWith('}')) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`serve did not start: ${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, credentials: JSON.parse(readFileSync(file, 'utf8')), output: () => output };
}

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGTERM');
});

describe('screenconf serve + screenconf run --base-url', () => {
  it('conforms, and leaks no secret to the console or the reports', async () => {
    const server = await serve();
    children.push(server.child);
    const [a, b] = server.credentials.organisations;
    expect(server.output()).toContain(`listening on ${server.credentials.baseUrl}`);
    const dir = tempDir();
    const result = await screenconf([
      'run', '--base-url', server.credentials.baseUrl, '--client-id', a!.clientId, '--client-secret', a!.clientSecret,
      '--api-key', a!.apiKey, '--peer-client-id', b!.clientId, '--peer-client-secret', b!.clientSecret, '--report-dir', dir, '--max-rps', '0',
    ], { timeoutMs: 220_000 });
    expect(result.stdout, result.stderr).toContain('Verdict: CONFORMING');
    expect(result.status).toBe(0);
    expect(readReport(dir).summary.conforming).toBe(true);
    const secrets = [a!.clientSecret, a!.apiKey, b!.clientSecret];
    const outputs = [result.stdout, result.stderr, ...reportFiles(dir).map(([, text]) => text)];
    for (const secret of secrets) for (const text of outputs) expect(text.includes(secret)).toBe(false);
    // Every suite over real HTTP: about 15 s alone, several times that beside the fault runs on 2 cores.
  }, 240_000);

  it('reads the target from SCREENCONF_* variables', async () => {
    const server = await serve();
    children.push(server.child);
    const [a] = server.credentials.organisations;
    const result = await screenconf(['run', '--suites', 'token', '--report-dir', tempDir()], {
      env: { SCREENCONF_BASE_URL: server.credentials.baseUrl, SCREENCONF_CLIENT_ID: a!.clientId, SCREENCONF_CLIENT_SECRET: a!.clientSecret },
    });
    expect(result.stdout).toContain(`target ${server.credentials.baseUrl}`);
    expect(result.status).toBe(0);
  });

  it('stops cleanly on SIGTERM', async () => {
    const server = await serve();
    const exited = new Promise<number | null>((r) => server.child.on('exit', (code) => r(code)));
    server.child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});

describe('errors are one clear line with a stable code and exit status', () => {
  it('exits 3 when the target is unreachable', async () => {
    const r = await screenconf(['run', '--base-url', 'http://127.0.0.1:1', '--client-id', '3f8a4c1e-2b7d-4e9f-a1c3-5d6e7f8a9b0c', '--client-secret', 'x-secret', '--report-dir', tempDir()]);
    expect(r.status).toBe(3);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^screenconf: error SC_TARGET_UNREACHABLE: .*127\.0\.0\.1:1.*ECONNREFUSED/);
    expect(r.stderr).not.toContain('x-secret');
  });

  it('exits 2 naming an unknown flag', async () => {
    const r = await screenconf(['run', '--bogus-flag']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^screenconf: error SC_USAGE: .*'--bogus-flag'/);
  });

  it('exits 2 naming a malformed URL flag', async () => {
    const r = await screenconf(['run', '--base-url', 'not a url', '--client-id', '3f8a4c1e-2b7d-4e9f-a1c3-5d6e7f8a9b0c', '--client-secret', 'x']);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe('screenconf: error SC_CONFIG: --base-url (SCREENCONF_BASE_URL) must be an absolute http:// or https:// URL');
  });

  it('exits 2 when the target refuses the credentials', async () => {
    const server = await serve();
    children.push(server.child);
    const r = await screenconf(['run', '--base-url', server.credentials.baseUrl, '--client-id', server.credentials.organisations[0]!.clientId, '--client-secret', 'wrong-secret']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^screenconf: error SC_CREDENTIALS_REJECTED/);
  });

  it('exits 2 for an unknown command', async () => {
    const r = await screenconf(['frobnicate']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('unknown command "frobnicate"');
  });
});

describe('screenconf list', () => {
  it('prints every requirement with its level and source', async () => {
    const r = await screenconf(['list']);
    expect(r.status).toBe(0);
    for (const req of CATALOGUE) {
      expect(r.stdout).toContain(`${req.id} [${req.level}]`);
      expect(r.stdout).toContain(`source: ${req.source}`);
    }
  });

  it('prints the catalogue as JSON with --json', async () => {
    const r = await screenconf(['list', '--json']);
    const parsed = JSON.parse(r.stdout);
    expect(parsed.requirements.map((x: { id: string }) => x.id)).toEqual(CATALOGUE.map((x) => x.id));
  });
});
