/**
 * The credential dimension of the input matrix (issue 25): every Authorization header the auth suite sends in place
 * of a valid one, as data, crossed by code with every protected endpoint (credentialCells). Adding a variation or
 * an endpoint here adds its cells; the suite sends what this lists, and a cell it cannot send (the credential it is
 * made from is not configured, or is not a JWT; GET of a case the target does not serve; a token that cannot be
 * seen expire without a long wait) is not sent, with the reason.
 *
 * A variation is made from nothing (no header, a malformed or random one), or from a real credential: our access
 * token or our API key, as the run holds it when the cell is sent. The timed ones (expired, late, superseded) are
 * made from a token the suite gets itself, at a moment it chooses.
 */
import { requirement, type RequirementId } from './catalogue.ts';
import {
  changed,
  type CredentialBase,
  type Derivation,
  JWT_DERIVATIONS,
  jwtParts,
  NOT_JWT,
  type NotApplicable,
  SEGMENT_DERIVATIONS,
  type VariationContext,
} from './credential-parts.ts';
import type { Level } from './requirement.ts';

export { type CredentialBase, jwtParts, type NotApplicable, type VariationContext } from './credential-parts.ts';

/** The endpoints that need a credential (interface § Endpoints: "All require authentication"). */
export const PROTECTED_ENDPOINTS = [
  { name: 'patch', request: 'PATCH /api/cases/{id}/' },
  { name: 'delete', request: 'DELETE /api/cases/{id}/' },
  { name: 'bulk-cases', request: 'POST /api/cases/bulk-update/' },
  { name: 'bulk-customers', request: 'POST /api/customers/bulk-update/' },
  { name: 'bulk-checks', request: 'POST /api/checks/bulk-delete/' },
  // Not in the interface: a provisioning convention, sent only where the target answers it.
  { name: 'read', request: 'GET /api/cases/{id}/' },
] as const;
export type ProtectedEndpoint = (typeof PROTECTED_ENDPOINTS)[number]['name'];

/** What a conforming server does with each oracle's cells, as the matrix view words it. */
export const ORACLE_VERDICTS: Record<Oracle, 'reject' | 'none' | 'open' | 'observe'> = {
  'refused-unchanged': 'reject',
  'refusal-no-data': 'none',
  opens: 'open',
  observed: 'observe',
};

/** How a cell is judged: what the answer must be, and by which requirement. */
export type Oracle =
  /** A credential never issued (or no longer valid) opens nothing: a 4xx, and nothing changed (read back). */
  | 'refused-unchanged'
  /** A refusal's body shows none of the organisation's data. */
  | 'refusal-no-data'
  /** A credential that must open the endpoint: answered as with "Bearer <credential>". */
  | 'opens'
  /** Recorded, never judged. */
  | 'observed';

export interface CredentialVariation {
  /** Stable: the cell ids, reports and the matrix view name it. */
  name: string;
  /** How it is made, in a few words. */
  description: string;
  /** The credential it is made from; undefined: made from nothing. */
  from?: CredentialBase;
  /**
   * The Authorization header it sends, from the credential `value` (when `from` is set): undefined sends none.
   * Deterministic: the same value and context give the same header.
   */
  header(value: string, context: VariationContext): string | undefined | NotApplicable;
  /** The requirement that judges whether the endpoint opened. */
  owner: RequirementId;
  /** What the server must do with it. */
  expect: 'refused' | 'opens' | 'observed';
  /** Sent at a moment the suite chooses, on a token it got for this (not the one its requests go out with). */
  timed?: 'late' | 'expired' | 'superseded';
  /** The endpoints it is sent to, when not every one. */
  endpoints?: readonly ProtectedEndpoint[];
  /** Whose records its requests name: the peer's for a credential that claims to be the peer's; default ours. */
  records?: 'peer';
  /** What it sends is no secret (credential-parts.ts Derivation.shown): not redacted from reports. */
  shown?: true;
}

function changeAt(value: string, i: number): string {
  return `${value.slice(0, i)}${changed(value[i]!)}${value.slice(i + 1)}`;
}

/** The last character that is not base64 padding. */
function lastSignificant(value: string): number {
  const i = value.replace(/=+$/, '').length - 1;
  return i < 0 ? value.length - 1 : i;
}

const swapCase = (value: string) =>
  [...value].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');

const SHORT: NotApplicable = { notApplicable: 'the credential is shorter than 4 characters' };

