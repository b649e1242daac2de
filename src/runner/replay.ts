/**
 * `screenconf replay`: a run's failures replayed against a target and decided by the run's own judge. A check's
 * failure is replayed by running the same check again (vitest on its suite file, only that check selected), with the
 * run's seed and, for a property, its shrunk counterexample through the property's own predicate (the path a failed
 * check's re-run takes, kit/property.ts); its assertions decide. A failure of the invariant watcher has no check of
 * its own: its evidence's requests are sent again and the watcher judges the answers (replay-steps.ts). Either way
 * the replay must meet the setup the run's failure was judged on: a setup step that answers otherwise than in the run
 * leaves it undecided (replay-align.ts), never a verdict.
 *
 * Exit per failure: 1 reproduced (the requirement fails again), 0 conforms now, 3 undecided (the replay could not
 * decide: a harness fault, a check that could not judge or skipped, a diverged setup), 2 could not run (the check
 * is not in its suite file any more, a record the replay cannot make, a credential missing). A requirement fails
 * again when any of its failures does, as the run judges it.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Redactor } from '../base/redact.ts';
import { organisationClient } from '../client/api.ts';
import { HarnessError } from '../errors.ts';
import { EXIT, exitForReplays } from '../exit.ts';
import { setStage } from '../kit/exchange-log.ts';
import type { ReplayedCheck } from '../kit/context.ts';
import { loadAdapter } from '../provision/adapter.ts';
import { LEDGER_FILE } from '../provision/ledger.ts';
import { HAR_FILE, parseHar } from '../report/har.ts';
import { type LoggedExchange, parseExchangeLog } from '../results/exchange-log.ts';
import { oldestFirst } from '../results/evidence.ts';
import { failureHeadline } from '../results/failure.ts';
import { WATCH_NAME } from '../results/invariants.ts';
import { RENEWALS_CHECK } from '../results/token-renewals.ts';
import type { CheckOutcome } from '../results/outcome.ts';
import type { ConformanceReport, Failure, RequirementResult } from '../results/report.ts';
import { OutcomeCollector } from './collect.ts';
import { type Config, configSecrets } from './config.ts';
import { type Preflight, preflight } from './preflight.ts';
import { Progress } from './progress.ts';
import { type CheckLog, compareSetup, type EvidenceStep } from './replay-align.ts';
import { type Decision, replayWatched } from './replay-steps.ts';
import { Stopper } from './stopper.ts';
import type { SuiteSessions } from './suite-session.ts';
import { lastPhase, runPhases } from './phases.ts';
import { runSuites } from './suites.ts';
import { sweep } from './sweep.ts';
import { prepare, runContext, type Session, type TargetRunOptions } from './target-run.ts';
import { openTarget, type Target } from './target.ts';
import { loadUser } from './user-suites.ts';

export interface ReplayIO {
  out: (line: string) => void;
  err: (line: string) => void;
  cwd: string;
  /** Resolves with the signal's name when the process is asked to stop: the checks in flight finish, cleanup runs. */
  stop?: Promise<NodeJS.Signals> | undefined;
  /** Warm vitest sessions to run the checks in (suite-session.ts). */
  sessions?: SuiteSessions | undefined;
}

/** One failure of the run, as the replay takes it: a check's (in its suite file), or the invariant watcher's. */
export interface ReplayUnit {
  result: RequirementResult;
  failure: Failure;
  watched: boolean;
  /** The check's suite file (as the run's results name it). */
  suite?: string | undefined;
}

/** What a failed requirement's replay decided. */
export interface RequirementReplay {
  id: string;
  decision: Decision;
  /** With several failures (checks, the invariant watcher's), each one's decision. */
  failures: { test: string; decision: Decision }[];
}

/**
 * The failures to replay: those of the requirements named (every failed one when none is named) that the run
 * counted (not a flaky one, which a re-run passed). An id that is not a result of the run, or one that did not fail,
 * is a usage error.
 */
export function failuresToReplay(report: ConformanceReport, ids: readonly string[] | undefined): ReplayUnit[] {
  const failed = (r: RequirementResult) => r.verdict === 'fail' || r.verdict === 'warn';
  const chosen = ids
    ? ids.map((id) => {
        const r = report.results.find((x) => x.id === id);
        if (!r) throw new HarnessError('SC_USAGE', `${id} is not a requirement of run ${report.run.id}`);
        if (!failed(r) || !r.failures?.length)
          throw new HarnessError('SC_USAGE', `${id} did not fail in run ${report.run.id} (${r.verdict}): no failure`);
        return r;
      })
    : report.results.filter(failed);
  return chosen.flatMap((result) =>
    (result.failures ?? [])
      .filter((f) => f.flaky !== true)
      .map((failure) => {
        const watched = failure.test.startsWith(WATCH_NAME);
        // The token renewals were judged from the run's record, by no check of a suite file (runner/token-renewals.ts).
        const recorded = watched || failure.test === RENEWALS_CHECK;
        const suite = recorded ? undefined : result.tests.find((t) => t.name === failure.test)?.suite;
        return { result, failure, watched, ...(suite ? { suite } : {}) };
      }),
  );
}

