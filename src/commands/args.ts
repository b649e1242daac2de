/** What every command shares: its IO, parsing its arguments, and the run settings as options. */
import type { SuiteSessions } from '../runner/suite-session.ts';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { didYouMean } from '../base/suggest.ts';
import { HarnessError } from '../errors.ts';
import { type Config, type ConfigInput, loadConfigFile, readEnv, resolveConfig } from '../runner/config.ts';
import { SETTINGS, type SettingKey } from '../runner/settings.ts';
import { CREDENTIAL_SETTINGS, valueName } from './help.ts';

export interface CliIO {
  out: (...lines: string[]) => void;
  err: (line: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /**
   * Resolves with the signal's name when the process is asked to stop (serve waits on it; run cancels and cleans up).
   */
  stopSignal?: Promise<NodeJS.Signals | undefined>;
  /** Whether standard output is a terminal (colour is used only then, unless FORCE_COLOR). */
  isTTY?: boolean;
  /** Writes raw text to standard output (live progress redraws its lines in place on a terminal). */
  write?: (text: string) => void;
  /**
   * Warm vitest sessions for the suites (the in-process API: tests, campaigns, the mutation runner): a run takes one
   * and leaves it warm for the next. Without them, each run starts vitest and ends it, as the command line does.
   */
  sessions?: SuiteSessions;
}

export type Values = Record<string, string | boolean | string[] | boolean[] | undefined>;
export function parse(
  args: string[],
  options: ParseArgsConfig['options'],
  command: string,
  allowPositionals = false,
): { values: Values; positionals: string[] } {
  const joined = joinDashValues(args, options ?? {});
  try {
    return parseArgs({ args: joined, options, strict: true, allowPositionals }) as {
      values: Values;
      positionals: string[];
    };
  } catch (err) {
    throw new HarnessError(
      'SC_USAGE',
      `${usageMessage(err as Error & { code?: string }, joined, options ?? {})} (see "screenconf ${command} --help")`,
    );
  }
}

/**
 * A value that starts with "-" right after an option that takes one (`--client-secret -abc`) is
 * that option's value, unless it is itself an option of the command: it is joined as
 * `--client-secret=-abc`, which parseArgs reads.
 */
function joinDashValues(args: string[], options: NonNullable<ParseArgsConfig['options']>): string[] {
  const names = optionNames(options);
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const next = args[i + 1];
    const option = arg.startsWith('--') && !arg.includes('=') ? options[arg.slice(2)] : undefined;
    if (option?.type === 'string' && next?.startsWith('-') && next !== '--' && !names.includes(next.split('=')[0]!)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** Every option of a command as typed: --long and -s. */
function optionNames(options: NonNullable<ParseArgsConfig['options']>): string[] {
  return Object.entries(options).flatMap(([name, o]) => [`--${name}`, ...(o.short ? [`-${o.short}`] : [])]);
}

/**
 * parseArgs' complaint, reworded where it misleads. A stray argument is not echoed: it is often
 * a secret whose flag was left out (`--client-id ID SECRET`). A value starting with "-" needs
 * `--flag=-value` (parseArgs calls it "ambiguous").
 */
function usageMessage(
  err: Error & { code?: string },
  args: string[],
  options: NonNullable<ParseArgsConfig['options']>,
): string {
  const first = err.message.split('\n')[0]!;
  const unknown = /^Unknown option '(-{1,2}[^' =]+)'/.exec(first)?.[1];
  if (unknown !== undefined) return `unknown option ${unknown}${didYouMean(unknown, optionNames(options), (s) => s)}`;
  const missing = /^Option '(-{1,2}[^' ]+) <value>' argument missing/.exec(first)?.[1];
  if (missing !== undefined) return `${missing} needs a value (${missing} ${valueName(missing)}), and none was given`;
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
    return (
      `unexpected argument${where}, not shown as it may be a secret: this command takes only --options, and a ` +
      `switch takes no value`
    );
  }
  const ambiguous = /^Option '(-{1,2}[^' ]+)' argument is ambiguous/.exec(first)?.[1];
  if (ambiguous !== undefined) {
    const next = args[args.indexOf(ambiguous) + 1]?.split('=')[0];
    return (
      `${ambiguous} needs a value (${ambiguous} ${valueName(ambiguous)}), and the option ${next} came next; ` +
      `a value that is itself an option's name must be given as ${ambiguous}=${next}`
    );
  }
  return first;
}

/**
 * The settings of a command that talks to a target of its own (cleanup, replay): where it is, as whom, and how much
 * it may be sent.
 */
export const TARGET_SETTINGS: readonly SettingKey[] = [
  'baseUrl',
  ...CREDENTIAL_SETTINGS,
  'allowInsecureHttp',
  'timeoutMs',
  'concurrency',
  'maxRps',
  'maxResponseBytes',
];

/**
 * The settings from flags, variables and the config file; `defaults` gives values below all three (what a command
 * falls back on: a ledger's base URL, a run's settings), from what they give.
 */
export function configFrom(
  values: Values,
  io: CliIO,
  keys: readonly SettingKey[] = Object.keys(SETTINGS) as SettingKey[],
  defaults: (given: ConfigInput) => ConfigInput = () => ({}),
): Config {
  const flags: ConfigInput = {};
  for (const key of keys) {
    const v = values[SETTINGS[key].flag];
    if (typeof v === 'string' || typeof v === 'boolean' || Array.isArray(v)) flags[key] = v;
  }
  const file = loadConfigFile(values.config as string | undefined, io.cwd);
  const env = readEnv(io.env);
  const below = defaults({ ...file.values, ...env, ...flags });
  return resolveConfig({
    flags,
    env,
    file: { ...below, ...file.values },
    fileSource: file.source,
    cwd: io.cwd,
    environment: io.env,
  });
}
