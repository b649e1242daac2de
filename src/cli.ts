/**
 * The screenconf command line. Thin: parses arguments and calls the runner, the reference
 * server or the catalogue. main() takes its argv and returns the exit status, so tests call it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { HarnessError } from './errors.ts';
import { FAULTS, isFaultName } from './reference/faults.ts';
import { isVariantName, VARIANTS, variantConflict } from './reference/variants.ts';
import { parseServeCredentials, SERVE_CREDENTIALS_ENV } from './reference/credentials.ts';
import { createReferenceServer, type Organisation } from './reference/server.ts';
import {
  loadConfigFile,
  readEnv,
  resolveConfig,
  SETTINGS,
  type Config,
  type ConfigInput,
  type SettingKey,
} from './runner/config.ts';
import { CATALOGUE, CATALOGUE_VERSION, AREAS } from './spec/index.ts';
import { VERSION } from './version.ts';

export interface CliIO {
  out: (...lines: string[]) => void;
  err: (line: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Resolves with the signal's name when the process is asked to stop (serve waits on it; run cancels and cleans up). */
  stopSignal?: Promise<NodeJS.Signals | undefined>;
  /** Whether standard output is a terminal (colour is used only then, unless FORCE_COLOR). */
  isTTY?: boolean;
}

const RUN_HELP = `Usage: screenconf run [options]

Runs the conformance suites against a target and writes reports.
Without --base-url, starts the embedded reference server and runs against it; with
--target-image, starts that container image, runs against it and removes it at the end.

Options (each also read from its environment variable, then from the config file):
${Object.values(SETTINGS)
  .map((s) => `  --${s.flag.padEnd(24)} ${s.help} [${s.env}]`)
  .join('\n')}
  --config FILE              JSON config file (default ./screenconf.config.json when present)
  -h, --help                 this help

Reports go to a folder of their own, <report-dir>/<UTC time>-<run id>/: conformance.json,
report.html, report.md, junit.xml and SHA256SUMS ("screenconf verify" checks it);
<report-dir>/latest points at the newest.

Every case the run creates is recorded in <report-dir>/ledger.jsonl before it is created and
deleted when its suite file ends; "screenconf cleanup <ledger>" removes what a killed run left.
Ctrl-C (SIGINT) or SIGTERM stops the run: checks in flight finish, cleanup runs, the report of
what ran is written; a second Ctrl-C exits at once without cleanup.

With --target LABEL=URL (repeatable) the suites run against each target in turn, and one report
compares them. --expect FILE lists known failures ({"expectations": [{"id", "reason", "expires":
"YYYY-MM-DD", "target"?}]}): an expected failure does not fail the run; an unexpected pass or an
expired entry does.

Exit status: 0 conforming (every target; failures the expectations file lists do not count),
1 not conforming (a MUST failed, a SHOULD warned with --strict, an expectation passed unexpectedly
or expired), 2 usage or config error, 3 target unreachable, harness fault or run deadline passed,
130 stopped by SIGINT, 143 stopped by SIGTERM.`;

/** The settings cleanup takes: its help lists their flags, its parser accepts them. */
const CLEANUP_SETTINGS: readonly SettingKey[] = [
  'baseUrl',
  'clientId',
  'clientSecret',
  'clientSecretFile',
  'apiKey',
  'apiKeyFile',
  'peerClientId',
  'peerClientSecret',
  'peerClientSecretFile',
  'allowInsecureHttp',
  'timeoutMs',
  'concurrency',
  'maxRps',
  'maxResponseBytes',
];

/** A help listing of switches, one "name: description" line each. */
function switchList(switches: Readonly<Record<string, string>>): string {
  return Object.entries(switches)
    .map(([k, v]) => `                           ${k}: ${v}`)
    .join('\n');
}

/** Items joined with ", " into lines of at most `width` characters, each indented. */
function wrapList(items: string[], indent: string, width = 96): string {
  const lines: string[] = [];
  for (const item of items) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last]!.length + item.length + 2 <= width) lines[last] += `, ${item}`;
    else {
      if (last >= 0) lines[last] += ',';
      lines.push(`${indent}${item}`);
    }
  }
  return lines.join('\n');
}

const CLEANUP_HELP = `Usage: screenconf cleanup LEDGER [options]

Removes what a run left on its target, as listed in its ledger (<report-dir>/ledger.jsonl):
every case created and not confirmed deleted is deleted, and its deletion confirmed (a later
PATCH must be refused). The base URL is the ledger's unless --base-url is given; credentials
come from flags, SCREENCONF_* variables or the config file, as for run (the peer credentials
remove what the second organisation created).

Options:
${wrapList([...CLEANUP_SETTINGS.map((k) => `--${SETTINGS[k].flag}${k === 'baseUrl' ? ' URL' : ''}`), '--config FILE     as for run'], '  ')}
  -h, --help                 this help

Exit status: 0 nothing of the ledger is left on the target, 1 something could not be removed
(or a create got no answer, so the target may hold a case with no known id), 2 usage, config or
unreadable ledger, 3 target unreachable.`;

