/**
 * JSON values as the harness handles them: the one type of a JSON object; JSON read and written
 * losslessly (an integer beyond 2^53, such as an id a server hands out, stays exact); and text from
 * files the user writes (the config file, the expectations file) parsed so that, when it is not JSON,
 * the message says where, in one line. Node 20's JSON.parse does not always give a position (and its
 * messages can run over several lines), so the offset is found by search then.
 */
import { parse as losslessParse, stringify as losslessStringify } from 'lossless-json';

/** A JSON object as sent or read: keys to values of any JSON type. */
export type JsonObject = Record<string, unknown>;

/** Whether a parsed JSON value is an object (not null, not an array). */
export function isJsonObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * A JSON number as the harness reads it: an integer outside Number.isSafeInteger as the exact bigint, any other
 * number as JSON.parse reads it. One value is always read as one type (5 is never 5n), so `===` and Map keys hold.
 */
function readNumber(text: string): number | bigint {
  const n = Number(text);
  return Number.isSafeInteger(n) || !/^-?\d+$/.test(text) ? n : BigInt(text);
}

const LOSSLESS = { parseNumber: readNumber, onDuplicateKey: ({ newValue }: { newValue: unknown }) => newValue };
/**
 * Every integer beyond 2^53 has 16 digits or more; text without such a run parses alike either way. Spelled out as
 * sixteen \d: V8 tests that four to five times faster than \d{16} (on an 800-character case body about 1 µs
 * against 5, where JSON.parse of it takes about 6).
 */
const LONG_DIGITS = new RegExp('\\d'.repeat(16));

/**
 * JSON.parse, except that an integer outside the safe range comes out as the exact bigint (JSON.parse rounds
 * 2^62 + 3 to 2^62). Text without a run of 16 digits takes JSON.parse itself (the fast path every answer takes
 * on a server with small ids). Throws SyntaxError on text that is not JSON; a repeated key keeps its last value,
 * as with JSON.parse, unless `duplicates` says otherwise.
 */
export function parseJson(text: string, duplicates: DuplicateKeys = 'last'): unknown {
  if (duplicates === 'last') return LONG_DIGITS.test(text) ? losslessParse(text, null, LOSSLESS) : JSON.parse(text);
  return losslessParse(text, null, {
    parseNumber: readNumber,
    onDuplicateKey: ({ key, oldValue, newValue }) => {
      if (typeof duplicates === 'function') return duplicates(oldValue, newValue);
      if (duplicates === 'first') return oldValue;
      throw new SyntaxError(`the key ${JSON.stringify(key)} is given twice`);
    },
  });
}

/**
 * What a key given twice in an object keeps: its last value (as JSON.parse), its first, neither (a SyntaxError), or
 * what a function makes of the two.
 */
export type DuplicateKeys = 'last' | 'first' | 'refuse' | ((first: unknown, second: unknown) => unknown);

/**
 * JSON.stringify, except that a bigint is written as its exact integer (JSON.stringify throws on one, and Node 20
 * has no JSON.rawJSON). A value without a bigint takes JSON.stringify itself. Typed as TypeScript types
 * JSON.stringify (a string, though undefined, a function or a symbol give undefined), so it replaces it as it is.
 */
export function stringifyJson(value: unknown, space?: number): string {
  try {
    return JSON.stringify(value, null, space);
  } catch (err) {
    if (!(err instanceof TypeError) || !/BigInt/.test(err.message)) throw err;
    return losslessStringify(value, null, space) as string;
  }
}

/** The 1-based line of `offset` in `text`. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text[i] === '\n') line += 1;
  return line;
}

/**
 * Where JSON text first goes wrong, for parsers that do not say: the shortest prefix that fails
 * for another reason than ending early (binary search; prefixes before the fault only end early).
 */
function badOffset(text: string): number | undefined {
  const bad = (length: number) => {
    try {
      JSON.parse(text.slice(0, length));
      return false;
    } catch (err) {
      const message = (err as Error).message;
      const at = /at position (\d+)/.exec(message)?.[1];
      return !/end of JSON input/i.test(message) && (at === undefined || Number(at) < length);
    }
  };
  if (!bad(text.length)) return undefined;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (bad(mid)) hi = mid;
    else lo = mid + 1;
  }
  return Math.max(0, lo - 1);
}

export type ParsedJson = { ok: true; value: unknown } | { ok: false; where: string; message: string };

/** Parses `text`; on failure, ` line N` (or '') and a one-line reason without the parser's position. */
export function parseJsonText(text: string): ParsedJson {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    const message = (err as Error).message;
    const position = /at position (\d+)/.exec(message)?.[1];
    const offset = position !== undefined ? Number(position) : badOffset(text);
    const where = offset !== undefined ? ` line ${lineAt(text, offset)}` : '';
    const what = message
      .split('\n')[0]!
      .replace(/ in JSON at position \d+.*$/, '')
      .replace(/, \.*".*$/, '')
      .replace(/ is not valid JSON$/, '');
    return { ok: false, where, message: what };
  }
}
