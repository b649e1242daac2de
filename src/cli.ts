/**
 * The screenconf command line. Thin: picks the command (src/commands/) and turns what it ends with
 * into one line and an exit status. main() takes its argv and returns the status, so tests call it.
 */
import { didYouMean } from './base/suggest.ts';
import { oneLine } from './base/text.ts';
import { HarnessError } from './errors.ts';
import { EXIT, exitForError } from './exit.ts';
import type { CliIO } from './commands/args.ts';
import { VERSION } from './version.ts';

export type { CliIO } from './commands/args.ts';

const MAIN_HELP = `screenconf ${VERSION} — conformance harness for the Compliance Screening Service interface

Usage: screenconf <command> [options]

Commands:
  run      run the conformance suites (embedded reference server unless --base-url)
  cleanup  remove what a killed run left on the target, from its ledger
  serve    start the reference server standalone
  list     print the requirement catalogue (--json for JSON)
  report   re-render report.html, report.md and junit.xml of a run folder from its conformance.json
  verify   check a run folder against its SHA256SUMS and signature (0 intact, 1 changed, 2 usage)
  merge    one report from the report folders of the shards of a run (run --shard I/N)
  replay   a run's failures again against a target, judged by the run's own checks (1 reproduced)
  keygen   make an Ed25519 key pair to sign run folders (run --sign-key, verify --public-key)
  openapi  write the interface as an OpenAPI 3.1 document (--out FILE), with the requirement ids
  help     this help; "screenconf <command> --help" for a command's options

Exit status (run): 0 conforming, 1 not conforming, 2 usage or config error, 3 target
unreachable, harness fault or deadline passed, 130/143 stopped by SIGINT/SIGTERM.`;

const COMMANDS = [
  'run',
  'cleanup',
  'serve',
  'list',
  'report',
  'verify',
  'merge',
  'replay',
  'keygen',
  'openapi',
  'help',
];

/** What `screenconf` alone prints (to standard error; exit 2). */
const SHORT_USAGE = `Usage: screenconf <command> [options]   (${COMMANDS.join(', ')})
  screenconf run                 run the conformance suites against the embedded reference server
  screenconf run --base-url URL --client-id ID --client-secret SECRET
                                 run them against your server
  screenconf help                every command; "screenconf <command> --help" for its options`;

/** Runs one command line; returns the exit status. Never throws. */
export async function main(argv: string[], io: CliIO): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'run':
        return await (await import('./commands/run.ts')).runCommand(rest, io);
      case 'cleanup':
        return await (await import('./commands/cleanup.ts')).cleanupCommand(rest, io);
      case 'serve':
        return await (await import('./commands/serve.ts')).serveCommand(rest, io);
      case 'list':
        return (await import('./commands/list.ts')).listCommand(rest, io);
      case 'keygen':
        return (await import('./commands/keygen.ts')).keygenCommand(rest, io);
      case 'openapi':
        return (await import('./commands/openapi.ts')).openapiCommand(rest, io);
      case 'merge':
        return await (await import('./commands/merge.ts')).mergeCommand(rest, io);
      case 'replay':
        return await (await import('./commands/replay.ts')).replayCommand(rest, io);
      case 'report':
      case 'verify':
        return await (await import('./commands/folder.ts')).folderCommand(command, rest, io);
      case undefined:
        io.err(SHORT_USAGE);
        return EXIT.usage;
      case 'help':
      case '--help':
      case '-h':
        io.out(MAIN_HELP);
        return EXIT.ok;
      case '--version':
      case '-v':
        io.out(VERSION);
        return EXIT.ok;
      default:
        throw new HarnessError(
          'SC_USAGE',
          `unknown command "${command}"${didYouMean(command, COMMANDS)} (commands: ${COMMANDS.join(', ')})`,
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
