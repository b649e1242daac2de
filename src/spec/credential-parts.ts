/**
 * Credentials made by the parts a credential is built of (issue 33 §7), for the credential dimension of the input
 * matrix (credential-matrix.ts): an API key with separators (`sk_…`, `<key id>.<secret>`) cut at them, each segment
 * alone or one changed; a JWT re-signed with the keys a client can derive from what it holds (its own client secret,
 * a digest of it, an empty key), with our claims or with the organisation and client claims of the peer's token, or
 * unsigned. An ordinary server breaks on these where a character changed does not show it: a key found by its key
 * id with the secret checked only when present, a prefix that is optional, a signature checked only when there is
 * one, a JWT library given a key the client knows.
 */
import { createHash, createHmac } from 'node:crypto';

/** Why a variation cannot be made from the credential at hand. */
export interface NotApplicable {
  notApplicable: string;
}

/** What a variation is made with besides its own credential. */
export interface VariationContext {
  /** A random credential no server issued (base64url of 32 random bytes). */
  random: string;
  /** The peer organisation's credential of the same kind, for the variations that splice two together. */
  peer?: string | undefined;
  /** Our client secret, for the JWTs re-signed with a key a client can derive from it. */
  clientSecret?: string | undefined;
}

/** The real credential a variation is made from. */
export type CredentialBase = 'access-token' | 'api-key';

/** How a never-issued credential is made from an issued one. */
export interface Derivation {
  name: string;
  description: string;
  /**
   * Whose records its request names: the peer organisation's for a credential that claims to be the peer's (a
   * server that takes the claim acts as the peer, and on our records would only find nothing); default ours.
   */
  records?: 'peer';
  /**
   * What it sends is no secret and may be shown in a report: a key's first segment (a prefix such as "sk" or "live",
   * or a key id), which a redaction would take out of every word that spells it.
   */
  shown?: true;
  derive(value: string, context: VariationContext): string | NotApplicable;
}

/** The three parts of a JWS compact serialisation whose header is a JSON object with an alg; undefined otherwise. */
export function jwtParts(value: string): [string, string, string] | undefined {
  const parts = value.split('.');
  if (parts.length !== 3 || !/^[\w-]+$/.test(parts[0]!) || !/^[\w-]+$/.test(parts[1]!)) return undefined;
  const header = decoded(parts[0]!);
  return typeof header?.alg === 'string' ? (parts as [string, string, string]) : undefined;
}

