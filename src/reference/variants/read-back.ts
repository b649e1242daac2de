/**
 * Variants of what a value reads back as where the interface leaves its taking open (issue 33 §5): a number past
 * binary64 taken and kept exactly, as an arbitrary-precision store keeps it (the default refuses it).
 */
import { parse } from 'lossless-json';
import { strictJsonBody } from '../http.ts';
import { variant } from '../switches.ts';

/** The exact integer a decimal text past binary64 means (1e400, -2.5E+401), or undefined when it means none. */
export function integerBeyondDouble(text: string): bigint | undefined {
  const m = /^(-?)(\d+)(?:\.(\d+))?[eE]([+-]?\d+)$/.exec(text);
  if (!m) return undefined;
  const [, sign, whole, fraction = '', exponent] = m as unknown as [string, string, string, string, string];
  const shift = Number(exponent) - fraction.length;
  if (shift < 0) return undefined;
  const n = BigInt(whole + fraction) * 10n ** BigInt(shift);
  return sign === '-' ? -n : n;
}

/** A JSON number as an arbitrary-precision reader keeps it: within binary64 as a number, past it exactly. */
function readNumber(text: string): number | bigint {
  const n = Number(text);
  if (!Number.isFinite(n)) return integerBeyondDouble(text) ?? n;
  return Number.isSafeInteger(n) || !/^-?\d+$/.test(text) ? n : BigInt(text);
}

export const READ_BACK_VARIANTS = [
  variant(
    'numbers.arbitrary-precision',
    'JSON numbers are read exactly, as an arbitrary-precision decimal (PostgreSQL numeric in a jsonb column, ' +
      "Python's Decimal): a number past binary64 in metadata (1e400) is taken and shown as the integer it means",
    () => ({
      jsonBody: (_op, text) =>
        strictJsonBody(text, (t) =>
          parse(t, null, { parseNumber: readNumber, onDuplicateKey: ({ newValue }) => newValue }),
        ),
    }),
  ),
];
