/**
 * Tiny hostile servers for the self-tests: real local listeners, one misbehaviour each. Most
 * wrap the reference server in a proxy that tampers with some answers, so the token and the
 * provisioning conventions work and only the behaviour under test is hostile.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { createReferenceServer, type TenantCredentials, type ReferenceServer } from '../../src/reference/server.ts';
import type { FaultName } from '../../src/reference/faults.ts';

export interface Started {
  url: string;
  clientId: string;
  clientSecret: string;
  /** Everything the server knows that must never reach an output (secrets, issued tokens). */
  secrets(): string[];
  close(): Promise<void>;
}

/**
 * One hostile server and the verdict expected of screenconf against it:
 * exit 1 when the target answered and its answers break requirements (a conformance verdict),
 * exit 3 with one line on stderr naming `code` when the harness cannot judge it.
 */
export interface Hostile {
  behaviour: string;
  exit: 0 | 1 | 3;
  code?: string;
  /** Why this verdict is the right one. */
  why: string;
  suites: string;
  args?: string[];
  /**
   * --timeout-ms, only for a server whose misbehaviour is silence (the timeout is what is under
   * test); every other verdict comes from what the server answers, with the default timeout, so a
   * busy machine cannot turn a slow answer into a different verdict.
   */
  timeoutMs?: number;
  /** How long the run may take before it counts as a hang (default 60 s); not a speed target. */
  boundMs?: number;
  start(): Promise<Started>;
  /** Further checks on the report folder's conformance.json, when the exit alone does not say enough. */
  verify?(report: Report, server: Started): void | Promise<void>;
}

export interface Report {
  summary: {
    conforming: boolean;
    mustFailures: number;
    harnessFaults: string[];
    leftovers: number[];
    throttled?: number;
  };
  results: { id: string; verdict: string; reason?: string; failures?: { message: string; flaky?: boolean }[] }[];
}

export function plantedOrganisations(): TenantCredentials[] {
  return ['org-1', 'org-2'].map((name) => ({
    name,
    clientId: randomUUID(),
    clientSecret: `cs_planted_${randomBytes(12).toString('hex')}`,
    apiKey: `sk_planted_${randomBytes(12).toString('hex')}`,
  }));
}

async function listening(server: Server | TcpServer): Promise<number> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

/** A loopback listener on `port` with made-up credentials (nothing checks them). */
function madeUp(port: number, close: () => Promise<void>): Started {
  const clientSecret = `cs_planted_${randomBytes(12).toString('hex')}`;
  return {
    url: `http://127.0.0.1:${port}`,
    clientId: randomUUID(),
    clientSecret,
    secrets: () => [clientSecret],
    close,
  };
}

/** A plain listener with one handler. */
export async function plain(
  handler: (req: IncomingMessage, res: ServerResponse, body: string) => void,
): Promise<Started> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => handler(req, res, body));
    req.on('error', () => {});
  });
  return madeUp(await listening(server), async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
}

/** A TCP listener that does something to each connection (never answers, resets…). */
export async function tcp(onConnection: (socket: Socket) => void): Promise<Started> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    onConnection(socket);
  });
  return madeUp(await listening(server), async () => {
    for (const s of sockets) s.destroy();
    await new Promise((r) => server.close(r));
  });
}

export interface Incoming {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** 1 for the first request the proxy received. */
  n: number;
}

export interface Upstream {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What a proxy does with one request: `forward()` gets the reference server's answer. */
export type Tamper = (req: Incoming, forward: () => Promise<Upstream>, res: ServerResponse) => Promise<void> | void;

export function relay(res: ServerResponse, up: Upstream): void {
  res.writeHead(up.status, up.headers);
  res.end(up.body);
}

export interface ProxyStarted extends Started {
  reference: ReferenceServer;
  organisations: TenantCredentials[];
}

/** The reference server behind a proxy that lets `tamper` decide each answer. */
export async function proxy(
  tamper: Tamper = async (_req, forward, res) => relay(res, await forward()),
  faults: FaultName[] = [],
): Promise<ProxyStarted> {
  const organisations = plantedOrganisations();
  const reference = await createReferenceServer({ organisations, faults });
  const issued = new Set<string>();
  let n = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('error', () => {});
    req.on('end', () => {
      n += 1;
      const incoming: Incoming = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body, n };
      const forward = async (): Promise<Upstream> => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers))
          if (v !== undefined && !['host', 'connection', 'content-length', 'transfer-encoding'].includes(k))
            headers[k] = Array.isArray(v) ? v.join(', ') : v;
        const up = await request(`${reference.url}${incoming.path}`, {
          method: incoming.method as 'GET',
          headers,
          body: body === '' ? undefined : body,
        });
        const text = await up.body.text();
        const out: Record<string, string> = {};
        for (const [k, v] of Object.entries(up.headers))
          if (v !== undefined && !['connection', 'content-length', 'transfer-encoding', 'keep-alive'].includes(k))
            out[k] = Array.isArray(v) ? v.join(', ') : v;
        const token = /"access_token"\s*:\s*"([^"]+)"/.exec(text)?.[1];
        if (token) issued.add(token);
        return { status: up.statusCode, headers: out, body: text };
      };
      Promise.resolve(tamper(incoming, forward, res)).catch(() => res.destroy());
    });
  });
  const port = await listening(server);
  const [a] = organisations;
  return {
    url: `http://127.0.0.1:${port}`,
    clientId: a!.clientId,
    clientSecret: a!.clientSecret,
    reference,
    organisations,
    secrets: () => [...organisations.flatMap((o) => [o.clientSecret, o.apiKey]), ...issued],
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await reference.close();
    },
  };
}

/** A port on which nothing listens (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createTcpServer();
  const port = await listening(server);
  await new Promise((r) => server.close(r));
  return port;
}

/** Is this a PATCH of a case with a non-empty body (a check's request, not a cleanup probe)? */
export function isCasePatch(req: Incoming): boolean {
  return req.method === 'PATCH' && /^\/api\/cases\/\d+\/$/.test(req.path) && req.body !== '{}' && req.body !== '';
}

/** A stack trace line as Node prints it. */
export const STACK_LINE = /^\s+at .+(:\d+:\d+\)?|\(native\)|\(<anonymous>\))$/m;
