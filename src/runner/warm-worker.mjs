// The worker process of a warm suite session (warm-pool.ts): vitest's own forks worker
// (vitest/dist/workers/forks.js), except that a "stop" ends one run's session, not the process.
// The process then waits, parked by the main process, for the next run's "start": the modules
// it evaluated (the kit, the client, zod, fast-check, faker) stay evaluated, so a run after the
// first pays no process start and no module evaluation. Suite files are evaluated afresh each run
// (vitest invalidates the test files it is given); state of the kit's modules that belongs to one
// run is keyed by the run (kit/context.ts).
//
// Plain JavaScript, as vitest forks it with Node alone (no TypeScript loader in the child).
import { init, runBaseTests, setupEnvironment } from 'vitest/worker';

if (!process.send) throw new Error('screenconf warm worker: expected to run in node:child_process');

// Kept before any test can replace them, as vitest's forks worker keeps them.
const processExit = process.exit.bind(process);
const processSend = process.send.bind(process);
const processOn = process.on.bind(process);
const processOff = process.off.bind(process);

// The main process gone (its channel closed): nothing is left to run for.
processOn('disconnect', () => processExit(0));
processOn('error', (error) => {
  if (error?.code === 'ERR_IPC_CHANNEL_CLOSED' || error?.code === 'EPIPE') processExit(1);
});

/** One run's session: vitest's worker protocol from its "start" to its "stop", then the next session. */
function session() {
  const listeners = new Set();
  const execute = async (method, state, traces) => {
    try {
      await runBaseTests(method, state, traces);
    } finally {
      // vitest's module runner makes process.exit throw while tests run; restored after, as vitest does.
      process.exit = processExit;
    }
  };
  init({
    post: (message) => processSend(message),
    on: (listener) => {
      listeners.add(listener);
      processOn('message', listener);
    },
    off: (listener) => {
      listeners.delete(listener);
      processOff('message', listener);
    },
    // After "stopped" is sent: this session's listeners go, the next one's come.
    teardown: () => {
      for (const listener of listeners) processOff('message', listener);
      listeners.clear();
      session();
    },
    runTests: (state, traces) => execute('run', state, traces),
    collectTests: (state, traces) => execute('collect', state, traces),
    setup: setupEnvironment,
  });
}

session();
