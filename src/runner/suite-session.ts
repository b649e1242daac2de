/**
 * A vitest session for the suites: one `createVitest`, then one run of the selected suite files per
 * conformance run, each with its own run context (vitest's provide), reporters, output and name
 * filter. `screenconf run` opens one for its run and closes it (cold, as vitest's own forks pool
 * runs); the in-process API (tests, replays, campaigns, the mutation runner) keeps sessions in a
 * `SuiteSessions` and reuses them, warm: vitest and its transformed modules stay, and the worker
 * processes are parked between runs (warm-pool.ts), so a run after the first pays only its own work.
 */
import { resolve } from 'node:path';
import { Writable } from 'node:stream';
import { createVitest, type Reporter, type TestSpecification, type Vitest } from 'vitest/node';
import type { RunContext } from '../kit/context.ts';
import { CODE_EXT, CODE_ROOT } from '../version.ts';
import { moduleCacheDir } from './module-cache.ts';
import { endParkedWorkers, warmPool } from './warm-pool.ts';

/** The package's entry points (package.json `exports`), as the run's own files. */
const LIBRARY_ALIASES = [
  { find: /^screenconf$/, replacement: resolve(CODE_ROOT, `src/index${CODE_EXT}`) },
  { find: /^screenconf\/arbitraries$/, replacement: resolve(CODE_ROOT, `src/arbitraries/index${CODE_EXT}`) },
];

/** How many checks of a file declared concurrent run at once (the webhooks suite has 14). */
const CONCURRENT_CHECKS = 32;

/** What a session's vitest is created with: runs of one shape share a session. */
export interface SessionShape {
  /** Worker processes (each runs one suite file at a time). */
  workers: number;
  /** --shard I/N: vitest's own sharding of the suite files. */
  shard?: { index: number; count: number } | undefined;
  /** --suites-dir: the user's suite files. */
  userFiles: readonly string[];
}

/** One run of a session. */
export interface SessionRun {
  /** The suite files to run (paths relative to the code root, or the user's absolute paths). */
  files: readonly string[];
  context: RunContext;
  reporters: readonly Reporter[];
  /** vitest's own lines (its logger's standard output), one at a time. */
  out: (line: string) => void;
  /** Only the checks of this name pattern run (`screenconf replay`, --check). */
  namePattern?: RegExp | undefined;
}

const key = (shape: SessionShape): string =>
  JSON.stringify([shape.workers, shape.shard ?? null, [...shape.userFiles].sort()]);

export class SuiteSession {
  readonly key: string;
  #current: SessionRun | undefined;

  private constructor(
    readonly vitest: Vitest,
    shape: SessionShape,
    readonly warm: boolean,
    private readonly forward: { run: SessionRun | undefined },
  ) {
    this.key = key(shape);
  }

  /** A new session; `warm` parks its worker processes between runs instead of ending them. */
  static async open(shape: SessionShape, warm: boolean): Promise<SuiteSession> {
    const forward: { run: SessionRun | undefined } = { run: undefined };
    const cacheDir = moduleCacheDir();
    const vitest = await withoutVitestSignalHandlers(() =>
      createVitest(
        'test',
        {
          // The checkout's TypeScript, or the installed package's compiled dist/ (CODE_ROOT, CODE_EXT).
          root: CODE_ROOT,
          config: false,
          include: [`suites/**/*.test${CODE_EXT}`, ...shape.userFiles],
          setupFiles: [`src/runner/worker-setup${CODE_EXT}`, `src/kit/setup${CODE_EXT}`].map((f) =>
            resolve(CODE_ROOT, f),
          ),
          reporters: [forwardingReporter(forward)],
          watch: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
          maxWorkers: shape.workers,
          // The webhooks suite's checks wait side by side (deliveries, quiet periods), each on cases of its own: all
          // at once, not vitest's default of five at a time, where the last to start waited for the first to end.
          // Requests stay bounded by the load limiter.
          maxConcurrency: CONCURRENT_CHECKS,
          retry: 1,
          isolate: false,
          passWithNoTests: false,
          ...(warm ? { pool: warmPool } : {}),
          // Transformed modules kept between runs (module-cache.ts); the same modules either way.
          ...(cacheDir ? { experimental: { fsModuleCache: true, fsModuleCachePath: cacheDir } } : {}),
          ...(shape.shard ? { shard: `${shape.shard.index}/${shape.shard.count}` } : {}),
        },
        // A user's suite file imports from 'screenconf': the kit this run's workers are set up with, in a
        // checkout too (one module instance: the harness the setup files prepare is the one check() reads).
        { logLevel: 'error', resolve: { alias: LIBRARY_ALIASES } },
        // vitest's own console lines ("JUNIT report written to …") are noise beside the summary.
        { stdout: vitestStdout((line) => forward.run?.out(line)) },
      ),
    );
    return new SuiteSession(vitest, shape, warm, forward);
  }

