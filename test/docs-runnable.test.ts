/**
 * No page can lie about a command it marks runnable: every fenced block with the info string
 * `sh runnable` in README.md and docs/ is run here, each page's blocks in order in a fresh project
 * folder that has screenconf installed (its bin in node_modules/.bin, as `npx screenconf` finds it),
 * with bash -eo pipefail, against one reference server started with `screenconf serve` for the
 * whole file (the pages at once, each in its own folder). Its base URL and both organisations'
 * credentials are in the SCREENCONF_* variables a user exports, so the blocks read as a user runs
 * them against their own server.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bash, installedProject } from './support/actions.ts';
import { BIN, cleanEnv, ROOT, tempDir } from './support/cli.ts';

interface Block {
  line: number;
  script: string;
}

/** The `sh runnable` blocks of a Markdown text, with the line each starts on. */
function runnableBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!/^```sh runnable\s*$/.test(lines[i]!)) continue;
    const end = lines.findIndex((l, j) => j > i && l.startsWith('```'));
    blocks.push({ line: i + 1, script: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return blocks;
}

function pages(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => join('docs', f));
  return ['README.md', ...docs.sort()];
}

const withBlocks = pages()
  .map((page) => ({ page, blocks: runnableBlocks(readFileSync(join(ROOT, page), 'utf8')) }))
  .filter((p) => p.blocks.length > 0);

describe('the runnable blocks of README.md and docs/', () => {
  let server: ChildProcess | undefined;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    const creds = join(tempDir('screenconf-docs-serve-'), 'creds.json');
    server = spawn(process.execPath, [BIN, 'serve', '--credentials-out', creds], {
      env: cleanEnv(),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      let out = '';
      server!.stdout!.on('data', (d) => {
        out += d;
        if (out.includes('credentials written to')) resolve();
      });
      server!.on('exit', (status) => reject(new Error(`screenconf serve exited ${status}: ${out}`)));
    });
    const { baseUrl, organisations } = JSON.parse(readFileSync(creds, 'utf8'));
    const [ours, peer] = organisations;
    env = {
      ...cleanEnv(),
      npm_config_offline: 'true',
      NO_COLOR: '1',
      // Our own loopback server: no need of the polite request rate a shared staging server gets.
      SCREENCONF_MAX_RPS: '0',
      SCREENCONF_BASE_URL: baseUrl,
      SCREENCONF_CLIENT_ID: ours.clientId,
      SCREENCONF_CLIENT_SECRET: ours.clientSecret,
      SCREENCONF_API_KEY: ours.apiKey,
      SCREENCONF_PEER_CLIENT_ID: peer.clientId,
      SCREENCONF_PEER_CLIENT_SECRET: peer.clientSecret,
    };
  }, 60_000);

  afterAll(() => {
    server?.kill('SIGTERM');
  });

  it('are there, and few: each one costs test time', () => {
    const count = withBlocks.reduce((n, p) => n + p.blocks.length, 0);
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThanOrEqual(6);
  });

  it.concurrent.each(withBlocks)('$page: each block exits 0', async ({ page, blocks }) => {
    const cwd = installedProject('screenconf-docs-');
    for (const block of blocks) {
      const { status, out } = await bash(block.script, cwd, env);
      expect(status, `${page}:${block.line} ended with ${status}:\n${block.script}\n---\n${out}`).toBe(0);
    }
  });
});
