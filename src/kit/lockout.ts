/**
 * A target that locks out guessing. Brute-force protection may answer many refused credentials by refusing the
 * client (its address, or its credential) for a while, the run's own credential too: with 429 and Retry-After, 423
 * Locked, 403 with a message, or 401 to a credential that opened before. The near misses of the auth-guesses suite
 * go through a guard: in groups, and after each group a probe with the run's own credential (a read of a case)
 * shows whether it still opens. A probe refused so is a lockout: it is waited out (its Retry-After where it gives
 * one, else probes further apart) within a budget for the run, and the group is sent again, smaller where nothing
 * passed since the last lockout, so every answer a check judges was given while the run's own credential opened.
 * Each lockout is recorded for AUTH-LOCKOUT; once the budget is spent, what is left is not judged, and says why.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { oneLine } from '../base/text.ts';
import { type ReceivedResponse, retryAfterMs } from '../client/transport.ts';
import { HarnessError } from '../errors.ts';
import type { Id } from '../spec/index.ts';
import type { Harness } from './context.ts';

/** How long a run waits, in all, for lockouts to lift. */
export const LOCKOUT_BUDGET_MS = 60_000;
/** Near misses sent before a probe, at first. */
const GROUP = 8;
/** The first wait before a lockout is probed again (without Retry-After); each next is half again as long. */
const FIRST_WAIT_MS = 250;
const MAX_WAIT_MS = 5_000;

/** The answers to the run's own credential a lockout gives. */
const LOCKOUT_STATUSES = [401, 403, 423, 429];
/** Harness faults a lockout makes of a request with the run's own credential: its token request refused, throttled. */
const LOCKOUT_CODES = ['SC_CREDENTIALS_REJECTED', 'SC_TARGET_THROTTLED'];

/** What a probe with the run's own credential found. */
export type Probe = { locked: false } | { locked: true; answer: string; retryAfterMs?: number };

/** The answer to a request with the run's own credential, read as a probe: refused as a lockout refuses, or not. */
export function probeOf(res: ReceivedResponse): Probe {
  if (!LOCKOUT_STATUSES.includes(res.status)) return { locked: false };
  const retryAfter = res.headers['retry-after'];
  const ms = retryAfterMs(retryAfter);
  const body = oneLine(res.text, 160);
  const after = retryAfter !== undefined ? ` (Retry-After: ${retryAfter})` : '';
  return {
    locked: true,
    answer: `HTTP ${res.status}${after}${body ? `: ${body}` : ''}`,
    ...(ms !== undefined ? { retryAfterMs: ms } : {}),
  };
}

/**
 * An error a request with the run's own credential met that a lockout explains (its new token refused, or 429 past
 * the retry budget); undefined for any other.
 */
export function lockoutError(err: unknown): Probe | undefined {
  if (!(err instanceof HarnessError) || !LOCKOUT_CODES.includes(err.code)) return undefined;
  // The advice to check the credentials is the preflight's: here they opened before.
  const what = err.message.replace(/; check --client-id.*$/s, '');
  return { locked: true, answer: oneLine(`an error: ${what}`, 240) };
}

/** A probe of the run's own credential: a read of case `id` (which it opened before). */
export function ownCredentialProbe(t: Harness, id: Id): () => Promise<Probe> {
  return async () => {
    try {
      return probeOf(await t.primary.provision.readCase(id));
    } catch (err) {
      const locked = lockoutError(err);
      if (locked) return locked;
      throw err;
    }
  };
}

/** One lockout: after how many near misses since the start (or the last lockout), its answer, how long it lasted. */
export interface LockoutSeen {
  afterAtMost: number;
  answer: string;
  waitedMs: number;
  lifted: boolean;
}

/** A near miss's answer, or why it has none given while the run's credential opened. */
export type Guarded<R> = { sent: R } | { notJudged: string };

export interface GuardOptions {
  budgetMs?: number;
  group?: number;
  sleep?: (ms: number) => Promise<void>;
}

export class LockoutGuard {
  readonly lockouts: LockoutSeen[] = [];
  /** Near misses sent through the guard, again after a lockout too. */
  sent = 0;
  #sinceLift = 0;
  #spentMs = 0;
  #stuck: string | undefined;
  #group: number;
  readonly #budgetMs: number;
  readonly #sleep: (ms: number) => Promise<void>;