const SERVE_HELP = `Usage: screenconf serve [--port N] [--host H] [--credentials-in FILE] [--credentials-out FILE]
                        [--fault NAME ...] [--reference-variants A,B]

Starts the reference server standalone and prints its base URL and credentials.
  --port N               port to listen on (default: a free port)
  --host H               address to bind (default 127.0.0.1)
  --credentials-in FILE  use these organisations instead of generated ones: the JSON --credentials-out
                         writes (apiKey optional); ${SERVE_CREDENTIALS_ENV} may hold the JSON itself.
                         Given credentials are not printed.
  --credentials-out FILE also write {"baseUrl", "organisations": [{"clientId", "clientSecret", "apiKey"}]} as JSON
  --fault NAME           switch on a fault (for self-tests); repeatable. Faults:
${switchList(FAULTS)}
  --reference-variants A,B
                         switch on variants: legal choices other than the default ones, which a
                         conforming harness must accept; comma-separated or repeated (also --variant NAME).
                         Variants:
${switchList(VARIANTS)}`;

const MAIN_HELP = `screenconf ${VERSION} — conformance harness for the Compliance Screening Service interface

Usage: screenconf <command> [options]

Commands:
  run      run the conformance suites (embedded reference server unless --base-url)
  cleanup  remove what a killed run left on the target, from its ledger
  serve    start the reference server standalone
  list     print the requirement catalogue (--json for JSON)
  report   re-render report.html and report.md of a run folder from its conformance.json
  verify   check a run folder against its SHA256SUMS (0 intact, 1 changed, 2 usage)
  help     this help; "screenconf <command> --help" for a command's options

Exit status (run): 0 conforming, 1 not conforming, 2 usage or config error, 3 target
unreachable, harness fault or deadline passed, 130/143 stopped by SIGINT/SIGTERM.`;

type Values = Record<string, string | boolean | string[] | boolean[] | undefined>;

function parse(
  args: string[],
  options: ParseArgsConfig['options'],
  command: string,
  allowPositionals = false,
): { values: Values; positionals: string[] } {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals }) as { values: Values; positionals: string[] };
  } catch (err) {
    throw new HarnessError(
      'SC_USAGE',
      `${usageMessage(err as Error & { code?: string }, args)} (see "screenconf ${command} --help")`,
    );
  }
}

/**
 * parseArgs' complaint, reworded where it misleads. A stray argument is not echoed: it is often
 * a secret whose flag was left out (`--client-id ID SECRET`). A value starting with "-" needs
 * `--flag=-value` (parseArgs calls it "ambiguous").
 */
function usageMessage(err: Error & { code?: string }, args: string[]): string {
  const first = err.message.split('\n')[0]!;
  if (err.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const stray = /^Unexpected argument '(.*)'\./s.exec(err.message)?.[1];
    const at = stray === undefined ? -1 : args.indexOf(stray);
    const [prev, prev2] = [args[at - 1], args[at - 2]];
    const flag = (a: string) => a.split('=')[0];
    const where =
      at < 0
        ? ''
        : prev?.startsWith('-')
          ? ` after ${flag(prev)}`
          : prev2?.startsWith('-') && !prev2.includes('=')
            ? ` after ${flag(prev2)} <value>`
            : ` ${at + 1}`;
    return `unexpected argument${where}, not shown as it may be a secret: this command takes only --options, and a switch takes no value`;
  }
  const ambiguous = /^Option '(-{1,2}[^' ]+)' argument is ambiguous/.exec(first);
  if (ambiguous)
    return `${ambiguous[1]} needs a value; a value that starts with "-" must be given as ${ambiguous[1]}=-…`;
  return first;
}

/** The options of the settings (SETTINGS), booleans as switches. */
function settingOptions(
  keys: readonly SettingKey[] = Object.keys(SETTINGS) as SettingKey[],
): ParseArgsConfig['options'] {
  const options: ParseArgsConfig['options'] = { config: { type: 'string' }, help: { type: 'boolean', short: 'h' } };
  for (const key of keys) {
    const s = SETTINGS[key];
    options[s.flag] = {
      type: 'boolean' in s && s.boolean ? 'boolean' : 'string',
      ...('multiple' in s && s.multiple ? { multiple: true } : {}),
    };
  }
  return options;
}

