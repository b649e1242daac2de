/**
 * `screenconf run`: open the target, check it answers, run the suites with vitest, remove what
 * the run created (through the ledger), judge every requirement, write the reports, and return
 * the exit status. A signal or the run deadline stops the run gracefully: the checks in flight
 * finish, the rest are not started, cleanup still runs, and the report says what ran.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createVitest, type Vitest } from 'vitest/node';
import { ApiClient } from '../client/api.ts';
import { TokenSource } from '../client/auth.ts';
import { sleep } from '../client/limiter.ts';
import { Redactor } from '../client/redact.ts';
import { DEFAULT_TRANSPORT, Transport, type TransportOptions } from '../client/transport.ts';
import { HarnessError } from '../errors.ts';
import type { OrganisationCredentials, RunContext } from '../kit/context.ts';
import { LEDGER_FILE, Ledger, readLedger } from '../provision/ledger.ts';
import { removeAll, type Removal } from '../provision/removal.ts';
import { renderSummary } from '../report/console.ts';
import { renderJson, REPORT_SCHEMA_VERSION, type CleanupSummary, type ConformanceReport, type Interruption } from '../report/json.ts';
import { ConformanceReporter } from '../report/reporter.ts';
import { judge, type RequirementResult } from '../report/verdicts.ts';
import { CATALOGUE_VERSION } from '../spec/index.ts';
import { PACKAGE_ROOT, VERSION } from '../version.ts';
import { configSecrets, loadLimits, SUITES, type Config } from './config.ts';
import { openTarget, type Target } from './target.ts';

export interface RunIO {
  out: (line: string) => void;
  /** One line per harness problem (exit 3) or interruption; stdout when absent. */
  err?: (line: string) => void;
  cwd: string;
  /** Resolves with the signal's name when the process is asked to stop (SIGINT, SIGTERM). */
  stop?: Promise<NodeJS.Signals>;
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
  const c = limits.concurrency > 0 ? `at most ${limits.concurrency} requests in flight` : 'no bound on requests in flight';
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

function client(baseUrl: string, credentials: OrganisationCredentials | undefined, transport: Transport): ApiClient | undefined {
  if (!credentials) return undefined;
  const tokens =
    credentials.clientId && credentials.clientSecret
      ? new TokenSource(baseUrl, { clientId: credentials.clientId, clientSecret: credentials.clientSecret }, transport)
      : undefined;
  if (!tokens && !credentials.apiKey) return undefined;
  return new ApiClient(baseUrl, transport, tokens, credentials.apiKey);
}

/** Removes what the ledger still lists for this run (what per-file teardown could not, or never got to). */
async function sweep(ledger: Ledger, target: Target, transport: Transport, keep: boolean): Promise<{ cleanup: CleanupSummary; left: Removal[] }> {
  const state = readLedger(ledger.path);
  const pending = state.pending.filter((c) => c.run === ledger.run);
  const unconfirmed = state.unconfirmed.filter((u) => u.run === ledger.run).map((u) => u.externalId);
  const base = { ledger: ledger.path, kept: keep, unconfirmed };
  if (keep) return { cleanup: { ...base, removedAtEnd: 0, left: pending.map((c) => c.id) }, left: [] };
  if (pending.length === 0) return { cleanup: { ...base, removedAtEnd: 0, left: [] }, left: [] };
  const clients = { a: client(target.baseUrl, target.primary, transport), b: client(target.baseUrl, target.peer, transport) };
  const { removed, left } = await removeAll(pending, clients, (c) => ledger.deleted(c.org, c.id));
  return { cleanup: { ...base, removedAtEnd: removed.length, left: left.map((r) => r.id) }, left };
}

/** Skipped requirements of an interrupted run say so, rather than "suite not selected". */
function markNotRun(results: RequirementResult[], why: string): RequirementResult[] {
  return results.map((r) =>
    r.verdict === 'skip' && (r.tests.length === 0 || /aborted/i.test(r.reason ?? '')) ? { ...r, reason: `not run: ${why}` } : r,
  );
}

function countLines(path: string): number {
  if (!existsSync(path)) return 0;
  return readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '').length;
}

/** vitest stops the process on SIGINT/SIGTERM by itself; the runner handles those to clean up first. */
function withoutVitestSignalHandlers<T>(create: () => Promise<T>): Promise<T> {
  const before = { SIGINT: new Set(process.listeners('SIGINT')), SIGTERM: new Set(process.listeners('SIGTERM')) };
  return create().finally(() => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      for (const l of process.listeners(signal)) if (!before[signal].has(l)) process.off(signal, l);
    }
  });
}

