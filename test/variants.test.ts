/**
 * Legal variations stay conforming (issue 14 §1): the whole suite, through the CLI's main() (the run
 * command as a user gives it, the embedded server over real HTTP, the suites in vitest worker
 * processes; in this process, as faults.test.ts, to spare a node + tsx + vitest start-up per run),
 * against the reference server with each variant switch alone and with several combined, ends
 * CONFORMING with no MUST failed and no SHOULD warned. The faults (test/faults.test.ts) prove the
 * checks have teeth; this file proves they do not bite a server for a choice the interface leaves open.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { VARIANTS, type VariantName } from '../src/reference/variants.ts';
import { readReport, tempDir } from './support/cli.ts';
import { screenconfInProcess } from './support/in-process.ts';

/** Combinations: one choice of each kind at once, as an independent server would make them. */
const COMBINED: VariantName[][] = [
  [
    'errors.problem-json',
    'tenant.forbidden',
    'delete.status-200',
    'read.get-405',
    'bulk.shape-ok-errors',
    'read.extra-fields',
    'patch.reject-read-only',
    'ids.large-sparse',
    'text.trim',
    'numbers.lenient',
    'token.jwt',
    'bulk.keep-last-check',
    'delete.absent-no-op',
    'bulk.case-summary-complete',
    'webhook.envelope',
    'auth.lockout',
  ],
  [
    'errors.status-422',
    'token.short-lived',
    'token.one-per-client',
    'http.rate-limit',
    'http.charset',
    'bulk.shape-succeeded-ids',
    'read.get-404',
    'limit.utf16',
    'form.empty-skips',
    'text.nul-refused',
    'token.bearer-api-key',
    'bulk.items-no-sync-platforms',
    'bulk.over-limit-per-item',
    'bulk.case-summary-outcome',
    'webhook.queue-timeout',
  ],
  [
    'text.nfc',
    'read.checks-descending',
    'read.risk-2dp',
    'read.customer-type-blank',
    'model.save-touches-checks',
    'webhook.at-least-once',
    'webhook.slow',
    'bulk.shape-status-per-id',
    'delete.keeps-customer',
    'read.get-403',
    'ids.above-2^53',
    'token.uuid',
    'bulk.over-limit-per-item',
    'delete.absent-no-op',
    'bulk.keep-last-check',
    'bulk.items-metadata-only',
  ],
];

const RUNS: VariantName[][] = [...(Object.keys(VARIANTS) as VariantName[]).map((v) => [v]), ...COMBINED];

/**
 * Whole runs at once: each is an embedded server and two vitest worker processes. A run spends most
 * of its time waiting in the webhooks suite (deliveries, and the quiet windows that show none came
 * twice), so two at once nearly halve this file's time for little more CPU. Spawned, two at once on a
 * 2-core machine beside other test files once overloaded the embedded server (ECONNRESET, harness
 * faults); in this process, two at once stayed green in full runs of `npm test`, and in two full runs
 * at once (every test file twice, on 2 cores). More than two would wait for the CPU, not the clock.
 */
const AT_ONCE = 2;
let running = 0;
const waiting: (() => void)[] = [];
async function slot<T>(fn: () => Promise<T>): Promise<T> {
  while (running >= AT_ONCE) await new Promise<void>((r) => waiting.push(r));
  running += 1;
  try {
    return await fn();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

const table: string[] = [];

interface Summary {
  verdict?: string;
  conforming: boolean;
  mustFailures: number;
  shouldWarnings?: number;
  tokenRenewals?: number;
  flaky?: string[];
}

describe('each legal variation is judged conforming', () => {
  it('names every variant of the reference server', () => {
    expect(RUNS.flat().filter((v) => !(v in VARIANTS))).toEqual([]);
    expect(new Set(COMBINED.flat()).size).toBeGreaterThan(20);
  });

  describe.concurrent.each(RUNS.map((vs) => [vs.join('+'), vs] as const))('%s', (_label, variants) => {
    it('ends CONFORMING: no MUST failed, no SHOULD warned', async () => {
      const dir = tempDir();
      const result = await slot(() =>
        screenconfInProcess(
          ['run', '--report-dir', dir, '--seed', '14', '--runs', '3', '--quiet'].concat(
            '--reference-variants',
            variants.join(','),
          ),
        ),
      );
      const report = readReport(dir) as ReturnType<typeof readReport> & { summary: Summary };
      const wrong = report.results
        .filter((r) => r.verdict === 'fail' || r.verdict === 'warn' || (r.level === 'MUST' && r.verdict === 'skip'))
        .map((r) => `${r.id} ${r.verdict}: ${r.reason ?? ''}`);
      const s = report.summary;
      table.push(
        `${variants.join('+').padEnd(40)} → ${s.verdict}` +
          `${s.tokenRenewals ? `, ${s.tokenRenewals} token renewal(s)` : ''}` +
          `${s.flaky?.length ? `, flaky: ${s.flaky.join(' ')}` : ''}`,
      );
      expect(wrong, result.stdout.slice(-3000)).toEqual([]);
      expect(s.verdict).toBe('conforming');
      expect(s.mustFailures).toBe(0);
      expect(result.status).toBe(0);
      // A server that revokes a client's earlier tokens makes the harness renew its own: the report says so.
      if (variants.includes('token.one-per-client')) expect(s.tokenRenewals ?? 0).toBeGreaterThan(0);
    }, 600_000);
  });

  afterAll(() => {
    console.log(`variants → verdict\n${table.sort().join('\n')}`);
  });
});