  /** The test specifications of these suite files. */
  specifications(files: readonly string[]): Promise<TestSpecification[]> {
    return this.vitest.globTestSpecifications([...files]);
  }

  /**
   * One run: its context provided, its reporters and output attached, its files run. Rejects with vitest's error
   * when the run itself failed (not a check).
   */
  async run(run: SessionRun): Promise<void> {
    if (this.#current) throw new Error('screenconf: a suite session runs one run at a time');
    this.#current = run;
    this.forward.run = run;
    this.#forgetRunsBefore();
    try {
      this.vitest.provide('screenconf', run.context);
      if (run.namePattern) this.vitest.setGlobalTestNamePattern(run.namePattern);
      else this.vitest.resetGlobalTestNamePattern();
      const specs = await this.specifications(run.files);
      if (!specs.length) throw new Error(`No test files found: ${run.files.join(', ')}`);
      await this.vitest.runTestSpecifications(specs, true);
    } finally {
      this.forward.run = undefined;
      this.#current = undefined;
    }
  }

  /**
   * A run of a session starts from no tests known, as a new vitest does: vitest's state keeps every run's tests
   * (and would answer each run's reporters and failure counts with those of the runs before).
   */
  #forgetRunsBefore(): void {
    const { state } = this.vitest;
    state.filesMap.clear();
    state.idMap.clear();
    state.pathsSet.clear();
    state.clearErrors();
  }

  /** Cancels the run in progress (its checks in flight are aborted; nothing more starts). */
  cancel(reason: 'keyboard-input' | 'test-failure' = 'keyboard-input'): void {
    void this.vitest.cancelCurrentRun(reason).catch(() => {});
  }

  async close(): Promise<void> {
    await this.vitest.close();
  }
}

/**
 * Warm sessions for whoever runs many runs in one process (tests, replays, campaigns, the mutation runner): a run
 * takes an idle session of its shape, or opens one; runs at the same time take different sessions.
 */
export class SuiteSessions {
  #idle: SuiteSession[] = [];
  #closed = false;

  /** Runs `fn` on a session of this shape, idle or new; the session is idle again after. */
  async use<T>(shape: SessionShape, fn: (session: SuiteSession) => Promise<T>): Promise<T> {
    const at = this.#idle.findIndex((s) => s.key === key(shape));
    const session = at >= 0 ? this.#idle.splice(at, 1)[0]! : await SuiteSession.open(shape, true);
    try {
      return await fn(session);
    } finally {
      if (this.#closed) await session.close();
      else this.#idle.push(session);
    }
  }

  /** Closes every idle session and ends the parked worker processes. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(this.#idle.splice(0).map((s) => s.close()));
    endParkedWorkers();
  }
}

/** A reporter that hands each of vitest's events to the reporters of the run in progress. */
function forwardingReporter(forward: { run: SessionRun | undefined }): Reporter {
  return new Proxy({} as Reporter, {
    get(_target, name) {
      const reporters = forward.run?.reporters ?? [];
      const hooks = reporters.filter((r) => typeof (r as Record<PropertyKey, unknown>)[name] === 'function');
      if (!hooks.length) return undefined;
      return (...args: unknown[]) =>
        Promise.all(
          hooks.map((r) => (r as unknown as Record<PropertyKey, (...a: unknown[]) => unknown>)[name]!(...args)),
        );
    },
  });
}

/**
 * vitest stops the process on SIGINT/SIGTERM by itself; the runner handles those to clean up first.
 * Its handlers are removed as they are added (before a signal can reach them: a signal arrives
 * from the event loop, the removal is a microtask), so a signal during createVitest is ours too.
 */
function withoutVitestSignalHandlers<T>(create: () => Promise<T>): Promise<T> {
  const before = { SIGINT: new Set(process.listeners('SIGINT')), SIGTERM: new Set(process.listeners('SIGTERM')) };
  const drop = (event: string | symbol, listener: (...args: unknown[]) => void) => {
    if (event === 'SIGINT' || event === 'SIGTERM') queueMicrotask(() => process.off(event, listener));
  };
  process.on('newListener', drop);
  return create().finally(() => {
    process.off('newListener', drop);
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      for (const l of process.listeners(signal)) if (!before[signal].has(l)) process.off(signal, l);
    }
  });
}

/**
 * What vitest's logger writes to standard output, line by line: a "JUNIT report written to …" is
 * dropped (the report folder is printed at the start and the end); anything else goes to the run's
 * output. Not a terminal, so vitest does not hide the cursor.
 */
export function vitestStdout(out: (line: string) => void): Writable {
  let pending = '';
  const emit = (line: string) => {
    if (line.trim() !== '' && !/^JUNIT report written to /.test(line)) out(line);
  };
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      const lines = (pending + chunk.toString()).split('\n');
      pending = lines.pop()!;
      for (const line of lines) emit(line);
      done();
    },
    final(done) {
      emit(pending);
      pending = '';
      done();
    },
  });
}