export async function runConformance(config: Config, io: RunIO): Promise<number> {
  const startedAt = new Date();
  const seed = config.seed ?? randomInt(0, 2 ** 31 - 1);
  const runId = randomBytes(4).toString('hex');
  const suites = config.suites ?? [...SUITES];
  const reportDir = resolve(io.cwd, config.reportDir);
  const redactor = new Redactor(configSecrets(config));
  const err = io.err ?? io.out;

  // A stop (signal or deadline) cancels the vitest run once it is going; before that, it is checked between steps.
  let interruption: Interruption | undefined;
  let cancel: () => void = () => {};
  let stopped!: () => void;
  const whenStopped = new Promise<void>((r) => (stopped = r));
  const requestStop = (why: Interruption) => {
    if (interruption) return;
    interruption = why;
    stopped();
    cancel();
  };
  void io.stop?.then((signal) => requestStop(signal === 'SIGTERM' ? 'SIGTERM' : 'SIGINT'));
  const deadline = config.deadlineMs ? setTimeout(() => requestStop('deadline'), config.deadlineMs) : undefined;

  mkdirSync(reportDir, { recursive: true });
  const target = await openTarget(config);
  try {
    for (const c of [target.primary, target.peer]) redactor.add(c?.clientSecret).add(c?.apiKey);
    const limits = loadLimits(config, target.kind);
    const throttleLog = resolve(reportDir, THROTTLE_LOG);
    rmSync(throttleLog, { force: true });
    const base: TransportOptions = { ...DEFAULT_TRANSPORT, timeoutMs: config.timeoutMs, maxResponseBytes: config.maxResponseBytes, throttleLog };
    const transport = new Transport({ ...base, concurrency: limits.concurrency, maxRps: limits.maxRps }, redactor);
    const ledger = new Ledger(resolve(reportDir, LEDGER_FILE), runId, target.baseUrl);
    ledger.begin(target.kind, config.keep);

    io.out(`screenconf ${VERSION} — run ${runId}`);
    io.out(`target ${target.baseUrl}${target.kind === 'embedded' ? ' (embedded reference server)' : ''}${config.referenceFaults.length ? ` with faults: ${config.referenceFaults.join(', ')}` : ''}`);
    io.out(`seed ${seed} (replay with --seed ${seed}), ${config.runs} runs per property`);
    io.out(`${describeLimits(limits)}; ${config.timeoutMs} ms per request${config.deadlineMs ? `; run deadline ${config.deadlineMs} ms` : ''}`);
    io.out(`ledger ${ledger.path}${config.keep ? ' (--keep: what the run creates stays on the target)' : ''}`);
    await preflight(target, transport);

    const context: RunContext = {
      runId,
      seed,
      runs: config.runs,
      target: { baseUrl: target.baseUrl, kind: target.kind, primary: target.primary, ...(target.peer ? { peer: target.peer } : {}) },
      transport: { ...base, ...limits.perWorker },
      ledgerPath: ledger.path,
      keep: config.keep,
      ...(config.bulkFailuresPath ? { bulkFailuresPath: config.bulkFailuresPath } : {}),
      webhooks: {
        host: config.webhookHost,
        port: config.webhookPort,
        timeoutMs: config.webhookTimeoutMs,
        ...(config.webhookPublicUrl ? { publicUrl: config.webhookPublicUrl } : {}),
      },
    };
    const reporter = new ConformanceReporter(io.out);
    const runErrors: string[] = [];
    if (!interruption) {
      io.out(`suites: ${suites.join(', ')}`);
      const vitest: Vitest = await withoutVitestSignalHandlers(() =>
        createVitest(
          'test',
          {
            root: PACKAGE_ROOT,
            config: false,
            include: ['suites/**/*.test.ts'],
            setupFiles: [resolve(PACKAGE_ROOT, 'src/runner/worker-setup.ts'), resolve(PACKAGE_ROOT, 'src/kit/setup.ts')],
            reporters: [reporter, ['junit', {}]],
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
        ),
      );
      cancel = () => void vitest.cancelCurrentRun('keyboard-input').catch(() => {});
      if (interruption) cancel();
      const running = vitest.start(suites.map((s) => `suites/${s}.test.ts`)).catch((e: unknown) => {
        runErrors.push(redactor.redact(((e as Error)?.message ?? String(e)).split('\n')[0]!));
      });
      await Promise.race([running, whenStopped.then(() => sleep(STOP_GRACE_MS))]);
      await Promise.race([vitest.close(), sleep(5_000)]);
      process.exitCode = 0; // vitest sets it from test failures; the verdict below decides
    }
    if (deadline) clearTimeout(deadline);

    const { cleanup, left } = await sweep(ledger, target, transport, config.keep);
    const throttled = countLines(throttleLog);

    // A check that hit a harness fault judged nothing: its requirement is not failed by it but
    // skipped, with the fault as the reason (the fault itself makes the run INCOMPLETE, exit 3).
    // Checks cut short by a stop count as not run.
    const outcomes = reporter.outcomes.map((o) => {
      if (!o.harnessFault) return o;
      if (o.harnessFault.startsWith(STOPPED_MESSAGE)) {
        const { harnessFault: _cut, ...rest } = o;
        return o.state === 'failed' ? { ...rest, state: 'skipped' as const, errors: [], skipReason: 'cut short: the run was stopping' } : rest;
      }
      return o.state === 'failed' ? { ...o, state: 'skipped' as const, skipReason: `could not judge: ${o.harnessFault.split('\n')[0]}` } : o;
    });
    const judged = judge(outcomes);
    const why = interruption === 'deadline' ? `the run deadline of ${config.deadlineMs} ms passed` : interruption ? `the run was interrupted by ${interruption}` : undefined;
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
    const report: ConformanceReport = {
      schemaVersion: REPORT_SCHEMA_VERSION,
      tool: { name: 'screenconf', version: VERSION },
      catalogueVersion: CATALOGUE_VERSION,
      run: {
        id: runId,
        startedAt: startedAt.toISOString(),
        finishedAt: new Date().toISOString(),
        seed,
        runs: config.runs,
        suites,
        ...(interruption ? { interrupted: interruption } : {}),
      },
      target: { baseUrl: target.baseUrl, kind: target.kind, ...(config.referenceFaults.length ? { referenceFaults: config.referenceFaults } : {}) },
      summary,
      results,
    };
    const reportPath = resolve(reportDir, 'conformance.json');
    writeFileSync(reportPath, renderJson(report, redactor));
    redactFile(resolve(reportDir, 'junit.xml'), redactor);

    if (cleanup.removedAtEnd) io.out(`cleanup: removed ${cleanup.removedAtEnd} case(s) the suites had left on the target`);
    for (const r of left) io.out(redactor.redact(`cleanup: could not remove case ${r.id} (organisation ${r.org}): ${r.detail}`));
    if (cleanup.unconfirmed.length) {
      io.out(`cleanup: ${cleanup.unconfirmed.length} create request(s) got no answer, so the target may hold cases with no known id; their external ids: ${cleanup.unconfirmed.join(', ')}`);
    }
    if (config.keep && cleanup.left.length && target.kind === 'url') io.out(`kept ${cleanup.left.length} case(s) on the target (--keep): ${cleanup.left.join(', ')}; remove them with: screenconf cleanup ${ledger.path}`);
    io.out(redactor.redact(renderSummary(results, summary, reportPath, why)));

    if (interruption && interruption !== 'deadline') {
      err(`screenconf: interrupted by ${interruption}: stopped the run${config.keep ? '' : ' and cleaned up'}; the report of what ran is ${reportPath}`);
      return SIGNAL_EXIT[interruption] ?? EXIT.harness;
    }
    if (interruption === 'deadline') {
      err(`screenconf: error SC_DEADLINE: ${why}; stopped the run${config.keep ? '' : ' and cleaned up'}; the report of what ran is ${reportPath}`);
      return EXIT.harness;
    }
    if (summary.harnessFaults.length || suiteErrors.length) {
      const first = summary.harnessFaults[0] ?? suiteErrors[0]!;
      const count = summary.harnessFaults.length + suiteErrors.length;
      err(redactor.redact(`screenconf: error SC_INCOMPLETE: ${count} problem${count === 1 ? '' : 's'} kept checks from judging the target, first: ${first.split('\n')[0]} (see ${reportPath})`));
      return EXIT.harness;
    }
    return summary.mustFailures > 0 ? EXIT.notConforming : EXIT.conforming;
  } catch (e) {
    if (e instanceof HarnessError) throw new HarnessError(e.code, redactor.redact(e.message));
    throw e;
  } finally {
    if (deadline) clearTimeout(deadline);
    await target.close();
  }
}

/** Files written by others (vitest's JUnit report) pass through the redactor too. */
function redactFile(path: string, redactor: Redactor): void {
  if (!existsSync(path)) return;
  const text = readFileSync(path, 'utf8');
  const redacted = redactor.redact(text);
  if (redacted !== text) writeFileSync(path, redacted);
}
