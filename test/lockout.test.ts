/**
 * A target that locks out guessing (kit/lockout.ts): the answers a lockout gives the run's own credential are read
 * as one (429 with Retry-After, 423, 403 with a message, 401 to a credential that opened; a token request refused
 * meanwhile), others are not; the guard sends near misses in groups, waits a lockout out and sends the group it
 * answered again (smaller where nothing passed since), gives up once its budget is spent, and says so. A simulated
 * target and a simulated clock: no test waits on the wall clock.
 */
import { describe, expect, it } from 'vitest';
import type { ReceivedResponse } from '../src/client/transport.ts';
import { HarnessError } from '../src/errors.ts';
import { LockoutGuard, lockoutError, type Probe, probeOf } from '../src/kit/lockout.ts';

const answer = (status: number, text = '', headers: Record<string, string> = {}) =>
  ({ status, text, headers, json: undefined }) as unknown as ReceivedResponse;

describe('a lockout, as the answer to the run’s own credential shows it', () => {
  it.each([
    [answer(429, '{"detail":"slow down"}', { 'retry-after': '30' }), 'HTTP 429 (Retry-After: 30)', 30_000],
    [answer(423, '{"detail":"account locked"}'), 'HTTP 423', undefined],
    [answer(403, 'Too many failed login attempts'), 'HTTP 403', undefined],
    [answer(401, '{"error":"invalid_token"}'), 'HTTP 401', undefined],
  ])('reads %# as a lockout, with its Retry-After', (res, words, ms) => {
    const probe = probeOf(res);
    expect(probe.locked).toBe(true);
    if (!probe.locked) return;
    expect(probe.answer.startsWith(words)).toBe(true);
    expect(probe.retryAfterMs).toBe(ms);
  });

  it.each([200, 204, 404, 500])('reads HTTP %i as no lockout', (status) => {
    expect(probeOf(answer(status)).locked).toBe(false);
  });

  it('reads a new token refused, or 429 past the retry budget, as a lockout; any other error is not one', () => {
    const refused = new HarnessError(
      'SC_CREDENTIALS_REJECTED',
      'the token endpoint (POST /api/oauth/token/) refused the client credentials: HTTP 401; check --client-id and ' +
        '--client-secret',
    );
    const locked = lockoutError(refused);
    expect(locked?.locked).toBe(true);
    expect(JSON.stringify(locked)).not.toContain('--client-id');
    expect(lockoutError(new HarnessError('SC_TARGET_THROTTLED', 'kept answering 429'))?.locked).toBe(true);
    expect(lockoutError(new HarnessError('SC_TARGET_UNREACHABLE', 'no answer'))).toBeUndefined();
    expect(lockoutError(new Error('boom'))).toBeUndefined();
  });
});

/**
 * A target that locks a client out after `limit` refused credentials for `lockedMs` (its own clock), answering the
 * run's own credential 401 meanwhile; the guard's waits move that clock.
 */
function target(limit: number, lockedMs: number, retryAfter?: number) {
  let now = 0;
  let refused = 0;
  let lockedUntil = -1;
  const log: string[] = [];
  const locked = () => now < lockedUntil;
  return {
    log,
    get now() {
      return now;
    },
    sleep: async (ms: number) => {
      now += ms;
    },
    probe: async (): Promise<Probe> => {
      log.push(locked() ? 'probe locked' : 'probe open');
      return locked()
        ? { locked: true, answer: 'HTTP 401', ...(retryAfter ? { retryAfterMs: retryAfter } : {}) }
        : { locked: false };
    },
    send: async (n: number) => {
      if (locked()) {
        log.push(`${n} locked`);
        return `${n}: locked`;
      }
      refused += 1;
      if (refused >= limit) {
        refused = 0;
        lockedUntil = now + lockedMs;
      }
      log.push(`${n} refused`);
      return `${n}: refused`;
    },
  };
}

