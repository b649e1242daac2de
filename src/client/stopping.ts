/**
 * Whether the run is stopping (Ctrl-C, the deadline): one flag for every Transport of the process,
 * after which only cleanup requests are sent.
 */
import { HarnessError } from '../errors.ts';

const STOPPING = Symbol.for('screenconf.transport-stopping');
const processState = globalThis as { [STOPPING]?: string };

/**
 * Tells every Transport of this process that the run is stopping (Ctrl-C, deadline): from now
 * on only cleanup requests are sent; any other throws HarnessError SC_INTERRUPTED at once, so
 * a check in flight ends at its next request instead of running on.
 */
export function stopSending(reason: string): void {
  processState[STOPPING] ??= reason;
}

/**
 * A new run begins in this process (a warm worker serves one run after another: kit/context.ts): the last one's
 * stop is over.
 */
export function resumeSending(): void {
  delete processState[STOPPING];
}

/** Why the run is stopping, when it is. */
export function stoppingReason(): string | undefined {
  return processState[STOPPING];
}

/** Once the run is stopping, only cleanup requests are sent. */
export function refuseWhenStopping(req: { cleanup?: boolean | undefined }): void {
  const stopping = stoppingReason();
  if (stopping && !req.cleanup) throw new HarnessError('SC_INTERRUPTED', `not sent: ${stopping}`);
}