/** The steps of a failure's evidence as its reproductions number them (cleanup left out). */
function evidenceSteps(f: Failure): EvidenceStep[] {
  return (f.evidence?.exchanges ?? []).filter((e) => !e.request.cleanup).map((exchange, i) => ({ n: i + 1, exchange }));
}

/** The step of the evidence in words: `step 2 (PATCH /api/cases/5/)`. */
function stepText(s: EvidenceStep, runBaseUrl: string): string {
  const url = s.exchange.request.url;
  const path = url.startsWith(runBaseUrl) ? url.slice(runBaseUrl.replace(/\/+$/, '').length) : url;
  return `step ${s.n} (${s.exchange.request.method} ${path})`;
}

/** A check's exchanges in the run (when its folder has them) and in its replay, for comparing its failure's setup. */
export interface CheckExchanges {
  /** The run's base URL, which the evidence's URLs begin with. */
  runBaseUrl: string;
  run: CheckLog | undefined;
  replay: CheckLog;
}

/** The decision on a check run again: its outcome, and whether it met the setup its run's failure was judged on. */
export function decideCheck(unit: ReplayUnit, outcome: CheckOutcome | undefined, sent: CheckExchanges): Decision {
  const name = `"${unit.failure.test}"`;
  if (!outcome) return { exit: 2, why: `the check ${name} is not in suite ${unit.suite} (renamed or removed?)` };
  if (outcome.notRun) return { exit: 3, why: `the check ${name} did not run: the replay was stopping` };
  if (outcome.state === 'skipped') return { exit: 3, why: `the check skipped: ${outcome.skipReason ?? 'no reason'}` };
  if (outcome.harnessFault) {
    const { code, message } = outcome.harnessFault;
    return { exit: 3, why: `the check could not judge the target: ${code} ${message.split('\n')[0]}` };
  }
  const runUrl = sent.runBaseUrl;
  const setup = compareSetup(evidenceSteps(unit.failure), sent.run, sent.replay);
  if (setup.kind === 'status')
    return {
      exit: 3,
      why:
        `setup diverged at ${stepText(setup.step, runUrl)}: the run saw ${setup.run}, the replay ` +
        `${setup.replay ?? 'no answer'}`,
    };
  const passed = outcome.state === 'passed';
  if (setup.kind === 'skipped' || (passed && setup.kind === 'stopped'))
    return { exit: 3, why: `setup diverged at ${stepText(setup.step, runUrl)}: the replay did not send it` };
  if (!passed) {
    const f = outcome.failure;
    const first = (f && (failureHeadline(f) ?? f.message.split('\n')[0])) ?? 'failed';
    const early = setup.kind === 'stopped' ? ` (before ${stepText(setup.step, runUrl)})` : '';
    return { exit: 1, why: `the check failed again${early}: ${first}` };
  }
  return {
    exit: 0,
    why: outcome.flaky ? 'the check failed, then passed when re-run (flaky, as the run counts it)' : 'the check passed',
  };
}

/** A requirement fails again when any of its failures does; else the worst of the others decides. */
function decideRequirement(decisions: readonly Decision[]): Decision {
  const order = [1, 2, 3, 0] as const;
  for (const exit of order) {
    const d = decisions.find((x) => x.exit === exit);
    if (d) return d;
  }
  return { exit: 3, why: 'no failure of it to replay' };
}

/**
 * The exchanges a check sent in its last attempt (all of them in a log that does not number attempts), in the order
 * sent, cleanup left out.
 */
function sentBy(log: readonly LoggedExchange[], suite: string, check: string): LoggedExchange[] {
  const own = log.filter((l) => l.stage === 'check' && l.suite === suite && l.check === check);
  const last = Math.max(0, ...own.map((l) => l.attempt ?? 0));
  const kept = own.filter((l) => (l.attempt ?? 0) === last && !l.exchange.request.cleanup);
  return oldestFirst(kept.map((l) => ({ at: l.exchange.at, l }))).map((x) => x.l);
}

