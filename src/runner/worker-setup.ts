/**
 * Loaded in each worker process before the suite files.
 * - Ctrl-C in a terminal reaches the whole process group; the runner (main process) handles it
 *   by cancelling the run, letting checks in flight finish and cleaning up. A worker dying on
 *   the signal would skip its teardown, so workers ignore SIGINT.
 * - When the runner cancels the run, vitest aborts the signal of the checks in flight: from
 *   then on this process sends only cleanup requests, so they end at their next request.
 * - A failure's message is redacted by check(), but vitest also keeps the stack, which holds the
 *   message as it was thrown (and goes into junit.xml): redact every text of every error, with
 *   this worker's redactor (the only one that knows the access tokens it was issued).
 */
import { afterEach, beforeEach } from 'vitest';
import { stopSending } from '../client/stopping.ts';
import { getHarness } from '../kit/context.ts';

const INSTALLED = Symbol.for('screenconf.worker-signals');
const g = globalThis as { [INSTALLED]?: boolean };
if (!g[INSTALLED]) {
  g[INSTALLED] = true;
  process.on('SIGINT', () => {});
}

function redactStrings(value: unknown, redact: (s: string) => string, depth = 0): unknown {
  if (typeof value === 'string') return redact(value);
  if (depth > 4 || value === null || typeof value !== 'object') return value;
  for (const [k, v] of Object.entries(value)) {
    try {
      (value as Record<string, unknown>)[k] = redactStrings(v, redact, depth + 1);
    } catch {
      // a read-only property: leave it
    }
  }
  return value;
}

beforeEach((ctx) => {
  ctx.signal.addEventListener('abort', () => {
    // A timeout aborts the signal too; only the run's cancellation stops this process sending.
    if ((ctx.signal.reason as { name?: string } | undefined)?.name === 'TestRunAbortError')
      stopSending('the run is stopping');
  });
});

afterEach((ctx) => {
  const errors = ctx.task.result?.errors;
  if (!errors?.length) return;
  const { redactor } = getHarness();
  for (const e of errors) redactStrings(e, (s) => redactor.redact(s));
});
