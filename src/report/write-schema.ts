/**
 * `npm run schema`: writes docs/conformance.schema.json, the JSON Schema of conformance.json,
 * from the zod schema (src/report/schema.ts). test/report.test.ts fails when the committed
 * file differs from what this writes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { PACKAGE_ROOT } from '../version.ts';
import { reportJsonSchema } from '../results/report.ts';

export const SCHEMA_FILE = resolve(PACKAGE_ROOT, 'docs/conformance.schema.json');

export function schemaText(): string {
  return `${JSON.stringify(reportJsonSchema(), null, 2)}\n`;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(PACKAGE_ROOT, 'src/report/write-schema.ts')) {
  mkdirSync(dirname(SCHEMA_FILE), { recursive: true });
  writeFileSync(SCHEMA_FILE, schemaText());
  process.stdout.write(`wrote ${SCHEMA_FILE}\n`);
}
