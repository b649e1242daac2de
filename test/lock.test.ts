/** The lock the run's worker processes share (base/lock.ts): one holder at a time; a dead one's is taken over. */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LockTimeout, withLock } from '../src/base/lock.ts';
import { tempDir } from './support/cli.ts';

describe('withLock', () => {
  it('lets one holder in at a time', async () => {
    const lock = join(tempDir(), 'pool.lock');
    const events: string[] = [];
    const hold = (name: string) =>
      withLock(lock, async () => {
        events.push(`${name} in`);
        await new Promise((r) => setImmediate(r));
        events.push(`${name} out`);
      });
    await Promise.all([hold('a'), hold('b'), hold('c')]);
    for (let i = 0; i < events.length; i += 2) expect(events[i + 1]).toBe(events[i]!.replace(' in', ' out'));
    expect(events).toHaveLength(6);
  });

  it('takes over a lock whose holder has died, and one left without a holder once it is stale', async () => {
    const dir = tempDir();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    const byDead = join(dir, 'dead.lock');
    mkdirSync(byDead);
    writeFileSync(join(byDead, 'owner'), dead);
    await expect(withLock(byDead, async () => 'taken')).resolves.toBe('taken');

    const unnamed = join(dir, 'unnamed.lock');
    mkdirSync(unnamed);
    await expect(withLock(unnamed, async () => 'taken', { staleMs: 0 })).resolves.toBe('taken');
  });

  it('is taken in the order it was asked for: a holder asking again waits behind those already waiting', async () => {
    const lock = join(tempDir(), 'fair.lock');
    const order: string[] = [];
    let waiting!: Promise<void>;
    await withLock(lock, async () => {
      order.push('a');
      waiting = withLock(lock, async () => {
        order.push('b');
      });
      // b queued when it asked (synchronously); its entry is named by the ms it asked in, a's next one later.
      await new Promise((r) => setTimeout(r, 20));
    });
    await withLock(lock, async () => {
      order.push('a again');
    });
    await waiting;
    expect(order).toEqual(['a', 'b', 'a again']);
  });

  it('gives up after the wait given while a live process holds it', async () => {
    const lock = join(tempDir(), 'busy.lock');
    mkdirSync(lock);
    writeFileSync(join(lock, 'owner'), String(process.ppid));
    await expect(withLock(lock, async () => 'never', { waitMs: 30 })).rejects.toBeInstanceOf(LockTimeout);
  });
});
