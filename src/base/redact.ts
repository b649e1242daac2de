/** Replaces known secrets in any text that leaves the harness (transcripts, reports, logs). */
export const REDACTED = '[REDACTED]';

// Values of secret-named JSON fields, for secrets the harness was never told (another
// organisation's token, say). A value holding a single quote is left to the exact-match pass,
// so the shell splices of curl reproductions ('"$VAR"') survive a second redaction.
const SECRET_FIELDS =
  /("(?:client_secret|access_token|refresh_token|api_key|password)"\s*:\s*")((?:[^"\\']|\\.)*)(")/gi;
const SECRET_FORM_FIELDS = /((?:^|&)(?:client_secret|access_token|refresh_token|api_key|password)=)([^&]*)/gi;

export class Redactor {
  readonly #secrets = new Set<string>();

  constructor(secrets: Iterable<string | undefined> = []) {
    for (const s of secrets) this.add(s);
  }

  /** Registers a secret; values under 4 characters are ignored (they would redact noise). */
  add(secret: string | undefined): this {
    if (secret && secret.length >= 4) {
      this.#secrets.add(secret);
      this.#secrets.add(encodeURIComponent(secret));
    }
    return this;
  }

  redact(text: string): string {
    let out = text.replace(SECRET_FIELDS, `$1${REDACTED}$3`).replace(SECRET_FORM_FIELDS, `$1${REDACTED}`);
    // Longest first, so a secret that contains another is replaced whole.
    for (const s of [...this.#secrets].sort((a, b) => b.length - a.length)) out = out.split(s).join(REDACTED);
    return out;
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
