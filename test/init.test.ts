/**
 * `screenconf init` in a user's folder (a real temp dir, through main()): the credentials template
 * holds no secret and is read by `run --credentials` with the secrets from the environment; the
 * expectations file is one `run --expect` accepts; the CI job per platform; .gitignore; and it never
 * overwrites a file unless --force (exit 2, SC_INIT_EXISTS naming the file, nothing written).
 * test/package.test.ts runs `init --ci github` and a run from an installed package, and
 * test/action.test.ts runs the workflow it writes.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INIT_FILES } from '../src/commands/init.ts';
import { resolveConfig } from '../src/runner/config.ts';
import { loadExpectations } from '../src/runner/expectations.ts';
import { tempDir } from './support/cli.ts';
import { screenconfInProcess } from './support/in-process.ts';

const init = (cwd: string, ...args: string[]) => screenconfInProcess(['init', ...args], { cwd });

describe('screenconf init', () => {
  it('writes the credentials template (no secret in it, gitignored) and the expectations file', async () => {
    const dir = tempDir('screenconf-init-');
    const r = await init(dir);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`wrote ${INIT_FILES.credentials}`);
    expect(r.stdout).toContain(`added ${INIT_FILES.credentials} to .gitignore`);
    expect(existsSync(join(dir, INIT_FILES.github))).toBe(false);
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toMatch(new RegExp(`^${INIT_FILES.credentials}$`, 'm'));
    const template = readFileSync(join(dir, INIT_FILES.credentials), 'utf8');
    // Every secret names its variable; nothing else could be one.
    const organisations = JSON.parse(template).organisations as Record<string, unknown>[];
    for (const o of organisations)
      for (const key of ['clientSecret', 'apiKey'].filter((k) => k in o))
        expect(o[key]).toEqual({ env: expect.any(String) });
    expect(loadExpectations(join(dir, INIT_FILES.expectations), undefined)).toEqual([]);
  });

  it('the template is what run --credentials reads, each secret from the variable it names', async () => {
    const dir = tempDir('screenconf-init-');
    await init(dir);
    const sources = { flags: { credentials: INIT_FILES.credentials }, env: {}, file: {}, cwd: dir };
    const environment = {
      SCREENCONF_CLIENT_SECRET: 's1',
      SCREENCONF_API_KEY: 'k1',
      SCREENCONF_PEER_CLIENT_SECRET: 's2',
    };
    const config = resolveConfig({ ...sources, environment });
    expect(config).toMatchObject({ baseUrl: 'https://staging.example.com', clientSecret: 's1', apiKey: 'k1' });
    expect(config).toMatchObject({ peerClientSecret: 's2', clientId: '00000000-0000-4000-8000-000000000001' });
    expect(() => resolveConfig({ ...sources, environment: { SCREENCONF_CLIENT_SECRET: 's1' } })).toThrow(
      /organisations\[0\]\.apiKey is read from the environment variable SCREENCONF_API_KEY, which is not set/,
    );
  });

  it('refuses to overwrite (exit 2, SC_INIT_EXISTS naming the file, nothing written) unless --force', async () => {
    const dir = tempDir('screenconf-init-');
    writeFileSync(join(dir, INIT_FILES.expectations), '{"expectations": [] }\n');
    writeFileSync(join(dir, '.gitignore'), 'node_modules/');
    const refused = await init(dir, '--ci', 'github');
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(
      new RegExp(`^screenconf: error SC_INIT_EXISTS: ${INIT_FILES.expectations} exists: .*nothing was written\n$`),
    );
    for (const file of [INIT_FILES.credentials, INIT_FILES.github])
      expect(existsSync(join(dir, file)), file).toBe(false);
    expect(readFileSync(join(dir, INIT_FILES.expectations), 'utf8')).toBe('{"expectations": [] }\n');

    const forced = await init(dir, '--ci', 'github', '--force');
    expect(forced.status, forced.stderr).toBe(0);
    expect(readFileSync(join(dir, INIT_FILES.expectations), 'utf8')).toBe('{\n  "expectations": []\n}\n');
    expect(readFileSync(join(dir, INIT_FILES.github), 'utf8')).toContain('uses: ./node_modules/screenconf');
    // The entry is added once, on a line of its own after what was there.
    await init(dir, '--force');
    const ignore = readFileSync(join(dir, '.gitignore'), 'utf8');
    expect(ignore.startsWith('node_modules/\n')).toBe(true);
    expect(ignore.split('\n').filter((l) => l === INIT_FILES.credentials)).toHaveLength(1);
  });

  it('--ci gitlab writes the job with the package template; another platform is SC_USAGE', async () => {
    const dir = tempDir('screenconf-init-');
    const r = await init(dir, '--ci', 'gitlab');
    expect(r.status, r.stderr).toBe(0);
    const job = readFileSync(join(dir, INIT_FILES.gitlab), 'utf8');
    expect(job).toContain(readFileSync(join(import.meta.dirname, '../ci/screenconf.gitlab-ci.yml'), 'utf8').trim());
    expect(job).toMatch(/^screenconf:\n {2}extends: \.screenconf$/m);
    const bad = await init(tempDir('screenconf-init-'), '--ci', 'jenkins');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('SC_USAGE: --ci "jenkins" is not a CI platform (github, gitlab)');
  });
});
