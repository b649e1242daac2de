/**
 * Running part of the suites on purpose: --only (the inner loop of fixing one failure) and
 * --exit-first / --max-failures (stop early, clean up, say so), through the CLI's main() in this process
 * (support/in-process.ts).
 */
import { describe, expect, it } from 'vitest';
import { readReport, tempDir } from './support/cli.ts';
import { screenconfInProcess } from './support/in-process.ts';

interface Result {
  id: string;
  verdict: string;
  reason?: string;
  failures?: { evidence?: { property?: { seed: number; path: string } } }[];
}

function results(dir: string): Result[] {
  return readReport(dir).results as unknown as Result[];
}

describe('--only', () => {
  it('runs just the checks that judge the named requirements; the rest are not selected', async () => {
    const dir = tempDir();
    const r = await screenconfInProcess([
      'run',
      '--report-dir',
      dir,
      '--seed',
      '3',
      '--only',
      'CASE-PATCH-PARTIAL,TOKEN-ISSUE',
    ]);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const all = results(dir);
    expect(all.find((x) => x.id === 'CASE-PATCH-PARTIAL')?.verdict).toBe('pass');
    expect(all.find((x) => x.id === 'TOKEN-ISSUE')?.verdict).toBe('pass');
    const other = all.find((x) => x.id === 'CASE-PATCH-ROUNDTRIP');
    expect(other).toMatchObject({ verdict: 'skip', reason: 'not selected: --only names other requirements' });
    expect(r.stdout).toContain('Verdict: INCOMPLETE — ');
  });

  it('replays the same property runs as a full run with the same seed', async () => {
    const args = ['--seed', '11', '--suites', 'case-properties', '--reference-faults', 'limit.delete-after-truncate'];
    const full = tempDir();
    const only = tempDir();
    const a = await screenconfInProcess(['run', '--report-dir', full, ...args]);
    const b = await screenconfInProcess([
      'run',
      '--report-dir',
      only,
      ...args,
      '--only',
      'CASE-PATCH-INVALID-REJECTED',
    ]);
    expect(a.status, a.stdout).toBe(1);
    expect(b.status, b.stdout).toBe(1);
    const seedOf = (dir: string) =>
      results(dir).find((x) => x.id === 'CASE-PATCH-INVALID-REJECTED')?.failures?.[0]?.evidence?.property;
    // The same seed, so the same generated inputs (the shrink path may differ with the time budget).
    expect(seedOf(only)?.seed).toBeDefined();
    expect(seedOf(only)?.seed).toBe(seedOf(full)?.seed);
  });

  it('refuses a requirement id the catalogue does not have (exit 2)', async () => {
    const r = await screenconfInProcess(['run', '--only', 'CASE-PATCH-NOPE']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^screenconf: error SC_CONFIG: --only \(SCREENCONF_ONLY\) names unknown requirements: /);
  });
});

describe('--exit-first', () => {
  it('stops after the first failed check, cleans up, and says the run was cut short', async () => {
    const dir = tempDir();
    const r = await screenconfInProcess([
      'run',
      '--report-dir',
      dir,
      '--seed',
      '3',
      '--suites',
      'case-patch',
      '--reference-faults',
      'patch.replace-not-merge',
      '--exit-first',
    ]);
    expect(r.status, r.stdout + r.stderr).toBe(1);
    // Checks already running when the first failed end as they end: more than one may have failed.
    expect(r.stdout).toMatch(/^Cut short: the run stopped after \d+ failed checks? \(--max-failures 1\); cleanup ran/m);
    const report = readReport(dir) as unknown as { run: { cutShort?: string }; summary: { cleanup: { left: [] } } };
    expect(report.run.cutShort).toMatch(/^the run stopped after \d+ failed checks? \(--max-failures 1\)$/);
    expect(report.summary.cleanup.left).toEqual([]);
    const notRun = results(dir).filter((x) => /^not run: the run stopped after \d+ failed/.test(x.reason ?? ''));
    expect(notRun.length).toBeGreaterThan(0);
    // Requirements of suites not selected stay "not selected", not "not run".
    expect(results(dir).find((x) => x.id === 'TOKEN-ISSUE')?.reason).toBe(
      'no check ran for it in this run (suite not selected)',
    );
  });

  it('keeps the failure that stopped it, in a file whose checks were still running side by side', async () => {
    // The webhooks file runs its checks at once: the failed one ends while the others wait for deliveries.
    const dir = tempDir();
    const r = await screenconfInProcess([
      'run',
      '--report-dir',
      dir,
      '--suites',
      'webhooks',
      '--reference-faults',
      'webhook.none',
      '--exit-first',
    ]);
    expect(r.status, r.stdout + r.stderr).toBe(1);
    expect(results(dir).find((x) => x.id === 'WEBHOOK-DELIVERED')?.verdict).toBe('fail');
  });
});
