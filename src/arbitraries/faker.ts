/**
 * faker driven by fast-check: fast-check draws the seed, faker turns it into a realistic value.
 * Reseeding right before each use makes the value a pure function of the drawn seed, so the
 * same fast-check seed replays the same names; the shared instances carry no state across calls.
 */
import fc from 'fast-check';
import { ar, base, de, el, en, fr, he, ja, ru, vi, zh_CN, Faker } from '@faker-js/faker';

/** English first: hosts and domains must stay ASCII. */
export const englishFaker = new Faker({ locale: [en, base] });

/**
 * Locales chosen for their scripts: Latin with accents, Greek, Cyrillic, Hebrew, Arabic, CJK, Vietnamese diacritics.
 */
const FAKERS = [en, de, fr, el, ru, he, ar, ja, zh_CN, vi].map((l) => new Faker({ locale: [l, en, base] }));

/** A value `make` builds from a faker reseeded with a drawn seed. */
export function seeded<T>(make: (f: Faker) => T, faker: Faker = englishFaker): fc.Arbitrary<T> {
  return fc.integer({ min: 0, max: 0x7fffffff }).map((seed) => {
    faker.seed(seed);
    return make(faker);
  });
}

const KINDS: readonly ((f: Faker) => string)[] = [
  (f) => f.person.fullName(),
  (f) => f.person.firstName(),
  (f) => f.company.name(),
  (f) => f.location.city(),
  (f) => f.location.streetAddress(),
];

/** A realistic name, company, city or street in one of several scripts. */
export function realisticText(): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.integer({ min: 0, max: FAKERS.length - 1 }),
      fc.integer({ min: 0, max: KINDS.length - 1 }),
      fc.integer({ min: 0, max: 0x7fffffff }),
    )
    .map(([locale, kind, seed]) => {
      const f = FAKERS[locale] ?? englishFaker;
      f.seed(seed);
      return (KINDS[kind] ?? KINDS[0]!)(f);
    });
}
