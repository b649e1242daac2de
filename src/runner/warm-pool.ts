/**
 * vitest's pool of worker processes, kept warm between runs (vitest's custom pool API). vitest ends
 * its workers at the end of every run; a worker of this pool is parked instead, when its run
 * stopped it cleanly, and the next run of any session in this process takes it up again: no process
 * start, and the modules it evaluated (the kit, the client, zod, fast-check, faker) stay evaluated.
 * The child side is warm-worker.mjs. The command line does not use it (`screenconf run` starts one
 * vitest and ends); the in-process sessions of suite-session.ts do.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { PoolOptions, PoolRunnerInitializer, PoolWorker } from 'vitest/node';

export const WARM_POOL = 'screenconf-warm';

/** The child's entry: plain JavaScript beside this module (the build copies it to dist/). */
const ENTRY = fileURLToPath(new URL('./warm-worker.mjs', import.meta.url));

/** How many idle workers stay parked at most, and how many runs one serves before it is retired (its heap bounded). */
const MAX_PARKED = 8;
const MAX_SESSIONS = 60;

interface Parked {
  child: ChildProcess;
  key: string;
}
const parked: Parked[] = [];
const sessions = new WeakMap<ChildProcess, number>();

/** Workers started with other arguments or another environment are not interchangeable. */
function keyOf(o: PoolOptions): string {
  return JSON.stringify([o.execArgv, Object.entries(o.env).sort()]);
}

function alive(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null && child.connected;
}

function take(key: string): ChildProcess | undefined {
  for (let i = 0; i < parked.length; i++) {
    const p = parked[i]!;
    if (p.key !== key || !alive(p.child)) continue;
    parked.splice(i, 1);
    return p.child;
  }
  return undefined;
}

function park(key: string, child: ChildProcess): void {
  // Idle, a parked worker does not keep this process alive; its own ends when this one's channel closes.
  child.unref();
  child.channel?.unref();
  parked.push({ child, key });
  while (parked.length > MAX_PARKED) parked.shift()!.child.kill();
}

/** A new worker: once it exits, it is no longer parked (one listener for its whole life). */
function started(child: ChildProcess): ChildProcess {
  child.once('exit', () => {
    const at = parked.findIndex((p) => p.child === child);
    if (at >= 0) parked.splice(at, 1);
  });
  return child;
}

/** Ends every parked worker (a session pool's close; the process's exit ends them too). */
export function endParkedWorkers(): void {
  for (const p of parked.splice(0)) p.child.kill();
}

/** One vitest worker of a run, on a parked process when one is free. */
class WarmWorker implements PoolWorker {
  readonly name = WARM_POOL;
  readonly cacheFs = true;
  #child: ChildProcess | undefined;
  #listeners: [string, (arg: unknown) => void][] = [];
  /** Whether the child answered "stopped" to this run's "stop": only then is it idle and can be parked. */
  #stopped = false;
  readonly #key: string;

  constructor(private readonly options: PoolOptions) {
    this.#key = keyOf(options);
  }

  get #logger() {
    return this.options.project.vitest.logger;
  }

  async start(): Promise<void> {
    if (this.#child) return;
    const child =
      take(this.#key) ??
      started(
        fork(ENTRY, [], {
          env: this.options.env,
          execArgv: this.options.execArgv,
          stdio: 'pipe',
          serialization: 'advanced',
        }),
      );
    child.ref();
    child.channel?.ref();
    sessions.set(child, (sessions.get(child) ?? 0) + 1);
    child.stdout?.pipe(this.#logger.outputStream, { end: false });
    child.stderr?.pipe(this.#logger.errorStream, { end: false });
    this.#child = child;
    this.#stopped = false;
    this.on('message', this.#watchStopped);
  }

  #watchStopped = (message: unknown) => {
    const m = message as { __vitest_worker_response__?: boolean; type?: string } | undefined;
    if (m?.__vitest_worker_response__ && m.type === 'stopped') this.#stopped = true;
  };

  get #fork(): ChildProcess {
    if (!this.#child)
      throw new Error('screenconf warm pool: the worker was used before it started or after it stopped');
    return this.#child;
  }

  on(event: string, callback: (arg: unknown) => void): void {
    this.#fork.on(event, callback);
    this.#listeners.push([event, callback]);
  }

  off(event: string, callback: (arg: unknown) => void): void {
    this.#fork.off(event, callback);
    this.#listeners = this.#listeners.filter(([e, c]) => e !== event || c !== callback);
  }

  send(message: unknown): void {
    this.#fork.send(message as Parameters<ChildProcess['send']>[0]);
  }

  deserialize(data: unknown): unknown {
    return data;
  }

  async stop(): Promise<void> {
    const child = this.#child;
    if (!child) return;
    this.#child = undefined;
    for (const [event, callback] of this.#listeners) child.off(event, callback);
    this.#listeners = [];
    child.stdout?.unpipe(this.#logger.outputStream);
    child.stderr?.unpipe(this.#logger.errorStream);
    // A run cancelled or a worker that failed is not known to be idle: it ends, as vitest ends its own.
    if (this.#stopped && alive(child) && (sessions.get(child) ?? 0) < MAX_SESSIONS) {
      park(this.#key, child);
      return;
    }
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
      child.kill();
    });
  }
}

/** The pool as vitest's `pool` option takes it. */
export const warmPool: PoolRunnerInitializer = {
  name: WARM_POOL,
  createPoolWorker: (options) => new WarmWorker(options),
};
