/**
 * A request that gets no answer (its connection closed or reset, nothing within the timeout, a refused connection):
 * one liveness read decides whether that was the target's answer to it (the target answers the read: the request's
 * check fails on it, and the run goes on) or the target is gone (it answers no read: nothing more is sent, and the run
 * ends INCOMPLETE). Real local listeners; the waits between the reads of a target that may be restarting are the
 * test's own (a restart happens during the first), so no test races the clock; timeouts are short only where they are
 * the subject.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Redactor } from '../src/base/redact.ts';
import { RESTART_WAITS_MS } from '../src/client/liveness.ts';
import { exchangeOfNoAnswer, Transport, type TransportOptions } from '../src/client/transport.ts';
import { TransportError } from '../src/errors.ts';
import { noAnswerFailure } from '../src/kit/no-answer.ts';
import type { Exchange } from '../src/results/exchange.ts';
import { tempDir } from './support/cli.ts';
import { closedAfterEach } from './support/listeners.ts';

const track = closedAfterEach();

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function listen(handler: Handler, port = 0): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => handler(req, res));
  });
  track(server);
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** A server that stops: its listener closed and its connections dropped (what a process that exits leaves). */
function stop(server: Server): Promise<void> {
  return new Promise((r) => {
    server.closeAllConnections();
    server.close(() => r());
  });
}

/** A transport whose record is `log`; the waits between liveness reads are `wait` (none: at once). */
function transport(
  options: Partial<TransportOptions> = {},
  log: Exchange[] = [],
  wait: (ms: number) => Promise<void> = async () => {},
) {
  return new Transport(
    { timeoutMs: 2000, maxResponseBytes: 4096, ...options },
    new Redactor(),
    (e) => log.push(e),
    wait,
  );
}

const get = (t: Transport, url: string) => t.send({ method: 'GET', url, headers: {} });
/** A GET with a credential: the servers below answer one without at once (401), as ordinary servers do. */
const read = (t: Transport, url: string) => t.send({ method: 'GET', url, headers: { authorization: 'Bearer t' } });
const post = (t: Transport, url: string) =>
  t.send({ method: 'POST', url, headers: { 'content-type': 'application/json' }, body: '{"items":[]}' });

/** Answers 200, but drops a POST to /drop as `how` says. */
const dropping =
  (how: 'close' | 'reset'): Handler =>
  (req, res) => {
    if (req.method === 'POST' && req.url === '/drop') {
      if (how === 'reset') res.socket?.resetAndDestroy();
      else res.socket?.destroy();
      return;
    }
    res.writeHead(req.method === 'GET' && req.url === '/drop' ? 401 : 200, { 'content-type': 'application/json' });
    res.end('{}');
  };

