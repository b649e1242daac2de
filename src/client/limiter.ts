/**
 * What bounds the load a run puts on its target: at most `concurrency` requests in flight and
 * at most `maxRps` requests started per second (a token bucket holding one second's worth).
 * Zero means unbounded. One limiter per Transport, so every request passes through it.
 */
export interface LimiterOptions {
  concurrency: number;
  maxRps: number;
}

export class Limiter {
  #inFlight = 0;
  readonly #waiting: (() => void)[] = [];
  #tokens: number;
  #refilledAt: number;
  #rateQueue: Promise<void> = Promise.resolve();

  constructor(
    readonly options: LimiterOptions,
    private readonly now: () => number = Date.now,
  ) {
    this.#tokens = Math.max(1, options.maxRps);
    this.#refilledAt = now();
  }

  #pausedUntil = 0;

  /**
   * Holds every request not yet started until `ms` from now: a target that answered 429 asked for
   * a pause, and the requests behind the throttled one would only be throttled too.
   */
  pause(ms: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, this.now() + ms);
  }

  /**
   * A slot at once, without acquire()'s awaits, when nothing bounds or pauses requests (an embedded target's
   * run); undefined when acquire() is needed.
   */
  acquireNow(): (() => void) | undefined {
    if (this.options.concurrency > 0 || this.options.maxRps > 0) return undefined;
    if (this.#pausedUntil !== 0 && this.#pausedUntil > this.now()) return undefined;
    return nothingToRelease;
  }

  /**
   * Waits for a slot and a rate token; returns the function that frees the slot. Once `stopping()`
   * says so, a waiting request is not paced any longer: it gets its turn at once, to be refused.
   */
  async acquire(stopping: () => boolean = () => false): Promise<() => void> {
    for (let wait = this.#pausedUntil - this.now(); wait > 0 && !stopping(); wait = this.#pausedUntil - this.now())
      await sleep(Math.min(wait, 250));
    await this.#slot();
    try {
      await this.#rateToken(stopping);
    } catch (err) {
      this.#release();
      throw err;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#release();
    };
  }

  async #slot(): Promise<void> {
    if (this.options.concurrency <= 0) return;
    if (this.#inFlight < this.options.concurrency) {
      this.#inFlight += 1;
      return;
    }
    // The releasing request hands its slot over directly, so the count stays exact.
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  #release(): void {
    if (this.options.concurrency <= 0) return;
    const next = this.#waiting.shift();
    if (next) next();
    else this.#inFlight -= 1;
  }

  /** Token bucket; callers queue in order so none starves. */
  #rateToken(stopping: () => boolean): Promise<void> {
    const rps = this.options.maxRps;
    if (rps <= 0) return Promise.resolve();
    const turn = this.#rateQueue.then(async () => {
      const capacity = Math.max(1, rps);
      for (;;) {
        if (stopping()) return;
        const now = this.now();
        this.#tokens = Math.min(capacity, this.#tokens + ((now - this.#refilledAt) / 1000) * rps);
        this.#refilledAt = now;
        if (this.#tokens >= 1) {
          this.#tokens -= 1;
          return;
        }
        await sleep(Math.min(250, Math.ceil(((1 - this.#tokens) / rps) * 1000)));
      }
    });
    this.#rateQueue = turn;
    return turn;
  }
}

function nothingToRelease(): void {}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
