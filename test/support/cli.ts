/** Runs the real screenconf binary in a child process, as a user would. */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
export const BIN = join(ROOT, 'bin/screenconf.js');

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `screenconf <args>` to completion (bounded by timeoutMs). */
export function screenconf(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {}): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? ROOT,
      env: { ...cleanEnv(), ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`screenconf ${args.join(' ')} did not finish within ${options.timeoutMs ?? 120_000} ms\n${stdout}\n${stderr}`));
    }, options.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolvePromise({ status, stdout, stderr });
    });
  });
}

/** The environment without SCREENCONF_* variables, so a developer's settings do not leak in. */
export function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SCREENCONF_')));
}

export function tempDir(prefix = 'screenconf-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface ReportResult {
  id: string;
  level: string;
  verdict: string;
  tests: unknown[];
  reason?: string;
}

export function readReport(dir: string): { summary: { conforming: boolean; mustFailures: number }; results: ReportResult[] } {
  return JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8'));
}
