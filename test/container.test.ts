/**
 * --target-image: screenconf starts a real container of the reference server image (built from
 * this checkout by scripts/build-reference-image.sh), runs against it and removes it, whatever
 * happens. Needs a container engine with a Docker-compatible API at DOCKER_HOST (.ci/run starts
 * podman's); without one the engine tests are skipped, unless CI=true, where they must run.
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, reportFiles, ROOT, screenconf, tempDir, type CliResult } from './support/cli.ts';

const IMAGE = 'localhost/screenconf-reference:latest';
const LABEL = 'screenconf.target';

/** Where the engine's API listens: DOCKER_HOST (unix:// or tcp://), else the default Docker socket. */
function engineAddress(): { socketPath: string } | { host: string; port: number } {
  const dockerHost = process.env.DOCKER_HOST ?? 'unix:///var/run/docker.sock';
  if (dockerHost.startsWith('unix://')) return { socketPath: dockerHost.slice('unix://'.length) };
  const url = new URL(dockerHost.replace(/^tcp:/, 'http:'));
  return { host: url.hostname, port: Number(url.port || 2375) };
}

/** GET on the engine's API; the JSON body, or undefined when nothing answers. */
function engineGet(path: string): Promise<unknown> {
  return new Promise((resolve) => {
    const req = request({ ...engineAddress(), path, method: 'GET', timeout: 5_000 }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => {
        try {
          resolve(res.statusCode === 200 ? JSON.parse(body) : undefined);
        } catch {
          resolve(body === 'OK' ? 'OK' : undefined);
        }
      });
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(undefined));
    req.end();
  });
}

/** The ids of the containers screenconf started (label screenconf.target), running or not. */
async function screenconfContainers(): Promise<string[]> {
  const filters = encodeURIComponent(JSON.stringify({ label: [LABEL] }));
  const list = (await engineGet(`/containers/json?all=1&filters=${filters}`)) as { Id: string }[] | undefined;
  if (!list) throw new Error('the container engine did not answer the container list');
  return list.map((c) => c.Id);
}

const engineAnswers = (await engineGet('/_ping')) === 'OK';
const required = process.env.CI === 'true' || process.env.CI === '1';
const noEngine =
  `no container engine answers at ` +
  `${process.env.DOCKER_HOST ?? 'the default Docker socket (DOCKER_HOST is not set)'}; start podman's API service ` +
  `and set DOCKER_HOST as .ci/run does`;
if (!engineAnswers && !required)
  console.warn(`test/container.test.ts: engine tests skipped (CI is not set): ${noEngine}`);

/** Credentials chosen by the test: the container's server takes them, the run is given them. */
function credentials() {
  const org = () => ({
    clientId: randomUUID(),
    clientSecret: `cs_${randomBytes(18).toString('base64url')}`,
    apiKey: `sk_${randomBytes(18).toString('base64url')}`,
  });
  const [primary, peer] = [org(), org()];
  const json = JSON.stringify({ organisations: [primary, peer] });
  const flags = [
    '--target-env',
    `SCREENCONF_SERVE_CREDENTIALS=${json}`,
    '--client-id',
    primary.clientId,
    '--client-secret',
    primary.clientSecret,
    '--api-key',
    primary.apiKey,
    '--peer-client-id',
    peer.clientId,
    '--peer-client-secret',
    peer.clientSecret,
  ];
  return {
    primary,
    peer,
    json,
    flags,
    secrets: [primary.clientSecret, primary.apiKey, peer.clientSecret, peer.apiKey],
  };
}

function expectOneLineError(r: CliResult, code: string, status: number): void {
  expect(r.status, r.stdout + r.stderr).toBe(status);
  const lines = r.stderr.trim().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(new RegExp(`^screenconf: error ${code}: `));
  expect(r.stderr).not.toMatch(/^\s+at /m);
}

describe('--target-image without an engine', () => {
  it('is refused together with --base-url (SC_CONFIG, exit 2)', async () => {
    const r = await screenconf([
      'run',
      '--target-image',
      IMAGE,
      '--base-url',
      'http://127.0.0.1:9',
      '--client-id',
      randomUUID(),
      '--client-secret',
      'cs_x1234',
      '--report-dir',
      tempDir(),
    ]);
    expectOneLineError(r, 'SC_CONFIG', 2);
    expect(r.stderr).toContain(
      '--target-image (SCREENCONF_TARGET_IMAGE) and --base-url (SCREENCONF_BASE_URL) both name the target',
    );
  });

  it('names the engine it could not reach (SC_CONTAINER, exit 3), one line', async () => {
    const home = tempDir('screenconf-home-'); // no ~/.testcontainers.properties to fall back on
    const missing = join(tempDir('screenconf-engine-'), 'no-engine.sock');
    const r = await screenconf(
      [
        'run',
        '--target-image',
        IMAGE,
        '--client-id',
        randomUUID(),
        '--client-secret',
        'cs_x1234',
        '--report-dir',
        tempDir(),
      ],
      {
        env: { DOCKER_HOST: `unix://${missing}`, HOME: home, TESTCONTAINERS_HOST_OVERRIDE: '127.0.0.1' },
      },
    );
    expectOneLineError(r, 'SC_CONTAINER', 3);
    expect(r.stderr).toContain(`DOCKER_HOST=unix://${missing}`);
  });
});

