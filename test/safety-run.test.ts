/**
 * A run's safety toward a real target: the ledger and cleanup (after Ctrl-C, after a SIGKILL,
 * with --keep), the run deadline, throttling, and no secret in any output. The reference server
 * confirms what is left on it. Signals, a killed run and what a process prints go through the real
 * binary; the rest through the CLI's main() in this process (support/in-process.ts), which spares a
 * node + tsx + vitest start-up per command.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { LEDGER_FILE, readLedger, type LedgerLine } from '../src/provision/ledger.ts';
import { createReferenceServer, type TenantCredentials, type ReferenceServer } from '../src/reference/server.ts';
import type { VariantName } from '../src/reference/variants.ts';
import { plantedOrganisations, proxy, relay, STACK_LINE } from './hostile/support.ts';
import { BIN, cleanEnv, reportFiles, ROOT, runFolder, screenconf, tempDir } from './support/cli.ts';
import { screenconfInProcess } from './support/in-process.ts';

const children: ChildProcess[] = [];
const references: ReferenceServer[] = [];
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await Promise.all(references.map((r) => r.close()));
});

async function reference(
  variants: VariantName[] = [],
): Promise<{ server: ReferenceServer; organisations: TenantCredentials[] }> {
  const organisations = plantedOrganisations();
  const server = await createReferenceServer({ organisations, variants });
  references.push(server);
  return { server, organisations };
}

function targetArgs(baseUrl: string, [a, b]: TenantCredentials[]): { args: string[]; env: NodeJS.ProcessEnv } {
  return {
    args: ['--base-url', baseUrl, '--client-id', a!.clientId, '--peer-client-id', b!.clientId],
    env: {
      SCREENCONF_CLIENT_SECRET: a!.clientSecret,
      SCREENCONF_API_KEY: a!.apiKey,
      SCREENCONF_PEER_CLIENT_SECRET: b!.clientSecret,
    },
  };
}

function ledgerLines(dir: string): LedgerLine[] {
  const file = join(dir, LEDGER_FILE);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as LedgerLine];
      } catch {
        return [];
      }
    });
}

async function until(what: string, ok: () => boolean, timeoutMs = 60_000, everyMs = 20): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Every case the ledger says was created answers 404 to a PATCH by its own organisation. */
async function expectAllGone(
  baseUrl: string,
  organisations: TenantCredentials[],
  lines: LedgerLine[],
): Promise<number> {
  const tokens: Record<string, string> = {};
  for (const [label, o] of [
    ['a', organisations[0]!],
    ['b', organisations[1]!],
  ] as const) {
    const res = await request(`${baseUrl}/api/oauth/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: o.clientId, client_secret: o.clientSecret, grant_type: 'client_credentials' }),
    });
    tokens[label] = ((await res.body.json()) as { access_token: string }).access_token;
  }
  const created = lines.filter((l) => l.event === 'created');
  for (const c of created) {
    const res = await request(`${baseUrl}/api/cases/${c.id}/`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${tokens[c.org!]}`, 'content-type': 'application/json' },
      body: '{}',
    });
    await res.body.dump();
    expect(res.statusCode, `case ${c.id} (organisation ${c.org}) is still there`).toBe(404);
  }
  return created.length;
}

/** Starts `screenconf serve` and waits for its credentials file. */
async function serve(): Promise<{ child: ChildProcess; baseUrl: string; organisations: TenantCredentials[] }> {
  const file = join(tempDir(), 'credentials.json');
  const child = spawn(process.execPath, [BIN, 'serve', '--credentials-out', file], {
    cwd: ROOT,
    env: cleanEnv(),
    stdio: 'ignore',
  });
  children.push(child);
  await until(
    'serve wrote its credentials',
    () => existsSync(file) && readFileSync(file, 'utf8').trim().endsWith('}'),
    20_000,
  );
  const creds = JSON.parse(readFileSync(file, 'utf8')) as { baseUrl: string; organisations: TenantCredentials[] };
  return { child, baseUrl: creds.baseUrl, organisations: creds.organisations };
}