  constructor(
    private readonly probe: () => Promise<Probe>,
    options: GuardOptions = {},
  ) {
    this.#group = options.group ?? GROUP;
    this.#budgetMs = options.budgetMs ?? LOCKOUT_BUDGET_MS;
    this.#sleep = options.sleep ?? ((ms) => delay(ms));
  }

  /** Why nothing more is judged: the target still locked the run out when the budget was spent. */
  get stuck(): string | undefined {
    return this.#stuck;
  }

  /**
   * Sends each item (a near miss) in groups, probing after each group; a group the target locked the run out in is
   * sent again once the lockout lifted. Each item's last answer, or why it has none (the budget spent).
   */
  async sendAll<T, R>(items: readonly T[], send: (item: T) => Promise<R>): Promise<Guarded<R>[]> {
    const out: Guarded<R>[] = [];
    let passed = true;
    while (out.length < items.length) {
      if (this.#stuck) {
        const why = this.#stuck;
        while (out.length < items.length) out.push({ notJudged: why });
        break;
      }
      const group = items.slice(out.length, out.length + this.#group);
      const answers: R[] = [];
      let probe: Probe | undefined;
      for (const item of group) {
        this.sent += 1;
        this.#sinceLift += 1;
        try {
          answers.push(await send(item));
        } catch (err) {
          probe = lockoutError(err);
          if (!probe) throw err;
          break;
        }
      }
      probe ??= await this.probe();
      if (!probe.locked) {
        out.push(...answers.map((sent) => ({ sent })));
        passed = true;
        continue;
      }
      // Locked out within this group: it is sent again, smaller when no group passed since the last lockout.
      if (!passed) this.#group = Math.max(1, Math.ceil(this.#group / 2));
      passed = false;
      await this.#waitOut(probe);
    }
    return out;
  }

  /** Whether the run's own credential opens now; a lockout found is waited out within the budget. */
  async open(): Promise<boolean> {
    if (this.#stuck) return false;
    const probe = await this.probe();
    if (probe.locked) await this.#waitOut(probe);
    return this.#stuck === undefined;
  }

  async #waitOut(first: Probe & { locked: true }): Promise<void> {
    const seen: LockoutSeen = { afterAtMost: this.#sinceLift, answer: first.answer, waitedMs: 0, lifted: false };
    this.lockouts.push(seen);
    let probe: Probe = first;
    for (let wait = FIRST_WAIT_MS; probe.locked; wait = Math.min(MAX_WAIT_MS, wait * 1.5)) {
      const ms = probe.retryAfterMs ?? wait;
      if (this.#spentMs + ms > this.#budgetMs) {
        this.#stuck =
          `the target locked the run's own credential out after near misses (${first.answer}) and still did after ` +
          `${(seen.waitedMs / 1000).toFixed(1)} s of waiting (at most ${this.#budgetMs / 1000} s a run): ` +
          'fewer near misses (--credential-guesses) stay below its limit';
        return;
      }
      await this.#sleep(ms);
      this.#spentMs += ms;
      seen.waitedMs += ms;
      probe = await this.probe();
    }
    seen.lifted = true;
    this.#sinceLift = 0;
  }

  /** The lockouts seen, in words (AUTH-LOCKOUT), or that none was. */
  describe(): string {
    if (this.sent === 0) return 'no request with a credential a server may refuse was sent';
    if (this.lockouts.length === 0)
      return (
        `no lockout: the run's own credential opened after every group of the ${this.sent} requests with ` +
        'credentials a server may refuse'
      );
    const first = this.lockouts[0]!;
    const lifted = this.lockouts.filter((l) => l.lifted);
    const longest = Math.max(...this.lockouts.map((l) => l.waitedMs));
    const when = first.afterAtMost
      ? `after at most ${first.afterAtMost} of them`
      : 'before any of them (what ran before left it)';
    return (
      `${this.lockouts.length} lockout(s) in ${this.sent} requests with credentials a server may refuse (a group ` +
      `locked out was sent again once the lockout lifted): the first ${when}, ` +
      `when a read with the run's own credential met ${first.answer}; ${lifted.length} lifted, the longest after ` +
      `${(longest / 1000).toFixed(1)} s` +
      (this.#stuck ? `; ${this.#stuck}` : '')
    );
  }
}
