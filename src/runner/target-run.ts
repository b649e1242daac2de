/**
 * One target's run, in named stages: open the target, prepare the session (limits, transport,
 * ledger), announce it, preflight, run the suites, sweep what is left, settle and judge the
 * outcomes into a report. A signal or the deadline stops it between stages or cancels the suites.
 */
import { ATTRIBUTION_HEADER, RUNNER_ATTRIBUTION } from '../base/attribution.ts';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Redactor } from '../base/redact.ts';
import { DEFAULT_TRANSPORT, Transport, type TransportOptions } from '../client/transport.ts';
import { HarnessError } from '../errors.ts';
import type { RunContext } from '../kit/context.ts';
import { LEDGER_FILE, Ledger } from '../provision/ledger.ts';
import type { Removal } from '../provision/removal.ts';
import { buildReport, checkEntries } from '../results/build.ts';
import { judge, notJudged, runVerdict } from '../results/judge.ts';
import { CATALOGUE } from '../spec/index.ts';
import type { CleanupSummary, ConformanceReport } from '../results/report.ts';
import { ServerHeaders } from '../results/server-headers.ts';
import { OutcomeCollector } from './collect.ts';
import type { Config } from './config.ts';
import { type Preflight, preflight } from './preflight.ts';
import { Progress, type ProgressMode } from './progress.ts';
import { loadLimits, publicOptions, SECRET_SETTINGS } from './settings.ts';
import { markNotRun, markOtherShards, settleOutcomes } from './settle.ts';
import type { Stopper } from './stopper.ts';
import { runRounds } from './rounds.ts';
import type { SuiteSessions } from './suite-session.ts';
import { lastPhase, phasesOf, runPhases } from './phases.ts';
import { runSuites } from './suites.ts';
import { judgeRunRenewals } from './token-renewals.ts';
import type { UserSuites } from './user-suites.ts';
import { sweep } from './sweep.ts';
import { openTarget, type Target } from './target.ts';
import { EXCHANGE_LOG, writeHar } from '../report/har.ts';
import { logExchange, setStage } from '../kit/exchange-log.ts';
import { shardRuns } from '../kit/property.ts';
import { gitCommit, hostDescription, VERSION } from '../version.ts';
import { undeletableText } from '../report/render-common.ts';

export const THROTTLE_LOG = 'throttled.jsonl';
/** One line per request sent again with a new access token after a 401 (transport.ts). */
export const TOKEN_RENEWAL_LOG = 'token-renewals.jsonl';
/** Where a transport that gave up on the target says so to the others (removed before the reports). */
const BREAKER_FILE = '.target-stopped-answering';

/** Where one target's run writes and what it shares with the other targets of the run. */
export interface TargetRunOptions {
  config: Config;
  out: (line: string) => void;
  err: (line: string) => void;
  reportDir: string;
  runId: string;
  seed: number;
  suites: string[];
  redactor: Redactor;
  stopper: Stopper;
  /** The target's label, in a run with several. */
  label?: string | undefined;
  /** Where the ledger goes (outside the run folder: cleanup appends to it later); default reportDir. */
  ledgerDir?: string | undefined;
  /** The --provisioner module, an absolute path, already loaded and checked once. */
  provisioner?: string | undefined;
  /** Live progress while the suites run. */
  progress: ProgressMode;
  /** --suites-dir: the user's suite files (their names end `suites`) and catalogue, already checked. */
  user?: UserSuites | undefined;
  /** Raw writes to standard output (the terminal progress block). */
  write?: (text: string) => void;
  /** Warm vitest sessions to run the suites in (suite-session.ts); without them the run starts its own. */
  sessions?: SuiteSessions | undefined;
}

/** What one target's run produced, before the gate is applied. */
export interface TargetOutcome {
  report: ConformanceReport;
  /** Why the run stopped early, in words, when it did. */
  why?: string | undefined;
}

/** What a target's run sends through and records to: its load bounds, transport and ledger. */
export interface Session {
  limits: ReturnType<typeof loadLimits>;
  base: TransportOptions;
  transport: Transport;
  serverHeaders: ServerHeaders;
  ledger: Ledger;
  throttleLog: string;
  tokenRenewalLog: string;
  /** The private folder the workers share (access tokens; the cases of kit/shared-pool.ts); removed at the end. */
  shareDir: string;
  /** Requests the runner itself sent (preflight, sweep). */
  sent: { requests: number };
  /** Every exchange of the run, tagged with its check (JSON lines; exchanges.har is made from it). */
  exchangeLog: string;
}

