/** What stops a run early, shared by the targets of a run: a signal, or the run deadline. */
import type { Interruption } from '../results/report.ts';

export class Stopper {
  interruption: Interruption | undefined;
  readonly whenStopped: Promise<void>;
  #stopped!: () => void;
  #cancel: () => void = () => {};

  constructor() {
    this.whenStopped = new Promise<void>((r) => (this.#stopped = r));
  }

  request(why: Interruption): void {
    if (this.interruption) return;
    this.interruption = why;
    this.#stopped();
    this.#cancel();
  }

  /** The current vitest run is what a stop cancels. */
  set cancel(fn: () => void) {
    this.#cancel = fn;
    if (this.interruption) fn();
  }

  /** Why the run stopped, in words, when it did. */
  why(deadlineMs: number | undefined): string | undefined {
    if (this.interruption === 'deadline') return `the run deadline of ${deadlineMs} ms passed`;
    return this.interruption ? `the run was interrupted by ${this.interruption}` : undefined;
  }
}
