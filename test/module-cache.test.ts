/** Where the suites' transformed modules are kept between runs: with screenconf, else the user's cache, else none. */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { moduleCacheDir } from '../src/runner/module-cache.ts';
import { tempDir } from './support/cli.ts';

describe('the module cache folder', () => {
  it("is in screenconf's own node_modules/.cache, never the working directory", () => {
    const root = tempDir();
    const dir = moduleCacheDir({ XDG_CACHE_HOME: tempDir() }, root);
    expect(dir).toBe(join(root, 'node_modules', '.cache', 'screenconf-modules'));
    expect(existsSync(dir!)).toBe(true);
  });

  it("is in the user's cache folder, one per install, when the install cannot be written", () => {
    // A folder that cannot be made stands for a read-only install (root writes through permissions).
    const file = join(tempDir(), 'not-a-folder');
    writeFileSync(file, '');
    const cache = tempDir();
    const dir = moduleCacheDir({ XDG_CACHE_HOME: cache }, join(file, 'screenconf'));
    expect(dir).toMatch(new RegExp(`^${cache}/screenconf/modules-[0-9a-f]{16}$`));
    expect(moduleCacheDir({ XDG_CACHE_HOME: cache }, join(file, 'other'))).not.toBe(dir);
  });

  it('is none when neither can be written: the run goes without', () => {
    const file = join(tempDir(), 'not-a-folder');
    writeFileSync(file, '');
    expect(moduleCacheDir({ XDG_CACHE_HOME: join(file, 'cache') }, join(file, 'screenconf'))).toBeUndefined();
  });
});
