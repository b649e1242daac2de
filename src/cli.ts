/**
 * The screenconf command line. Thin: parses arguments and calls the runner, the reference
 * server or the catalogue. main() takes its argv and returns the exit status, so tests call it.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { HarnessError } from './errors.ts';
import { FAULTS, isFaultName } from './reference/faults.ts';
import { createReferenceServer } from './reference/server.ts';
import { readConfigFile, readEnv, resolveConfig, SETTINGS, type ConfigInput, type SettingKey } from './runner/config.ts';
import { CATALOGUE, CATALOGUE_VERSION, AREAS } from './spec/index.ts';
import { VERSION } from './version.ts';

export interface CliIO {
  out: (...lines: string[]) => void;
  err: (line: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Resolves when the process is asked to stop (serve waits on it). */
  stopSignal?: Promise<void>;
}

const RUN_HELP = `Usage: screenconf run [options]

Runs the conformance suites against a target and writes reports.
Without --base-url, starts the embedded reference server and runs against it.

Options (each also read from its environment variable, then from the config file):
${Object.values(SETTINGS)
  .map((s) => `  --${s.flag.padEnd(20)} ${s.help} [${s.env}]`)
  .join('\n')}
  --config FILE          JSON config file (default ./screenconf.config.json when present)
  -h, --help             this help

Exit status: 0 conforming, 1 not conforming, 2 usage or config error, 3 target unreachable or harness fault.`;

const SERVE_HELP = `Usage: screenconf serve [--port N] [--host H] [--credentials-out FILE] [--fault NAME ...]

Starts the reference server standalone and prints its base URL and credentials.
  --port N               port to listen on (default: a free port)
  --host H               address to bind (default 127.0.0.1)
  --credentials-out FILE also write {"baseUrl", "organisations": [{"clientId", "clientSecret", "apiKey"}]} as JSON
  --fault NAME           switch on a fault (for self-tests); repeatable. Faults:
${Object.entries(FAULTS)
  .map(([k, v]) => `                           ${k}: ${v}`)
  .join('\n')}`;

const MAIN_HELP = `screenconf ${VERSION} — conformance harness for the Compliance Screening Service interface

Usage: screenconf <command> [options]

Commands:
  run      run the conformance suites (embedded reference server unless --base-url)
  serve    start the reference server standalone
  list     print the requirement catalogue (--json for JSON)
  help     this help; "screenconf <command> --help" for a command's options

Exit status: 0 conforming, 1 not conforming, 2 usage or config error, 3 target unreachable or harness fault.`;

type Values = Record<string, string | boolean | string[] | boolean[] | undefined>;

function parse(args: string[], options: ParseArgsConfig['options'], command: string): { values: Values } {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }) as { values: Values };
  } catch (err) {
    const message = (err as Error).message.split('\n')[0]!.replace(/\. To specify a positional argument.*$/, '');
    throw new HarnessError('SC_USAGE', `${message} (see "screenconf ${command} --help")`);
  }
}

async function runCommand(args: string[], io: CliIO): Promise<number> {
  const options: ParseArgsConfig['options'] = { config: { type: 'string' }, help: { type: 'boolean', short: 'h' } };
  for (const s of Object.values(SETTINGS)) options[s.flag] = { type: 'string' };
  const { values } = parse(args, options, 'run');
  if (values.help) {
    io.out(RUN_HELP);
    return 0;
  }
  const flags: ConfigInput = {};
  for (const [key, s] of Object.entries(SETTINGS)) {
    const v = values[s.flag];
    if (typeof v === 'string') flags[key as SettingKey] = v;
  }
  const config = resolveConfig({ flags, env: readEnv(io.env), file: readConfigFile(values.config as string | undefined, io.cwd) });
  const { runConformance } = await import('./runner/run.ts');
  return runConformance(config, { out: io.out, cwd: io.cwd });
}