export function prepare(o: TargetRunOptions, target: Target): Session {
  for (const c of [target.primary, target.peer]) o.redactor.add(c?.clientSecret).add(c?.apiKey);
  const limits = loadLimits(o.config, target.kind);
  const throttleLog = resolve(o.reportDir, THROTTLE_LOG);
  rmSync(throttleLog, { force: true });
  const tokenRenewalLog = resolve(o.reportDir, TOKEN_RENEWAL_LOG);
  rmSync(tokenRenewalLog, { force: true });
  const exchangeLog = resolve(o.reportDir, EXCHANGE_LOG);
  rmSync(exchangeLog, { force: true });
  const { timeoutMs, maxResponseBytes } = o.config;
  const breakerFile = resolve(o.reportDir, BREAKER_FILE);
  rmSync(breakerFile, { force: true });
  const base: TransportOptions = {
    ...DEFAULT_TRANSPORT,
    timeoutMs,
    maxResponseBytes,
    throttleLog,
    tokenRenewalLog,
    breakerFile,
  };
  const serverHeaders = new ServerHeaders();
  const bounds = { concurrency: limits.concurrency, maxRps: limits.maxRps };
  const sent = { requests: 0 };
  // Toward the run's own embedded server, the runner's requests say they are its own (base/attribution.ts).
  const attribution =
    target.kind === 'embedded' ? { unrecordedHeaders: { [ATTRIBUTION_HEADER]: RUNNER_ATTRIBUTION } } : {};
  const transport = new Transport({ ...base, ...bounds, ...attribution }, o.redactor, (e) => {
    sent.requests += 1;
    logExchange(exchangeLog, undefined, e);
    serverHeaders.observe(e.response?.headers);
  });
  if (o.ledgerDir) mkdirSync(o.ledgerDir, { recursive: true });
  const ledger = new Ledger(resolve(o.ledgerDir ?? o.reportDir, LEDGER_FILE), o.runId, target.baseUrl);
  ledger.begin(target.kind, o.config.keep);
  const shareDir = mkdtempSync(join(tmpdir(), 'screenconf-share-'));
  return {
    limits,
    base,
    transport,
    serverHeaders,
    ledger,
    throttleLog,
    tokenRenewalLog,
    shareDir,
    sent,
    exchangeLog,
  };
}

function describeLimits(limits: Session['limits']): string {
  const c =
    limits.concurrency > 0 ? `at most ${limits.concurrency} requests in flight` : 'no bound on requests in flight';
  const r = limits.maxRps > 0 ? `at most ${limits.maxRps} requests per second` : 'no bound on the request rate';
  return `load: ${c}, ${r} (shared by ${limits.workers} worker process${limits.workers === 1 ? '' : 'es'})`;
}

/** The header of a target's run: what it is, the seed, the load bounds, the ledger. */
function announce(o: TargetRunOptions, target: Target, s: Session): void {
  const { config } = o;
  const embedded = target.kind === 'embedded' ? ' (embedded reference server)' : '';
  const image = target.image ? ` (container of ${target.image}, removed at the end)` : '';
  const faults =
    (config.referenceFaults.length ? ` with faults: ${config.referenceFaults.join(', ')}` : '') +
    (config.referenceVariants.length ? ` with variants: ${config.referenceVariants.join(', ')}` : '');
  o.out(`target${o.label ? ` ${o.label}:` : ''} ${target.baseUrl}${embedded}${image}${faults}`);
  const campaign =
    config.shard && config.shardBy === 'runs'
      ? `; shard ${config.shard.index}/${config.shard.count} of them: ${shardRuns(config.runs, config.shard)} per ` +
        'property, on seeds of its own'
      : '';
  o.out(`seed ${o.seed} (replay with --seed ${o.seed}), ${config.runs} runs per property${campaign}`);
  const deadline = config.deadlineMs ? `; run deadline ${config.deadlineMs} ms` : '';
  o.out(`${describeLimits(s.limits)}; ${config.timeoutMs} ms per request${deadline}`);
  o.out(`ledger ${s.ledger.path}${config.keep ? ' (--keep: what the run creates stays on the target)' : ''}`);
}

