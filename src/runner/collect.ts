/**
 * The vitest reporter of a conformance run: collects the outcome of every check (from its task
 * metadata) and each suite file's invariant watch, teardown and server headers, and prints a
 * progress line per suite file as it ends.
 */
import { suiteName } from '../base/suite-file.ts';
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import '../kit/meta.ts';
import { requestRef } from '../results/exchange.ts';
import { failureHeadline } from '../results/failure.ts';
import {
  exchangeKey,
  inChainOrder,
  type InvariantFindings,
  restChains,
  WATCH_NAME,
  WATCHED_REQUIREMENTS,
} from '../results/invariants.ts';
import type { CheckOutcome } from '../results/outcome.ts';
import { ServerHeaders } from '../results/server-headers.ts';
import type { Id } from '../spec/index.ts';
import { rerunOutcome } from './rerun.ts';

/**
 * --max-failures as a reporter: counts the checks that failed (as the report will: rerun.ts) as their results
 * arrive, and cancels the run at the limit. Not vitest's own bail: its worker asks for the cancel before it sends
 * the failed check's result, and a cancel that ends the worker first loses that result (the run then read as
 * incomplete, exit 0, on a server that failed a MUST).
 */
export function failureLimit(max: number, cancel: () => void): Reporter {
  let failed = 0;
  return {
    onTestCaseResult(test: TestCase) {
      const { state } = rerunOutcome(test.meta().screenconf?.attempts ?? [], test.result().state);
      if (state === 'failed' && ++failed === max) cancel();
    },
  };
}

/** What the suites of one target produced, besides verdicts. */
export class OutcomeCollector implements Reporter {
  readonly outcomes: CheckOutcome[] = [];
  readonly leftovers: Id[] = [];
  readonly errors: string[] = [];
  readonly serverHeaders = new ServerHeaders();
  /** Requests each suite file sent (its setup and cleanup included). */
  readonly requestsBySuite: Record<string, number> = {};

  /** The suite files whose end was reported: a run cut short (bail, a stop) may end without the rest's. */
  readonly #ended = new Set<string>();

  constructor(private readonly out: (line: string) => void) {}

  onTestModuleEnd(module: TestModule) {
    if (this.#ended.has(module.id)) return;
    this.#ended.add(module.id);
    const suite = suiteName(module.moduleId);
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const test of module.children.allTests()) {
      const outcome = checkOutcome(suite, test);
      this.outcomes.push(outcome);
      counts[outcome.state] += 1;
    }
    const meta = module.meta();
    this.leftovers.push(...(meta.screenconfLeftovers ?? []));
    this.serverHeaders.merge(meta.screenconfServerHeaders);
    this.requestsBySuite[suite] = (this.requestsBySuite[suite] ?? 0) + (meta.screenconfRequests ?? 0);
    for (const e of module.errors()) this.errors.push(`${suite}: ${e.message}`);
    const findings = meta.screenconfInvariants;
    const watch = findings ? watchOutcomes(suite, findings) : [];
    this.outcomes.push(...watch);
    for (const e of findings?.errors ?? []) this.errors.push(`${suite}: ${e}`);
    const broken = watch.filter((o) => o.state === 'failed').length;
    this.out(progressLine(suite, counts, module, findings, broken, meta.screenconfRequests ?? 0));
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<{ message?: string }>) {
    // A file still running when the run was cancelled (the first failed check of --max-failures is often one
    // of its own) never reports its end: what its checks did so far is still theirs, the failure above all.
    for (const module of modules) this.onTestModuleEnd(module);
    for (const e of unhandledErrors) this.errors.push(e.message ?? String(e));
  }
}

function progressLine(
  suite: string,
  counts: { passed: number; failed: number; skipped: number },
  module: TestModule,
  findings: InvariantFindings | undefined,
  broken: number,
  requests: number,
): string {
  const errors = module.errors().length;
  // A tick says the suite judged something and nothing failed: a suite that only skipped shows none.
  const mark = counts.failed > 0 || broken > 0 || errors > 0 ? '✗' : counts.passed > 0 ? '✓' : '–';
  const seconds = (module.diagnostic().duration / 1000).toFixed(1);
  const extra = errors ? `, ${errors} suite error(s)` : '';
  const bodies = findings?.watched === 1 ? 'body' : 'bodies';
  const invariants = broken ? `, ${broken} invariant(s) broken` : '';
  const watched = findings?.watched ? `; ${findings.watched} case ${bodies} watched${invariants}` : '';
  const tally = `${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`;
  return `  ${mark} ${suite.padEnd(16)} ${tally}${extra}${watched} (${requests} requests, ${seconds} s)`;
}

