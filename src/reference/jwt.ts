/**
 * JWT-shaped access tokens (RFC 7519; JWS compact serialisation, RFC 7515; HS256), for the switches
 * that issue them: a legal choice of token format (the interface says only "access_token (string)").
 * HMAC-SHA256 from node:crypto: the reference needs signing and checking one algorithm with its own
 * key, a dozen lines, where a JOSE library would be a dependency for the reference alone.
 */
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { TenantCredentials } from './organisations.ts';
import type { IssuedToken } from './tokens.ts';

/** What a token's payload says. */
export interface JwtClaims {
  /** The client the token was issued to. */
  sub: string;
  /** The organisation it stands for. */
  org: string;
  iat: number;
  exp: number;
  jti: string;
}

const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** The header and payload of a JWT-shaped text, its signature unchecked; undefined when it has no such parts. */
export function decodeJwt(token: string): { header: Record<string, unknown>; claims: Partial<JwtClaims> } | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const [header, claims] = parts.slice(0, 2).map((p) => JSON.parse(Buffer.from(p, 'base64url').toString('utf8')));
    const isObject = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);
    return isObject(header) && isObject(claims) ? { header, claims } : undefined;
  } catch {
    return undefined;
  }
}

/** The token record a payload claims to be (organisation, client, expiry), when it names an organisation. */
export function claimedToken(
  claims: Partial<JwtClaims>,
  organisations: readonly TenantCredentials[],
): IssuedToken | undefined {
  const org = organisations.find((o) => o.name === claims.org && o.clientId === claims.sub);
  if (!org || typeof claims.exp !== 'number') return undefined;
  return { org: org.name, clientId: org.clientId, expiresAt: claims.exp * 1000 };
}

/** Signs and checks HS256 tokens with one key: by default a random one of the server's own. */
export class JwtSigner {
  readonly #key: Buffer | string;

  constructor(key: Buffer | string = randomBytes(32)) {
    this.#key = key;
  }

  #mac(signingInput: string): Buffer {
    return createHmac('sha256', this.#key).update(signingInput).digest();
  }

  /** A token for an organisation's client, living `ttlSeconds`. */
  issue(org: TenantCredentials, ttlSeconds: number): string {
    const iat = Math.floor(Date.now() / 1000);
    const claims: JwtClaims = { sub: org.clientId, org: org.name, iat, exp: iat + ttlSeconds, jti: randomUUID() };
    const input = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`;
    return `${input}.${this.#mac(input).toString('base64url')}`;
  }

  /** Whether a token carries this signer's HS256 signature over its header and payload, in canonical base64url. */
  verifies(token: string): boolean {
    const parts = token.split('.');
    if (parts.length !== 3 || decodeJwt(token)?.header.alg !== 'HS256') return false;
    const expected = this.#mac(`${parts[0]}.${parts[1]}`);
    const sent = Buffer.from(parts[2]!, 'base64url');
    // Canonical only: a signature text that decodes to the same bytes but is spelt otherwise is another token.
    return (
      sent.toString('base64url') === parts[2] && sent.length === expected.length && timingSafeEqual(sent, expected)
    );
  }
}