/** What the workers are handed (vitest provide/inject). */
export function runContext(o: TargetRunOptions, target: Target, s: Session, round: number, pre: Preflight): RunContext {
  const { config } = o;
  return {
    runId: o.runId,
    seed: o.seed,
    runs: config.runs,
    target: {
      baseUrl: target.baseUrl,
      kind: target.kind,
      primary: target.primary,
      ...(target.peer ? { peer: target.peer } : {}),
      ...(pre.tokenEndpointAuth ? { tokenEndpointAuth: pre.tokenEndpointAuth } : {}),
    },
    transport: { ...s.base, ...s.limits.perWorker },
    ledgerPath: s.ledger.path,
    exchangeLog: s.exchangeLog,
    keep: config.keep,
    shrink: { timeMs: config.shrinkTimeMs, requests: config.shrinkRequests },
    processingTimeoutMs: config.processingTimeoutMs,
    shareDir: s.shareDir,
    ...(config.only ? { only: config.only } : {}),
    ...(config.shard && config.shardBy === 'runs' ? { runsShard: config.shard } : {}),
    ...(round > 1 ? { round } : {}),
    ...(config.bulkFailuresPath ? { bulkFailuresPath: config.bulkFailuresPath } : {}),
    ...(config.credentialGuesses !== undefined ? { credentialGuesses: config.credentialGuesses } : {}),
    ...(o.provisioner ? { provisioner: o.provisioner } : {}),
    ...(o.user ? { userCatalogue: o.user.catalogue } : {}),
    webhooks: {
      host: config.webhookHost,
      port: config.webhookPort,
      timeoutMs: config.webhookTimeoutMs ?? target.webhookTimeoutMs,
      quietMinMs: target.quietMinMs,
      ...(config.webhookPublicUrl ? { publicUrl: config.webhookPublicUrl } : {}),
    },
  };
}

function countLines(path: string): number {
  if (!existsSync(path)) return 0;
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '').length;
}

/** --max-failures, or 1 with --exit-first. */
function maxFailures(config: Config): number | undefined {
  return config.maxFailures ?? (config.exitFirst ? 1 : undefined);
}

/** Why the run stopped before its end of its own accord, when --max-failures made it. */
function cutShort(config: Config, collector: OutcomeCollector): string | undefined {
  const max = maxFailures(config);
  const failed = collector.outcomes.filter((o) => o.state === 'failed').length;
  if (max === undefined || failed < max || !collector.outcomes.some((o) => o.notRun)) return undefined;
  return `the run stopped after ${failed} failed check${failed === 1 ? '' : 's'} (--max-failures ${max})`;
}

