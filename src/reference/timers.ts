/** The reference server's timers: all of them stop when the server closes. */
export class Timers {
  readonly #pending = new Set<NodeJS.Timeout>();
  #closed = false;

  /** Whether the server has closed (no timer runs any more). */
  get closed(): boolean {
    return this.#closed;
  }

  /** Runs `fn` after `ms`, unless the server closes first. */
  later(ms: number, fn: () => void) {
    if (this.#closed) return;
    const t = setTimeout(() => {
      this.#pending.delete(t);
      if (!this.#closed) fn();
    }, ms);
    this.#pending.add(t);
  }

  /** Settles after `ms`; never, when the server closes first (the work waiting on it is abandoned). */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.later(ms, resolve));
  }

  /** Stops every timer. */
  close() {
    this.#closed = true;
    for (const t of this.#pending) clearTimeout(t);
    this.#pending.clear();
  }
}
