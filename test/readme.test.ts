/**
 * The README is part of the product: these tests fail when it stops telling the truth about the
 * settings, suites, error codes and the quick start that the code actually has.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../src/errors.ts';
import { SETTINGS, SUITES } from '../src/runner/settings.ts';

const root = resolve(import.meta.dirname, '..');
const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
const rows = readme.split('\n').filter((l) => l.startsWith('|'));

describe('README', () => {
  it('gives the two quick-start commands, and CI runs the test one', () => {
    expect(readme).toContain('npm ci && npm run conformance');
    expect(readme).toContain('npm ci && npm test');
    const ci = readFileSync(resolve(root, '.ci/run'), 'utf8');
    expect(ci).toMatch(/^npm ci$/m);
    expect(ci).toMatch(/^npm test$/m);
  });

  it.each(Object.entries(SETTINGS))('documents the setting %s with its flag and variable', (key, s) => {
    const row = rows.find((l) => l.includes(`| ${key} |`));
    expect(row, `a table row for ${key}`).toBeDefined();
    expect(row).toContain(`--${s.flag}`);
    expect(row).toContain(s.env);
  });

  it('names every suite', () => {
    for (const suite of SUITES) expect(readme, suite).toContain(`\`${suite}\``);
  });

  it.each(Object.entries(ERROR_CODES))('documents error code %s with its exit status', (code, { exit }) => {
    const row = rows.find((l) => l.startsWith(`| ${code} |`));
    expect(row, `a table row for ${code}`).toBeDefined();
    expect(row).toContain(`| ${exit} |`);
  });
});
