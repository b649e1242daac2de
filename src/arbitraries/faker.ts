/**
 * faker driven by fast-check: fast-check draws the seed, faker turns it into a realistic value.
 * Reseeding right before each use makes the value a pure function of the drawn seed, so the
 * same fast-check seed replays the same names; the shared instances carry no state across calls.
 */
import fc from 'fast-check';
import type { Faker } from '@faker-js/faker';
// Each locale's own entry point: a faker of that locale, then English, then the base definitions, as built here
// before. The package's main entry loads all of its ~70 locales in every worker process (about 0.13 CPU-s);
// these ten load in half that, and give the same values for the same seed.
import { faker as ar } from '@faker-js/faker/locale/ar';
import { faker as de } from '@faker-js/faker/locale/de';
import { faker as el } from '@faker-js/faker/locale/el';
import { faker as en } from '@faker-js/faker/locale/en';
import { faker as fr } from '@faker-js/faker/locale/fr';
import { faker as he } from '@faker-js/faker/locale/he';
import { faker as ja } from '@faker-js/faker/locale/ja';
import { faker as ru } from '@faker-js/faker/locale/ru';
import { faker as vi } from '@faker-js/faker/locale/vi';
import { faker as zh_CN } from '@faker-js/faker/locale/zh_CN';

/** English first: hosts and domains must stay ASCII. */
export const englishFaker: Faker = en;

/**
 * Locales chosen for their scripts: Latin with accents, Greek, Cyrillic, Hebrew, Arabic, CJK, Vietnamese diacritics.
 */
const FAKERS: readonly Faker[] = [en, de, fr, el, ru, he, ar, ja, zh_CN, vi];

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
