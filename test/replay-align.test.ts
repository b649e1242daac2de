/**
 * How `screenconf replay` finds the run's setup steps among what a check sent again (runner/replay-align.ts): the
 * same requests in the same order with other ids, a block of them repeated or not, cases made elsewhere.
 */
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../src/results/exchange.ts';
import type { LoggedExchange } from '../src/results/exchange-log.ts';
import { type CheckLog, compareSetup, type EvidenceStep } from '../src/runner/replay-align.ts';

const RUN = 'http://run.example';
const REPLAY = 'http://replay.example';
let clock = 0;

/** One exchange: a creation answers `{"id": created}`; `sent`, the request's body. */
function ex(base: string, method: string, path: string, status: number, created?: number, sent?: string): Exchange {
  clock += 1;
  return {
    at: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, clock)).toISOString(),
    durationMs: 1,
    request: {
      method,
      url: `${base}${path}`,
      headers: {},
      credential: 'access-token',
      organisation: 'ours',
      ...(sent !== undefined ? { body: sent } : {}),
    },
    response: { status, headers: {}, body: created === undefined ? '{}' : `{"id":${created}}` },
  };
}

function log(exchanges: Exchange[], extra: Partial<LoggedExchange> = {}): LoggedExchange[] {
  return exchanges.map((exchange) => ({ stage: 'check', suite: 's', check: 'c', attempt: 1, ...extra, exchange }));
}

/** The evidence of a failure: `exchanges`, the last judged. */
function steps(...exchanges: Exchange[]): EvidenceStep[] {
  return exchanges.map((e, i) => ({ n: i + 1, exchange: i === exchanges.length - 1 ? { ...e, judged: true } : e }));
}

function checkLog(base: string, attempt: LoggedExchange[], elsewhere: LoggedExchange[] = []): CheckLog {
  return { baseUrl: base, attempt, all: [...elsewhere, ...attempt] };
}

