/**
 * Stryker's test runner for screenconf: the "test" of a mutant is one conformance run (`screenconf
 * run --seed S --runs R`) against the embedded reference server, built from the sandbox's mutated
 * sources, in this worker process (the runner starts the embedded server in its own process).
 *
 * One process runs mutant after mutant: the sources are loaded once, and each run sets the active
 * mutant (Stryker's mutation switching puts every mutant in the code at once). The dry run reports
 * which mutants the unmutated run executes (Stryker's coverage): those it never executes are known
 * as not covered without a run, and those executed while the modules load are static: this runner
 * cannot reload modules (capabilities), so Stryker gives each static mutant a fresh process, where
 * it is switched on before anything loads. How a run becomes a verdict: classify.ts.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { MutantCoverage, StrykerOptions } from '@stryker-mutator/api/core';
import type { Logger } from '@stryker-mutator/api/logging';
import { commonTokens, declareClassPlugin, PluginKind, tokens } from '@stryker-mutator/api/plugin';
import {
  type DryRunOptions,
  type DryRunResult,
  DryRunStatus,
  type MutantRunOptions,
  type MutantRunResult,
  MutantRunStatus,
  type TestRunner,
  type TestRunnerCapabilities,
  TestStatus,
} from '@stryker-mutator/api/test-runner';
import { type Judgement, judgeMutant, type RunOutcome } from './classify.ts';
import { RESERVE_MS, type RunnerSettings } from './settings.ts';

/** The one "test": a whole conformance run. */
const TEST_ID = 'conformance';

/** Stryker's namespace in globalThis, which the instrumented code reads and writes. */
interface StrykerGlobal {
  activeMutant?: string | undefined;
  currentTestId?: string | undefined;
  mutantCoverage?: MutantCoverage;
  hitCount?: number | undefined;
  hitLimit?: number | undefined;
}

function strykerGlobal(): StrykerGlobal {
  const g = globalThis as { __stryker__?: StrykerGlobal };
  g.__stryker__ ??= {};
  return g.__stryker__;
}

type Main = (argv: string[], io: object) => Promise<number>;

/** The arguments of one conformance run. */
export function runArgs(settings: RunnerSettings, reportDir: string, deadlineMs: number): string[] {
  return [
    'run',
    '--quiet',
    '--seed',
    String(settings.seed),
    '--runs',
    String(settings.runs),
    '--report-dir',
    reportDir,
    '--deadline-ms',
    String(Math.round(deadlineMs)),
  ];
}

/** The environment of a run: this one without SCREENCONF_* settings (a developer's would change the run). */
export function runEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(base).filter(([k]) => !k.startsWith('SCREENCONF_') && k !== '__STRYKER_ACTIVE_MUTANT__'),
  );
}

interface ReportSummary {
  verdict?: RunOutcome['verdict'];
  mustNotJudged?: string[];
  harnessFaults?: string[];
  suiteErrors?: string[];
}

/** A run's outcome from its exit status, its report folder and the lines it printed. */
export function readOutcome(
  status: number,
  ms: number,
  reportDir: string,
  lines: string[],
  crashes: string[] = [],
): RunOutcome {
  let summary: ReportSummary = {};
  let results: { id: string; level: string; verdict: string }[] = [];
  try {
    const report = JSON.parse(readFileSync(join(realpathSync(join(reportDir, 'latest')), 'conformance.json'), 'utf8'));
    summary = report.summary ?? {};
    results = report.results ?? [];
  } catch {
    // No report: the run ended before writing one (its last lines say why).
  }
  const ids = (verdict: string) => results.filter((r) => r.verdict === verdict).map((r) => r.id);
  const deadline = lines.some((l) => l.includes('SC_DEADLINE') || /the run deadline of \d+ ms passed/.test(l));
  return {
    status,
    ms,
    verdict: summary.verdict,
    failed: ids('fail'),
    warned: ids('warn'),
    notJudged: summary.mustNotJudged ?? [],
    faults: [
      ...(summary.harnessFaults ?? []),
      ...(summary.suiteErrors ?? []),
      ...(results.length ? [] : lines.slice(-1)),
    ],
    deadline,
    crashes,
  };
}

