// The webhook receiver on a real listener, driven with real HTTP requests (global fetch).
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createWebhookReceiver,
  WebhookReceiverClosedError,
  WebhookTimeoutError,
  type WebhookReceiver,
  type WebhookReceiverOptions,
} from '../src/webhooks/index.ts';

const open: WebhookReceiver[] = [];

async function receiver(options?: WebhookReceiverOptions): Promise<WebhookReceiver> {
  const r = await createWebhookReceiver(options);
  open.push(r);
  return r;
}

afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(open.splice(0).map((r) => r.close()));
});

async function post(url: string, body = '{}', headers: Record<string, string> = {}): Promise<number> {
  const res = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  await res.arrayBuffer();
  return res.status;
}

/** The local URL for a path, whatever publicUrl the receiver advertises. */
function local(r: WebhookReceiver, path: string): string {
  return `http://127.0.0.1:${r.port}${path}`;
}

/** Runs `start` (synchronous) and returns what it returned with the timers it set. */
function withTimers<T>(start: () => T): { result: T; timers: unknown[] } {
  const spy = vi.spyOn(globalThis, 'setTimeout');
  try {
    const result = start();
    return { result, timers: spy.mock.results.map((r) => r.value as unknown) };
  } finally {
    spy.mockRestore();
  }
}

/** Timers passed to clearTimeout since the spy was made. */
function clearedTimers(): () => unknown[] {
  const spy = vi.spyOn(globalThis, 'clearTimeout');
  return () => spy.mock.calls.map((call) => call[0] as unknown);
}

describe('attribution', () => {
  it('records each delivery on the endpoint whose URL it hit', async () => {
    const r = await receiver();
    const a = r.endpoint('case 1');
    const b = r.endpoint('case 2');
    expect(a.path).toMatch(/^\/hooks\/[A-Za-z0-9_-]{22}$/);
    expect(a.url).toBe(`${r.url}${a.path}`);
    expect(a.url).not.toBe(b.url);

    const before = Date.now();
    expect(await post(a.url, '{"n":1}', { 'X-Signature': 'sig-1' })).toBe(204);
    expect(await post(b.url, '{"n":2}')).toBe(204);
    expect(await post(a.url, '{"n":3}')).toBe(204);

    expect(a.deliveries().map((d) => d.json)).toEqual([{ n: 1 }, { n: 3 }]);
    expect(b.deliveries().map((d) => d.json)).toEqual([{ n: 2 }]);
    const [first] = a.deliveries();
    expect(first).toMatchObject({
      method: 'POST',
      path: a.path,
      label: 'case 1',
      status: 204,
      truncated: false,
      body: '{"n":1}',
    });
    expect(first?.headers['x-signature']).toBe('sig-1');
    expect(first?.headers['content-type']).toBe('application/json');
    expect(first?.receivedAt).toBeGreaterThanOrEqual(before);
    expect(first?.receivedAtIso).toBe(new Date(first?.receivedAt ?? 0).toISOString());
    expect(r.strays()).toEqual([]);
  });

  it('attributes a request with a query string to its endpoint, keeping the query in path', async () => {
    const r = await receiver();
    const a = r.endpoint();
    expect(await post(`${a.url}?attempt=2`)).toBe(204);
    expect(a.deliveries().map((d) => d.path)).toEqual([`${a.path}?attempt=2`]);
  });
});

describe('strays', () => {
  it('answers 404 to unknown and forged paths and records them apart', async () => {
    const r = await receiver();
    const a = r.endpoint('case 1');
    const token = a.path.slice('/hooks/'.length);
    const forged = `/hooks/${token.startsWith('A') ? 'B' : 'A'}${token.slice(1)}`;
    const paths = ['/', '/hooks/', '/hooks/guessed', forged, `${a.path}/extra`, `${a.path.toUpperCase()}`];

    for (const path of paths) expect(await post(local(r, path), '{"forged":true}')).toBe(404);

    expect(a.deliveries()).toEqual([]);
    expect(r.strays().map((d) => d.path)).toEqual(paths);
    expect(r.strays().every((d) => d.status === 404 && d.label === undefined)).toBe(true);
    expect(r.strays()[0]?.json).toEqual({ forged: true });
  });
});

describe('body cap', () => {
  it('answers 413 past the cap, keeps the first bytes flagged truncated, and stays healthy', async () => {
    const r = await receiver({ maxBodyBytes: 1024 });
    const a = r.endpoint();

    expect(await post(a.url, 'x'.repeat(1024))).toBe(204);
    expect(await post(a.url, 'y'.repeat(64 * 1024))).toBe(413);
    expect(await post(a.url, '{"ok":true}')).toBe(204);

    const [exact, over, after] = a.deliveries();
    expect(exact).toMatchObject({ truncated: false, status: 204 });
    expect(exact?.body).toHaveLength(1024);
    expect(over).toMatchObject({ truncated: true, status: 413, json: undefined });
    expect(over?.body).toBe('y'.repeat(1024));
    expect(after).toMatchObject({ truncated: false, status: 204, json: { ok: true } });
  });
});

