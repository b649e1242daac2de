/**
 * The mutation campaign (scripts/mutate/, docs/mutation.md): how a run becomes a verdict, how pieces
 * merge, and docs/ci/mutation-github-actions.yml run here on a copy of the checkout with two planted
 * mutants: one no check can see (a header of its own) reported as surviving, one that breaks the token
 * endpoint reported as killed; two shards, merged into one result.
 */
import { cpSync, existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchOf, campaignPart } from '../scripts/mutate/bench.ts';
import { selectMutants } from '../scripts/mutate/check.ts';
import { judgeMutant, type RunOutcome } from '../scripts/mutate/classify.ts';
import { enumerateMutants, shardFiles } from '../scripts/mutate/mutants.ts';
import { loadPiece, mergePieces, mutantKeys, type Piece } from '../scripts/mutate/results.ts';
import { ROOT, tempDir } from './support/cli.ts';
import { runStep } from './support/workflow.ts';

const WORKFLOW = readFileSync(join(ROOT, 'docs/ci/mutation-github-actions.yml'), 'utf8');

function outcome(o: Partial<RunOutcome>): RunOutcome {
  return {
    status: 0,
    ms: 1000,
    verdict: 'conforming',
    failed: [],
    warned: [],
    notJudged: [],
    faults: [],
    deadline: false,
    crashes: [],
    ...o,
  };
}

/** Runs the judgement, counting the further runs it asked for. */
async function judge(first: RunOutcome, control: RunOutcome, again: RunOutcome) {
  const asked: string[] = [];
  const j = await judgeMutant(first, {
    control: async () => {
      asked.push('control');
      return control;
    },
    again: async () => {
      asked.push('again');
      return again;
    },
  });
  return { ...j, asked };
}

describe('a conformance run as the verdict on a mutant', () => {
  const conforming = outcome({});
  const notConforming = outcome({ status: 1, verdict: 'not-conforming', failed: ['TOKEN-ISSUE'] });
  const harness = outcome({ status: 3, verdict: 'incomplete', faults: ['SC_UNREACHABLE: no answer'] });
  const late = outcome({ status: 3, verdict: 'incomplete', deadline: true });

  it('NOT CONFORMING kills, CONFORMING survives, without any further run', async () => {
    expect(await judge(notConforming, conforming, conforming)).toMatchObject({
      status: 'killed',
      killedBy: ['TOKEN-ISSUE'],
      asked: [],
    });
    expect(await judge(conforming, conforming, conforming)).toMatchObject({ status: 'survived', asked: [] });
    const warned = await judge(outcome({ warned: ['X-SHOULD'] }), conforming, conforming);
    expect(warned).toMatchObject({ status: 'survived', reason: 'SHOULD warned: X-SHOULD' });
    // Under --strict a warned SHOULD fails the gate: the kill names it.
    const strict = await judge(
      outcome({ status: 1, verdict: 'not-conforming', warned: ['X-SHOULD'] }),
      conforming,
      conforming,
    );
    expect(strict).toMatchObject({ status: 'killed', killedBy: ['X-SHOULD'], reason: 'NOT CONFORMING: X-SHOULD' });
    const loop = await judge(outcome({ status: 1, hitLimit: 'over its hit limit' }), conforming, conforming);
    expect(loop).toMatchObject({ status: 'timeout', asked: [] });
  });

  it('exit 3 kills only when the unmutated run conforms and the mutant fails so again', async () => {
    expect(await judge(harness, conforming, harness)).toMatchObject({
      status: 'killed',
      by: 'harness',
      asked: ['control', 'again'],
    });
    // The fault happens without the mutant too: not the mutant's, an error that counts neither way.
    expect(await judge(harness, harness, harness)).toMatchObject({ status: 'error', asked: ['control'] });
    // The second run conforms: the first one's fault was not the mutant's.
    expect(await judge(harness, conforming, conforming)).toMatchObject({ status: 'survived' });
    expect(await judge(harness, conforming, notConforming)).toMatchObject({ status: 'killed', by: 'not-conforming' });
  });

  it('kills at once a fault the server answered, or a crash, when the unmutated run is clean', async () => {
    const answered = outcome({
      status: 3,
      verdict: 'incomplete',
      faults: ['provisioning: POST /api/cases/ answered HTTP 401'],
    });
    expect(await judge(answered, conforming, conforming)).toMatchObject({
      status: 'killed',
      by: 'harness',
      asked: ['control'],
    });
    const crashed = outcome({ status: 3, verdict: 'incomplete', crashes: ['TypeError: x is undefined'] });
    expect(await judge(crashed, conforming, conforming)).toMatchObject({
      status: 'killed',
      by: 'crash',
      asked: ['control'],
    });
    // A run of some checks is INCOMPLETE by its nature: a clean control all the same.
    const someChecks = outcome({ verdict: 'incomplete', notJudged: ['TOKEN-ISSUE'] });
    expect(await judge(answered, someChecks, conforming)).toMatchObject({ status: 'killed', asked: ['control'] });
    // Not so a control that met a fault: the mutant is not to blame.
    expect(await judge(answered, answered, answered)).toMatchObject({ status: 'error', asked: ['control'] });
  });

  it('a passed deadline is a timeout only when it passes twice and the unmutated run keeps it', async () => {
    expect(await judge(late, conforming, late)).toMatchObject({ status: 'timeout' });
    expect(await judge(late, late, late)).toMatchObject({ status: 'error' });
    const crash = outcome({ crashes: ['TypeError: boom'] });
    expect(await judge(crash, conforming, crash)).toMatchObject({ status: 'killed', by: 'crash' });
    expect(await judge(crash, crash, crash)).toMatchObject({ status: 'error' });
  });
});

