/**
 * `screenconf run`: open the target, check it answers, run the suites with vitest, remove what
 * the run created (through the ledger), judge every requirement, write the reports, and return
 * the exit status. A signal or the run deadline stops the run gracefully: the checks in flight
 * finish, the rest are not started, cleanup still runs, and the report says what ran.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Writable } from 'node:stream';
import { createVitest, type Reporter, type TestModule, type Vitest } from 'vitest/node';
import { organisationClient } from '../client/api.ts';
import { TokenSource } from '../client/auth.ts';
import { sleep } from '../client/limiter.ts';
import { Redactor } from '../client/redact.ts';
import { DEFAULT_TRANSPORT, Transport, type TransportOptions } from '../client/transport.ts';
import { HarnessError } from '../errors.ts';
import type { RunContext } from '../kit/context.ts';
import { loadAdapter } from '../provision/adapter.ts';
import { LEDGER_FILE, Ledger, readLedger } from '../provision/ledger.ts';
import { removeAll, type Removal } from '../provision/removal.ts';
import { githubAnnotations, PLAIN, renderMultiSummary, renderSummary, type ConsoleStyle } from '../report/console.ts';
import { isIsoDate, loadExpectations, todayUtc, type Expectation } from '../report/expect.ts';
import { applyGate, type GateOptions, type GateSummary } from '../report/gate.ts';
import type { CleanupSummary, ConformanceReport, Interruption } from '../report/json.ts';
import { mergeReports, type GatedReport, type MultiTargetReport, type TargetReport } from '../report/merge.ts';
import { ConformanceReporter } from '../report/reporter.ts';
import { buildReport, publicOptions } from '../report/build.ts';
import { createRunFolder, pointLatest, writeRunReports } from '../report/folder.ts';
import { ServerHeaders } from '../report/server-headers.ts';
import { judge, type RequirementResult } from '../report/verdicts.ts';
import { PACKAGE_ROOT, VERSION } from '../version.ts';
import { configSecrets, loadLimits, SECRET_SETTINGS, SUITES, type Config, type TargetConfig } from './config.ts';
import { openTarget, type Target } from './target.ts';

export interface RunIO {
  out: (line: string) => void;
  /** One line per harness problem (exit 3) or interruption; stdout when absent. */
  err?: (line: string) => void;
  cwd: string;
  /** Resolves with the signal's name when the process is asked to stop (SIGINT, SIGTERM). */
  stop?: Promise<NodeJS.Signals>;
  /** Colour and GitHub Actions annotations in the summary (plain text when absent). */
  console?: ConsoleStyle;
  /** Today's date, YYYY-MM-DD, for expectation expiry (tests set it; default: today in UTC). */
  today?: string;
}

export const EXIT = { conforming: 0, notConforming: 1, usage: 2, harness: 3 } as const;
/** A run stopped by a signal exits 128 + the signal's number, as a shell reports it. */
export const SIGNAL_EXIT: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

/** After a stop, how long the checks in flight get to finish before cleanup goes ahead. */
const STOP_GRACE_MS = 10_000;
export const THROTTLE_LOG = 'throttled.jsonl';
/** How worker-setup tells the transports of a worker to stop (matched below). */
const STOPPED_MESSAGE = 'not sent: the run is stopping';

function describeLimits(limits: ReturnType<typeof loadLimits>): string {
  const c =
    limits.concurrency > 0 ? `at most ${limits.concurrency} requests in flight` : 'no bound on requests in flight';
  const r = limits.maxRps > 0 ? `at most ${limits.maxRps} requests per second` : 'no bound on the request rate';
  return `load: ${c}, ${r} (shared by ${limits.workers} worker process${limits.workers === 1 ? '' : 'es'})`;
}

/** Fails fast, before any suite, when the target cannot be reached or refuses the credentials. */
async function preflight(target: Target, transport: Transport): Promise<void> {
  const { clientId, clientSecret } = target.primary;
  if (clientId && clientSecret) {
    await new TokenSource(target.baseUrl, { clientId, clientSecret }, transport).get();
    return;
  }
  try {
    await transport.send({ method: 'GET', url: target.baseUrl, headers: {} });
  } catch (err) {
    if (err instanceof HarnessError) throw err;
    throw new HarnessError('SC_TARGET_UNREACHABLE', `target unreachable: ${(err as Error).message}`);
  }
}

