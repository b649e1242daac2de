/**
 * The run's token renewals (issue 33 §9): the client records each with the refused token's issue and stated
 * lifetime and the new answer (client/api.ts, client/auth.ts), and the record is judged: only a token refused well
 * inside its stated lifetime, while the newest of its client, with the new token taken and away from the near
 * misses, is evidence against AUTH-TOKEN-LIFETIME (results/token-renewals.ts, runner/token-renewals.ts).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Redactor } from '../src/base/redact.ts';
import { ApiClient } from '../src/client/api.ts';
import { TokenSource } from '../src/client/auth.ts';
import { Transport } from '../src/client/transport.ts';
import type { LoggedExchange } from '../src/results/exchange-log.ts';
import {
  judgeRenewals,
  RENEWALS_CHECK,
  type RenewalLine,
  RenewalLineSchema,
  tokenRequests,
} from '../src/results/token-renewals.ts';
import { judgeRunRenewals } from '../src/runner/token-renewals.ts';

const OURS = '3f8a4c1e-2b7d-4e9f-a1c3-5d6e7f8a9b0c';
const PEER = '9d1b2c3e-4f5a-4b6c-8d7e-0f1a2b3c4d5e';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

describe('the record of a renewal', () => {
  it('holds the refused exchange, the token request that issued the token (expires_in), the new answer', async () => {
    // The first token opens one request, then is refused; the second opens everything.
    let issued = 0;
    const used = new Map<string, number>();
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (req.url === '/api/oauth/token/') {
          issued += 1;
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ access_token: `token-${issued}-abcdef`, token_type: 'Bearer', expires_in: 3600 }));
          return;
        }
        const token = req.headers.authorization?.replace('Bearer ', '') ?? '';
        used.set(token, (used.get(token) ?? 0) + 1);
        const refused = token === 'token-1-abcdef' && used.get(token)! > 1;
        res.writeHead(refused ? 401 : 200, { 'content-type': 'application/json' });
        res.end('{}');
      });
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const log = join(mkdtempSync(join(tmpdir(), 'screenconf-renewals-')), 'token-renewals.jsonl');
    const transport = new Transport({ timeoutMs: 2000, maxResponseBytes: 4096, tokenRenewalLog: log }, new Redactor());
    const tokens = new TokenSource(url, { clientId: OURS, clientSecret: 'secret-1' }, transport);
    const api = new ApiClient({ baseUrl: url, transport, tokens, organisation: 'ours' });
    expect((await api.patchCase(1, {})).status).toBe(200);
    expect((await api.patchCase(1, {})).status).toBe(200);
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    const line = RenewalLineSchema.parse(JSON.parse(lines[0]!));
    expect(line).toMatchObject({ method: 'PATCH', status: 401, organisation: 'ours', retry: 200 });
    expect(line.token?.expiresIn).toBe(3600);
    expect(Date.parse(line.refused!.at)).toBeGreaterThanOrEqual(Date.parse(line.token!.at));
  });
});

const at = (ms: number) => new Date(Date.UTC(2030, 0, 1) + ms).toISOString();

/** A renewal of our token issued at 0 (expires_in `stated`) and refused at `refusedAt` ms. */
function renewal(refusedAt: number, extra: Partial<RenewalLine> = {}, stated: unknown = 3600): RenewalLine {
  return {
    at: at(refusedAt + 5),
    method: 'PATCH',
    url: 'http://127.0.0.1:1/api/cases/5/',
    status: 401,
    organisation: 'ours',
    refused: { at: at(refusedAt), ms: 3 },
    token: { at: at(0), ms: 4, expiresIn: stated },
    retry: 200,
    suite: 'case-patch',
    check: 'PATCH > a partial update',
    ...extra,
  };
}

/** A token request of the exchange log, sent at `ms`, naming `clientId`. */
function tokenRequest(ms: number, clientId: string | undefined, status = 200, form = false): LoggedExchange {
  const body = clientId === undefined ? '{}' : form ? `client_id=${clientId}` : JSON.stringify({ client_id: clientId });
  return {
    stage: 'check',
    suite: 'token',
    check: 'token endpoint > a token',
    exchange: {
      at: at(ms),
      durationMs: 4,
      request: { method: 'POST', url: 'http://127.0.0.1:1/api/oauth/token/', headers: {}, body },
      response: { status, headers: {}, body: '{}' },
    },
  };
}

