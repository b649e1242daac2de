/** `screenconf cleanup LEDGER`: remove what a run left on its target. */
import { resolve } from 'node:path';
import { HarnessError } from '../errors.ts';
import { EXIT } from '../exit.ts';
import { SETTINGS, type SettingKey } from '../runner/settings.ts';
import { type CliIO, parse, settingOptions, configFrom, TARGET_SETTINGS, wrapList } from './args.ts';

/** The settings cleanup takes: its help lists their flags, its parser accepts them. */
const CLEANUP_SETTINGS: readonly SettingKey[] = TARGET_SETTINGS;
const CLEANUP_FLAGS = CLEANUP_SETTINGS.map((k) => `--${SETTINGS[k].flag}${k === 'baseUrl' ? ' URL' : ''}`);
const CLEANUP_HELP = `Usage: screenconf cleanup LEDGER [options]

Removes what a run left on its target, as listed in its ledger (<report-dir>/ledger.jsonl):
every case created and not recorded deleted is deleted, and its deletion confirmed (a later
PATCH must be refused). The base URL is the ledger's unless --base-url is given; credentials
come from flags, SCREENCONF_* variables or the config file, as for run (the peer credentials
remove what the second organisation created).

Options:
${wrapList([...CLEANUP_FLAGS, '--config FILE     as for run'], '  ')}
  -h, --help                 this help

Exit status: 0 nothing of the ledger is left on the target, 1 something could not be removed
(or a create got no answer, so the target may hold a case with no known id), 2 usage, config or
unreadable ledger, 3 target unreachable.`;
export async function cleanupCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(args, settingOptions(CLEANUP_SETTINGS), 'cleanup', true);
  if (values.help) {
    io.out(CLEANUP_HELP);
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
