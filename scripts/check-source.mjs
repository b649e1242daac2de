#!/usr/bin/env node
// The source rules no formatter enforces: no line past 120 columns in any source file, and no
// file of src/ over 450 lines (one job per file). Prints each offence; exits 1 when there is one.
// A Stryker directive is exempt from the column limit: Stryker reads the directive and its reason
// from one line, and the reason is what a reader of the mutation report needs.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
const MAX_COLUMNS = 120;
const MAX_LINES = 450;
const FOLDERS = ['src', 'suites', 'test', 'bin', 'fixtures', 'scripts'];
const SOURCE = /\.(ts|js|mjs|cjs)$/;
const DIRECTIVE = /^\s*\/\/ Stryker (disable|restore) /;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (SOURCE.test(name)) yield path;
  }
}

const offences = [];
for (const folder of FOLDERS) {
  for (const path of files(join(ROOT, folder))) {
    const file = relative(ROOT, path);
    const lines = readFileSync(path, 'utf8').split('\n');
    lines.forEach((line, i) => {
      const columns = [...line].length;
      if (columns > MAX_COLUMNS && !DIRECTIVE.test(line))
        offences.push(`${file}:${i + 1}: ${columns} columns (at most ${MAX_COLUMNS})`);
    });
    if (folder === 'src' && lines.length > MAX_LINES) {
      offences.push(`${file}: ${lines.length} lines (at most ${MAX_LINES} in src/: one job per file)`);
    }
  }
}
for (const o of offences) console.log(o);
if (offences.length) {
  console.log(`${offences.length} offence(s) against the source rules`);
  process.exit(1);
}
console.log('source rules: every line within 120 columns, every file of src/ within 450 lines');
