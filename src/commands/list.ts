/** `screenconf list`: the requirement catalogue. */
import { EXIT } from '../exit.ts';
import { AREAS, CATALOGUE, CATALOGUE_VERSION } from '../spec/index.ts';
import { type CliIO, parse } from './args.ts';

export function listCommand(args: string[], io: CliIO): number {
  const { values } = parse(args, { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, 'list');
  if (values.help) {
    io.out('Usage: screenconf list [--json]\n\nPrints the requirement catalogue: id, level, statement, source.');
    return EXIT.ok;
  }
  if (values.json) {
    io.out(JSON.stringify({ catalogueVersion: CATALOGUE_VERSION, areas: AREAS, requirements: CATALOGUE }, null, 2));
    return EXIT.ok;
  }
  io.out(`Requirement catalogue ${CATALOGUE_VERSION}: ${CATALOGUE.length} requirements`);
  for (const [area, title] of Object.entries(AREAS)) {
    const entries = CATALOGUE.filter((r) => r.area === area);
    if (!entries.length) continue;
    io.out('', `${title}`);
    for (const r of entries) {
      io.out(`  ${r.id} [${r.level}]`, `    ${r.statement}`, `    source: ${r.source}`);
      if ('decision' in r && r.decision) io.out(`    decision: ${r.decision}`);
    }
  }
  return EXIT.ok;
}