describe('pieces of a campaign', () => {
  const piece = (files: string[], shard?: { index: number; count: number }): Piece => ({
    meta: {
      files,
      shard,
      sources: {},
      settings: { seed: 1, runs: 20, concurrency: 2 },
      startedAt: '2026-01-01T00:00:00Z',
      wallMs: 10,
      machine: { cpus: 2, model: 'x', node: 'v20' },
      stryker: '9.6.1',
    },
    report: {
      schemaVersion: '1',
      thresholds: { high: 80, low: 60 },
      files: Object.fromEntries(files.map((f) => [f, { language: 'typescript', source: '', mutants: [] }])),
    },
    runs: [],
  });

  it('merge into one, refusing a file twice and a shard set that is not whole', () => {
    const merged = mergePieces([piece(['a.ts'], { index: 1, count: 2 }), piece(['b.ts'], { index: 2, count: 2 })]);
    expect(Object.keys(merged.report.files)).toEqual(['a.ts', 'b.ts']);
    expect(merged.meta.wallMs).toBe(20);
    expect(() => mergePieces([piece(['a.ts']), piece(['a.ts'])])).toThrow(/a.ts is in pieces 1 and 2/);
    expect(() =>
      mergePieces([piece(['a.ts'], { index: 1, count: 3 }), piece(['b.ts'], { index: 2, count: 3 })]),
    ).toThrow(/not one whole set/);
  });

  it('are recorded without a file the campaign no longer mutates', () => {
    const measured = mergePieces([piece(['a.ts'], { index: 1, count: 2 }), piece(['b.ts'], { index: 2, count: 2 })]);
    const { piece: kept, left } = campaignPart(measured, ['a.ts']);
    expect(left).toEqual(['b.ts']);
    expect(Object.keys(kept.report.files)).toEqual(['a.ts']);
    expect(kept.meta.files).toEqual(['a.ts']);
    expect(campaignPart(measured, ['a.ts', 'b.ts']).left).toEqual([]);
  });

  it('shards split the files by weight, each file in exactly one shard', () => {
    const weights = { 'a.ts': 90, 'b.ts': 60, 'c.ts': 40, 'd.ts': 20, 'e.ts': 10 };
    const shards = [1, 2, 3].map((i) => shardFiles(weights, i, 3));
    expect(shards.flat().sort()).toEqual(Object.keys(weights));
    expect(shards).toEqual([['a.ts'], ['b.ts', 'e.ts'], ['c.ts', 'd.ts']]);
  });
});

/** A copy of the checkout (its node_modules linked) with a header of its own planted in the reference server. */
function plantedCopy(): string {
  const root = tempDir('screenconf-mutate-');
  for (const d of ['src', 'suites', 'bin', 'scripts']) cpSync(join(ROOT, d), join(root, d), { recursive: true });
  for (const f of ['package.json', 'tsconfig.json']) cpSync(join(ROOT, f), join(root, f));
  symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
  const server = join(root, 'src/reference/server.ts');
  const anchor = "res.setHeader('server', 'screenconf-reference');";
  const text = readFileSync(server, 'utf8');
  expect(text).toContain(anchor);
  writeFileSync(server, text.replace(anchor, `${anchor}\n    res.setHeader('x-planted', 'planted');`));
  return root;
}

/** The Stryker range (line from 1, columns from 0) of the first `literal` on the line holding `context`. */
function rangeOf(root: string, file: string, context: string, literal: string): string {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const line = lines.findIndex((l) => l.includes(context));
  const column = lines[line]!.indexOf(literal, lines[line]!.indexOf(context));
  expect(column).toBeGreaterThanOrEqual(0);
  return `${file}:${line + 1}:${column}-${line + 1}:${column + literal.length}`;
}

