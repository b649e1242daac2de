/**
 * report.md fits where it goes, a pull-request comment: never over its budget (--md-max-chars,
 * default 60,000; GitHub holds 65,536), and still naming every failure with what a reader needs
 * first (statement, expected / received, a reproduction), then links to the full reports.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_MD_MAX_CHARS, renderMarkdown } from '../src/report/markdown.ts';
import { buildReport } from '../src/results/build.ts';
import { judge } from '../src/results/judge.ts';
import type { CheckOutcome } from '../src/results/outcome.ts';
import type { ConformanceReport } from '../src/results/report.ts';
import { CATALOGUE } from '../src/spec/index.ts';

const JUDGED = CATALOGUE.filter((r) => r.level !== 'OBSERVE');

/** A run whose checks all fail, each with a long answer and a long curl command (the worst case for size). */
function failingRun(count: number, options: Record<string, unknown> = {}): ConformanceReport {
  const outcomes: CheckOutcome[] = Array.from({ length: count }, (_, i) => {
    const r = JUDGED[i % JUDGED.length]!;
    const received = `HTTP 200 ${JSON.stringify({ i, padding: 'x'.repeat(1500) })}`;
    return {
      suite: r.area,
      name: `${r.area} > check ${i} of ${r.id}`,
      state: 'failed',
      requirements: [r.id],
      failure: {
        what: `request ${i} for ${r.id}`,
        expected: 'a 4xx rejection',
        received,
        request: { method: 'PATCH', path: `/api/cases/${i}/`, credential: 'our-token' },
        message: `request ${i}\nExpected: a 4xx rejection\nReceived: ${received}`,
      },
      evidence: {
        exchanges: [],
        curl: [`curl -sS -i -X PATCH "$SCREENCONF_BASE_URL"'/api/cases/${i}/' -d '${'y'.repeat(i % 2 ? 300 : 2500)}'`],
      },
      observations: [],
      flaky: false,
      durationMs: 3,
    };
  });
  const judged = judge(outcomes);
  return buildReport(
    {
      id: 'abcd1234',
      startedAt: new Date('2026-01-01T00:00:00Z'),
      finishedAt: new Date('2026-01-01T00:10:00Z'),
      seed: 9,
      runs: 25,
      suites: ['all'],
      options,
    },
    {
      baseUrl: 'https://staging.example',
      kind: 'url',
      serverHeaders: { Server: ['nginx'] },
      summary: { ...judged.summary, leftovers: [], suiteErrors: [] },
      results: judged.results,
    },
  );
}

const failingIds = (report: ConformanceReport) =>
  report.results.filter((r) => r.verdict === 'fail' || r.verdict === 'warn').map((r) => r.id);

describe('report.md size', () => {
  it('holds a run with 100 failures within 60,000 characters, naming every failing requirement', () => {
    const report = failingRun(100);
    expect(report.results.flatMap((r) => r.failures ?? [])).toHaveLength(100);
    const md = renderMarkdown(report);
    expect(md.length).toBeLessThanOrEqual(DEFAULT_MD_MAX_CHARS);
    for (const id of failingIds(report)) expect(md, id).toContain(`\`${id}\``);
    // What a reader needs first, for the first failures at least: statement, expected / received, a reproduction.
    expect(md).toContain(`### FAIL \`${JUDGED[0]!.id}\` (MUST)`);
    expect(md).toContain(JUDGED[0]!.statement.replace(/([\\`*_[\]|~])/g, '\\$1').slice(0, 40));
    expect(md).toContain('- **Expected:** `a 4xx rejection`');
    expect(md).toMatch(/```sh\ncurl -sS -i -X PATCH/);
    // Then the links to the rest.
    expect(md).toContain('[report.html](report.html)');
    expect(md).toContain('[conformance.json](conformance.json)');
  });

  it('keeps to a smaller budget: --md-max-chars, or the run’s own setting', () => {
    const report = failingRun(100);
    for (const max of [2_000, 8_000, 20_000]) {
      const md = renderMarkdown(report, { maxChars: max });
      expect(md.length, String(max)).toBeLessThanOrEqual(max);
      expect(md).toContain('[report.html](report.html)');
    }
    const small = renderMarkdown(failingRun(100, { mdMaxChars: 8_000 }));
    expect(small.length).toBeLessThanOrEqual(8_000);
    expect(small).toMatch(/… and \d+ more failing requirement\(s\): see report\.html\.|And by id: /);
  });

  it('writes every failure in full when they fit', () => {
    const report = failingRun(3);
    const md = renderMarkdown(report);
    expect(md.length).toBeLessThan(20_000);
    for (const id of failingIds(report)) expect(md).toContain(`\`${id}\``);
    expect(md.match(/```sh\ncurl /g)).toHaveLength(3);
    expect(md).not.toContain('Reproduce: the curl command (');
    expect(md).not.toContain('one line each');
  });
});
