/**
 * --duration: the suites in rounds until the budget is spent. The loop on its own (a stop ends it,
 * not the clock, so nothing here races it), and one real run whose rounds agree with the budget however many fit.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { propertySeed, shardSeed } from '../src/kit/property.ts';
import { runRounds } from '../src/runner/rounds.ts';
import { runFolder, tempDir } from './support/cli.ts';
import { screenconfInProcess } from './support/in-process.ts';

describe('--duration', () => {
  it('runs round after round, each on its own seeds, until stopped; says the cases each property ran', async () => {
    const ran: number[] = [];
    const lines: string[] = [];
    const result = await runRounds({
      durationMs: 3_600_000,
      runsPerRound: 25,
      run: async (round) => {
        ran.push(round);
        return { errors: round === 2 ? ['a suite error'] : [], suites: ['token'] };
      },
      stopped: () => ran.length >= 3,
      out: (line) => lines.push(line),
    });
    expect(ran).toEqual([1, 2, 3]);
    expect(result).toEqual({ errors: ['a suite error'], suites: ['token'], rounds: 3 });
    expect(lines[0]).toMatch(/^round 1 done: 25 generated cases per property so far; .* another round begins$/);
    expect(lines[2]).toMatch(
      /^round 3 done: 75 generated cases per property so far; [\d.]+ s of --duration 3600 s spent$/,
    );
    const seeds = [1, 2, 3].map((round) => shardSeed(7, 'patch', undefined, round));
    expect(seeds[0]).toBe(propertySeed(7, 'patch'));
    expect(new Set(seeds).size).toBe(3);
  });

  it('without a budget, one round', async () => {
    const result = await runRounds({
      durationMs: undefined,
      runsPerRound: 25,
      run: async () => ({ errors: [], suites: ['token'] }),
      stopped: () => false,
      out: () => {},
    });
    expect(result.rounds).toBe(1);
  });

  it('a real run stops at the first round that ends past the budget, and reports its rounds', async () => {
    const dir = tempDir();
    const r = await screenconfInProcess([
      'run',
      '--suites',
      'token',
      '--runs',
      '2',
      '--seed',
      '9',
      '--duration',
      '1s',
      '--quiet',
      '--report-dir',
      dir,
    ]);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    // How many rounds fit in 1 s depends on the machine: what is judged is that they agree with each other.
    const done = [...r.stdout.matchAll(/^round (\d+) done: (\d+) generated cases per property so far; .*$/gm)];
    expect(done.length).toBeGreaterThanOrEqual(1);
    done.forEach((m, i) => {
      expect(Number(m[1])).toBe(i + 1);
      expect(Number(m[2])).toBe(2 * (i + 1));
      expect(m[0].endsWith('another round begins')).toBe(i < done.length - 1);
    });
    expect(done.at(-1)![0]).toMatch(/[\d.]+ s of --duration 1 s spent$/);
    const report = JSON.parse(readFileSync(join(runFolder(dir), 'conformance.json'), 'utf8'));
    expect(report.run.rounds).toBe(done.length);
    const bad = await screenconfInProcess(['run', '--duration', '30 minutes']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('must be a time like 90s, 30m or 2h');
  }, 300_000);
});
