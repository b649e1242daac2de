/**
 * The suites stage of a run: vitest started on suites/, with the run context provided to the
 * workers, the collector as reporter, cancellation on a stop, and vitest's own noise kept out
 * of the console.
 */
import { resolve } from 'node:path';
import { Writable } from 'node:stream';
import { createVitest, type Vitest } from 'vitest/node';
import { sleep } from '../client/limiter.ts';
import type { Redactor } from '../base/redact.ts';
import type { RunContext } from '../kit/context.ts';
import { CODE_EXT, CODE_ROOT } from '../version.ts';
import { suiteName } from '../base/suite-file.ts';
import type { OutcomeCollector } from './collect.ts';
import { moduleCacheDir } from './module-cache.ts';
import type { Progress } from './progress.ts';
import type { Stopper } from './stopper.ts';
import type { UserSuite } from './user-suites.ts';

/** The package's entry points (package.json `exports`), as the run's own files. */
const LIBRARY_ALIASES = [
  { find: /^screenconf$/, replacement: resolve(CODE_ROOT, `src/index${CODE_EXT}`) },
  { find: /^screenconf\/arbitraries$/, replacement: resolve(CODE_ROOT, `src/arbitraries/index${CODE_EXT}`) },
];

/** After a stop, how long the checks in flight get to finish before cleanup goes ahead. */
const STOP_GRACE_MS = 10_000;

export interface SuitesStage {
  suites: readonly string[];
  /** --suites-dir: the user's suite files, run beside the suites selected (their names are in `suites` too). */
  userSuites?: readonly UserSuite[] | undefined;
  context: RunContext;
  collector: OutcomeCollector;
  /** Live progress (a reporter too). */
  progress: Progress;
  /** Worker processes (each runs one suite file at a time). */
  workers: number;
  /** --max-failures: vitest stops after this many failed checks. */
  bail?: number | undefined;
  /** --shard I/N: vitest's own sharding of the suite files. */
  shard?: { index: number; count: number } | undefined;
  /** `screenconf replay`: only the checks of these full names (`describe > test`) run. */
  checks?: readonly string[] | undefined;
  stopper: Stopper;
  redactor: Redactor;
  out: (line: string) => void;
}

/** What the suites stage ended with. */
export interface SuitesRun {
  /** The errors of the run itself (not of a check), redacted, one line each. */
  errors: string[];
  /** The suites this run was given: all those selected, or its shard's part of them. */
  suites: string[];
}

/** How many checks of a file declared concurrent run at once (the webhooks suite has 14). */
const CONCURRENT_CHECKS = 32;

/** Runs the suites (its shard's part of them with --shard). */
export async function runSuites(stage: SuitesStage): Promise<SuitesRun> {
  const { stopper, redactor } = stage;
  const runErrors: string[] = [];
  const userFiles = (stage.userSuites ?? []).map((s) => s.file);
  const userNames = new Set((stage.userSuites ?? []).map((s) => s.name));
  const cacheDir = moduleCacheDir();
  const vitest: Vitest = await withoutVitestSignalHandlers(() =>
    createVitest(
      'test',
      {
        // The checkout's TypeScript, or the installed package's compiled dist/ (CODE_ROOT, CODE_EXT).
        root: CODE_ROOT,
        config: false,
        include: [`suites/**/*.test${CODE_EXT}`, ...userFiles],
        setupFiles: [`src/runner/worker-setup${CODE_EXT}`, `src/kit/setup${CODE_EXT}`].map((f) =>
          resolve(CODE_ROOT, f),
        ),
        reporters: [stage.collector, stage.progress],
        provide: { screenconf: stage.context },
        watch: false,
        testTimeout: 120_000,
        hookTimeout: 120_000,
        maxWorkers: stage.workers,
        // The webhooks suite's checks wait side by side (deliveries, quiet periods), each on cases of its own: all
        // at once, not vitest's default of five at a time, where the last to start waited for the first to end.
        // Requests stay bounded by the load limiter.
        maxConcurrency: CONCURRENT_CHECKS,
        retry: 1,
        isolate: false,
        passWithNoTests: false,
        // Transformed modules kept between runs (module-cache.ts); the same modules either way.
        ...(cacheDir ? { experimental: { fsModuleCache: true, fsModuleCachePath: cacheDir } } : {}),
        ...(stage.bail ? { bail: stage.bail } : {}),
        ...(stage.shard ? { shard: `${stage.shard.index}/${stage.shard.count}` } : {}),
        ...(stage.checks ? { testNamePattern: namePattern(stage.checks) } : {}),
      },
      // A user's suite file imports from 'screenconf': the kit this run's workers are set up with, in a
      // checkout too (one module instance: the harness the setup files prepare is the one check() reads).
      { logLevel: 'error', resolve: { alias: LIBRARY_ALIASES } },
      // vitest's own console lines ("JUNIT report written to …") are noise beside the summary.
      { stdout: vitestStdout((line) => stage.out(redactor.redact(line))) },
    ),
  );
  const filters = [
    ...stage.suites.filter((s) => !userNames.has(s)).map((s) => `suites/${s}.test${CODE_EXT}`),
    ...userFiles,
  ];
  const suites = stage.shard ? await shardSuites(vitest, filters, stage.suites) : [...stage.suites];
  if (stage.shard) stage.out(`shard ${stage.shard.index}/${stage.shard.count}: ${suites.join(', ')}`);
  stopper.cancel = () => void vitest.cancelCurrentRun('keyboard-input').catch(() => {});
  const running = vitest.start(filters).catch((e: unknown) => {
    runErrors.push(redactor.redact(((e as Error)?.message ?? String(e)).split('\n')[0]!));
  });
  await Promise.race([running, stopper.whenStopped.then(() => sleep(STOP_GRACE_MS))]);
  await Promise.race([vitest.close(), sleep(5_000)]);
  stopper.cancel = () => {};
  process.exitCode = 0; // vitest sets it from test failures; the verdict decides
  return { errors: runErrors, suites };
}

/**
 * vitest's name filter for checks of these full names: vitest matches a test's names joined by blanks (`describe
 * test`), after the file's name when it counts it.
 */
export function namePattern(checks: readonly string[]): RegExp {
  const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?:^| )(?:${checks.map((c) => literal(c.split(' > ').join(' '))).join('|')})$`);
}

/** The suite files vitest's sequencer gives this shard (the same split vitest.start makes), in suite order. */
async function shardSuites(vitest: Vitest, filters: string[], selected: readonly string[]): Promise<string[]> {
  const specs = await vitest.globTestSpecifications(filters);
  const Sequencer = vitest.config.sequence.sequencer;
  const mine = new Set((await new Sequencer(vitest).shard(specs)).map((s) => suiteName(s.moduleId)));
  return selected.filter((s) => mine.has(s));
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
