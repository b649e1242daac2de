/** Runs the real screenconf binary in a child process, as a user would. */
import { spawn } from 'node:child_process';
import { lstatSync, mkdtempSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
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
export function screenconf(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
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
      reject(
        new Error(
          `screenconf ${args.join(' ')} did not finish within ${options.timeoutMs ?? 280_000} ms\n${stdout}\n${stderr}`,
        ),
      );
    }, options.timeoutMs ?? 280_000);
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

/** The last line of a run's output a person sees (GitHub's workflow commands, which its log hides, left out). */
export function lastLine(stdout: string): string | undefined {
  return stdout
    .trimEnd()
    .split('\n')
    .filter((l) => !l.startsWith('::'))
    .at(-1);
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
  failures?: {
    message: string;
    evidence?: { exchanges: { judged?: boolean; response?: { status: number }; error?: string }[] };
  }[];
}

/**
 * The run folder of the newest run in a report folder (`--report-dir`): each run writes its
 * reports into <dir>/<time>-<run id>/ and points <dir>/latest at it.
 */
export function runFolder(dir: string): string {
  return realpathSync(join(dir, 'latest'));
}

/** The newest run's conformance.json in a report folder. */
export function readReport(dir: string): {
  summary: { conforming: boolean; mustFailures: number; flaky?: string[] };
  results: ReportResult[];
} {
  return JSON.parse(readFileSync(join(runFolder(dir), 'conformance.json'), 'utf8'));
}

/**
 * Every file under a folder (run folders, ledger, …) with its text, paths relative to it; the `latest` link is not
 * followed (its folder is listed anyway).
 */
export function reportFiles(dir: string): [string, string][] {
  const out: [string, string][] = [];
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const path = rel ? `${rel}/${name}` : name;
      const stat = lstatSync(join(dir, path));
      if (stat.isDirectory()) walk(path);
      else if (stat.isFile()) out.push([path, readFileSync(join(dir, path), 'utf8')]);
    }
  };
  walk('');
  return out;
}
