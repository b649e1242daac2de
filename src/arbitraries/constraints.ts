/**
 * Checks shared by every arbitrary's constraints object. A bad constraint is a defect in the
 * caller, so it fails when the arbitrary is built, naming the function, not later mid-run.
 */

export function fail(fn: string, message: string): never {
  throw new RangeError(`${fn}: ${message}`);
}

/** Refuses anything but a plain object with known keys: a typo (`maxLen`) would otherwise be silently ignored. */
export function checkKeys(fn: string, constraints: unknown, known: readonly string[]): void {
  if (constraints === undefined) return;
  if (typeof constraints !== 'object' || constraints === null || Array.isArray(constraints)) {
    fail(fn, 'constraints must be an object');
  }
  for (const key of Object.keys(constraints)) {
    if (!known.includes(key)) fail(fn, `unknown constraint ${key} (known: ${known.join(', ')})`);
  }
}

/** A safe integer within [min, max]; `name` as the caller spells it. */
export function checkInteger(fn: string, name: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    fail(fn, `${name} must be an integer from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}

export function checkBoolean(fn: string, name: string, value: unknown): boolean {
  if (typeof value !== 'boolean') fail(fn, `${name} must be a boolean, got ${String(value)}`);
  return value;
}

/** A probability in [0, 1]. */
export function checkRate(fn: string, name: string, value: unknown): number {
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
    fail(fn, `${name} must be a number from 0 to 1, got ${String(value)}`);
  }
  return value;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when `s` has no lone surrogate, so it survives UTF-8 encoding unchanged. */
export function isWellFormed(s: string): boolean {
  return !LONE_SURROGATE.test(s);
}

/** A string the caller wants prepended to generated values: well formed, no NUL, within `maxLength` UTF-16 units. */
export function checkPrefix(fn: string, name: string, value: unknown, maxLength: number): string {
  if (typeof value !== 'string') fail(fn, `${name} must be a string, got ${String(value)}`);
  if (!isWellFormed(value) || value.includes('\0')) fail(fn, `${name} must not contain lone surrogates or NUL`);
  if (value.length > maxLength) fail(fn, `${name} must be at most ${maxLength} UTF-16 units, got ${value.length}`);
  return value;
}

/** A non-empty list of choices from `allowed`, without repeats. */
export function checkSubset<T extends string>(
  fn: string,
  name: string,
  value: unknown,
  allowed: readonly T[],
): readonly T[] {
  if (!Array.isArray(value) || value.length === 0) fail(fn, `${name} must be a non-empty array`);
  for (const v of value) {
    if (!allowed.includes(v as T)) fail(fn, `${name} must contain only ${allowed.join(', ')}, got ${String(v)}`);
  }
  if (new Set(value).size !== value.length) fail(fn, `${name} must not repeat a value`);
  return value as T[];
}

/** Keeps the keys of `record` listed in `keys`, in the order of `keys`. */
export function pick<T extends object>(record: T, keys: readonly (keyof T)[]): Partial<T> {
  const out: Partial<T> = {};
  for (const k of keys) out[k] = record[k];
  return out;
}
