import fc from 'fast-check';

/** `arb`, or null with probability `nullRate` (0 and 1 give never and always). */
export function nullable<T>(arb: fc.Arbitrary<T>, nullRate: number): fc.Arbitrary<T | null> {
  if (nullRate <= 0) return arb;
  if (nullRate >= 1) return fc.constant(null);
  const nullWeight = Math.max(1, Math.round(nullRate * 1000));
  return fc.oneof({ weight: 1000 - nullWeight, arbitrary: arb }, { weight: nullWeight, arbitrary: fc.constant(null) });
}
