/** `screenconf openapi`: the interface as an OpenAPI 3.1 document, to standard output or a file. */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { EXIT } from '../exit.ts';
import { openApiDocument } from '../report/openapi.ts';
import { type CliIO, parse } from './args.ts';

const OPENAPI_HELP = `Usage: screenconf openapi [--out FILE]

Writes the interface as an OpenAPI 3.1 document (JSON), generated from screenconf's zod schemas,
limits and requirement catalogue: the provisioning conventions are marked x-screenconf-provisioning,
and each operation lists the requirements judged on it in x-screenconf-requirements.
  --out FILE   write it to FILE instead of standard output`;

export function openapiCommand(args: string[], io: CliIO): number {
  const { values } = parse(args, { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, 'openapi');
  if (values.help) {
    io.out(OPENAPI_HELP);
    return EXIT.ok;
  }
  const text = JSON.stringify(openApiDocument(), null, 2);
  if (values.out === undefined) io.out(text);
  else {
    const file = resolve(io.cwd, values.out as string);
    writeFileSync(file, `${text}\n`);
    io.out(`OpenAPI 3.1 document written to ${file}`);
  }
  return EXIT.ok;
}
