/**
 * A reader that goes away: `screenconf list | head -1`, `screenconf run … | head`. The command's
 * standard output (or error) is a pipe nobody reads any more, so every write fails with EPIPE;
 * the command must end quietly with its own status, never a stack trace. The pipe is a FIFO whose
 * reading end is closed before the command starts, so the first write fails: no race with time.
 */
import { spawn, execFileSync } from 'node:child_process';
import { closeSync, constants, existsSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv, ROOT, runFolder, tempDir } from './support/cli.ts';

/** A write end of a pipe whose reader is gone. */
function deadPipe(): number {
  const fifo = join(tempDir('screenconf-epipe-'), 'fifo');
  execFileSync('mkfifo', [fifo]);
  const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  const writer = openSync(fifo, constants.O_WRONLY);
  closeSync(reader);
  return writer;
}

/** Runs screenconf with stdout (and stderr, when asked) into a pipe nobody reads. */
function withDeadPipe(
  args: string[],
  options: { stderrToo?: boolean } = {},
): Promise<{ status: number | null; stderr: string }> {
  const pipe = deadPipe();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: cleanEnv(),
      stdio: ['ignore', pipe, options.stderrToo ? pipe : 'pipe'],
    });
    closeSync(pipe);
    let stderr = '';
    child.stderr?.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stderr }));
  });
}

describe('a closed pipe (EPIPE)', () => {
  it('list | head -1: exit 0, nothing on stderr', async () => {
    for (const args of [['list'], ['list', '--json'], ['--help'], ['run', '--help']]) {
      const r = await withDeadPipe(args);
      expect(r.stderr, args.join(' ')).toBe('');
      expect(r.status, args.join(' ')).toBe(0);
    }
  });

  it("keeps a command's own status: a usage error still exits 2, with stderr closed too", async () => {
    const r = await withDeadPipe(['nope'], { stderrToo: true });
    expect(r.status).toBe(2);
  });

  it('run … | head: the run goes on, cleans up, writes its reports and exits with its status', async () => {
    const dir = tempDir();
    const r = await withDeadPipe(['run', '--report-dir', dir, '--suites', 'case-delete', '--seed', '5']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const folder = runFolder(dir);
    expect(existsSync(join(folder, 'SHA256SUMS'))).toBe(true);
    // One suite judges a few MUSTs only: incomplete, never conforming, and exit 0 without --require-complete.
    expect(JSON.parse(readFileSync(join(folder, 'conformance.json'), 'utf8')).summary.verdict).toBe('incomplete');
  });
});