function start(
  args: string[],
  env: NodeJS.ProcessEnv,
  detached = false,
): { child: ChildProcess; done: Promise<{ status: number | null; stdout: string; stderr: string }> } {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: { ...cleanEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached,
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const done = new Promise<{ status: number | null; stdout: string; stderr: string }>((r) =>
    child.on('close', (status) => r({ status, stdout, stderr })),
  );
  return { child, done };
}

describe('Ctrl-C during a run', () => {
  it("stops, cleans up, reports what ran, exits 130; the target keeps none of the run's cases", async () => {
    const target = await serve();
    const dir = tempDir();
    const { args, env } = targetArgs(target.baseUrl, target.organisations);
    const run = start(['run', ...args, '--report-dir', dir, '--max-rps', '40', '--seed', '3'], env);
    await until('the run created a few cases', () => ledgerLines(dir).filter((l) => l.event === 'created').length >= 5);
    run.child.kill('SIGINT');
    const r = await run.done;
    expect(r.status, r.stdout + r.stderr).toBe(130);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(
      /^screenconf: interrupted by SIGINT: stopped the run and cleaned up; the report of what ran is /,
    );
    expect(r.stdout).toContain('Verdict: INTERRUPTED');
    expect(`${r.stdout}${r.stderr}`).not.toMatch(STACK_LINE);
    const report = JSON.parse(readFileSync(join(runFolder(dir), 'conformance.json'), 'utf8'));
    expect(report.run.interrupted).toBe('SIGINT');
    expect(report.summary.conforming).toBe(false);
    expect(report.summary.cleanup).toMatchObject({ left: [], unconfirmed: [] });
    const state = readLedger(join(dir, LEDGER_FILE));
    expect(state.pending).toEqual([]);
    expect(state.unconfirmed).toEqual([]);
    expect(await expectAllGone(target.baseUrl, target.organisations, ledgerLines(dir))).toBeGreaterThanOrEqual(5);
  });
});

describe('a run killed outright (SIGKILL), then screenconf cleanup', () => {
  it('cleanup removes every case the ledger lists, confirmed by the reference server', async () => {
    const { server, organisations } = await reference();
    const dir = tempDir();
    const { args, env } = targetArgs(server.url, organisations);
    // One worker, five requests a second (past the first second's burst, one every 200 ms): a
    // kill right after a recorded create lands between requests, so no create is left unanswered.
    const run = start(
      [
        'run',
        ...args,
        '--report-dir',
        dir,
        '--concurrency',
        '1',
        '--max-rps',
        '5',
        '--suites',
        'case-patch,auth,model',
        '--seed',
        '3',
      ],
      env,
      true,
    );
    await until(
      'the ledger records created cases and no create is in flight',
      () => {
        const lines = ledgerLines(dir);
        const last = lines.at(-1);
        const created = lines.filter((l) => l.event === 'created').length;
        const intents = lines.filter((l) => l.event === 'create').length;
        const settled = lines.filter((l) => l.event === 'created' || l.event === 'refused').length;
        return (
          created >= 8 && intents === settled && last?.event === 'created' && Date.now() - Date.parse(last.at) < 40
        );
      },
      90_000,
      2,
    );
    process.kill(-run.child.pid!, 'SIGKILL');
    await run.done;
    const left = server.store.countCases('org-1') + server.store.countCases('org-2');
    expect(left).toBeGreaterThan(0);

    const secretFile = join(tempDir(), 'secret');
    writeFileSync(secretFile, `${organisations[0]!.clientSecret}\n`);
    const r = await screenconf(
      [
        'cleanup',
        join(dir, LEDGER_FILE),
        '--client-id',
        organisations[0]!.clientId,
        '--client-secret-file',
        secretFile,
        '--peer-client-id',
        organisations[1]!.clientId,
      ],
      { env: { SCREENCONF_PEER_CLIENT_SECRET: organisations[1]!.clientSecret } },
    );
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/removed case \d+ \(organisation a\)/);
    expect(r.stdout).toMatch(/cleanup: removed \d+, could not remove 0/);
    expect(server.store.countCases('org-1') + server.store.countCases('org-2')).toBe(0);
    await expectAllGone(server.url, organisations, ledgerLines(dir));

    // Run again: the ledger now records the deletions, so there is nothing to do.
    const again = await screenconf(['cleanup', join(dir, LEDGER_FILE), '--client-id', organisations[0]!.clientId], {
      env: { SCREENCONF_CLIENT_SECRET: organisations[0]!.clientSecret },
    });
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('nothing of this ledger is left on the target');
  });
});

