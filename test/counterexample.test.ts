/**
 * Counterexamples people can read (src/kit/counterexample.ts), and the shrink budget that keeps a
 * failing property from costing more than it shows (src/kit/property.ts), through a real run.
 */
import { describe, expect, it } from 'vitest';
import { formatCounterexample, namedKeys } from '../src/kit/counterexample.ts';
import { readReport, tempDir } from './support/cli.ts';
import { screenconfInProcess } from './support/in-process.ts';

describe('formatCounterexample', () => {
  it('cuts long strings with their length and escapes invisible and bidirectional characters', () => {
    const shown = formatCounterexample({ external_id: `${'a'.repeat(500)}`, note: 'abc\u202edef\u200b\n' });
    expect(shown).toBe(`{external_id: "${'a'.repeat(40)}…" (500 chars), note: "abc\\u202edef\\u200b\\n"}`);
  });

  it('counts characters as code points, so an emoji is not cut in half', () => {
    expect(formatCounterexample('😀'.repeat(41))).toBe(`"${'😀'.repeat(40)}…" (41 chars)`);
  });

  it('prints null-prototype objects without __proto__ noise, and the named field first', () => {
    const value = Object.assign(Object.create(null) as object, { metadata: {}, delete_after: 1.5 });
    expect(formatCounterexample(value)).toBe('{metadata: {}, delete_after: 1.5}');
    expect(formatCounterexample(value, { first: ['delete_after'] })).toBe('{delete_after: 1.5, metadata: {}}');
  });

  it('counts what it leaves out of long lists', () => {
    expect(formatCounterexample(Array.from({ length: 15 }, (_, i) => i))).toBe(
      '[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, … 3 more]',
    );
  });

  it('finds the keys a failure names, at the top and one level down', () => {
    const value = { base: { webhook_url: 'x' }, invalid: { field: 'delete_after', patch: {} } };
    expect(namedKeys(value, 'case 3 after PATCH {delete_after}; webhook_url changed')).toEqual(['webhook_url']);
  });
});

describe('the shrink budget', () => {
  it('stops shrinking when the budget is spent and says the counterexample is not minimal', async () => {
    const dir = tempDir();
    const r = await screenconfInProcess([
      'run',
      '--report-dir',
      dir,
      '--seed',
      '11',
      '--suites',
      // A property whose first failure is a generated value (a fixed example is not shrunk): the
      // bulk suites' mixed-batch properties now fail on their fixed batch first.
      'case-properties',
      '--reference-faults',
      'patch.ignore-webhook-url',
      '--shrink-requests',
      '0',
    ]);
    expect(r.status, r.stdout + r.stderr).toBe(1);
    const report = readReport(dir) as unknown as {
      results: { id: string; failures?: { evidence?: { property?: { shrinkBudget?: { reached: boolean } } } }[] }[];
    };
    const reported = report.results.find((x) => x.id === 'CASE-PATCH-PARTIAL');
    const budget = reported?.failures?.[0]?.evidence?.property?.shrinkBudget;
    expect(budget?.reached, JSON.stringify(reported?.failures?.[0]?.evidence?.property)).toBe(true);
    expect(r.stdout).toMatch(/Counterexample \(shrunk for \d+\.\d s \/ \d+ requests \(the budget\), not minimal/);
  });
});

describe('the stateful model', () => {
  // fc.commands shrinks by the commands that ran: filtering its sequences (to keep out the empty one) left it 0 steps.
  it('shrinks a failing sequence, and its re-run replays the shrunk one', async () => {
    const dir = tempDir();
    const r = await screenconfInProcess([
      'run',
      '--report-dir',
      dir,
      '--seed',
      '1',
      '--suites',
      'model',
      '--reference-faults',
      'model.delete-resurrects',
    ]);
    expect(r.status, r.stdout + r.stderr).toBe(1);
    const report = readReport(dir) as unknown as {
      summary: { flaky?: string[] };
      results: {
        id: string;
        verdict: string;
        failures?: { message: string; evidence?: { property?: { numShrinks?: number } } }[];
      }[];
    };
    const model = report.results.find((x) => x.id === 'MODEL-CONSISTENT')!;
    expect(model.verdict).toBe('fail');
    expect(report.summary.flaky ?? []).not.toContain('MODEL-CONSISTENT');
    const failure = model.failures![0]!;
    expect(failure.message).not.toContain('Unable to replay');
    expect(failure.evidence?.property?.numShrinks, failure.message).toBeGreaterThan(0);
  });
});
