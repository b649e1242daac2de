import { basename } from 'node:path';

/** A suite file's name without folder and `.test.<ext>`: suites/token.test.ts (or .js, .mjs) → token. */
export function suiteName(file: string): string {
  return basename(file).replace(/\.test\.[cm]?[jt]s$/, '');
}
