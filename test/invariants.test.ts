/**
 * The invariant watcher: each invariant breaks on its own defect, case bodies are told apart, findings become
 * outcomes.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Redactor } from '../src/base/redact.ts';
import { caseBodies, caseInvariants, InvariantWatcher } from '../src/kit/invariants.ts';
import { type InvariantFindings, WATCHED_REQUIREMENTS } from '../src/results/invariants.ts';
import { judge } from '../src/results/judge.ts';
import { watchOutcomes } from '../src/runner/collect.ts';

const now = '2026-11-22T10:00:00Z';
function check(id: number, risk_score: number | null, status = risk_score === null ? 'PENDING' : 'DECIDED') {
  return {
    id,
    created_at: now,
    updated_at: now,
    note: null,
    outcome: risk_score === null ? null : 'ACCEPTED',
    reasoning: null,
    risk_score,
    status,
    title: null,
    check_type: 'PEP',
  };
}
function validCase(overrides: Record<string, unknown> = {}) {
  return {
    id: 1,
    external_id: 'ext-1',
    origin_url: 'ext-1',
    customer: { id: 2, full_name: 'Ann Example', customer_type: 'COMPANY', external_id: null },
    note: null,
    risk_score: 0.7,
    outcome: 'PENDING',
    is_started: true,
    is_complete: true,
    failed: false,
    created_at: now,
    updated_at: now,
    checks: [check(3, 0.2), check(4, 0.7)],
    rfi: null,
    ...overrides,
  };
}
const broken = (body: Record<string, unknown>) => caseInvariants(body).map((f) => f.requirement);

describe('caseInvariants', () => {
  it('finds nothing in a valid case, before, during and after processing', () => {
    expect(broken(validCase())).toEqual([]);
    expect(
      broken(validCase({ risk_score: null, is_complete: false, checks: [check(3, null), check(4, null)] })),
    ).toEqual([]);
    expect(broken(validCase({ risk_score: 0.2, is_complete: false, checks: [check(3, 0.2), check(4, null)] }))).toEqual(
      [],
    );
    expect(broken(validCase({ risk_score: null, checks: [] }))).toEqual([]);
    expect(broken(validCase({ origin_url: null, customer: { id: 2, full_name: 'A', customer_type: '' } }))).toEqual([]);
    // A score of 0 is a score; a check not decided (SKIPPED) may show none.
    expect(broken(validCase({ risk_score: 0.2, checks: [check(3, 0.2), check(4, 0)] }))).toEqual([]);
    expect(broken(validCase({ checks: [check(3, 0.7), check(4, null, 'SKIPPED')] }))).toEqual([]);
  });

  it('breaks exactly one requirement per defect', () => {
    const { updated_at: _gone, ...missing } = validCase();
    expect(broken(missing)).toEqual(['READ-CASE-SCHEMA']);
    expect(broken(validCase({ checks: [check(3, 0.2), { ...check(4, 0.7), title: 5 }] }))).toEqual([
      'READ-CASE-SCHEMA',
    ]);
    expect(broken(validCase({ checks: [check(3, 0.2), check(4, 0.7, 'DONE')] }))).toEqual(['READ-ENUMS']);
    expect(broken(validCase({ outcome: 'MAYBE' }))).toEqual(['READ-ENUMS']);
    expect(broken(validCase({ customer: { id: 2, full_name: 'A', customer_type: 'PERSON' } }))).toEqual(['READ-ENUMS']);
    expect(broken(validCase({ risk_score: 70, checks: [check(3, 20), check(4, 70)] }))).toEqual([
      'READ-RISK-SCORE-RANGE',
      'READ-RISK-SCORE-RANGE',
      'READ-RISK-SCORE-RANGE',
    ]);
    expect(broken(validCase({ risk_score: 0.45 }))).toEqual(['READ-CASE-RISK-MAX']);
    // A decided check's 0 shown as null (`score || null`): the decided check has no score.
    expect(broken(validCase({ checks: [check(3, 0.7), check(4, null, 'DECIDED')] }))).toEqual([
      'READ-CHECK-DECIDED-SCORE',
    ]);
    expect(broken(validCase({ external_id: 17, origin_url: null }))).toEqual(['CASE-EXTERNAL-ID-STRING']);
    expect(broken(validCase({ origin_url: 'https://origin.example/ext-1' }))).toEqual(['CASE-ORIGIN-URL-ALIAS']);
  });

  it('tolerates a null case risk_score with every check scored only while the case is not complete', () => {
    const scored = { risk_score: null, checks: [check(3, 0.2), check(4, 0.7)] };
    expect(broken(validCase({ ...scored, is_complete: false }))).toEqual([]);
    expect(broken(validCase({ ...scored, is_complete: true }))).toEqual(['READ-CASE-RISK-MAX']);
  });
});

describe('what a reproduction looks for in the answer (expect.unlike)', () => {
  const expects = (body: Record<string, unknown>, answer?: { text: string; single: boolean }) =>
    caseInvariants(body, answer).map((f) => [f.requirement, f.expect?.unlike ?? null]);

  // A script finds `"external_id":null` anywhere in the answer: a customer's external_id null is found on a
  // conforming server too, so the case's own is looked for only where it is the one field of that name.
  it('looks for a value only where every field of its name in the answer is the one judged', () => {
    const nullId = { external_id: null, origin_url: null };
    expect(expects(validCase(nullId))).toEqual([['CASE-EXTERNAL-ID-STRING', null]]);
    expect(expects(validCase({ ...nullId, customer: { id: 2, full_name: 'A', customer_type: 'COMPANY' } }))).toEqual([
      ['CASE-EXTERNAL-ID-STRING', [{ name: 'external_id', value: 'null' }]],
    ]);
    // Every check's status is of the same enum: a value outside it is the defect in whichever check shows it.
    const done = validCase({ checks: [check(3, 0.2, 'DONE'), check(4, 0.7), check(5, 0.1)] });
    expect(expects(done)).toEqual([['READ-ENUMS', [{ name: 'status', value: '"DONE"' }]]]);
    // Not where a field of that name holds something else (client data, another case of the answer).
    const details = { ...check(3, 0.2, 'DONE'), input_details: { status: 'DONE' } };
    expect(expects(validCase({ checks: [details, check(4, 0.7)] }))).toEqual([['READ-ENUMS', null]]);
    const two = JSON.stringify({ results: [done, validCase({ id: 9 })] });
    expect(expects(done, { text: two, single: false })).toEqual([['READ-ENUMS', null]]);
  });

  it('says a field left out must be there only in an answer that is the case alone', () => {
    const { is_started: _gone, ...missing } = validCase();
    const absent = [['READ-CASE-SCHEMA', [{ name: 'is_started', value: 'absent' }]]];
    expect(expects(missing)).toEqual(absent);
    expect(expects(missing, { text: JSON.stringify([missing]), single: false })).toEqual([['READ-CASE-SCHEMA', null]]);
    // Through the watcher: a GET of the case is the case alone; a bulk answer is not a case representation at all.
    const w = new InvariantWatcher(new Redactor(), 'http://h');
    const request = (method: string, path: string) => ({ method, url: `http://h${path}`, headers: {} });
    const answer = (json: unknown, path: string) => ({
      status: 200,
      headers: {},
      text: JSON.stringify(json),
      json,
      exchange: {
        at: `2026-01-01T00:00:0${path.length % 10}.000Z`,
        durationMs: 1,
        request: { method: 'GET', url: `http://h${path}`, headers: {}, credential: 'none' as const },
        response: { status: 200, headers: {}, body: JSON.stringify(json) },
      },
    });
    w.observe(request('GET', '/api/cases/1/'), answer(missing, '/api/cases/1/'));
    w.observe(
      request('POST', '/api/cases/bulk-update/'),
      answer({ results: [{ case: missing }, { case: validCase({ id: 2 }) }] }, '/api/cases/bulk-update/'),
    );
    const taken = w.take();
    expect(taken.watched).toBe(1);
    expect(Object.values(taken.expects?.['READ-CASE-SCHEMA'] ?? {})).toEqual([
      { unlike: [{ name: 'is_started', value: 'absent' }] },
    ]);
  });
});

describe('caseBodies', () => {
  it('takes the answer of GET and PATCH of one case, wherever the API lives', () => {
    expect(caseBodies('PATCH', '/api/cases/1/', { id: 1 })).toHaveLength(1);
    expect(caseBodies('GET', '/v2/api/cases/1/', validCase())).toHaveLength(1);
    expect(caseBodies('GET', '/api/oauth/token/', validCase())).toHaveLength(0);
    expect(caseBodies('GET', '/api/cases/1/', [validCase()])).toHaveLength(0);
  });

  it('takes nothing else: bulk answers (summaries or whole cases), creation, start', () => {
    const summaries = [
      { results: [{ index: 0, id: 1, external_id: 'x', status: 'updated' }] },
      { updated: [{ id: 1, external_id: 'x', is_complete: false }] },
      { updated: [{ id: 1, external_id: 'x', outcome: null, note: null, updated_at: now }] },
      { results: [{ index: 0, case: validCase() }] },
      [validCase()],
    ];
    for (const body of summaries) expect(caseBodies('POST', '/api/cases/bulk-update/', body)).toHaveLength(0);
    expect(caseBodies('POST', '/api/cases/', validCase())).toHaveLength(0);
    expect(caseBodies('POST', '/api/cases/1/start/', validCase())).toHaveLength(0);
  });
});

describe('InvariantWatcher and its outcomes', () => {
  const base = 'http://127.0.0.1:9';
  const req = (path: string) => ({
    method: 'GET',
    url: `${base}${path}`,
    headers: { authorization: 'Bearer sk_secret_value' },
    credential: 'api-key' as const,
  });
  // As the transport returns it: with the exchange it recorded, redacted.
  const res = (json: unknown, status = 200, path = '/api/cases/1/') => ({
    status,
    headers: {},
    text: JSON.stringify(json),
    json,
    exchange: {
      at: '2026-01-01T00:00:00.000Z',
      durationMs: 1,
      request: {
        method: 'GET',
        url: `${base}${path}`,
        headers: { authorization: 'Bearer [REDACTED]' },
        credential: 'api-key' as const,
      },
      response: { status, headers: {}, body: JSON.stringify(json) },
    },
  });

  it('counts case bodies, keeps distinct violations with a redacted reproduction, and starts afresh', () => {
    const w = new InvariantWatcher(new Redactor(['sk_secret_value']), base);
    w.observe(req('/api/cases/1/'), res(validCase()));
    w.observe(req('/api/cases/1/'), res(validCase({ risk_score: 0.45 })));
    w.observe(req('/api/cases/1/'), res(validCase({ risk_score: 0.45 })));
    w.observe(req('/api/cases/1/'), res({ detail: 'nope' }, 404));
    const f = w.take();
    expect(f.watched).toBe(3);
    expect(f.counts).toEqual({ 'READ-CASE-RISK-MAX': 2 });
    expect(f.violations).toHaveLength(1);
    expect(f.violations[0]).toMatchObject({ caseId: 1, request: 'GET /api/cases/1/', received: '0.45' });
    // The evidence is the exchange the transport recorded (once, though two answers broke the invariant).
    expect(f.evidence['READ-CASE-RISK-MAX']?.exchanges).toHaveLength(2);
    expect(f.evidence['READ-CASE-RISK-MAX']?.curl[0]).toContain('$SCREENCONF_API_KEY');
    expect(w.take().watched).toBe(0);
  });

  it('fails, passes or skips each watched requirement, and the verdicts follow', () => {
    const w = new InvariantWatcher(new Redactor(), base);
    w.observe(req('/api/cases/1/'), res(validCase({ checks: [check(3, 0.2), check(4, 0.7, 'DONE')] })));
    const outcomes = watchOutcomes('case-patch', w.take());
    expect(outcomes.map((o) => [o.requirements[0], o.state])).toEqual(
      // No case was deleted: the ids were judged against none.
      WATCHED_REQUIREMENTS.map((id) => [
        id,
        id === 'READ-ENUMS' ? 'failed' : id === 'CASE-ID-NOT-REUSED' ? 'skipped' : 'passed',
      ]),
    );
    const failed = outcomes.find((o) => o.state === 'failed')!;
    expect(failed.name).toBe('invariant watch: case-patch');
    expect(failed.failure?.message).toContain(
      'checks[1].status of case 1, in the answer to GET /api/cases/1/\nExpected: one of PENDING',
    );
    const { results } = judge([
      ...outcomes,
      ...watchOutcomes('token', new InvariantWatcher(new Redactor(), base).take()),
    ]);
    expect(results.find((r) => r.id === 'READ-ENUMS')?.verdict).toBe('fail');
    expect(results.find((r) => r.id === 'READ-CASE-SCHEMA')?.verdict).toBe('pass');
    const skipped = judge(watchOutcomes('token', new InvariantWatcher(new Redactor(), base).take())).results.find(
      (r) => r.id === 'READ-CASE-SCHEMA',
    );
    expect(skipped).toMatchObject({ verdict: 'skip', reason: 'no case body seen' });
  });
});

describe('ids a deleted case leaves (CASE-ID-NOT-REUSED)', () => {
  const base = 'http://127.0.0.1:9';
  const send = (w: InvariantWatcher, method: string, path: string, status: number, json?: unknown, body?: string) =>
    w.observe(
      { method, url: `${base}${path}`, headers: {}, organisation: 'ours', ...(body ? { body } : {}) },
      { status, headers: {}, text: json === undefined ? '' : JSON.stringify(json), json },
    );
  const reuse = (w: InvariantWatcher) => {
    const f = w.take();
    return { count: f.counts['CASE-ID-NOT-REUSED'] ?? 0, judged: f.judged['CASE-ID-NOT-REUSED'] ?? 0, f };
  };
  const later = '2026-11-22T10:00:05Z';

  it('finds another case with a deleted case id, once per holder, and says what each was', () => {
    const w = new InvariantWatcher(new Redactor(), base);
    send(w, 'POST', '/api/cases/', 201, validCase());
    send(w, 'DELETE', '/api/cases/1/', 204);
    expect(w.idReused('ours', 1)).toBe(false);
    // Created five seconds later with the same id; read twice.
    send(w, 'POST', '/api/cases/', 201, validCase({ created_at: later, external_id: 'ext-2', origin_url: 'ext-2' }));
    send(w, 'GET', '/api/cases/1/', 200, validCase({ created_at: later, external_id: 'ext-2', origin_url: 'ext-2' }));
    const { count, judged, f } = reuse(w);
    expect(count).toBe(1);
    expect(judged).toBe(2);
    expect(f.violations[0]).toMatchObject({ requirement: 'CASE-ID-NOT-REUSED', caseId: 1 });
    expect(f.violations[0]!.expected).toContain(`created_at "${now}", external_id "ext-1"`);
    expect(f.violations[0]!.received).toContain(`created_at "${later}", external_id "ext-2"`);
    expect(w.idReused('ours', 1)).toBe(true);
    // Within the same second, another external_id is another case too.
    send(w, 'DELETE', '/api/cases/1/', 204);
    send(w, 'POST', '/api/cases/', 201, validCase({ created_at: later, external_id: 'ext-3', origin_url: 'ext-3' }));
    expect(reuse(w).count).toBe(0); // the same holder's created_at: reported once
  });

  it('takes the deleted case brought back, even given another external_id by a write, for itself', () => {
    const w = new InvariantWatcher(new Redactor(), base);
    send(w, 'GET', '/api/cases/1/', 200, validCase());
    send(w, 'DELETE', '/api/cases/1/', 204);
    send(w, 'GET', '/api/cases/1/', 200, validCase());
    // A bulk update naming it brings it back with a new external_id; a later read shows it.
    send(
      w,
      'POST',
      '/api/cases/bulk-update/',
      200,
      { updated: 1 },
      JSON.stringify({ items: [{ id: 1, external_id: 'p3' }] }),
    );
    send(w, 'PATCH', '/api/cases/1/', 200, validCase({ external_id: 'p3', origin_url: 'p3' }), '{}');
    // The created_at shown to the second where it was shown to the millisecond is still one creation.
    send(
      w,
      'GET',
      '/api/cases/1/',
      200,
      validCase({ external_id: 'p3', origin_url: 'p3', created_at: '2026-11-22T10:00:00.400Z' }),
    );
    const { count, judged } = reuse(w);
    expect(count).toBe(0);
    expect(judged).toBe(3);
    expect(w.idReused('ours', 1)).toBe(false);
  });

  // The deletion that freed the id, sent by another worker, is the setup of the creation that showed it again: a replay
  // and a script make a case, delete it, then create the one they judge. Requests of two workers are not answered in
  // the order they were sent: worker two's creation, sent before worker one's deletion, was given the id it freed.
  it('keeps what a reused id rests on in its evidence, in the order it happened, from another worker too', () => {
    const exchanged = (
      w: InvariantWatcher,
      ms: number,
      method: string,
      path: string,
      status: number,
      json?: unknown,
    ) => {
      const text = json === undefined ? '' : JSON.stringify(json);
      const request = { method, url: `${base}${path}`, headers: {}, organisation: 'ours' as const };
      const exchange = {
        at: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, ms)).toISOString(),
        durationMs: 1,
        request: { ...request, ...(method === 'DELETE' ? { cleanup: true } : {}) },
        response: { status, headers: {}, body: text },
      };
      w.observe(request, { status, headers: {}, text, json, exchange });
    };
    const dir = mkdtempSync(join(tmpdir(), 'screenconf-ids-'));
    const [one, two] = [
      new InvariantWatcher(new Redactor(), base, dir),
      new InvariantWatcher(new Redactor(), base, dir),
    ];
    const holder = validCase({ created_at: later, external_id: 'ext-2', origin_url: 'ext-2' });
    exchanged(one, 10, 'POST', '/api/cases/', 201, validCase());
    // Deleted by the file's teardown: setup all the same.
    exchanged(one, 30, 'DELETE', '/api/cases/1/', 204);
    exchanged(two, 20, 'POST', '/api/cases/', 201, holder);
    exchanged(one, 40, 'PATCH', '/api/cases/1/', 200, holder);
    exchanged(two, 50, 'GET', '/api/cases/1/', 200, holder);
    const shown = (f: InvariantFindings) =>
      watchOutcomes('s', f)
        .find((o) => o.requirements[0] === 'CASE-ID-NOT-REUSED')!
        .evidence!.exchanges.map(
          (e) => `${e.request.method}${e.judged ? ' (judged)' : ''}${e.request.cleanup ? ' cleanup' : ''}`,
        );
    const made = two.take();
    expect(made.counts['CASE-ID-NOT-REUSED']).toBe(1);
    expect(shown(made)).toEqual(['POST', 'DELETE', 'POST (judged)']);
    // A script compares the id the creation answered with those of the cases it deleted before.
    expect(Object.values(made.expects!['CASE-ID-NOT-REUSED']!)).toEqual([{ newId: true }]);
    // The read that showed the holder rests on its creation too, which the worker that made it recorded.
    expect(shown(one.take())).toEqual(['POST', 'DELETE', 'POST', 'PATCH (judged)']);

    // A replay learns from its setup (judging nothing there), and judges what it judges against it.
    const replay = new InvariantWatcher(new Redactor(), base);
    const req = (method: string, path: string) => ({ method, url: `${base}${path}`, headers: {} });
    const res = (status: number, json?: unknown) => ({ status, headers: {}, text: JSON.stringify(json ?? ''), json });
    replay.learn(req('POST', '/api/cases/'), res(201, validCase()));
    replay.learn(req('DELETE', '/api/cases/1/'), res(204));
    replay.learn(req('GET', '/api/cases/1/'), res(200, validCase({ created_at: later, external_id: 'ext-9' })));
    expect(replay.peek().counts).toEqual({});
    expect(replay.peek().watched).toBe(0);
    replay.observe(req('POST', '/api/cases/'), res(201, holder));
    expect(replay.take().counts).toEqual({ 'CASE-ID-NOT-REUSED': 1 });
  });

  it("shares deletions between the run's workers through the shared folder, and keeps ids per organisation", () => {
    const dir = mkdtempSync(join(tmpdir(), 'screenconf-ids-'));
    const one = new InvariantWatcher(new Redactor(), base, dir);
    const two = new InvariantWatcher(new Redactor(), base, dir);
    send(one, 'POST', '/api/cases/', 201, validCase());
    send(one, 'DELETE', '/api/cases/1/', 204);
    two.observe(
      { method: 'GET', url: `${base}/api/cases/1/`, headers: {}, organisation: 'peer' },
      { status: 200, headers: {}, text: '', json: validCase({ created_at: later, external_id: 'other-org' }) },
    );
    expect(reuse(two).count).toBe(0); // the other organisation's case 1
    send(two, 'POST', '/api/cases/', 201, validCase({ created_at: later, external_id: 'ext-2', origin_url: 'ext-2' }));
    expect(reuse(two).count).toBe(1);
    expect(one.idReused('ours', 1)).toBe(true); // what the other worker saw
  });
});
