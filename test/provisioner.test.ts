/**
 * --provisioner: a target with its own conventions for creating cases and starting processing
 * (which the interface does not show) is still judged, through a user's adapter module.
 * The target here is a real HTTP server in front of the reference server that hides the
 * default conventions and offers others (those fixtures/provisioner.example.mjs expects).
 */
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReferenceServer, type ReferenceServer } from '../src/reference/server.ts';
import { readReport, ROOT, screenconf, tempDir } from './support/cli.ts';

const EXAMPLE = join(ROOT, 'fixtures/provisioner.example.mjs');
const FAST = ['--max-rps', '0', '--runs', '3'];

async function bodyOf(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text;
}

/** Forwards to the reference server, but creates and starts cases only by the other conventions. */
function otherConventions(upstream: string): Server {
  return createServer(async (req, res) => {
    const url = req.url ?? '/';
    const body = await bodyOf(req);
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'content-type', 'accept'])
      if (typeof req.headers[name] === 'string') headers[name] = req.headers[name];
    const forward = async (method: string, path: string, payload?: string) => {
      const r = await fetch(`${upstream}${path}`, {
        method,
        headers,
        ...(payload !== undefined && payload !== '' ? { body: payload } : {}),
      });
      return { status: r.status, text: await r.text(), type: r.headers.get('content-type') ?? 'application/json' };
    };
    const send = (status: number, text: string, type = 'application/json') => {
      res.writeHead(status, text ? { 'content-type': type } : {});
      res.end(text);
    };
    let m: RegExpExecArray | null;
    if (
      (req.method === 'POST' && url === '/api/cases/') ||
      (/^\/api\/cases\/\d+\/(start\/)?$/.test(url) && (req.method === 'GET' || url.endsWith('/start/')))
    ) {
      return send(404, '{"error":"not_found"}');
    }
    if (req.method === 'POST' && url === '/internal/v2/cases') {
      const r = await forward('POST', '/api/cases/', JSON.stringify((JSON.parse(body) as { case: unknown }).case));
      return r.status === 201 ? send(201, `{"data":${r.text}}`) : send(r.status, r.text, r.type);
    }
    if (req.method === 'GET' && (m = /^\/internal\/v2\/cases\/(\d+)$/.exec(url))) {
      const r = await forward('GET', `/api/cases/${m[1]}/`);
      return send(r.status, r.text, r.type);
    }
    if (req.method === 'PUT' && (m = /^\/internal\/v2\/cases\/(\d+)\/processing$/.exec(url))) {
      const r = await forward('POST', `/api/cases/${m[1]}/start/`, '{}');
      return send(r.status < 300 ? 204 : r.status, r.status < 300 ? '' : r.text, r.type);
    }
    const r = await forward(req.method ?? 'GET', url, body);
    return send(r.status, r.text, r.type);
  });
}

describe('screenconf run --provisioner', () => {
  let reference: ReferenceServer;
  let proxy: Server;
  let base: string;
  let credentials: string[];

  beforeAll(async () => {
    reference = await createReferenceServer();
    proxy = otherConventions(reference.url);
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const [a, b] = reference.organisations;
    credentials = [
      '--client-id',
      a!.clientId,
      '--client-secret',
      a!.clientSecret,
      '--peer-client-id',
      b!.clientId,
      '--peer-client-secret',
      b!.clientSecret,
    ];
  });
  afterAll(async () => {
    await new Promise((r) => proxy?.close(r));
    await reference?.close();
  });

  it('judges a target with other conventions through the example adapter, and leaves nothing behind', async () => {
    const dir = tempDir();
    const r = await screenconf(
      [
        'run',
        '--base-url',
        base,
        ...credentials,
        '--provisioner',
        EXAMPLE,
        '--suites',
        'case-patch,case-delete,webhooks',
        ...FAST,
        '--report-dir',
        dir,
      ],
      { timeoutMs: 150_000 },
    );
    // Three suites through the adapter: none failed; the others were not selected.
    expect(r.stdout, r.stderr).toContain('Verdict: INCOMPLETE — ');
    expect(r.status).toBe(0);
    const report = readReport(dir);
    expect(report.results.find((x) => x.id === 'WEBHOOK-DELIVERED')?.verdict).toBe('pass');
    for (const org of reference.organisations)
      expect(reference.store.countCases(org.name), `cases left for ${org.name}`).toBe(0);
  });

  it('without the adapter, says provisioning failed and how to fix it (exit 3)', async () => {
    const r = await screenconf([
      'run',
      '--base-url',
      base,
      ...credentials,
      '--suites',
      'case-delete',
      ...FAST,
      '--report-dir',
      tempDir(),
    ]);
    expect(r.status).toBe(3);
    expect(r.stdout + r.stderr).toContain('--provisioner');
  });

  it('refuses an adapter of the wrong shape before any request (SC_PROVISIONER, exit 2)', async () => {
    const dir = tempDir();
    const file = join(dir, 'bad.mjs');
    writeFileSync(file, 'export default { createCase: 5 };\n');
    const r = await screenconf([
      'run',
      '--base-url',
      'http://127.0.0.1:1',
      '--client-id',
      '3f8a4c1e-2b7d-4e9f-a1c3-5d6e7f8a9b0c',
      '--client-secret',
      'x',
      '--provisioner',
      file,
      '--report-dir',
      dir,
    ]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe(
      `screenconf: error SC_PROVISIONER: provisioner ${file}: createCase must be a function`,
    );
  });

  it('names a missing adapter file (exit 2)', async () => {
    const file = join(tempDir(), 'missing.mjs');
    const r = await screenconf(['run', '--provisioner', file, '--report-dir', tempDir()]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe(`screenconf: error SC_PROVISIONER: provisioner ${file}: not found`);
  });
});
