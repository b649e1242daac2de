/**
 * Server identification headers seen in a target's responses (Server, X-Powered-By, Via, …),
 * for the report's target section: an auditor files which software answered. The values are
 * server-controlled text: each is capped, and so is the number of distinct values.
 */

/** Header (lower case, as received) → the name the report shows. */
export const SERVER_HEADERS: Record<string, string> = {
  server: 'Server',
  'x-powered-by': 'X-Powered-By',
  via: 'Via',
  'x-aspnet-version': 'X-AspNet-Version',
  'x-aspnetmvc-version': 'X-AspNetMvc-Version',
  'x-generator': 'X-Generator',
};

const MAX_VALUES = 10;
const MAX_CHARS = 200;

export class ServerHeaders {
  readonly #seen = new Map<string, Set<string>>();

  /** Notes the identification headers of one response (header names in any case). */
  observe(headers: Record<string, string> | undefined): void {
    if (!headers) return;
    for (const [name, value] of Object.entries(headers)) {
      const shown = SERVER_HEADERS[name.toLowerCase()];
      if (!shown || typeof value !== 'string') continue;
      this.add(shown, value);
    }
  }

  add(name: string, value: string): void {
    const values = this.#seen.get(name) ?? new Set<string>();
    this.#seen.set(name, values);
    // Control characters would garble a console or a table: shown as U+FFFD.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
    const clean = value.replace(/[\u0000-\u001f\u007f]/g, '\ufffd').slice(0, MAX_CHARS);
    if (values.size < MAX_VALUES) values.add(clean);
  }

  merge(other: Record<string, string[]> | undefined): this {
    for (const [name, values] of Object.entries(other ?? {})) for (const v of values) this.add(name, v);
    return this;
  }

  /** name → distinct values, names and values sorted (stable reports). */
  toJSON(): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const name of [...this.#seen.keys()].sort()) {
      const values = [...this.#seen.get(name)!].sort();
      if (values.length) out[name] = values;
    }
    return out;
  }

  /** The values seen so far, and a fresh start (one suite file's share). */
  take(): Record<string, string[]> {
    const out = this.toJSON();
    this.#seen.clear();
    return out;
  }
}
