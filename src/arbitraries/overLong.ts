import fc from 'fast-check';

/**
 * Strings of exactly `length` code points: `prefix` then ASCII padding. ASCII keeps the UTF-16
 * count at least as large, so the value is over a limit whichever way a server counts.
 * Callers keep every length above the prefix's own.
 */
export function overLong(prefix: string, length: fc.Arbitrary<number>): fc.Arbitrary<string> {
  const chunk = fc.string({
    unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'),
    minLength: 1,
    maxLength: 8,
  });
  return fc.tuple(length, chunk).map(([n, c]) => {
    const need = n - [...prefix].length;
    return prefix + c.repeat(Math.ceil(need / c.length)).slice(0, need);
  });
}