/** Removes what the ledger still lists for this run (what per-file teardown could not, or never got to). */
async function sweep(
  ledger: Ledger,
  target: Target,
  transport: Transport,
  keep: boolean,
): Promise<{ cleanup: CleanupSummary; left: Removal[] }> {
  const state = readLedger(ledger.path);
  const pending = state.pending.filter((c) => c.run === ledger.run);
  const unconfirmed = state.unconfirmed.filter((u) => u.run === ledger.run).map((u) => u.externalId);
  const base = { ledger: ledger.path, kept: keep, unconfirmed };
  if (keep) return { cleanup: { ...base, removedAtEnd: 0, left: pending.map((c) => c.id) }, left: [] };
  if (pending.length === 0) return { cleanup: { ...base, removedAtEnd: 0, left: [] }, left: [] };
  const clients = {
    a: organisationClient(target.baseUrl, target.primary, transport),
    b: organisationClient(target.baseUrl, target.peer, transport),
  };
  const { removed, left } = await removeAll(pending, clients, (c) => ledger.deleted(c.org, c.id));
  return { cleanup: { ...base, removedAtEnd: removed.length, left: left.map((r) => r.id) }, left };
}

/** Skipped requirements of an interrupted run say so, rather than "suite not selected". */
function markNotRun(results: RequirementResult[], why: string): RequirementResult[] {
  return results.map((r) =>
    r.verdict === 'skip' && (r.tests.length === 0 || /aborted/i.test(r.reason ?? ''))
      ? { ...r, reason: `not run: ${why}` }
      : r,
  );
}

function countLines(path: string): number {
  if (!existsSync(path)) return 0;
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '').length;
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

/** What stops a run early, shared by the targets of a run: a signal, or the run deadline. */
class Stopper {
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
}

/** What one target's run produced, before the gate is applied. */
interface TargetOutcome {
  report: ConformanceReport;
  reportPath: string;
  /** Why the run stopped early, in words, when it did. */
  why?: string;
}

interface TargetRunOptions {
  config: Config;
  io: RunIO;
  reportDir: string;
  runId: string;
  seed: number;
  suites: string[];
  redactor: Redactor;
  stopper: Stopper;
  /** The target's label, in a run with several. */
  label?: string;
  /** Where the ledger goes (outside the run folder: cleanup appends to it later); default reportDir. */
  ledgerDir?: string;
  /** The --provisioner module, an absolute path, already loaded and checked once. */
  provisioner?: string | undefined;
}

/** Collects the server identification headers the suite files saw (their module meta). */
function serverHeadersReporter(into: ServerHeaders): Reporter {
  return {
    onTestModuleEnd(module: TestModule) {
      into.merge(module.meta().screenconfServerHeaders);
    },
  };
}

