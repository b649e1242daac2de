/**
 * Cases several suite files share: made once for the run by the first file that needs them, held
 * by one file at a time, removed by the runner after the suites. The bulk suites' 100-item limit
 * checks each need 101 cases of the primary organisation, which cost about 100 requests to make
 * and 100 to remove; the two files share one set.
 *
 * Held by one file at a time (a lock in the run's shared folder, across the worker processes):
 * what a check judges on the cases cannot depend on what another file's check sends to them
 * meanwhile. Between two holds of a file another file may have acted on them, which the lease says
 * (`changedElsewhere`): what the file knew of them (a read, a batch's values) may be out of date.
 *
 * Outside a run (no shared folder) a pool is the file's own, and teardown removes it.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseJson, stringifyJson } from '../base/json.ts';
import { LockTimeout, withLock } from '../base/lock.ts';
import { HarnessError } from '../errors.ts';
import type { Exchange } from '../results/exchange.ts';
import type { CaseBody } from './cases.ts';
import { adoptCreations, creationOf, type Harness } from './context.ts';

/**
 * How long a check waits for another file's hold of the pool before it gives up (SC_POOL_BUSY, not
 * judged): below the 120 s a check may take. The holds are taken in turn; the longest is a limit
 * check's (about 200 requests: some 20 s at the polite defaults).
 */
const WAIT_MS = 75_000;

export interface PoolLease {
  cases: CaseBody[];
  /** Another file acted on the cases since this file last held them (always true on its first hold but the maker's). */
  changedElsewhere: boolean;
}

export interface SharedPool {
  /** Runs `fn` holding the pool, made first (in this check) when no file made it yet. */
  use<R>(t: Harness, fn: (lease: PoolLease) => Promise<R>): Promise<R>;
  /** Runs `fn` holding the pool when a file made it, else with none (a check then makes cases of its own). */
  useIfMade<R>(t: Harness, fn: (lease: PoolLease | undefined) => Promise<R>): Promise<R>;
}

/** The pool as its maker wrote it, once: read once by each other file. */
interface PoolMade {
  cases: CaseBody[];
  /** The exchanges that made them, so a failure judged on them in any worker keeps its setup. */
  creations: Exchange[];
}

/** Makes `size` cases of the primary organisation; `shared`: the runner removes them, not teardown. */
export type MakeCases = (t: Harness, size: number, shared: boolean) => Promise<CaseBody[]>;

/**
 * The pool `name` of `size` cases, for one suite file (call it once at the file's top level):
 * every file naming the same pool shares it within a run.
 */
export function sharedPool(name: string, size: number, make: MakeCases): SharedPool {
  const holder = `${process.pid}-${Math.random().toString(36).slice(2)}`;
  /** Outside a run: the file's own cases. */
  let own: Promise<CaseBody[]> | undefined;
  /** In a run: the shared cases, once this file made or read them (they do not change after). */
  let known: CaseBody[] | undefined;

  const hold = async <R>(t: Harness, create: boolean, fn: (lease: PoolLease | undefined) => Promise<R>) => {
    const dir = t.run.shareDir;
    if (!dir) {
      if (create) own ??= make(t, size, false);
      const cases = await own?.catch((err: unknown) => {
        own = undefined; // Made again by the next check that needs it.
        if (create) throw err;
        return undefined;
      });
      return fn(cases ? { cases, changedElsewhere: false } : undefined);
    }
    const file = join(dir, `pool-${name}.json`);
    // Which file held the pool last: a few bytes written each hold (the cases and creations are written once).
    const holderFile = join(dir, `pool-${name}.holder`);
    const held = withLock(
      join(dir, `pool-${name}.lock`),
      async () => {
        let madeNow = false;
        if (!known) {
          const made = readJson<PoolMade>(file);
          if (made) {
            adoptCreations(made.creations);
            known = made.cases;
          } else if (create) {
            const cases = await make(t, size, true);
            writeAtomically(file, stringifyJson({ cases, creations: cases.flatMap((c) => creationOf(c.id) ?? []) })!);
            known = cases;
            madeNow = true;
          }
        }
        if (!known) return fn(undefined);
        const last = readText(holderFile);
        writeAtomically(holderFile, holder);
        return fn({ cases: known, changedElsewhere: !madeNow && last !== holder });
      },
      { waitMs: WAIT_MS },
    );
    return held.catch((err: unknown) => {
      if (!(err instanceof LockTimeout)) throw err;
      throw new HarnessError(
        'SC_POOL_BUSY',
        `the cases the bulk suites share were held by another suite file for more than ${WAIT_MS / 1000} s ` +
          '(a slow target, or a low --max-rps): this check could not act on them',
      );
    });
  };

  return {
    use: (t, fn) => hold(t, true, (lease) => fn(lease!)),
    useIfMade: (t, fn) => hold(t, false, fn),
  };
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function readJson<T>(file: string): T | undefined {
  const text = readText(file);
  return text === undefined ? undefined : (parseJson(text) as T);
}

/** Written whole or not at all: another process reads it only whole. */
function writeAtomically(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600 });
  renameSync(tmp, file);
}
