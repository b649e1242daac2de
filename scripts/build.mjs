#!/usr/bin/env node
// `npm run build`: the compiled package. Removes dist/, then compiles src/ and suites/ with
// tsconfig.build.json (relative './x.ts' imports become './x.js'), so that an installed
// screenconf runs JavaScript with no TypeScript tooling, and copies the JavaScript modules of src/
// as they are (the warm worker's entry, which Node runs with no loader). Run by `prepare` (npm ci, npm pack).
//
//   node scripts/build.mjs --if-stale   builds only when a source is newer than dist/ (or dist/ is missing)
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const built = join(root, 'dist/src/cli.js');

/** The newest modification time of the sources and the build configuration. */
function newestSource() {
  let newest = 0;
  const visit = (path) => {
    const stat = statSync(path);
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
    else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const name of ['src', 'suites', 'package.json', 'tsconfig.json', 'tsconfig.build.json']) visit(join(root, name));
  return newest;
}

if (process.argv.includes('--if-stale') && existsSync(built) && statSync(built).mtimeMs >= newestSource()) {
  process.exit(0);
}
rmSync(join(root, 'dist'), { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const { status } = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
if (status === 0) {
  for (const file of readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })) {
    if (file.endsWith('.mjs')) copyFileSync(join(root, 'src', file), join(root, 'dist/src', file));
  }
}
process.exit(status ?? 1);
