/** The shape of a fault's proof (proofs.ts, container-proofs.ts): what test/faults.test.ts runs and requires. */
import type { RequirementId } from '../spec/index.ts';

/** A fault's proof: the suites that catch it and what must follow when it is switched on. */
export interface FaultProof {
  /** The suites whose checks catch it. */
  readonly suites: readonly string[];
  /** The requirements that must fail with it switched on. */
  readonly fails: readonly RequirementId[];
  /** Any that must still pass: a check judged on what another check's request did must not take the blame. */
  readonly passes?: readonly RequirementId[];
  /** Any that must be not judged (a check whose setup the fault breaks cannot judge its own rule). */
  readonly notJudged?: readonly RequirementId[];
  /**
   * The run's --timeout-ms, for a fault whose defect is silence (the timeout is what is under test); every other
   * fault is proven with the run's own timeout, so a busy machine cannot turn a slow answer into its verdict.
   */
  readonly timeoutMs?: number;
  /** Its defect is a request answered with no answer: each failure judges that exchange, shown as one with none. */
  readonly dropped?: boolean;
}