describe('comparing the setup of a failure with its replay', () => {
  const created = ex(RUN, 'POST', '/api/cases/', 201, 5);
  const deleted = ex(RUN, 'DELETE', '/api/cases/5/', 204);
  const patched = ex(RUN, 'PATCH', '/api/cases/5/', 200);
  const run = checkLog(RUN, log([created, deleted, patched]));
  const evidence = steps(created, deleted, patched);

  it('finds every setup step answered as in the run, whatever the ids', () => {
    const replay = [ex(REPLAY, 'POST', '/api/cases/', 201, 9), ex(REPLAY, 'DELETE', '/api/cases/9/', 204)];
    const judgedNow = ex(REPLAY, 'PATCH', '/api/cases/9/', 404);
    expect(compareSetup(evidence, run, checkLog(REPLAY, log([...replay, judgedNow])))).toEqual({ kind: 'same' });
  });

  it('names the setup step that answered otherwise, with both statuses', () => {
    const replay = log([
      ex(REPLAY, 'POST', '/api/cases/', 201, 9),
      ex(REPLAY, 'DELETE', '/api/cases/9/', 200),
      ex(REPLAY, 'PATCH', '/api/cases/9/', 200),
    ]);
    expect(compareSetup(evidence, run, checkLog(REPLAY, replay))).toMatchObject({
      kind: 'status',
      step: { n: 2 },
      run: 204,
      replay: 200,
    });
  });

  // The fault answered an earlier probe 500, a fixed server answers it 404: both refused it, nothing changed.
  it('takes a step refused in the run and refused now as the same setup, whatever the statuses', () => {
    const probe = ex(RUN, 'PATCH', '/api/cases/999/', 500);
    const judged = ex(RUN, 'PATCH', '/api/cases/abc/', 500);
    const probed = checkLog(RUN, log([probe, judged]));
    const replay = (status: number) =>
      checkLog(
        REPLAY,
        log([ex(REPLAY, 'PATCH', '/api/cases/999/', status), ex(REPLAY, 'PATCH', '/api/cases/abc/', 404)]),
      );
    expect(compareSetup(steps(probe, judged), probed, replay(404))).toEqual({ kind: 'same' });
    // Taken now where the run's was refused: another setup.
    expect(compareSetup(steps(probe, judged), probed, replay(200))).toMatchObject({ kind: 'status', run: 500 });
  });

  it('tells a replay that stopped before a setup step from one that went on without it', () => {
    const stopped = log([ex(REPLAY, 'POST', '/api/cases/', 201, 9)]);
    expect(compareSetup(evidence, run, checkLog(REPLAY, stopped))).toMatchObject({ kind: 'stopped', step: { n: 2 } });
    const withoutIt = log([ex(REPLAY, 'POST', '/api/cases/', 201, 9), ex(REPLAY, 'PATCH', '/api/cases/9/', 200)]);
    const skipped = compareSetup(evidence, run, checkLog(REPLAY, withoutIt));
    expect(skipped).toMatchObject({ kind: 'skipped', step: { n: 2 } });
  });

  // The run's check stopped at the PATCH it failed on; the replay's went on to PATCH the same case again.
  it("pairs each step with the replay's first request of its kind, not a later one", () => {
    const setup = ex(RUN, 'PATCH', '/api/cases/5/', 200);
    const refusedNow = ex(RUN, 'PATCH', '/api/cases/5/', 200);
    const run = checkLog(RUN, log([created, setup, ex(RUN, 'GET', '/api/cases/5/', 200), refusedNow]));
    const replay = log([
      ex(REPLAY, 'POST', '/api/cases/', 201, 9),
      ex(REPLAY, 'PATCH', '/api/cases/9/', 200),
      ex(REPLAY, 'GET', '/api/cases/9/', 200),
      ex(REPLAY, 'PATCH', '/api/cases/9/', 400),
      ex(REPLAY, 'GET', '/api/cases/9/', 200),
      ex(REPLAY, 'PATCH', '/api/cases/9/', 200),
    ]);
    expect(compareSetup(steps(created, setup, refusedNow), run, checkLog(REPLAY, replay))).toEqual({ kind: 'same' });
  });

  // A case the check made in the run was made, in the replay, by another check of its file that ran before it: made
  // once the replay knew it (its creation in the log, compared), or before (by its external_id: not in sight).
  it('does not ask the replay to make again a case another check of the replay made', () => {
    const other = log([ex(REPLAY, 'POST', '/api/cases/', 201, 9)], { check: 'other' });
    const replay = log([ex(REPLAY, 'DELETE', '/api/cases/9/', 204), ex(REPLAY, 'PATCH', '/api/cases/9/', 404)]);
    expect(compareSetup(evidence, run, checkLog(REPLAY, replay, other))).toEqual({ kind: 'same' });
    expect(compareSetup(evidence, run, checkLog(REPLAY, replay))).toEqual({ kind: 'same' });
  });

  // A check that failed confirmed it on fresh cases (a second round); the replay that passes sends one round.
  it('aligns the round the evidence came from with the one round a passing replay sent', () => {
    const round = (base: string, id: number, patch: number) => [
      ex(base, 'POST', '/api/cases/', 201, id),
      ex(base, 'PATCH', `/api/cases/${id}/`, patch),
      ex(base, 'GET', `/api/cases/${id}/`, 200),
    ];
    const [first, second] = [round(RUN, 1, 200), round(RUN, 2, 200)];
    const confirmed = checkLog(RUN, log([...first, ...second]));
    const evidence = steps(...second);
    expect(compareSetup(evidence, confirmed, checkLog(REPLAY, log(round(REPLAY, 7, 200))))).toEqual({ kind: 'same' });
    const refused = compareSetup(evidence, confirmed, checkLog(REPLAY, log(round(REPLAY, 7, 409))));
    expect(refused).toMatchObject({ kind: 'status', step: { n: 2 }, run: 200, replay: 409 });
  });

  // Two cases made by another check; the check gives one a value, then sends it for the other (judged). The run's
  // attempt sent that twice (a property's run, then its counterexample alone): the PATCH of the holder is not the
  // PATCH of the other case, whose answer a correct server refuses.
  it('pairs requests on the same records: a PATCH of one case is not the PATCH of another', () => {
    const made = log([ex(RUN, 'POST', '/api/cases/', 201, 2), ex(RUN, 'POST', '/api/cases/', 201, 5)], {
      check: 'other',
    });
    const give = () => ex(RUN, 'PATCH', '/api/cases/2/', 200);
    const take = () => ex(RUN, 'PATCH', '/api/cases/5/', 200);
    const read = (id: number) => ex(RUN, 'GET', `/api/cases/${id}/`, 200);
    const [g2, r2, t2] = [give(), read(5), take()];
    const attempt = log([give(), read(5), take(), give(), read(2), g2, r2, t2, give(), read(2)]);
    const evidence = steps(made[0]!.exchange, made[1]!.exchange, g2, t2);
    const replay = log([
      ex(REPLAY, 'POST', '/api/cases/', 201, 11),
      ex(REPLAY, 'POST', '/api/cases/', 201, 12),
      ex(REPLAY, 'PATCH', '/api/cases/11/', 200),
      ex(REPLAY, 'GET', '/api/cases/12/', 200),
      ex(REPLAY, 'PATCH', '/api/cases/12/', 409),
      ex(REPLAY, 'GET', '/api/cases/11/', 200),
      ex(REPLAY, 'GET', '/api/cases/12/', 200),
    ]);
    expect(compareSetup(evidence, checkLog(RUN, attempt, made), checkLog(REPLAY, replay))).toEqual({ kind: 'same' });
  });

  // A property's counterexample runs twice in a failing attempt (its run, then alone: the evidence) and once in a
  // passing replay: the evidence's run is compared with the replay's first.
  it("compares the property's run the evidence came from with the replay's first", () => {
    const pass = (base: string, id: number, status: number, n: number) =>
      log(
        [
          ex(base, 'POST', '/api/cases/', 201, id),
          ex(base, 'PATCH', `/api/cases/${id}/`, status),
          ex(base, 'GET', `/api/cases/${id}/`, 200),
        ],
        { property: 'p', pass: n },
      );
    const second = pass(RUN, 2, 400, 2);
    const attempt = [...pass(RUN, 1, 400, 1), ...second];
    const evidence = steps(...second.map((l) => l.exchange));
    const replay = (status: number) => checkLog(REPLAY, [...pass(REPLAY, 8, status, 1)]);
    expect(compareSetup(evidence, checkLog(RUN, attempt), replay(400))).toEqual({ kind: 'same' });
    expect(compareSetup(evidence, checkLog(RUN, attempt), replay(200))).toMatchObject({
      kind: 'status',
      step: { n: 2 },
      run: 400,
      replay: 200,
    });
  });

  // The input matrix sends each case's inputs side by side: the run and its replay answer them in other orders.
  // Each case's own requests come in the same order (the case's inputs, round by round): aligned case by case.
  it('pairs the requests on one record in their order, whatever the order among concurrent records', () => {
    /** Case a's and case b's inputs, sent in `order` ("abba…": whose next input goes next). */
    const inputs = (base: string, [a, b]: [number, number], tag: string, order: string, taken = 200) => {
      const sent = {
        a: [
          [200, `{"note":"${tag}1"}`],
          [taken, '{"delete_after":12}'],
          [200, '{"delete_after":5}'],
        ],
        b: [
          [400, '{"webhook_url":true}'],
          [400, `{"external_id":"${tag}2"}`],
          [500, '{"delete_after":9223372036854775808}'],
        ],
      } as Record<'a' | 'b', [number, string][]>;
      const made = [ex(base, 'POST', '/api/cases/', 201, a), ex(base, 'POST', '/api/cases/', 201, b)];
      const next = { a: 0, b: 0 };
      const patches = [...order].map((who) => {
        const [status, body] = sent[who as 'a' | 'b'][next[who as 'a' | 'b']++]!;
        return ex(base, 'PATCH', `/api/cases/${who === 'a' ? a : b}/`, status, undefined, body);
      });
      return [...made, ...patches];
    };
    // The judged one last (case b's 5xx).
    const run = inputs(RUN, [2, 5], 'm1a2b3c', 'abbaab');
    const evidence = steps(...run);
    const replayOf = (taken: number) => checkLog(REPLAY, log(inputs(REPLAY, [7, 8], 'm9f8e7d', 'baabab', taken)));
    const logged = checkLog(RUN, log(run));
    expect(compareSetup(evidence, logged, replayOf(200))).toEqual({ kind: 'same' });
    // The same order on each record, and a status that differs: that step, named.
    const refused = compareSetup(evidence, logged, replayOf(400));
    expect(refused).toMatchObject({ kind: 'status', step: { n: 6 }, run: 200, replay: 400 });
  });

  // A check that confirms a refusal with the canonical form sends that request only after a refusal: on a server that
  // conforms now, the judged request is taken and the confirmation never sent. What follows a judged answer that
  // changed is the check's to send or not; before it, every setup step is still required.
  it('does not ask for what the check sends only after a judged answer the replay answered otherwise', () => {
    const made = ex(RUN, 'POST', '/api/cases/', 201, 26);
    const judged = { ...ex(RUN, 'PATCH', '/api/cases/26/', 401, undefined, '{"note":"lower"}'), judged: true };
    const confirmed = ex(RUN, 'PATCH', '/api/cases/26/', 200, undefined, '{"note":"canonical"}');
    const read = { ...ex(RUN, 'GET', '/api/cases/26/', 401), judged: true };
    const evidence = [made, judged, confirmed, read].map((exchange, i) => ({ n: i + 1, exchange }));
    const run = checkLog(RUN, log([made, judged, confirmed, read]));
    const replay = (status: number) => {
      const sent = [ex(REPLAY, 'POST', '/api/cases/', 201, 9), ex(REPLAY, 'PATCH', '/api/cases/9/', status)];
      return checkLog(REPLAY, log([...sent, ex(REPLAY, 'GET', '/api/cases/9/', status === 401 ? 401 : 200)]));
    };
    expect(compareSetup(evidence, run, replay(200))).toEqual({ kind: 'same' });
    // Refused again, yet not confirmed: that is another path than the run's.
    expect(compareSetup(evidence, run, replay(401))).toMatchObject({ kind: 'skipped', step: { n: 3 } });
  });
});
