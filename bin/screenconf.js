#!/usr/bin/env node
// Entry point. In a checkout (src/ beside bin/, tsx installed) it registers tsx so the TypeScript
// sources run as they are, for development; an installed package runs its compiled JavaScript
// (dist/, made by `npm run build`), with no TypeScript tooling at all.
import { existsSync } from 'node:fs';

const root = new URL('../', import.meta.url);
const checkout = existsSync(new URL('src/cli.ts', root)) && (await registerTsx());
if (!checkout && !existsSync(new URL('dist/src/cli.js', root))) {
  process.stderr.write(
    'screenconf: error SC_HARNESS: dist/ is missing: run "npm run build" in the screenconf folder\n',
  );
  process.exit(3);
}
const code = checkout
  ? { cli: '../src/cli.ts', exit: '../src/exit.ts' }
  : { cli: '../dist/src/cli.js', exit: '../dist/src/exit.js' };

/**
 * Registers tsx's loader when it is installed (a checkout's devDependencies); false when it is not.
 * Its hooks see every module loaded after them, JavaScript too: `run` loads vitest (vite and its
 * hundreds of files) first, as Node alone loads it, so that only the sources go through tsx (about
 * 0.7 CPU-s less per run; other commands do not load vitest).
 */
async function registerTsx() {
  let api;
  try {
    api = await import('tsx/esm/api');
  } catch {
    return false;
  }
  if (process.argv[2] === 'run') await import('vitest/node').catch(() => {}); // a failure shows where run loads it
  try {
    api.register();
    return true;
  } catch {
    return false;
  }
}

// A reader that goes away (`screenconf list | head -1`, `run … | head`) closes the pipe: writes
// then fail with EPIPE. That is no fault of the command: its output stops there, quietly, and it
// ends with its own status (a run still cleans up and writes its reports).
const closed = new Set();
for (const stream of [process.stdout, process.stderr]) {
  // Any other write error (EIO on a vanished terminal) ends that output the same way: never a stack trace.
  stream.on('error', () => closed.add(stream));
}
const write = (stream, text) => {
  if (!closed.has(stream) && !stream.destroyed) stream.write(text);
};

const { main } = await import(code.cli);
const { SIGNAL_EXIT } = await import(code.exit);

// The first SIGINT/SIGTERM asks the command to stop (run cancels, cleans up and reports);
// a second one exits at once, without cleanup.
let stop;
let stopping = false;
const stopSignal = new Promise((resolve) => {
  stop = resolve;
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (!stopping) {
      stopping = true;
      stop(signal);
      return;
    }
    write(
      process.stderr,
      `screenconf: ${signal} again: exiting without cleanup; "screenconf cleanup <report-dir>/ledger.jsonl" removes ` +
        `what the run left\n`,
    );
    process.exit(SIGNAL_EXIT[signal]);
  });
}

const status = await main(process.argv.slice(2), {
  out: (...lines) => {
    for (const l of lines) write(process.stdout, `${l}\n`);
  },
  err: (line) => write(process.stderr, `${line}\n`),
  env: process.env,
  cwd: process.cwd(),
  stopSignal,
  isTTY: process.stdout.isTTY === true,
  write: (text) => process.stdout.write(text),
});
// Pipes are written asynchronously: exiting at once would cut a long output (`list | less`, a
// test reading stdout). An empty write calls back once everything before it is flushed.
await Promise.all(
  [process.stdout, process.stderr]
    .filter((stream) => !closed.has(stream) && !stream.destroyed)
    .map((stream) => new Promise((resolve) => stream.write('', resolve))),
);
process.exit(status);
