/**
 * Live progress: off a terminal (a CI log), a plain line at a steady interval while the suites
 * run, never silence; nothing with --quiet; and what the run judged and cost at the end.
 */
import { describe, expect, it } from 'vitest';
import { readReport, tempDir } from './support/cli.ts';
import { screenconfInProcess } from './support/in-process.ts';

describe('progress off a terminal', () => {
  it('prints a progress line at the interval while suites run, and what the run judged and cost', async () => {
    const dir = tempDir();
    // The webhooks suite waits for deliveries for seconds: plenty of 200 ms intervals.
    const r = await screenconfInProcess([
      'run',
      '--report-dir',
      dir,
      '--seed',
      '3',
      '--suites',
      'token,webhooks',
      '--progress-interval-ms',
      '200',
    ]);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const lines = r.stdout.split('\n').filter((l) => l.startsWith('  progress: '));
    expect(lines.length, r.stdout).toBeGreaterThan(0);
    expect(lines[0]).toMatch(/^ {2}progress: \d+\/2 suites done, \d+ checks, \d+ requests, \d+\.\d s; running: /);
    const report = readReport(dir) as unknown as { summary: { requests: { total: number; bySuite: object } } };
    expect(Object.keys(report.summary.requests.bySuite).sort()).toEqual(['token', 'webhooks']);
    expect(r.stdout).toMatch(
      new RegExp(`^\\d+ requirements judged in \\d+\\.\\d s; ${report.summary.requests.total} requests sent`, 'm'),
    );
  });

  it('prints none with --quiet', async () => {
    const r = await screenconfInProcess(['run', '--report-dir', tempDir(), '--suites', 'webhooks', '--quiet']);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).not.toContain('progress: ');
  });
});