describe.skipIf(!engineAnswers && !required)('--target-image with a container engine', () => {
  beforeAll(async () => {
    if (!engineAnswers) throw new Error(`CI is set, so the container tests must run, but ${noEngine}`);
    // The image of this checkout: rebuilt only when its content changed.
    await promisify(execFile)(join(ROOT, 'scripts/build-reference-image.sh'), [], { cwd: ROOT, timeout: 300_000 });
  }, 300_000);

  it('starts the image, runs the suites against it, and removes the container', async () => {
    const before = await screenconfContainers();
    const reportDir = tempDir();
    const creds = credentials();
    const r = await screenconf([
      'run',
      '--target-image',
      IMAGE,
      ...creds.flags,
      '--suites',
      'token,auth',
      '--max-rps',
      '0',
      '--report-dir',
      reportDir,
    ]);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(
        `^target http://127\\.0\\.0\\.1:\\d+ \\(container of ${IMAGE.replace(/[.:/]/g, '\\$&')}, removed at the ` +
          `end\\)$`,
        'm',
      ),
    );
    const folder = /^Report: (.+)\/report\.html /m.exec(r.stdout)![1]!;
    const report = JSON.parse(readFileSync(join(folder, 'conformance.json'), 'utf8'));
    expect(report.summary).toMatchObject({ verdict: 'incomplete', mustFailures: 0 });
    expect(report.target.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(report.target.kind).toBe('url');
    // The chosen credentials were accepted: the token and auth checks passed against the container.
    const passed = report.results
      .filter((x: { verdict: string }) => x.verdict === 'pass')
      .map((x: { id: string }) => x.id);
    expect(passed.some((id: string) => id.startsWith('TOKEN-'))).toBe(true);
    expect(passed.some((id: string) => id.startsWith('AUTH-'))).toBe(true);
    // No secret in the console or any file of the report folder.
    const everything =
      r.stdout +
      r.stderr +
      reportFiles(reportDir)
        .map(([, text]) => text)
        .join('\n');
    for (const secret of [...creds.secrets, creds.json]) expect(everything).not.toContain(secret);
    expect(await screenconfContainers()).toEqual(before);
  });

  it('removes a container that exits before it answers (SC_CONTAINER, exit 3)', async () => {
    const before = await screenconfContainers();
    const r = await screenconf([
      'run',
      '--target-image',
      IMAGE,
      '--target-env',
      'SCREENCONF_SERVE_CREDENTIALS=not json',
      '--client-id',
      randomUUID(),
      '--client-secret',
      'cs_x1234',
      '--report-dir',
      tempDir(),
    ]);
    expectOneLineError(r, 'SC_CONTAINER', 3);
    expect(r.stderr).toMatch(/exited \(status 2\) before it answered HTTP on port 8080/);
    expect(await screenconfContainers()).toEqual(before);
  });

  it.each([
    // As soon as the container exists (it is still starting), and once the suites start.
    ['SIGINT', 130, 'as soon as the container exists'],
    ['SIGTERM', 143, 'once the suites start'],
  ] as const)('removes the container when %s stops the run (exit %i; signal sent %s)', async (signal, status, when) => {
    const before = await screenconfContainers();
    const creds = credentials();
    const child = spawn(
      process.execPath,
      [
        BIN,
        'run',
        '--target-image',
        IMAGE,
        ...creds.flags,
        '--suites',
        'token,auth,case-patch',
        '--max-rps',
        '0',
        '--report-dir',
        tempDir(),
      ],
      {
        cwd: ROOT,
        env: cleanEnv(),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    let done = false;
    void exited.then(() => (done = true));
    // Poll for the moment (no timing assumption): a new labelled container, or the suites line.
    for (;;) {
      if (done) break;
      if (
        when === 'as soon as the container exists'
          ? (await screenconfContainers()).some((id) => !before.includes(id))
          : /^suites: /m.test(stdout)
      )
        break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(done, `the run ended before the signal (${when}): ${stdout}${stderr}`).toBe(false);
    child.kill(signal);
    expect(await exited, stdout + stderr).toBe(status);
    expect(stderr).toMatch(new RegExp(`interrupted by ${signal}`));
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(await screenconfContainers()).toEqual(before);
  });
});
