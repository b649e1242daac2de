/** Access tokens the reference server issued: whom each stands for, and until when. */
export interface IssuedToken {
  org: string;
  clientId: string;
  /** Epoch ms after which the token no longer opens anything. */
  expiresAt: number;
}

export class TokenStore {
  readonly #tokens = new Map<string, IssuedToken>();

  /** Records a token. */
  add(token: string, issued: IssuedToken) {
    this.#tokens.set(token, issued);
  }

  /** The token's record when it is known and live; an expired one is forgotten. */
  live(token: string, now = Date.now()): IssuedToken | undefined {
    const issued = this.#tokens.get(token);
    if (issued === undefined || issued.expiresAt > now) return issued;
    this.#tokens.delete(token);
    return undefined;
  }

  /** The token's record, live or expired (until revoked): for faults that forget to look at the expiry. */
  issued(token: string): IssuedToken | undefined {
    return this.#tokens.get(token);
  }

  /** The first live token `matches` accepts (for faults that compare tokens otherwise than whole). */
  find(matches: (token: string) => boolean, now = Date.now()): IssuedToken | undefined {
    for (const [token, issued] of this.#tokens) if (issued.expiresAt > now && matches(token)) return issued;
    return undefined;
  }

  /** Forgets every token of a client but `keep`. */
  revokeClient(clientId: string, keep?: string) {
    for (const [token, issued] of this.#tokens)
      if (issued.clientId === clientId && token !== keep) this.#tokens.delete(token);
  }
}