/** Runs the suites against one target: open it, check it answers, run vitest, clean up, judge. */
async function runTarget(options: TargetRunOptions): Promise<TargetOutcome> {
  const { config, io, reportDir, runId, seed, suites, redactor, stopper, label, ledgerDir, provisioner } = options;
  const startedAt = new Date();
  const tag = label ? ` [${label}]` : '';
  mkdirSync(reportDir, { recursive: true });
  const target = await openTarget(config, { stopped: stopper.whenStopped, log: (line) => (io.err ?? io.out)(line) });
  try {
    for (const c of [target.primary, target.peer]) redactor.add(c?.clientSecret).add(c?.apiKey);
    const limits = loadLimits(config, target.kind);
    const throttleLog = resolve(reportDir, THROTTLE_LOG);
    rmSync(throttleLog, { force: true });
    const base: TransportOptions = {
      ...DEFAULT_TRANSPORT,
      timeoutMs: config.timeoutMs,
      maxResponseBytes: config.maxResponseBytes,
      throttleLog,
    };
    const serverHeaders = new ServerHeaders();
    const transport = new Transport(
      { ...base, concurrency: limits.concurrency, maxRps: limits.maxRps },
      redactor,
      (e) => serverHeaders.observe(e.response?.headers),
    );
    if (ledgerDir) mkdirSync(ledgerDir, { recursive: true });
    const ledger = new Ledger(resolve(ledgerDir ?? reportDir, LEDGER_FILE), runId, target.baseUrl);
    ledger.begin(target.kind, config.keep);

    io.out(
      `target${label ? ` ${label}:` : ''} ${target.baseUrl}${target.kind === 'embedded' ? ' (embedded reference server)' : ''}${target.image ? ` (container of ${target.image}, removed at the end)` : ''}${config.referenceFaults.length ? ` with faults: ${config.referenceFaults.join(', ')}` : ''}`,
    );
    io.out(`seed ${seed} (replay with --seed ${seed}), ${config.runs} runs per property`);
    io.out(
      `${describeLimits(limits)}; ${config.timeoutMs} ms per request${config.deadlineMs ? `; run deadline ${config.deadlineMs} ms` : ''}`,
    );
    io.out(`ledger ${ledger.path}${config.keep ? ' (--keep: what the run creates stays on the target)' : ''}`);
    await preflight(target, transport);

    const context: RunContext = {
      runId,
      seed,
      runs: config.runs,
      target: {
        baseUrl: target.baseUrl,
        kind: target.kind,
        primary: target.primary,
        ...(target.peer ? { peer: target.peer } : {}),
      },
      transport: { ...base, ...limits.perWorker },
      ledgerPath: ledger.path,
      keep: config.keep,
      ...(config.bulkFailuresPath ? { bulkFailuresPath: config.bulkFailuresPath } : {}),
      ...(provisioner ? { provisioner } : {}),
      webhooks: {
        host: config.webhookHost,
        port: config.webhookPort,
        timeoutMs: config.webhookTimeoutMs,
        ...(config.webhookPublicUrl ? { publicUrl: config.webhookPublicUrl } : {}),
      },
    };
    const reporter = new ConformanceReporter((line) => io.out(label ? line.replace(/^( *)/, `$1[${label}] `) : line));
    const runErrors: string[] = [];
    if (!stopper.interruption) {
      io.out(`suites${tag}: ${suites.join(', ')}`);
      const vitest: Vitest = await withoutVitestSignalHandlers(() =>
        createVitest(
          'test',
          {
            root: PACKAGE_ROOT,
            config: false,
            include: ['suites/**/*.test.ts'],
            setupFiles: [
              resolve(PACKAGE_ROOT, 'src/runner/worker-setup.ts'),
              resolve(PACKAGE_ROOT, 'src/kit/setup.ts'),
            ],
            reporters: [reporter, serverHeadersReporter(serverHeaders), ['junit', {}]],
            outputFile: { junit: resolve(reportDir, 'junit.xml') },
            provide: { screenconf: context },
            watch: false,
            testTimeout: 120_000,
            hookTimeout: 120_000,
            maxWorkers: limits.workers,
            retry: 1,
            passWithNoTests: false,
          },
          { logLevel: 'error' },
          // vitest's own console lines ("JUNIT report written to …") are noise beside the summary.
          { stdout: vitestStdout((line) => io.out(redactor.redact(line))) },
        ),
      );
      stopper.cancel = () => void vitest.cancelCurrentRun('keyboard-input').catch(() => {});
      const running = vitest.start(suites.map((s) => `suites/${s}.test.ts`)).catch((e: unknown) => {
        runErrors.push(redactor.redact(((e as Error)?.message ?? String(e)).split('\n')[0]!));
      });
      await Promise.race([running, stopper.whenStopped.then(() => sleep(STOP_GRACE_MS))]);
      await Promise.race([vitest.close(), sleep(5_000)]);
      stopper.cancel = () => {};
      process.exitCode = 0; // vitest sets it from test failures; the verdict below decides
    }

    const { cleanup, left } = await sweep(ledger, target, transport, config.keep);
    const throttled = countLines(throttleLog);

    // A check that hit a harness fault judged nothing: its requirement is not failed by it but
    // skipped, with the fault as the reason (the fault itself makes the run INCOMPLETE, exit 3).
    // Checks cut short by a stop count as not run.
    const outcomes = reporter.outcomes.map((o) => {
      if (!o.harnessFault) return o;
      if (o.harnessFault.startsWith(STOPPED_MESSAGE)) {
        const { harnessFault: _cut, ...rest } = o;
        return o.state === 'failed'
          ? { ...rest, state: 'skipped' as const, errors: [], skipReason: 'cut short: the run was stopping' }
          : rest;
      }
      return o.state === 'failed'
        ? {
            ...o,
            state: 'skipped' as const,
            skipReason: `could not judge: ${oneLine(redactor.redact(o.harnessFault), 200)}`,
          }
        : o;
    });
    const judged = judge(outcomes);
    const { interruption } = stopper;
    const why =
      interruption === 'deadline'
        ? `the run deadline of ${config.deadlineMs} ms passed`
        : interruption
          ? `the run was interrupted by ${interruption}`
          : undefined;
    const results = why ? markNotRun(judged.results, why) : judged.results;
    const suiteErrors = [...reporter.errors, ...runErrors].map((e) => redactor.redact(e));
    const summary = {
      ...judged.summary,
      leftovers: left.map((r) => r.id),
      suiteErrors,
      throttled,
      cleanup,
    };
    if (suiteErrors.length || interruption) summary.conforming = false;
    const report: ConformanceReport = buildReport(
      {
        id: runId,
        startedAt,
        finishedAt: new Date(),
        seed,
        runs: config.runs,
        suites,
        ...(interruption ? { interrupted: interruption } : {}),
        options: publicOptions(config, SECRET_SETTINGS),
      },
      {
        ...(label ? { label } : {}),
        baseUrl: target.baseUrl,
        kind: target.kind,
        referenceFaults: config.referenceFaults,
        serverHeaders: serverHeaders.toJSON(),
        summary,
        results,
      },
    );

    if (cleanup.removedAtEnd)
      io.out(`cleanup${tag}: removed ${cleanup.removedAtEnd} case(s) the suites had left on the target`);
    for (const r of left)
      io.out(redactor.redact(`cleanup${tag}: could not remove case ${r.id} (organisation ${r.org}): ${r.detail}`));
    if (cleanup.unconfirmed.length) {
      io.out(
        `cleanup${tag}: ${cleanup.unconfirmed.length} create request(s) got no answer, so the target may hold cases with no known id; their external ids: ${cleanup.unconfirmed.join(', ')}`,
      );
    }
    if (config.keep && cleanup.left.length && target.kind === 'url')
      io.out(
        `kept${tag} ${cleanup.left.length} case(s) on the target (--keep): ${cleanup.left.join(', ')}; remove them with: screenconf cleanup ${ledger.path} and the same credentials`,
      );
    return { report, reportPath: resolve(reportDir, 'conformance.json'), ...(why ? { why } : {}) };
  } catch (e) {
    if (e instanceof HarnessError)
      throw new HarnessError(e.code, redactor.redact(`${label ? `target "${label}": ` : ''}${e.message}`));
    throw e;
  } finally {
    await target.close();
  }
}

