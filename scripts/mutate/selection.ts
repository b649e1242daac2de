/**
 * The campaign's tests and how a mutant's covering tests become a run: each check of a conformance run is a
 * test (its attribution: the suite file and its full name), each suite file's work outside its checks is a test
 * (the file), the runner's own requests (preflight, sweep) are a test, and what no request caused (starting the
 * server) is the test RUN_TEST (the run as a whole). A mutant covered by checks runs those checks (`--suites …
 * --check …`; the runner's requests come with any run); one covered by a file's own work runs the file's every
 * check; one covered by the whole run, by the runner's requests alone, or with no coverage to go by, runs
 * everything.
 */
import { type TestResult, TestStatus } from '@stryker-mutator/api/test-runner';
import { attributionOf, parseAttribution, RUNNER_ATTRIBUTION } from '../../src/base/attribution.ts';

/** The test of what no check's request caused: starting the server, the runner's preflight and sweep. */
export const RUN_TEST = 'run';

/** What the dry run learned that every worker process needs: the run's checks by suite file, and its time. */
export interface DryRunFacts {
  checks: Record<string, string[]>;
  fullMs: number;
}

/** The file the dry run leaves its facts in, in the campaign's record folder. */
export const FACTS_FILE = 'dry-run.json';

/** A check of a run's conformance.json (checks[]). */
export interface RunCheck {
  suite: string;
  name: string;
  durationMs?: number;
}

/** The invariant watcher's entries of checks[]: outcomes, not checks a run can select. */
const isCheck = (c: RunCheck) => !c.name.startsWith('invariant watch');

/** The dry run's tests (every one its coverage names among them) and the facts the mutant runs need. */
export function testsOfRun(
  checks: readonly RunCheck[],
  runMs: number,
  covered: Iterable<string>,
): { tests: TestResult[]; facts: DryRunFacts } {
  const tests = new Map<string, TestResult>();
  const add = (id: string, name: string, timeSpentMs: number) =>
    tests.set(id, { id, name, status: TestStatus.Success, timeSpentMs: Math.max(0, Math.round(timeSpentMs)) });
  const bySuite: Record<string, string[]> = {};
  const own = checks.filter(isCheck);
  for (const c of own) {
    (bySuite[c.suite] ??= []).push(c.name);
    add(attributionOf(c.suite, c.name), `${c.suite} › ${c.name}`, c.durationMs ?? 0);
  }
  for (const [suite, names] of Object.entries(bySuite)) {
    const ms = own.filter((c) => c.suite === suite).reduce((sum, c) => sum + (c.durationMs ?? 0), 0);
    add(attributionOf(suite), `${suite} (its every check: work of the file outside them)`, ms);
    bySuite[suite] = [...new Set(names)].sort();
  }
  add(RUN_TEST, 'the whole run (work no check caused)', runMs);
  for (const id of covered) if (!tests.has(id)) add(id, id, 0);
  return { tests: [...tests.values()], facts: { checks: bySuite, fullMs: Math.round(runMs) } };
}

/**
 * The arguments that select the checks covering a mutant, or undefined for the whole run (no coverage to go by,
 * the run as a whole among them, or a file the dry run did not list).
 */
export function selectionArgs(
  filter: readonly string[] | undefined,
  facts: DryRunFacts | undefined,
): string[] | undefined {
  // The runner's own requests (preflight, sweep) are part of every run: they select nothing more.
  const ids = filter?.filter((id) => id !== RUNNER_ATTRIBUTION);
  if (!ids?.length || !facts || ids.includes(RUN_TEST)) return undefined;
  const suites = new Set<string>();
  const checks = new Set<string>();
  for (const id of ids) {
    const { suite, check } = parseAttribution(id);
    const names = check === undefined ? facts.checks[suite] : [check];
    if (!names?.length) return undefined;
    suites.add(suite);
    for (const n of names) checks.add(n);
  }
  return ['--suites', [...suites].sort().join(','), ...[...checks].sort().flatMap((c) => ['--check', c])];
}
