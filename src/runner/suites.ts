/**
 * The suites stage of a run: the selected suite files run in a vitest session (suite-session.ts), with the run
 * context provided to the workers, the collector as reporter, cancellation on a stop, and vitest's own noise kept
 * out of the console. A run given warm sessions (the in-process API) takes one of them; otherwise it opens a
 * session of its own and closes it at the end, as `screenconf run` does.
 */
import { randomUUID } from 'node:crypto';
import type { Vitest } from 'vitest/node';
import { sleep } from '../client/limiter.ts';
import type { Redactor } from '../base/redact.ts';
import type { RunContext } from '../kit/context.ts';
import { CODE_EXT } from '../version.ts';
import { suiteName } from '../base/suite-file.ts';
import { failureLimit, type OutcomeCollector } from './collect.ts';
import type { Progress } from './progress.ts';
import type { Stopper } from './stopper.ts';
import { type SessionShape, SuiteSession, type SuiteSessions } from './suite-session.ts';
import type { UserSuite } from './user-suites.ts';

export { vitestStdout } from './suite-session.ts';

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
  /** --max-failures: the run is cancelled after this many failed checks (collect.ts failureLimit). */
  bail?: number | undefined;
  /** --shard I/N: vitest's own sharding of the suite files. */
  shard?: { index: number; count: number } | undefined;
  /** `screenconf replay`: only the checks of these full names (`describe > test`) run. */
  checks?: readonly string[] | undefined;
  /** Warm sessions to run in (the in-process API); without them the run opens a session of its own. */
  sessions?: SuiteSessions | undefined;
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

/** Runs the suites (its shard's part of them with --shard). */
export async function runSuites(stage: SuitesStage): Promise<SuitesRun> {
  const shape: SessionShape = {
    workers: stage.workers,
    shard: stage.shard,
    userFiles: (stage.userSuites ?? []).map((s) => s.file),
  };
  if (stage.sessions) return stage.sessions.use(shape, (session) => runIn(session, stage));
  const session = await SuiteSession.open(shape, false);
  try {
    return await runIn(session, stage);
  } finally {
    await Promise.race([session.close(), sleep(5_000)]);
  }
}

async function runIn(session: SuiteSession, stage: SuitesStage): Promise<SuitesRun> {
  const { stopper, redactor } = stage;
  const runErrors: string[] = [];
  const userFiles = (stage.userSuites ?? []).map((s) => s.file);
  const userNames = new Set((stage.userSuites ?? []).map((s) => s.name));
  const files = [
    ...stage.suites.filter((s) => !userNames.has(s)).map((s) => `suites/${s}.test${CODE_EXT}`),
    ...userFiles,
  ];
  const suites = stage.shard ? await shardSuites(session.vitest, files, stage.suites) : [...stage.suites];
  if (stage.shard) stage.out(`shard ${stage.shard.index}/${stage.shard.count}: ${suites.join(', ')}`);
  stopper.cancel = () => session.cancel();
  const running = session
    .run({
      files,
      context: { ...stage.context, invocation: randomUUID() },
      reporters: [
        stage.collector,
        stage.progress,
        ...(stage.bail ? [failureLimit(stage.bail, () => session.cancel('test-failure'))] : []),
      ],
      out: (line) => stage.out(redactor.redact(line)),
      namePattern: stage.checks ? namePattern(stage.checks) : undefined,
    })
    .catch((e: unknown) => {
      runErrors.push(redactor.redact(((e as Error)?.message ?? String(e)).split('\n')[0]!));
    });
  await Promise.race([running, stopper.whenStopped.then(() => sleep(STOP_GRACE_MS))]);
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
