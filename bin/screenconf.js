#!/usr/bin/env node
// Entry point: registers tsx so the TypeScript sources run as they are, then hands over to the CLI.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.ts');

let stop;
const stopSignal = new Promise((resolve) => {
  stop = resolve;
});
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => stop());

const status = await main(process.argv.slice(2), {
  out: (...lines) => { for (const l of lines) process.stdout.write(`${l}\n`); },
  err: (line) => process.stderr.write(`${line}\n`),
  env: process.env,
  cwd: process.cwd(),
  stopSignal,
});
process.exit(status);
