/** Replaces known secrets in any text that leaves the harness (transcripts, reports, logs). */
export const REDACTED = '[REDACTED]';

// Values of secret-named JSON fields, for secrets the harness was never told (another
// organisation's token, say). A value holding a single quote is left to the exact-match pass,
// so the shell splices of curl reproductions ('"$VAR"') survive a second redaction.
const SECRET_FIELDS =
  /("(?:client_secret|access_token|refresh_token|api_key|password)"\s*:\s*")((?:[^"\\']|\\.)*)(")/gi;
const SECRET_FORM_FIELDS = /((?:^|&)(?:client_secret|access_token|refresh_token|api_key|password)=)([^&]*)/gi;
/**
 * What the two patterns above need somewhere in a text to match at all: a field name, in any case of its ASCII
 * letters (as their `i` flag reads it), spelt out so the expression it joins needs no `i` flag itself.
 */
const SECRET_FIELD_NAMES = ['client_secret', 'access_token', 'refresh_token', 'api_key', 'password']
  .map((name) => name.replace(/[a-z]/g, (c) => `[${c}${c.toUpperCase()}]`))
  .join('|');

/** A secret as a literal in a regular expression. */
function literal(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export class Redactor {
  readonly #secrets = new Set<string>();
  /** Every secret in one expression, longest first (one that contains another is replaced whole); built on demand. */
  #pattern: RegExp | null | undefined;
  /**
   * Whether a text may need redacting at all: it holds a secret field's name or a secret, found in one scan. Most
   * texts hold neither and are returned as they are. (Secrets are matched in their own case only: V8's `i` flag
   * misses some non-ASCII secrets in an alternation: /sa|sb|ſe/i does not match "ſe".)
   */
  #suspect: RegExp | undefined;

  constructor(secrets: Iterable<string | undefined> = []) {
    for (const s of secrets) this.add(s);
  }

  /** Registers a secret; values under 4 characters are ignored (they would redact noise). */
  add(secret: string | undefined): this {
    if (secret && secret.length >= 4 && !this.#secrets.has(secret)) {
      this.#secrets.add(secret);
      this.#secrets.add(encodeURIComponent(secret));
      this.#pattern = undefined;
      this.#suspect = undefined;
    }
    return this;
  }

  redact(text: string): string {
    return this.#mayHold(text) ? this.#redact(text) : text;
  }

  #mayHold(text: string): boolean {
    this.#suspect ??= new RegExp([SECRET_FIELD_NAMES, ...[...this.#secrets].map(literal)].join('|'));
    return this.#suspect.test(text);
  }

  #redact(text: string): string {
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
    // The other values in one text, scanned once: when it holds nothing to redact, no value does.
    let values = '';
    for (const k of Object.keys(headers)) {
      const v = headers[k]!;
      const lower = k.toLowerCase();
      if (HIDDEN_HEADERS.has(lower)) out[k] = hiddenValue(lower, v);
      else {
        out[k] = v;
        values += `${v}\n`;
      }
    }
    return values !== '' && this.#mayHold(values) ? this.#redactEachHeader(headers) : out;
  }

  #redactEachHeader(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) {
      const lower = k.toLowerCase();
      out[k] = HIDDEN_HEADERS.has(lower) ? hiddenValue(lower, v) : this.#redact(v);
    }
    return out;
  }
}

/** Headers whose value is a credential, whatever it holds: never recorded. */
const HIDDEN_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

/** A credential header's value as recorded: an Authorization header keeps its scheme. */
function hiddenValue(lower: string, value: string): string {
  if (lower === 'authorization' || lower === 'proxy-authorization') {
    // The scheme and the blanks after it as sent ("bearer  " stays so): only the credential is hidden.
    const scheme = /^\S+\s+/.exec(value)?.[0];
    return scheme ? `${scheme}${REDACTED}` : REDACTED;
  }
  return REDACTED;
}