/** The gate applied to one target's report: results marked `expected`, the gate in the summary. */
function gated(
  report: ConformanceReport,
  expectations: Expectation[],
  options: GateOptions,
): GatedReport & { summary: { gate: GateSummary } } {
  const { results, gate } = applyGate(report.results, expectations, options);
  const summary = { ...report.summary, gate };
  return { ...report, summary, targets: report.targets.map((t) => ({ ...t, summary })), results };
}

/**
 * Writes a report folder: conformance.json, report.html, report.md and, last, SHA256SUMS over
 * every file in it. Files written by others (vitest's junit.xml) pass the redactor first.
 */
function writeReport(
  dir: string,
  report: ConformanceReport | GatedReport | MultiTargetReport,
  redactor: Redactor,
): string {
  redactFile(resolve(dir, 'junit.xml'), redactor);
  return writeRunReports(dir, report as ConformanceReport, redactor).json;
}

/**
 * How to reproduce the failures by hand and replay the run, when something failed or warned:
 * what the curl commands' variables hold, and the seed. `baseUrl` is undefined for the
 * embedded server, which stops with the run.
 */
function failureNotes(
  results: { verdict: string }[],
  seed: number,
  config: Config,
  baseUrl: string | undefined,
): string[] {
  if (!results.some((r) => r.verdict === 'fail' || r.verdict === 'warn')) return [];
  const vars = `SCREENCONF_ACCESS_TOKEN (the access_token POST /api/oauth/token/ returns for the client credentials; SCREENCONF_API_KEY where a command sends the API key)`;
  const faults = config.referenceFaults.length ? ` --fault ${config.referenceFaults.join(' --fault ')}` : '';
  const reproduce =
    baseUrl === undefined
      ? `Reproduce by hand: the embedded server stopped with the run, and its cases with it; "screenconf serve${faults}" starts one to run against with --base-url --keep. The curl commands above read SCREENCONF_BASE_URL and ${vars}.`
      : `Reproduce by hand: the curl commands above read SCREENCONF_BASE_URL (${baseUrl}) and ${vars}; the cases they name were deleted at the end of the run unless --keep was given.`;
  return [reproduce, `Replay: the same command with --seed ${seed} generates the same inputs.`];
}

