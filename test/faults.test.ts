/**
 * Proof the suites have teeth: each fault switch of the reference server makes the
 * requirement it breaks fail, through the CLI's main() (the run command as a user gives it, the
 * embedded server over real HTTP, the suites in vitest worker processes), and the run exits 1 (with
 * --strict when the fault breaks only SHOULD requirements). main() runs in this process: a spawned
 * binary per fault cost a node + tsx + vitest start-up each, most of a small run's CPU; the binary
 * itself is tested in cli.test.ts.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { FAULTS, type FaultName } from '../src/reference/faults.ts';
import { FAULT_PROOFS } from '../src/reference/proofs.ts';
import { requirement } from '../src/spec/index.ts';
import { readReport, tempDir } from './support/cli.ts';
import { screenconfInProcess } from './support/in-process.ts';

const table: string[] = [];

describe('each fault is caught by its requirement', () => {
  it('every fault switch has an expectation here', () => {
    expect(Object.keys(FAULT_PROOFS).sort()).toEqual(Object.keys(FAULTS).sort());
  });

  describe.concurrent.each(Object.entries(FAULT_PROOFS) as [FaultName, (typeof FAULT_PROOFS)[FaultName]][])(
    '%s',
    (fault, expected) => {
      it(`fails ${expected.fails.join(', ')}`, async () => {
        const dir = tempDir();
        // A fault that breaks only SHOULD requirements warns; --strict makes the warning fail the run.
        const shouldOnly = expected.fails.every((id) => requirement(id).level === 'SHOULD');
        const result = await screenconfInProcess([
          'run',
          '--report-dir',
          dir,
          '--seed',
          '11',
          '--suites',
          expected.suites.join(','),
          '--reference-faults',
          fault,
          ...(shouldOnly ? ['--strict'] : []),
        ]);
        const report = readReport(dir);
        const failing = report.results.filter((r) => r.verdict === 'fail' || r.verdict === 'warn').map((r) => r.id);
        table.push(`${fault.padEnd(28)} → ${failing.join(', ')}`);
        expect(failing).toEqual(expect.arrayContaining([...expected.fails]));
        // Passed at the first attempt: a re-run of a failed check passing (flaky) would hide the blame.
        const flaky = report.summary.flaky ?? [];
        const passing = report.results.filter((r) => r.verdict === 'pass' && !flaky.includes(r.id)).map((r) => r.id);
        expect(passing).toEqual(expect.arrayContaining([...(expected.passes ?? [])]));
        const notJudged = report.results
          .filter((r) => r.verdict === 'skip' && r.reason?.startsWith('could not judge'))
          .map((r) => r.id);
        expect(notJudged).toEqual(expect.arrayContaining([...(expected.notJudged ?? [])]));
        if (!shouldOnly) expect(report.summary.conforming).toBe(false);
        // Checks that could not judge make the run exit 3 (SC_INCOMPLETE), beside the failures.
        expect(result.status).toBe(expected.notJudged ? 3 : 1);
        // Some bulk faults take ~45 s when CI runs them beside other tests on 2 cores.
      });
    },
  );

  afterAll(() => {
    console.log(`fault → requirements that failed\n${table.sort().join('\n')}`);
  });
});
