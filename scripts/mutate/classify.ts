/**
 * What a conformance run says about a mutant: killed, survived, a timeout, or an error that is not
 * the mutant's. Pure: the runs themselves are made by runner.ts and handed in.
 *
 * - The mutant ran far more often than in the unmutated run (Stryker's hit limit): a timeout (a loop).
 * - Exit 1, NOT CONFORMING (a MUST failed): killed, by the requirements that failed.
 * - Exit 0, the run's gate passed: survived (a SHOULD that warned or a MUST left unjudged is noted: the
 *   default run does not fail on them).
 * - Anything else is judged only beside a control, the unmutated server's run, then the mutant's run
 *   again: exit 3 (the run's deadline passed, a harness fault, the target unreachable), any other status,
 *   or an uncaught exception or unhandled rejection in the server's process during the run (a crash: Node
 *   ends a real server's process there, and every later request would go unanswered). When the control
 *   is not CONFORMING or crashed too, the fault is not the mutant's: an error, which counts neither way.
 *   Otherwise a crash, or a fault the server answered (an HTTP status where a setup wanted another, a body
 *   it could not use), is the mutant's: killed. A fault of time (the deadline, a request unanswered, the
 *   target unreachable) may be the machine's: the mutant's second run decides: when it is again neither
 *   killed nor survived, the mutant caused it (a timeout when both runs passed the deadline, killed
 *   otherwise); else it is judged as above.
 */

/** How one `screenconf run` ended, as read from its exit status and conformance.json. */
export interface RunOutcome {
  /** The exit status (0 conforming, 1 not, 2 usage, 3 harness fault or deadline). */
  status: number;
  ms: number;
  /** summary.verdict of conformance.json, when the run wrote one. */
  verdict?: 'conforming' | 'not-conforming' | 'incomplete' | undefined;
  /** The MUST requirements that failed. */
  failed: string[];
  /** The SHOULD requirements that warned (they do not fail a run). */
  warned: string[];
  /** The MUST requirements no check could judge (exit 0 still, without --require-complete). */
  notJudged: string[];
  /** What kept the run from judging: harness faults, suite errors, the run's own last error line. */
  faults: string[];
  /** The run's deadline passed (SC_DEADLINE). */
  deadline: boolean;
  /** Uncaught exceptions and unhandled rejections in the server's process during the run. */
  crashes: string[];
  /** The mutant's hit count went over Stryker's hit limit. */
  hitLimit?: string | undefined;
  /** The checks the run reported (conformance.json checks[]): the dry run's tests. */
  checks?: { suite: string; name: string; durationMs?: number }[];
}

export type Judgement =
  | { status: 'killed'; by: 'not-conforming' | 'crash' | 'harness'; killedBy: string[]; reason: string }
  | { status: 'survived'; reason?: string }
  | { status: 'timeout'; reason: string }
  | { status: 'error'; reason: string };

/** The runs a judgement may need beyond the first: each made on request, at most once. */
export interface FurtherRuns {
  /** The same run against the unmutated server. */
  control(): Promise<RunOutcome>;
  /** The mutant's run again. */
  again(): Promise<RunOutcome>;
}

/** A judgement from one run alone, or undefined when a control must decide (see the file's head). */
export function judgeRun(run: RunOutcome): Judgement | undefined {
  if (run.hitLimit) return { status: 'timeout', reason: run.hitLimit };
  if (run.status === 1) {
    // Under --strict a SHOULD that warned fails the gate too: it is what killed the mutant then.
    const by = [...run.failed, ...run.warned];
    const failed = by.length > 0 ? by.join(', ') : 'the gate failed';
    return { status: 'killed', by: 'not-conforming', killedBy: by, reason: `NOT CONFORMING: ${failed}` };
  }
  if (run.crashes.length > 0) return undefined;
  if (run.status === 0) {
    const notes = [
      ...(run.notJudged.length > 0 ? [`MUST not judged: ${run.notJudged.join(', ')}`] : []),
      ...(run.warned.length > 0 ? [`SHOULD warned: ${run.warned.join(', ')}`] : []),
    ];
    return notes.length > 0 ? { status: 'survived', reason: notes.join('; ') } : { status: 'survived' };
  }
  return undefined;
}

/** Whether what kept a run from judging may be the machine's rather than the server's: time, or no answer. */
export function ofTime(run: RunOutcome): boolean {
  const text = run.faults.join(' ');
  return (
    run.deadline ||
    /time ?out|timed out|within \d|no (complete )?answer|stopped answering|unreachable|ECONNRESET|socket/i.test(text)
  );
}

/** What kept a run from judging, in one line. */
export function incompleteText(run: RunOutcome): string {
  const why = run.deadline
    ? 'the run deadline passed'
    : (run.faults[0] ?? (run.crashes[0] ? `a crash: ${run.crashes[0]}` : `verdict ${run.verdict ?? 'none'}`));
  return `${why} (exit ${run.status}, ${Math.round(run.ms / 1000)} s)`;
}

/** A crash of the server's code: a real server's process ends there. */
function crashed(run: RunOutcome): Judgement {
  return {
    status: 'killed',
    by: 'crash',
    killedBy: ['crash'],
    reason: `the server's process crashed: ${run.crashes[0]}`,
  };
}

/** The judgement of a mutant from its run, asking for a control and a second run only when the first is incomplete. */
export async function judgeMutant(first: RunOutcome, further: FurtherRuns): Promise<Judgement> {
  const plain = judgeRun(first);
  if (plain) return plain;
  const control = await further.control();
  // The unmutated server's run of the same checks: exit 0 with nothing that kept it from judging (a run of some
  // checks is INCOMPLETE by its nature, not by a fault).
  if (control.status !== 0 || control.faults.length > 0 || control.crashes.length > 0) {
    return {
      status: 'error',
      reason:
        `not the mutant's: with it, ${incompleteText(first)}; without it, the run was not CONFORMING either: ` +
        incompleteText(control),
    };
  }
  if (first.crashes.length > 0) return crashed(first);
  if (!ofTime(first)) {
    return {
      status: 'killed',
      by: 'harness',
      killedBy: ['harness'],
      reason: `with the mutant: ${incompleteText(first)}; without it, clean in ${Math.round(control.ms / 1000)} s`,
    };
  }
  const again = await further.again();
  const second = judgeRun(again);
  if (second) {
    if (second.status !== 'survived') return second;
    return {
      status: 'survived',
      reason: `the first run was incomplete (${incompleteText(first)}), the second conformed`,
    };
  }
  const why =
    `with the mutant, twice: ${incompleteText(first)}; ${incompleteText(again)}; ` +
    `without it, CONFORMING in ${Math.round(control.ms / 1000)} s`;
  if (first.deadline && again.deadline) return { status: 'timeout', reason: why };
  if (again.crashes.length > 0) return crashed(again);
  return { status: 'killed', by: 'harness', killedBy: ['harness'], reason: why };
}
