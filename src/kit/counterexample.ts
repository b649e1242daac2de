/**
 * A counterexample as people read it: compact JSON-like notation, long strings shortened with their
 * length, invisible and bidirectional characters escaped (a right-to-left override would otherwise
 * reorder the line it is printed on), the field that breaks the rule first, and none of the
 * `__proto__:null` noise of fast-check's own notation.
 */

export interface CounterexampleFormat {
  /** Characters of a string shown before it is cut (its length is then given). Default 40. */
  maxString?: number;
  /** Entries of an array or object shown before the rest is counted. Default 12. */
  maxEntries?: number;
  /** Object keys to show first, in this order (the field a failure names). */
  first?: readonly string[];
  /** Depth below which values are elided. Default 6. */
  maxDepth?: number;
}

/**
 * Characters that print as nothing or move the text around them: C0 and C1 controls, zero-width
 * characters, bidirectional marks, overrides and isolates, the byte order mark.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it escapes
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/gu;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '"': '\\"', '\\': '\\\\' };

function escapeText(s: string): string {
  return s
    .replace(/["\\\n\r\t]/g, (c) => NAMED[c]!)
    .replace(HIDDEN, (c) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`);
}

function str(s: string, max: number): string {
  const chars = [...s];
  if (chars.length <= max) return `"${escapeText(s)}"`;
  return `"${escapeText(chars.slice(0, max).join(''))}…" (${chars.length} chars)`;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function key(k: string, max: number): string {
  return IDENTIFIER.test(k) ? k : str(k, max);
}

/** A value in the compact notation (see the module comment). */
export function formatCounterexample(value: unknown, format: CounterexampleFormat = {}): string {
  const maxString = format.maxString ?? 40;
  const maxEntries = format.maxEntries ?? 12;
  const maxDepth = format.maxDepth ?? 6;
  const first = format.first ?? [];
  const seen = new WeakSet<object>();
  const show = (v: unknown, depth: number): string => {
    if (typeof v === 'string') return str(v, maxString);
    if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
    if (typeof v === 'bigint') return `${v}n`;
    if (v === undefined) return 'undefined';
    if (v === null || typeof v !== 'object') return String(v);
    if (seen.has(v)) return '[circular]';
    if (depth >= maxDepth) return Array.isArray(v) ? '[…]' : '{…}';
    seen.add(v);
    try {
      if (Array.isArray(v)) {
        const shown = v.slice(0, maxEntries).map((x) => show(x, depth + 1));
        if (v.length > maxEntries) shown.push(`… ${v.length - maxEntries} more`);
        return `[${shown.join(', ')}]`;
      }
      // A value that describes itself (fast-check's command sequences) prints as it says.
      const proto = Object.getPrototypeOf(v);
      if (proto !== null && proto !== Object.prototype && v.toString !== Object.prototype.toString) {
        return escapeText(String(v));
      }
      // Own enumerable keys only: fast-check's null-prototype objects print like any other.
      const keys = Object.keys(v);
      const ordered = [...first.filter((k) => keys.includes(k)), ...keys.filter((k) => !first.includes(k))];
      const record = v as Record<string, unknown>;
      const shown = ordered.slice(0, maxEntries).map((k) => `${key(k, maxString)}: ${show(record[k], depth + 1)}`);
      if (ordered.length > maxEntries) shown.push(`… ${ordered.length - maxEntries} more`);
      return `{${shown.join(', ')}}`;
    } finally {
      seen.delete(v);
    }
  };
  return show(value, 0);
}

/**
 * The keys of a counterexample (at its top level, or one level down in a record of inputs) that a
 * failure's text names: shown first, since that is where the reader looks.
 */
export function namedKeys(value: unknown, failureText: string): string[] {
  const keys = new Set<string>();
  const collect = (v: unknown, depth: number) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v) || depth > 1) return;
    for (const [k, x] of Object.entries(v)) {
      keys.add(k);
      collect(x, depth + 1);
    }
  };
  collect(value, 0);
  return [...keys].filter((k) => new RegExp(`(^|[^A-Za-z0-9_])${k}([^A-Za-z0-9_]|$)`).test(failureText));
}
