/**
 * The parts of a reproduction script and replay: what it sets up, what it takes for the records a request names,
 * what it looks for in the judged answer, and the reproduction of an invariant the watcher judged
 * (the scripts of a whole faulty run: repro.test.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findable, reproScript } from '../src/report/repro.ts';
import { type Part, planSteps } from '../src/report/repro-plan.ts';
import type { Expectation } from '../src/results/failure.ts';
import type { RequirementResult } from '../src/results/report.ts';
import { createReferenceServer, type ReferenceServer } from '../src/reference/server.ts';
import type { FaultName } from '../src/reference/faults.ts';
import { newOrganisation } from '../src/reference/organisations.ts';
import { runFolder, tempDir } from './support/cli.ts';
import { screenconfInProcess } from './support/in-process.ts';
import { type Result, replayRun, sh } from './support/repro.ts';

function failedResult(exchanges: unknown[], expect?: Expectation): RequirementResult {
  return {
    id: 'CASE-PATCH-ROUNDTRIP',
    level: 'MUST',
    area: 'case-patch',
    statement: 's',
    source: 'src',
    verdict: 'fail',
    tests: [],
    failures: [{ test: 't', message: 'm', ...(expect ? { expect } : {}), evidence: { exchanges } }],
  } as unknown as RequirementResult;
}

describe('a reproduction that cannot set up what it names', () => {
  const exchange = (method: string, path: string, body: string | undefined, status: number, judged = false) => ({
    at: '2026-11-25T00:00:00.000Z',
    durationMs: 1,
    request: { method, url: `http://h${path}`, headers: {}, credential: 'access-token', organisation: 'ours', body },
    response: { status, headers: {}, body: '{}' },
    ...(judged ? { judged: true } : {}),
  });
  const ctx = { runId: 'r1', baseUrl: 'http://h' };

  it('stops with exit 2 before sending anything when a step names a record the run made elsewhere', () => {
    const script = reproScript(
      failedResult([exchange('PATCH', '/api/cases/1405/', '{"delete_after":5}', 200, true)]),
      ctx,
    )!.script;
    const stop = script.indexOf('step 1 names 1405');
    expect(stop).toBeGreaterThan(0);
    expect(script.indexOf('fail_setup', script.indexOf('step 1 names 1405'))).toBeLessThan(script.indexOf('\nsend 1 '));
  });

  it('sends a made-up unknown id, and an id an earlier step created, as planned', () => {
    const created = {
      ...exchange('POST', '/api/cases/', '{}', 201),
      response: { status: 201, headers: {}, body: '{"id":77}' },
    };
    const script = reproScript(
      failedResult([
        created,
        exchange('PATCH', '/api/cases/77/', '{}', 200),
        exchange('PATCH', '/api/cases/2147400123/', '{}', 500, true),
      ]),
      ctx,
    )!.script;
    expect(script).not.toContain('cannot set them up');
    expect(script).toContain('/api/cases/2147400123/');
  });
});

describe('what a reproduction takes for the records a request names', () => {
  const exchange = (method: string, path: string, sent: string | undefined, status: number, body = '{}') => ({
    at: '2026-11-25T00:00:00.000Z',
    durationMs: 1,
    request: { method, url: `http://h${path}`, headers: {}, ...(sent !== undefined ? { body: sent } : {}) },
    response: { status, headers: {}, body },
  });
  const created = (id: number) =>
    exchange('POST', '/api/cases/', '{}', 201, `{"id":${id},"customer":{"id":${id + 1}}}`);
  const deleted = (id: number) => exchange('DELETE', `/api/cases/${id}/`, undefined, 204);
  const shown = (parts: readonly Part[] | undefined) =>
    (parts ?? []).map((p) => ('variable' in p ? `{${p.variable}}` : p.text)).join('');

  // The input matrix sends bulk items as a form value (items=<JSON>, percent-encoded) and numbers as external_ids.
  it('finds ids in a form body, and takes a number sent as an external_id for a value, not a record', () => {
    const q = encodeURIComponent;
    const form = `items=${q('[{"id":72,"delete_after":5},{"id":73,"external_id":9626}]')}`;
    const steps = planSteps(
      [
        created(72),
        created(73),
        exchange('POST', '/api/cases/bulk-update/', form, 200, '{"results":[{"id":72},{"id":73}]}'),
        exchange('PATCH', '/api/cases/72/', '{"external_id":962617392900913}', 400),
      ],
      'http://h',
      'r1',
    );
    expect(shown(steps[2]!.body)).toBe(
      `items=${q('[{"id":')}{ID_1_1}${q(',"delete_after":5},{"id":')}{ID_2_1}${q(',"external_id":9626}]')}`,
    );
    // A batch names its items: it made nothing, and its answer's ids are not captured.
    expect(steps[2]!.captures).toEqual([]);
    expect(steps.map((s) => s.unresolved)).toEqual([[], [], [], []]);
    expect(shown(steps[3]!.body)).toBe('{"external_id":962617392900913}');
  });

  // A server that gives a deleted case's id to the next case: what names the id afterwards names the new case.
  it("takes an id a creation gave again for the newest case's", () => {
    const steps = planSteps([created(13), deleted(13), created(13), deleted(13)], 'http://h', 'r1');
    expect(shown(steps[1]!.path)).toBe('/api/cases/{ID_1_1}/');
    expect(shown(steps[3]!.path)).toBe('/api/cases/{ID_3_1}/');
  });
});

describe("a script's judgement of an id given again (CASE-ID-NOT-REUSED)", () => {
  // A server whose creations answer the next id, or always the same one (a deleted case's id given again).
  let server: Server;
  let base: string;
  let next = 1;
  let again = false;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.method === 'DELETE') return res.writeHead(204).end();
      const id = again ? 13 : next++;
      res.writeHead(201, { 'content-type': 'application/json' }).end(`{"id":${id},"customer":{"id":${id + 100}}}`);
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

  const exchange = (method: string, path: string, status: number, body: string, judged = false) => ({
    at: '2026-11-25T00:00:00.000Z',
    durationMs: 1,
    request: { method, url: `http://h${path}`, headers: {}, credential: 'none', organisation: 'ours', body: '{}' },
    response: { status, headers: {}, body },
    ...(judged ? { judged: true } : {}),
  });

  it('compares the id a creation answered with those of the cases deleted before: 1 the same, 0 another', async () => {
    const made = '{"id":13,"customer":{"id":113}}';
    const text = reproScript(
      failedResult(
        [
          exchange('POST', '/api/cases/', 201, made),
          exchange('DELETE', '/api/cases/13/', 204, ''),
          exchange('POST', '/api/cases/', 201, made, true),
        ],
        { newId: true },
      ),
      { runId: 'r1', baseUrl: 'http://h' },
    )!.script;
    const file = join(tempDir(), 'repro.sh');
    writeFileSync(file, text);
    again = true;
    const reused = await sh(file, { SCREENCONF_BASE_URL: base });
    expect(reused.status, reused.out).toBe(1);
    expect(reused.out).toContain('Id: 13; the cases deleted before had: 13');
    again = false;
    const fresh = await sh(file, { SCREENCONF_BASE_URL: base });
    expect(fresh.status, fresh.out).toBe(0);
  });
});

describe('what a script looks for in the judged answer', () => {
  // One judged read of a made-up unknown case, without a credential: the script sends it and judges the answer.
  const path = '/api/cases/2147400123/';
  let server: Server;
  let base: string;
  let answer = '{}';
  let answerStatus = 200;
  beforeAll(async () => {
    server = createServer((_req, res) =>
      res.writeHead(answerStatus, { 'content-type': 'application/json' }).end(answer),
    );
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

  const script = (expect: Expectation) => {
    const exchange = {
      at: '2026-11-25T00:00:00.000Z',
      durationMs: 1,
      request: { method: 'GET', url: `http://h${path}`, headers: {}, credential: 'none', organisation: 'ours' },
      response: { status: 200, headers: {}, body: '{}' },
      judged: true,
    };
    return reproScript(failedResult([exchange], expect), { runId: 'r1', baseUrl: 'http://h' })!.script;
  };
  const run = async (text: string, body: string, status = 200) => {
    const file = join(tempDir(), 'repro.sh');
    writeFileSync(file, text);
    answer = body;
    answerStatus = status;
    return sh(file, { SCREENCONF_BASE_URL: base });
  };

  // A failure the script cannot check (no expectation, or only values it does not look for) is the reader's to
  // decide: a conforming server answers the same status, so "same status" said REPRODUCED on it too.
  it('says UNDECIDED (exit 3) where it cannot check what failed, REPRODUCED only on a 5xx', async () => {
    const none = script({});
    const same = await run(none, '{"id":2147400123}');
    expect(same.status, same.out).toBe(3);
    expect(same.out).toContain('UNDECIDED: not checkable in sh');
    const broken = await run(none, '{}', 500);
    expect(broken.status, broken.out).toBe(1);
    // Some values checked, one not: what sh checks conforms, the rest is the reader's.
    const some = script({
      fields: [
        { name: 'delete_after', expected: '5', received: '6' },
        { name: 'full_name', expected: '"Zoë"', received: '"Zoe"' },
      ],
    });
    const checked = await run(some, '{"delete_after":5,"full_name":"Zoe"}');
    expect(checked.status, checked.out).toBe(3);
    expect(checked.out).toContain('compare full_name by hand');
    const wrong = await run(some, '{"delete_after":6,"full_name":"Zoë"}');
    expect(wrong.status, wrong.out).toBe(1);
  });

  // The input matrix's "never a 5xx" (CASE-PATCH-ANSWERED and the like): the last input answered 5xx, sent again.
  it('decides on the status where a 2xx or a 4xx conforms', async () => {
    const answered = script({ status: ['2xx', '4xx'] });
    expect((await run(answered, '{"error":"server_error"}', 500)).status).toBe(1);
    expect((await run(answered, '{"error":"validation_error"}', 400)).status).toBe(0);
    expect((await run(answered, '{}', 200)).status).toBe(0);
  });

  // A server may write JSON with blanks and line breaks, and / as \/: what flat() leaves must be what the pattern is.
  it('finds a value however the server lays out its JSON', async () => {
    const shown = script({
      fields: [
        { name: 'webhook_url', expected: '"https://example.com/hook"', received: 'null' },
        { name: 'delete_after', expected: '5', received: 'null' },
      ],
    });
    const pretty =
      '{\n  "case" : {\n    "webhook_url" : "https:\\/\\/example.com\\/hook",\n    "delete_after" : 5\n  }\n}';
    const conforming = await run(shown, pretty);
    expect(conforming.status, conforming.out).toBe(0);
    const wrong = await run(shown, pretty.replace(': 5', ': 6'));
    expect(wrong.status, wrong.out).toBe(1);
  });

  // flat() takes out blanks after "one", \u escapes and key order differ between servers: a pattern for such a value
  // could decide the verdict wrongly, so the script does not look for it.
  it('does not look for a value the server may write otherwise', () => {
    const values = ['"one , two"', '"Zoë"', '"a\\"b"', '"x&y"', '{"a":1}', '[1,2]', '0.5', '"tab\\there"'];
    for (const v of values) expect(findable('note', v), v).toBe(false);
    for (const v of ['null', 'true', '-12', '"screenconf-r1-x_1"', '"https://e.example/a?b=c"', 'absent', '""'])
      expect(findable('note', v), v).toBe(true);
    const some = script({
      unlike: [
        { name: 'note', value: '"one , two"' },
        { name: 'metadata', value: '{"a":1}' },
        { name: 'external_id', value: 'null' },
      ],
    });
    expect(some).toContain(`*'"external_id":null'[],}]*) FIELDS_OK=0`);
    expect(some).not.toMatch(/"note":|"metadata":/);
    expect(some).toContain('not checked in sh, as a server may write the value otherwise: note, metadata');
    expect(some).not.toContain('not checkable in sh');
    // None left: the script compares the status, as with no expectation.
    const none = script({ fields: [{ name: 'full_name', expected: '"Zoë"', received: '"Zoe"' }] });
    expect(none).not.toContain('case "$BODY"');
    expect(none).toContain('not checkable in sh');
  });
});

describe('the reproduction of an invariant the watcher judged', () => {
  it('makes the case whose reads broke it before replaying them', async () => {
    const reports = tempDir();
    const run = await screenconfInProcess([
      'run',
      '--suites',
      'limits',
      '--reference-faults',
      'limit.customer-external-id-256',
      '--runs',
      '5',
      '--seed',
      '3',
      '--report-dir',
      reports,
    ]);
    expect(run.status, run.stdout + run.stderr).toBe(1);
    const dir = runFolder(reports);
    const results: Result[] = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')).results;
    const schema = results.find((r) => r.id === 'READ-CASE-SCHEMA');
    expect(schema?.verdict).toBe('fail');
    const exchanges = schema!.failures![0]!.evidence!.exchanges as unknown as {
      judged?: boolean;
      at: string;
      request: { method: string; url: string };
    }[];
    // Oldest first, the creation of each case a judged request names among them.
    expect(exchanges.map((e) => e.at)).toEqual([...exchanges.map((e) => e.at)].sort());
    for (const e of exchanges.filter((x) => x.judged && /\/api\/cases\/\d+\/$/.test(x.request.url))) {
      const id = e.request.url.match(/\/(\d+)\/$/)![1];
      const before = exchanges.slice(0, exchanges.indexOf(e));
      expect(
        before.some((b) => b.request.method === 'POST' && b.request.url.endsWith('/api/cases/')),
        id,
      ).toBe(true);
    }
    const script = readFileSync(join(dir, 'repro', 'READ-CASE-SCHEMA.sh'), 'utf8');
    expect(script).not.toContain('cannot set them up');
    expect(script).toMatch(/send 1 POST '\/api\/cases\/'/);
  }, 320_000);
});

describe('the reproduction of an invariant shown the same way on a replay', () => {
  const organisations = [newOrganisation('org-1'), newOrganisation('org-2')];
  const [ours, peer] = organisations as [(typeof organisations)[0], (typeof organisations)[0]];
  let faulty: ReferenceServer;
  let correct: ReferenceServer;
  afterAll(async () => {
    await faulty?.close();
    await correct?.close();
  });

  /**
   * A run against a server with `fault`, failing `id`; its script exits 1 against that server and 0 against a
   * correct one. Gives the requirement's result, for what else the test looks at.
   */
  async function reproducesOnlyOnTheFault(fault: FaultName, id: string, args: string[]): Promise<Result> {
    await faulty?.close();
    await correct?.close();
    faulty = await createReferenceServer({ organisations, faults: [fault] });
    correct = await createReferenceServer({ organisations });
    const reports = tempDir();
    const secretEnv = { SCREENCONF_CLIENT_SECRET: ours.clientSecret, SCREENCONF_PEER_CLIENT_SECRET: peer.clientSecret };
    const run = await screenconfInProcess(
      [
        ...['run', '--base-url', faulty.url, '--client-id', ours.clientId, '--peer-client-id', peer.clientId],
        ...args,
        ...['--report-dir', reports],
      ],
      { env: secretEnv },
    );
    expect(run.status, run.stdout + run.stderr).toBe(1);
    const dir = runFolder(reports);
    const results: Result[] = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')).results;
    const r = results.find((x) => x.id === id)!;
    expect(['fail', 'warn']).toContain(r.verdict);
    const script = join(dir, r.repro!.script);
    const env = Object.fromEntries(r.repro!.env.map((v) => [v, secretEnv[v as keyof typeof secretEnv]]));
    const onFaulty = await sh(script, env);
    expect(onFaulty.status, onFaulty.out).toBe(1);
    const onCorrect = await sh(script, { ...env, SCREENCONF_BASE_URL: correct.url });
    expect(onCorrect.status, onCorrect.out).toBe(0);
    // So does a replay with the run's own checks (or, for a failure of the invariant watcher, its judge).
    const replayed = await replayRun(dir, [id], secretEnv);
    expect(replayed.exits, replayed.out).toEqual({ [id]: 1 });
    expect(new Set(replayed.each), replayed.out).toEqual(new Set([1]));
    const fixed = await replayRun(dir, [id, '--base-url', correct.url], secretEnv);
    expect(fixed.exits, fixed.out).toEqual({ [id]: 0 });
    expect(new Set(fixed.each), fixed.out).toEqual(new Set([0]));
    return r;
  }

  // A status outside the enum is shown again by a replay, once the case completed (the script reads until it
  // has, as the run waited): the script checks the answer for it (expect.unlike), not only its status, a 200.
  it('exits 1 on the faulty server and 0 on a correct one (READ-ENUMS)', async () => {
    const r = await reproducesOnlyOnTheFault('read.bad-enum', 'READ-ENUMS', [
      '--suites',
      'read-invariants',
      '--seed',
      '7',
    ]);
    expect((r.failures![0] as { expect?: { unlike?: unknown[] } }).expect?.unlike).toEqual([
      { name: 'status', value: '"DONE"' },
    ]);
  }, 320_000);

  // The check judges bodies another check of its file made (created, PATCHed, read): the PATCH, sent in that
  // check, is the setup of the read it judges, so the script replays it before the read.
  it("exits 1 on the faulty server, 0 on a correct one (CASE-ORIGIN-URL-ALIAS, on another check's read)", async () => {
    const r = await reproducesOnlyOnTheFault('read.origin-url-stale', 'CASE-ORIGIN-URL-ALIAS', [
      ...['--suites', 'case-patch', '--only', 'CASE-EXTERNAL-ID-STRING,CASE-ORIGIN-URL-ALIAS'],
    ]);
    const exchanges = r.failures![0]!.evidence!.exchanges as unknown as { request: { method: string } }[];
    expect(exchanges.map((e) => e.request.method)).toEqual(['POST', 'PATCH', 'GET']);
  }, 320_000);

  // A shrunk sequence whose judged PATCH sends an external_id another case of the sequence holds: on a correct server
  // it is rejected only where that case exists, so the reproduction makes it (with the value it was given) first.
  it('makes the record a judged request depends on: the case holding its external_id (MODEL-CONSISTENT)', async () => {
    const r = await reproducesOnlyOnTheFault('unique.no-check', 'MODEL-CONSISTENT', [
      ...['--suites', 'model', '--seed', '7', '--runs', '10'],
    ]);
    const exchanges = r.failures![0]!.evidence!.exchanges as unknown as {
      judged?: boolean;
      request: { method: string; url: string; body?: string };
    }[];
    const judged = exchanges.filter((e) => e.judged).at(-1)!;
    const value = /"external_id":"([^"]+)"/.exec(judged.request.body ?? '')?.[1];
    expect(value, judged.request.body).toBeDefined();
    // The value was given to another case before: by its creation or a change, each kept as setup with its creation.
    const givers = exchanges.filter((e) => !e.judged && e.request.body?.includes(`"${value}"`));
    expect(givers.length, JSON.stringify(exchanges.map((e) => e.request.url))).toBeGreaterThan(0);
  }, 320_000);

  // A creation given the id of a case deleted before (another check's, which may have run in another worker): the
  // evidence holds that case's creation and deletion, and the script compares the ids it got (expect.newId).
  it('exits 1 on the faulty server, 0 on a correct one (CASE-ID-NOT-REUSED, an id given again)', async () => {
    const r = await reproducesOnlyOnTheFault('ids.reuse-freed', 'CASE-ID-NOT-REUSED', [
      ...['--suites', 'case-delete', '--seed', '11', '--strict'],
    ]);
    const f = r.failures![0] as { expect?: Expectation; evidence?: { exchanges: { request: { method: string } }[] } };
    expect(f.expect).toEqual({ newId: true });
    expect(f.evidence!.exchanges.map((e) => e.request.method)).toContain('DELETE');
  }, 320_000);
});