async function serveCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parse(
    args,
    {
      port: { type: 'string' },
      host: { type: 'string' },
      'credentials-out': { type: 'string' },
      fault: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
    'serve',
  );
  if (values.help) {
    io.out(SERVE_HELP);
    return 0;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new HarnessError('SC_USAGE', `--port must be an integer from 0 to 65535, got "${values.port}"`);
  const faults = (values.fault as string[] | undefined) ?? [];
  for (const f of faults) if (!isFaultName(f)) throw new HarnessError('SC_USAGE', `--fault "${f}" is not a fault; see "screenconf serve --help"`);
  let server;
  try {
    server = await createReferenceServer({ port, host: (values.host as string | undefined) ?? '127.0.0.1', faults: faults.filter(isFaultName) });
  } catch (err) {
    throw new HarnessError('SC_USAGE', `cannot listen on ${(values.host as string | undefined) ?? '127.0.0.1'}:${port}: ${(err as { code?: string }).code ?? (err as Error).message}`);
  }
  const organisations = server.organisations.map(({ clientId, clientSecret, apiKey }) => ({ clientId, clientSecret, apiKey }));
  io.out(`screenconf reference server listening on ${server.url}${faults.length ? ` (faults: ${faults.join(', ')})` : ''}`);
  organisations.forEach((o, i) => io.out(`organisation ${i + 1}: client_id=${o.clientId} client_secret=${o.clientSecret} api_key=${o.apiKey}`));
  io.out(`run against it: screenconf run --base-url ${server.url} --client-id ${organisations[0]!.clientId} --client-secret <client_secret>`);
  if (values['credentials-out']) {
    const file = resolve(io.cwd, values['credentials-out'] as string);
    writeFileSync(file, `${JSON.stringify({ baseUrl: server.url, organisations }, null, 2)}\n`, { mode: 0o600 });
    io.out(`credentials written to ${file}`);
  }
  await (io.stopSignal ?? new Promise<void>(() => {}));
  await server.close();
  return 0;
}

function listCommand(args: string[], io: CliIO): number {
  const { values } = parse(args, { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, 'list');
  if (values.help) {
    io.out('Usage: screenconf list [--json]\n\nPrints the requirement catalogue: id, level, statement, source.');
    return 0;
  }
  if (values.json) {
    io.out(JSON.stringify({ catalogueVersion: CATALOGUE_VERSION, areas: AREAS, requirements: CATALOGUE }, null, 2));
    return 0;
  }
  io.out(`Requirement catalogue ${CATALOGUE_VERSION}: ${CATALOGUE.length} requirements`);
  for (const [area, title] of Object.entries(AREAS)) {
    const entries = CATALOGUE.filter((r) => r.area === area);
    if (!entries.length) continue;
    io.out('', `${title}`);
    for (const r of entries) {
      io.out(`  ${r.id} [${r.level}]`, `    ${r.statement}`, `    source: ${r.source}`);
      if ('decision' in r && r.decision) io.out(`    decision: ${r.decision}`);
    }
  }
  return 0;
}

/** Runs one command line; returns the exit status. Never throws. */
export async function main(argv: string[], io: CliIO): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'run':
        return await runCommand(rest, io);
      case 'serve':
        return await serveCommand(rest, io);
      case 'list':
        return listCommand(rest, io);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        io.out(MAIN_HELP);
        return 0;
      case '--version':
      case '-v':
        io.out(VERSION);
        return 0;
      default:
        throw new HarnessError('SC_USAGE', `unknown command "${command}" (commands: run, serve, list, help)`);
    }
  } catch (err) {
    if (err instanceof HarnessError) {
      io.err(`screenconf: error ${err.code}: ${err.message}`);
      return err.exitCode;
    }
    io.err(`screenconf: error SC_HARNESS: ${(err as Error)?.message ?? String(err)}`);
    if (io.env.SCREENCONF_DEBUG) io.err(String((err as Error)?.stack));
    return 3;
  }
}
