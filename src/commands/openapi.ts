/** `screenconf openapi`: the interface as an OpenAPI 3.1 document, to standard output or a file. */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { EXIT } from '../exit.ts';
import { openApiDocument } from '../report/openapi.ts';
import type { CliIO } from './args.ts';
import { type Command, type CommandSpec, helpText, parseCommand } from './command.ts';

export const OPENAPI: CommandSpec = {
  name: 'openapi',
  summary: 'write the interface as an OpenAPI 3.1 document (--out FILE), with the requirement ids',
  usage: 'screenconf openapi [--out FILE]',
  description: `Writes the interface as an OpenAPI 3.1 document (JSON), generated from screenconf's zod schemas,
limits and requirement catalogue: the provisioning conventions are marked x-screenconf-provisioning,
and each operation lists the requirements judged on it in x-screenconf-requirements.`,
  groups: [
    {
      title: 'Options',
      options: { out: { type: 'string', value: 'FILE', help: 'write it to FILE instead of standard output' } },
    },
  ],
};

export const OPENAPI_COMMAND: Command = { spec: OPENAPI, run: openapiCommand };

export function openapiCommand(args: string[], io: CliIO): number {
  const { values } = parseCommand(args, OPENAPI);
  if (values.help) {
    io.out(helpText(OPENAPI));
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