describe('judging the renewals', () => {
  const clients = { ours: OURS, peer: PEER };
  const judged = (line: RenewalLine, log: LoggedExchange[] = [tokenRequest(0, OURS)]) =>
    judgeRenewals([line], tokenRequests(log), clients)[0]!;

  it('takes a token refused well inside its stated lifetime, while the newest of its client, as evidence', () => {
    expect(judged(renewal(4000))).toMatchObject({
      cause: 'inside-lifetime',
      tokenAgeMs: 4003,
      expiresIn: 3600,
      retryStatus: 200,
      request: 'PATCH /api/cases/5/',
      check: 'case-patch › PATCH > a partial update',
    });
  });

  it('leaves a token that a newer one of its client may have revoked: any request naming it, or no client', () => {
    for (const other of [tokenRequest(2000, OURS), tokenRequest(2000, OURS, 200, true), tokenRequest(2000, undefined)])
      expect(judged(renewal(4000), [tokenRequest(0, OURS), other]).cause).toBe('superseded');
    // Under way when the token was issued: it may have been issued after.
    expect(judged(renewal(4000), [tokenRequest(-2, OURS), tokenRequest(0, OURS)]).cause).toBe('superseded');
  });

  it("does not take the peer's token requests, a refused one, or one after the refusal for a newer token", () => {
    const log = [
      tokenRequest(0, OURS),
      tokenRequest(2000, PEER),
      tokenRequest(2500, OURS, 401),
      tokenRequest(5000, OURS),
    ];
    expect(judged(renewal(4000), log).cause).toBe('inside-lifetime');
  });

  it('leaves refusals near or past the stated lifetime, without one, or not recorded', () => {
    expect(judged(renewal(3_300_000)).cause).toBe('lifetime-ending');
    expect(judged(renewal(4100, {}, 5)).cause).toBe('lifetime-ending');
    expect(judged(renewal(3000, {}, 5)).cause).toBe('inside-lifetime');
    expect(judged(renewal(4000, {}, '3600')).cause).toBe('no-stated-lifetime');
    const { token: _token, ...untracked } = renewal(4000);
    expect(judged(untracked).cause).toBe('not-recorded');
    expect(judgeRenewals([renewal(4000)], undefined, clients)[0]!.cause).toBe('not-recorded');
  });

  it('leaves a refusal whose new token was refused too, and those among the near misses', () => {
    expect(judged(renewal(4000, { retry: 401 })).cause).toBe('refused-again');
    expect(judged(renewal(4000, { suite: 'auth-guesses' })).cause).toBe('near-misses');
  });
});

describe("the run's outcome of AUTH-TOKEN-LIFETIME from its renewals", () => {
  const files = (lines: RenewalLine[], log: LoggedExchange[]) => {
    const dir = mkdtempSync(join(tmpdir(), 'screenconf-renewals-'));
    const [renewals, exchanges] = [join(dir, 'token-renewals.jsonl'), join(dir, 'exchanges.jsonl')];
    writeFileSync(renewals, lines.map((l) => JSON.stringify(l)).join('\n'));
    writeFileSync(exchanges, log.map((l) => JSON.stringify(l)).join('\n'));
    return [renewals, exchanges] as const;
  };
  const clients = { ours: OURS, peer: PEER };

  it('fails it with the first token refused inside its lifetime, in the suite of its request', () => {
    const [r, e] = files([renewal(4000), renewal(5000)], [tokenRequest(0, OURS)]);
    const { renewals, outcome } = judgeRunRenewals(r, e, clients);
    expect(renewals.map((x) => x.cause)).toEqual(['inside-lifetime', 'inside-lifetime']);
    expect(outcome).toMatchObject({ name: RENEWALS_CHECK, suite: 'case-patch', state: 'failed' });
    expect(outcome?.requirements).toEqual(['AUTH-TOKEN-LIFETIME']);
    expect(outcome?.failure?.message).toMatch(/^PATCH \/api\/cases\/5\/ with our access token: expected/);
    expect(outcome?.failure?.received).toContain('and 1 more');
  });

  it('skips it with the causes where every renewal is explained, and gives none without renewals', () => {
    const [r, e] = files([renewal(4000)], [tokenRequest(0, OURS), tokenRequest(1000, OURS)]);
    const { renewals, outcome } = judgeRunRenewals(r, e, clients);
    expect(renewals.map((x) => x.cause)).toEqual(['superseded']);
    expect(outcome).toMatchObject({ state: 'skipped', skipReason: expect.stringContaining('1 superseded') });
    expect(judgeRunRenewals(join(tmpdir(), 'none.jsonl'), e, clients)).toEqual({ renewals: [] });
  });
});