/** A message on one line (a server's body excerpt may span several), at most `max` characters. */
export function oneLine(text: string, max = 300): string {
  const flat = text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The exit status once the reports are written: a stop or a harness problem first, then the gate. */
function exitStatus(
  summary: GatedReport['summary'],
  interruption: Interruption | undefined,
  why: string | undefined,
  reportPath: string,
  config: Config,
  err: (line: string) => void,
  redactor: Redactor,
): number {
  if (interruption && interruption !== 'deadline') {
    err(
      `screenconf: interrupted by ${interruption}: stopped the run${config.keep ? '' : ' and cleaned up'}; the report of what ran is ${reportPath}`,
    );
    return SIGNAL_EXIT[interruption] ?? EXIT.harness;
  }
  if (interruption === 'deadline') {
    err(
      `screenconf: error SC_DEADLINE: ${why}; stopped the run${config.keep ? '' : ' and cleaned up'}; the report of what ran is ${reportPath}`,
    );
    return EXIT.harness;
  }
  if (summary.harnessFaults.length || summary.suiteErrors.length) {
    const first = summary.harnessFaults[0] ?? summary.suiteErrors[0]!;
    const count = summary.harnessFaults.length + summary.suiteErrors.length;
    // Redacted before it is cut to one line, so a cut cannot leave part of a secret.
    err(
      `screenconf: error SC_INCOMPLETE: ${count} problem${count === 1 ? '' : 's'} kept checks from judging the target, first: ${oneLine(redactor.redact(first))} (see ${reportPath})`,
    );
    return EXIT.harness;
  }
  return summary.gate?.passed === false ? EXIT.notConforming : EXIT.conforming;
}

/** The config of one target of a run with several: its URL and credentials, its own report folder. */
function targetConfig(config: Config, t: TargetConfig, reportDir: string): Config {
  const {
    targets: _all,
    clientId: _a,
    clientSecret: _b,
    apiKey: _c,
    peerClientId: _d,
    peerClientSecret: _e,
    ...rest
  } = config;
  const { label: _label, ...own } = t;
  return { ...rest, ...own, reportDir };
}

export async function runConformance(config: Config, io: RunIO): Promise<number> {
  const seed = config.seed ?? randomInt(0, 2 ** 31 - 1);
  const runId = randomBytes(4).toString('hex');
  const suites = config.suites ?? [...SUITES];
  const reportDir = resolve(io.cwd, config.reportDir);
  const redactor = new Redactor(configSecrets(config));
  const err = io.err ?? io.out;
  const style = io.console ?? PLAIN;
  const today = io.today ?? todayUtc();
  if (!isIsoDate(today))
    throw new HarnessError('SC_CONFIG', `SCREENCONF_TODAY must be a date YYYY-MM-DD, got "${today}"`);
  // The expectations file is checked before anything is sent: a typo must not cost a run.
  const expectations = config.expect
    ? loadExpectations(
        config.expect,
        config.targets?.map((t) => t.label),
      )
    : [];
  const gateOptions = { strict: config.strict, today, ...(config.expect ? { expectationsFile: config.expect } : {}) };
  // So is the provisioning adapter: a module that does not load must not cost a run either.
  const provisioner = config.provisioner ? resolve(io.cwd, config.provisioner) : undefined;
  if (provisioner) await loadAdapter(provisioner);

  // A stop (signal or deadline) cancels the vitest run once it is going; before that, it is checked between steps.
  const stopper = new Stopper();
  void io.stop?.then((signal) => stopper.request(signal === 'SIGTERM' ? 'SIGTERM' : 'SIGINT'));
  const deadline = config.deadlineMs ? setTimeout(() => stopper.request('deadline'), config.deadlineMs) : undefined;
  const common = { io, runId, seed, suites, redactor, stopper, provisioner };
  // One folder per run inside the report folder; `latest` points at it once its reports are written.
  let runDir: string | undefined;
  try {
    runDir = createRunFolder(reportDir, new Date(), runId);
    io.out(
      `screenconf ${VERSION} — run ${runId}${config.targets ? `, ${config.targets.length} target${config.targets.length === 1 ? '' : 's'}: ${config.targets.map((t) => t.label).join(', ')}` : ''}`,
    );
    io.out(`report folder ${runDir}`);
    if (expectations.length) io.out(`expectations: ${expectations.length} known failure(s) from ${config.expect}`);

    if (!config.targets) {
      const { report, why } = await runTarget({ ...common, config, reportDir: runDir, ledgerDir: reportDir });
      const final = gated(report, expectations, gateOptions);
      const reportPath = writeReport(runDir, final, redactor);
      pointLatest(reportDir, runDir);
      const notes = failureNotes(
        final.results,
        seed,
        config,
        final.target.kind === 'embedded' ? undefined : final.target.baseUrl,
      );
      io.out(redactor.redact(renderSummary(final.results, final.summary, reportPath, why, style, notes)));
      if (style.githubActions)
        for (const line of githubAnnotations([{ results: final.results }], final.summary.gate, (s) =>
          redactor.redact(s),
        ))
          io.out(line);
      return exitStatus(final.summary, stopper.interruption, why, reportPath, config, err, redactor);
    }

    // Several targets: each is opened and must answer before any suite runs, then they run one after another.
    for (const t of config.targets) {
      const target = await openTarget(targetConfig(config, t, reportDir));
      try {
        await preflight(
          target,
          new Transport(
            { ...DEFAULT_TRANSPORT, timeoutMs: config.timeoutMs, maxResponseBytes: config.maxResponseBytes },
            redactor,
          ),
        );
      } catch (e) {
        if (e instanceof HarnessError)
          throw new HarnessError(e.code, redactor.redact(`target "${t.label}": ${e.message}`));
        throw e;
      } finally {
        await target.close();
      }
    }
    const done: TargetReport[] = [];
    let why: string | undefined;
    for (const t of config.targets) {
      if (stopper.interruption) {
        io.out(`target ${t.label}: not run (${why ?? 'the run was stopping'})`);
        continue;
      }
      io.out('');
      io.out(`── ${t.label}: ${t.baseUrl}`);
      const dir = resolve(runDir, t.label);
      const outcome = await runTarget({
        ...common,
        config: targetConfig(config, t, dir),
        reportDir: dir,
        ledgerDir: resolve(reportDir, t.label),
        label: t.label,
      });
      why ??= outcome.why;
      const report = gated(outcome.report, expectations, { ...gateOptions, label: t.label });
      writeReport(dir, report, redactor);
      done.push({ label: t.label, report, path: `${t.label}/conformance.json` });
    }
    const merged = mergeReports(done, gateOptions);
    // The merged report's settings are the whole run's (every target), not the first target's.
    merged.run = { ...merged.run, options: publicOptions(config, SECRET_SETTINGS) };
    const reportPath = writeReport(runDir, merged, redactor);
    pointLatest(reportDir, runDir);
    const failed = done.flatMap((d) => d.report.results);
    io.out(
      redactor.redact(
        renderMultiSummary(merged, reportPath, why, style, failureNotes(failed, seed, config, "the target's base URL")),
      ),
    );
    if (style.githubActions) {
      const annotated = done.map((d) => ({ label: d.label, results: d.report.results }));
      for (const line of githubAnnotations(annotated, merged.summary.gate, (s) => redactor.redact(s))) io.out(line);
    }
    return exitStatus(merged.summary, stopper.interruption, why, reportPath, config, err, redactor);
  } catch (e) {
    // A run that stopped before writing anything leaves no empty folder behind.
    if (runDir && existsSync(runDir) && readdirSync(runDir).length === 0)
      rmSync(runDir, { recursive: true, force: true });
    // A stop that came while the target was being opened (a container starting): nothing ran.
    const { interruption } = stopper;
    if (e instanceof HarnessError && e.code === 'SC_INTERRUPTED' && interruption && interruption !== 'deadline') {
      err(redactor.redact(`screenconf: interrupted by ${interruption}: ${e.message}`));
      return SIGNAL_EXIT[interruption] ?? EXIT.harness;
    }
    if (e instanceof HarnessError && e.code === 'SC_INTERRUPTED' && interruption === 'deadline') {
      throw new HarnessError(
        'SC_DEADLINE',
        redactor.redact(`the run deadline of ${config.deadlineMs} ms passed: ${e.message}`),
      );
    }
    if (e instanceof HarnessError) throw new HarnessError(e.code, redactor.redact(e.message));
    throw e;
  } finally {
    if (deadline) clearTimeout(deadline);
  }
}

/**
 * What vitest's logger writes to standard output, line by line: its JUnit reporter's "JUNIT
 * report written to …" is dropped (the report folder is printed at the start and the end);
 * anything else goes to the run's output. Not a terminal, so vitest does not hide the cursor.
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
      lines.forEach(emit);
      done();
    },
    final(done) {
      emit(pending);
      pending = '';
      done();
    },
  });
}

/** Files written by others (vitest's JUnit report) pass through the redactor too. */
function redactFile(path: string, redactor: Redactor): void {
  if (!existsSync(path)) return;
  const text = readFileSync(path, 'utf8');
  const redacted = redactor.redact(text);
  if (redacted !== text) writeFileSync(path, redacted);
}
