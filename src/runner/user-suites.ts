/**
 * The user's own suites (`run --suites-dir DIR`): their suite files and their catalogue (DIR/catalogue.json or
 * --user-catalogue FILE), read and checked before anything is sent. A suite file that names a requirement id in
 * neither catalogue is refused here when the id is written in the check() or observe() call; one the scan cannot see
 * (an id held in a variable) fails its file when vitest collects it (kit/check.ts).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseJsonText } from '../base/json.ts';
import { suiteName } from '../base/suite-file.ts';
import { HarnessError } from '../errors.ts';
import { findRequirement, parseUserCatalogue, type UserRequirement } from '../spec/index.ts';
import type { Config } from './config.ts';
import { unknownRequirements } from './config-schema.ts';
import { SUITES } from './settings.ts';

/** The catalogue file looked for in --suites-dir when --user-catalogue is not given. */
export const USER_CATALOGUE_FILE = 'catalogue.json';

/** A suite file of the user's: its name (as reports show it) and its absolute path. */
export interface UserSuite {
  name: string;
  file: string;
}

export interface UserSuites {
  suites: UserSuite[];
  catalogue: UserRequirement[];
  /** The catalogue file they came from. */
  catalogueFile: string;
}

const SUITE_FILE = /\.test\.(ts|js|mjs)$/;

/** --suites-dir and its catalogue, read and checked; --user-catalogue alone is a mistake said plainly. */
export function loadUser(config: Config): UserSuites | undefined {
  if (config.suitesDir) {
    const user = loadUserSuites(config.suitesDir, config.userCatalogue, SUITES);
    const unknown = (config.only ?? []).filter(
      (id) => !findRequirement(id) && !user.catalogue.some((r) => r.id === id),
    );
    if (unknown.length) throw new HarnessError('SC_CONFIG', `--only ${unknownRequirements(unknown)}`);
    return user;
  }
  if (config.userCatalogue) {
    throw new HarnessError(
      'SC_CONFIG',
      '--user-catalogue names the requirements of your own suites: give --suites-dir too',
    );
  }
  return undefined;
}

/** Reads and checks the user's suites and catalogue; `ours` are screenconf's suite names. */
export function loadUserSuites(dir: string, catalogueFile: string | undefined, ours: readonly string[]): UserSuites {
  const file = catalogueFile ?? join(dir, USER_CATALOGUE_FILE);
  const catalogue = loadUserCatalogue(file);
  const suites = listUserSuites(dir, ours);
  const known = new Set(catalogue.map((r) => r.id));
  for (const suite of suites) {
    const unknown = namedIds(readFileSync(suite.file, 'utf8')).filter((id) => !known.has(id) && !findRequirement(id));
    if (unknown.length) {
      throw new HarnessError(
        'SC_UNKNOWN_REQUIREMENT',
        `${suite.file} names requirement id${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')}, in neither ` +
          `screenconf's catalogue (screenconf list) nor ${file}`,
      );
    }
  }
  return { suites, catalogue, catalogueFile: file };
}

/** The user's catalogue file, parsed and checked. */
export function loadUserCatalogue(file: string): UserRequirement[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'there is no such file' : (e as Error).message;
    throw new HarnessError(
      'SC_USER_CATALOGUE',
      `user catalogue ${file} cannot be read: ${why} (give --user-catalogue FILE, or put ${USER_CATALOGUE_FILE} in ` +
        '--suites-dir)',
    );
  }
  const json = parseJsonText(text);
  if (!json.ok) throw new HarnessError('SC_USER_CATALOGUE', `user catalogue ${file}${json.where}: ${json.message}`);
  const parsed = parseUserCatalogue(json.value);
  if ('problem' in parsed) throw new HarnessError('SC_USER_CATALOGUE', `user catalogue ${file}: ${parsed.problem}`);
  return parsed.requirements;
}

/** The suite files of the folder (not its subfolders), by name. */
function listUserSuites(dir: string, ours: readonly string[]): UserSuite[] {
  let names: string[];
  try {
    if (!statSync(dir).isDirectory()) throw new Error('not a folder');
    names = readdirSync(dir);
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'there is no such folder' : (e as Error).message;
    throw new HarnessError('SC_USER_SUITES', `--suites-dir ${dir} cannot be read: ${why}`);
  }
  const suites = names
    .filter((f) => SUITE_FILE.test(f))
    .sort()
    .map((f) => ({ name: suiteName(f), file: join(dir, f) }));
  if (suites.length === 0) {
    throw new HarnessError(
      'SC_USER_SUITES',
      `--suites-dir ${dir} holds no suite file (*.test.ts, *.test.js, *.test.mjs)`,
    );
  }
  const seen = new Set<string>();
  for (const s of suites) {
    if (ours.includes(s.name) || seen.has(s.name)) {
      const clash = seen.has(s.name) ? 'given twice' : "one of screenconf's suites";
      throw new HarnessError('SC_USER_SUITES', `--suites-dir ${dir}: the suite name ${s.name} (${s.file}) is ${clash}`);
    }
    seen.add(s.name);
  }
  return suites;
}

/** The ids written as string literals in the check(title, [ids], …) and t.observe(id, …) calls of a suite file. */
export function namedIds(source: string): string[] {
  const ids: string[] = [];
  const literal = /'([^'\\\n]*)'|"([^"\\\n]*)"|`([^`\\$]*)`/g;
  const checks = /\bcheck\s*\(\s*(?:'[^'\n]*'|"[^"\n]*"|`[^`]*`)\s*,\s*\[([^\]]*)\]/g;
  for (const m of source.matchAll(checks)) {
    for (const l of m[1]!.matchAll(literal)) ids.push(l[1] ?? l[2] ?? l[3]!);
  }
  for (const m of source.matchAll(/\.observe\s*\(\s*(?:'([^'\n]*)'|"([^"\n]*)")/g)) ids.push(m[1] ?? m[2]!);
  return [...new Set(ids)];
}
