/**
 * The token request's fields crossed with the kinds of value a client may send (interface § Endpoints ›
 * POST /api/oauth/token/): the real client's id and secret in every spelling a lenient parser or a loose
 * comparison takes for them, other JSON types, operator objects a document store reads as a query, and
 * tokens JSON does not have. Each kind is the whole body, as raw JSON text, from the real credentials.
 */

/** The credentials a token request is built from. */
export interface TokenParts {
  clientId: string;
  secret: string;
}

/** issue: the exact credentials; refuse: a token must not be issued (4xx); open: either (a spelling of the same id). */
export type TokenVerdict = 'issue' | 'refuse' | 'open';

export interface TokenKind {
  /** `client_secret/prefix`, `grant_type/upper-case`… */
  readonly kind: string;
  readonly field: 'client_id' | 'client_secret' | 'grant_type';
  readonly body: (c: TokenParts) => string;
  readonly verdict: TokenVerdict;
}

const q = (v: unknown) => JSON.stringify(v);

/** The body with one field's raw JSON replaced (`undefined`: the field left out). */
function body(c: TokenParts, field: TokenKind['field'], raw: string | undefined): string {
  const fields: Record<TokenKind['field'], string> = {
    client_id: q(c.clientId),
    client_secret: q(c.secret),
    grant_type: q('client_credentials'),
  };
  const parts = (Object.keys(fields) as TokenKind['field'][])
    .map((k) => (k === field ? (raw === undefined ? undefined : `"${k}":${raw}`) : `"${k}":${fields[k]}`))
    .filter((p) => p !== undefined);
  return `{${parts.join(',')}}`;
}

const flipCase = (s: string) =>
  [...s].map((ch) => (ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase())).join('');

type Spelling = [kind: string, raw: (c: TokenParts) => string | undefined, verdict: TokenVerdict];

/** The secret: only itself opens; no prefix, suffix, case, type or query operator stands for it. */
const SECRET: Spelling[] = [
  ['prefix', (c) => q(c.secret.slice(0, -1)), 'refuse'],
  ['first-half', (c) => q(c.secret.slice(0, Math.ceil(c.secret.length / 2))), 'refuse'],
  ['suffix', (c) => q(`${c.secret}x`), 'refuse'],
  ['first-changed', (c) => q(changed(c.secret, 0)), 'refuse'],
  ['last-changed', (c) => q(changed(c.secret, c.secret.length - 1)), 'refuse'],
  ['case-flipped', (c) => q(flipCase(c.secret)), 'refuse'],
  ['nul-suffix', (c) => q(`${c.secret}\u0000x`), 'refuse'],
  ['empty', () => '""', 'refuse'],
  ['null', () => 'null', 'refuse'],
  ['number', () => '0', 'refuse'],
  ['boolean', () => 'true', 'refuse'],
  ['array', (c) => `[${q(c.secret)}]`, 'refuse'],
  ['operator-ne', () => '{"$ne":""}', 'refuse'],
  ['operator-gt', () => '{"$gt":""}', 'refuse'],
  ['missing', () => undefined, 'refuse'],
];

/** The client id: a UUID (case-insensitive by RFC 9562), so its other spellings are open; anything else refused. */
const CLIENT_ID: Spelling[] = [
  ['upper-case', (c) => q(c.clientId.toUpperCase()), 'open'],
  ['braces', (c) => q(`{${c.clientId}}`), 'open'],
  ['no-hyphens', (c) => q(c.clientId.replace(/-/g, '')), 'open'],
  ['padded', (c) => q(` ${c.clientId} `), 'open'],
  ['prefix', (c) => q(c.clientId.slice(0, -1)), 'refuse'],
  ['suffix', (c) => q(`${c.clientId}0`), 'refuse'],
  ['nul-suffix', (c) => q(`${c.clientId}\u0000`), 'refuse'],
  ['array', (c) => `[${q(c.clientId)}]`, 'refuse'],
  ['operator-ne', () => '{"$ne":""}', 'refuse'],
  ['number', () => '1', 'refuse'],
  ['null', () => 'null', 'refuse'],
];

/** The grant type: only client_credentials. */
const GRANT_TYPE: Spelling[] = [
  ['exact', () => q('client_credentials'), 'issue'],
  ['upper-case', () => q('CLIENT_CREDENTIALS'), 'open'],
  ['padded', () => q(' client_credentials'), 'open'],
  ['nul-suffix', () => q('client_credentials\u0000'), 'refuse'],
  ['array', () => q(['client_credentials']), 'refuse'],
  ['other-grant', () => q('password'), 'refuse'],
  ['empty', () => '""', 'refuse'],
  ['null', () => 'null', 'refuse'],
  ['number', () => '1', 'refuse'],
];

function changed(s: string, at: number): string {
  const ch = s[at]!;
  const other = ch === 'a' ? 'b' : ch === 'A' ? 'B' : ch === '0' ? '1' : 'a';
  return s.slice(0, at) + other + s.slice(at + 1);
}

function kinds(field: TokenKind['field'], list: Spelling[]): TokenKind[] {
  return list.map(([kind, raw, verdict]) => ({
    kind: `${field}/${kind}`,
    field,
    body: (c: TokenParts) => body(c, field, raw(c)),
    verdict,
  }));
}

/** Every token request cell. */
export const TOKEN_KINDS: readonly TokenKind[] = [
  ...kinds('client_secret', SECRET),
  ...kinds('client_id', CLIENT_ID),
  ...kinds('grant_type', GRANT_TYPE),
];