/** A base64url part decoded as a JSON object; undefined when it is not one. */
function decoded(part: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * A character replaced by another whose base64 value differs in its top bit: the text decodes to other bytes even
 * where it is the last character of a base64 text (whose low bits may be padding a lenient decoder ignores), and the
 * replacement is never the same letter in the other case. A character outside base64 becomes "x" (or "y").
 */
export function changed(ch: string): string {
  const standard = ch === '+' ? 62 : ch === '/' ? 63 : -1;
  const value = standard >= 0 ? standard : BASE64URL.indexOf(ch);
  if (value < 0) return ch === 'x' ? 'y' : 'x';
  return BASE64URL[value ^ 32]!;
}

const encoded = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

export const NOT_JWT: NotApplicable = { notApplicable: 'the credential is not a JWT (header.payload.signature)' };
const NO_PEER_JWT: NotApplicable = {
  notApplicable: 'no JWT of the peer organisation (give --peer-client-id) to take from',
};

/**
 * Our claims with those naming our client and organisation as the peer's token names its own: every text claim the
 * two payloads both hold and that differs (sub, org, a tenant or client id, jti); the times stay ours.
 */
function peerClaims(ours: string, peer: string | undefined): Record<string, unknown> | NotApplicable {
  const mine = jwtParts(ours);
  if (!mine) return NOT_JWT;
  const theirs = peer === undefined ? undefined : jwtParts(peer);
  if (!theirs) return NO_PEER_JWT;
  const [a, b] = [decoded(mine[1]), decoded(theirs[1])];
  if (!a || !b) return { notApplicable: "a JWT's payload is not a JSON object" };
  const claims = { ...a };
  let changed = 0;
  for (const [k, v] of Object.entries(b))
    if (typeof v === 'string' && typeof a[k] === 'string' && a[k] !== v) {
      claims[k] = v;
      changed++;
    }
  return changed ? claims : { notApplicable: "the peer's JWT names no client or organisation other than ours" };
}

/** Our claims, never issued so: a jti of our own (the same claims re-signed could be the token itself). */
function ownClaims(ours: string, context: VariationContext): Record<string, unknown> | NotApplicable {
  const mine = jwtParts(ours);
  const claims = mine && decoded(mine[1]);
  if (!claims) return NOT_JWT;
  return { ...claims, jti: `screenconf-${context.random.slice(0, 22)}` };
}

/** Claims signed HS256 with `key`, under our header with its alg HS256. */
function hs256(ours: string, claims: Record<string, unknown>, key: string): string {
  const header = { ...decoded(jwtParts(ours)![0]), alg: 'HS256' };
  const input = `${encoded(header)}.${encoded(claims)}`;
  return `${input}.${createHmac('sha256', key).update(input).digest('base64url')}`;
}

/** A key a client derives from its own client secret. */
interface ClientKey {
  name: string;
  words: string;
  key(secret: string): string;
}

const CLIENT_KEYS: readonly ClientKey[] = [
  { name: 'client-secret', words: 'our client secret', key: (s) => s },
  {
    name: 'secret-digest',
    words: 'the SHA-256 of our client secret in hexadecimal',
    key: (s) => createHash('sha256').update(s).digest('hex'),
  },
  { name: 'empty-key', words: 'an empty key', key: () => '' },
];

const isNot = (v: unknown): v is NotApplicable => typeof v === 'object' && v !== null && 'notApplicable' in v;

/** The variations of an access token that is a JWT: re-signed with keys a client knows, unsigned. */
export const JWT_DERIVATIONS: readonly Derivation[] = [
  {
    name: 'jwt-no-signature',
    description: 'a JWT with our header and payload and its signature removed ("header.payload.")',
    derive: (v) => {
      const ours = jwtParts(v);
      return ours ? `${ours[0]}.${ours[1]}.` : NOT_JWT;
    },
  },
  {
    name: 'jwt-client-secret',
    description: 'a JWT with our claims (a jti of its own) signed HS256 with our client secret',
    derive: (v, context) => {
      const claims = ownClaims(v, context);
      if (isNot(claims)) return claims;
      if (!context.clientSecret) return { notApplicable: 'no client secret is configured' };
      return hs256(v, claims, context.clientSecret);
    },
  },
  ...CLIENT_KEYS.map(
    (k): Derivation => ({
      name: `jwt-peer-${k.name}`,
      description: `a JWT with the peer organisation's client and organisation claims signed HS256 with ${k.words}`,
      records: 'peer',
      derive: (v, context) => {
        const claims = peerClaims(v, context.peer);
        if (isNot(claims)) return claims;
        if (context.clientSecret === undefined) return { notApplicable: 'no client secret is configured' };
        return hs256(v, claims, k.key(context.clientSecret));
      },
    }),
  ),
  {
    name: 'jwt-peer-alg-none',
    description: 'a JWT with the peer organisation\'s client and organisation claims, alg "none" and no signature',
    records: 'peer',
    derive: (v, context) => {
      const claims = peerClaims(v, context.peer);
      if (isNot(claims)) return claims;
      return `${encoded({ alg: 'none', typ: 'JWT' })}.${encoded(claims)}.`;
    },
  },
];

/** The separators an API key's parts are joined with (`sk_live_…`, `<key id>.<secret>`, `xoxb-…`). */
const SEPARATOR = /[._-]/;

/** Where a credential's first and last separators are; undefined without one. */
function separators(v: string): { first: number; last: number } | undefined {
  const first = v.search(SEPARATOR);
  if (first < 0) return undefined;
  let last = first;
  for (let i = v.length - 1; i > first; i--)
    if (SEPARATOR.test(v[i]!)) {
      last = i;
      break;
    }
  return { first, last };
}

const NO_SEPARATOR: NotApplicable = { notApplicable: 'the credential has no separator (".", "_" or "-")' };
const EMPTY: NotApplicable = { notApplicable: 'that segment is empty' };

/** The variations of an API key by its segments. */
export const SEGMENT_DERIVATIONS: readonly Derivation[] = (() => {
  // Every character another, never a separator (which would cut the segment in two).
  const other = (ch: string) => {
    const c = changed(ch);
    return SEPARATOR.test(c) ? (ch === 'x' ? 'y' : 'x') : c;
  };
  const all = (s: string) => [...s].map(other).join('');
  const at = (f: (v: string, s: { first: number; last: number }) => string | NotApplicable) => (v: string) => {
    const s = separators(v);
    return s ? f(v, s) : NO_SEPARATOR;
  };
  const nonEmpty = (x: string) => (x === '' ? EMPTY : x);
  return [
    {
      name: 'segment-first',
      description: 'what comes before its first separator, alone (a key id without its secret)',
      shown: true,
      derive: at((v, s) => nonEmpty(v.slice(0, s.first))),
    },
    {
      name: 'segment-rest',
      description: 'what follows its first separator, alone (a secret without its prefix or key id)',
      derive: at((v, s) => nonEmpty(v.slice(s.first + 1))),
    },
    {
      name: 'segment-last',
      description: 'what follows its last separator, alone (not sent where that is what follows its first)',
      derive: at((v, s) =>
        s.last === s.first ? { notApplicable: 'the credential has one separator' } : nonEmpty(v.slice(s.last + 1)),
      ),
    },
    {
      name: 'segment-first-changed',
      description: 'every character before its first separator changed (another key id, the same secret)',
      derive: at((v, s) => (s.first === 0 ? EMPTY : `${all(v.slice(0, s.first))}${v.slice(s.first)}`)),
    },
    {
      name: 'segment-last-changed',
      description: 'every character after its last separator changed (the same key id, another secret)',
      derive: at((v, s) => (s.last === v.length - 1 ? EMPTY : `${v.slice(0, s.last + 1)}${all(v.slice(s.last + 1))}`)),
    },
  ];
})();
