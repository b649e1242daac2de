/**
 * The input matrix's own parts (issue 25): the cells the kit sends are the cells the spec enumerates (one
 * source, so `list --matrix` and the report show what runs send); the kinds of value are what their names
 * say; the comparison every oracle uses; the plan's one reader per record and field a round; `list --matrix`.
 * A run against faulty and legal servers is in faults.test.ts and variants.test.ts.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { containerCells } from '../src/kit/containers/cells.ts';
import { bulkCells } from '../src/kit/inputs/bulk-cells.ts';
import { shows, type SentCell } from '../src/kit/inputs/cell.ts';
import { patchCells } from '../src/kit/inputs/patch.ts';
import { pathCells } from '../src/kit/inputs/path.ts';
import { isReader, planRounds } from '../src/kit/inputs/plan.ts';
import { tagger } from '../src/kit/inputs/send.ts';
import { tokenCells } from '../src/kit/inputs/token.ts';
import { CATALOGUE, codePointLength, LIMITS } from '../src/spec/index.ts';
import { credentialCells } from '../src/spec/credential-matrix.ts';
import { bodyCells } from '../src/spec/inputs/body.ts';
import { CASE_WRITE_FIELDS } from '../src/spec/inputs/fields.ts';
import { CONTAINER_OWNERS, containerCellSpecs, judgedByLimitCheck } from '../src/spec/inputs/containers.ts';
import { keyCells } from '../src/spec/inputs/keys.ts';
import { enumerateCells, MATRIX_REQUIREMENTS } from '../src/spec/inputs/matrix.ts';
import { exactly, number, sameNumber, text } from '../src/spec/inputs/stored.ts';
import { TOKEN_KINDS } from '../src/spec/inputs/token.ts';
import { valueKinds } from '../src/spec/inputs/values.ts';
import { runFolder, tempDir } from './support/cli.ts';
import { screenconfInProcess } from './support/in-process.ts';

describe('the input matrix', () => {
  it('the kit sends exactly the cells the spec enumerates, each once', () => {
    const bulk = bulkCells(tagger());
    const sent = [
      ...patchCells(),
      ...bulk.cases,
      ...bulk.customers,
      ...bulk.checks,
      ...pathCells(),
      ...tokenCells(),
    ].map((c) => c.spec.id);
    const enumerated = enumerateCells().map((c) => c.id);
    expect(new Set(sent).size).toBe(sent.length);
    expect(new Set(enumerated).size).toBe(enumerated.length);
    expect([...sent].sort()).toEqual([...enumerated].sort());
  });

  it('the container cells are those the kit sends and those the bulk suites judge, each once', () => {
    const sent = Object.values(containerCells()).flatMap((cells) => cells.map((c) => c.spec.id));
    const enumerated = containerCellSpecs();
    const byLimitChecks = enumerated.filter((c) => judgedByLimitCheck(c.kind, c.encoding)).map((c) => c.id);
    expect(new Set(sent).size).toBe(sent.length);
    expect([...sent, ...byLimitChecks].sort()).toEqual(enumerated.map((c) => c.id).sort());
    expect(byLimitChecks).toHaveLength(6);
    const owners = Object.values(CONTAINER_OWNERS).flatMap((o) => Object.values(o));
    const byId = new Map(CATALOGUE.map((r) => [r.id as string, r]));
    for (const id of owners) expect(byId.get(id)?.level, id).toBe('MUST');
  });

  it('every requirement owning an oracle is a MUST of the catalogue', () => {
    const byId = new Map(CATALOGUE.map((r) => [r.id as string, r]));
    for (const id of MATRIX_REQUIREMENTS) expect(byId.get(id)?.level, id).toBe('MUST');
  });

  it('crosses every writable field with every way in and encoding', () => {
    const cells = enumerateCells();
    for (const f of CASE_WRITE_FIELDS)
      for (const way of ['patch', 'bulk-cases'])
        for (const encoding of ['json', 'form', 'multipart', 'multipart-file'])
          expect(
            cells.some((c) => c.way === way && c.encoding === encoding && c.field === f.name) ||
              f.field.type === 'object' ||
              f.field.type === 'platforms',
            `${way}/${encoding}/${f.name}`,
          ).toBe(true);
  });

  it('values at and past a limit are that long, in code points, and tagged apart', () => {
    const tag = tagger();
    const url = valueKinds(CASE_WRITE_FIELDS[0]!.field, tag);
    const len = (kind: string) => codePointLength(JSON.parse(url.find((k) => k.kind === kind)!.json!));
    expect(len('at-limit')).toBe(LIMITS.webhookUrlMaxLength);
    expect(len('at-limit-astral')).toBe(LIMITS.webhookUrlMaxLength);
    expect(len('over-limit')).toBe(LIMITS.webhookUrlMaxLength + 1);
    expect(len('over-limit-astral')).toBe(LIMITS.webhookUrlMaxLength + 1);
    expect(url.find((k) => k.kind === 'over-limit')!.expect.verdict).toBe('reject');
    expect(url.find((k) => k.kind === 'at-limit')!.expect.verdict).toBe('accept');
    const markers = url.map((k) => k.marker).filter((m) => m !== undefined && m.trim() !== '');
    expect(new Set(markers).size).toBe(markers.length);
    // A lone surrogate is sent as a JSON escape: the text parses to one unpaired surrogate.
    const lone = JSON.parse(url.find((k) => k.kind === 'lone-surrogate')!.json!) as string;
    expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(lone)).toBe(true);
  });

  it('a token request never shows the secret in a message', () => {
    const parts = { clientId: '0b0c4f9e-2d7a-4c51-9a63-3f1f2d1e0a11', secret: 'cs_SECRET_value_12345' };
    for (const [i, c] of tokenCells().entries()) {
      c.value = TOKEN_KINDS[i]!.body(parts);
      expect(c.shown ?? '').not.toContain('SECRET');
    }
  });
});

describe('what a read may show after a value was taken', () => {
  it('a string as sent, trimmed or in NFC; nothing else', () => {
    expect(shows(text(' café '), ' café ', null)).toBe(true);
    expect(shows(text(' café '), 'café', null)).toBe(true);
    expect(shows(text('cafe\u0301'), 'café', null)).toBe(true);
    expect(shows(text('abcdef'), 'abcde', null)).toBe(false);
    expect(shows(exactly('00123'), '123', null)).toBe(false);
  });

  it('a number exactly: 2.0 as 2, never 2^53+1 as 2^53', () => {
    expect(shows(number(2), 2, null)).toBe(true);
    expect(sameNumber(9007199254740992, '9007199254740993')).toBe(false);
    expect(sameNumber(9007199254740993n, '9007199254740993')).toBe(true);
    expect(shows(number(10), 1, null)).toBe(false);
  });

  it('a key a runtime treats specially is a key like any other', () => {
    const sent = JSON.parse('{"__proto__":{"x":1},"k":2}');
    expect(shows(exactly(sent), { k: 2 }, null)).toBe(false);
    expect(shows(exactly(sent), JSON.parse('{"k":2,"__proto__":{"x":1}}'), null)).toBe(true);
  });
});

describe('the plan of rounds', () => {
  it('gives each record at most one reader per field a round, and sends every cell once', () => {
    const cells = patchCells();
    const rounds = planRounds(
      cells,
      4,
      (c) => c.spec.field,
      (c) => (c.expect?.verdict === 'accept' ? c.spec.encoding : undefined),
    );
    const placed: SentCell[] = [];
    for (const round of rounds)
      for (const slot of round) {
        const fields = slot.readers.flat().map((c) => c.spec.field);
        expect(new Set(fields).size).toBe(fields.length);
        expect(slot.readers.flat().every(isReader)).toBe(true);
        expect(slot.rejects.some(isReader)).toBe(false);
        placed.push(...slot.readers.flat(), ...slot.rejects);
      }
    expect(placed.length).toBe(cells.length);
    expect(new Set(placed).size).toBe(cells.length);
  });
});

describe('screenconf list --matrix', () => {
  it('lists every cell, not sent without a run', async () => {
    const r = await screenconfInProcess(['list', '--matrix', '--way', 'token']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('token: 35 cells, 0 sent');
    expect(r.stdout).toContain('token/json/client_secret/prefix');
    expect(r.stdout).toContain('not sent: no run given');
    const json = JSON.parse((await screenconfInProcess(['list', '--matrix', '--json'])).stdout);
    // The input matrix's cells, the containers', its key dimension's, then the credential variations' on every
    // protected endpoint, then the body's.
    expect(json.cells.length).toBe(
      enumerateCells().length +
        containerCellSpecs().length +
        keyCells().length +
        credentialCells().length +
        bodyCells().length,
    );
  });

  it("joins the credential cells a run's auth suite sent, each with its oracles' results", async () => {
    const dir = tempDir();
    const run = await screenconfInProcess([
      'run',
      '--suites',
      'auth,auth-guesses',
      '--report-dir',
      dir,
      '--max-rps',
      '0',
    ]);
    expect(run.status, run.stdout + run.stderr).toBe(0);
    const report = join(runFolder(dir), 'conformance.json');
    const r = await screenconfInProcess(['list', '--matrix', '--way', 'credential', '--report', report, '--json']);
    expect(r.status, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout).cells as { cell: string; sent: boolean; results: Record<string, string> }[];
    expect(rows).toHaveLength(credentialCells().length);
    const truncated = rows.find((c) => c.cell === 'patch/header/Authorization/api-key.truncated')!;
    expect(truncated.sent).toBe(true);
    expect(truncated.results).toEqual({ 'refused-unchanged': 'pass', 'refusal-no-data': 'pass' });
    // Sent or said why not: no cell of the auth suite is silently left out.
    expect(rows.filter((c) => !c.sent && !('notSent' in c))).toEqual([]);
  });

  it('refuses what it cannot read, with a code', async () => {
    const bad = await screenconfInProcess(['list', '--matrix', '--way', 'tokn']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('SC_USAGE');
    expect(bad.stderr).toContain('token');
    const missing = await screenconfInProcess(['list', '--matrix', '--report', '/nonexistent/conformance.json']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('SC_REPORT_INVALID');
    const alone = await screenconfInProcess(['list', '--failed']);
    expect(alone.status).toBe(2);
    expect(alone.stderr).toContain('--failed goes with --matrix');
  });
});
