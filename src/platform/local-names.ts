import type { Country } from './countries.js';

/**
 * The names of what a vertical's seed draws alike in every country (products, their categories and
 * options, payment methods, units), in each country's language. The seed draws a name once, as a
 * Belgian connector shows it (the English one); a connection of another country shows it in its
 * language. Nothing else changes with the country: a record keeps its place, price and draws.
 *
 * Fixtures name a record either way: by its local name, or by the name it has on a Belgian connector,
 * so a document written against one country's connector applies to another's.
 */

/** For each country but Belgium, the local name of each drawn one (a name left out stays as drawn). */
export type NameBook = Readonly<Partial<Record<Exclude<Country, 'BE'>, Readonly<Record<string, string>>>>>;

export interface LocalNames {
  /** The name in the country's language (as drawn where the book has none). */
  (drawn: string): string;
  /** The local name of a drawn one written in any case, or undefined when it names none. */
  alias(value: string): string | undefined;
  /** A drawn sentence with places ('Payment of {}'), in the country's language, filled in order. */
  format(drawn: string, ...values: string[]): string;
  /** An adjective faker drew for a description (English), as the country's language says one. */
  adjective(drawn: string): string;
}

/** A few adjectives of a description, in each language: a drawn English one stands for one of them. */
const ADJECTIVES: Readonly<Record<Exclude<Country, 'BE'>, readonly string[]>> = {
  FR: ['classique', 'soigné', 'de qualité', 'authentique', 'raffiné', 'simple', 'élégant', 'incontournable'],
  NL: ['klassiek', 'verzorgd', 'kwalitatief', 'authentiek', 'verfijnd', 'eenvoudig', 'elegant', 'onmisbaar'],
  DE: [
    'klassisch',
    'sorgfältig',
    'hochwertig',
    'authentisch',
    'raffiniert',
    'schlicht',
    'elegant',
    'beliebt',
  ],
  ES: ['clásico', 'cuidado', 'de calidad', 'auténtico', 'refinado', 'sencillo', 'elegante', 'imprescindible'],
};

/** A string's fixed number (the same in every process), to stand a drawn word for a local one. */
function fixedIndex(text: string, size: number): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (hash * 31 + text.charCodeAt(i)) >>> 0;
  return hash % size;
}

/** The names of each book in each country, made once: seeders ask for them per dataset and per order. */
const made = new WeakMap<NameBook, Map<Country, LocalNames>>();

/** The names of `book` in `country`'s language. */
export function localNames(book: NameBook, country: Country): LocalNames {
  let byCountry = made.get(book);
  if (!byCountry) {
    byCountry = new Map();
    made.set(book, byCountry);
  }
  let local = byCountry.get(country);
  if (!local) {
    local = namesOf(book, country);
    byCountry.set(country, local);
  }
  return local;
}

function namesOf(book: NameBook, country: Country): LocalNames {
  const names = country === 'BE' ? undefined : book[country];
  const adjectives = country === 'BE' ? undefined : ADJECTIVES[country];
  const exact = new Map(Object.entries(names ?? {}));
  const lowered = new Map([...exact].map(([drawn, name]) => [drawn.toLowerCase(), name]));
  const local = ((drawn: string) => exact.get(drawn) ?? drawn) as LocalNames;
  local.alias = (value) => lowered.get(value.toLowerCase());
  local.format = (drawn, ...values) => {
    let next = 0;
    return local(drawn).replace(/\{\}/g, () => values[next++] ?? '');
  };
  local.adjective = (drawn) =>
    adjectives ? (adjectives[fixedIndex(drawn, adjectives.length)] as string) : drawn.toLowerCase();
  return local;
}

/** Every name a drawn one has in some country, itself included. */
export const everyName = (book: NameBook, drawn: string): Set<string> =>
  new Set([
    drawn,
    ...Object.values(book).flatMap((names) =>
      names && Object.hasOwn(names, drawn) ? [names[drawn] as string] : [],
    ),
  ]);
