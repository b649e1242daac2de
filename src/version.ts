import { existsSync, readFileSync, statSync } from 'node:fs';
import { arch, release, type } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Whether this is the compiled package (dist/, JavaScript: an installed screenconf) rather than the
 * TypeScript sources of a checkout run through tsx.
 */
export const COMPILED: boolean = import.meta.url.endsWith('.js');

/** The folder holding src/ and suites/ as they run: the checkout, or dist/ of the installed package. */
export const CODE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The extension of the modules that run (suite files, setup files): '.js' compiled, '.ts' from a checkout. */
export const CODE_EXT: '.js' | '.ts' = COMPILED ? '.js' : '.ts';

/** The folder screenconf is installed in (package.json, docs/, fixtures/). */
export const PACKAGE_ROOT = COMPILED ? resolve(CODE_ROOT, '..') : CODE_ROOT;

const MANIFEST = JSON.parse(readFileSync(resolve(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
  version: string;
  peerDependencies?: Record<string, string>;
};

export const VERSION: string = MANIFEST.version;

/** The version range of a peer dependency (testcontainers, optional), for the command that installs it. */
export function peerRange(name: string): string | undefined {
  return MANIFEST.peerDependencies?.[name];
}

/**
 * The git commit screenconf runs from, when it runs from a checkout (a clone or a worktree):
 * read from .git's files, so no git program is needed; undefined when installed as a package.
 */
export function gitCommit(root: string = PACKAGE_ROOT): string | undefined {
  try {
    const dotGit = resolve(root, '.git');
    const gitDir = statSync(dotGit).isDirectory()
      ? dotGit
      : resolve(root, /^gitdir: (.+)$/m.exec(readFileSync(dotGit, 'utf8'))![1]!.trim());
    const head = readFileSync(resolve(gitDir, 'HEAD'), 'utf8').trim();
    if (/^[0-9a-f]{40,64}$/.test(head)) return head;
    const ref = /^ref: (\S+)$/.exec(head)?.[1];
    if (!ref) return undefined;
    const common = existsSync(resolve(gitDir, 'commondir'))
      ? resolve(gitDir, readFileSync(resolve(gitDir, 'commondir'), 'utf8').trim())
      : gitDir;
    for (const dir of [gitDir, common]) {
      const file = resolve(dir, ref);
      if (existsSync(file)) return readFileSync(file, 'utf8').trim();
    }
    const packed = resolve(common, 'packed-refs');
    if (!existsSync(packed)) return undefined;
    const line = readFileSync(packed, 'utf8')
      .split('\n')
      .find((l) => l.endsWith(` ${ref}`));
    return line?.split(' ')[0];
  } catch {
    return undefined;
  }
}

/** The machine a run is on, for the report: operating system, release, architecture; Node's version. */
export function hostDescription(): { os: string; node: string } {
  return { os: `${type()} ${release()} (${arch()})`, node: process.version };
}