describe('a request the target answers with no answer, while it answers others', () => {
  for (const how of ['close', 'reset'] as const) {
    const ended = how === 'close' ? 'closed' : 'reset';
    it(`is the target's answer (connection ${ended}): shown as such, and sending goes on`, async () => {
      const { url } = await listen(dropping(how));
      const log: Exchange[] = [];
      const t = transport({}, log);
      const err = await post(t, `${url}/drop`).catch((e) => e);
      expect(err).toBeInstanceOf(TransportError);
      expect(err.code).toBe('SC_TARGET_DROPPED');
      expect(err.inCheck).toBe('fails');
      expect(err.message).toMatch(how === 'close' ? /closed the connection/ : /reset the connection/);
      // The exchange with no answer, then the liveness read that showed the target there: GET, no credential.
      expect(log.map((e) => [e.request.method, e.request.url, e.response?.status])).toEqual([
        ['POST', `${url}/drop`, undefined],
        ['GET', `${url}/drop`, 401],
      ]);
      expect(log[1]!.request.credential).toBe('none');
      expect(log[1]!.request.body).toBeUndefined();
      expect(log[0]!.error).toMatch(
        /answered a liveness read right after it \(GET \/drop with no credential: HTTP 401\)/,
      );
      expect(exchangeOfNoAnswer(err)).toBe(log[0]);
      // A check judges it as an answer: the exchange judged, a status a reproduction expects.
      const failure = noAnswerFailure(err)!;
      expect(failure.judged).toEqual([log[0]]);
      expect(failure.detail.request).toMatchObject({ method: 'POST', path: '/drop' });
      expect(failure.detail.received).toMatch(/^no answer: /);
      expect(failure.detail.expect).toEqual({ status: ['2xx', '4xx'] });
      // Not a target gone: the next requests are sent.
      for (let i = 0; i < 3; i++) expect((await get(t, `${url}/other`)).status).toBe(200);
      expect((await post(t, `${url}/drop`).catch((e) => e)).code).toBe('SC_TARGET_DROPPED');
    });
  }

  it('times out while the liveness read is answered: its answer, until three in a row stop the sending', async () => {
    // The timeout is the subject: short.
    let seen = 0;
    const { url } = await listen((req, res) => {
      if (req.headers.authorization) return void (seen += 1);
      res.writeHead(401);
      res.end();
    });
    const t = transport({ timeoutMs: 150 });
    for (let i = 0; i < 3; i++) {
      const err = await read(t, `${url}/slow`).catch((e) => e);
      expect(err.code).toBe('SC_TARGET_TIMEOUT');
      expect(exchangeOfNoAnswer(err)?.error).toMatch(/within 150 ms; the target answered a liveness read/);
    }
    // A target that answers only the liveness reads would hold every request for the whole timeout: no more is sent.
    const err = await read(t, `${url}/slow`).catch((e) => e);
    expect(err).toMatchObject({ code: 'SC_TARGET_UNREACHABLE', notSent: true });
    expect(err.message).toMatch(/3 requests in a row got no answer within 150 ms/);
    expect(seen).toBe(3);
  });

  it('is not counted toward that bound when answers come between', async () => {
    const { url } = await listen((req, res) => {
      if (req.url === '/slow' && req.headers.authorization) return;
      res.end('{}');
    });
    const t = transport({ timeoutMs: 150 });
    for (let i = 0; i < 4; i++) {
      expect((await read(t, `${url}/slow`).catch((e) => e)).code).toBe('SC_TARGET_TIMEOUT');
      expect((await get(t, `${url}/fast`)).status).toBe(200);
    }
  });
});