describe('JSON bodies', () => {
  it('parses valid JSON and records invalid or empty bodies with json undefined', async () => {
    const r = await receiver();
    const a = r.endpoint();
    await post(a.url, '{"id":"c-1","checks":[{"outcome":"CLEAR"}]}');
    await post(a.url, '{"id":');
    await post(a.url, '');

    const [valid, invalid, empty] = a.deliveries();
    expect(valid?.json).toEqual({ id: 'c-1', checks: [{ outcome: 'CLEAR' }] });
    expect(invalid).toMatchObject({ body: '{"id":', json: undefined, status: 204 });
    expect(empty).toMatchObject({ body: '', json: undefined });
  });
});

describe('waitForDelivery', () => {
  it('resolves at once for a delivery that arrived before the call', async () => {
    const r = await receiver();
    const a = r.endpoint();
    await post(a.url, '{"early":true}');
    const got = await a.waitForDelivery({ timeoutMs: 1000 });
    expect(got.map((d) => d.json)).toEqual([{ early: true }]);
  });

  it('resolves when the count is reached by later deliveries, and leaves no timer', async () => {
    const r = await receiver();
    const a = r.endpoint();
    await post(a.url, '{"n":1}');
    const cleared = clearedTimers();
    const { result: waiting, timers } = withTimers(() => a.waitForDelivery({ timeoutMs: 60_000, count: 2 }));
    expect(timers).toHaveLength(1);
    await post(a.url, '{"n":2}');
    expect((await waiting).map((d) => d.json)).toEqual([{ n: 1 }, { n: 2 }]);
    expect(cleared()).toContain(timers[0]);
  });

  it('rejects at the deadline with an error naming the URL, the label and the count', async () => {
    const r = await receiver();
    const a = r.endpoint('case 42');
    const error = await a.waitForDelivery({ timeoutMs: 200 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookTimeoutError);
    expect(error).toMatchObject({ name: 'WebhookTimeoutError', code: 'SC_WEBHOOK_TIMEOUT', arrived: 0, expected: 1 });
    expect((error as Error).message).toBe(`no webhook delivery to ${a.url} (case 42) within 200 ms (0 of 1 arrived)`);

    await post(a.url);
    const partial = await a.waitForDelivery({ timeoutMs: 100, count: 2 }).catch((e: unknown) => e);
    expect((partial as Error).message).toContain(`to ${a.url} (case 42) within 100 ms (1 of 2 arrived)`);
  });

  it('deliveriesWithin waits the whole window and returns what arrived, even nothing', async () => {
    const r = await receiver();
    const quiet = r.endpoint();
    const busy = r.endpoint();
    const started = Date.now();
    // The window is the timeout under test; long enough that two loopback posts land in it on a busy machine.
    const [none, some] = await Promise.all([
      quiet.deliveriesWithin(3000),
      busy.deliveriesWithin(3000),
      post(busy.url).then(() => post(busy.url)),
    ]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2990);
    expect(none).toEqual([]);
    expect(some).toHaveLength(2);
  });
});

describe('chosen statuses', () => {
  it('respondWith([500]) answers 500 to the next delivery only, then 204', async () => {
    const r = await receiver();
    const a = r.endpoint();
    const b = r.endpoint();
    a.respondWith([500]);
    expect(await post(b.url)).toBe(204);
    expect(await post(a.url)).toBe(500);
    expect(await post(a.url)).toBe(204);
    expect(a.deliveries().map((d) => d.status)).toEqual([500, 204]);
  });

  it('queues several statuses ahead of the responder, and rejects invalid ones', async () => {
    const r = await receiver({ responder: () => ({ status: 202 }) });
    const a = r.endpoint();
    a.respondWith([503, 429]);
    expect([await post(a.url), await post(a.url), await post(a.url)]).toEqual([503, 429, 202]);
    expect(() => a.respondWith([99])).toThrow(RangeError);
  });

  it('answers any 2xx it is told to, with an empty body', async () => {
    const r = await receiver();
    const a = r.endpoint();
    a.respondWith([200, 201, 202, 204]);
    const answers: [number, string][] = [];
    for (let i = 0; i < 4; i++) {
      const res = await fetch(a.url, { method: 'POST', body: '{}' });
      answers.push([res.status, await res.text()]);
    }
    expect(answers).toEqual([
      [200, ''],
      [201, ''],
      [202, ''],
      [204, ''],
    ]);
    expect(a.deliveries().map((d) => d.status)).toEqual([200, 201, 202, 204]);
  });

  it('answers 500 when the responder throws, and still records the delivery', async () => {
    const r = await receiver({
      responder: () => {
        throw new Error('boom');
      },
    });
    const a = r.endpoint();
    expect(await post(a.url)).toBe(500);
    expect(a.deliveries()).toHaveLength(1);
  });
});

describe('held answers', () => {
  it('records a held delivery at arrival and answers it, with its chosen status, only when released', async () => {
    const r = await receiver();
    const a = r.endpoint();
    const b = r.endpoint();
    a.respondWith([202]);
    const release = a.hold();
    let answered: number | undefined;
    const sent = post(a.url, '{"n":1}').then((status) => {
      answered = status;
      return status;
    });
    const [arrived] = await a.waitForDelivery({ timeoutMs: 10_000 });
    expect(arrived).toMatchObject({ json: { n: 1 }, status: 202 });
    // Another endpoint is answered while a's answer is held.
    expect(await post(b.url)).toBe(204);
    expect(answered).toBeUndefined();
    release();
    expect(await sent).toBe(202);
    expect(a.deliveries()[0]!.dropped).toBeUndefined();
    // Released: later deliveries are answered at once.
    expect(await post(a.url)).toBe(204);
    release(); // a second release changes nothing
  });

  it('marks a held delivery whose sender gave up before the release as dropped', async () => {
    const r = await receiver();
    const a = r.endpoint();
    const release = a.hold();
    const sent = fetch(a.url, { method: 'POST', body: '{}', signal: AbortSignal.timeout(200) }).catch(
      (e: unknown) => e,
    );
    await a.waitForDelivery({ timeoutMs: 10_000 });
    expect(await sent).toBeInstanceOf(Error); // the sender's own timeout
    await expect.poll(() => a.deliveries()[0]?.dropped).toBe(true);
    release(); // answering a sender that is gone is a no-op
    expect(a.deliveries()).toHaveLength(1);
  });

  it('drops held connections unanswered when the receiver closes', async () => {
    const r = await createWebhookReceiver();
    const a = r.endpoint();
    const release = a.hold();
    const sent = post(a.url).catch((e: unknown) => e);
    await a.waitForDelivery({ timeoutMs: 10_000 });
    await r.close();
    expect(await sent).toBeInstanceOf(Error);
    release(); // answering after the close is a no-op, not a crash
  });
});

describe('publicUrl', () => {
  it('builds endpoint URLs on publicUrl and attributes requests with or without its path', async () => {
    const r = await receiver({ publicUrl: 'https://hooks.example.test/ci/' });
    const a = r.endpoint();
    expect(r.url).toBe('https://hooks.example.test/ci');
    expect(a.url).toBe(`https://hooks.example.test/ci${a.path}`);
    expect(await post(local(r, `/ci${a.path}`))).toBe(204);
    expect(await post(local(r, a.path))).toBe(204);
    expect(a.deliveries()).toHaveLength(2);
  });

  it.each([
    'not a url',
    '/relative/path',
    'ftp://hooks.example.test',
    'localhost:8080',
    'https://user:s3cret@hooks.example.test',
    'https://hooks.example.test/?q=1',
    'https://hooks.example.test/#frag',
  ])('rejects %s', async (publicUrl) => {
    const error = await createWebhookReceiver({ publicUrl }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'HarnessError', code: 'SC_CONFIG' });
    expect((error as Error).message).not.toContain('s3cret');
  });
});

