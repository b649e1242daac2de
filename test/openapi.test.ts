/**
 * `screenconf openapi`: an OpenAPI 3.1 document generated from the zod schemas and the limits,
 * checked by a maintained validator (@readme/openapi-parser), with the provisioning conventions
 * marked and every requirement on the operations it judges.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { main } from '../src/cli.ts';
import { CATALOGUE, LIMITS } from '../src/spec/index.ts';
import { tempDir } from './support/cli.ts';

// biome-ignore lint/suspicious/noExplicitAny: a parsed document, read by its paths
type Json = Record<string, any>;

async function openapi(args: string[]): Promise<{ status: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const status = await main(['openapi', ...args], {
    out: (...lines) => out.push(...lines),
    err: (line) => err.push(line),
    env: {},
    cwd: tempDir(),
  });
  return { status, out, err };
}

describe('screenconf openapi', () => {
  it('writes an OpenAPI 3.1 document that a maintained validator accepts', async () => {
    const file = join(tempDir(), 'openapi.json');
    const r = await openapi(['--out', file]);
    expect(r.status, r.err.join('\n')).toBe(0);
    expect(r.out).toEqual([`OpenAPI 3.1 document written to ${file}`]);
    const doc = JSON.parse(readFileSync(file, 'utf8')) as Json;
    expect(doc.openapi).toBe('3.1.0');
    expect(await validate(file)).toMatchObject({ valid: true });
    // The validator is not a rubber stamp: a path parameter "in: body" (Swagger 2.0's) is refused.
    const broken = structuredClone(doc);
    broken.paths['/api/cases/{id}/'].parameters[0].in = 'body';
    const brokenFile = join(tempDir(), 'broken.json');
    writeFileSync(brokenFile, JSON.stringify(broken));
    expect(await validate(brokenFile)).toMatchObject({ valid: false });
  });

  it('takes its schemas from the zod schemas and the limits', async () => {
    const doc = JSON.parse((await openapi([])).out.join('\n')) as Json;
    const schemas = doc.components.schemas as Json;
    expect(schemas.CasePatch.properties.external_id.anyOf).toContainEqual({
      type: 'string',
      maxLength: LIMITS.caseExternalIdMaxLength,
    });
    expect(schemas.CasePatch.properties.delete_after).toMatchObject({ type: 'integer', maximum: 2 ** 31 - 1 });
    expect(schemas.BulkCaseUpdateRequest.properties.items).toMatchObject({
      maxItems: LIMITS.bulkMaxItems,
      items: { $ref: '#/components/schemas/BulkCaseUpdateItem' },
    });
    expect(schemas.Case.properties.customer).toEqual({ $ref: '#/components/schemas/Customer' });
    expect(schemas.Case.required).toEqual(expect.arrayContaining(['id', 'external_id', 'checks', 'is_complete']));
  });

  it('marks the provisioning conventions and names the requirements each operation is judged by', async () => {
    const doc = JSON.parse((await openapi([])).out.join('\n')) as Json;
    expect(doc.paths['/api/cases/'].post['x-screenconf-provisioning']).toBe(true);
    expect(doc.paths['/api/cases/{id}/start/'].post['x-screenconf-provisioning']).toBe(true);
    expect(doc.paths['/api/cases/{id}/'].get['x-screenconf-provisioning']).toBe(true);
    expect(doc.paths['/api/cases/{id}/'].patch['x-screenconf-provisioning']).toBeUndefined();
    expect(doc.paths['/api/cases/{id}/'].delete['x-screenconf-requirements']).toContain('CASE-DELETE-REMOVES');
    expect(doc.paths['/api/cases/bulk-update/'].post['x-screenconf-requirements']).toContain('BULK-CASES-REJECT-101');
    expect(doc.webhooks.caseCompleted.post['x-screenconf-requirements']).toContain('WEBHOOK-DELIVERED');
    const operations = [...Object.values(doc.paths), ...Object.values(doc.webhooks)].flatMap((p) =>
      Object.values(p as Json).filter((o): o is Json => typeof o === 'object' && !Array.isArray(o)),
    );
    const judged = new Set(operations.flatMap((o) => (o['x-screenconf-requirements'] as string[] | undefined) ?? []));
    expect(CATALOGUE.filter((r) => !judged.has(r.id)).map((r) => r.id)).toEqual([]);
  });
});