describe('what the interface gives no way to delete', () => {
  it('counts the customers made with the cases, and says they may remain', async () => {
    // A server that keeps a case's customer when the case is deleted (a legal choice).
    const { server, organisations } = await reference(['delete.keeps-customer']);
    const dir = tempDir();
    const { args, env } = targetArgs(server.url, organisations);
    const r = await screenconfInProcess(
      ['run', ...args, '--report-dir', dir, '--max-rps', '0', '--suites', 'case-delete'],
      {
        env,
      },
    );
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(server.store.countCases('org-1')).toBe(0);
    const made = new Set(ledgerLines(dir).flatMap((l) => (l.customerId ? [`${l.org} ${l.customerId}`] : []))).size;
    expect(made).toBeGreaterThan(0);
    // Every one of them is still on the server, and the run says how many.
    expect(server.store.countCustomers('org-1') + server.store.countCustomers('org-2')).toBe(made);
    expect(r.stdout).toContain(`cleanup: ${made} customer(s) made with the run's cases: the interface has no customer`);
    const report = JSON.parse(readFileSync(join(runFolder(dir), 'conformance.json'), 'utf8'));
    expect(report.summary.cleanup.undeletable).toEqual({ customers: made });
    expect(readFileSync(join(runFolder(dir), 'report.md'), 'utf8')).toContain(`| Left by design | ${made} customer(s)`);
  });
});

describe('cases the suite files share', () => {
  it('the two bulk suites make one pool of 101 cases, removed by the runner after them: nothing is left', async () => {
    const { server, organisations } = await reference();
    const dir = tempDir();
    const { args, env } = targetArgs(server.url, organisations);
    const r = await screenconfInProcess(
      ['run', ...args, '--report-dir', dir, '--max-rps', '0', '--suites', 'bulk-cases,bulk-customers'],
      { env },
    );
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const lines = ledgerLines(dir);
    const shared = lines.filter((l) => l.event === 'created' && l.shared).map((l) => l.id);
    expect(shared).toHaveLength(101);
    const deleted = new Set(lines.filter((l) => l.event === 'deleted').map((l) => l.id));
    expect(shared.filter((id) => !deleted.has(id))).toEqual([]);
    // Removed as the run's own, not reported as left behind by a suite.
    expect(r.stdout).not.toMatch(/cleanup: removed \d+ case/);
    expect(server.store.countCases('org-1') + server.store.countCases('org-2')).toBe(0);
    // Each suite's 100-item check judged a batch on the same cases.
    const har = JSON.parse(readFileSync(join(runFolder(dir), 'exchanges.har'), 'utf8')) as {
      log: { entries: { request: { method: string; url: string; postData?: { text?: string } } }[] };
    };
    const batchIds = (path: string) =>
      har.log.entries
        .filter((e) => e.request.method === 'POST' && e.request.url.endsWith(path))
        .flatMap((e): { items?: { id?: number }[] }[] => {
          try {
            return [JSON.parse(e.request.postData?.text ?? '{}')];
          } catch {
            return []; // The malformed-body checks' requests.
          }
        })
        .filter((b) => Array.isArray(b.items) && b.items.length === 100)
        .map((b) => b.items!.map((i) => i.id));
    const [cases] = batchIds('/api/cases/bulk-update/');
    const [customers] = batchIds('/api/customers/bulk-update/');
    expect(cases!.filter((id) => shared.includes(id))).toHaveLength(100);
    const sharedCustomers = lines.filter((l) => l.event === 'created' && l.shared).map((l) => l.customerId);
    expect(customers!.filter((id) => sharedCustomers.includes(id))).toHaveLength(100);
  });
});