/** The run's exchanges from its exchanges.har, or undefined when the run folder has none that can be read. */
function runExchanges(runDir: string): LoggedExchange[] | undefined {
  try {
    return parseHar(readFileSync(join(runDir, HAR_FILE), 'utf8'));
  } catch {
    return undefined;
  }
}

const WORDS: Record<Decision['exit'], string> = {
  0: 'CONFORMS now',
  1: 'REPRODUCED',
  2: 'could not run',
  3: 'UNDECIDED',
};

/** The line of one requirement's replay; with several failures, a line more for each. */
export function replayLines(r: RequirementReplay): string[] {
  const line = (d: Decision) => `exit ${d.exit} ${WORDS[d.exit]}: ${d.why}`;
  const each = r.failures.length > 1 ? r.failures.map((f) => `  ${f.test}: ${line(f.decision)}`) : [];
  return [`${r.id}: ${line(r.decision)}`, ...each];
}

/** Replays the run's failures on an opened target; the decisions, one per requirement. */
async function replayOn(
  units: readonly ReplayUnit[],
  report: ConformanceReport,
  runDir: string,
  o: TargetRunOptions,
  target: Target,
  s: Session,
  pre: Preflight,
): Promise<RequirementReplay[]> {
  const decisions = new Map<ReplayUnit, Decision>();
  for (const u of units.filter((x) => !x.watched && x.suite === undefined))
    decisions.set(
      u,
      u.failure.test === RENEWALS_CHECK
        ? {
            exit: 3,
            why:
              "judged from the run's record of its token renewals (summary.renewals): a replay cannot make a token " +
              'as old again where it was refused, nor show that no newer one was issued meanwhile',
          }
        : { exit: 2, why: `the run's results do not name the suite file of the check "${u.failure.test}"` },
    );
  const checks = units.filter((u) => u.suite !== undefined);
  if (checks.length) {
    const collector = new OutcomeCollector(() => {});
    const replayed: ReplayedCheck[] = checks.map((u) => ({
      suite: u.suite!,
      name: u.failure.test,
      ...(u.failure.evidence?.property ? { property: u.failure.evidence.property } : {}),
    }));
    const suites = [...new Set(replayed.map((c) => c.suite))];
    const user = new Set(o.user?.suites.map((u) => u.name));
    // In the run's phases: near-miss credentials after every other check, as in a run (runner/phases.ts).
    const { errors } = await runPhases(
      suites,
      undefined,
      (phase) =>
        runSuites({
          suites: phase.filter((x) => !user.has(x)),
          userSuites: lastPhase(phase) ? undefined : o.user?.suites.filter((u) => suites.includes(u.name)),
          context: { ...runContext(o, target, s, 1, pre), replay: { checks: replayed } },
          collector,
          progress: new Progress({ mode: 'off', out: o.out }),
          workers: s.limits.workers,
          stopper: o.stopper,
          redactor: o.redactor,
          out: o.out,
          checks: [...new Set(replayed.map((c) => c.name))],
          sessions: o.sessions,
        }),
      () => o.stopper.interruption !== undefined,
    );
    for (const e of [...errors, ...collector.errors]) o.err(o.redactor.redact(`replay: ${e}`));
    const log = existsSync(s.exchangeLog) ? parseExchangeLog(readFileSync(s.exchangeLog, 'utf8')) : [];
    const ran = runExchanges(runDir);
    for (const u of checks) {
      const outcome = collector.outcomes.find((x) => x.suite === u.suite && x.name === u.failure.test);
      const run = ran && { baseUrl: report.target.baseUrl, attempt: sentBy(ran, u.suite!, u.failure.test), all: ran };
      const replay = { baseUrl: target.baseUrl, attempt: sentBy(log, u.suite!, u.failure.test), all: log };
      decisions.set(u, decideCheck(u, outcome, { runBaseUrl: report.target.baseUrl, run, replay }));
    }
  }
  const { baseUrl } = target;
  const stepsTarget = {
    baseUrl,
    transport: s.transport,
    redactor: o.redactor,
    ours: organisationClient({ baseUrl, credentials: target.primary, transport: s.transport, organisation: 'ours' }),
    peer: organisationClient({ baseUrl, credentials: target.peer, transport: s.transport, organisation: 'peer' }),
    clientSecret: target.primary.clientSecret,
    ledger: s.ledger,
    replayId: o.runId,
    processingTimeoutMs: o.config.processingTimeoutMs,
  };
  for (const [i, u] of units.filter((x) => x.watched).entries()) {
    if (o.stopper.interruption) {
      decisions.set(u, { exit: 3, why: 'not replayed: the replay was stopping' });
      continue;
    }
    const run = { baseUrl: report.target.baseUrl, runId: report.run.id };
    // Each failure's steps are a reproduction of their own, with external_ids of their own (of the run's length): two
    // failures' evidence may hold one creation of the run (a case one worker deleted, whose id two files saw again).
    const replayId = i === 0 ? o.runId : randomBytes(4).toString('hex');
    decisions.set(u, await replayWatched(u.result.id, u.failure, run, { ...stepsTarget, replayId }));
  }
  const ids = [...new Set(units.map((u) => u.result.id))];
  return ids.map((id) => ({
    id,
    decision: decideRequirement(units.filter((u) => u.result.id === id).map((u) => decisions.get(u)!)),
    failures: units
      .filter((u) => u.result.id === id)
      .map((u) => ({ test: u.failure.test, decision: decisions.get(u)! })),
  }));
}

