/** `screenconf report DIR` and `screenconf verify DIR`: one run folder each. */
import { HarnessError } from '../errors.ts';
import { EXIT } from '../exit.ts';
import { type CliIO, parse } from './args.ts';

const REPORT_HELP = `Usage: screenconf report DIR

Re-renders report.html and report.md of a run folder from its conformance.json, which is
validated against the report schema first (SC_REPORT_INVALID, exit 2, when it does not fit).
DIR is a run folder (<report-dir>/<time>-<run id>) or a report folder (its "latest" run).
When SHA256SUMS vouched for the folder, its entries for the two views are brought up to date;
otherwise it is left as it was (screenconf verify names the differences).`;
const VERIFY_HELP = `Usage: screenconf verify DIR

Checks a run folder against its SHA256SUMS (the SHA-256 of every file, written at the end of
the run; "sha256sum -c SHA256SUMS" reads it too). Names every file that changed, went missing
or was added. DIR is a run folder or a report folder (its "latest" run).

Exit status: 0 intact, 1 a difference (each named), 2 usage error (DIR is not a folder).`;
/** report DIR / verify DIR: one folder argument. */
export async function folderCommand(name: 'report' | 'verify', args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(args, { help: { type: 'boolean', short: 'h' } }, name, true);
  if (values.help) {
    io.out(name === 'report' ? REPORT_HELP : VERIFY_HELP);
    return EXIT.ok;
  }
  if (positionals.length !== 1)
    throw new HarnessError(
      'SC_USAGE',
      `${name} takes one folder (got ${positionals.length}); see "screenconf ${name} --help"`,
    );
  const { reportCommand, verifyCommand } = await import('../report/commands.ts');
  return (name === 'report' ? reportCommand : verifyCommand)(positionals[0]!, io);
}
