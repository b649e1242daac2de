/**
 * Where vitest keeps the suites' transformed modules between runs (its fsModuleCache). Each run, and
 * each round of --runs/--duration, starts vitest afresh, and without the cache it transformed
 * suites/ and src/ again every time: most of a short run's start-up.
 *
 * The cache lives with screenconf itself: node_modules/.cache/screenconf-modules in the checkout or
 * in the installed package's folder (which npm replaces, cache and all, on an upgrade), never in the
 * user's project or their working directory. An install that cannot be written (a global install
 * owned by root) uses the user's cache folder instead ($XDG_CACHE_HOME or ~/.cache), one folder per
 * install; where neither can be written, the run goes without. Entries are keyed by each module's
 * content and vitest's configuration, and vitest clears the folder when the lockfile beside the
 * install changes, so a stale entry is never used.
 */
import { createHash } from 'node:crypto';
import { accessSync, constants, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { version as vitestVersion } from 'vitest/node';
import { PACKAGE_ROOT } from '../version.ts';

/** The first folder of these that exists (or can be made) and can be written, as vitest's fsModuleCachePath. */
export function moduleCacheDir(env: NodeJS.ProcessEnv = process.env, root: string = PACKAGE_ROOT): string | undefined {
  const install = createHash('sha256').update(`${root}\0${vitestVersion}`).digest('hex').slice(0, 16);
  const candidates = [() => join(root, 'node_modules', '.cache', 'screenconf-modules'), () => userCache(env, install)];
  for (const candidate of candidates) {
    try {
      const dir = candidate();
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      accessSync(dir, constants.W_OK);
      return dir;
    } catch {
      // Read-only, or no home folder: the next place, or no cache.
    }
  }
  return undefined;
}

function userCache(env: NodeJS.ProcessEnv, install: string): string {
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.cache');
  return join(base, 'screenconf', `modules-${install}`);
}