function configFrom(
  values: Values,
  io: CliIO,
  keys: readonly SettingKey[] = Object.keys(SETTINGS) as SettingKey[],
  fallbackBaseUrl?: string,
): Config {
  const flags: ConfigInput = {};
  for (const key of keys) {
    const v = values[SETTINGS[key].flag];
    if (typeof v === 'string' || typeof v === 'boolean' || Array.isArray(v)) flags[key] = v;
  }
  const file = loadConfigFile(values.config as string | undefined, io.cwd);
  const env = readEnv(io.env);
  if (fallbackBaseUrl && flags.baseUrl === undefined && env.baseUrl === undefined && file.values.baseUrl === undefined)
    flags.baseUrl = fallbackBaseUrl;
  return resolveConfig({ flags, env, file: file.values, fileSource: file.source, cwd: io.cwd });
}

async function runCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parse(args, settingOptions(), 'run');
  if (values.help) {
    io.out(RUN_HELP);
    return 0;
  }
  const config = configFrom(values, io);
  const { runConformance } = await import('./runner/run.ts');
  const stop = io.stopSignal?.then((signal) => signal ?? 'SIGINT');
  return runConformance(config, {
    out: io.out,
    err: io.err,
    cwd: io.cwd,
    ...(stop ? { stop } : {}),
    console: consoleStyle(io),
    ...(io.env.SCREENCONF_TODAY ? { today: io.env.SCREENCONF_TODAY } : {}),
  });
}

/**
 * Colour only on a terminal: FORCE_COLOR (any value but 0/false) switches it on, NO_COLOR off,
 * as Node reads them; GitHub Actions annotations when GITHUB_ACTIONS is true.
 */
export function consoleStyle(io: Pick<CliIO, 'env' | 'isTTY'>): { colour: boolean; githubActions: boolean } {
  const force = io.env.FORCE_COLOR;
  const colour =
    force !== undefined
      ? !['0', 'false'].includes(force.trim().toLowerCase())
      : io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== ''
        ? false
        : io.isTTY === true && io.env.TERM !== 'dumb';
  return { colour, githubActions: io.env.GITHUB_ACTIONS === 'true' };
}

async function cleanupCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(args, settingOptions(CLEANUP_SETTINGS), 'cleanup', true);
  if (values.help) {
    io.out(CLEANUP_HELP);
    return 0;
  }
  if (positionals.length !== 1)
    throw new HarnessError(
      'SC_USAGE',
      `cleanup takes one ledger file (got ${positionals.length}); see "screenconf cleanup --help"`,
    );
  const { cleanupLedger } = await import('./runner/cleanup.ts');
  const ledgerPath = resolve(io.cwd, positionals[0]!);
  return cleanupLedger(ledgerPath, (ledgerBaseUrl) => configFrom(values, io, CLEANUP_SETTINGS, ledgerBaseUrl), io);
}

/** The organisations given to serve: --credentials-in FILE, else SCREENCONF_SERVE_CREDENTIALS; none when neither. */
function serveCredentials(file: string | undefined, io: CliIO): Organisation[] | undefined {
  if (file !== undefined) {
    const path = resolve(io.cwd, file);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      throw new HarnessError(
        'SC_USAGE',
        `--credentials-in ${path} cannot be read: ${(err as { code?: string }).code ?? (err as Error).message}`,
      );
    }
    return parseServeCredentials(text, `--credentials-in ${path}`);
  }
  const text = io.env[SERVE_CREDENTIALS_ENV];
  return text ? parseServeCredentials(text, SERVE_CREDENTIALS_ENV) : undefined;
}

/**
 * The variants given to serve: --reference-variants (comma-separated, repeatable) and --variant;
 * SC_USAGE for an unknown name or for alternatives.
 */
function serveVariants(values: Values): string[] {
  const given = [
    ...((values['reference-variants'] as string[] | undefined) ?? []),
    ...((values.variant as string[] | undefined) ?? []),
  ];
  const names = given
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  for (const v of names)
    if (!isVariantName(v))
      throw new HarnessError('SC_USAGE', `--reference-variants "${v}" is not a variant; see "screenconf serve --help"`);
  const problem = variantConflict(names);
  if (problem) throw new HarnessError('SC_USAGE', `--reference-variants: ${problem}`);
  return [...new Set(names)];
}