describe('--keep, the deadline and the ledger', () => {
  it('--keep leaves the cases (and says so); cleanup removes them later', async () => {
    const { server, organisations } = await reference();
    const dir = tempDir();
    const { args, env } = targetArgs(server.url, organisations);
    const r = await screenconfInProcess(
      ['run', ...args, '--report-dir', dir, '--keep', '--max-rps', '0', '--suites', 'case-patch', '--runs', '5'],
      { env },
    );
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const kept = server.store.countCases('org-1');
    expect(kept).toBeGreaterThan(0);
    expect(r.stdout).toContain('(--keep: what the run creates stays on the target)');
    expect(r.stdout).toMatch(
      new RegExp(`kept ${kept} case\\(s\\) on the target \\(--keep\\): .*; remove them with: screenconf cleanup `),
    );
    const c = await screenconfInProcess(
      ['cleanup', join(dir, LEDGER_FILE), '--client-id', organisations[0]!.clientId],
      {
        env: { SCREENCONF_CLIENT_SECRET: organisations[0]!.clientSecret },
      },
    );
    expect(c.status, c.stdout + c.stderr).toBe(0);
    expect(server.store.countCases('org-1')).toBe(0);
  });

  it('a passed deadline stops the run like Ctrl-C, cleans up, and exits 3 with one line', async () => {
    const { server, organisations } = await reference();
    const dir = tempDir();
    const { args, env } = targetArgs(server.url, organisations);
    const r = await screenconfInProcess(
      ['run', ...args, '--report-dir', dir, '--deadline-ms', '2500', '--max-rps', '20'],
      {
        env,
      },
    );
    expect(r.status, r.stdout + r.stderr).toBe(3);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^screenconf: error SC_DEADLINE: the run deadline of 2500 ms passed; stopped the run /);
    expect(r.stderr).toMatch(/; stopped the run and cleaned up; the report of what ran is /);
    const report = JSON.parse(readFileSync(join(runFolder(dir), 'conformance.json'), 'utf8'));
    expect(report.run.interrupted).toBe('deadline');
    expect(report.results.some((x: { reason?: string }) => /^not run: the run deadline/.test(x.reason ?? ''))).toBe(
      true,
    );
    // What was left, with the ledger's lines about it: a creation whose answer was lost is told apart from a
    // removal that did not happen.
    const left = ['org-1', 'org-2'].flatMap((org) => server.store.casesOf(org));
    const lines = ledgerLines(dir);
    const about = left.map((c) => ({
      id: c.id,
      external_id: c.external_id,
      ledger: lines.filter((l) => JSON.stringify(l).includes(c.external_id) || (l as { id?: number }).id === c.id),
    }));
    expect(about, JSON.stringify(about)).toEqual([]);
  });

  it("cleanup of an embedded run's ledger has nothing to do; an unreadable ledger is exit 2", async () => {
    const dir = tempDir();
    const r = await screenconfInProcess(['run', '--report-dir', dir, '--suites', 'case-delete']);
    expect(r.status).toBe(0);
    const c = await screenconfInProcess(['cleanup', join(dir, LEDGER_FILE)]);
    expect(c.status).toBe(0);
    expect(c.stdout).toContain('used the embedded reference server');
    const bad = join(tempDir(), 'not-a-ledger.jsonl');
    writeFileSync(bad, 'hello\n');
    const b = await screenconfInProcess(['cleanup', bad]);
    expect(b.status).toBe(2);
    expect(b.stderr).toMatch(/^screenconf: error SC_LEDGER: /);
    expect((await screenconfInProcess(['cleanup'])).status).toBe(2);
  });
});

