/**
 * Commands as data (citty's habit): each command declares its name, usage, what it does and its
 * options, each option with its help. `--help` and the CLI reference (docs/reference/cli.md, made by
 * `npm run docs`) are both rendered from these declarations, so neither is kept by hand.
 */
import type { ParseArgsConfig } from 'node:util';
import { SETTINGS, type SettingKey } from '../runner/settings.ts';
import { type CliIO, parse, type Values } from './args.ts';
import { valueName, wrap } from './help.ts';

export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  readonly multiple?: boolean;
  /** The name of its value in help and the reference (URL, FILE, N); default: valueName of the flag. */
  readonly value?: string;
  /** What it does: `--help` and the CLI reference print it. */
  readonly help: string;
  /** The environment variable that also sets it (the run settings). */
  readonly env?: string;
  /** Its key in the config file (the run settings). */
  readonly configKey?: string;
}

/** Options under a title ("Options", or a topic of run's: "Target", "Credentials", …). */
export interface OptionGroup {
  readonly title: string;
  readonly options: Readonly<Record<string, OptionSpec>>;
}

export interface CommandSpec {
  readonly name: string;
  /** One line: what `screenconf help` says of it. */
  readonly summary: string;
  /** What follows "Usage: " (more lines indented to line up). */
  readonly usage: string;
  /** What it does, in paragraphs. */
  readonly description: string;
  readonly groups: readonly OptionGroup[];
  /** After the options: files it writes, exit statuses, … */
  readonly notes?: string;
  /** Whether it takes arguments besides its options (a folder, a ledger). */
  readonly positionals?: boolean;
}

export interface Command {
  readonly spec: CommandSpec;
  run(args: string[], io: CliIO): Promise<number> | number;
}

/** The -h/--help switch every command has. */
export const HELP_OPTION: OptionSpec = { type: 'boolean', short: 'h', help: 'this help' };

/** Every option of a command, --help included, by flag. */
export function optionsOf(spec: CommandSpec): Record<string, OptionSpec> {
  return Object.assign({}, ...spec.groups.map((g) => g.options), { help: HELP_OPTION });
}

/** Parses a command's arguments by its declared options. */
export function parseCommand(args: string[], spec: CommandSpec): { values: Values; positionals: string[] } {
  const options: NonNullable<ParseArgsConfig['options']> = {};
  for (const [flag, o] of Object.entries(optionsOf(spec)))
    options[flag] = { type: o.type, ...(o.short ? { short: o.short } : {}), ...(o.multiple ? { multiple: true } : {}) };
  return parse(args, options, spec.name, spec.positionals ?? false);
}

/** How an option is written: `-h, --help`, `--base-url URL`. */
export function optionSignature(flag: string, o: OptionSpec): string {
  const value = o.type === 'string' ? ` ${o.value ?? valueName(flag)}` : '';
  return `${o.short ? `-${o.short}, ` : ''}--${flag}${value}`;
}

/** Where the help of an option starts. */
const HELP_COLUMN = 30;

function optionHelp(flag: string, o: OptionSpec): string[] {
  const head = `  ${optionSignature(flag, o)}`;
  const text = `${o.help}${o.env ? ` [${o.env}]` : ''}`;
  return head.length < HELP_COLUMN ? wrap(head, text, HELP_COLUMN) : [head, ...wrap('', text, HELP_COLUMN)];
}

/** A command's `--help`: usage, what it does, its options by group (each with its variable), notes. */
export function helpText(spec: CommandSpec): string {
  const out = [`Usage: ${spec.usage}`, '', spec.description];
  const groups = spec.groups.filter((g) => Object.keys(g.options).length);
  for (const [i, g] of groups.entries()) {
    out.push('', `${g.title}:`);
    for (const [flag, o] of Object.entries(g.options)) out.push(...optionHelp(flag, o));
    if (i === groups.length - 1) out.push(...optionHelp('help', HELP_OPTION));
  }
  if (!groups.length) out.push('', 'Options:', ...optionHelp('help', HELP_OPTION));
  if (spec.notes) out.push('', spec.notes);
  return out.join('\n');
}

/** The options of some run settings (SETTINGS), as declared there: flag, variable, config key, help. */
export function settingGroup(title: string, keys: readonly SettingKey[]): OptionGroup {
  const options: Record<string, OptionSpec> = {};
  for (const key of keys) {
    const s = SETTINGS[key] as { flag: string; env: string; help: string; boolean?: boolean; multiple?: boolean };
    options[s.flag] = {
      type: s.boolean ? 'boolean' : 'string',
      ...(s.multiple ? { multiple: true } : {}),
      help: s.help,
      env: s.env,
      configKey: key,
    };
  }
  return { title, options };
}

/** The --config option of the commands that read run settings. */
export const CONFIG_OPTION: OptionSpec = {
  type: 'string',
  value: 'FILE',
  help: 'JSON config file, keys as the settings are named (default ./screenconf.config.json when present)',
};