/** Settles and judges the outcomes, and builds the target's report. */
function judgeRun(
  o: TargetRunOptions,
  target: Target,
  s: Session,
  run: {
    startedAt: Date;
    collector: OutcomeCollector;
    runErrors: string[];
    cleanup: CleanupSummary;
    left: Removal[];
    /** With --shard: the suites of this shard's part. */
    shardSuites: string[];
    /** With --duration: the rounds of the suites that ran. */
    rounds: number;
    /** The token renewals judged (runner/token-renewals.ts), while the exchange log was still there. */
    renewals: ReturnType<typeof judgeRunRenewals>;
  },
): TargetOutcome {
  const { stopper, redactor, config } = o;
  const why = stopper.why(config.deadlineMs);
  const short = cutShort(config, run.collector);
  // In suite order, whatever order the worker processes ended their files in: the report reads the same each run.
  const bySuite = [...run.collector.outcomes].sort((a, b) => o.suites.indexOf(a.suite) - o.suites.indexOf(b.suite));
  // The run's own record of its token renewals judges AUTH-TOKEN-LIFETIME too, unless --only or --check leave it out.
  const { renewals, outcome: renewed } = run.renewals;
  const lifetimeSelected = config.checks === undefined && (config.only?.includes('AUTH-TOKEN-LIFETIME') ?? true);
  const settled = settleOutcomes([...bySuite, ...(renewed && lifetimeSelected ? [renewed] : [])], why ?? short);
  const judged = judge(settled, [...CATALOGUE, ...(o.user?.catalogue ?? [])]);
  const byRuns = config.shardBy === 'runs';
  const shard = config.shard && {
    ...config.shard,
    suites: run.shardSuites,
    ...(byRuns ? { by: 'runs' as const, runs: shardRuns(config.runs, config.shard) } : {}),
  };
  const notRun = markNotRun(judged.results, why ?? short, shard?.suites ?? o.suites);
  // A shard of the suite files leaves the other files' requirements to the other shards; a campaign shard runs all.
  const results = byRuns ? notRun : markOtherShards(notRun, shard);
  const suiteErrors = [...run.collector.errors, ...run.runErrors].map((e) => redactor.redact(e));
  const renewalCount = countLines(s.tokenRenewalLog);
  const summary = {
    ...judged.summary,
    leftovers: run.left.map((r) => r.id),
    suiteErrors,
    throttled: countLines(s.throttleLog),
    ...(renewalCount ? { tokenRenewals: renewalCount } : {}),
    ...(renewals.length ? { renewals } : {}),
    cleanup: run.cleanup,
    mustNotJudged: notJudged(results),
    requests: {
      total: Object.values(run.collector.requestsBySuite).reduce((a, b) => a + b, 0) + s.sent.requests,
      // In suite order, whatever order the workers finished in: the report reads the same each run.
      bySuite: Object.fromEntries(
        o.suites.filter((x) => x in run.collector.requestsBySuite).map((x) => [x, run.collector.requestsBySuite[x]!]),
      ),
      runner: s.sent.requests,
    },
  };
  summary.verdict = runVerdict({ ...summary, suiteErrors, interrupted: stopper.interruption });
  summary.conforming = summary.verdict === 'conforming';
  const serverHeaders = s.serverHeaders.merge(run.collector.serverHeaders.toJSON()).toJSON();
  const report = buildReport(
    {
      id: o.runId,
      startedAt: run.startedAt,
      finishedAt: new Date(),
      seed: o.seed,
      runs: config.runs,
      suites: o.suites,
      ...(stopper.interruption ? { interrupted: stopper.interruption } : {}),
      ...(short ? { cutShort: short } : {}),
      options: publicOptions(config, SECRET_SETTINGS),
      host: hostDescription(),
      commit: gitCommit(),
      ...(shard ? { shard } : {}),
      ...(config.duration !== undefined ? { rounds: run.rounds } : {}),
    },
    {
      ...(o.label ? { label: o.label } : {}),
      baseUrl: target.baseUrl,
      kind: target.kind,
      referenceFaults: config.referenceFaults,
      referenceVariants: config.referenceVariants,
      serverHeaders,
      summary,
      results,
      checks: checkEntries(settled),
    },
  );
  return { report, why };
}

/** What the sweep did, in lines, and how to remove what stays. */
function reportCleanup(o: TargetRunOptions, target: Target, s: Session, cleanup: CleanupSummary, left: Removal[]) {
  const tag = o.label ? ` [${o.label}]` : '';
  if (cleanup.removedAtEnd)
    o.out(`cleanup${tag}: removed ${cleanup.removedAtEnd} case(s) the suites had left on the target`);
  for (const r of left) {
    o.out(o.redactor.redact(`cleanup${tag}: could not remove case ${r.id} (organisation ${r.org}): ${r.detail}`));
  }
  if (cleanup.unconfirmed.length) {
    const ids = cleanup.unconfirmed.join(', ');
    o.out(
      `cleanup${tag}: ${cleanup.unconfirmed.length} create request(s) got no answer, so the target may hold cases ` +
        `with no known id; their external ids: ${ids}`,
    );
  }
  const undeletable = undeletableText(cleanup, target.kind);
  if (undeletable) o.out(`cleanup${tag}: ${undeletable}`);
  if (o.config.keep && cleanup.left.length && target.kind === 'url') {
    o.out(
      `kept${tag} ${cleanup.left.length} case(s) on the target (--keep): ${cleanup.left.join(', ')}; remove them ` +
        `with: screenconf cleanup ${s.ledger.path} and the same credentials`,
    );
  }
}

