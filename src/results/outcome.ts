/**
 * What a check produces: the record it writes into its vitest task metadata while it runs
 * (CheckRecord), and the outcome the runner collects from it for judging (CheckOutcome).
 */
import type { ErrorCode } from '../errors.ts';
import type { Evidence, Observation } from './evidence.ts';
import type { FailureDetail } from './failure.ts';

/** A problem that kept a check from judging the target: a harness error's code and message. */
export interface HarnessFault {
  code: ErrorCode;
  message: string;
}

/** How one attempt of a check ended (a failed check is re-run once). */
export type Attempt = 'passed' | 'failed' | 'not-judged' | 'skipped';

/** A failure of a check: the assertion's fields and the message people read. */
export type CheckFailure = FailureDetail & { message: string };

/** One oracle's verdict on one cell of the input matrix (src/spec/inputs/matrix.ts), as a check judged it. */
export interface MatrixCellRecord {
  /** `patch/json/delete_after/2^63`. */
  cell: string;
  oracle: string;
  /** The requirement the oracle is owned by on the cell's way in. */
  requirement: string;
  /** What a conforming server does with the value: accept, reject, open; act, exact, none for a named record. */
  verdict: string;
  result: 'pass' | 'fail' | 'not-judged';
  /** The status the cell's request was answered with. */
  status?: number;
  why?: string;
}

/** What check() writes into its task metadata (`task.meta.screenconf`), for the runner. */
export interface CheckRecord {
  /** The requirement ids this check names. */
  requirements: string[];
  observations?: Observation[];
  /** The failure of the last attempt, when it failed. */
  failure?: CheckFailure;
  evidence?: Evidence;
  skipReason?: string;
  /** The last attempt could not judge (harness fault, target gone): not a conformance verdict. */
  harnessFault?: HarnessFault;
  /** Every attempt, in order (kept across vitest's re-run). */
  attempts: Attempt[];
  /** The attempt is running: still so when the re-run starts, vitest timed it out. */
  running?: boolean;
  /** Requests the check sent, over all its attempts. */
  requests?: number;
  /** The input-matrix cells the check judged, one entry per cell (its last attempt's). */
  cells?: MatrixCellRecord[];
}

/** One check's outcome, as judged: what the runner collected from vitest and the task metadata. */
export interface CheckOutcome {
  /** Suite file name without folder and extension, e.g. "token". */
  suite: string;
  /** The check's full name; `invariant watch: <suite>` for the invariant watcher's outcomes of a file. */
  name: string;
  state: 'passed' | 'failed' | 'skipped';
  requirements: string[];
  failure?: CheckFailure;
  observations: Observation[];
  evidence?: Evidence;
  skipReason?: string;
  harnessFault?: HarnessFault;
  /** Skipped by the runner before the check began (a cancelled run): it did not run at all. */
  notRun?: boolean;
  /** Set when the check was re-run after failing: true when the re-run passed (flaky), false when it failed again. */
  flaky?: boolean;
  durationMs: number;
  /** The input-matrix cells it judged. */
  cells?: MatrixCellRecord[];
}
