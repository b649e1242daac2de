/** Configuration safety: secrets from files, plain HTTP refused, errors that name the flag or the file line. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isLoopbackHost } from '../src/base/net.ts';
import { keyLine, loadConfigFile, readEnv, resolveConfig } from '../src/runner/config.ts';
import { tempDir } from './support/cli.ts';
import { screenconfInProcess } from './support/in-process.ts';
import { harnessError as error } from './support/errors.ts';

const id = '3f8a4c1e-2b7d-4e9f-a1c3-5d6e7f8a9b0c';

describe('secrets from files', () => {
  it('reads each secret from its file, dropping the trailing newline', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'secret'), 'from-a-file-123\n');
    writeFileSync(join(dir, 'key'), 'key-from-file-456\r\n');
    writeFileSync(join(dir, 'peer'), 'peer-secret-789');
    const c = resolveConfig({
      flags: { baseUrl: 'https://h.test', clientId: id, clientSecretFile: 'secret', peerClientId: id },
      env: readEnv({
        SCREENCONF_API_KEY_FILE: join(dir, 'key'),
        SCREENCONF_PEER_CLIENT_SECRET_FILE: join(dir, 'peer'),
      }),
      file: {},
      cwd: dir,
    });
    expect(c).toMatchObject({
      clientSecret: 'from-a-file-123',
      apiKey: 'key-from-file-456',
      peerClientSecret: 'peer-secret-789',
    });
    expect(c.clientSecretFile).toBeUndefined();
  });

  it('resolves a file named in the config file against the config file folder', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'secret.txt'), 'in-config-folder\n');
    writeFileSync(
      join(dir, 'screenconf.config.json'),
      JSON.stringify({ baseUrl: 'https://h.test', clientId: id, clientSecretFile: 'secret.txt' }),
    );
    const file = loadConfigFile(join(dir, 'screenconf.config.json'), '/');
    expect(
      resolveConfig({ flags: {}, env: {}, file: file.values, fileSource: file.source, cwd: '/' }).clientSecret,
    ).toBe('in-config-folder');
  });

  it('refuses a secret and its file at the same level, an unreadable or empty file — never echoing a secret', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'empty'), '\n');
    writeFileSync(join(dir, 'secret'), 'the-file-secret');
    const both = error(() =>
      resolveConfig({
        flags: {
          baseUrl: 'https://h.test',
          clientId: id,
          clientSecret: 'flag-secret-value',
          clientSecretFile: 'secret',
        },
        env: {},
        file: {},
        cwd: dir,
      }),
    );
    expect(both.code).toBe('SC_CONFIG');
    expect(both.message).toMatch(/--client-secret-file .* and --client-secret both give/);
    expect(both.message).not.toContain('flag-secret-value');
    const missing = error(() =>
      resolveConfig({
        flags: { baseUrl: 'https://h.test', clientId: id, clientSecretFile: 'nope' },
        env: {},
        file: {},
        cwd: dir,
      }),
    );
    expect(missing.message).toMatch(
      /^--client-secret-file \(SCREENCONF_CLIENT_SECRET_FILE\) cannot be read: .*nope: ENOENT$/,
    );
    expect(
      error(() =>
        resolveConfig({
          flags: { baseUrl: 'https://h.test', clientId: id, clientSecretFile: 'empty' },
          env: {},
          file: {},
          cwd: dir,
        }),
      ).message,
    ).toMatch(/is empty$/);
    // A flag wins over the variable's file.
    const c = resolveConfig({
      flags: { baseUrl: 'https://h.test', clientId: id, clientSecret: 'flag-wins' },
      env: readEnv({ SCREENCONF_CLIENT_SECRET_FILE: join(dir, 'secret') }),
      file: {},
      cwd: dir,
    });
    expect(c.clientSecret).toBe('flag-wins');
  });
});

describe('transport safety at config time', () => {
  it('knows loopback hosts', () => {
    for (const h of ['localhost', 'api.localhost', '127.0.0.1', '127.8.9.10', '[::1]', '::1', 'LOCALHOST.'])
      expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ['screenconf.invalid', '10.0.0.1', '128.0.0.1', 'localhost.example.com', '[::2]'])
      expect(isLoopbackHost(h), h).toBe(false);
  });

  it('refuses credentials over plain http to a non-loopback host unless --allow-insecure-http', () => {
    const e = error(() =>
      resolveConfig({
        flags: { baseUrl: 'http://screenconf.invalid', clientId: id, clientSecret: 'never-shown-secret' },
        env: {},
        file: {},
      }),
    );
    expect(e.code).toBe('SC_INSECURE_TRANSPORT');
    expect(e.exitCode).toBe(2);
    expect(e.message).toMatch(/^--base-url \(SCREENCONF_BASE_URL\) is plain http:\/\/ to screenconf\.invalid/);
    expect(e.message).toContain('--allow-insecure-http');
    expect(e.message).not.toContain('never-shown-secret');
    expect(
      resolveConfig({
        flags: { baseUrl: 'http://screenconf.invalid', clientId: id, clientSecret: 'x', allowInsecureHttp: true },
        env: {},
        file: {},
      }).allowInsecureHttp,
    ).toBe(true);
    expect(
      resolveConfig({
        flags: { baseUrl: 'http://screenconf.invalid', clientId: id, clientSecret: 'x' },
        env: readEnv({ SCREENCONF_ALLOW_INSECURE_HTTP: '1' }),
        file: {},
      }).allowInsecureHttp,
    ).toBe(true);
    expect(
      resolveConfig({ flags: { baseUrl: 'http://127.0.0.1:9', clientId: id, clientSecret: 'x' }, env: {}, file: {} })
        .baseUrl,
    ).toBe('http://127.0.0.1:9');
    expect(
      resolveConfig({
        flags: { baseUrl: 'https://screenconf.invalid', clientId: id, clientSecret: 'x' },
        env: {},
        file: {},
      }).baseUrl,
    ).toBe('https://screenconf.invalid');
  });

  it('refuses credentials inside the base URL', () => {
    expect(
      error(() =>
        resolveConfig({
          flags: { baseUrl: 'https://user:pw@h.test', clientId: id, clientSecret: 'x' },
          env: {},
          file: {},
        }),
      ).message,
    ).toMatch(/must not carry user:password@/);
  });

  it('exits 2 before any connection for http://screenconf.invalid (a lookup would fail with exit 3)', async () => {
    const r = await screenconfInProcess([
      'run',
      '--base-url',
      'http://screenconf.invalid',
      '--client-id',
      id,
      '--client-secret',
      'cli-secret-value',
      '--report-dir',
      tempDir(),
    ]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(
      /^screenconf: error SC_INSECURE_TRANSPORT: --base-url .* is plain http:\/\/ to screenconf\.invalid/,
    );
    expect(r.stderr).not.toContain('cli-secret-value');
  });
});

describe('config errors name the flag, the variable or the file line', () => {
  const text = '{\n  "runs": 3,\n  "timeoutMs": 5,\n  "webhookHost": "127.0.0.1"\n}\n';

  it('locates a top-level key, not a nested one of the same name', () => {
    expect(keyLine(text, 'timeoutMs')).toBe(3);
    expect(keyLine('{\n "a": {"runs": 1},\n\n "runs": 2}', 'runs')).toBe(4);
    expect(keyLine('{"x": "\\"runs\\": 1"}', 'runs')).toBeUndefined();
  });

  it('names the config file and line of a bad value', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'c.json'), text);
    const file = loadConfigFile('c.json', dir);
    const e = error(() => resolveConfig({ flags: {}, env: {}, file: file.values, fileSource: file.source }));
    expect(e.code).toBe('SC_CONFIG');
    expect(e.message).toBe(
      `config file ${join(dir, 'c.json')} line 3: "timeoutMs" (--timeout-ms) must be at least 100`,
    );
  });

  it('names the variable when the value came from the environment', () => {
    expect(error(() => resolveConfig({ flags: {}, env: readEnv({ SCREENCONF_RUNS: 'many' }), file: {} })).message).toBe(
      'SCREENCONF_RUNS (--runs) must be an integer',
    );
    expect(
      error(() => resolveConfig({ flags: {}, env: readEnv({ SCREENCONF_KEEP: 'perhaps' }), file: {} })).message,
    ).toBe('SCREENCONF_KEEP (--keep) must be true or false');
  });

  it('names the line of invalid JSON and of an unknown key', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'bad.json'), '{\n  "runs": 3,\n  oops\n}');
    const bad = error(() => loadConfigFile('bad.json', dir));
    expect(bad.code).toBe('SC_CONFIG_FILE');
    expect(bad.message).toMatch(/bad\.json line 3 is not valid JSON/);
    writeFileSync(join(dir, 'unknown.json'), '{\n  "runs": 3,\n  "colour": "blue"\n}');
    expect(error(() => loadConfigFile('unknown.json', dir)).message).toMatch(
      /unknown\.json line 3: unknown setting "colour"/,
    );
  });

  it('names the type a value of the wrong JSON type must have, in words', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'types.json'), '{\n  "suites": 5\n}\n');
    const suites = loadConfigFile('types.json', dir);
    expect(
      error(() => resolveConfig({ flags: {}, env: {}, file: suites.values, fileSource: suites.source })).message,
    ).toBe(
      `config file ${join(dir, 'types.json')} line 2: "suites" (--suites) must be a list (a JSON array, or a ` +
        `comma-separated string), not a number`,
    );
    expect(error(() => resolveConfig({ flags: {}, env: {}, file: { baseUrl: 42 } })).message).toBe(
      '--base-url (SCREENCONF_BASE_URL) must be a string, not a number',
    );
    expect(error(() => resolveConfig({ flags: {}, env: {}, file: { reportDir: ['a'] } })).message).toBe(
      '--report-dir (SCREENCONF_REPORT_DIR) must be a string, not a list',
    );
    expect(error(() => resolveConfig({ flags: {}, env: {}, file: { targets: [5] } })).message).toBe(
      '--target (SCREENCONF_TARGETS) target 1 must be an object, not a number',
    );
    const secret = error(() =>
      resolveConfig({ flags: {}, env: {}, file: { baseUrl: 'https://h.test', clientId: id, clientSecret: 12345678 } }),
    );
    expect(secret.message).toBe('--client-secret (SCREENCONF_CLIENT_SECRET) must be a string, not a number');
  });

  it('exits 2 through the CLI naming the file line', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'screenconf.config.json'), text);
    const r = await screenconfInProcess(['run'], { cwd: dir });
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe(
      `screenconf: error SC_CONFIG: config file ${join(dir, 'screenconf.config.json')} line 3: "timeoutMs" ` +
        `(--timeout-ms) must be at least 100`,
    );
  });
});