const DERIVATIONS: readonly Derivation[] = [
  { name: 'char-first', description: 'its first character changed', derive: (v) => changeAt(v, 0) },
  {
    name: 'char-middle',
    description: 'its middle character changed',
    derive: (v) => changeAt(v, Math.floor(v.length / 2)),
  },
  {
    name: 'char-last',
    description: 'its last character changed (for a JWT: its signature altered)',
    derive: (v) => changeAt(v, lastSignificant(v)),
  },
  { name: 'truncated', description: 'its last character cut off', derive: (v) => v.slice(0, -1) },
  { name: 'prefix', description: 'its first half', derive: (v) => v.slice(0, Math.ceil(v.length / 2)) },
  { name: 'suffixed', description: 'with "AAAA" after it (a whole base64 quantum)', derive: (v) => `${v}AAAA` },
  {
    name: 'case-swapped',
    description: 'every letter in the other case (not for a credential of hexadecimal digits and dashes only)',
    derive: (v) =>
      /^[0-9a-f-]*$/i.test(v) || swapCase(v) === v
        ? { notApplicable: 'the credential is hexadecimal digits and dashes only (a UUID): its case may not matter' }
        : swapCase(v),
  },
  {
    name: 'jwt-other-payload',
    description: "a JWT with the peer organisation's payload between our header and signature",
    records: 'peer',
    derive: (v, context) => {
      const ours = jwtParts(v);
      if (!ours) return NOT_JWT;
      const theirs = context.peer === undefined ? undefined : jwtParts(context.peer);
      if (!theirs) return { notApplicable: 'no JWT of the peer organisation (give --peer-client-id) to take from' };
      return `${ours[0]}.${theirs[1]}.${ours[2]}`;
    },
  },
  {
    name: 'jwt-alg-none',
    description: 'a JWT with our payload, its header saying alg "none", and no signature',
    derive: (v) => {
      const ours = jwtParts(v);
      if (!ours) return NOT_JWT;
      return `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${ours[1]}.`;
    },
  },
];

/** The ways a valid credential may be sent that a server should take as "Bearer <credential>" (RFC 9110 §11). */
const SCHEME_FORMS: readonly { name: string; description: string; header: (value: string) => string }[] = [
  { name: 'scheme-lowercase', description: 'as "bearer <credential>"', header: (v) => `bearer ${v}` },
  { name: 'scheme-two-spaces', description: 'with two spaces after "Bearer"', header: (v) => `Bearer  ${v}` },
];

const BASES: readonly { base: CredentialBase; words: string }[] = [
  { base: 'access-token', words: 'our access token' },
  { base: 'api-key', words: 'our API key' },
];

const fixed = (
  name: string,
  description: string,
  owner: RequirementId,
  header: (context: VariationContext) => string | undefined,
): CredentialVariation => ({ name, description, owner, expect: 'refused', header: (_v, context) => header(context) });

/** A never-issued credential made from one of ours (`Bearer <derived>`), which AUTH-REQUIRED-WRONG judges. */
function derived(base: CredentialBase, words: string, d: Derivation): CredentialVariation {
  return {
    name: `${base}.${d.name}`,
    description: `${words}, ${d.description}`,
    from: base,
    owner: 'AUTH-REQUIRED-WRONG',
    expect: 'refused',
    ...(d.records ? { records: d.records } : {}),
    ...(d.shown ? { shown: d.shown } : {}),
    header: (v, context) => {
      if (v.length < 4) return SHORT;
      const made = d.derive(v, context);
      return typeof made === 'string' ? `Bearer ${made}` : made;
    },
  };
}

