/** `screenconf cleanup LEDGER`: remove what a run left on its target. */
import { resolve } from 'node:path';
import { HarnessError } from '../errors.ts';
import { EXIT } from '../exit.ts';
import type { SettingKey } from '../runner/settings.ts';
import { type CliIO, configFrom, TARGET_SETTINGS } from './args.ts';
import { type Command, type CommandSpec, CONFIG_OPTION, helpText, parseCommand, settingGroup } from './command.ts';

/** The run settings cleanup takes: its help lists them, its parser accepts them. */
const CLEANUP_SETTINGS: readonly SettingKey[] = TARGET_SETTINGS;
export const CLEANUP: CommandSpec = {
  name: 'cleanup',
  summary: 'remove what a killed run left on the target, from its ledger',
  usage: 'screenconf cleanup LEDGER [options]',
  description: `Removes what a run left on its target, as listed in its ledger (<report-dir>/ledger.jsonl):
every case created and not recorded deleted is deleted, and its deletion confirmed (a later
PATCH must be refused). The base URL is the ledger's unless --base-url is given; credentials
come from flags, SCREENCONF_* variables or the config file, as for run (the peer credentials
remove what the second organisation created).`,
  groups: [
    { title: 'Options', options: { ...settingGroup('Options', CLEANUP_SETTINGS).options, config: CONFIG_OPTION } },
  ],
  notes: `Exit status: 0 nothing of the ledger is left on the target, 1 something could not be removed
(or a create got no answer, so the target may hold a case with no known id), 2 usage, config or
unreadable ledger, 3 target unreachable.`,
  positionals: true,
};

export const CLEANUP_COMMAND: Command = { spec: CLEANUP, run: cleanupCommand };

export async function cleanupCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommand(args, CLEANUP);
  if (values.help) {
    io.out(helpText(CLEANUP));
    return EXIT.ok;
  }
  if (positionals.length !== 1)
    throw new HarnessError(
      'SC_USAGE',
      `cleanup takes one ledger file (got ${positionals.length}); see "screenconf cleanup --help"`,
    );
  const { cleanupLedger } = await import('../runner/cleanup.ts');
  const ledgerPath = resolve(io.cwd, positionals[0]!);
  const config = (ledgerBaseUrl: string | undefined) =>
    configFrom(values, io, CLEANUP_SETTINGS, (given) =>
      ledgerBaseUrl !== undefined && given.baseUrl === undefined ? { baseUrl: ledgerBaseUrl } : {},
    );
  return cleanupLedger(ledgerPath, config, io);
}
