import fc from 'fast-check';

/** One of `values`, deep-copied so no two generated bodies share (or let a consumer mutate) an object. */
export function oneOf<T>(...values: T[]): fc.Arbitrary<T> {
  return fc.constantFrom(...values).map((v) => structuredClone(v));
}
