/** The transport's safety toward the target, against real local listeners: load bounds, 429, timeouts, caps. */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TokenSource } from '../src/client/auth.ts';
import { Limiter } from '../src/client/limiter.ts';
import { Redactor } from '../src/base/redact.ts';
import { retryAfterMs, Transport, type TransportOptions } from '../src/client/transport.ts';
import { HarnessError, TransportError } from '../src/errors.ts';
import { loadLimits } from '../src/runner/settings.ts';
import { tempDir } from './support/cli.ts';
import { closedAfterEach } from './support/listeners.ts';

const track = closedAfterEach();

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => handler(req, res));
  });
  track(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function transport(options: Partial<TransportOptions> = {}) {
  return new Transport({ timeoutMs: 2000, maxResponseBytes: 1024, ...options }, new Redactor());
}

const get = (t: Transport, url: string) => t.send({ method: 'GET', url, headers: {} });

describe('load bounds', () => {
  it('keeps at most `concurrency` requests in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const url = await listen((_req, res) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        res.end('{}');
      }, 30);
    });
    const t = transport({ concurrency: 3 });
    await Promise.all(Array.from({ length: 12 }, () => get(t, url)));
    expect(most).toBe(3);
  });

  it('starts at most `maxRps` requests per second (a bucket of one second)', async () => {
    const starts: number[] = [];
    const url = await listen((_req, res) => {
      starts.push(Date.now());
      res.end('{}');
    });
    const t = transport({ maxRps: 10 });
    const began = Date.now();
    await Promise.all(Array.from({ length: 15 }, () => get(t, url)));
    // 10 at once (the bucket), then 5 more at 10 per second: about 0.5 s. Only bounds that a
    // loaded machine cannot break: load makes a run slower and its first burst smaller, never
    // faster or larger (an unbounded transport sends all 15 at once and fails both).
    expect(Date.now() - began).toBeGreaterThanOrEqual(400);
    expect(starts.filter((s) => s - began < 60).length).toBeLessThanOrEqual(10);
  });

  it('Limiter counts slots exactly when requests fail', async () => {
    const limiter = new Limiter({ concurrency: 1, maxRps: 0 });
    const a = await limiter.acquire();
    let second = false;
    const b = limiter.acquire().then((release) => {
      second = true;
      return release;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(second).toBe(false);
    a();
    a(); // a double release frees nothing more
    (await b)();
    expect(second).toBe(true);
  });

  it('Limiter gives a slot at once only when nothing bounds or pauses requests', async () => {
    let now = 1000;
    const free = new Limiter({ concurrency: 0, maxRps: 0 }, () => now);
    expect(free.acquireNow()).toBeTypeOf('function');
    free.pause(50);
    expect(free.acquireNow()).toBeUndefined();
    now += 50;
    expect(free.acquireNow()).toBeTypeOf('function');
    expect(new Limiter({ concurrency: 1, maxRps: 0 }).acquireNow()).toBeUndefined();
    expect(new Limiter({ concurrency: 0, maxRps: 5 }).acquireNow()).toBeUndefined();
  });

  it('Limiter stops pacing the requests that wait once the run is stopping', async () => {
    // One request per 1,000 s: without the stop, the second and later would wait for minutes.
    const limiter = new Limiter({ concurrency: 0, maxRps: 0.001 });
    let stopping = false;
    (await limiter.acquire(() => stopping))();
    const waiting = Array.from({ length: 5 }, () => limiter.acquire(() => stopping));
    stopping = true;
    for (const release of await Promise.all(waiting)) release();
    const paused = new Limiter({ concurrency: 0, maxRps: 0 });
    paused.pause(1_000_000);
    (await paused.acquire(() => true))();
  });

  it('divides the run bounds between the worker processes', () => {
    expect(loadLimits({ concurrency: undefined, maxRps: undefined }, 'url')).toMatchObject({
      concurrency: 4,
      maxRps: 20,
      workers: 2,
      perWorker: { concurrency: 2, maxRps: 10 },
    });
    expect(loadLimits({ concurrency: 1, maxRps: 5 }, 'url')).toMatchObject({
      workers: 1,
      perWorker: { concurrency: 1, maxRps: 5 },
    });
    expect(loadLimits({ concurrency: 5, maxRps: 0 }, 'url')).toMatchObject({
      workers: 2,
      perWorker: { concurrency: 2, maxRps: 0 },
    });
    expect(loadLimits({ concurrency: undefined, maxRps: undefined }, 'embedded')).toMatchObject({
      concurrency: 0,
      maxRps: 0,
      workers: 2,
    });
  });
});

