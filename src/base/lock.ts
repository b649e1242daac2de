/**
 * A lock across the processes of a run (the runner's worker processes), taken in the order it was
 * asked for: each process waiting writes an entry in a queue folder beside the lock (named by the
 * time it began to wait), and only the first entry may take the lock, a directory made with mkdir
 * (which succeeds in one process only) holding a file that names its owner's pid. A process that
 * released the lock and asks again queues behind the others, so a file acting on shared cases
 * check after check does not starve another file's check.
 *
 * A lock or queue entry whose process has died (killed while waiting or holding) is taken away;
 * a lock with no owner named yet (its owner died between mkdir and writing the file) once it is
 * `staleMs` old. A lock that cannot be taken within `waitMs` throws LockTimeout.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const OWNER_FILE = 'owner';
/** The first wait between two tries, doubled up to MAX_POLL_MS: a short hold costs little, a long one few wake-ups. */
const FIRST_POLL_MS = 2;
const MAX_POLL_MS = 50;

export interface LockOptions {
  /** How old a lock without an owner file must be before it is taken over. */
  staleMs?: number;
  /** How long to wait for the lock before giving up (LockTimeout); default: without end. */
  waitMs?: number;
}

/** The lock was not taken within the wait given. */
export class LockTimeout extends Error {
  constructor(
    readonly dir: string,
    readonly waitedMs: number,
  ) {
    super(`the lock ${dir} was held by another process for more than ${Math.round(waitedMs / 1000)} s`);
    this.name = 'LockTimeout';
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: a process of another user holds the pid, so it is alive.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the lock at `dir` was left by a process that no longer holds it. */
function abandoned(dir: string, staleMs: number): boolean {
  try {
    const pid = Number(readFileSync(join(dir, OWNER_FILE), 'utf8'));
    if (Number.isInteger(pid) && pid > 0) return pid !== process.pid && !alive(pid);
  } catch {
    // No owner named yet.
  }
  try {
    return Date.now() - statSync(dir).mtimeMs > staleMs;
  } catch {
    return false; // Released meanwhile.
  }
}

/** Takes an abandoned lock away: renamed aside first, so of two processes that found it so, one removes it. */
function takeAway(dir: string): void {
  const aside = `${dir}.abandoned-${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    renameSync(dir, aside);
  } catch {
    return; // Another process took it away (or it was released) first.
  }
  rmSync(aside, { recursive: true, force: true });
}

/** The first live entry of the queue, removing those of processes that died waiting. */
function firstInQueue(queue: string): string | undefined {
  for (const entry of readdirSync(queue).sort()) {
    const pid = Number(entry.split('-')[1]);
    if (pid === process.pid || alive(pid)) return entry;
    rmSync(join(queue, entry), { force: true });
  }
  return undefined;
}

/** Runs `fn` holding the lock `dir` (a path in a folder the processes share). Not re-entrant. */
export async function withLock<T>(dir: string, fn: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const staleMs = options.staleMs ?? 10_000;
  const began = Date.now();
  const queue = `${dir}.queue`;
  mkdirSync(queue, { recursive: true });
  const me = `${String(began).padStart(15, '0')}-${process.pid}-${Math.random().toString(36).slice(2)}`;
  writeFileSync(join(queue, me), '');
  try {
    for (let wait = FIRST_POLL_MS; ; wait = Math.min(MAX_POLL_MS, wait * 2)) {
      if (firstInQueue(queue) === me) {
        try {
          mkdirSync(dir);
          writeFileSync(join(dir, OWNER_FILE), String(process.pid));
          break;
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
          if (abandoned(dir, staleMs)) {
            takeAway(dir);
            continue;
          }
        }
      }
      if (options.waitMs !== undefined && Date.now() - began >= options.waitMs)
        throw new LockTimeout(dir, Date.now() - began);
      await sleep(wait);
    }
  } finally {
    rmSync(join(queue, me), { force: true });
  }
  try {
    return await fn();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
