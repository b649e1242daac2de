/**
 * `screenconf run`: check what must be right before anything is sent (expectations file,
 * provisioning adapter), run each target (target-run.ts), apply the release gate, write the
 * report folder, print the summary, and return the exit status. A signal or the run deadline
 * stops the run gracefully: the checks in flight finish, the rest are not started, cleanup still
 * runs, and the report says what ran.
 */
import { type KeyObject, randomBytes, randomInt } from 'node:crypto';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { Redactor } from '../base/redact.ts';
import { DEFAULT_TRANSPORT, Transport } from '../client/transport.ts';
import { HarnessError } from '../errors.ts';
import { exitForRun } from '../exit.ts';
import { loadAdapter } from '../provision/adapter.ts';
import { applyGate, type Expectation, type GateOptions } from '../results/gate.ts';
import { mergeReports, type TargetReport } from '../results/merge.ts';
import type { ConformanceReport } from '../results/report.ts';
import {
  type ConsoleStyle,
  githubAnnotations,
  PLAIN,
  renderMultiSummary,
  renderSummary,
  reproductionNotes,
  costLine,
  runEndLine,
} from '../report/console.ts';
import { createRunFolder, pointLatest, writeRunReports } from '../report/folder.ts';
import { writeMergedHar } from '../report/har.ts';
import { MANIFEST, SIGNATURE } from '../report/manifest.ts';
import { shardsText } from '../report/render-common.ts';
import { fingerprint, loadPrivateKey } from '../report/signature.ts';
import { VERSION } from '../version.ts';
import { type Config, configSecrets, type TargetConfig } from './config.ts';
import { isIsoDate, loadExpectations, todayUtc } from './expectations.ts';
import { preflight } from './preflight.ts';
import { publicOptions, SECRET_SETTINGS, SUITES } from './settings.ts';
import type { ProgressMode } from './progress.ts';
import { Stopper } from './stopper.ts';
import type { SuiteSessions } from './suite-session.ts';
import { type TargetOutcome, type TargetRunOptions, runTarget } from './target-run.ts';
import { openTarget } from './target.ts';
import { loadUser } from './user-suites.ts';

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
  /** Live progress: redrawn lines on a terminal, a line every --progress-interval-ms otherwise, or none. */
  progress?: ProgressMode;
  /** Raw writes to standard output, for the redrawn lines. */
  write?: (text: string) => void;
  /** Warm vitest sessions for the suites (suite-session.ts); without them the run starts vitest and ends it. */
  sessions?: SuiteSessions;
}

/** What every target of a run shares. */
interface RunShared {
  config: Config;
  io: RunIO;
  err: (line: string) => void;
  style: ConsoleStyle;
  reportDir: string;
  runDir: string;
  expectations: Expectation[];
  gateOptions: GateOptions;
  /** --sign-key, loaded before anything is sent. */
  signKey: KeyObject | undefined;
  target: Omit<TargetRunOptions, 'config' | 'reportDir'>;
}

/** The gate applied to one target's report: results marked `expected`, the gate in the summary. */
export function gated(report: ConformanceReport, expectations: Expectation[], options: GateOptions): ConformanceReport {
  const { results, gate } = applyGate(report.results, expectations, options);
  const summary = { ...report.summary, gate };
  return { ...report, summary, targets: report.targets.map((t) => ({ ...t, summary })), results };
}

/**
 * Writes a report folder: conformance.json, report.html, report.md, junit.xml, repro/ and, last, SHA256SUMS (signed
 * with --sign-key in the run folder itself, whose SHA256SUMS covers the targets' folders too).
 */
function writeReport(dir: string, report: ConformanceReport, redactor: Redactor, signKey?: KeyObject): string {
  return writeRunReports(dir, report, redactor, signKey).json;
}

