/** `screenconf report DIR` and `screenconf verify DIR`: one run folder each. */
import type { ParseArgsConfig } from 'node:util';
import { HarnessError } from '../errors.ts';
import { EXIT } from '../exit.ts';
import { MIN_MD_MAX_CHARS } from '../report/markdown.ts';
import { type CliIO, parse } from './args.ts';

const REPORT_HELP = `Usage: screenconf report DIR [--md-max-chars N]

Re-renders report.html, report.md and junit.xml of a run folder from its conformance.json, which
is validated against the report schema first (SC_REPORT_INVALID, exit 2, when it does not fit).
DIR is a run folder (<report-dir>/<time>-<run id>) or a report folder (its "latest" run).
report.md keeps to --md-max-chars characters (default: the run's own setting, else 60000).
When SHA256SUMS vouched for the folder, its entries for the views are brought up to date;
otherwise it is left as it was (screenconf verify names the differences).`;
const VERIFY_HELP = `Usage: screenconf verify DIR [--public-key FILE]

Checks a run folder against its SHA256SUMS (the SHA-256 of every file, written at the end of
the run; "sha256sum -c SHA256SUMS" reads it too). Names every file that changed, went missing
or was added. DIR is a run folder or a report folder (its "latest" run).

With --public-key (the .pub of "screenconf keygen"), also checks SHA256SUMS.sig, the signature a
run made with --sign-key: a SHA256SUMS written again after the run, an altered or missing
signature, or one made with another key is named and fails the check.

Exit status: 0 intact, 1 a difference or a signature that does not hold (each named), 2 usage
error (DIR is not a folder, the key file is not an Ed25519 public key).`;
/** report DIR / verify DIR: one folder argument. */
export async function folderCommand(name: 'report' | 'verify', args: string[], io: CliIO): Promise<number> {
  const options: ParseArgsConfig['options'] = { help: { type: 'boolean', short: 'h' } };
  if (name === 'report') options['md-max-chars'] = { type: 'string' };
  else options['public-key'] = { type: 'string' };
  const { values, positionals } = parse(args, options, name, true);
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
  const publicKey = values['public-key'];
  if (name === 'verify') return verifyCommand(positionals[0]!, io, publicKey ? { publicKey: String(publicKey) } : {});
  const max = values['md-max-chars'];
  return reportCommand(positionals[0]!, io, max === undefined ? {} : { maxChars: mdMaxChars(String(max)) });
}

/** --md-max-chars of `report`, with the rule of the run setting. */
function mdMaxChars(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < MIN_MD_MAX_CHARS)
    throw new HarnessError(
      'SC_USAGE',
      `--md-max-chars must be an integer of at least ${MIN_MD_MAX_CHARS}, got "${value}"`,
    );
  return n;
}
