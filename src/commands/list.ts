/** `screenconf list`: the requirement catalogue, all of it or some levels and areas. */
import { didYouMean } from '../base/suggest.ts';
import { HarnessError } from '../errors.ts';
import { EXIT } from '../exit.ts';
import { AREAS, CATALOGUE, CATALOGUE_VERSION } from '../spec/index.ts';
import type { CliIO } from './args.ts';
import { type Command, type CommandSpec, helpText, parseCommand } from './command.ts';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadReport } from '../report/load.ts';
import { matrixLines } from '../report/matrix-text.ts';
import { matrixRows } from '../results/matrix.ts';
import { WAY_SUITES } from '../spec/inputs/matrix.ts';

const WAYS = Object.keys(WAY_SUITES);

const LEVELS = ['MUST', 'SHOULD', 'OBSERVE'];

export const LIST: CommandSpec = {
  name: 'list',
  summary: 'print the requirement catalogue (--json for JSON), or the input matrix (--matrix)',
  usage:
    'screenconf list [--level LEVEL] [--area AREA] [--json]\n' +
    '       screenconf list --matrix [--report PATH] [--way WAY] [--failed] [--json]',
  description:
    'Prints the requirement catalogue: id, level, statement, source.\n\n' +
    'With --matrix, the input matrix instead: every cell (way in / encoding / field / kind of value), what a ' +
    'conforming server does with it (accept, reject, open; act, exact, none for a named record), and the oracles ' +
    'that judge it. With --report (a run folder or its conformance.json), what that run did with each cell: sent ' +
    "or not (and why), the status it got, each oracle's result.",
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
    {
      title: 'Input matrix',
      options: {
        matrix: { type: 'boolean', help: 'list the cells of the input matrix instead of the catalogue' },
        report: { type: 'string', value: 'PATH', help: 'with --matrix: a run folder, or its conformance.json' },
        way: {
          type: 'string',
          multiple: true,
          help: `with --matrix: only this way in (repeatable): ${WAYS.join(', ')}`,
        },
        failed: { type: 'boolean', help: 'with --matrix: only the cells an oracle failed' },
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
  if (values.matrix) return listMatrix(values, io);
  for (const flag of ['report', 'way', 'failed'] as const)
    if (values[flag] !== undefined) throw new HarnessError('SC_USAGE', `--${flag} goes with --matrix`);
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

/** `list --matrix`: every cell of the input matrix, joined with a run's report when one is given. */
function listMatrix(values: Record<string, unknown>, io: CliIO): number {
  const ways = (values.way as string[] | undefined) ?? [];
  for (const w of ways)
    if (!WAYS.includes(w))
      throw new HarnessError('SC_USAGE', `--way "${w}" is not a way in${didYouMean(w, WAYS)} (${WAYS.join(', ')})`);
  const path = values.report as string | undefined;
  const file = path && existsSync(path) && statSync(path).isDirectory() ? join(path, 'conformance.json') : path;
  const report = file ? loadReport(file) : undefined;
  const rows = matrixRows(report).filter((r) => !ways.length || ways.includes(r.way));
  const shown = values.failed ? rows.filter((r) => Object.values(r.results).includes('fail')) : rows;
  if (values.json) {
    io.out(JSON.stringify({ run: report?.run.id ?? null, cells: shown }, null, 2));
    return EXIT.ok;
  }
  const sent = rows.filter((r) => r.sent).length;
  const failing = rows.filter((r) => Object.values(r.results).includes('fail')).length;
  io.out(
    report
      ? `Input matrix of run ${report.run.id}: ${rows.length} cells, ${sent} sent, ${failing} failing`
      : `Input matrix: ${rows.length} cells (no run given: --report PATH shows what a run did with each)`,
  );
  io.out(...matrixLines(shown, values.failed === true));
  return EXIT.ok;
}