/** One check's outcome, from vitest's result and the record check() left in the task metadata. */
function checkOutcome(suite: string, test: TestCase): CheckOutcome {
  const result = test.result();
  const record = test.meta().screenconf;
  const { state, flaky } = rerunOutcome(record?.attempts ?? [], result.state);
  const note = result.state === 'skipped' ? result.note : undefined;
  const skipReason = record?.skipReason ?? note;
  // Skipped with no record of its own: vitest never started it (a cancelled run).
  const notRun = state === 'skipped' && !record?.skipReason && (record?.attempts.length ?? 0) === 0;
  // A check that failed before recording anything (a hook) keeps vitest's message.
  const failure =
    record?.failure ??
    (state === 'failed' && !record?.harnessFault
      ? { what: 'the check failed', message: result.errors?.map((e) => e.message).join('\n') ?? 'failed' }
      : undefined);
  return {
    suite,
    name: test.fullName,
    state,
    requirements: record?.requirements ?? [],
    // A flaky pass keeps the failure its first attempt met: the report shows it as flaky.
    ...((state === 'failed' || flaky) && failure ? { failure } : {}),
    observations: record?.observations ?? [],
    ...(record?.evidence && (state === 'failed' || (flaky && failure)) ? { evidence: record.evidence } : {}),
    ...(skipReason ? { skipReason } : {}),
    ...(notRun ? { notRun } : {}),
    ...(record?.harnessFault && state === 'failed' ? { harnessFault: record.harnessFault } : {}),
    ...(flaky !== undefined ? { flaky } : {}),
    durationMs: test.diagnostic()?.duration ?? 0,
    ...(record?.cells?.length ? { cells: record.cells } : {}),
  };
}

/**
 * The invariant watch of one suite file as outcomes, one per watched requirement (a check
 * judges one requirement): failed with the violations, passed when case bodies were seen and
 * none broke it, skipped when the file received no case body the requirement applies to.
 */
export function watchOutcomes(suite: string, findings: InvariantFindings): CheckOutcome[] {
  const name = `${WATCH_NAME}${suite}`;
  return WATCHED_REQUIREMENTS.map((id): CheckOutcome => {
    const base = { suite, name, requirements: [id], observations: [], durationMs: 0 };
    if (findings.watched === 0) return { ...base, state: 'skipped', skipReason: 'no case body seen' };
    const count = findings.counts[id] ?? 0;
    // Bodies were seen, but none the requirement applies to (no check ever had a score): not judged.
    if (!(findings.judged[id] ?? 0) && count === 0) {
      return { ...base, state: 'skipped', skipReason: `no case body it applies to (${findings.watched} watched)` };
    }
    if (count === 0) return { ...base, state: 'passed' };
    const [first, ...rest] = findings.violations.filter((v) => v.requirement === id);
    const what = first ? `${first.what}, in the answer to ${first.request}` : `the case bodies of ${suite}`;
    const lines = first ? [what, `Expected: ${first.expected}`, `Received: ${first.received}`] : [what];
    if (count > 1) {
      const shown = rest.length < count - 1 ? ` (the first ${rest.length + 1} distinct ones shown)` : '';
      lines.push(
        `${count} violations in all, in the ${findings.watched} case bodies this suite file received${shown}:`,
      );
      for (const v of rest) {
        lines.push(
          `- ${v.what} (${v.request}): ` +
            `${v.received}${v.expected === first?.expected ? '' : `; expected ${v.expected}`}`,
        );
      }
    }
    // Oldest first, as every evidence: a reproduction replays them in order (the creation of a case before its read),
    // what a violation rests on before it (a deletion before the creation given its id, whatever their times).
    const kept = findings.evidence[id];
    const order = inChainOrder(
      (kept?.exchanges ?? []).map((e, i) => ({ at: e.at, e, curl: kept!.curl[i]! })),
      (x) => exchangeKey(x.e),
      restChains(findings.rests?.[id]),
    );
    const evidence = kept && { exchanges: order.map((o) => o.e), curl: order.map((o) => o.curl) };
    // The headline names the request of the first violation (the watcher kept it first, after the setup).
    const judged = kept?.exchanges.find((e) => e.judged);
    // A reproduction judges the last judged exchange it replays: what that answer must show.
    const last = order.filter((o) => o.e.judged).at(-1);
    const expect = last && findings.expects?.[id]?.[exchangeKey(last.e)];
    const detail = {
      what,
      ...(first ? { expected: first.expected, received: first.received } : {}),
      ...(judged ? { request: requestRef(judged) } : {}),
      ...(expect ? { expect } : {}),
    };
    // The first line names the judged request, as every failure's does.
    const headline = failureHeadline(detail);
    const failure = { ...detail, message: [...(headline ? [headline] : []), ...lines].join('\n') };
    return { ...base, state: 'failed', failure, ...(evidence ? { evidence } : {}) };
  });
}
