/** `screenconf list`: the requirement catalogue, all of it or some levels and areas. */
import { didYouMean } from '../base/suggest.ts';
import { HarnessError } from '../errors.ts';
import { EXIT } from '../exit.ts';
import { AREAS, CATALOGUE, CATALOGUE_VERSION } from '../spec/index.ts';
import type { CliIO } from './args.ts';
import { type Command, type CommandSpec, helpText, parseCommand } from './command.ts';

const LEVELS = ['MUST', 'SHOULD', 'OBSERVE'];

export const LIST: CommandSpec = {
  name: 'list',
  summary: 'print the requirement catalogue (--json for JSON)',
  usage: 'screenconf list [--level LEVEL] [--area AREA] [--json]',
  description: 'Prints the requirement catalogue: id, level, statement, source.',
  groups: [
    {
      title: 'Options',
      options: {
        level: { type: 'string', multiple: true, help: `only this level: ${LEVELS.join(', ')} (repeatable)` },
        area: {
          type: 'string',
          multiple: true,
          help: `only this area (repeatable); "bulk" names every bulk-… area. Areas: ${Object.keys(AREAS).join(', ')}`,
        },
        json: { type: 'boolean', help: 'as JSON, for scripts' },
      },
    },
  ],
};

export const LIST_COMMAND: Command = { spec: LIST, run: listCommand };

/** The areas an --area value names: the area itself, or every area "<value>-…". */
function areasNamed(value: string): string[] {
  const named = Object.keys(AREAS).filter((a) => a === value || a.startsWith(`${value}-`));
  if (!named.length) {
    const names = [...new Set(Object.keys(AREAS).flatMap((a) => [a, a.split('-')[0]!]))];
    throw new HarnessError(
      'SC_USAGE',
      `--area "${value}" is not an area${didYouMean(value, names)}; the areas: ${Object.keys(AREAS).join(', ')}`,
    );
  }
  return named;
}

export function listCommand(args: string[], io: CliIO): number {
  const { values } = parseCommand(args, LIST);
  if (values.help) {
    io.out(helpText(LIST));
    return EXIT.ok;
  }
  const levels = ((values.level as string[] | undefined) ?? []).map((l) => l.toUpperCase());
  for (const l of levels)
    if (!LEVELS.includes(l))
      throw new HarnessError(
        'SC_USAGE',
        `--level "${l}" is not a level${didYouMean(l, LEVELS)} (${LEVELS.join(', ')})`,
      );
  const areas = ((values.area as string[] | undefined) ?? []).flatMap(areasNamed);
  const requirements = CATALOGUE.filter(
    (r) => (!levels.length || levels.includes(r.level)) && (!areas.length || areas.includes(r.area)),
  );
  if (values.json) {
    io.out(JSON.stringify({ catalogueVersion: CATALOGUE_VERSION, areas: AREAS, requirements }, null, 2));
    return EXIT.ok;
  }
  const some = requirements.length === CATALOGUE.length ? '' : ` (${requirements.length} listed)`;
  io.out(`Requirement catalogue ${CATALOGUE_VERSION}: ${CATALOGUE.length} requirements${some}`);
  for (const [area, title] of Object.entries(AREAS)) {
    const entries = requirements.filter((r) => r.area === area);
    if (!entries.length) continue;
    io.out('', `${title}`);
    for (const r of entries) {
      io.out(`  ${r.id} [${r.level}]`, `    ${r.statement}`, `    source: ${r.source}`);
      if ('decision' in r && r.decision) io.out(`    decision: ${r.decision}`);
    }
  }
  return EXIT.ok;
}
