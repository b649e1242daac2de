/**
 * The whole-exchange timeout of a Transport (connect to last byte) on one timer per timeout
 * length, instead of an AbortSignal.timeout per request: each of those is an EventTarget, a timer,
 * a weak reference and a finalizer, which cost more than the rest of a small exchange's bookkeeping.
 *
 * A deadline is a signal undici accepts (an EventEmitter with `aborted` and `reason`); it aborts
 * with the reason AbortSignal.timeout gives (a DOMException named TimeoutError), `ms` after it
 * started. Deadlines of one length expire in the order they start, so they wait in a list, oldest
 * first, and the one timer is set for the oldest.
 */
import { EventEmitter } from 'node:events';
import { performance } from 'node:perf_hooks';

export class Deadline extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;
  prev: Deadline | undefined = undefined;
  next: Deadline | undefined = undefined;
  #waiting = true;

  constructor(
    /** When it aborts, on performance.now()'s clock. */
    readonly at: number,
    private readonly list: Deadlines,
  ) {
    super();
  }

  /** The exchange ended (answered or failed): the deadline no longer applies. */
  end(): void {
    if (!this.#waiting) return;
    this.#waiting = false;
    this.list.remove(this);
  }
}

class Deadlines {
  #oldest: Deadline | undefined;
  #newest: Deadline | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(readonly ms: number) {}

  start(): Deadline {
    const d = new Deadline(performance.now() + this.ms, this);
    d.prev = this.#newest;
    if (this.#newest) this.#newest.next = d;
    else this.#oldest = d;
    this.#newest = d;
    this.#arm();
    return d;
  }

  remove(d: Deadline): void {
    if (d.prev) d.prev.next = d.next;
    else this.#oldest = d.next;
    if (d.next) d.next.prev = d.prev;
    else this.#newest = d.prev;
    d.prev = d.next = undefined;
    // The timer stays set: firing for a deadline that ended, it is set again for the oldest left.
  }

  #arm(): void {
    if (this.#timer || !this.#oldest) return;
    const wait = Math.max(1, Math.ceil(this.#oldest.at - performance.now()));
    // As AbortSignal.timeout's timer, it does not keep the process alive (a request's socket does).
    this.#timer = setTimeout(this.#fire, wait).unref();
  }

  readonly #fire = (): void => {
    this.#timer = undefined;
    const now = performance.now();
    for (let d = this.#oldest; d && d.at <= now; d = this.#oldest) {
      d.end();
      d.aborted = true;
      d.reason = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
      try {
        d.emit('abort');
      } catch (err) {
        // A listener that throws is an uncaught error, as from an AbortSignal; the other deadlines still abort.
        process.nextTick(() => {
          throw err;
        });
      }
    }
    this.#arm();
  };
}

const byLength = new Map<number, Deadlines>();

/** A deadline `ms` from now for one exchange, to end() when the exchange ends. */
export function startDeadline(ms: number): Deadline {
  let list = byLength.get(ms);
  if (!list) byLength.set(ms, (list = new Deadlines(ms)));
  return list.start();
}
