/**
 * The report code on its own: the committed JSON Schema, the report builder, server headers,
 * Markdown and HTML escaping, the page's Content Security Policy, and the rendering of a run
 * against several targets (the multi-target contract of conformance.json).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { esc, renderHtml } from '../src/report/html.ts';
import { mdBlock, mdCode, mdText, renderMarkdown } from '../src/report/markdown.ts';
import { buildReport, overallVerdict } from '../src/results/build.ts';
import { judge } from '../src/results/judge.ts';
import type { CheckOutcome } from '../src/results/outcome.ts';
import { type ConformanceReport, ConformanceReportSchema, type Summary } from '../src/results/report.ts';
import { ServerHeaders } from '../src/results/server-headers.ts';
import { publicOptions } from '../src/runner/settings.ts';
import { SCHEMA_FILE, schemaText } from '../src/report/write-schema.ts';

const outcomes: CheckOutcome[] = [
  {
    suite: 'token',
    name: 'token endpoint > issues',
    state: 'passed',
    requirements: ['TOKEN-ISSUE'],
    observations: [],
    durationMs: 1,
  },
  {
    suite: 'case-delete',
    name: 'delete > removes',
    state: 'failed',
    requirements: ['CASE-DELETE-REMOVES', 'CASE-DELETE-STATUS'],
    failure: {
      what: 'PATCH after DELETE',
      expected: '4xx',
      received: 'HTTP 200',
      request: { method: 'PATCH', path: '/api/cases/1/', credential: 'our-token' },
      message: 'PATCH after DELETE\nExpected: 4xx\nReceived: HTTP 200',
    },
    observations: [{ requirement: 'CASE-DELETE-STATUS', text: 'HTTP 204 with no body' }],
    evidence: {
      exchanges: [
        {
          at: '2026-01-01T00:00:00.000Z',
          durationMs: 3,
          request: { method: 'PATCH', url: 'http://t/api/cases/1/', headers: {}, body: '{}' },
          response: { status: 200, headers: {}, body: '{"id":1}' },
        },
      ],
      curl: [`curl -sS -i -X PATCH "$SCREENCONF_BASE_URL"'/api/cases/1/'`],
    },
    durationMs: 2,
  },
];

function summaryOf(results: ReturnType<typeof judge>): Summary {
  return { ...results.summary, leftovers: [], suiteErrors: [], throttled: 0 };
}

function single(label?: string, verdicts: CheckOutcome[] = outcomes): ConformanceReport {
  const judged = judge(verdicts);
  const built = buildReport(
    {
      id: 'abcd1234',
      startedAt: new Date('2026-01-01T00:00:00Z'),
      finishedAt: new Date('2026-01-01T00:01:00Z'),
      seed: 1,
      runs: 25,
      suites: ['token', 'case-delete'],
      options: { seed: 1 },
    },
    {
      ...(label ? { label } : {}),
      baseUrl: `https://${label ?? 'x'}.example`,
      kind: 'url',
      serverHeaders: { Server: ['nginx'] },
      summary: summaryOf(judged),
      results: judged.results,
    },
  );
  return ConformanceReportSchema.parse(built);
}

describe('the JSON Schema of conformance.json', () => {
  it('is committed as docs/conformance.schema.json, as `npm run schema` writes it', () => {
    expect(readFileSync(SCHEMA_FILE, 'utf8'), 'run `npm run schema` and commit docs/conformance.schema.json').toBe(
      schemaText(),
    );
  });

  it('documents the contract fields', () => {
    const schema = JSON.parse(schemaText()) as {
      required: string[];
      properties: Record<string, { description?: string }>;
      $defs: Record<string, { required?: string[] }>;
    };
    expect(schema.required).toEqual(
      expect.arrayContaining(['schemaVersion', 'run', 'target', 'targets', 'summary', 'results']),
    );
    expect(schema.$defs.RequirementResult!.required).toEqual(
      expect.arrayContaining(['id', 'level', 'verdict', 'tests']),
    );
    expect(schema.$defs.Summary!.required).toEqual(expect.arrayContaining(['conforming', 'counts']));
    expect(schema.properties.targets!.description).toMatch(/default/);
  });
});

describe('buildReport', () => {
  it('holds one target labelled "default", with the run and its summary', () => {
    const r = single();
    expect(r.targets).toHaveLength(1);
    expect(r.targets[0]).toMatchObject({
      label: 'default',
      baseUrl: 'https://x.example',
      serverHeaders: { Server: ['nginx'] },
    });
    expect(r.target.label).toBe('default');
    expect(r.summary.conforming).toBe(false);
    expect(overallVerdict(r)).toBe('NOT CONFORMING');
    const status = r.results.find((x) => x.id === 'CASE-DELETE-STATUS')!;
    expect(status.verdict).toBe('observed');
    expect(status.observationEvidence).toEqual([{ test: 'delete > removes', text: 'HTTP 204 with no body' }]);
  });

  it('publicOptions replaces secrets at any depth and keeps the rest', () => {
    const o = publicOptions(
      {
        clientSecret: 's3cret',
        apiKey: 'k',
        seed: 3,
        targets: [{ label: 'us', baseUrl: 'https://us', clientSecret: 'x', peerClientSecret: 'y' }],
        unset: undefined,
      },
      ['clientSecret', 'apiKey', 'peerClientSecret'],
    );
    expect(o).toEqual({
      apiKey: '[REDACTED]',
      clientSecret: '[REDACTED]',
      seed: 3,
      targets: [{ baseUrl: 'https://us', clientSecret: '[REDACTED]', label: 'us', peerClientSecret: '[REDACTED]' }],
    });
  });
});

describe('ServerHeaders', () => {
  it('keeps the identification headers, each distinct value once, capped and cleaned', () => {
    const h = new ServerHeaders();
    h.observe({ Server: 'nginx/1.25', 'x-powered-by': 'Express', via: '1.1 a', 'content-type': 'text/plain' });
    h.observe({ server: 'nginx/1.25', via: '1.1 b' });
    h.observe({ server: `evil\u0007${'x'.repeat(500)}` });
    for (let i = 0; i < 20; i++) h.observe({ via: `hop ${i}` });
    const out = h.toJSON();
    expect(Object.keys(out)).toEqual(['Server', 'Via', 'X-Powered-By']);
    expect(out.Server).toEqual([`evil\ufffd${'x'.repeat(195)}`, 'nginx/1.25']);
    expect(out.Via).toHaveLength(10);
    expect(h.take()).toEqual(out);
    expect(h.toJSON()).toEqual({});
  });
});

describe('Markdown escaping', () => {
  it('text cannot add Markdown or HTML; code spans and blocks hold any text', () => {
    expect(mdText('<img src=x onerror=alert(1)> *bold* [link](http://x) a|b `code`')).toBe(
      '&lt;img src=x onerror=alert(1)&gt; \\*bold\\* \\[link\\](http://x) a\\|b \\`code\\`',
    );
    expect(mdText('# not a heading\nsecond line')).toBe('\\# not a heading<br>second line');
    expect(mdText('0.1.0 stays')).toBe('0.1.0 stays');
    expect(mdCode('a ``b`` | c')).toBe('```a ``b`` \\| c```');
    expect(mdBlock('```\nx')).toBe('````\n```\nx\n````');
  });
});

describe('report.html', () => {
  it('allows only its own style and script, by hash, and nothing from the network', () => {
    const html = renderHtml(single());
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)![1]!;
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    const hash = (t: string) => createHash('sha256').update(t).digest('base64');
    expect(csp).toBe(
      `default-src 'none'; style-src 'sha256-${hash(style)}'; script-src 'sha256-${hash(script)}'; img-src 'none'; ` +
        `connect-src 'none'; base-uri 'none'; form-action 'none'`,
    );
    expect(html.match(/<script/g)).toHaveLength(1);
    // Links only within the page (to a failure, to a requirement): nothing is loaded or left to.
    expect(html).not.toMatch(/\bsrc=|\bhref="(?!#)/);
    expect(esc(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  it('is the same for the same report (no clock): re-rendering is byte-identical', () => {
    expect(renderHtml(single())).toBe(renderHtml(single()));
    expect(renderMarkdown(single())).toBe(renderMarkdown(single()));
  });
});

describe('a report of several targets (the multi-target contract)', () => {
  // us fails CASE-DELETE-REMOVES, eu passes it: the requirement differs; the worst verdict is on top.
  const us = single('us');
  const eu = single(
    'eu',
    outcomes.map((o) =>
      o.suite === 'case-delete'
        ? {
            ...o,
            state: 'passed' as const,
            errors: [],
            observations: [{ requirement: 'CASE-DELETE-STATUS', text: 'HTTP 200 {}' }],
          }
        : o,
    ),
  );
  const report: ConformanceReport = ConformanceReportSchema.parse({
    ...us,
    target: us.target,
    targets: [...us.targets, ...eu.targets],
    summary: { ...us.summary, conforming: false },
    results: us.results.map((r) => {
      const e = eu.results.find((x) => x.id === r.id)!;
      return {
        ...r,
        byTarget: {
          us: { verdict: r.verdict, ...(r.observations ? { observations: r.observations } : {}) },
          eu: { verdict: e.verdict, ...(e.observations ? { observations: e.observations } : {}) },
        },
        differs: r.verdict !== e.verdict || JSON.stringify(r.observations) !== JSON.stringify(e.observations),
      };
    }),
  });

  it('fits the schema with targets, byTarget and differs', () => {
    expect(report.targets.map((t) => t.label)).toEqual(['us', 'eu']);
    expect(report.results.find((r) => r.id === 'CASE-DELETE-REMOVES')).toMatchObject({
      verdict: 'fail',
      differs: true,
      byTarget: { us: { verdict: 'fail' }, eu: { verdict: 'pass' } },
    });
  });

  it('the HTML has a column per target, marks the differences and filters on them', () => {
    const html = renderHtml(report);
    expect(html).toContain('<th>us</th><th>eu</th>');
    expect(html).toContain('<input type="checkbox" id="f-differs"> Differences only');
    const row = /<tbody class="req differs" id="req-CASE-DELETE-REMOVES"[^>]*data-differs="1">[\s\S]*?<\/tbody>/.exec(
      html,
    )?.[0];
    expect(row).toBeDefined();
    expect(row).toContain(
      '<td class="target"><span class="badge fail">fail</span></td><td class="target"><span class="badge ' +
        'pass">pass</span></td>',
    );
    expect(html).toContain('<section id="targets"><h2>Targets</h2>');
    expect(html).toMatch(/<td>us<\/td><td>https:\/\/us\.example<\/td><td>Server: nginx<\/td>/);
  });

  it('the Markdown has a row per target and says where a failure differs', () => {
    const md = renderMarkdown(report);
    expect(md).toMatch(/^\| Target us \| https:\/\/us\.example; Server: nginx; \*\*not conforming\*\* \|$/m);
    // Two suites judge a few MUSTs only: eu, with no failure, is incomplete, not conforming.
    expect(md).toMatch(/^\| Target eu \| https:\/\/eu\.example; Server: nginx; \*\*incomplete\*\* \|$/m);
    expect(md).toContain('### FAIL `CASE-DELETE-REMOVES` (MUST)');
    expect(md).toContain('On each target: us fail, eu pass');
  });
});
