/**
 * report.html in a real browser: Debian's chromium, headless, driven by playwright-core. The
 * page comes from a real run (faults, so there are failures with evidence); every network
 * request of the page is blocked and recorded, and none may be attempted. The failures come
 * before anything that passed, and they read with JavaScript off. A second page is rendered from
 * a conformance.json holding hostile server text: it must show as text, run no script and fetch
 * nothing. Screenshots go to the test's temporary folder; with SCREENCONF_UPDATE_SCREENSHOT=1 the
 * one the README shows is written to docs/report-html.png.
 *
 * Without /usr/bin/chromium the file is skipped with one line saying how to get it, except under
 * CI (CI set), where a missing browser is a failure: .ci/run installs it.
 */
import { copyFileSync, cpSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../src/results/report.ts';
import { ROOT, runFolder, screenconf, tempDir } from './support/cli.ts';
import { screenconfInProcess } from './support/in-process.ts';

const CHROMIUM = '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
if (!HAVE_CHROMIUM && !process.env.CI)
  console.warn(`report-browser.test.ts skipped: no ${CHROMIUM} (apt-get install -y chromium to run it)`);
const tmp = tempDir('screenconf-browser-');
let folder: string;
let report: ConformanceReport;
let context: BrowserContext;
/** Every request the pages tried to make, by URL, other than the report file itself. */
const attempted: string[] = [];
const consoleErrors: string[] = [];

beforeAll(async () => {
  if (!HAVE_CHROMIUM) {
    if (process.env.CI) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run installs it)`);
    return;
  }
  const dir = join(tmp, 'reports');
  const run = await screenconfInProcess([
    'run',
    '--report-dir',
    dir,
    '--suites',
    'token,case-delete',
    '--reference-faults',
    'delete.noop,token.cacheable',
    '--seed',
    '5',
  ]);
  expect(run.status, run.stdout + run.stderr).toBe(1);
  folder = runFolder(dir);
  report = JSON.parse(readFileSync(join(folder, 'conformance.json'), 'utf8')) as ConformanceReport;
  context = await chromium.launchPersistentContext(join(tmp, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1280, height: 900 },
  });
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (url.startsWith('file://') && url.endsWith('/report.html')) return route.continue();
    attempted.push(url);
    return route.abort();
  });
});

afterAll(async () => {
  await context?.close();
});

async function open(file: string): Promise<Page> {
  const page = await context.newPage();
  page.on('request', (r) => {
    if (r.url() !== pathToFileURL(file).href) attempted.push(r.url());
  });
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(e.message));
  await page.goto(pathToFileURL(file).href);
  return page;
}

const visible = (page: Page, selector: string) => page.locator(`${selector}:visible`).count();

describe.skipIf(!HAVE_CHROMIUM && !process.env.CI)('report.html in chromium', () => {
  it('opens on the failures: the verdict names them, the first failure is above the first pass', async () => {
    const page = await open(join(folder, 'report.html'));
    await expect.poll(() => page.locator('#verdict h1').textContent()).toBe('NOT CONFORMING');
    expect(await page.locator('#verdict p').first().textContent()).toMatch(/^1 MUST failed, 1 SHOULD warned, /);
    // The banner names the ids, each a link to its entry.
    expect(await page.locator('#verdict p.ids').textContent()).toMatch(
      /^MUST failed: CASE-DELETE-REMOVES; SHOULD warned: TOKEN-NO-STORE/,
    );
    expect(await page.locator('#verdict p.ids a').first().getAttribute('href')).toBe('#fail-CASE-DELETE-REMOVES');
    const shot = join(tmp, 'report.png');
    await page.screenshot({ path: shot, fullPage: false });
    expect(statSync(shot).size).toBeGreaterThan(10_000);
    if (process.env.SCREENCONF_UPDATE_SCREENSHOT === '1') copyFileSync(shot, join(ROOT, 'docs/report-html.png'));

    // The first failure comes before anything that passed, wherever it passed (the table, the traceability view).
    const top = async (selector: string) => (await page.locator(selector).first().boundingBox())!.y;
    const firstFailure = await top('#failures article.failure');
    const firstPass = await top('.badge.pass:visible');
    expect(firstFailure).toBeLessThan(firstPass);
    // What fails the gate first, then the warnings.
    expect(await page.locator('#failures article.failure').first().getAttribute('data-id')).toBe('CASE-DELETE-REMOVES');
    const removes = page.locator('#fail-CASE-DELETE-REMOVES');
    expect(await removes.locator('p.statement').textContent()).toBe(
      report.results.find((r) => r.id === 'CASE-DELETE-REMOVES')!.statement,
    );
    expect(await removes.locator('p.source').textContent()).toMatch(/^Source: interface § Endpoints › DELETE/);
    expect(await removes.locator('dl.fields dd').nth(1).textContent()).toBe('a 4xx rejection');
    expect(await removes.locator('.exchange.judged pre.head').first().textContent()).toMatch(
      /^PATCH http:\/\/127\.0\.0\.1:\d+\/api\/cases\/\d+\/\n/,
    );
    expect(await removes.locator('pre.curl').first().textContent()).toMatch(
      /^curl -sS -i -X PATCH "\$SCREENCONF_BASE_URL"/,
    );
    expect(await removes.locator('pre.curl').first().isVisible()).toBe(true);
    // A long value is folded, with its length.
    expect(await removes.locator('dl.fields details.fold summary').first().textContent()).toMatch(
      /… \(\d+ characters\)$/,
    );

    // The environment, as key and value.
    const env = async (key: string) =>
      page.locator(`#run table.kv tr:has(th:text-is("${key}")) td`).first().textContent();
    expect(await env('Run id')).toBe(report.run.id);
    expect(await env('Server headers')).toBe('Server: screenconf-reference');
    expect(await env('Duration')).toMatch(/^\d+ s$|^\d+ min \d+ s$/);
    expect(await env('Node.js')).toBe(process.version);
    expect(await env('screenconf')).toMatch(/^0\.1\.0, git commit [0-9a-f]{40}$/);
    expect(attempted).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await page.close();
  });

  it('the table: failures only at first, a search box, filters by level and area, evidence in place', async () => {
    const page = await open(join(folder, 'report.html'));
    expect(await page.locator('tbody.req').count()).toBe(report.results.length);
    const failing = report.results.filter((r) => r.verdict === 'fail' || r.verdict === 'warn').length;
    // Failures only is on: the page opens on what needs reading.
    expect(await page.locator('#f-failures').isChecked()).toBe(true);
    expect(await visible(page, 'tbody.req')).toBe(failing);
    expect(await page.locator('#shown').textContent()).toBe(`showing ${failing} of ${report.results.length}`);
    await page.locator('#f-failures').uncheck();
    const passing = report.results.filter((r) => r.verdict === 'pass').length;
    expect(passing).toBeGreaterThan(5);
    expect(await visible(page, 'tbody.req[data-verdict="pass"]')).toBe(passing);

    // Search: every word must be in the row.
    await page.locator('#f-search').fill('token no-store');
    expect(await visible(page, 'tbody.req')).toBe(1);
    expect(await page.locator('tbody.req:visible').getAttribute('data-id')).toBe('TOKEN-NO-STORE');
    await page.locator('#f-search').fill('');

    // Evidence, closed at first, opens in place.
    const removes = page.locator('#req-CASE-DELETE-REMOVES');
    const details = removes.locator('details.evidence').first();
    expect(await details.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    await details.locator('> summary').click();
    expect(await removes.locator('pre.curl').first().isVisible()).toBe(true);
    await page.screenshot({ path: join(tmp, 'evidence.png'), fullPage: true });

    // By level and by area (a click on the chart's bar sets the area).
    await page.locator('#f-level').selectOption('OBSERVE');
    const observe = report.results.filter((r) => r.level === 'OBSERVE').length;
    expect(await visible(page, 'tbody.req')).toBe(observe);
    await page.locator('#f-level').selectOption('');
    await page.locator('#area-chart g.bar[data-area="token"]').click();
    expect(await page.locator('#f-area').inputValue()).toBe('token');
    expect(await visible(page, 'tbody.req')).toBe(report.results.filter((r) => r.area === 'token').length);

    // Traceability: each requirement under its interface section, with its checks and verdict.
    const trace = page.locator('#trace table.trace');
    expect(await trace.locator('a[href="#req-CASE-DELETE-REMOVES"]').count()).toBe(1);
    const row = trace.locator('tr:has(a[href="#req-CASE-DELETE-REMOVES"])');
    expect(await row.locator('li').first().textContent()).toMatch(/^failed case-delete: DELETE \/api\/cases/);
    expect(await row.locator('.badge').textContent()).toBe('fail');
    expect(attempted).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await page.close();
  });

  it('reads with JavaScript off: the failures section and the table are all there', async () => {
    const off = await context.browser()!.newContext({ javaScriptEnabled: false });
    try {
      const page = await off.newPage();
      await page.route('**/*', (route) =>
        route.request().url().endsWith('/report.html') ? route.continue() : route.abort(),
      );
      await page.goto(pathToFileURL(join(folder, 'report.html')).href);
      expect(await page.locator('#failures article.failure').count()).toBe(
        report.results.filter((r) => r.verdict === 'fail' || r.verdict === 'warn').length,
      );
      expect(await page.locator('#fail-CASE-DELETE-REMOVES pre.curl').first().isVisible()).toBe(true);
      // Without the script no filter applies: every row shows.
      expect(await visible(page, 'tbody.req')).toBe(report.results.length);
      await page.screenshot({ path: join(tmp, 'no-javascript.png'), fullPage: false });
    } finally {
      await off.close();
    }
  });

  it('shows hostile server text as text: no script runs, no markup is added, nothing is fetched', async () => {
    const hostile = join(tmp, 'hostile');
    cpSync(folder, hostile, { recursive: true });
    const probe = 'http://127.0.0.1:9/probe.png';
    const payloads = [
      `<script>window.__pwned = 1</script>`,
      `</pre></details></td></tr></tbody></table><img src="${probe}" onerror="window.__pwned = 2">`,
      `"><svg onload="window.__pwned = 3"></svg>`,
      `<style>body{display:none}</style><link rel="stylesheet" href="${probe}">`,
    ];
    const evil = payloads.join(' ');
    const json = JSON.parse(readFileSync(join(hostile, 'conformance.json'), 'utf8')) as ConformanceReport;
    const r = json.results.find((x) => x.id === 'CASE-DELETE-REMOVES')!;
    const failure = r.failures![0]!;
    failure.message = `${evil}\n${failure.message}`;
    failure.what = evil;
    failure.test = evil;
    const exchange = failure.evidence!.exchanges.at(-1)!;
    exchange.response!.body = evil;
    exchange.response!.headers['x-evil'] = evil;
    failure.evidence!.curl[failure.evidence!.curl.length - 1] = `curl ${evil}`;
    const observed = json.results.find((x) => x.observations?.length)!;
    observed.observations = [evil];
    observed.observationEvidence = [{ test: evil, text: evil }];
    json.target.serverHeaders = { Server: [evil] };
    json.run.options = { ...json.run.options, note: evil };
    r.reason = evil;
    writeFileSync(join(hostile, 'conformance.json'), JSON.stringify(json, null, 2));
    const rendered = await screenconf(['report', hostile]);
    expect(rendered.status, rendered.stderr).toBe(0);

    const page = await open(join(hostile, 'report.html'));
    await page.locator('#req-CASE-DELETE-REMOVES details.evidence > summary').click();
    await page.screenshot({ path: join(tmp, 'hostile.png'), fullPage: true });
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    // The markup is not there: one script (the page's own), no img, no link, no extra svg, no style but the page's.
    expect(await page.locator('script').count()).toBe(1);
    expect(await page.locator('img, link, iframe, object, embed').count()).toBe(0);
    expect(await page.locator('svg').count()).toBe(1);
    expect(await page.locator('style').count()).toBe(1);
    // The text is there, as text, where it was put.
    expect(await page.locator('#req-CASE-DELETE-REMOVES dl.fields dd').first().textContent()).toBe(evil);
    expect(await page.locator('#fail-CASE-DELETE-REMOVES h4').first().textContent()).toContain(evil);
    expect(await page.locator('#req-CASE-DELETE-REMOVES .exchange.judged').first().textContent()).toContain(
      `x-evil: ${evil}`,
    );
    expect(await page.locator('#req-CASE-DELETE-REMOVES p.reason').textContent()).toBe(evil);
    expect(await page.locator('#run table.kv tr:has(th:text-is("Server headers")) td').textContent()).toBe(
      `Server: ${evil.slice(0, 120)}… (${evil.length} characters)${evil}`,
    );
    expect(await page.locator('body').isVisible()).toBe(true);
    expect(attempted).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await page.close();
  });
});
