/**
 * One access token per client for every worker process of a run. A target may revoke a client's
 * earlier tokens when it issues a new one (the interface leaves it open): worker processes that
 * each got their own token would then revoke each other's without end. The token in use is kept
 * in a private folder the runner makes for the run (mode 0700, removed at its end), and a new one
 * is asked for under a lock, so a worker that finds its token refused takes the one another
 * worker just got instead of asking again.
 */
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withLock } from '../base/lock.ts';

/** The token request that issued a token: when it was sent, how long its answer took, what expires_in it stated. */
export interface TokenIssue {
  at: string;
  ms: number;
  expiresIn: unknown;
}

export interface SharedToken {
  value: string;
  /** When to ask for a new one (epoch ms). */
  refreshAt: number;
  /** Its issue, where the request was recorded (token-renewals.jsonl says how old a refused token was). */
  issued?: TokenIssue;
}

export class TokenShare {
  readonly #file: string;
  readonly #lock: string;

  constructor(dir: string, clientId: string) {
    const name = createHash('sha256').update(clientId).digest('hex').slice(0, 16);
    this.#file = join(dir, `${name}.json`);
    this.#lock = join(dir, `${name}.lock`);
  }

  /** The token the run's workers use now, if one was shared. */
  read(): SharedToken | undefined {
    try {
      const t = JSON.parse(readFileSync(this.#file, 'utf8')) as Partial<SharedToken>;
      if (typeof t.value !== 'string' || typeof t.refreshAt !== 'number') return undefined;
      const i = t.issued;
      const issued = typeof i?.at === 'string' && typeof i.ms === 'number' ? { issued: i } : {};
      return { value: t.value, refreshAt: t.refreshAt, ...issued };
    } catch {
      return undefined;
    }
  }

  write(token: SharedToken): void {
    const tmp = `${this.#file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(token), { mode: 0o600 });
    renameSync(tmp, this.#file);
  }

  /** Runs `fn` holding the lock of this client's token (across processes). */
  locked<T>(fn: () => Promise<T>): Promise<T> {
    return withLock(this.#lock, fn);
  }
}
