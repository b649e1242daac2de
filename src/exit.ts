/**
 * Exit statuses, decided here and nowhere else: what a command's outcome (or the error it ended
 * with) means to a shell or a CI gate.
 */
import { ERROR_CODES, HarnessError } from './errors.ts';

export const EXIT = { ok: 0, notConforming: 1, usage: 2, harness: 3 } as const;

/** A process stopped by a signal exits 128 + the signal's number, as a shell reports it. */
export const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 } as const;
export type StopSignal = keyof typeof SIGNAL_EXIT;

/** The status of a command that ended with `err`: its code's, or a harness fault's for anything else. */
export function exitForError(err: unknown): number {
  return err instanceof HarnessError ? err.exitCode : ERROR_CODES.SC_HARNESS.exit;
}

/** How a run ended, as far as its exit status goes. */
export interface RunEnd {
  /** A signal stopped it. */
  signal?: StopSignal | undefined;
  /** The run deadline stopped it. */
  deadline?: boolean;
  /** Some checks could not judge the target (harness faults, suite errors). */
  incomplete?: boolean;
  /** The release gate's decision. */
  gatePassed: boolean;
}

/** A stop first (signal, deadline), then a harness problem, then the gate. */
export function exitForRun(end: RunEnd): number {
  if (end.signal) return SIGNAL_EXIT[end.signal];
  if (end.deadline) return ERROR_CODES.SC_DEADLINE.exit;
  if (end.incomplete) return ERROR_CODES.SC_INCOMPLETE.exit;
  return end.gatePassed ? EXIT.ok : EXIT.notConforming;
}

/**
 * `screenconf verify`: 0 intact, 1 a difference from SHA256SUMS or a signature that does not hold (altered, made
 * with another key, or missing when a public key was given to check it).
 */
export function exitForVerify(problems: number, signatureHolds = true): number {
  return problems === 0 && signatureHolds ? EXIT.ok : EXIT.notConforming;
}

/** `screenconf cleanup`: 0 nothing left on the target, 1 something left or unknown. */
export function exitForCleanup(left: number): number {
  return left === 0 ? EXIT.ok : EXIT.notConforming;
}

/**
 * `screenconf replay`: the worst of the failures' replays, as a run ranks them: 2 one could not run, 3 one is
 * undecided (could not judge), 1 one reproduced, 0 every one conforms now.
 */
export function exitForReplays(exits: readonly number[]): number {
  for (const worst of [EXIT.usage, EXIT.harness, EXIT.notConforming]) if (exits.includes(worst)) return worst;
  return EXIT.ok;
}
