/**
 * Stryker's test runner for screenconf: the "tests" of a mutant are the checks of a conformance run
 * (`screenconf run --seed S --runs R`) against the embedded reference server, built from the sandbox's
 * mutated sources, in this worker process (the runner starts the embedded server in its own process).
 *
 * One process runs mutant after mutant: the sources are loaded once, and each run sets the active mutant
 * (Stryker's mutation switching puts every mutant in the code at once); the suites run in warm sessions
 * (src/runner/suite-session.ts), so a run pays only its own work. The dry run, a whole run, reports which
 * check executes which mutant (Stryker's per-test coverage): the server attributes its work to the check
 * whose request caused it (src/reference/attribution.ts), a suite file's hooks to the file, and what no
 * request caused (starting the server, the runner's own preflight and sweep) to the run as a whole. A mutant
 * then runs only the checks that execute it; one they let survive runs the whole run before it is called a
 * survivor (a check may judge what another one's request made). Mutants no run executes are known as not
 * covered without a run; those executed while the modules load are static: this runner cannot reload
 * modules (capabilities), so Stryker gives each static mutant a fresh process, where it is switched on
 * before anything loads, and a whole run. How a run becomes a verdict: classify.ts.
 */
import { spawn } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
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
import { type DryRunFacts, FACTS_FILE, RUN_TEST, type RunCheck, selectionArgs, testsOfRun } from './selection.ts';
import { DEADLINE_FACTOR, DEADLINE_FLOOR_MS, RESERVE_MS, type RunnerSettings } from './settings.ts';

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

/** The parts of the sandbox's code the runner uses: the CLI, warm sessions, and the server's attribution of work. */
interface Loaded {
  main: Main;
  sessions: { close(): Promise<void> };
  attribution: () => string | undefined;
  /** Ends the servers of this process as a crash of their process would (src/reference/attribution.ts). */
  crashServers: () => void;
}

/** The arguments of one conformance run. */
/**
 * The arguments of one conformance run. --strict: a SHOULD the mutant makes the server break is a deviation the run
 * reports, and it fails the run as a release gate with --strict does (the unmutated run warns of none). A mutant's
 * run (`firstFailure`) stops at its first failed check: one is enough to kill it.
 */