describe('close', () => {
  it('rejects pending waits, drops keep-alive connections and frees the port', async () => {
    const r = await createWebhookReceiver();
    const a = r.endpoint('case 7');
    expect(await post(a.url)).toBe(204); // leaves a keep-alive connection open
    const cleared = clearedTimers();
    const { result: pending, timers } = withTimers(() => [
      a.waitForDelivery({ timeoutMs: 60_000, count: 2 }).catch((e: unknown) => e),
      a.deliveriesWithin(60_000).catch((e: unknown) => e),
    ]);
    const [waiting, window] = pending;

    await r.close();
    await r.close(); // idempotent

    const error = await waiting;
    expect(error).toBeInstanceOf(WebhookReceiverClosedError);
    expect(error).toMatchObject({ code: 'SC_WEBHOOK_CLOSED' });
    expect((error as Error).message).toContain(`${a.url} (case 7)`);
    expect(await window).toBeInstanceOf(WebhookReceiverClosedError);
    expect(timers).toHaveLength(2);
    expect(cleared()).toEqual(expect.arrayContaining(timers));

    // satisfied waits still resolve; unsatisfied ones reject at once; no new endpoints
    await expect(a.waitForDelivery({ timeoutMs: 1000 })).resolves.toHaveLength(1);
    await expect(a.waitForDelivery({ timeoutMs: 1000, count: 2 })).rejects.toBeInstanceOf(WebhookReceiverClosedError);
    expect(() => r.endpoint()).toThrow(/closed/);

    await expect(fetch(a.url, { method: 'POST' })).rejects.toThrow();
    const again = await receiver({ port: r.port });
    expect(again.port).toBe(r.port);
  });
});
