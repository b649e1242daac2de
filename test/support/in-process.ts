/**
 * The CLI's main() in this test's process, for tests whose subject is what a run finds, not the
 * binary: the same command line, the same embedded reference server over real HTTP and the same
 * vitest worker processes for the suites, without a node + tsx + vitest start-up per run (about
 * 1.5 s of CPU each, most of a small run's cost). Tests of the binary itself (exit on a signal,
 * pipes, stdout flushing, bin/screenconf.js) keep screenconf() from cli.ts.
 */
import { main } from '../../src/cli.ts';
import { type CliResult, cleanEnv, ROOT } from './cli.ts';

/** Runs `screenconf <args>` through main() in this process; stdout and stderr collected as the binary writes them. */
export async function screenconfInProcess(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const status = await main(args, {
    out: (...lines) => (stdout += lines.map((l) => `${l}\n`).join('')),
    err: (line) => (stderr += `${line}\n`),
    env: { ...cleanEnv(), ...options.env },
    cwd: options.cwd ?? ROOT,
  });
  return { status, stdout, stderr };
}
