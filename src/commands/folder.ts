/** `screenconf report DIR` and `screenconf verify DIR`: one run folder each. */
import { HarnessError } from '../errors.ts';
import { EXIT } from '../exit.ts';
import { MIN_MD_MAX_CHARS } from '../report/markdown.ts';
import type { CliIO } from './args.ts';
import { type Command, type CommandSpec, helpText, parseCommand } from './command.ts';

export const REPORT: CommandSpec = {
  name: 'report',
  summary: 're-render report.html, report.md and junit.xml of a run folder from its conformance.json',
  usage: 'screenconf report DIR [--md-max-chars N]',
  description: `Re-renders report.html, report.md and junit.xml of a run folder from its conformance.json, which
is validated against the report schema first (SC_REPORT_INVALID, exit 2, when it does not fit).
DIR is a run folder (<report-dir>/<time>-<run id>) or a report folder (its "latest" run).
When SHA256SUMS vouched for the folder, its entries for the views are brought up to date;
otherwise it is left as it was (screenconf verify names the differences).`,
  groups: [
    {
      title: 'Options',
      options: {
        'md-max-chars': {
          type: 'string',
          help: "longest report.md, in characters (default: the run's own setting, else 60000)",
        },
      },
    },
  ],
  positionals: true,
};

export const VERIFY: CommandSpec = {
  name: 'verify',
  summary: 'check a run folder against its SHA256SUMS and signature (0 intact, 1 changed, 2 usage)',
  usage: 'screenconf verify DIR [--public-key FILE]',
  description: `Checks a run folder against its SHA256SUMS (the SHA-256 of every file, written at the end of
the run; "sha256sum -c SHA256SUMS" reads it too). Names every file that changed, went missing
or was added. DIR is a run folder or a report folder (its "latest" run).`,
  groups: [
    {
      title: 'Options',
      options: {
        'public-key': {
          type: 'string',
          help:
            'the .pub of "screenconf keygen": also check SHA256SUMS.sig, the signature a run made with --sign-key; ' +
            'a SHA256SUMS written again after the run, an altered or missing signature, or one made with another ' +
            'key is named and fails the check',
        },
      },
    },
  ],
  notes: `Exit status: 0 intact, 1 a difference or a signature that does not hold (each named), 2 usage
error (DIR is not a folder, the key file is not an Ed25519 public key).`,
  positionals: true,
};

export const REPORT_COMMAND: Command = { spec: REPORT, run: (args, io) => folderCommand('report', args, io) };
export const VERIFY_COMMAND: Command = { spec: VERIFY, run: (args, io) => folderCommand('verify', args, io) };

/** report DIR / verify DIR: one folder argument. */
export async function folderCommand(name: 'report' | 'verify', args: string[], io: CliIO): Promise<number> {
  const spec = name === 'report' ? REPORT : VERIFY;
  const { values, positionals } = parseCommand(args, spec);
  if (values.help) {
    io.out(helpText(spec));
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
