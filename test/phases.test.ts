/**
 * The suite files run in two phases (runner/phases.ts): auth-guesses, whose near-miss credentials may make a target
 * lock the run out, after every other file has ended, alone; with --shard, in the last shard only; not begun once
 * the run is stopping.
 */
import { describe, expect, it } from 'vitest';
import { LAST_SUITES, lastPhase, phasesOf, runPhases } from '../src/runner/phases.ts';
import { SUITES } from '../src/runner/settings.ts';

const ran = () => {
  const calls: { suites: string[]; shard?: { index: number; count: number } | undefined }[] = [];
  const run = async (suites: string[], shard: { index: number; count: number } | undefined) => {
    calls.push({ suites, shard });
    return { errors: [`${suites[0]} error`], suites };
  };
  return { calls, run };
};

describe('the phases of a run', () => {
  it('runs auth-guesses last and alone, after every other suite selected', async () => {
    expect(LAST_SUITES.every((s) => SUITES.includes(s))).toBe(true);
    expect(phasesOf(SUITES)).toEqual([SUITES.filter((s) => s !== 'auth-guesses'), ['auth-guesses']]);
    expect(phasesOf(['token', 'auth'])).toEqual([['token', 'auth']]);
    expect(phasesOf(['auth-guesses'])).toEqual([['auth-guesses']]);
    expect([lastPhase(['auth-guesses']), lastPhase(['auth', 'auth-guesses']), lastPhase([])]).toEqual([
      true,
      false,
      false,
    ]);
    const { calls, run } = ran();
    const ended = await runPhases(['auth', 'auth-guesses', 'token'], undefined, run, () => false);
    expect(calls.map((c) => c.suites)).toEqual([['auth', 'token'], ['auth-guesses']]);
    expect(ended).toEqual({ errors: ['auth error', 'auth-guesses error'], suites: ['auth', 'token', 'auth-guesses'] });
  });

  it('with --shard, shares out the first phase and runs the last in the last shard only', async () => {
    for (const [index, last] of [
      [1, false],
      [3, true],
    ] as const) {
      const { calls, run } = ran();
      await runPhases(['auth', 'auth-guesses'], { index, count: 3 }, run, () => false);
      expect(calls).toEqual([
        { suites: ['auth'], shard: { index, count: 3 } },
        ...(last ? [{ suites: ['auth-guesses'], shard: undefined }] : []),
      ]);
    }
  });

  it('begins no further phase once the run is stopping', async () => {
    const { calls, run } = ran();
    await runPhases(['auth', 'auth-guesses'], undefined, run, () => true);
    expect(calls.map((c) => c.suites)).toEqual([['auth']]);
  });
});