describe('docs/ci/mutation-github-actions.yml', () => {
  it('its shards and merge, run here: a planted survivor reported as surviving, a planted kill as killed', async () => {
    const root = plantedCopy();
    const survivor = rangeOf(root, 'src/reference/server.ts', "'x-planted'", "'planted'");
    const killer = rangeOf(root, 'src/reference/handlers/token.ts', 'grantType === ', "'client_credentials'");
    const env = { SHARDS: '2', MUTATE_FILES: `${killer},${survivor}`, MUTATE_RUNS: '3', MUTATE_CONCURRENCY: '1' };
    const shards = await Promise.all(
      [1, 2].map((i) => runStep(WORKFLOW, 'Mutate the shard', root, { ...env, SHARD: `${i}` })),
    );
    for (const s of shards) expect(s.status, s.out).toBe(0);
    // The heavier file (token.ts) goes to the first shard.
    expect(shards[0]!.out).toContain('shard 1/2: src/reference/handlers/token.ts');
    expect(shards[1]!.out).toContain('shard 2/2: src/reference/server.ts');
    // upload-artifact per shard, download-artifact (pattern mutation-*, path shards) in the merge job.
    for (const i of [1, 2])
      cpSync(join(root, `mutation-${i}`), join(root, 'shards', `mutation-${i}`), { recursive: true });
    const summary = join(root, 'summary.md');
    const merged = await runStep(WORKFLOW, 'Merge the shards', root, { ...env, GITHUB_STEP_SUMMARY: summary });
    expect(merged.status, merged.out).toBe(0);
    expect(merged.out).toContain('src/reference/server.ts:');
    expect(merged.out).toContain(`+     res.setHeader('x-planted', "");`);
    expect(merged.out).toMatch(/1 mutant\(s\) not detected/);
    expect(existsSync(join(root, 'mutation-report/mutation.html'))).toBe(true);

    const piece = loadPiece(join(root, 'mutation-report'));
    const status = (file: string) => piece.report.files[file]!.mutants.map((m) => [m.mutatorName, m.status]);
    expect(status('src/reference/server.ts')).toEqual([['StringLiteral', 'Survived']]);
    expect(status('src/reference/handlers/token.ts')).toEqual([['StringLiteral', 'Killed']]);
    // Killed through exit 3 (no token, the preflight fails), judged beside the unmutated run.
    expect(piece.report.files['src/reference/handlers/token.ts']!.mutants[0]!.statusReason).toMatch(
      /without it, clean/,
    );
    // --record wrote the bench beside: the kill is what the check will hold later commits to.
    const bench = JSON.parse(readFileSync(join(root, 'bench/mutation.json'), 'utf8'));
    expect(bench.total).toMatchObject({ killed: 1, survived: 1, score: 50 });
    expect(readFileSync(join(root, 'bench/mutation-survivors.md'), 'utf8')).toContain(
      'res.setHeader(\'x-planted\', "")',
    );

    // The check runs a changed file whole, and finds its killed mutant again after lines move in it.
    const token = join(root, 'src/reference/handlers/token.ts');
    writeFileSync(token, `// a line added above\n${readFileSync(token, 'utf8')}`);
    const files = ['src/reference/handlers/token.ts', 'src/reference/server.ts'];
    const current = await enumerateMutants(files, root);
    const selection = selectMutants(benchOf(piece), current, 40);
    // The changed file runs whole (every mutant it has now); the rest give a sample of their killed mutants: the one
    // of server.ts survived, so none.
    expect(selection.changed).toEqual(['src/reference/handlers/token.ts']);
    expect(selection.selected).toEqual([]);
    // Its killed mutant is found again by its key after the line moved.
    const keys = [...mutantKeys(current.get(files[0]!)!.source, current.get(files[0]!)!.mutants).entries()];
    const recorded = Object.entries(benchOf(piece).mutants['src/reference/handlers/token.ts']!);
    const moved = keys.find(([, key]) => key === recorded[0]![0])?.[0];
    expect([moved?.mutatorName, moved?.location.start.line]).toEqual([
      'StringLiteral',
      Number(killer.split(':')[1]) + 1,
    ]);
    // A sample fills what the budget leaves: none when the changed file's mutants take it all.
    expect(selectMutants(benchOf(piece), current, 1).selected).toEqual([]);
  }, 900_000);

  it('keys a mutant by its code, not its line', () => {
    const m = {
      id: '1',
      mutatorName: 'StringLiteral',
      replacement: '""',
      status: 'Killed' as const,
      location: { start: { line: 1, column: 11 }, end: { line: 1, column: 14 } },
    };
    const shifted = { ...m, location: { start: { line: 3, column: 11 }, end: { line: 3, column: 14 } } };
    const a = [...mutantKeys("const x = 'a';", [m]).values()];
    const b = [...mutantKeys("\n\nconst x = 'a';", [shifted]).values()];
    expect(a).toEqual(b);
  });
});
