/**
 * The credential dimension of the input matrix as data (spec/credential-matrix.ts): every variation crossed with its
 * endpoints, each cell judged by its owner (and, for a refusal, by AUTH-REFUSAL-NO-DATA); and each variation made
 * from a real credential is another credential, whatever a server decodes it as.
 */
import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  CREDENTIAL_VARIATIONS,
  type CredentialVariation,
  credentialCells,
  jwtParts,
  PROTECTED_ENDPOINTS,
  thinCells,
} from '../src/spec/credential-matrix.ts';
import { requirement } from '../src/spec/index.ts';

const token = randomBytes(32).toString('base64url');
const apiKey = `sk_${randomBytes(24).toString('base64url')}`;
const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const jwt = (org: string) =>
  `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: org, exp: 2e9 })}.${randomBytes(32).toString('base64url')}`;
const context = { random: randomBytes(32).toString('base64url'), peer: jwt('peer') };

/** The credential a variation's header carries, or why it is not sent. */
function made(v: CredentialVariation, value: string): string | undefined {
  const header = v.header(value, context);
  if (header === undefined || typeof header !== 'string') return undefined;
  return header.replace(/^\S+\s+/, '');
}

const derived = CREDENTIAL_VARIATIONS.filter((v) => v.from !== undefined && v.expect === 'refused' && !v.timed);

