import fc from 'fast-check';
import { checkInteger, checkKeys } from './constraints.ts';
import { unicodeText } from './unicodeText.ts';

export interface MetadataConstraints {
  /** Levels of objects and arrays, the root object counting as 1; 1 means only scalars under the root. Default 3. */
  maxDepth?: number;
  /** Most keys in one object (and items in one array). Default 5. */
  maxKeys?: number;
}

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonRecord = { [key: string]: JsonValue };

// '__proto__' parses as an own key but assigns the prototype in object literals: values with
// it would not compare equal to their own JSON round trip inside the harness.
const key = unicodeText({ minLength: 1, maxLength: 24 }).filter((k) => k !== '__proto__');

/** Numbers JSON carries exactly: finite, no -0 (stringified as 0). */
const number = fc.oneof(
  fc.integer(),
  fc.constantFrom(0, 1, -1, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER),
  fc.double({ min: -1e12, max: 1e12, noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n)),
);

const scalar: fc.Arbitrary<JsonValue> = fc.oneof(
  unicodeText({ maxLength: 40 }),
  number,
  fc.boolean(),
  fc.constant(null),
);

/**
 * Free JSON objects for metadata: the root is always a plain object, every value survives JSON.stringify/parse
 * unchanged.
 */
export function metadata(constraints: MetadataConstraints = {}): fc.Arbitrary<JsonRecord> {
  const fn = 'metadata';
  checkKeys(fn, constraints, ['maxDepth', 'maxKeys']);
  const maxDepth = checkInteger(fn, 'maxDepth', constraints.maxDepth ?? 3, 1, 20);
  const maxKeys = checkInteger(fn, 'maxKeys', constraints.maxKeys ?? 5, 0, 1000);

  const object = (depth: number): fc.Arbitrary<JsonRecord> =>
    fc.dictionary(key, value(depth - 1), { maxKeys, noNullPrototype: true });
  const value = (depth: number): fc.Arbitrary<JsonValue> =>
    depth < 1
      ? scalar
      : fc.oneof(
          { weight: 3, arbitrary: scalar },
          { weight: 1, arbitrary: fc.array(value(depth - 1), { maxLength: maxKeys }) },
          { weight: 1, arbitrary: object(depth) },
        );
  return object(maxDepth);
}
