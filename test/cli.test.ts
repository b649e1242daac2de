/** The command line as a user meets it: real processes, real listeners. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { resolveConfig } from '../src/runner/config.ts';
import { CATALOGUE } from '../src/spec/index.ts';
import {
  BIN,
  cleanEnv,
  lastLine,
  readReport,
  reportFiles,
  ROOT,
  runFolder,
  screenconf,
  tempDir,
} from './support/cli.ts';

interface Credentials {
  baseUrl: string;
  organisations: { clientId: string; clientSecret: string; apiKey: string }[];
}

/** Starts `screenconf serve` and waits for its credentials file. */
async function serve(
  args: string[] = [],
): Promise<{ child: ChildProcess; credentials: Credentials; output: () => string }> {
  const file = join(tempDir(), 'credentials.json');
  const child = spawn(process.execPath, [BIN, 'serve', '--credentials-out', file, ...args], {
    cwd: ROOT,
    env: cleanEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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
const servers: Server[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGTERM');
  for (const s of servers) s.close();
});

/** A local HTTP server for the test; closed after the file. */
async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const UUID = '3f8a4c1e-2b7d-4e9f-a1c3-5d6e7f8a9b0c';

/** One line on stderr, `screenconf: error <code>: …`, with no stack trace. */
function oneErrorLine(stderr: string, code: string): string {
  const lines = stderr.trim().split('\n');
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toMatch(new RegExp(`^screenconf: error ${code}: \\S`));
  expect(stderr).not.toMatch(/^\s+at /m);
  return lines[0]!;
}

describe('screenconf serve + screenconf run --base-url', () => {
  it('conforms, and leaks no secret to the console or the reports', async () => {
    const server = await serve();
    children.push(server.child);
    const [a, b] = server.credentials.organisations;
    expect(server.output()).toContain(`listening on ${server.credentials.baseUrl}`);
    const dir = tempDir();
    const result = await screenconf(
      [
        'run',
        '--base-url',
        server.credentials.baseUrl,
        '--client-id',
        a!.clientId,
        '--client-secret',
        a!.clientSecret,
        '--api-key',
        a!.apiKey,
        '--peer-client-id',
        b!.clientId,
        '--peer-client-secret',
        b!.clientSecret,
        '--report-dir',
        dir,
        '--max-rps',
        '0',
      ],
      { timeoutMs: 220_000 },
    );
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
      env: {
        SCREENCONF_BASE_URL: server.credentials.baseUrl,
        SCREENCONF_CLIENT_ID: a!.clientId,
        SCREENCONF_CLIENT_SECRET: a!.clientSecret,
      },
    });
    expect(result.stdout).toContain(`target ${server.credentials.baseUrl}`);
    expect(result.status).toBe(0);
  });

  it('says "this port speaks plain HTTP" when https:// meets the plain-HTTP server (exit 2)', async () => {
    const server = await serve();
    children.push(server.child);
    const [a] = server.credentials.organisations;
    const plain = server.credentials.baseUrl;
    const https = plain.replace(/^http:/, 'https:');
    const credentials = ['--client-id', a!.clientId, '--client-secret', a!.clientSecret];
    for (const given of [credentials, ['--api-key', a!.apiKey]]) {
      const r = await screenconf(['run', '--base-url', https, ...given, '--report-dir', tempDir()]);
      expect(r.status, r.stderr).toBe(2);
      const line = oneErrorLine(r.stderr, 'SC_TARGET_PLAIN_HTTP');
      expect(line).toContain(`this port speaks plain HTTP; try ${plain}`);
    }
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
    const r = await screenconf([
      'run',
      '--base-url',
      'http://127.0.0.1:1',
      '--client-id',
      '3f8a4c1e-2b7d-4e9f-a1c3-5d6e7f8a9b0c',
      '--client-secret',
      'x-secret',
      '--report-dir',
      tempDir(),
    ]);
    expect(r.status).toBe(3);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^screenconf: error SC_TARGET_UNREACHABLE: .*127\.0\.0\.1:1.*ECONNREFUSED/);
    expect(r.stderr).not.toContain('x-secret');
  });

  it('exits 2 naming an unknown flag', async () => {
    const r = await screenconf(['run', '--bogus-flag']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^screenconf: error SC_USAGE: unknown option --bogus-flag \(see/);
  });

  it('exits 2 naming a malformed URL flag', async () => {
    const r = await screenconf([
      'run',
      '--base-url',
      'not a url',
      '--client-id',
      '3f8a4c1e-2b7d-4e9f-a1c3-5d6e7f8a9b0c',
      '--client-secret',
      'x',
    ]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe(
      'screenconf: error SC_CONFIG: --base-url (SCREENCONF_BASE_URL) must be an absolute http:// or https:// URL',
    );
  });

  it('exits 2 when the target refuses the credentials', async () => {
    const server = await serve();
    children.push(server.child);
    const r = await screenconf([
      'run',
      '--base-url',
      server.credentials.baseUrl,
      '--client-id',
      server.credentials.organisations[0]!.clientId,
      '--client-secret',
      'wrong-secret',
      '--report-dir',
      tempDir(),
    ]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^screenconf: error SC_CREDENTIALS_REJECTED/);
    expect(r.stderr).toContain(
      `the token endpoint (POST ${server.credentials.baseUrl}/api/oauth/token/) refused the client credentials: ` +
        'HTTP 401 {"error": "invalid_client"',
    );
    expect(r.stderr).not.toContain('wrong-secret');
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

describe("a new user's slips, and a hostile target, give one clear line", () => {
  it('never echoes a stray argument: it is often a secret whose flag was left out', async () => {
    const r = await screenconf(['run', '--base-url', 'https://h.test', '--client-id', UUID, 'stray-secret-value']);
    expect(r.status).toBe(2);
    const line = oneErrorLine(r.stderr, 'SC_USAGE');
    expect(line).toContain('unexpected argument after --client-id <value>, not shown as it may be a secret');
    expect(r.stderr + r.stdout).not.toContain('stray-secret-value');
  });

  it('takes a value that starts with "-" after its flag, and says plainly when a flag has no value', async () => {
    // The secret is taken as --client-secret's value (the run then stops at the bad client id, before any request).
    const r = await screenconf(['run', '--base-url', 'https://h.test', '--client-id', 'nope', '--client-secret', '-x']);
    expect(r.status).toBe(2);
    expect(oneErrorLine(r.stderr, 'SC_CONFIG')).toContain('--client-id (SCREENCONF_CLIENT_ID) must be a UUID');
    const seed = await screenconf(['run', '--seed', '-1']);
    expect(oneErrorLine(seed.stderr, 'SC_CONFIG')).toContain('--seed (SCREENCONF_SEED) must be at least 0');
    const last = await screenconf(['run', '--client-id', UUID, '--client-secret']);
    expect(oneErrorLine(last.stderr, 'SC_USAGE')).toContain(
      '--client-secret needs a value (--client-secret SECRET), and none was given',
    );
    const next = await screenconf(['run', '--client-secret', '--quiet']);
    expect(oneErrorLine(next.stderr, 'SC_USAGE')).toContain(
      '--client-secret needs a value (--client-secret SECRET), and the option --quiet came next; a value that is ' +
        "itself an option's name must be given as --client-secret=--quiet",
    );
  });

  it('suggests the option or command meant, and prints a short usage with no command (exit 2)', async () => {
    const option = await screenconf(['run', '--base-ur', 'https://h.test']);
    expect(option.status).toBe(2);
    expect(oneErrorLine(option.stderr, 'SC_USAGE')).toContain('unknown option --base-ur (did you mean --base-url?)');
    const command = await screenconf(['rnu']);
    expect(oneErrorLine(command.stderr, 'SC_USAGE')).toContain('unknown command "rnu" (did you mean "run"?)');
    const none = await screenconf([]);
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/^Usage: screenconf <command> \[options\]/);
    expect(none.stderr.split('\n').length).toBeLessThan(10);
  });

  it('groups run --help by topic, names each value, and stays within 100 columns', async () => {
    const r = await screenconf(['run', '--help']);
    expect(r.status).toBe(0);
    for (const group of ['Target:', 'Credentials:', 'Selection:', 'Load:', 'Webhooks:', 'Reports:', 'Safety:'])
      expect(r.stdout).toContain(`\n${group}\n`);
    expect(r.stdout).toMatch(/^ {2}--base-url URL +target base URL/m);
    expect(r.stdout).toMatch(/^ {2}--client-secret SECRET /m);
    expect(r.stdout).toMatch(/^ {2}--quiet +no live progress/m);
    for (const line of r.stdout.split('\n')) expect([...line].length, line).toBeLessThanOrEqual(100);
  });

  it('cleanup with a ledger but no credentials says which credentials it needs', async () => {
    const dir = tempDir();
    const ledger = join(dir, 'ledger.jsonl');
    const at = new Date().toISOString();
    const base = { v: 1, run: 'abcd1234', baseUrl: 'http://127.0.0.1:9', at };
    writeFileSync(
      ledger,
      `${[
        { ...base, event: 'run', target: 'url' },
        { ...base, event: 'create', kind: 'case', org: 'a', externalId: 'screenconf-abcd1234-x' },
        { ...base, event: 'created', kind: 'case', org: 'a', externalId: 'screenconf-abcd1234-x', id: 7 },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n')}\n`,
    );
    const r = await screenconf(['cleanup', ledger]);
    expect(r.status).toBe(2);
    expect(oneErrorLine(r.stderr, 'SC_CONFIG')).toContain(
      'cleanup of 1 case(s) on http://127.0.0.1:9 needs the credentials the run used: give --client-id and ' +
        '--client-secret (or --api-key)',
    );
  });

  it('names the token URL when the base URL is wrong (a 404 HTML page)', async () => {
    const url = await listen((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html>\n<body>\n<h1>Not Found</h1>\n</body>\n</html>\n');
    });
    const r = await screenconf([
      'run',
      '--base-url',
      `${url}/wrong`,
      '--client-id',
      UUID,
      '--client-secret',
      'html-target-secret',
      '--report-dir',
      tempDir(),
    ]);
    expect(r.status).toBe(3);
    const line = oneErrorLine(r.stderr, 'SC_TARGET_BROKEN');
    expect(line).toContain(
      `(POST ${url}/wrong/api/oauth/token/) answered HTTP 404 with a body that is not JSON (text/html)`,
    );
    expect(line).toContain("is the base URL the service's base address?");
    expect(r.stderr + r.stdout).not.toContain('html-target-secret');
  });

  it('a target answering every request with a multi-line HTML page: INCOMPLETE and the fault on one line', async () => {
    const url = await listen((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html>\n  <head><title>502 Bad Gateway</title></head>\n  <body>bad gateway</body>\n</html>\n');
    });
    const r = await screenconf([
      'run',
      '--base-url',
      url,
      '--api-key',
      'html-target-key',
      '--suites',
      'case-delete',
      '--report-dir',
      tempDir(),
    ]);
    expect(r.status).toBe(3);
    expect(oneErrorLine(r.stderr, 'SC_INCOMPLETE')).toMatch(
      /answered HTTP 502 \(<html> <head><title>502 Bad Gateway<\/title><\/head> <body>bad gateway<\/body> <\/html> ?\)/,
    );
    expect(r.stdout).toMatch(/^HARNESS FAULT provisioning: .*HTTP 502 \(<html> <head>.*<\/html> ?\); see .*$/m);
    expect(r.stdout).toMatch(/^ {2}\d+ × could not judge: provisioning: .*HTTP 502 \(<html> <head>.*: CASE-DELETE-/m);
    expect(r.stderr + r.stdout).not.toContain('html-target-key');
  });

  it('reaches a service behind a gateway path prefix', async () => {
    const server = await serve();
    children.push(server.child);
    const [a] = server.credentials.organisations;
    const upstream = new URL(server.credentials.baseUrl);
    // A gateway that serves the reference server under /screening and answers 404 elsewhere.
    const gateway = await listen((req, res) => {
      if (!req.url!.startsWith('/screening/')) {
        res.writeHead(404).end();
        return;
      }
      const forward = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url!.slice('/screening'.length),
          headers: req.headers,
        },
        (up) => {
          res.writeHead(up.statusCode!, up.headers);
          up.pipe(res);
        },
      );
      req.pipe(forward);
    });
    const dir = tempDir();
    const r = await screenconf([
      'run',
      '--base-url',
      `${gateway}/screening`,
      '--client-id',
      a!.clientId,
      '--client-secret',
      a!.clientSecret,
      '--suites',
      'token,case-delete',
      '--report-dir',
      dir,
      '--max-rps',
      '0',
    ]);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    // Two suites of many: nothing failed, but the run judged too little to claim conformance.
    expect(r.stdout).toContain('Verdict: INCOMPLETE — ');
    const curl = readFileSync(join(runFolder(dir), 'conformance.json'), 'utf8');
    expect(curl).toContain(`${gateway}/screening`);
  });

  it(
    "a failing run ends with what failed, what was skipped and why, how to reproduce and replay — without vitest's " +
      'noise',
    async () => {
      const dir = tempDir();
      const r = await screenconf([
        'run',
        '--suites',
        'token',
        '--reference-faults',
        'token.accept-wrong-secret',
        '--seed',
        '77',
        '--report-dir',
        dir,
      ]);
      expect(r.status, r.stderr).toBe(1);
      expect(r.stdout).not.toContain('JUNIT report written');
      expect(existsSync(join(runFolder(dir), 'junit.xml'))).toBe(true);
      const tail = r.stdout.slice(r.stdout.indexOf('\nSkipped: '));
      expect(tail).toMatch(/^\s*Skipped: \d+ requirement\(s\) not judged\n {2}\d+ × /m);
      expect(tail).toMatch(/^ {2}\d+ × no check ran for it in this run \(suite not selected\)$/m);
      expect(tail).toContain(
        'Reproduce by hand: the embedded server stopped with the run, and its cases with it; "screenconf serve ' +
          '--fault token.accept-wrong-secret"',
      );
      expect(tail).toContain('SCREENCONF_BASE_URL and SCREENCONF_ACCESS_TOKEN');
      expect(tail).toContain('Replay: the same command with --seed 77 generates the same inputs.');
      expect(tail).toMatch(
        /Verdict: NOT CONFORMING — .*\nMUST failed: TOKEN-REJECT-WRONG-SECRET\n\d+ requirements judged in .*\nReport: /,
      );
      // The last line: report.html to open, and the reproduction scripts of what failed.
      const folder = runFolder(dir);
      expect(lastLine(r.stdout)).toBe(
        `Report: ${join(folder, 'report.html')} (conformance.json beside it); reproductions: ${join(folder, 'repro')}/`,
      );
    },
  );
});

describe('screenconf list --level --area', () => {
  it('lists only the levels and areas asked for; "bulk" names every bulk area', async () => {
    const r = await screenconf(['list', '--level', 'MUST', '--area', 'bulk', '--json']);
    expect(r.status).toBe(0);
    const { requirements } = JSON.parse(r.stdout) as { requirements: { level: string; area: string }[] };
    expect(requirements).toEqual(CATALOGUE.filter((q) => q.level === 'MUST' && q.area.startsWith('bulk-')));
    const wrong = await screenconf(['list', '--area', 'bulck']);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain('--area "bulck" is not an area (did you mean "bulk"?)');
  });
});

describe('serve --credentials-out, run --credentials', () => {
  it('prints the whole run command, and writes a file run reads for both organisations and the API key', async () => {
    const server = await serve();
    children.push(server.child);
    const { credentials } = server;
    const [ours, peer] = credentials.organisations;
    while (!server.output().includes('or, with them: screenconf run --credentials ')) await sleep(50);
    expect(server.output()).toContain(
      `run against it: screenconf run --base-url ${credentials.baseUrl} --client-id ${ours!.clientId} ` +
        `--client-secret ${ours!.clientSecret} --api-key ${ours!.apiKey} --peer-client-id ${peer!.clientId} ` +
        `--peer-client-secret ${peer!.clientSecret}`,
    );
    const file = /or, with them: screenconf run --credentials (\S+)/.exec(server.output())![1]!;
    expect(resolveConfig({ flags: { credentials: file }, env: {}, file: {} })).toMatchObject({
      baseUrl: credentials.baseUrl,
      clientId: ours!.clientId,
      clientSecret: ours!.clientSecret,
      apiKey: ours!.apiKey,
      peerClientId: peer!.clientId,
      peerClientSecret: peer!.clientSecret,
    });
    expect(resolveConfig({ flags: { credentials: file, apiKey: 'mine' }, env: {}, file: {} }).apiKey).toBe('mine');
    const run = await screenconf([
      'run',
      '--credentials',
      file,
      '--suites',
      'token',
      '--quiet',
      '--report-dir',
      tempDir(),
    ]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/✓ token +\d+ passed, 0 failed/);
    server.child.kill('SIGTERM');
  });
});
