/**
 * The documentation is part of the product: these tests fail when it stops telling the truth. The
 * README stays short and gives the quick start that CI runs; the references of docs/reference/ are
 * what `npm run docs` generates from the code now (settings, suites, commands, requirements, switches
 * and error codes are listed there, not by hand); and every relative link in README.md and docs/
 * leads to a file, and to a heading of it when it names one. The runnable blocks are run by
 * test/docs-runnable.test.ts.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generatedDocs, REGENERATE, stalePages } from '../scripts/docs.ts';
import { ERROR_CODES } from '../src/errors.ts';
import { FAULTS } from '../src/reference/faults.ts';
import { VARIANTS } from '../src/reference/variants.ts';
import { SETTINGS, SUITES } from '../src/runner/settings.ts';
import { CATALOGUE } from '../src/spec/index.ts';

const root = resolve(import.meta.dirname, '..');
const readme = readFileSync(resolve(root, 'README.md'), 'utf8');

/** README.md and every Markdown file under docs/, as paths from the root. */
function pages(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : [],
    );
  return ['README.md', ...walk('docs')];
}

/** GitHub's anchor of a heading. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, '')
    .replace(/ /g, '-');
}

const anchorCache = new Map<string, Set<string>>();

/** The anchors of a Markdown file's headings (outside fenced blocks). */
function anchors(file: string): Set<string> {
  const cached = anchorCache.get(file);
  if (cached) return cached;
  const text = readFileSync(file, 'utf8');
  const out = new Set<string>();
  anchorCache.set(file, out);
  let fence = false;
  for (const line of text.split('\n')) {
    if (/^(```|~~~)/.test(line)) fence = !fence;
    const heading = !fence && /^#{1,6} (.*)$/.exec(line);
    if (heading) out.add(slug(heading[1]!));
  }
  return out;
}

/** The relative links of a Markdown text (outside fenced blocks and code spans): [text](target). */
function links(text: string): string[] {
  const prose = text.replace(/^(```|~~~)[\s\S]*?^\1/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/i.test(t));
}

describe('README', () => {
  it('is at most 300 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
  });

  it('gives the two quick-start commands, and CI runs the test one', () => {
    expect(readme).toContain('npm ci && npm run conformance');
    expect(readme).toContain('npm ci && npm test');
    const ci = readFileSync(resolve(root, '.ci/run'), 'utf8');
    expect(ci).toMatch(/^npm ci$/m);
    expect(ci).toMatch(/^npm test$/m);
  });

  it('shows report.html and maps every page of docs/', () => {
    expect(readme).toContain('](docs/report-html.png)');
    for (const page of pages().filter((p) => p !== 'README.md')) expect(readme, page).toContain(`](${page})`);
  });
});

describe('every relative link in README.md and docs/', () => {
  it.each(pages())('%s: leads to a file, and to one of its headings', (page) => {
    const text = readFileSync(join(root, page), 'utf8');
    const broken: string[] = [];
    for (const link of links(text)) {
      const [path, hash] = link.split('#') as [string, string | undefined];
      const target = path === '' ? join(root, page) : resolve(root, dirname(page), decodeURI(path));
      if (!existsSync(target)) broken.push(`${link}: no ${relative(root, target)}`);
      else if (hash !== undefined && target.endsWith('.md') && !anchors(target).has(hash))
        broken.push(`${link}: no heading #${hash} in ${relative(root, target)}`);
    }
    expect(broken).toEqual([]);
  });
});

describe('the references generated from the code', () => {
  let generated: Record<string, string>;
  beforeAll(async () => {
    // The suites are collected by vitest, as for a run: a few seconds.
    generated = await generatedDocs();
  }, 120_000);

  it(`are what "${REGENERATE}" writes now`, async () => {
    const stale = await stalePages(generated);
    expect(stale.map((path) => `${path} is stale: run "${REGENERATE}"`)).toEqual([]);
  });

  it('list every setting with its flag and variable, every suite and every command', () => {
    const cli = generated['docs/reference/cli.md']!;
    const rows = cli.split('\n').filter((l) => l.startsWith('|'));
    for (const [key, s] of Object.entries(SETTINGS)) {
      const row = rows.find((l) => l.includes(`| \`${key}\` |`));
      expect(row, `a row for ${key}`).toBeDefined();
      expect(row).toContain(`--${s.flag}`);
      expect(row).toContain(s.env);
    }
    for (const suite of SUITES) expect(cli, suite).toContain(`| \`${suite}\` |`);
    for (const command of ['run', 'init', 'serve', 'merge', 'verify'])
      expect(cli).toContain(`## screenconf ${command}`);
  });

  it('list every requirement, fault, variant and error code with its exit status', () => {
    const requirements = generated['docs/reference/requirements.md']!;
    for (const r of CATALOGUE) expect(requirements, r.id).toContain(`### ${r.id}\n`);
    const switches = generated['docs/reference/switches.md']!;
    for (const name of [...Object.keys(FAULTS), ...Object.keys(VARIANTS)])
      expect(switches).toContain(`| \`${name}\` |`);
    const errors = generated['docs/reference/errors.md']!;
    for (const [code, { exit }] of Object.entries(ERROR_CODES)) expect(errors).toContain(`| ${code} | ${exit} |`);
  });
});