describe('throttling', () => {
  it('retries 429 after Retry-After and reports how many requests were throttled', async () => {
    const target = await proxy(async (req, forward, res) => {
      if (req.n === 3 || req.n === 6) {
        res.writeHead(429, { 'retry-after': '1' });
        res.end();
        return;
      }
      relay(res, await forward());
    });
    try {
      const dir = tempDir();
      const r = await screenconfInProcess(
        ['run', '--base-url', target.url, '--client-id', target.clientId, '--report-dir', dir, '--suites', 'token'],
        { env: { SCREENCONF_CLIENT_SECRET: target.clientSecret } },
      );
      expect(r.status, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toContain('Throttled: the target answered 429 to 2 request(s)');
      expect(JSON.parse(readFileSync(join(runFolder(dir), 'conformance.json'), 'utf8')).summary.throttled).toBe(2);
    } finally {
      await target.close();
    }
  });
});

describe('no secret in any output', () => {
  it(
    'keeps planted secrets and issued tokens out of the console, the reports, the ledger and the curl ' +
      'reproductions — even when the server echoes them',
    async () => {
      // The server echoes the request's Authorization header (bare, outside any header or JSON
      // field) and body into its answers, and breaks some checks (500s) so evidence is recorded.
      // (A secret the harness never held, such as another session's token, cannot be recognised
      // unless it sits in a JSON field named like a secret: that is out of reach by design.)
      const issued: string[] = [];
      const target = await proxy(async (req, forward, res) => {
        const up = await forward();
        const token = /"access_token"\s*:\s*"([^"]+)"/.exec(up.body)?.[1];
        if (token) issued.push(token);
        if (req.method === 'PATCH' && req.body !== '{}' && up.status >= 400) {
          res.writeHead(500, { 'content-type': 'text/html' });
          const bare = String(req.headers.authorization ?? '').replace(/^\S+\s+/, '');
          res.end(
            `<html><p>auth was ${String(req.headers.authorization)}</p><p>credential ${bare}</p><p>body was ` +
              `${req.body}</p></html>`,
          );
          return;
        }
        if (req.path === '/api/oauth/token/' && up.status >= 400)
          return relay(res, { ...up, body: JSON.stringify({ error: 'invalid_client', echo: req.body }) });
        relay(res, up);
      });
      try {
        const dir = tempDir();
        const [a, b] = target.organisations;
        const secrets = join(tempDir(), 'secret');
        const peer = join(tempDir(), 'peer');
        writeFileSync(secrets, `${a!.clientSecret}\n`);
        writeFileSync(peer, b!.clientSecret);
        // The API key is planted in a config file (the other secrets come from files and flags).
        const config = join(tempDir(), 'screenconf.config.json');
        writeFileSync(config, JSON.stringify({ apiKey: a!.apiKey }));
        const r = await screenconf([
          'run',
          '--config',
          config,
          '--base-url',
          target.url,
          '--client-id',
          a!.clientId,
          '--client-secret-file',
          secrets,
          '--peer-client-id',
          b!.clientId,
          '--peer-client-secret-file',
          peer,
          '--report-dir',
          dir,
          '--suites',
          'token,auth,case-patch',
          '--max-rps',
          '0',
          '--runs',
          '5',
        ]);
        expect(r.status, r.stdout + r.stderr).toBe(1);
        // Re-rendering and verifying the folder print nothing secret either.
        const rendered = await screenconf(['report', dir]);
        const verified = await screenconf(['verify', dir]);
        expect(verified.status, verified.stdout).toBe(0);
        const planted = [...target.secrets(), ...issued];
        expect(planted.length).toBeGreaterThan(6);
        const files = reportFiles(dir);
        const run = relative(dir, runFolder(dir));
        expect(files.map(([f]) => f)).toEqual(
          expect.arrayContaining([
            LEDGER_FILE,
            ...['conformance.json', 'exchanges.har', 'junit.xml', 'report.html', 'report.md', 'SHA256SUMS'].map(
              (f) => `${run}/${f}`,
            ),
          ]),
        );
        const outputs: [string, string][] = [
          ['stdout', r.stdout],
          ['stderr', r.stderr],
          ['report stdout', rendered.stdout + rendered.stderr],
          ['verify stdout', verified.stdout + verified.stderr],
          ...files,
        ];
        // Each secret also as the HTML, JSON, Markdown and URL encodings of a report would write it.
        const encodings = (x: string) => [
          x,
          x
            .replace(/&/g, '&amp;')
            .replace(/</g, '&lt;')
            .replace(/>/g, '&gt;')
            .replace(/"/g, '&quot;')
            .replace(/'/g, '&#39;'),
          JSON.stringify(x).slice(1, -1),
          x.replace(/([\\`*_[\]|~])/g, '\\$1'),
          encodeURIComponent(x),
        ];
        for (const secret of new Set(planted)) {
          for (const form of new Set(encodings(secret))) {
            for (const [where, text] of outputs) {
              const at = text.indexOf(form);
              expect(at, `a secret in ${where}: …${text.slice(Math.max(0, at - 300), at + 60)}…`).toBe(-1);
            }
          }
        }
        const report = readFileSync(join(runFolder(dir), 'conformance.json'), 'utf8');
        expect(report).toContain('$SCREENCONF_ACCESS_TOKEN'); // the reproductions name it instead
        expect(JSON.parse(report).run.options).toMatchObject({
          apiKey: '[REDACTED]',
          clientSecret: '[REDACTED]',
          peerClientSecret: '[REDACTED]',
        });
      } finally {
        await target.close();
      }
    },
  );
});
