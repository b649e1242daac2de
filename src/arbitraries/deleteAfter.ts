import fc from 'fast-check';
import { LIMITS } from '../spec/index.ts';
import { checkInteger, checkKeys, fail } from './constraints.ts';

export interface DeleteAfterConstraints {
  /** Smallest value. Default -2147483648, the bottom of the interface's range. */
  min?: number;
  /** Largest value. Default 2147483647, the top of the interface's range. */
  max?: number;
}

/** delete_after values: the whole range, with -1 ("never delete"), 0, 1 and both ends drawn often. */
export function deleteAfter(constraints: DeleteAfterConstraints = {}): fc.Arbitrary<number> {
  const fn = 'deleteAfter';
  checkKeys(fn, constraints, ['min', 'max']);
  const min = checkInteger(
    fn,
    'min',
    constraints.min ?? LIMITS.deleteAfterMin,
    LIMITS.deleteAfterMin,
    LIMITS.deleteAfterMax,
  );
  const max = checkInteger(
    fn,
    'max',
    constraints.max ?? LIMITS.deleteAfterMax,
    LIMITS.deleteAfterMin,
    LIMITS.deleteAfterMax,
  );
  if (min > max) fail(fn, `min (${min}) must be at most max (${max})`);
  const edges = [...new Set([LIMITS.deleteAfterNever, min, max, 0, 1, min + 1, max - 1])].filter(
    (n) => n >= min && n <= max,
  );
  const arbs: fc.WeightedArbitrary<number>[] = [
    { weight: 1, arbitrary: fc.constantFrom(...edges) },
    { weight: 2, arbitrary: fc.integer({ min, max }) },
  ];
  // "never delete" gets its own share: it is the value with a meaning of its own.
  if (edges.includes(LIMITS.deleteAfterNever))
    arbs.unshift({ weight: 1, arbitrary: fc.constant(LIMITS.deleteAfterNever) });
  return fc.oneof(...arbs);
}
