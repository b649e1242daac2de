/**
 * A lock across the processes of a run (the runner's worker processes): a directory made with
 * mkdir, which succeeds in one process only, holding a file that names its owner's pid. A lock
 * whose owner has died (killed while holding it) is taken over; one with no owner named yet (its
 * owner died between mkdir and writing the file) is taken over once it is `staleMs` old.
 */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const OWNER_FILE = 'owner';
/** The first wait between two tries, doubled up to MAX_POLL_MS: a short hold costs little, a long one few wake-ups. */
const FIRST_POLL_MS = 2;
const MAX_POLL_MS = 100;

export interface LockOptions {
  /** How old a lock without an owner file must be before it is taken over. */
  staleMs?: number;
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

/** Runs `fn` holding the lock `dir` (a path in a folder the processes share). Not re-entrant. */
export async function withLock<T>(dir: string, fn: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const staleMs = options.staleMs ?? 10_000;
  for (let wait = FIRST_POLL_MS; ; wait = Math.min(MAX_POLL_MS, wait * 2)) {
    try {
      mkdirSync(dir);
      writeFileSync(join(dir, OWNER_FILE), String(process.pid));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (abandoned(dir, staleMs)) rmSync(dir, { recursive: true, force: true });
      else await sleep(wait);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