describe('a target that is gone', () => {
  it('resets every connection: the liveness reads get no answer, and nothing more is sent', async () => {
    let n = 0;
    const { url } = await listen((_req, res) => {
      if (++n > 1) return void res.socket?.resetAndDestroy();
      res.end('{}');
    });
    const log: Exchange[] = [];
    const waits: number[] = [];
    const t = transport({}, log, async (ms: number) => void waits.push(ms));
    expect((await get(t, `${url}/a`)).status).toBe(200);
    const err = await post(t, `${url}/b`).catch((e) => e);
    expect(err).toMatchObject({ code: 'SC_TARGET_UNREACHABLE', inCheck: 'not-judged' });
    expect(err.message).toMatch(
      /liveness read right after it got none either \(GET \/b with no credential: no answer in 5 reads over 5 s/,
    );
    expect(exchangeOfNoAnswer(err)).toBeUndefined();
    expect(noAnswerFailure(err)).toBeUndefined();
    // It answered before: a process restarting is read again after each wait before it counts as gone.
    expect(waits).toEqual([...RESTART_WAITS_MS]);
    expect(log.filter((e) => e.request.method === 'GET' && e.request.url.endsWith('/b'))).toHaveLength(
      RESTART_WAITS_MS.length + 1,
    );
    expect(log.find((e) => e.request.method === 'POST')!.error).toMatch(/the target is gone/);
    const seen = n;
    const next = await get(t, `${url}/c`).catch((e) => e);
    expect(next).toMatchObject({ code: 'SC_TARGET_UNREACHABLE', notSent: true });
    expect(next.message).toMatch(/the target stopped answering/);
    expect(n).toBe(seen);
  });

  it('hangs: one liveness read, which times out, and no wait for a restart', async () => {
    let n = 0;
    const { url } = await listen((_req, res) => {
      if (++n === 1) res.end('{}');
    });
    const waits: number[] = [];
    const t = transport({ timeoutMs: 150 }, [], async (ms: number) => void waits.push(ms));
    expect((await get(t, url)).status).toBe(200);
    const err = await get(t, url).catch((e) => e);
    expect(err.code).toBe('SC_TARGET_UNREACHABLE');
    expect(err.message).toMatch(/within 150 ms; the liveness read right after it got none either/);
    expect(waits).toEqual([]);
    expect(n).toBe(3);
  });

  it('is one liveness read for the requests that got no answer together', async () => {
    let n = 0;
    const { url } = await listen((_req, res) => {
      if (++n > 1) return void res.socket?.resetAndDestroy();
      res.end('{}');
    });
    const log: Exchange[] = [];
    const t = transport({}, log, async () => {});
    expect((await get(t, `${url}/x`)).status).toBe(200);
    const errs = await Promise.all(Array.from({ length: 4 }, () => post(t, `${url}/x`).catch((e) => e)));
    for (const err of errs) expect(err.code).toBe('SC_TARGET_UNREACHABLE');
    const reads = log.filter((e) => e.request.method === 'GET').length - 1;
    expect(reads).toBeLessThanOrEqual(RESTART_WAITS_MS.length + 1);
  });

  it('tells the other transports of the run through the breaker file, which then send nothing', async () => {
    let seen = 0;
    const { url } = await listen(() => {
      seen += 1;
    });
    const breakerFile = join(tempDir(), 'breaker');
    const first = transport({ timeoutMs: 150, breakerFile });
    expect((await get(first, url).catch((e) => e)).code).toBe('SC_TARGET_UNREACHABLE');
    // Another process's transport of the same run (a suite file in its own worker).
    const other = transport({ timeoutMs: 150, breakerFile });
    const err = await get(other, url).catch((e) => e);
    expect(err).toMatchObject({ code: 'SC_TARGET_UNREACHABLE', notSent: true });
    expect(err.message).toMatch(/no complete answer .* within 150 ms/);
    // The request and its liveness read.
    expect(seen).toBe(2);
  });

  it('was never there: a refused connection is not read again', async () => {
    const log: Exchange[] = [];
    const err = await get(transport({}, log), 'http://127.0.0.1:1/').catch((e) => e);
    expect(err).toMatchObject({ code: 'SC_TARGET_UNREACHABLE', notSent: true });
    expect(log).toHaveLength(1);
  });
});

describe('a target that restarts (a process that crashed on one input, under a supervisor)', () => {
  it('fails the request that crashed it, and sends again a request refused while it was down', async () => {
    let crashes = 0;
    let restarts = 0;
    let port = 0;
    const handler: Handler = (req, res) => {
      if (req.method === 'POST' && req.url === '/crash') {
        crashes += 1;
        res.socket?.resetAndDestroy();
        void stop(current);
        return;
      }
      res.writeHead(req.method === 'GET' && req.url !== '/ok' ? 401 : 200);
      res.end('{}');
    };
    let current = (await listen(handler)).server;
    port = (current.address() as AddressInfo).port;
    const url = `http://127.0.0.1:${port}`;
    // The restart happens while the transport waits to read again.
    const wait = async () => {
      if (current.listening) return;
      restarts += 1;
      current = (await listen(handler, port)).server;
    };
    const log: Exchange[] = [];
    const t = transport({}, log, wait);
    expect((await get(t, `${url}/ok`)).status).toBe(200);
    const err = await post(t, `${url}/crash`).catch((e) => e);
    // The liveness read found it down, then back: the reset was its answer to that request.
    expect(err.code).toBe('SC_TARGET_DROPPED');
    expect(exchangeOfNoAnswer(err)?.error).toMatch(/reset the connection/);
    expect(restarts).toBe(1);
    // Down again: a request refused meanwhile never reached it, and is sent again once it answers.
    await stop(current);
    const res = await post(t, `${url}/ok`);
    expect(res.status).toBe(200);
    expect(restarts).toBe(2);
    const refused = log.find((e) => e.error?.includes('ECONNREFUSED') && e.request.method === 'POST');
    expect(refused?.error).toMatch(/the target answers again \(GET \/ok with no credential: HTTP 200\): sent again/);
    expect(crashes).toBe(1);
  });
});