/** With --sign-key: where the signature is and which key made it (what verify --public-key checks). */
function announceSignature(run: RunShared): void {
  if (run.signKey) run.io.out(`signed ${MANIFEST} into ${SIGNATURE} with the key ${fingerprint(run.signKey)}`);
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

/** A shard's summary says it is one: its verdict is of its part, the run's comes from screenconf merge. */
function shardNote(report: ConformanceReport): string[] {
  const text = shardsText(report.run);
  return text ? [`${text[0]!.toUpperCase()}${text.slice(1)}.`] : [];
}

/** The exit status once the reports are written, with the one line that explains a stop or a fault. */
function finish(run: RunShared, report: ConformanceReport, reportPath: string, why: string | undefined): number {
  const { interruption } = run.target.stopper;
  const { summary } = report;
  const incomplete = summary.harnessFaults.length > 0 || summary.suiteErrors.length > 0;
  const end = runEndLine({ interruption, why, incomplete, summary, reportPath, kept: run.config.keep });
  if (end) run.err(run.target.redactor.redact(end));
  return exitForRun({
    signal: interruption === 'deadline' ? undefined : interruption,
    deadline: interruption === 'deadline',
    incomplete,
    gatePassed: summary.gate?.passed !== false,
  });
}

async function runOneTarget(run: RunShared): Promise<number> {
  const { config, io } = run;
  const { redactor } = run.target;
  const { report, why }: TargetOutcome = await runTarget({
    ...run.target,
    config,
    reportDir: run.runDir,
    ledgerDir: run.reportDir,
  });
  const gatedReport = gated(report, run.expectations, run.gateOptions);
  // As written: each failed result names its reproduction script.
  const { json: reportPath, report: final } = writeRunReports(run.runDir, gatedReport, redactor, run.signKey);
  announceSignature(run);
  pointLatest(run.reportDir, run.runDir);
  const notes = [
    ...(final.run.cutShort ? [`Cut short: ${final.run.cutShort}; cleanup ran, and what did not run is skipped.`] : []),
    ...shardNote(final),
    ...reproductionNotes(final.results, {
      seed: run.target.seed,
      referenceFaults: config.referenceFaults,
      referenceVariants: config.referenceVariants,
      baseUrl: final.target.kind === 'embedded' ? undefined : final.target.baseUrl,
    }),
  ];
  const summaryOptions = { reportPath, interrupted: why, style: run.style, notes, cost: costLine(final) };
  io.out(redactor.redact(renderSummary(final.results, final.summary, summaryOptions)));
  if (run.style.githubActions && final.summary.gate) {
    const annotations = githubAnnotations([{ results: final.results }], final.summary.gate, (s) => redactor.redact(s));
    for (const line of annotations) io.out(line);
  }
  return finish(run, final, reportPath, why);
}

/** Several targets: each is opened and must answer before any suite runs, then they run one after another. */
async function runSeveralTargets(run: RunShared, targets: TargetConfig[]): Promise<number> {
  const { config, io } = run;
  const { redactor, stopper } = run.target;
  for (const t of targets) {
    const target = await openTarget(targetConfig(config, t, run.reportDir));
    try {
      const { timeoutMs, maxResponseBytes } = config;
      await preflight(target, new Transport({ ...DEFAULT_TRANSPORT, timeoutMs, maxResponseBytes }, redactor));
    } catch (e) {
      if (e instanceof HarnessError)
        throw new HarnessError(e.code, redactor.redact(`target "${t.label}": ` + `${e.message}`));
      throw e;
    } finally {
      await target.close();
    }
  }
  const done: TargetReport[] = [];
  let why: string | undefined;
  for (const t of targets) {
    if (stopper.interruption) {
      io.out(`target ${t.label}: not run (${why ?? 'the run was stopping'})`);
      continue;
    }
    io.out('');
    io.out(`── ${t.label}: ${t.baseUrl}`);
    const dir = resolve(run.runDir, t.label);
    const outcome = await runTarget({
      ...run.target,
      config: targetConfig(config, t, dir),
      reportDir: dir,
      ledgerDir: resolve(run.reportDir, t.label),
      label: t.label,
    });
    why ??= outcome.why;
    const report = gated(outcome.report, run.expectations, { ...run.gateOptions, label: t.label });
    writeReport(dir, report, redactor);
    done.push({ label: t.label, report, path: `${t.label}/conformance.json` });
  }
  const targetDirs = done.map((d) => resolve(run.runDir, d.label));
  writeMergedHar(run.runDir, targetDirs, { version: VERSION, runId: run.target.runId }, redactor);
  const merged = mergeReports(done, run.gateOptions);
  // The merged report's settings are the whole run's (every target), not the first target's.
  merged.run = { ...merged.run, options: publicOptions(config, SECRET_SETTINGS) };
  const reportPath = writeReport(run.runDir, merged, redactor, run.signKey);
  announceSignature(run);
  pointLatest(run.reportDir, run.runDir);
  const notes = [
    ...shardNote(merged),
    ...reproductionNotes(
      done.flatMap((d) => d.report.results),
      { seed: run.target.seed, referenceFaults: config.referenceFaults, baseUrl: "the target's base URL" },
    ),
  ];
  const summaryOptions = { reportPath, interrupted: why, style: run.style, notes, cost: costLine(merged) };
  io.out(redactor.redact(renderMultiSummary(merged, summaryOptions)));
  if (run.style.githubActions && merged.summary.gate) {
    const annotated = done.map((d) => ({ label: d.label, results: d.report.results }));
    for (const line of githubAnnotations(annotated, merged.summary.gate, (s) => redactor.redact(s))) io.out(line);
  }
  return finish(run, merged, reportPath, why);
}

export async function runConformance(config: Config, io: RunIO): Promise<number> {
  const seed = config.seed ?? randomInt(0, 2 ** 31 - 1);
  const runId = randomBytes(4).toString('hex');
  const reportDir = resolve(io.cwd, config.reportDir);
  const redactor = new Redactor(configSecrets(config));
  const err = io.err ?? io.out;
  const today = io.today ?? todayUtc();
  if (!isIsoDate(today)) {
    throw new HarnessError('SC_CONFIG', `SCREENCONF_TODAY must be a date YYYY-MM-DD, got "${today}"`);
  }
  // The user's suites and catalogue (--suites-dir) are checked before anything is sent: a bad catalogue or an
  // unknown id must not cost a run. So is the expectations file (which may name the user's requirements too).
  const user = loadUser(config);
  const labels = config.targets?.map((t) => t.label);
  const expectations = config.expect ? loadExpectations(config.expect, labels, user?.catalogue) : [];
  const gateOptions = {
    strict: config.strict,
    requireComplete: config.requireComplete,
    today,
    ...(config.expect ? { expectationsFile: config.expect } : {}),
  };
  // So is the provisioning adapter: a module that does not load must not cost a run either.
  const provisioner = config.provisioner ? resolve(io.cwd, config.provisioner) : undefined;
  if (provisioner) await loadAdapter(provisioner);
  // And the signing key: a run whose evidence cannot be signed as asked is not started.
  const signKey = config.signKey ? loadPrivateKey(resolve(io.cwd, config.signKey)) : undefined;

  // A stop (signal or deadline) cancels the vitest run once it is going; before that, it is checked between steps.
  const stopper = new Stopper();
  void io.stop?.then((signal) => stopper.request(signal === 'SIGTERM' ? 'SIGTERM' : 'SIGINT'));
  const deadline = config.deadlineMs ? setTimeout(() => stopper.request('deadline'), config.deadlineMs) : undefined;
  // One folder per run inside the report folder; `latest` points at it once its reports are written.
  let runDir: string | undefined;
  try {
    runDir = createRunFolder(reportDir, new Date(), runId);
    const several = config.targets
      ? `, ${config.targets.length} target${config.targets.length === 1 ? '' : 's'}: ${labels!.join(', ')}`
      : '';
    io.out(`screenconf ${VERSION} — run ${runId}${several}`);
    io.out(`report folder ${runDir}`);
    if (expectations.length) io.out(`expectations: ${expectations.length} known failure(s) from ${config.expect}`);
    const run: RunShared = {
      config,
      io,
      err,
      style: io.console ?? PLAIN,
      reportDir,
      runDir,
      expectations,
      gateOptions,
      signKey,
      target: {
        out: io.out,
        err,
        runId,
        seed,
        suites: [...(config.suites ?? SUITES), ...(user?.suites.map((u) => u.name) ?? [])],
        user,
        redactor,
        stopper,
        provisioner,
        progress: io.progress ?? 'off',
        ...(io.write ? { write: io.write } : {}),
        sessions: io.sessions,
      },
    };
    return config.targets ? await runSeveralTargets(run, config.targets) : await runOneTarget(run);
  } catch (e) {
    // A run that stopped before writing anything leaves no empty folder behind.
    if (runDir && existsSync(runDir) && readdirSync(runDir).length === 0)
      rmSync(runDir, { recursive: true, force: true });
    // A stop that came while the target was being opened (a container starting): nothing ran.
    const { interruption } = stopper;
    if (e instanceof HarnessError && e.code === 'SC_INTERRUPTED' && interruption && interruption !== 'deadline') {
      err(redactor.redact(`screenconf: interrupted by ${interruption}: ${e.message}`));
      return exitForRun({ signal: interruption, gatePassed: false });
    }
    if (e instanceof HarnessError && e.code === 'SC_INTERRUPTED' && interruption === 'deadline') {
      const message = `the run deadline of ${config.deadlineMs} ms passed: ${e.message}`;
      throw new HarnessError('SC_DEADLINE', redactor.redact(message));
    }
    if (e instanceof HarnessError) throw new HarnessError(e.code, redactor.redact(e.message));
    throw e;
  } finally {
    if (deadline) clearTimeout(deadline);
  }
}