/** Every credential variation, in the order the suite sends them. */
export const CREDENTIAL_VARIATIONS: readonly CredentialVariation[] = [
  fixed('none', 'no Authorization header', 'AUTH-REQUIRED-MISSING', () => undefined),
  fixed(
    'malformed.scheme-only',
    'the scheme without a credential ("Bearer")',
    'AUTH-REQUIRED-MALFORMED',
    () => 'Bearer',
  ),
  fixed('malformed.empty', 'an empty credential ("Bearer ")', 'AUTH-REQUIRED-MALFORMED', () => 'Bearer '),
  fixed(
    'malformed.basic',
    'the Basic scheme',
    'AUTH-REQUIRED-MALFORMED',
    () => `Basic ${Buffer.from('user:password').toString('base64')}`,
  ),
  fixed(
    'malformed.two-credentials',
    'two credentials ("Bearer abc def")',
    'AUTH-REQUIRED-MALFORMED',
    () => 'Bearer abc def',
  ),
  fixed('malformed.no-scheme', 'a credential without a scheme', 'AUTH-REQUIRED-MALFORMED', (c) => c.random),
  fixed('unknown.bearer', 'an unknown bearer token', 'AUTH-REQUIRED-WRONG', (c) => `Bearer ${c.random}`),
  fixed(
    'unknown.token-scheme',
    'an unknown API key in the Token scheme',
    'AUTH-REQUIRED-WRONG',
    (c) => `Token ${c.random}`,
  ),
  ...BASES.flatMap(({ base, words }) => DERIVATIONS.map((d) => derived(base, words, d))),
  ...SEGMENT_DERIVATIONS.map((d) => derived('api-key', 'our API key', d)),
  ...JWT_DERIVATIONS.map((d) => derived('access-token', 'our access token', d)),
  ...BASES.map(
    ({ base, words }): CredentialVariation => ({
      name: `${base}.trailing-text`,
      description: `${words} followed by a space and more text ("Bearer <credential> x")`,
      from: base,
      owner: 'AUTH-CREDENTIAL-TRAILING-TEXT',
      expect: 'refused',
      header: (v) => `Bearer ${v} x`,
    }),
  ),
  ...BASES.flatMap(({ base, words }) =>
    SCHEME_FORMS.map(
      (f): CredentialVariation => ({
        name: `${base}.${f.name}`,
        description: `${words} ${f.description}`,
        from: base,
        owner: 'AUTH-SCHEME-FORMS',
        expect: 'opens',
        header: f.header,
      }),
    ),
  ),
  {
    name: 'access-token.superseded',
    description: 'a token of ours used after a newer one was issued to our client',
    from: 'access-token',
    owner: 'AUTH-TOKEN-SUPERSEDED',
    expect: 'observed',
    timed: 'superseded',
    endpoints: ['patch'],
    header: (v) => `Bearer ${v}`,
  },
  {
    name: 'access-token.late',
    description: 'a token of ours used again at the end of the auth suite, within its stated lifetime',
    from: 'access-token',
    owner: 'AUTH-TOKEN-LIFETIME',
    expect: 'opens',
    timed: 'late',
    endpoints: ['patch'],
    header: (v) => `Bearer ${v}`,
  },
  {
    name: 'access-token.expired',
    description: 'a token of ours used 1 s after the lifetime its expires_in states',
    from: 'access-token',
    owner: 'AUTH-TOKEN-EXPIRED',
    expect: 'refused',
    timed: 'expired',
    header: (v) => `Bearer ${v}`,
  },
];

/** One cell of the matrix: a variation sent to one endpoint, and the requirements that judge the answer. */
export interface CredentialCell {
  /**
   * `<endpoint>/header/Authorization/<variation>` (`bulk-cases/header/Authorization/api-key.truncated`), as the
   * input matrix names a cell (way in / encoding / field / kind of value): stable.
   */
  id: string;
  variation: CredentialVariation;
  endpoint: ProtectedEndpoint;
  /** Each oracle that judges the cell, with its requirement and level. */
  judgedBy: { oracle: Oracle; requirement: RequirementId; level: Level }[];
}

/** The oracles that judge a variation's answers. */
function oraclesOf(v: CredentialVariation): CredentialCell['judgedBy'] {
  const owner = { requirement: v.owner, level: requirement(v.owner).level };
  if (v.expect === 'opens') return [{ oracle: 'opens', ...owner }];
  if (v.expect === 'observed') return [{ oracle: 'observed', ...owner }];
  const noData: RequirementId = 'AUTH-REFUSAL-NO-DATA';
  return [
    { oracle: 'refused-unchanged', ...owner },
    { oracle: 'refusal-no-data', requirement: noData, level: requirement(noData).level },
  ];
}

/** Every cell of the credential dimension: each variation crossed with each endpoint it is sent to. */
export function credentialCells(variations: readonly CredentialVariation[] = CREDENTIAL_VARIATIONS): CredentialCell[] {
  return variations.flatMap((variation) =>
    (variation.endpoints ?? PROTECTED_ENDPOINTS.map((e) => e.name)).map((endpoint) => ({
      id: `${endpoint}/header/Authorization/${variation.name}`,
      variation,
      endpoint,
      judgedBy: oraclesOf(variation),
    })),
  );
}

/** The variations a requirement owns. */
export function variationsOwnedBy(owner: RequirementId): CredentialVariation[] {
  return CREDENTIAL_VARIATIONS.filter((v) => v.owner === owner);
}

/**
 * The cells kept within a budget of `budget` requests (--credential-guesses), spread so that every variation is sent
 * once before any is sent twice, each on an endpoint of its own turn (the endpoints turn from one variation to the
 * next and from one round to the next): a small budget still tries every kind of credential, and every endpoint.
 * Keeps the cells' order.
 */
export function thinCells<C extends { variation: { name: string } }>(cells: readonly C[], budget: number): C[] {
  if (budget >= cells.length) return [...cells];
  const byVariation = new Map<string, C[]>();
  for (const c of cells) byVariation.set(c.variation.name, [...(byVariation.get(c.variation.name) ?? []), c]);
  const groups = [...byVariation.values()];
  const kept = new Set<C>();
  for (let round = 0; kept.size < budget; round++) {
    const before = kept.size;
    groups.forEach((group, v) => {
      if (kept.size < budget && round < group.length) kept.add(group[(v + round) % group.length]!);
    });
    if (kept.size === before) break;
  }
  return cells.filter((c) => kept.has(c));
}
