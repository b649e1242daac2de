/**
 * The CLI's main() in this test's process, for tests whose subject is what a run finds, not the
 * binary: the same command line, the same embedded reference server over real HTTP and the same
 * vitest worker processes for the suites, without a node + tsx + vitest start-up per run. The runs
 * share warm suite sessions (src/runner/suite-session.ts), as the in-process API offers them: vitest,
 * its transformed modules and its worker processes stay between runs, so a run costs its own work.
 * Tests of the binary itself (exit on a signal, pipes, stdout flushing, bin/screenconf.js) keep
 * screenconf() from cli.ts; `cold: true` runs as the command line does (a vitest of its own).
 */
import { main } from '../../src/cli.ts';
import { SuiteSessions } from '../../src/runner/suite-session.ts';
import { type CliResult, cleanEnv, ROOT } from './cli.ts';

/** One set of warm sessions for every test file of this test worker (the worker's exit ends its processes). */
const sessions = new SuiteSessions();

/** Runs `screenconf <args>` through main() in this process; stdout and stderr collected as the binary writes them. */
export async function screenconfInProcess(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; cold?: boolean } = {},
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const status = await main(args, {
    out: (...lines) => (stdout += lines.map((l) => `${l}\n`).join('')),
    err: (line) => (stderr += `${line}\n`),
    env: { ...cleanEnv(), ...options.env },
    cwd: options.cwd ?? ROOT,
    ...(options.cold ? {} : { sessions }),
  });
  return { status, stdout, stderr };
}
