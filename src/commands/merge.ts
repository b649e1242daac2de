/** `screenconf merge DIR… --out DIR`: one report from the report folders of the shards of a run. */
import { HarnessError } from '../errors.ts';
import { EXIT } from '../exit.ts';
import type { CliIO } from './args.ts';
import { type Command, type CommandSpec, helpText, parseCommand } from './command.ts';
import { consoleStyle } from './run.ts';

export const MERGE: CommandSpec = {
  name: 'merge',
  summary: 'one report from the report folders of the shards of a run (run --shard I/N)',
  usage: 'screenconf merge DIR… --out DIR [--sign-key FILE]',
  description: `Makes one conformance report of the shards of a run ("screenconf run --shard I/N --seed S" on
each of N machines or processes). Each DIR is a shard's run folder (or a report folder: its
"latest" run). The requirements are judged again from every check of every shard, so the verdicts
are those of the same run unsharded; the gate is applied again with the settings and expectations
the shards ran with. --out gets conformance.json, report.html, report.md, junit.xml,
exchanges.har and SHA256SUMS ("screenconf verify" checks it; with --sign-key, SHA256SUMS.sig).
Shards of a run with several targets (--target LABEL=URL) merge target by target.`,
  groups: [
    {
      title: 'Options',
      options: {
        out: { type: 'string', value: 'DIR', help: 'the folder of the merged report (required)' },
        'sign-key': {
          type: 'string',
          help: "Ed25519 private key (PEM, from screenconf keygen): sign the merged folder's SHA256SUMS",
        },
      },
    },
  ],
  notes: `Refused, naming what differs (exit 2): a report of a run without --shard; shards of different
seeds, runs per property, catalogue versions, targets or settings; a shard given twice
(SC_MERGE_MISMATCH); a shard missing (SC_MERGE_INCOMPLETE).

Exit status: as "screenconf run" for the merged run: 0 conforming (or incomplete without
--require-complete), 1 the gate failed, 2 usage or refused, 3 some checks could not judge.`,
  positionals: true,
};

export const MERGE_COMMAND: Command = { spec: MERGE, run: mergeCommand };

export async function mergeCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommand(args, MERGE);
  if (values.help) {
    io.out(helpText(MERGE));
    return EXIT.ok;
  }
  if (typeof values.out !== 'string' || values.out === '')
    throw new HarnessError(
      'SC_USAGE',
      'merge needs --out DIR, the folder of the merged report (see "screenconf merge --help")',
    );
  if (positionals.length === 0)
    throw new HarnessError('SC_USAGE', 'merge needs the shards\' report folders (see "screenconf merge --help")');
  const { mergeShards } = await import('../runner/merge.ts');
  const signKey = values['sign-key'];
  return mergeShards({
    dirs: positionals,
    out: values.out,
    ...(typeof signKey === 'string' ? { signKey } : {}),
    cwd: io.cwd,
    today: io.env.SCREENCONF_TODAY ?? new Date().toISOString().slice(0, 10),
    print: (line) => io.out(line),
    style: consoleStyle(io),
  });
}
