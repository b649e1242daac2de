/**
 * report.html in a real browser: Debian's chromium, headless, driven by playwright-core. The
 * page comes from a real run (a fault, so there is a failure with evidence); every network
 * request of the page is blocked and recorded, and none may be attempted. A second page is
 * rendered from a conformance.json holding hostile server text: it must show as text, run no
 * script and fetch nothing. Screenshots go to the test's temporary folder.
 */
import { existsSync, readFileSync, statSync, writeFileSync, cpSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../src/results/report.ts';
import { runFolder, screenconf, tempDir } from './support/cli.ts';

const CHROMIUM = '/usr/bin/chromium';
const tmp = tempDir('screenconf-browser-');
let folder: string;
let report: ConformanceReport;
let context: BrowserContext;
/** Every request the pages tried to make, by URL, other than the report file itself. */
const attempted: string[] = [];
const consoleErrors: string[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run installs it)`);
  const dir = join(tmp, 'reports');
  const run = await screenconf([
    'run',
    '--report-dir',
    dir,
    '--suites',
    'token,case-delete',
    '--reference-faults',
    'delete.noop',
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
}, 120_000);

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

describe('report.html in chromium', () => {
  it('shows the verdict, the chart by area and every requirement; filters hide passing rows; evidence expands in ' +
    'place', async () => {
    const page = await open(join(folder, 'report.html'));
    await expect.poll(() => page.locator('#verdict h1').textContent()).toBe('NOT CONFORMING');
    expect(await page.locator('#verdict p').first().textContent()).toMatch(/^1 MUST failed, /);
    const shot = join(tmp, 'report.png');
    await page.screenshot({ path: shot, fullPage: true });
    expect(statSync(shot).size).toBeGreaterThan(10_000);

    // The chart: one bar per area that has requirements.
    const areas = new Set(report.results.map((r) => r.area));
    expect(await page.locator('#area-chart g.bar').count()).toBe(areas.size);

    // The table: every requirement, with its statement and source.
    expect(await page.locator('tbody.req').count()).toBe(report.results.length);
    const removes = page.locator('#req-CASE-DELETE-REMOVES');
    expect(await removes.locator('p.statement').textContent()).toBe(
      report.results.find((r) => r.id === 'CASE-DELETE-REMOVES')!.statement,
    );
    expect(await removes.locator('p.source').textContent()).toMatch(/^Source: interface § Endpoints › DELETE/);
    const passing = report.results.filter((r) => r.verdict === 'pass').length;
    expect(passing).toBeGreaterThan(5);
    expect(await visible(page, 'tbody.req[data-verdict="pass"]')).toBe(passing);

    // Failures only: the passing rows go, the failure stays.
    await page.locator('#f-failures').check();
    expect(await visible(page, 'tbody.req[data-verdict="pass"]')).toBe(0);
    expect(await removes.isVisible()).toBe(true);
    const failing = report.results.filter((r) => r.verdict === 'fail' || r.verdict === 'warn').length;
    expect(await visible(page, 'tbody.req')).toBe(failing);
    expect(await page.locator('#shown').textContent()).toBe(`showing ${failing} of ${report.results.length}`);
    await page.screenshot({ path: join(tmp, 'failures-only.png'), fullPage: true });

    // Evidence, closed at first, opens in place: the transcript and the curl reproduction.
    const details = removes.locator('details.evidence');
    expect(await details.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    expect(await removes.locator('pre.curl').first().isVisible()).toBe(false);
    await details.locator('summary').click();
    expect(await details.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    expect(await removes.locator('pre.curl').last().isVisible()).toBe(true);
    expect(await removes.locator('pre.curl').last().textContent()).toMatch(
      /^curl -sS -i -X PATCH "\$SCREENCONF_BASE_URL"/,
    );
    expect(await removes.locator('pre.exchange').last().textContent()).toMatch(
      /^PATCH http:\/\/127\.0\.0\.1:\d+\/api\/cases\/\d+\/\n/,
    );
    await page.screenshot({ path: join(tmp, 'evidence.png'), fullPage: true });

    // By level and by area (a click on the chart's bar sets the area).
    await page.locator('#f-failures').uncheck();
    await page.locator('#f-level').selectOption('OBSERVE');
    const observe = report.results.filter((r) => r.level === 'OBSERVE').length;
    expect(await visible(page, 'tbody.req')).toBe(observe);
    expect(await visible(page, 'tbody.req:not([data-level="OBSERVE"])')).toBe(0);
    await page.locator('#f-level').selectOption('');
    await page.locator('#area-chart g.bar[data-area="token"]').click();
    expect(await page.locator('#f-area').inputValue()).toBe('token');
    expect(await visible(page, 'tbody.req')).toBe(report.results.filter((r) => r.area === 'token').length);
    expect(await visible(page, 'tbody.req:not([data-area="token"])')).toBe(0);

    expect(attempted).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await page.close();
  }, 60_000);

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
    await page.locator('#req-CASE-DELETE-REMOVES details.evidence summary').click();
    await page.screenshot({ path: join(tmp, 'hostile.png'), fullPage: true });
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    // The markup is not there: one script (the page's own), no img, no link, no extra svg, no style but the page's.
    expect(await page.locator('script').count()).toBe(1);
    expect(await page.locator('img, link, iframe, object, embed').count()).toBe(0);
    expect(await page.locator('svg').count()).toBe(1);
    expect(await page.locator('style').count()).toBe(1);
    // The text is there, as text, where it was put.
    expect(await page.locator('#req-CASE-DELETE-REMOVES pre.message').first().textContent()).toContain(evil);
    expect(await page.locator('#req-CASE-DELETE-REMOVES pre.exchange').last().textContent()).toContain(
      `x-evil: ${evil}`,
    );
    expect(await page.locator('#req-CASE-DELETE-REMOVES p.reason').textContent()).toBe(evil);
    expect(await page.locator('#run dd').nth(1).textContent()).toBe(`Server: ${evil}`);
    expect(await page.locator('body').isVisible()).toBe(true);
    expect(attempted).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await page.close();
  }, 60_000);
});
