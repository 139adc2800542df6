import { createHash } from 'node:crypto';
import { faker as englishFaker } from '@faker-js/faker/locale/en';
import { faker as belgianFaker } from '@faker-js/faker/locale/fr_BE';

/**
 * Seeded faker instances. The per-locale entry points load one locale's data instead of every
 * locale of the package (the main entry costs ~100 ms and ~35 MB at start), and a new instance per
 * use keeps every generator's sequence independent of the others.
 */
export type Faker = typeof englishFaker;

type FakerClass = new (options: { locale: Faker['rawDefinitions'] }) => Faker;
const FakerOf = englishFaker.constructor as FakerClass;

const DEFINITIONS: Record<'en' | 'fr_BE', Faker['rawDefinitions']> = {
  /** English names and companies. */
  en: englishFaker.rawDefinitions,
  /** Belgian French, falling back to French and English. */
  fr_BE: belgianFaker.rawDefinitions,
};

export function seededFaker(locale: keyof typeof DEFINITIONS, seed: number | number[]): Faker {
  const faker = new FakerOf({ locale: DEFINITIONS[locale] });
  faker.seed(seed);
  return faker;
}

/** A Belgian faker whose sequence depends only on `parts` (seed, consumer, connection, ...). */
export function fakerFor(...parts: (string | number)[]): Faker {
  return seededFaker('fr_BE', seedOf(parts));
}

/** Seeds a faker again, so that what it draws next depends only on `parts` (cheaper than a new one). */
export function reseed(faker: Faker, ...parts: (string | number)[]): Faker {
  faker.seed(seedOf(parts));
  return faker;
}

function seedOf(parts: readonly (string | number)[]): number[] {
  const digest = createHash('sha256').update(parts.join(':')).digest();
  return [0, 4, 8, 12].map((at) => digest.readUInt32BE(at));
}
