/** The run ledger, the provisioner's teardown and confirmed removal, against the reference server. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../src/client/api.ts';
import { TokenSource } from '../src/client/auth.ts';
import { Redactor } from '../src/base/redact.ts';
import { stoppingReason } from '../src/client/stopping.ts';
import { Transport } from '../src/client/transport.ts';
import { Ledger, readLedger } from '../src/provision/ledger.ts';
import { Provisioner } from '../src/provision/provisioner.ts';
import { CONFIRMED_SAMPLE, isGoneStatus, removeCase } from '../src/provision/removal.ts';
import type { FaultName } from '../src/reference/faults.ts';
import { createReferenceServer, type ReferenceServer } from '../src/reference/server.ts';
import { rerunOutcome } from '../src/runner/rerun.ts';
import { tempDir } from './support/cli.ts';

let server: ReferenceServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(faults: FaultName[] = []) {
  server = await createReferenceServer({ faults });
  const org = server.organisations[0]!;
  const sent: string[] = [];
  const transport = new Transport(
    { timeoutMs: 30_000, maxResponseBytes: 1 << 20 },
    new Redactor([org.clientSecret]),
    (e) => sent.push(`${e.request.method} ${new URL(e.request.url).pathname}`),
  );
  const api = new ApiClient({
    baseUrl: server.url,
    transport,
    tokens: new TokenSource(server.url, { clientId: org.clientId, clientSecret: org.clientSecret }, transport),
  });
  const path = join(tempDir(), 'ledger.jsonl');
  new Ledger(path, 'run1', server.url).begin('url', false);
  const provision = new Provisioner(api, 'screenconf-run1-a-', { org: 'a', runId: 'run1', ledgerPath: path });
  return { server, api, path, provision, sent };
}

describe('readLedger', () => {
  const line = (o: object) => JSON.stringify({ v: 1, run: 'r', baseUrl: 'http://h', at: '2025-01-01T00:00:00Z', ...o });

  it('works out what is left: created and not deleted, creates that got no answer', () => {
    const text = [
      line({ event: 'run', target: 'url' }),
      line({ event: 'create', org: 'a', externalId: 'x1' }),
      line({ event: 'created', org: 'a', externalId: 'x1', id: 1 }),
      line({ event: 'create', org: 'b', externalId: 'x2' }),
      line({ event: 'created', org: 'b', externalId: 'x2', id: 1 }), // same id, other organisation
      line({ event: 'create', org: 'a', externalId: 'x3' }),
      line({ event: 'refused', org: 'a', externalId: 'x3', status: 400 }),
      line({ event: 'create', org: 'a', externalId: 'x4' }), // no answer
      line({ event: 'deleted', org: 'a', id: 1 }),
      // Case 5 deleted, its id given to x6 since: the deletion of x5 names x5, and x6 stays pending.
      line({ event: 'created', org: 'a', externalId: 'x5', id: 5, createdAt: '2025-01-01T00:00:00Z' }),
      line({ event: 'created', org: 'a', externalId: 'x6', id: 5, createdAt: '2025-01-01T00:00:09Z' }),
      line({ event: 'deleted', org: 'a', id: 5, externalId: 'x5' }),
      '{"v":1,"run":"r","ev', // a run killed in the middle of a write
    ].join('\n');
    const state = readLedger('mem', text);
    expect(state.runs).toEqual([{ run: 'r', baseUrl: 'http://h', target: 'url', keep: false }]);
    expect(state.pending).toEqual([
      { run: 'r', baseUrl: 'http://h', org: 'b', id: 1, externalId: 'x2' },
      { run: 'r', baseUrl: 'http://h', org: 'a', id: 5, externalId: 'x6', createdAt: '2025-01-01T00:00:09Z' },
    ]);
    expect(state.unconfirmed.map((u) => u.externalId)).toEqual(['x4']);
    expect(state.removed).toBe(1);
    expect(state.unreadable).toBe(1);
  });

  it('refuses a file that is not a ledger', () => {
    expect(() => readLedger('mem', 'hello\n')).toThrow(/not a screenconf ledger/);
    expect(() => readLedger('mem', '{"a":1}\n')).toThrow(/line 1 is not a screenconf ledger line/);
    expect(() => readLedger('/nonexistent/ledger.jsonl')).toThrow(/cannot read ledger .*ENOENT/);
  });

  it('never records user information of the base URL', () => {
    const path = join(tempDir(), 'l.jsonl');
    new Ledger(path, 'r', 'https://user:hunter2@h.test/').begin('url', false);
    expect(readFileSync(path, 'utf8')).not.toContain('hunter2');
  });
});

describe('the provisioner records before it creates, and teardown confirms', () => {
  it('writes the intent before the request, the id after, and a confirmed deletion at teardown', async () => {
    const { provision, path, server, api } = await setup();
    const c = await provision.createCase();
    const d = await provision.createCase();
    const events = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events.map((e) => e.event)).toEqual(['run', 'create', 'created', 'create', 'created']);
    expect(events[1]).toMatchObject({
      run: 'run1',
      baseUrl: server.url,
      kind: 'case',
      org: 'a',
      externalId: c.external_id,
    });
    expect(events[1].externalId).toMatch(/^screenconf-run1-a-case-/);
    expect(events[1].customerExternalId).toMatch(/^screenconf-run1-a-customer-/);
    expect(events[2]).toMatchObject({ id: c.id });
    // A check deletes one itself: teardown only confirms that one is gone.
    expect((await api.deleteCase(d.id)).status).toBe(204);
    provision.forget(d.id);
    expect(await provision.cleanup()).toEqual([]);
    expect(server.store.countCases('org-1')).toBe(0);
    const state = readLedger(path);
    expect(state.pending).toEqual([]);
    expect(state.removed).toBe(2);
  });

  it('reports a case whose DELETE did nothing as left, and the ledger keeps it pending', async () => {
    const { provision, path, api } = await setup(['delete.noop']);
    const c = await provision.createCase();
    expect(await provision.cleanup()).toEqual([c.id]);
    expect(readLedger(path).pending.map((p) => p.id)).toEqual([c.id]);
    const r = await removeCase(api, 'a', c.id);
    expect(r).toMatchObject({ gone: false });
    expect(r.detail).toMatch(/still there after DELETE answered HTTP 204 \(a later PATCH answered 200\)/);
  });

  it('confirms the first deletions of a teardown and, once they held, takes the DELETE at its word', async () => {
    const { provision, path, sent, server, api } = await setup();
    const made = [];
    for (let i = 0; i < CONFIRMED_SAMPLE + 4; i++) made.push(await provision.createCase());
    // Two a check deleted itself: once the sample held, teardown sends nothing for them.
    for (const c of made.slice(0, 2)) {
      expect((await api.deleteCase(c.id)).status).toBe(204);
      provision.forget(c.id);
    }
    sent.length = 0;
    expect(await provision.cleanup()).toEqual([]);
    expect(server.store.countCases('org-1')).toBe(0);
    expect(sent.filter((s) => s.startsWith('DELETE'))).toHaveLength(made.length - 2);
    // A later PATCH for each case of the sample only.
    expect(sent.filter((s) => s.startsWith('PATCH'))).toHaveLength(CONFIRMED_SAMPLE);
    expect(readLedger(path).removed).toBe(made.length);
  });

  it("counts an earlier teardown's confirmations toward the sample of the next", async () => {
    const { provision, sent } = await setup();
    for (let i = 0; i < CONFIRMED_SAMPLE - 1; i++) await provision.createCase();
    expect(await provision.cleanup()).toEqual([]);
    for (let i = 0; i < 3; i++) await provision.createCase();
    sent.length = 0;
    expect(await provision.cleanup()).toEqual([]);
    // One confirmation short of the sample: the next teardown confirms one, then none.
    expect(sent.filter((s) => s.startsWith('PATCH'))).toHaveLength(1);
    for (let i = 0; i < 3; i++) await provision.createCase();
    sent.length = 0;
    expect(await provision.cleanup()).toEqual([]);
    expect(sent.filter((s) => s.startsWith('PATCH'))).toHaveLength(0);
    expect(sent.filter((s) => s.startsWith('DELETE'))).toHaveLength(3);
  });

  it('confirms every deletion once one of the sample is still there', async () => {
    const { provision, path, sent } = await setup(['delete.noop']);
    const made = [];
    for (let i = 0; i < CONFIRMED_SAMPLE + 4; i++) made.push((await provision.createCase()).id);
    sent.length = 0;
    expect((await provision.cleanup()).sort()).toEqual([...made].sort());
    expect(sent.filter((s) => s.startsWith('PATCH'))).toHaveLength(made.length);
    expect(readLedger(path).pending).toHaveLength(made.length);
  });

  it('never deletes the case a server gave a deleted case id to, and the ledger keeps that one pending', async () => {
    const { provision, path, api, server } = await setup(['ids.reuse-freed']);
    // Another worker's provisioner, sharing the ledger.
    const other = new Provisioner(api, 'screenconf-run1-a-', { org: 'a', runId: 'run1', ledgerPath: path });
    const a = await provision.createCase();
    expect((await api.deleteCase(a.id)).status).toBe(204);
    provision.forget(a.id);
    const b = await other.createCase();
    expect(b.id).toBe(a.id);
    expect(await provision.cleanup()).toEqual([]);
    expect(server.store.countCases('org-1')).toBe(1);
    expect(readLedger(path).pending.map((p) => p.externalId)).toEqual([b.external_id]);
    // A removal that knows when the case it names was created leaves a case made at another time alone.
    const stale = { id: a.id, createdAt: '2020-01-01T00:00:00Z', externalIds: [] };
    const r = await removeCase(api, 'a', a.id, { identity: stale, probe: true });
    expect(r).toMatchObject({ gone: true });
    expect(r.detail).toMatch(/another case answers with its id now \(created_at "20/);
    expect(server.store.countCases('org-1')).toBe(1);
    expect(await other.cleanup()).toEqual([]);
    expect(server.store.countCases('org-1')).toBe(0);
    expect(readLedger(path).pending).toEqual([]);
  });

  it('removes nothing with keep', async () => {
    const { server, api, path } = await setup();
    const keep = new Provisioner(api, 'screenconf-run1-a-', { org: 'a', runId: 'run1', ledgerPath: path, keep: true });
    await keep.createCase();
    expect(await keep.cleanup()).toEqual([]);
    expect(server.store.countCases('org-1')).toBe(1);
  });

  it('counts only a refusal about the case as gone', () => {
    for (const s of [404, 410, 400, 422]) expect(isGoneStatus(s), String(s)).toBe(true);
    for (const s of [200, 204, 401, 403, 408, 429, 500, 503]) expect(isGoneStatus(s), String(s)).toBe(false);
  });

  it('is not stopping in a process that was not told to', () => {
    expect(stoppingReason()).toBeUndefined();
  });
});

describe('re-run of a failed check', () => {
  it('labels a failure that repeats deterministic, and one that passed on re-run flaky', () => {
    expect(rerunOutcome(['failed', 'failed'], 'failed')).toEqual({ state: 'failed', flaky: false });
    // Failed once, then passed: flaky, not a failure (the report names it flaky, with the first failure).
    expect(rerunOutcome(['failed', 'passed'], 'passed')).toEqual({ state: 'passed', flaky: true });
    // No usable answer the first time (a reset), then a pass: nothing wrong was seen.
    expect(rerunOutcome(['not-judged', 'passed'], 'passed')).toEqual({ state: 'passed', flaky: true });
    expect(rerunOutcome(['passed'], 'passed')).toEqual({ state: 'passed' });
    expect(rerunOutcome(['failed'], 'failed')).toEqual({ state: 'failed' });
    // The last attempt decides whether the check could judge at all.
    expect(rerunOutcome(['failed', 'not-judged'], 'failed')).toEqual({ state: 'failed', flaky: false });
    expect(rerunOutcome(['skipped'], 'skipped')).toEqual({ state: 'skipped' });
  });

  it("falls back on vitest's state for a check that recorded no attempt (a failing hook)", () => {
    expect(rerunOutcome([], 'failed')).toEqual({ state: 'failed' });
    expect(rerunOutcome([], 'passed')).toEqual({ state: 'passed' });
    expect(rerunOutcome([], 'skipped')).toEqual({ state: 'skipped' });
  });
});