/** What a replay is given: the run's report and folder, the settings of the replay, the requirements to replay. */
export interface ReplayRequest {
  report: ConformanceReport;
  runDir: string;
  config: Config;
  /** The requirements to replay; undefined: every failed one (--all). */
  ids: readonly string[] | undefined;
}

/** Replays the failures of a run folder and prints one line per requirement; returns the exit status. */
export async function replayRun(req: ReplayRequest, io: ReplayIO): Promise<number> {
  const { report } = req;
  // The run's inputs, every check of the replay selected by name (not --only), nothing kept on the target.
  const { only: _only, shard: _shard, ...given } = req.config;
  const config: Config = { ...given, runs: report.run.runs, keep: false };
  if (report.targets.length > 1) {
    const labels = report.targets.map((t) => t.label).join(', ');
    throw new HarnessError(
      'SC_USAGE',
      `run ${report.run.id} had several targets (${labels}): replay one target's folder, <run folder>/<label>`,
    );
  }
  const units = failuresToReplay(report, req.ids);
  if (!units.length) {
    io.out(`run ${report.run.id} has no failure to replay`);
    return EXIT.ok;
  }
  const redactor = new Redactor(configSecrets(config));
  const replayId = randomBytes(4).toString('hex');
  const provisioner = config.provisioner ? resolve(io.cwd, config.provisioner) : undefined;
  if (provisioner) await loadAdapter(provisioner);
  const user = loadUser(config);
  const stopper = new Stopper();
  void io.stop?.then((signal) => stopper.request(signal === 'SIGTERM' ? 'SIGTERM' : 'SIGINT'));
  const target = await openTarget(config, { stopped: stopper.whenStopped, log: io.err });
  const workDir = mkdtempSync(join(tmpdir(), 'screenconf-replay-'));
  // What the replay creates goes in the report folder's ledger, beside the run's (screenconf cleanup reads it).
  const reportDir = dirname(req.runDir);
  const ledgerDir = existsSync(join(reportDir, LEDGER_FILE)) ? reportDir : workDir;
  let shareDir: string | undefined;
  try {
    const o: TargetRunOptions = {
      config,
      out: io.out,
      err: io.err,
      reportDir: workDir,
      ledgerDir,
      runId: replayId,
      seed: report.run.seed,
      suites: [],
      redactor,
      stopper,
      provisioner,
      user,
      progress: 'off',
      sessions: io.sessions,
    };
    const s = prepare(o, target);
    shareDir = s.shareDir;
    const faults = config.referenceFaults.length ? ` with faults: ${config.referenceFaults.join(', ')}` : '';
    const embedded = target.kind === 'embedded' ? ` (a new embedded reference server${faults})` : '';
    io.out(
      redactor.redact(
        `replay ${replayId} of run ${report.run.id} (seed ${report.run.seed}, ${report.run.runs} runs per property) ` +
          `against ${target.baseUrl}${embedded}; ledger ${s.ledger.path}`,
      ),
    );
    try {
      setStage('preflight');
      const pre = await preflight(target, s.transport);
      const replays = await replayOn(units, report, req.runDir, o, target, s, pre);
      for (const r of replays) for (const line of replayLines(r)) io.out(redactor.redact(line));
      return exitForReplays(replays.map((r) => r.decision.exit));
    } finally {
      setStage('sweep');
      const { left } = await sweep(s.ledger, target, s.transport, false);
      for (const r of left) io.err(redactor.redact(`cleanup: could not remove case ${r.id}: ${r.detail}`));
    }
  } finally {
    await target.close();
    rmSync(workDir, { recursive: true, force: true });
    if (shareDir) rmSync(shareDir, { recursive: true, force: true });
  }
}
