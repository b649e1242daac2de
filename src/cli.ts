/**
 * The screenconf command line. Thin: picks the command (src/commands/) and turns what it ends with
 * into one line and an exit status. main() takes its argv and returns the status, so tests call it.
 */
import { didYouMean } from './base/suggest.ts';
import { oneLine } from './base/text.ts';
import { HarnessError } from './errors.ts';
import { EXIT, exitForError } from './exit.ts';
import type { CliIO } from './commands/args.ts';
import type { Command, CommandSpec } from './commands/command.ts';
import { VERSION } from './version.ts';

export type { CliIO } from './commands/args.ts';

/**
 * Every command, in the order help lists them, loaded only when used. Each module declares its
 * command as data (commands/command.ts): help and docs/reference/cli.md are rendered from it.
 */
export const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  run: async () => (await import('./commands/run.ts')).RUN_COMMAND,
  init: async () => (await import('./commands/init.ts')).INIT_COMMAND,
  cleanup: async () => (await import('./commands/cleanup.ts')).CLEANUP_COMMAND,
  serve: async () => (await import('./commands/serve.ts')).SERVE_COMMAND,
  list: async () => (await import('./commands/list.ts')).LIST_COMMAND,
  report: async () => (await import('./commands/folder.ts')).REPORT_COMMAND,
  verify: async () => (await import('./commands/folder.ts')).VERIFY_COMMAND,
  merge: async () => (await import('./commands/merge.ts')).MERGE_COMMAND,
  replay: async () => (await import('./commands/replay.ts')).REPLAY_COMMAND,
  keygen: async () => (await import('./commands/keygen.ts')).KEYGEN_COMMAND,
  openapi: async () => (await import('./commands/openapi.ts')).OPENAPI_COMMAND,
};

/** Every command's declaration, in help order (help, the CLI reference). */
export async function commandSpecs(): Promise<CommandSpec[]> {
  return Promise.all(Object.values(COMMANDS).map(async (load) => (await load()).spec));
}

/** What `screenconf help` prints: every command with its summary, and the exit statuses. */
async function mainHelp(): Promise<string> {
  const specs = await commandSpecs();
  const width = Math.max(...specs.map((s) => s.name.length), 4) + 2;
  return `screenconf ${VERSION} — conformance harness for the Compliance Screening Service interface

Usage: screenconf <command> [options]

Commands:
${specs.map((s) => `  ${s.name.padEnd(width)} ${s.summary}`).join('\n')}
  ${'help'.padEnd(width)} this help; "screenconf <command> --help" for a command's options

Exit status (run): 0 conforming, 1 not conforming, 2 usage or config error, 3 target
unreachable, harness fault or deadline passed, 130/143 stopped by SIGINT/SIGTERM.`;
}

const NAMES = [...Object.keys(COMMANDS), 'help'];

/** What `screenconf` alone prints (to standard error; exit 2). */
const SHORT_USAGE = `Usage: screenconf <command> [options]   (${NAMES.join(', ')})
  screenconf run                 run the conformance suites against the embedded reference server
  screenconf run --base-url URL --client-id ID --client-secret SECRET
                                 run them against your server
  screenconf init [--ci github]  write a credentials template, an expectations file and a CI workflow
  screenconf help                every command; "screenconf <command> --help" for its options`;

/** Runs one command line; returns the exit status. Never throws. */
export async function main(argv: string[], io: CliIO): Promise<number> {
  const [command, ...rest] = argv;
  try {
    const load = command !== undefined && Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
    if (load) return await (await load()).run(rest, io);
    switch (command) {
      case undefined:
        io.err(SHORT_USAGE);
        return EXIT.usage;
      case 'help':
      case '--help':
      case '-h':
        io.out(await mainHelp());
        return EXIT.ok;
      case '--version':
      case '-v':
        io.out(VERSION);
        return EXIT.ok;
      default:
        throw new HarnessError(
          'SC_USAGE',
          `unknown command "${command}"${didYouMean(command, NAMES)} (commands: ${NAMES.join(', ')})`,
        );
    }
  } catch (err) {
    if (err instanceof HarnessError) io.err(`screenconf: error ${err.code}: ${err.message}`);
    else {
      // One line, whatever the fault's message holds (the stack only with SCREENCONF_DEBUG).
      io.err(`screenconf: error SC_HARNESS: ${oneLine(String((err as Error)?.message ?? err), 2000)}`);
      if (io.env.SCREENCONF_DEBUG) io.err(String((err as Error)?.stack));
    }
    return exitForError(err);
  }
}