async function serveCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parse(
    args,
    {
      port: { type: 'string' },
      host: { type: 'string' },
      'credentials-in': { type: 'string' },
      'credentials-out': { type: 'string' },
      fault: { type: 'string', multiple: true },
      'reference-variants': { type: 'string', multiple: true },
      variant: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
    'serve',
  );
  if (values.help) {
    io.out(SERVE_HELP);
    return 0;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new HarnessError('SC_USAGE', `--port must be an integer from 0 to 65535, got "${values.port}"`);
  const faults = (values.fault as string[] | undefined) ?? [];
  for (const f of faults)
    if (!isFaultName(f))
      throw new HarnessError('SC_USAGE', `--fault "${f}" is not a fault; see "screenconf serve --help"`);
  const variants = serveVariants(values);
  const given = serveCredentials(values['credentials-in'] as string | undefined, io);
  let server: Awaited<ReturnType<typeof createReferenceServer>>;
  try {
    server = await createReferenceServer({
      port,
      host: (values.host as string | undefined) ?? '127.0.0.1',
      faults: faults.filter(isFaultName),
      variants: variants.filter(isVariantName),
      ...(given ? { organisations: given } : {}),
    });
  } catch (err) {
    throw new HarnessError(
      'SC_USAGE',
      `cannot listen on ${(values.host as string | undefined) ?? '127.0.0.1'}:${port}: ${(err as { code?: string }).code ?? (err as Error).message}`,
    );
  }
  const organisations = server.organisations.map(({ clientId, clientSecret, apiKey }) => ({
    clientId,
    clientSecret,
    apiKey,
  }));
  io.out(
    `screenconf reference server listening on ${server.url}` +
      `${faults.length ? ` (faults: ${faults.join(', ')})` : ''}` +
      `${variants.length ? ` (variants: ${variants.join(', ')})` : ''}`,
  );
  for (const [i, o] of organisations.entries()) {
    io.out(
      given
        ? `organisation ${i + 1}: client_id=${o.clientId} (secret and API key as given)`
        : `organisation ${i + 1}: client_id=${o.clientId} client_secret=${o.clientSecret} api_key=${o.apiKey}`,
    );
  }
  io.out(
    `run against it: screenconf run --base-url ${server.url} --client-id ${organisations[0]!.clientId} --client-secret <client_secret>`,
  );
  if (values['credentials-out']) {
    const file = resolve(io.cwd, values['credentials-out'] as string);
    writeFileSync(file, `${JSON.stringify({ baseUrl: server.url, organisations }, null, 2)}\n`, { mode: 0o600 });
    io.out(`credentials written to ${file}`);
  }
  await (io.stopSignal ?? new Promise<void>(() => {}));
  await server.close();
  return 0;
}

const REPORT_HELP = `Usage: screenconf report DIR

Re-renders report.html and report.md of a run folder from its conformance.json, which is
validated against the report schema first (SC_REPORT_INVALID, exit 2, when it does not fit).
DIR is a run folder (<report-dir>/<time>-<run id>) or a report folder (its "latest" run).
When SHA256SUMS vouched for the folder, its entries for the two views are brought up to date;
otherwise it is left as it was (screenconf verify names the differences).`;

const VERIFY_HELP = `Usage: screenconf verify DIR

Checks a run folder against its SHA256SUMS (the SHA-256 of every file, written at the end of
the run; "sha256sum -c SHA256SUMS" reads it too). Names every file that changed, went missing
or was added. DIR is a run folder or a report folder (its "latest" run).

Exit status: 0 intact, 1 a difference (each named), 2 usage error (DIR is not a folder).`;

/** report DIR / verify DIR: one folder argument. */
async function folderCommand(name: 'report' | 'verify', args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(args, { help: { type: 'boolean', short: 'h' } }, name, true);
  if (values.help) {
    io.out(name === 'report' ? REPORT_HELP : VERIFY_HELP);
    return 0;
  }
  if (positionals.length !== 1)
    throw new HarnessError(
      'SC_USAGE',
      `${name} takes one folder (got ${positionals.length}); see "screenconf ${name} --help"`,
    );
  const { reportCommand, verifyCommand } = await import('./report/commands.ts');
  return (name === 'report' ? reportCommand : verifyCommand)(positionals[0]!, io);
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
      case 'cleanup':
        return await cleanupCommand(rest, io);
      case 'serve':
        return await serveCommand(rest, io);
      case 'list':
        return listCommand(rest, io);
      case 'report':
      case 'verify':
        return await folderCommand(command, rest, io);
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
        throw new HarnessError(
          'SC_USAGE',
          `unknown command "${command}" (commands: run, cleanup, serve, list, report, verify, help)`,
        );
    }
  } catch (err) {
    if (err instanceof HarnessError) {
      io.err(`screenconf: error ${err.code}: ${err.message}`);
      return err.exitCode;
    }
    // One line, whatever the fault's message holds (the stack only with SCREENCONF_DEBUG).
    io.err(
      `screenconf: error SC_HARNESS: ${String((err as Error)?.message ?? err)
        .replace(/\s*[\r\n]+\s*/g, ' ')
        .trim()}`,
    );
    if (io.env.SCREENCONF_DEBUG) io.err(String((err as Error)?.stack));
    return 3;
  }
}
