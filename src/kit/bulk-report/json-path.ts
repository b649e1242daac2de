/** JSON paths of keys and indexes (`$.data.failed[0]`): --bulk-failures-path, and where a report names an item. */
import { isJsonObject } from '../../base/json.ts';

export const NUMERIC = /^-?\d+$/;

/**
 * A JSON path of keys and indexes (`$.data.failed`, `$.errors[0]`, `$.errors["item 1"]`: a key of other characters
 * as a JSON string in brackets, as child() writes it), split; undefined when malformed.
 */
export function parsePath(path: string): (string | number)[] | undefined {
  if (!path.startsWith('$')) return undefined;
  const steps: (string | number)[] = [];
  const re = /\.([A-Za-z_][A-Za-z0-9_-]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/y;
  re.lastIndex = 1;
  while (re.lastIndex < path.length) {
    const m = re.exec(path);
    if (!m) return undefined;
    steps.push(m[1] ?? (m[2] !== undefined ? Number(m[2]) : (JSON.parse(m[3]!) as string)));
  }
  return steps;
}

/** The value at a JSON path of keys and indexes (`$.results[3]`), or undefined. */
export function jsonPathValue(body: unknown, path: string): unknown {
  const steps = parsePath(path);
  if (!steps) return undefined;
  let v: unknown = body;
  for (const s of steps) {
    if (typeof s === 'number') v = Array.isArray(v) ? v[s] : undefined;
    else v = isJsonObject(v) && Object.hasOwn(v, s) ? v[s] : undefined;
  }
  return v;
}

export function child(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}
