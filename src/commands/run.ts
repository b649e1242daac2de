/** `screenconf run`: the settings from flags, variables and the config file, then the runner. */
import { EXIT } from '../exit.ts';
import { type CliIO, configFrom } from './args.ts';
import { type Command, CONFIG_OPTION, type CommandSpec, helpText, parseCommand, settingGroup } from './command.ts';
import { groupedSettings } from './help.ts';

export const RUN: CommandSpec = {
  name: 'run',
  summary: 'run the conformance suites (embedded reference server unless --base-url)',
  usage: 'screenconf run [options]',
  description: `Runs the conformance suites against a target and writes reports.
Without --base-url, starts the embedded reference server and runs against it; with
--target-image, starts that container image, runs against it and removes it at the end.

Options (each also read from its environment variable [NAME], then from the config file):`,
  groups: [
    ...groupedSettings().map(([title, keys]) => settingGroup(title, keys)),
    { title: 'Config', options: { config: CONFIG_OPTION } },
  ],
  notes: `Reports go to a folder of their own, <report-dir>/<UTC time>-<run id>/: conformance.json,
report.html, report.md, junit.xml and SHA256SUMS ("screenconf verify" checks it);
<report-dir>/latest points at the newest.

Every case the run creates is recorded in <report-dir>/ledger.jsonl before it is created and
deleted when its suite file ends; "screenconf cleanup <ledger>" removes what a killed run left.
Ctrl-C (SIGINT) or SIGTERM stops the run: checks in flight finish, cleanup runs, the report of
what ran is written; a second Ctrl-C exits at once without cleanup.

With --target LABEL=URL (repeatable) the suites run against each target in turn, and one report
compares them. --expect FILE lists known failures ({"expectations": [{"id", "reason", "expires":
"YYYY-MM-DD", "target"?}]}): an expected failure does not fail the run; an unexpected pass or an
expired entry does.

Exit status: 0 conforming, or incomplete (a MUST not judged: not selected, a capability missing)
without --require-complete; 1 not conforming (a MUST failed, a SHOULD warned with --strict, an
expectation passed unexpectedly or expired, a MUST not judged with --require-complete), 2 usage or
config error, 3 target unreachable, harness fault or run deadline passed, 130 stopped by SIGINT,
143 stopped by SIGTERM.`,
};

export const RUN_COMMAND: Command = { spec: RUN, run: runCommand };

export async function runCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parseCommand(args, RUN);
  if (values.help) {
    io.out(helpText(RUN));
    return EXIT.ok;
  }
  const config = configFrom(values, io);
  const { runConformance } = await import('../runner/run.ts');
  const stop = io.stopSignal?.then((signal) => signal ?? 'SIGINT');
  return runConformance(config, {
    out: io.out,
    err: io.err,
    cwd: io.cwd,
    ...(stop ? { stop } : {}),
    console: consoleStyle(io),
    progress: config.quiet ? 'off' : io.isTTY === true && io.write && io.env.TERM !== 'dumb' ? 'terminal' : 'lines',
    ...(io.write ? { write: io.write } : {}),
    ...(io.sessions ? { sessions: io.sessions } : {}),
    ...(io.env.SCREENCONF_TODAY ? { today: io.env.SCREENCONF_TODAY } : {}),
  });
}

/**
 * Colour only on a terminal: FORCE_COLOR (any value but 0/false) switches it on, NO_COLOR off,
 * as Node reads them; GitHub Actions annotations when GITHUB_ACTIONS is true.
 */
export function consoleStyle(io: Pick<CliIO, 'env' | 'isTTY'>): { colour: boolean; githubActions: boolean } {
  const force = io.env.FORCE_COLOR;
  const colour =
    force !== undefined
      ? !['0', 'false'].includes(force.trim().toLowerCase())
      : io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== ''
        ? false
        : io.isTTY === true && io.env.TERM !== 'dumb';
  return { colour, githubActions: io.env.GITHUB_ACTIONS === 'true' };
}