/** Runs the suites against one target: open it, check it answers, run vitest, clean up, judge. */
export async function runTarget(o: TargetRunOptions): Promise<TargetOutcome> {
  const startedAt = new Date();
  mkdirSync(o.reportDir, { recursive: true });
  const target = await openTarget(o.config, { stopped: o.stopper.whenStopped, log: o.err });
  let session: Session | undefined;
  try {
    const live = prepare(o, target);
    session = live;
    announce(o, target, session);
    setStage('preflight');
    const pre = await preflight(target, session.transport);
    if (pre.tokenEndpointAuth === 'api-key')
      o.out(
        `token endpoint${o.label ? ` [${o.label}]` : ''}: refused a token request without an Authorization header ` +
          `(HTTP ${pre.refusedWithoutHeader}) and issued one with Authorization: Bearer <API key> ` +
          '(§ Authentication 3): every token request of the run carries it',
      );
    const progress = new Progress({
      mode: o.progress,
      out: o.out,
      write: o.write,
      intervalMs: o.config.progressIntervalMs,
      label: o.label,
    });
    const collector = new OutcomeCollector((line) =>
      progress.log(o.label ? line.replace(/^( *)/, `$1[${o.label}] `) : line),
    );
    let suitesRun = { errors: [] as string[], suites: [] as string[], rounds: 0 };
    if (!o.stopper.interruption) {
      const phases = phasesOf(o.suites);
      const then = phases.length > 1 ? `; then, alone, ${phases[1]!.join(', ')} (near-miss credentials)` : '';
      o.out(`suites${o.label ? ` [${o.label}]` : ''}: ${phases[0]!.join(', ')}${then}`);
      const max = maxFailures(o.config);
      const failed = () => collector.outcomes.filter((x) => x.state === 'failed').length;
      const shard = o.config.shardBy === 'runs' ? o.config.shard : undefined;
      const stopped = () => o.stopper.interruption !== undefined || (max !== undefined && failed() >= max);
      suitesRun = await runRounds({
        durationMs: o.config.duration,
        runsPerRound: shardRuns(o.config.runs, shard),
        stopped,
        out: (line) => progress.log(line),
        run: (round) =>
          runPhases(
            o.suites,
            o.config.shardBy === 'files' ? o.config.shard : undefined,
            (suites, fileShard) =>
              runSuites({
                suites,
                // The user's suite files run in the first phase, beside ours.
                userSuites: lastPhase(suites) ? undefined : o.user?.suites,
                context: runContext(o, target, live, round, pre),
                collector,
                progress,
                workers: live.limits.workers,
                bail: maxFailures(o.config),
                shard: fileShard,
                checks: o.config.checks,
                stopper: o.stopper,
                redactor: o.redactor,
                out: o.out,
                sessions: o.sessions,
              }),
            stopped,
          ),
      });
    }
    for (const name of o.config.checks ?? []) {
      if (!collector.outcomes.some((x) => x.name === name && x.state !== 'skipped'))
        o.out(`--check: no check of the suites selected is named "${name}" (report.md and checks[] name them)`);
    }
    setStage('sweep');
    const { cleanup, left } = await sweep(session.ledger, target, session.transport, o.config.keep);
    rmSync(session.base.breakerFile!, { force: true });
    // Before exchanges.har is made: the exchange log it is made from (and then removed) shows the token requests.
    const clients = { ours: target.primary.clientId, peer: target.peer?.clientId };
    const renewals = judgeRunRenewals(session.tokenRenewalLog, session.exchangeLog, clients);
    const har = { version: VERSION, runId: o.runId, startedAt: startedAt.toISOString(), baseUrl: target.baseUrl };
    writeHar(o.reportDir, { ...har, label: o.label }, o.redactor);
    const { errors: runErrors, suites: shardSuites, rounds } = suitesRun;
    const judging = { startedAt, collector, runErrors, cleanup, left, shardSuites, rounds, renewals };
    const outcome = judgeRun(o, target, session, judging);
    reportCleanup(o, target, session, cleanup, left);
    return outcome;
  } catch (e) {
    if (e instanceof HarnessError) {
      throw new HarnessError(e.code, o.redactor.redact(`${o.label ? `target "${o.label}": ` : ''}${e.message}`));
    }
    throw e;
  } finally {
    // A run that ended before its reports leaves no log behind (exchanges.har is made from it once they are).
    rmSync(resolve(o.reportDir, EXCHANGE_LOG), { force: true });
    if (session) rmSync(session.shareDir, { recursive: true, force: true });
    await target.close();
  }
}