export class ScreenconfTestRunner implements TestRunner {
  static inject = tokens(commonTokens.logger, commonTokens.options);
  readonly #settings: RunnerSettings;
  #main: Main | undefined;

  constructor(
    private readonly log: Logger,
    options: StrykerOptions,
  ) {
    this.#settings = (options as StrykerOptions & { screenconf: RunnerSettings }).screenconf;
  }

  capabilities(): TestRunnerCapabilities {
    // Modules loaded by import() stay loaded: a static mutant needs a new process, which Stryker makes.
    return { reloadEnvironment: false };
  }

  /** Loads the CLI, the runner and every reference-server module: what loading executes is static coverage. */
  async #load(): Promise<Main> {
    if (this.#main) return this.#main;
    const root = process.cwd();
    const reference = join(root, 'src/reference');
    const modules = readdirSync(reference, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    for (const m of modules) await import(pathToFileURL(join(reference, m)).href);
    await import(pathToFileURL(join(root, 'src/commands/run.ts')).href);
    const { main } = (await import(pathToFileURL(join(root, 'src/cli.ts')).href)) as { main: Main };
    this.#main = main;
    return main;
  }

  /** One conformance run in this process, with whatever mutant is active. */
  async #run(deadlineMs: number): Promise<RunOutcome> {
    const main = await this.#load();
    const dir = mkdtempSync(join(tmpdir(), 'screenconf-mutant-'));
    const lines: string[] = [];
    const crashes: string[] = [];
    const crashed = (e: unknown) =>
      crashes.push(
        String((e as Error)?.stack ?? e)
          .split('\n', 2)
          .join(' | '),
      );
    process.on('uncaughtException', crashed);
    process.on('unhandledRejection', crashed);
    // vitest's own handler of an unhandled rejection in this process prints it and exits: in a real run
    // that ends the run (the server's crash); here it would end the worker. The crash is recorded above.
    const exit = process.exit;
    process.exit = ((code?: number) => {
      crashes.push(`the run's process was made to exit (status ${code ?? process.exitCode ?? 0})`);
    }) as typeof process.exit;
    const began = performance.now();
    try {
      const status = await main(runArgs(this.#settings, dir, deadlineMs), {
        out: (...l: string[]) => lines.push(...l),
        err: (l: string) => lines.push(l),
        env: runEnv(),
        cwd: dir,
        stopSignal: new Promise(() => {}),
        isTTY: false,
      });
      return readOutcome(status, performance.now() - began, dir, lines, crashes);
    } finally {
      process.exit = exit;
      process.off('uncaughtException', crashed);
      process.off('unhandledRejection', crashed);
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /** The same run in a new process of the sandbox with no mutant active (a static mutant is loaded in this one). */
  #runElsewhere(deadlineMs: number): Promise<RunOutcome> {
    const dir = mkdtempSync(join(tmpdir(), 'screenconf-control-'));
    const began = performance.now();
    return new Promise<RunOutcome>((done, fail) => {
      const child = spawn(process.execPath, ['bin/screenconf.js', ...runArgs(this.#settings, dir, deadlineMs)], {
        cwd: process.cwd(),
        env: runEnv(),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let text = '';
      child.stdout.on('data', (d) => (text += d));
      child.stderr.on('data', (d) => (text += d));
      child.on('error', fail);
      child.on('close', (status) => {
        done(readOutcome(status ?? -1, performance.now() - began, dir, text.trimEnd().split('\n')));
        rmSync(dir, { recursive: true, force: true });
      });
    });
  }

  async dryRun(options: DryRunOptions): Promise<DryRunResult> {
    const ns = strykerGlobal();
    ns.activeMutant = undefined;
    await this.#load();
    ns.currentTestId = TEST_ID;
    let run: RunOutcome;
    try {
      run = await this.#run(options.timeout - RESERVE_MS);
    } finally {
      ns.currentTestId = undefined;
    }
    this.#record({ dryRun: true, status: run.status, verdict: run.verdict, ms: Math.round(run.ms) });
    if (run.status !== 0 || run.verdict !== 'conforming' || run.crashes.length > 0) {
      const why = run.failed.length ? `NOT CONFORMING: ${run.failed.join(', ')}` : (run.faults[0] ?? run.crashes[0]);
      return {
        status: DryRunStatus.Complete,
        tests: [
          {
            id: TEST_ID,
            name: this.#name(),
            status: TestStatus.Failed,
            timeSpentMs: run.ms,
            failureMessage: `the unmutated server's run was not CONFORMING (exit ${run.status}): ${why}`,
          },
        ],
      };
    }
    return {
      status: DryRunStatus.Complete,
      tests: [{ id: TEST_ID, name: this.#name(), status: TestStatus.Success, timeSpentMs: run.ms }],
      ...(options.coverageAnalysis === 'off'
        ? {}
        : { mutantCoverage: ns.mutantCoverage ?? { static: {}, perTest: {} } }),
    };
  }

  async mutantRun(options: MutantRunOptions): Promise<MutantRunResult> {
    const ns = strykerGlobal();
    const id = options.activeMutant.id;
    // A static mutant is on while the modules load (this process is new for it); any other, once they are loaded.
    if (options.mutantActivation === 'static') ns.activeMutant = id;
    await this.#load();
    ns.activeMutant = id;
    // The deadline of each run: a third of Stryker's timeout, less a reserve, so the mutant's run, a
    // control and a second run all fit within it (Stryker's own timeout then only meets a blocked loop).
    const deadlineMs = (options.timeout - RESERVE_MS) / 3;
    const withMutant = async () => {
      ns.activeMutant = id;
      ns.hitCount = options.hitLimit === undefined ? undefined : 0;
      ns.hitLimit = options.hitLimit;
      const run = await this.#run(deadlineMs);
      if (ns.hitCount !== undefined && ns.hitLimit !== undefined && ns.hitCount > ns.hitLimit) {
        run.hitLimit = `the mutant ran ${ns.hitCount} times, over its hit limit (100 times the unmutated run's)`;
      }
      ns.hitCount = undefined;
      ns.hitLimit = undefined;
      return run;
    };
    let runs = 0;
    const first = await withMutant();
    runs++;
    const judgement = await judgeMutant(first, {
      control: async () => {
        runs++;
        if (options.mutantActivation === 'static') return this.#runElsewhere(deadlineMs);
        ns.activeMutant = undefined;
        try {
          return await this.#run(deadlineMs);
        } finally {
          ns.activeMutant = id;
        }
      },
      again: async () => {
        runs++;
        return withMutant();
      },
    });
    this.#record({
      id,
      file: options.activeMutant.fileName,
      mutator: options.activeMutant.mutatorName,
      static: options.mutantActivation === 'static',
      ...judgement,
      ms: Math.round(first.ms),
      runs,
    });
    if (judgement.status !== 'survived') this.log.debug(`mutant ${id}: ${judgement.status}: ${judgement.reason}`);
    return toStryker(judgement);
  }

  #name(): string {
    return `screenconf run --seed ${this.#settings.seed} --runs ${this.#settings.runs}`;
  }

  /** One line per run in the campaign's record (per-mutant times and reasons the tool's report leaves out). */
  #record(entry: object): void {
    if (!this.#settings.recordDir) return;
    appendFileSync(
      resolve(this.#settings.recordDir, `runs-${process.pid}.jsonl`),
      `${JSON.stringify({ at: new Date().toISOString(), ...entry })}\n`,
    );
  }
}

/** A judgement in Stryker's terms. */
export function toStryker(j: Judgement): MutantRunResult {
  switch (j.status) {
    case 'killed':
      return { status: MutantRunStatus.Killed, killedBy: [TEST_ID], failureMessage: j.reason, nrOfTests: 1 };
    case 'survived':
      return { status: MutantRunStatus.Survived, nrOfTests: 1 };
    case 'timeout':
      return { status: MutantRunStatus.Timeout, reason: j.reason };
    case 'error':
      return { status: MutantRunStatus.Error, errorMessage: j.reason };
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.TestRunner, 'screenconf', ScreenconfTestRunner)];

/** The runner's own options, so Stryker checks them rather than warning of an unknown key. */
export const strykerValidationSchema = {
  $schema: 'http://json-schema.org/draft-07/schema',
  type: 'object',
  properties: {
    screenconf: {
      type: 'object',
      properties: {
        seed: { type: 'integer' },
        runs: { type: 'integer', minimum: 1 },
        recordDir: { type: 'string' },
      },
      required: ['seed', 'runs'],
      additionalProperties: false,
    },
  },
};
