/**
 * Whether the target still answers, once a request got no answer (its connection closed or reset, nothing within the
 * timeout, or a refused connection): one cheap read decides. Answered, the target is there and what the request got
 * was its answer to that request (a check judging it fails); not answered, the target is gone and the run stops
 * sending (INCOMPLETE). The read is a GET of the request's own URL with no credential and no body: whatever sits in
 * front of that route (a proxy, a gateway, the application) answers it at once, with a 401 as often as not, and no
 * server changes anything for it. A target that answered before and now refuses, resets or answers 502, 503 or 504
 * may be restarting (a process that crashed on one input, under a supervisor): it is read again for a few seconds
 * before it is taken as gone. A read that times out is not repeated: a target that hangs is not restarting.
 */
import type { TransportError } from '../errors.ts';
import type { Exchange } from '../results/exchange.ts';
import { sleep } from './limiter.ts';

/** One read: the status it got, or the error of none. */
export type LivenessRead = { status: number; exchange: Exchange } | { error: TransportError; exchange: Exchange };

/** What the reads after a request that got no answer found. */
export interface Liveness {
  alive: boolean;
  /** The last read, in words: `GET /api/cases/5/ with no credential: HTTP 401`. */
  said: string;
  /** The reads, as recorded, not yet put in the run's record: whoever records them first empties the list. */
  unrecorded: Exchange[];
}

/** The waits between reads of a target that may be restarting: about five seconds in all. */
export const RESTART_WAITS_MS: readonly number[] = [250, 750, 1500, 2500];

/** A gateway whose application does not answer (yet): 502 Bad Gateway, 503 Service Unavailable, 504 Gateway Timeout. */
const GATEWAY_WITHOUT_APPLICATION = [502, 503, 504];

/** The seconds the first `n` waits add up to. */
function waited(waits: readonly number[], n: number): number {
  return waits.slice(0, n).reduce((a, b) => a + b, 0) / 1000;
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

/** The liveness reads of one transport: one at a time, shared by the requests that got no answer meanwhile. */
export class LivenessProbe {
  #pending: Promise<Liveness> | undefined;

  constructor(
    private readonly read: (url: string) => Promise<LivenessRead>,
    private readonly wait: (ms: number) => Promise<void> = sleep,
  ) {}

  /**
   * Whether the target answers a read of `url`. `mayRestart`: it answered before, so a refusal, a reset or a gateway's
   * 502–504 is read again after each of RESTART_WAITS_MS before it counts as gone.
   */
  check(url: string, mayRestart: boolean): Promise<Liveness> {
    this.#pending ??= this.#probe(url, mayRestart).finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  async #probe(url: string, mayRestart: boolean): Promise<Liveness> {
    const unrecorded: Exchange[] = [];
    const waits = mayRestart ? RESTART_WAITS_MS : [];
    const what = `GET ${pathOf(url)} with no credential`;
    for (let n = 0; ; n++) {
      const r = await this.read(url);
      unrecorded.push(r.exchange);
      const again = n < waits.length;
      if ('status' in r) {
        const alive = !GATEWAY_WITHOUT_APPLICATION.includes(r.status);
        if (alive || !again) return { alive, said: `${what}: HTTP ${r.status}`, unrecorded };
      } else if (!again || r.error.code === 'SC_TARGET_TIMEOUT') {
        const reads = n > 0 ? ` in ${n + 1} reads over ${waited(waits, n)} s, the last` : '';
        return { alive: false, said: `${what}: no answer${reads} (${r.error.message})`, unrecorded };
      }
      await this.wait(waits[n]!);
    }
  }
}
