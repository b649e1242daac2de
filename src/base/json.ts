/**
 * JSON values as the harness handles them: the one type of a JSON object, and text from files the
 * user writes (the config file, the expectations file) parsed so that, when it is not JSON, the
 * message says where, in one line. Node 20's JSON.parse does not always give a position (and its
 * messages can run over several lines), so the offset is found by search then.
 */

/** A JSON object as sent or read: keys to values of any JSON type. */
export type JsonObject = Record<string, unknown>;

/** Whether a parsed JSON value is an object (not null, not an array). */
export function isJsonObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
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
