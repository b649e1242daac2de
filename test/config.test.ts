/** Configuration: precedence, validation messages that name the flag, config files. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfigFile, readEnv, resolveConfig } from '../src/runner/config.ts';
import { tempDir } from './support/cli.ts';
import { harnessError as error } from './support/errors.ts';

const id = '3f8a4c1e-2b7d-4e9f-a1c3-5d6e7f8a9b0c';

describe('resolveConfig', () => {
  it('takes flags over environment over file', () => {
    const c = resolveConfig({
      flags: { runs: '5' },
      env: readEnv({
        SCREENCONF_RUNS: '9',
        SCREENCONF_BASE_URL: 'http://127.0.0.1:9/',
        SCREENCONF_CLIENT_ID: id,
        SCREENCONF_CLIENT_SECRET: 's3cret',
      }),
      file: { runs: 12, baseUrl: 'http://file.invalid/', reportDir: 'out' },
    });
    expect(c).toMatchObject({
      runs: 5,
      baseUrl: 'http://127.0.0.1:9/',
      clientId: id,
      reportDir: 'out',
      timeoutMs: 15000,
    });
  });

  it('defaults to the embedded server with no settings', () => {
    expect(resolveConfig({ flags: {}, env: {}, file: {} })).toMatchObject({
      reportDir: 'reports',
      runs: 20,
      referenceFaults: [],
    });
  });

  it('names the flag, the variable and the rule of a bad value', () => {
    expect(error(() => resolveConfig({ flags: { baseUrl: 'ftp://x' }, env: {}, file: {} })).message).toBe(
      '--base-url (SCREENCONF_BASE_URL) must be an absolute http:// or https:// URL',
    );
    const e = error(() =>
      resolveConfig({ flags: { baseUrl: 'http://h.test', clientId: 'nope', clientSecret: 'x' }, env: {}, file: {} }),
    );
    expect(e.code).toBe('SC_CONFIG');
    expect(e.exitCode).toBe(2);
    expect(e.message).toMatch(/^--client-id \(SCREENCONF_CLIENT_ID\) must be a UUID/);
    expect(error(() => resolveConfig({ flags: { runs: '0' }, env: {}, file: {} })).message).toMatch(
      /--runs .* must be at least 1/,
    );
    expect(error(() => resolveConfig({ flags: { suites: 'token,nope' }, env: {}, file: {} })).message).toMatch(
      /--suites .* names "nope", not a suite; the suites: auth, /,
    );
    expect(error(() => resolveConfig({ flags: { suites: 'tokn' }, env: {}, file: {} })).message).toContain(
      'names "tokn", not a suite (did you mean "token"?)',
    );
    expect(
      error(() => resolveConfig({ flags: { baseUrl: 'staging.example.com' }, env: {}, file: {} })).message,
    ).toContain(
      '"staging.example.com" has no scheme; did you mean https://staging.example.com (http://staging.example.com',
    );
  });

  it('needs credentials with a base URL, and credentials only with one', () => {
    expect(error(() => resolveConfig({ flags: { baseUrl: 'http://h.test' }, env: {}, file: {} })).message).toMatch(
      /--client-id .* is required with --base-url/,
    );
    expect(error(() => resolveConfig({ flags: { clientId: id }, env: {}, file: {} })).message).toMatch(
      /only used with --base-url/,
    );
    expect(
      error(() => resolveConfig({ flags: { baseUrl: 'http://h.test', clientId: id }, env: {}, file: {} })).message,
    ).toMatch(/client-secret.*go together/);
  });

  it('never echoes a secret value in a message', () => {
    const e = error(() =>
      resolveConfig({ flags: { baseUrl: 'http://h.test', clientSecret: 'super-secret-value' }, env: {}, file: {} }),
    );
    expect(e.message).not.toContain('super-secret-value');
  });
});

describe('config files', () => {
  it('reads screenconf.config.json from the working folder when present, and ignores its absence', () => {
    const dir = tempDir();
    expect(readConfigFile(undefined, dir)).toEqual({});
    writeFileSync(join(dir, 'screenconf.config.json'), JSON.stringify({ runs: 3 }));
    expect(readConfigFile(undefined, dir)).toEqual({ runs: 3 });
  });

  it('rejects a missing explicit file, bad JSON and unknown settings with SC_CONFIG_FILE', () => {
    const dir = tempDir();
    expect(error(() => readConfigFile('missing.json', dir)).code).toBe('SC_CONFIG_FILE');
    writeFileSync(join(dir, 'bad.json'), '{ runs: 3');
    expect(error(() => readConfigFile('bad.json', dir)).message).toMatch(/not valid JSON/);
    writeFileSync(join(dir, 'unknown.json'), JSON.stringify({ colour: 'blue' }));
    expect(error(() => readConfigFile('unknown.json', dir)).message).toMatch(/unknown setting "colour"/);
  });
});