describe('the credential matrix', () => {
  it('crosses every variation with every endpoint it names, under stable, unique ids', () => {
    const cells = credentialCells();
    const expected = CREDENTIAL_VARIATIONS.reduce((n, v) => n + (v.endpoints?.length ?? PROTECTED_ENDPOINTS.length), 0);
    expect(cells).toHaveLength(expected);
    expect(new Set(cells.map((c) => c.id)).size).toBe(cells.length);
    expect(new Set(CREDENTIAL_VARIATIONS.map((v) => v.name)).size).toBe(CREDENTIAL_VARIATIONS.length);
    expect(cells.map((c) => c.id)).toContain('bulk-checks/header/Authorization/api-key.truncated');
  });

  it('judges each cell by its owner at its level, and every refusal by AUTH-REFUSAL-NO-DATA too', () => {
    for (const cell of credentialCells()) {
      const owner = cell.judgedBy[0]!;
      expect(owner.requirement).toBe(cell.variation.owner);
      expect(owner.level).toBe(requirement(cell.variation.owner).level);
      const noData = cell.judgedBy.some((j) => j.requirement === 'AUTH-REFUSAL-NO-DATA');
      expect(noData, cell.id).toBe(cell.variation.expect === 'refused');
    }
  });

  it.each([
    ['an opaque token', token],
    ['an API key', apiKey],
    ['a JWT', jwt('ours')],
  ])('makes from %s credentials that differ from it as text and as base64 bytes', (_kind, value) => {
    // Each dot-separated part decoded on its own, as a JWT's are.
    const bytes = (s: string) =>
      s
        .split('.')
        .map((p) => Buffer.from(p, 'base64url').toString('hex'))
        .join('.');
    for (const v of derived) {
      const other = made(v, value);
      if (other === undefined) continue;
      expect(other, v.name).not.toBe(value);
      expect(bytes(other), v.name).not.toBe(bytes(value));
    }
  });

  it('swaps the letter case only where the credential is not all hexadecimal digits and dashes', () => {
    const swapped = derived.find((v) => v.name === 'access-token.case-swapped')!;
    expect(made(swapped, token)).toBe(
      [...token].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join(''),
    );
    expect(swapped.header(randomUUID(), context)).toMatchObject({ notApplicable: expect.stringContaining('UUID') });
    expect(swapped.header(randomBytes(16).toString('hex'), context)).toHaveProperty('notApplicable');
  });

  it("splices a JWT's parts only where both credentials are JWTs", () => {
    const ours = jwt('ours');
    const [h, , s] = jwtParts(ours)!;
    const other = derived.find((v) => v.name === 'access-token.jwt-other-payload')!;
    expect(made(other, ours)).toBe(`${h}.${jwtParts(context.peer)![1]}.${s}`);
    expect(other.header(token, context)).toHaveProperty('notApplicable');
    expect(other.header(ours, { random: context.random })).toHaveProperty('notApplicable');
    const none = derived.find((v) => v.name === 'api-key.jwt-alg-none')!;
    const [header, payload, signature] = made(none, ours)!.split('.');
    expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toEqual({ alg: 'none', typ: 'JWT' });
    expect([payload, signature]).toEqual([jwtParts(ours)![1], '']);
    expect(jwtParts(token)).toBeUndefined();
  });

  it('cuts an API key at its separators: each segment alone, the first or the last changed whole', () => {
    const key = 'sk_live_AbC.dEf';
    const of = (name: string) => derived.find((v) => v.name === `api-key.${name}`)!;
    expect(made(of('segment-first'), key)).toBe('sk');
    expect(made(of('segment-rest'), key)).toBe('live_AbC.dEf');
    expect(made(of('segment-last'), key)).toBe('dEf');
    expect(made(of('segment-first-changed'), key)).toBe('ME_live_AbC.dEf');
    expect(made(of('segment-last-changed'), key)).toBe('sk_live_AbC.9kx');
    // One separator: what follows the last is what follows the first, sent once.
    expect(of('segment-last').header('sk_AbCdEf', context)).toHaveProperty('notApplicable');
    for (const name of ['segment-first', 'segment-rest', 'segment-first-changed', 'segment-last-changed'])
      expect(of(name).header('AbCdEfGh', context), name).toHaveProperty('notApplicable');
    // A key's first segment is no secret: a report may show it.
    expect(of('segment-first').shown).toBe(true);
    expect(of('segment-rest').shown).toBeUndefined();
  });

  it("re-signs a JWT with keys a client derives from its secret, with our claims or the peer's", () => {
    const claims = (org: string) => ({ sub: `client-${org}`, org, exp: 2e9, jti: `jti-${org}` });
    const signed = (c: object) =>
      `${part({ alg: 'HS256', typ: 'JWT' })}.${part(c)}.${randomBytes(32).toString('base64url')}`;
    const [ours, peer] = [signed(claims('ours')), signed(claims('peer'))];
    const secret = 'cs_our-client-secret';
    const c = { random: context.random, peer, clientSecret: secret };
    const of = (name: string) => derived.find((v) => v.name === `access-token.${name}`)!;
    const decode = (p: string) => JSON.parse(Buffer.from(p, 'base64url').toString());
    const verifies = (jwt: string, key: string) => {
      const [h, p, sig] = jwt.split('.');
      return createHmac('sha256', key).update(`${h}.${p}`).digest('base64url') === sig;
    };
    const keys: [string, string][] = [
      ['client-secret', secret],
      ['secret-digest', createHash('sha256').update(secret).digest('hex')],
      ['empty-key', ''],
    ];
    for (const [name, key] of keys) {
      const v = of(`jwt-peer-${name}`);
      expect(v.records, name).toBe('peer');
      const jwt = v.header(ours, c) as string;
      const [h, p] = jwt.replace(/^Bearer /, '').split('.');
      expect(decode(h!).alg).toBe('HS256');
      // The peer's client, organisation and jti; our times.
      expect(decode(p!)).toEqual({ ...claims('peer'), exp: 2e9 });
      expect(verifies(jwt.replace(/^Bearer /, ''), key), name).toBe(true);
      expect(v.header(ours, { random: c.random, peer })).toHaveProperty('notApplicable');
    }
    // Without our client secret, nothing to sign with.
    expect(made(of('jwt-client-secret'), ours)).toBeUndefined();
    const mine = of('jwt-client-secret').header(ours, c) as string;
    expect(verifies(mine.replace(/^Bearer /, ''), secret)).toBe(true);
    const payload = decode(mine.replace(/^Bearer /, '').split('.')[1]!);
    expect(payload).toMatchObject({ sub: 'client-ours', org: 'ours' });
    expect(payload.jti).not.toBe('jti-ours');
    const none = of('jwt-peer-alg-none').header(ours, c) as string;
    const [h, p, sig] = none.replace(/^Bearer /, '').split('.');
    expect([decode(h!).alg, decode(p!).org, sig]).toEqual(['none', 'peer', '']);
    expect(made(of('jwt-no-signature'), ours)).toBe(`${jwtParts(ours)![0]}.${jwtParts(ours)![1]}.`);
    // The peer's token names the same organisation: nothing to impersonate.
    expect(of('jwt-peer-alg-none').header(ours, { ...c, peer: ours })).toHaveProperty('notApplicable');
  });

  it('sends a valid credential followed by more text, judged by AUTH-CREDENTIAL-TRAILING-TEXT', () => {
    const trailing = CREDENTIAL_VARIATIONS.filter((v) => v.owner === 'AUTH-CREDENTIAL-TRAILING-TEXT');
    expect(trailing.map((v) => [v.name, v.header(token, context)])).toEqual([
      ['access-token.trailing-text', `Bearer ${token} x`],
      ['api-key.trailing-text', `Bearer ${token} x`],
    ]);
  });

  it('writes a valid credential with the scheme in lower case, or after two spaces', () => {
    const forms = CREDENTIAL_VARIATIONS.filter((v) => v.owner === 'AUTH-SCHEME-FORMS').map((v) =>
      v.header(token, context),
    );
    expect(forms).toEqual([`bearer ${token}`, `Bearer  ${token}`, `bearer ${token}`, `Bearer  ${token}`]);
  });

  it('thins the refusals to a budget (--credential-guesses): every kind once before any twice, every endpoint', () => {
    const refusals = credentialCells().filter((c) => c.variation.expect === 'refused' && !c.variation.timed);
    const kinds = new Set(refusals.map((c) => c.variation.name)).size;
    expect(thinCells(refusals, refusals.length + 5)).toEqual(refusals);
    expect(thinCells(refusals, 0)).toEqual([]);
    for (const budget of [1, 7, kinds, kinds + 9, 100]) {
      const kept = thinCells(refusals, budget);
      expect(kept).toHaveLength(budget);
      // In the plan's order, and deterministic.
      expect(kept).toEqual(refusals.filter((c) => kept.includes(c)));
      expect(thinCells(refusals, budget)).toEqual(kept);
      const perKind = new Map<string, number>();
      for (const c of kept) perKind.set(c.variation.name, (perKind.get(c.variation.name) ?? 0) + 1);
      const counts = [...perKind.values()];
      expect(Math.max(...counts) - Math.min(...(perKind.size === kinds ? counts : [0]))).toBeLessThanOrEqual(1);
      if (budget >= PROTECTED_ENDPOINTS.length)
        expect(new Set(kept.map((c) => c.endpoint))).toEqual(new Set(PROTECTED_ENDPOINTS.map((e) => e.name)));
    }
  });
});
