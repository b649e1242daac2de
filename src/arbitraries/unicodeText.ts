import fc from 'fast-check';
import { checkBoolean, checkInteger, checkKeys, fail } from './constraints.ts';
import { realisticText } from './faker.ts';

export interface UnicodeTextConstraints {
  /** Fewest code points. Default 0. */
  minLength?: number;
  /** Most UTF-16 units, hence also most code points. Default 64. */
  maxLength?: number;
  /**
   * Strip leading and trailing whitespace (before padding to minLength). Default false.
   * For fields a server may legitimately trim (names, identifiers), so a round trip compares equal.
   */
  trim?: boolean;
}

const fromCodePoint = (min: number, max: number) => fc.integer({ min, max }).map((cp) => String.fromCodePoint(cp));
const word = (min: number, max: number, length = 6) =>
  fc.string({ unit: fromCodePoint(min, max), minLength: 1, maxLength: length });

/** Pieces that each carry one trait servers get wrong; never NUL, never a lone surrogate. */
const PIECES = fc.oneof(
  { weight: 3, arbitrary: word(0x20, 0x7e, 10) }, // printable ASCII
  { weight: 2, arbitrary: word(0xc0, 0xff) }, // Latin-1 accented letters
  {
    weight: 2, // a base letter with one or two combining marks: 'e\u0301'
    arbitrary: fc
      .tuple(fromCodePoint(0x61, 0x7a), fc.array(fromCodePoint(0x0300, 0x036f), { minLength: 1, maxLength: 2 }))
      .map(([letter, marks]) => letter + marks.join('')),
  },
  { weight: 1, arbitrary: word(0x05d0, 0x05ea) }, // Hebrew, right to left
  { weight: 1, arbitrary: word(0x0627, 0x064a) }, // Arabic, right to left
  { weight: 1, arbitrary: word(0x4e00, 0x9fff, 4) }, // CJK in the BMP
  { weight: 2, arbitrary: word(0x1f600, 0x1f64f, 3) }, // emoji: surrogate pairs in UTF-16
  { weight: 1, arbitrary: word(0x20000, 0x2a6df, 3) }, // CJK Extension B: also outside the BMP
  { weight: 1, arbitrary: fc.constantFrom('👩‍💻', '👍🏽', '🇩🇪', '🏳️‍🌈', '1️⃣') }, // multi-code-point graphemes
  { weight: 4, arbitrary: realisticText() },
);

const PAD = 'abcdefghijklmnopqrstuvwxyz';

/** Cuts `raw` to fit: at most `max` UTF-16 units, at least `min` code points, whole code points only. */
function fitLength(raw: string, min: number, max: number, trim: boolean, padFrom: number): string {
  const cps: string[] = [];
  let units = 0;
  for (const cp of raw) {
    if (units + cp.length > max) break;
    cps.push(cp);
    units += cp.length;
  }
  const chars = trim ? [...cps.join('').trim()] : cps;
  units = chars.join('').length;
  // ASCII padding adds one unit per code point, so make room first by dropping trailing pairs.
  while (chars.length > 0 && units + Math.max(0, min - chars.length) > max) units -= chars.pop()!.length;
  let out = chars.join('');
  for (let i = chars.length; i < min; i++) out += PAD[(padFrom + i) % PAD.length];
  return out;
}

/**
 * Text rich in Unicode (accents, combining marks, RTL, non-BMP, realistic names) whose length is
 * within [minLength, maxLength] counted in code points and in UTF-16 units alike.
 */
export function unicodeText(constraints: UnicodeTextConstraints = {}): fc.Arbitrary<string> {
  const fn = 'unicodeText';
  checkKeys(fn, constraints, ['minLength', 'maxLength', 'trim']);
  const min = checkInteger(fn, 'minLength', constraints.minLength ?? 0, 0, 1_000_000);
  const max = checkInteger(fn, 'maxLength', constraints.maxLength ?? 64, 0, 1_000_000);
  const trim = checkBoolean(fn, 'trim', constraints.trim ?? false);
  if (min > max) fail(fn, `minLength (${min}) must be at most maxLength (${max})`);

  const natural = fc.array(PIECES, { maxLength: Math.max(1, Math.ceil(max / 2)) }).map((ps) => ps.join(''));
  // Repeats a few pieces past maxLength so values at (or one unit under) the limit come up often.
  const filled = fc.array(PIECES, { minLength: 1, maxLength: 4 }).map((ps) => {
    const unit = ps.join('') || 'a';
    return unit.repeat(Math.ceil((max + 1) / unit.length));
  });
  return fc
    .tuple(fc.oneof({ weight: 4, arbitrary: natural }, { weight: 1, arbitrary: filled }), fc.nat(PAD.length - 1))
    .map(([raw, padFrom]) => fitLength(raw, min, max, trim, padFrom));
}