export function runArgs(
  settings: RunnerSettings,
  reportDir: string,
  deadlineMs: number,
  firstFailure = false,
): string[] {
  return [
    'run',
    '--quiet',
    '--strict',
    ...(firstFailure ? ['--max-failures', '1'] : []),
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
  mustNotJudged?: { id: string }[];
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
  let checks: RunCheck[] = [];
  try {
    const report = JSON.parse(readFileSync(join(realpathSync(join(reportDir, 'latest')), 'conformance.json'), 'utf8'));
    summary = report.summary ?? {};
    results = report.results ?? [];
    checks = report.checks ?? [];
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
    notJudged: (summary.mustNotJudged ?? []).map((m) => m.id),
    faults: [
      ...(summary.harnessFaults ?? []),
      ...(summary.suiteErrors ?? []),
      ...(results.length ? [] : lines.slice(-1)),
    ],
    deadline,
    crashes,
    checks,
  };
}

export class ScreenconfTestRunner implements TestRunner {
  static inject = tokens(commonTokens.logger, commonTokens.options);
  readonly #settings: RunnerSettings;
  #loaded: Loaded | undefined;
  /** While a run is in progress: the server's work then counts for a test (RUN_TEST when no check caused it). */
  #running = false;
  #facts: DryRunFacts | undefined;
  /**
   * The unmutated server's runs of a selection of checks (by its arguments) that were clean: the control a judgement
   * asks for is the same run each time, so it is made once per selection and process.
   */
  readonly #controls = new Map<string, RunOutcome>();

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

  /**
   * Loads the CLI, the runner and every reference-server module (what loading executes is static coverage), and
   * makes Stryker's current test the check the server's work is attributed to, while a run is in progress.
   */
  async #load(): Promise<Loaded> {
    if (this.#loaded) return this.#loaded;
    const root = process.cwd();
    const load = (file: string) => import(pathToFileURL(join(root, file)).href);
    const reference = join(root, 'src/reference');
    const modules = readdirSync(reference, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    for (const m of modules) await load(join('src/reference', m));
    const { attribution, crashServers } = (await load('src/reference/attribution.ts')) as Pick<
      Loaded,
      'attribution' | 'crashServers'
    >;
    await load('src/commands/run.ts');
    const { main } = (await load('src/cli.ts')) as { main: Main };
    const { SuiteSessions } = (await load('src/runner/suite-session.ts')) as {
      SuiteSessions: new () => Loaded['sessions'];
    };
    const running = () => this.#running;
    Object.defineProperty(strykerGlobal(), 'currentTestId', {
      configurable: true,
      enumerable: true,
      get: () => (running() ? (attribution() ?? RUN_TEST) : undefined),
      set: () => {},
    });
    this.#loaded = { main, sessions: new SuiteSessions(), attribution, crashServers };
    return this.#loaded;
  }

  /** One conformance run in this process, with whatever mutant is active: the checks `selected`, or all. */
  async #run(deadlineMs: number, selected?: string[]): Promise<RunOutcome> {
    const { main, sessions, crashServers } = await this.#load();
    const dir = mkdtempSync(join(tmpdir(), 'screenconf-mutant-'));
    const lines: string[] = [];
    const crashes: string[] = [];
    // The server's process would end here: its server ends as it would, and the run meets refused connections.
    const crashed = (e: unknown) => {
      crashes.push(
        String((e as Error)?.stack ?? e)
          .split('\n', 2)
          .join(' | '),
      );
      crashServers();
    };
    process.on('uncaughtException', crashed);
    process.on('unhandledRejection', crashed);
    // vitest's own handler of an unhandled rejection in this process prints it and exits: in a real run
    // that ends the run (the server's crash); here it would end the worker. The crash is recorded above.
    const exit = process.exit;
    process.exit = ((code?: number) => {
      crashes.push(`the run's process was made to exit (status ${code ?? process.exitCode ?? 0})`);
      crashServers();
    }) as typeof process.exit;
    const began = performance.now();
    this.#running = true;
    try {
      const status = await main([...runArgs(this.#settings, dir, deadlineMs, true), ...(selected ?? [])], {
        out: (...l: string[]) => lines.push(...l),
        err: (l: string) => lines.push(l),
        env: runEnv(),
        cwd: dir,
        stopSignal: new Promise(() => {}),
        isTTY: false,
        sessions,
      });
      return readOutcome(status, performance.now() - began, dir, lines, crashes);
    } finally {
      this.#running = false;
      process.exit = exit;
      process.off('uncaughtException', crashed);
      process.off('unhandledRejection', crashed);
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /** The same run in a new process of the sandbox with no mutant active (a static mutant is loaded in this one). */
  #runElsewhere(deadlineMs: number, selected?: string[]): Promise<RunOutcome> {
    const dir = mkdtempSync(join(tmpdir(), 'screenconf-control-'));
    const began = performance.now();
    return new Promise<RunOutcome>((done, fail) => {
      const args = ['bin/screenconf.js', ...runArgs(this.#settings, dir, deadlineMs, true), ...(selected ?? [])];
      const child = spawn(process.execPath, args, {
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

  /** What the dry run learned (this process's, or the one the dry run's process left for the others). */
  #dryRunFacts(): DryRunFacts | undefined {
    if (this.#facts) return this.#facts;
    const file = this.#settings.recordDir && join(this.#settings.recordDir, FACTS_FILE);
    if (file && existsSync(file)) this.#facts = JSON.parse(readFileSync(file, 'utf8')) as DryRunFacts;
    return this.#facts;
  }

  async dryRun(options: DryRunOptions): Promise<DryRunResult> {
    const ns = strykerGlobal();
    ns.activeMutant = undefined;
    await this.#load();
    const run = await this.#run(options.timeout - RESERVE_MS);
    this.#record({ dryRun: true, status: run.status, verdict: run.verdict, ms: Math.round(run.ms) });
    if (run.status !== 0 || run.verdict !== 'conforming' || run.crashes.length > 0) {
      const why = run.failed.length ? `NOT CONFORMING: ${run.failed.join(', ')}` : (run.faults[0] ?? run.crashes[0]);
      return {
        status: DryRunStatus.Complete,
        tests: [
          {
            id: RUN_TEST,
            name: this.#name(),
            status: TestStatus.Failed,
            timeSpentMs: run.ms,
            failureMessage: `the unmutated server's run was not CONFORMING (exit ${run.status}): ${why}`,
          },
        ],
      };
    }
    const coverage = ns.mutantCoverage ?? { static: {}, perTest: {} };
    const { tests, facts } = testsOfRun(run.checks ?? [], run.ms, Object.keys(coverage.perTest));
    this.#facts = facts;
    if (this.#settings.recordDir) writeFileSync(join(this.#settings.recordDir, FACTS_FILE), JSON.stringify(facts));
    return {
      status: DryRunStatus.Complete,
      tests,
      ...(options.coverageAnalysis === 'off' ? {} : { mutantCoverage: coverage }),
    };
  }

  async mutantRun(options: MutantRunOptions): Promise<MutantRunResult> {
    const ns = strykerGlobal();
    const id = options.activeMutant.id;
    const isStatic = options.mutantActivation === 'static';
    // A static mutant is on while the modules load (this process is new for it); any other, once they are loaded.
    if (isStatic) ns.activeMutant = id;
    await this.#load();
    ns.activeMutant = id;
    const facts = this.#dryRunFacts();
    // The deadline of each run: a third of Stryker's timeout, less a reserve, so the mutant's run, a control and a
    // second run all fit within it (Stryker's own timeout then only meets a blocked loop); a whole run that
    // confirms a survivor gets what the unmutated whole run took, DEADLINE_FACTOR times, and the floor.
    const deadlineMs = (options.timeout - RESERVE_MS) / 3;
    const wholeDeadlineMs = facts ? DEADLINE_FACTOR * facts.fullMs + DEADLINE_FLOOR_MS : deadlineMs;
    const selected = isStatic ? undefined : selectionArgs(options.testFilter, facts);
    let runs = 0;
    const judged = async (args: string[] | undefined, deadline: number) => {
      const withMutant = async () => {
        runs++;
        ns.activeMutant = id;
        ns.hitCount = options.hitLimit === undefined ? undefined : 0;
        ns.hitLimit = options.hitLimit;
        const run = await this.#run(deadline, args);
        if (ns.hitCount !== undefined && ns.hitLimit !== undefined && ns.hitCount > ns.hitLimit) {
          run.hitLimit = `the mutant ran ${ns.hitCount} times, over its hit limit (100 times the unmutated run's)`;
        }
        ns.hitCount = undefined;
        ns.hitLimit = undefined;
        return run;
      };
      const first = await withMutant();
      return {
        first,
        judgement: await judgeMutant(first, {
          control: async () => {
            const key = JSON.stringify(args ?? 'all');
            const known = this.#controls.get(key);
            if (known) return known;
            runs++;
            let control: RunOutcome;
            if (isStatic) control = await this.#runElsewhere(deadline, args);
            else {
              ns.activeMutant = undefined;
              try {
                control = await this.#run(deadline, args);
              } finally {
                ns.activeMutant = id;
              }
            }
            if (control.status === 0 && control.faults.length === 0 && control.crashes.length === 0)
              this.#controls.set(key, control);
            return control;
          },
          again: withMutant,
        }),
      };
    };
    let { first, judgement } = await judged(selected, selected ? deadlineMs : wholeDeadlineMs);
    // The checks that execute the mutant let it live: the whole run decides (another check may judge what theirs made).
    if (selected && judgement.status === 'survived') ({ judgement } = await judged(undefined, wholeDeadlineMs));
    this.#record({
      id,
      file: options.activeMutant.fileName,
      mutator: options.activeMutant.mutatorName,
      static: isStatic,
      checks: selected ? selected.filter((a) => a !== '--check').length - 2 : 'all',
      ...judgement,
      ms: Math.round(first.ms),
      runs,
    });
    if (judgement.status !== 'survived') this.log.debug(`mutant ${id}: ${judgement.status}: ${judgement.reason}`);
    return toStryker(judgement);
  }

  async dispose(): Promise<void> {
    await this.#loaded?.sessions.close();
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
      return { status: MutantRunStatus.Killed, killedBy: [RUN_TEST], failureMessage: j.reason, nrOfTests: 1 };
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
