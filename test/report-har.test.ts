/**
 * exchanges.har of a real run: HAR 1.2, validated with ajv (maintained) against the HAR 1.2 JSON
 * Schema (har-schema, the schemas of the now unmaintained har-validator); every exchange of the run
 * is there (the checks', their teardown, the runner's preflight and sweep), each tagged with its
 * check and the requirement ids it names; the folder's digest covers it. Secrets: see
 * test/safety-run.test.ts, which looks for every planted secret in every file of the run folder.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import draft06 from 'ajv/dist/refs/json-schema-draft-06.json' with { type: 'json' };
import type { Har } from 'har-format';
import harSchemas from 'har-schema';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ScreenconfEntry } from '../src/report/har.ts';
import type { ConformanceReport } from '../src/results/report.ts';
import { type CliResult, runFolder, tempDir } from './support/cli.ts';
import { screenconfInProcess } from './support/in-process.ts';

let folder: string;
let run: CliResult;
let har: Har;
let report: ConformanceReport;
let entries: ScreenconfEntry[];

/** Validates a HAR against the HAR 1.2 JSON Schema; returns ajv's errors (none: valid). */
function harErrors(value: unknown): string[] {
  const ajv = new Ajv({ allErrors: true, strict: false });
  // ajv-formats is CommonJS: its plugin is the module itself, or its default under ESM interop.
  const addFormats = ('default' in formats ? formats.default : formats) as typeof formats.default;
  addFormats(ajv);
  ajv.addMetaSchema(draft06);
  for (const schema of Object.values(harSchemas)) ajv.addSchema(schema);
  const validate = ajv.getSchema('har.json#')!;
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

beforeAll(async () => {
  const dir = tempDir('screenconf-har-');
  run = await screenconfInProcess([
    'run',
    '--report-dir',
    dir,
    '--suites',
    'token,case-delete',
    '--reference-faults',
    'delete.noop',
    '--seed',
    '5',
  ]);
  folder = runFolder(dir);
  har = JSON.parse(readFileSync(join(folder, 'exchanges.har'), 'utf8')) as Har;
  report = JSON.parse(readFileSync(join(folder, 'conformance.json'), 'utf8')) as ConformanceReport;
  entries = har.log.entries as ScreenconfEntry[];
});

describe('exchanges.har', () => {
  it('is HAR 1.2, valid against its JSON Schema, and listed in SHA256SUMS', () => {
    expect(run.status, run.stdout + run.stderr).toBe(1);
    expect(harErrors(har)).toEqual([]);
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator.name).toBe('screenconf');
    expect(readFileSync(join(folder, 'SHA256SUMS'), 'utf8')).toMatch(/^[0-9a-f]{64} {2}exchanges\.har$/m);
    // The validation can fail: a HAR without its request is refused.
    const broken = structuredClone(har);
    delete (broken.log.entries[0] as Partial<ScreenconfEntry>).request;
    expect(harErrors(broken).length).toBeGreaterThan(0);
  });

  it('holds every exchange of the run: the checks, their teardown, the preflight and the sweep, oldest first', () => {
    const stages = new Set(entries.map((e) => e._screenconf.stage));
    expect([...stages].sort()).toEqual(['check', 'preflight', 'sweep', 'teardown']);
    const times = entries.map((e) => e.startedDateTime);
    expect(times).toEqual([...times].sort());
    expect(har.log.pages).toHaveLength(1);
    expect(entries.every((e) => e.pageref === har.log.pages![0]!.id)).toBe(true);
  });

  it('tags each exchange of a check with that check and the requirement ids it names', () => {
    const checks = new Map(report.checks!.map((c) => [c.name, c]));
    const inChecks = entries.filter((e) => e._screenconf.stage === 'check');
    expect(inChecks.length).toBeGreaterThan(10);
    for (const e of inChecks) {
      const check = checks.get(e._screenconf.check!);
      expect(check, e._screenconf.check).toBeDefined();
      expect(e._screenconf.requirements).toEqual(check!.requirements);
      expect(e._screenconf.suite).toBe(check!.suite);
    }
    // Every check that ran and sent something is there.
    const sent = new Set(inChecks.map((e) => e._screenconf.check));
    expect(sent.has('DELETE /api/cases/{id}/ > DELETE removes the case: a later PATCH of it is rejected')).toBe(true);
  });

  it('has the exchange a failure judged, as conformance.json gives it', () => {
    const failure = report.results.find((r) => r.id === 'CASE-DELETE-REMOVES')!.failures![0]!;
    const judged = failure.evidence!.exchanges.find((e) => e.judged)!;
    const found = entries.find(
      (e) =>
        e.startedDateTime === judged.at &&
        e.request.method === judged.request.method &&
        e.request.url === judged.request.url,
    )!;
    expect(found).toBeDefined();
    expect(found.response.status).toBe(judged.response!.status);
    expect(found.response.content.text).toBe(judged.response!.body);
    expect(found._screenconf).toMatchObject({
      check: failure.test,
      requirements: expect.arrayContaining(['CASE-DELETE-REMOVES']),
    });
  });

  it('shows credentials only as [REDACTED]', () => {
    const auth = entries.flatMap((e) => e.request.headers.filter((h) => h.name.toLowerCase() === 'authorization'));
    expect(auth.length).toBeGreaterThan(0);
    for (const h of auth) expect(h.value).toBe('Bearer [REDACTED]');
    const tokens = entries.filter((e) => e.request.url.endsWith('/api/oauth/token/') && e.response.status === 200);
    expect(tokens.length).toBeGreaterThan(0);
    for (const e of tokens) {
      expect(e.request.postData?.text).toContain('"client_secret":"[REDACTED]"');
      expect(e.response.content.text).toContain('"access_token":"[REDACTED]"');
    }
  });
});