describe('429 Too Many Requests', () => {
  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(retryAfterMs('3', now)).toBe(3000);
    expect(retryAfterMs('Wed, 01 Jan 2025 00:00:02 GMT', now)).toBe(2000);
    expect(retryAfterMs('Tue, 31 Dec 2024 00:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });

  it('retries after Retry-After, counts the 429s and logs each', async () => {
    let calls = 0;
    const url = await listen((_req, res) => {
      calls += 1;
      if (calls <= 2) {
        res.writeHead(429, { 'retry-after': calls === 1 ? '1' : new Date(Date.now() + 1000).toUTCString() });
        res.end();
      } else res.end('{"ok":true}');
    });
    const log = join(tempDir(), 'throttled.jsonl');
    const t = transport({ throttleLog: log });
    const began = Date.now();
    const res = await get(t, url);
    expect(res.status).toBe(200);
    expect(t.throttled).toBe(2);
    expect(Date.now() - began).toBeGreaterThanOrEqual(1000); // the date form rounds down to whole seconds
    const lines = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ method: 'GET', retryAfter: '1', retried: true });
  });

  it('gives up with SC_TARGET_THROTTLED after the retry budget, in bounded time', async () => {
    const url = await listen((_req, res) => {
      res.writeHead(429, { 'retry-after': '0' });
      res.end();
    });
    const t = transport({ retry429: { maxRetries: 3, maxWaitMs: 30_000 } });
    const err = await get(t, url).catch((e) => e);
    expect(err).toBeInstanceOf(HarnessError);
    expect(err.code).toBe('SC_TARGET_THROTTLED');
    expect(t.throttled).toBe(4);
  });

  it('gives cleanup a larger budget: what it cannot delete stays on the target', async () => {
    let calls = 0;
    const url = await listen((_req, res) => {
      calls += 1;
      if (calls <= 6) {
        res.writeHead(429, { 'retry-after': '0' });
        res.end();
      } else res.end('{"ok":true}');
    });
    const t = transport({ retry429: { maxRetries: 3, maxWaitMs: 30_000 } });
    const res = await t.send({ method: 'DELETE', url, headers: {}, credential: 'none', cleanup: true });
    expect(res.status).toBe(200);
    expect(t.throttled).toBe(6);
  });

  it("gives a token request the ordinary budget, and teardown's token request the cleanup one", async () => {
    let calls = 0;
    const url = await listen((_req, res) => {
      calls += 1;
      res.writeHead(429, { 'retry-after': '0' });
      res.end();
    });
    const t = transport({ retry429: { maxRetries: 3, maxWaitMs: 30_000 } });
    const credentials = { clientId: 'c', clientSecret: 's' };
    // Before anything was created (the run's first token): nothing to clean up, so no reason to wait longer.
    const err = await new TokenSource(url, credentials, t).get().catch((e) => e);
    expect(err.code).toBe('SC_TARGET_THROTTLED');
    expect(calls).toBe(4);
    calls = 0;
    const teardown = await new TokenSource(url, credentials, t).get({ cleanup: true }).catch((e) => e);
    expect(teardown.code).toBe('SC_TARGET_THROTTLED');
    expect(calls).toBe(16);
  });

  it('does not wait longer than the budget when Retry-After asks too much', async () => {
    const url = await listen((_req, res) => {
      res.writeHead(429, { 'retry-after': '3600' });
      res.end();
    });
    const err = await get(transport(), url).catch((e) => e);
    expect(err.code).toBe('SC_TARGET_THROTTLED');
    expect(err.message).toMatch(/asked to wait 3600 s more, beyond the 30 s budget/);
  });
});

describe('an exchange that gets no complete answer', () => {
  // Whether a request that got no answer was the target's answer or a target gone: test/liveness.test.ts.
  it('times out a body that trickles forever (the timeout covers the whole exchange)', async () => {
    const url = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => res.write(' '), 20);
      res.on('close', () => clearInterval(timer));
    });
    // The exchange alone: no liveness read after it (test/liveness.test.ts).
    const t = transport({ timeoutMs: 300, maxResponseBytes: 1_000_000, liveness: false });
    const err = await get(t, url).catch((e) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect(err.code).toBe('SC_TARGET_TIMEOUT');
  });

  it('times each exchange from its own start, while others start and end around it', async () => {
    const url = await listen((req, res) => {
      if (req.url === '/fast') res.end('{}'); // anything else never answers
    });
    const t = transport({ timeoutMs: 300, liveness: false });
    const hang = async () => {
      const began = performance.now();
      const err = await get(t, `${url}/hang`).catch((e) => e);
      return { code: err.code, ms: performance.now() - began };
    };
    const first = hang();
    await new Promise((r) => setTimeout(r, 100));
    const second = hang();
    for (let i = 0; i < 20; i++) expect((await get(t, `${url}/fast`)).status).toBe(200);
    for (const r of await Promise.all([first, second])) {
      expect(r.code).toBe('SC_TARGET_TIMEOUT');
      // Never early; late only by what a loaded machine's timers are late.
      expect(r.ms).toBeGreaterThanOrEqual(299);
      expect(r.ms).toBeLessThan(3000);
    }
    // A fast exchange after them is not aborted by a deadline of theirs.
    expect((await get(t, `${url}/fast`)).status).toBe(200);
  });

  it('refuses a body whose Content-Length is over the cap without reading it', async () => {
    const url = await listen((_req, res) => {
      res.writeHead(200, { 'content-length': String(50 * 1024 * 1024) });
      res.write('x');
    });
    const err = await get(transport({ maxResponseBytes: 4096 }), url).catch((e) => e);
    expect(err.code).toBe('SC_TARGET_TOO_LARGE');
    expect(err.message).toMatch(/52428800 bytes \(Content-Length\), over the 4096-byte cap/);
  });

  it('marks a refused connection as never sent', async () => {
    const err = await get(transport(), 'http://127.0.0.1:1/').catch((e) => e);
    expect(err.notSent).toBe(true);
  });
});
