/** Replaces known secrets in any text that leaves the harness (transcripts, reports, logs). */
export const REDACTED = '[REDACTED]';

// Values of secret-named JSON fields, for secrets the harness was never told (another
// organisation's token, say). A value holding a single quote is left to the exact-match pass,
// so the shell splices of curl reproductions ('"$VAR"') survive a second redaction.
const SECRET_FIELDS =
  /("(?:client_secret|access_token|refresh_token|api_key|password)"\s*:\s*")((?:[^"\\']|\\.)*)(")/gi;
const SECRET_FORM_FIELDS = /((?:^|&)(?:client_secret|access_token|refresh_token|api_key|password)=)([^&]*)/gi;

/** A secret as a literal in a regular expression. */
function literal(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export class Redactor {
  readonly #secrets = new Set<string>();
  /** Every secret in one expression, longest first (one that contains another is replaced whole); built on demand. */
  #pattern: RegExp | null | undefined;

  constructor(secrets: Iterable<string | undefined> = []) {
    for (const s of secrets) this.add(s);
  }

  /** Registers a secret; values under 4 characters are ignored (they would redact noise). */
  add(secret: string | undefined): this {
    if (secret && secret.length >= 4 && !this.#secrets.has(secret)) {
      this.#secrets.add(secret);
      this.#secrets.add(encodeURIComponent(secret));
      this.#pattern = undefined;
    }
    return this;
  }

  redact(text: string): string {
    const out = text.replace(SECRET_FIELDS, `$1${REDACTED}$3`).replace(SECRET_FORM_FIELDS, `$1${REDACTED}`);
    const pattern = this.#compiled();
    return pattern ? out.replace(pattern, REDACTED) : out;
  }

  #compiled(): RegExp | null {
    if (this.#pattern !== undefined) return this.#pattern;
    const secrets = [...this.#secrets].sort((a, b) => b.length - a.length);
    this.#pattern = secrets.length ? new RegExp(secrets.map(literal).join('|'), 'g') : null;
    return this.#pattern;
  }

  redactHeaders(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) {
      const lower = k.toLowerCase();
      if (lower === 'authorization' || lower === 'proxy-authorization') {
        const scheme = /^(\S+)\s/.exec(v)?.[1];
        out[k] = scheme ? `${scheme} ${REDACTED}` : REDACTED;
      } else if (lower === 'cookie' || lower === 'set-cookie') {
        out[k] = REDACTED;
      } else {
        out[k] = this.redact(v);
      }
    }
    return out;
  }
}