const items = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('the guard near misses go through', () => {
  it('sends every item in groups, probing after each, when nothing locks the run out', async () => {
    const t = target(1000, 1000);
    const guard = new LockoutGuard(t.probe, { group: 4, sleep: t.sleep });
    const out = await guard.sendAll(items(10), t.send);
    expect(out).toEqual(items(10).map((i) => ({ sent: `${i}: refused` })));
    expect(t.log.filter((l) => l.startsWith('probe'))).toEqual(['probe open', 'probe open', 'probe open']);
    expect(guard.lockouts).toEqual([]);
    expect(guard.describe()).toMatch(/^no lockout/);
  });

  it('sends a group locked out again once the lockout lifts: every answer came while it opened', async () => {
    const t = target(6, 1000);
    const guard = new LockoutGuard(t.probe, { group: 4, sleep: t.sleep });
    const out = await guard.sendAll(items(20), t.send);
    expect(out).toEqual(items(20).map((i) => ({ sent: `${i}: refused` })));
    expect(guard.lockouts.length).toBeGreaterThan(0);
    expect(guard.lockouts.every((l) => l.lifted && l.waitedMs >= 1000)).toBe(true);
    expect(guard.lockouts[0]!.afterAtMost).toBe(8);
    expect(guard.stuck).toBeUndefined();
    expect(guard.describe()).toContain('lockout(s)');
  });

  it('makes its groups smaller where none passes: a limit below the group still gets through', async () => {
    const t = target(3, 500);
    const guard = new LockoutGuard(t.probe, { group: 8, sleep: t.sleep });
    const out = await guard.sendAll(items(12), t.send);
    expect(out).toEqual(items(12).map((i) => ({ sent: `${i}: refused` })));
    expect(guard.stuck).toBeUndefined();
  });

  it('waits the Retry-After the lockout gives', async () => {
    const t = target(2, 3000, 3000);
    const guard = new LockoutGuard(t.probe, { group: 2, sleep: t.sleep });
    await guard.sendAll(items(2), t.send);
    expect(guard.lockouts[0]!.waitedMs).toBe(3000);
  });

  it('gives up once its budget is spent: what is left is not judged, and says why; later calls too', async () => {
    const t = target(2, 3_600_000, 900_000);
    const guard = new LockoutGuard(t.probe, { group: 2, sleep: t.sleep, budgetMs: 60_000 });
    const out = await guard.sendAll(items(5), t.send);
    expect(out.every((o) => 'notJudged' in o)).toBe(true);
    expect(guard.stuck).toContain('still did after 0.0 s of waiting (at most 60 s a run)');
    expect(guard.stuck).toContain('--credential-guesses');
    // Nothing is waited for that the budget cannot hold: a Retry-After of 15 minutes is not slept.
    expect(t.now).toBe(0);
    expect(await guard.open()).toBe(false);
    expect(await guard.sendAll(items(1), t.send)).toEqual([{ notJudged: guard.stuck }]);
    expect(guard.describe()).toContain(guard.stuck!);
  });

  it('takes a request that met a lockout error (its new token refused) as a lockout, and sends it again', async () => {
    let lockedOnce = false;
    const guard = new LockoutGuard(async () => ({ locked: false }), { group: 3, sleep: async () => {} });
    const out = await guard.sendAll(items(3), async (n) => {
      if (n === 1 && !lockedOnce) {
        lockedOnce = true;
        throw new HarnessError('SC_CREDENTIALS_REJECTED', 'refused the client credentials: HTTP 401');
      }
      return n;
    });
    expect(out).toEqual([{ sent: 0 }, { sent: 1 }, { sent: 2 }]);
    expect(guard.lockouts).toHaveLength(1);
    await expect(
      guard.sendAll([0], async () => {
        throw new HarnessError('SC_TARGET_UNREACHABLE', 'no answer');
      }),
    ).rejects.toThrow('no answer');
  });
});
