import { loadCatalogue } from '../../../platform/catalogue.js';
import { COUNTRY_TRAITS, type Country, countryOf } from '../../../platform/countries.js';
import type { Faker } from '../../../platform/seeding/fakers.js';
import { pick } from '../../../platform/seeding/vertical-data.js';

/**
 * The web shop of each country: what an eCommerce connection's shop draws where its software is
 * sold (platform/countries.ts). Sandbox Shop is Belgian; Sandbox Shop Legacy (Germany, Austria,
 * Switzerland) is German: German VAT first on its tax list, its warehouse and store in Germany, its
 * customers mostly German, then Austrian, Swiss and from a few neighbours, German phone numbers,
 * e-mail providers, streets and barcodes. The rates, places and phone prefixes of the countries the
 * world knows come from their traits; the others' (Austria, Switzerland, Luxembourg, the United
 * Kingdom) are here.
 *
 * Every shop draws from the same sequence of its faker as the Belgian one: a shop differs by its
 * values (rates, labels, places, numbers), never by how many numbers it draws. Its customers'
 * origins are the Belgian shop's slot by slot (the same weights; a language drawn where the Belgian
 * draws one, fixed where it is fixed; several places where it has several, one where it has one),
 * its streets are the faker's drawn ones put into the country's, and so on.
 */

/** A place of an address: its city and postal code. */
export interface ShopPlace {
  city: string;
  postal_code: string;
}

/** A country the shop's customers come from, with what is drawn for them there. */
export interface CustomerOrigin {
  country: string;
  /** The country's name, as the shop lists where it ships to. */
  name: string;
  /** How many customers in a hundred come from there. */
  weight: number;
  /** The language of a customer from there (drawn, where the customers speak more than one). */
  language(faker: Faker): string;
  places: readonly ShopPlace[];
}

/** A tax of the shop: the standard or reduced rate of a country, labelled the shop's way. */
export interface ShopTax {
  key: string;
  label: string;
  rate: number;
  country: string;
}

export interface ShopProfile {
  country: Country;
  /** The shop's taxes: its own country's standard and reduced rates first, then its customers'. */
  taxes: readonly ShopTax[];
  warehouse: ShopPlace;
  store: ShopPlace;
  origins: readonly CustomerOrigin[];
  paymentMethods: readonly { name: string; active: boolean; weight: number }[];
  /** The country's name in the catalogue's blurbs ("Designed in Belgium."), and the roastery's city. */
  designedIn: string;
  roastedIn: string;
  /** The products named otherwise in the country (by their Belgian name). */
  /** The GS1 prefix of the products' barcodes. */
  barcodePrefix: string;
  /** The digits after the country's phone prefix that begin a mobile number. */
  mobilePrefix: string;
  /** The e-mail providers of the country, for the Belgian ones the faker draws. */
  emailDomains: Readonly<Record<string, string>>;
  /** The streets of the country (none: the faker's, as drawn). */
  streets: readonly string[];
}

/** A VAT rate of a country the world knows (its traits' rates: standard first). */
const vat = (country: Country, index: number): number => COUNTRY_TRAITS[country].vatRates[index] as number;

/** A tax of the shop, labelled and keyed the shop's way ("BE standard rate 21%", be21). */
const tax = (country: string, kind: 'standard' | 'reduced', rate: number): ShopTax => ({
  key: `${country.toLowerCase()}${String(rate).replace('.', '')}`,
  label: `${country} ${kind} rate ${rate}%`,
  rate,
  country,
});

/** A language drawn: mostly the first, sometimes the second. */
const mostly =
  (first: string, second: string) =>
  (faker: Faker): string =>
    faker.helpers.weightedArrayElement([
      { weight: 9, value: first },
      { weight: 1, value: second },
    ]);
const always = (language: string) => (): string => language;

/** A place of a country the world knows, by its city. */
function placeOf(country: Country, city: string): ShopPlace {
  const place = COUNTRY_TRAITS[country].places.find((p) => p.city === city);
  if (!place) throw new Error(`${city} is not a place of ${country}`);
  return place;
}

const LONDON: ShopPlace = { city: 'London', postal_code: 'E1 6AN' };
const LUXEMBOURG: ShopPlace = { city: 'Luxembourg', postal_code: '1111' };

const BE: ShopProfile = {
  country: 'BE',
  taxes: [
    tax('BE', 'standard', vat('BE', 0)),
    tax('BE', 'reduced', vat('BE', 2)),
    tax('FR', 'standard', vat('FR', 0)),
    tax('FR', 'reduced', vat('FR', 2)),
    tax('NL', 'standard', vat('NL', 0)),
    tax('NL', 'reduced', vat('NL', 1)),
    tax('DE', 'standard', vat('DE', 0)),
    tax('LU', 'standard', 17),
    tax('GB', 'standard', 20),
  ],
  warehouse: { city: 'Antwerpen', postal_code: '2030' },
  store: { city: 'Gent', postal_code: '9000' },
  origins: [
    {
      country: 'BE',
      name: 'Belgium',
      weight: 60,
      language: (faker) => pick(faker, ['fr', 'nl']),
      places: [
        { city: 'Bruxelles', postal_code: '1050' },
        { city: 'Antwerpen', postal_code: '2018' },
        { city: 'Gent', postal_code: '9000' },
        { city: 'Liège', postal_code: '4020' },
      ],
    },
    {
      country: 'FR',
      name: 'France',
      weight: 15,
      language: (faker) => pick(faker, ['fr', 'nl']),
      places: [
        { city: 'Lille', postal_code: '59000' },
        { city: 'Paris', postal_code: '75011' },
      ],
    },
    {
      country: 'NL',
      name: 'Netherlands',
      weight: 10,
      language: always('nl'),
      places: [{ city: 'Rotterdam', postal_code: '3011' }],
    },
    {
      country: 'LU',
      name: 'Luxembourg',
      weight: 5,
      language: (faker) => pick(faker, ['fr', 'nl']),
      places: [LUXEMBOURG],
    },
    { country: 'DE', name: 'Germany', weight: 5, language: always('en'), places: [placeOf('DE', 'Köln')] },
    { country: 'GB', name: 'United Kingdom', weight: 5, language: always('en'), places: [LONDON] },
  ],
  paymentMethods: [
    { name: 'Credit card', active: true, weight: 45 },
    { name: 'Bancontact', active: true, weight: 30 },
    { name: 'PayPal', active: true, weight: 20 },
    { name: 'Bank transfer', active: true, weight: 5 },
    { name: 'Klarna', active: false, weight: 0 },
  ],
  designedIn: 'Belgium',
  roastedIn: 'Antwerp',
  barcodePrefix: '54',
  mobilePrefix: '4',
  emailDomains: {},
  streets: [],
};

const DE: ShopProfile = {
  country: 'DE',
  taxes: [
    tax('DE', 'standard', vat('DE', 0)),
    tax('DE', 'reduced', vat('DE', 1)),
    tax('AT', 'standard', 20),
    tax('AT', 'reduced', 10),
    tax('CH', 'standard', 8.1),
    tax('CH', 'reduced', 2.6),
    tax('NL', 'standard', vat('NL', 0)),
    tax('LU', 'standard', 17),
    tax('GB', 'standard', 20),
  ],
  warehouse: placeOf('DE', 'Hamburg'),
  store: placeOf('DE', 'Berlin'),
  origins: [
    {
      country: 'DE',
      name: 'Germany',
      weight: 60,
      language: mostly('de', 'en'),
      places: COUNTRY_TRAITS.DE.places,
    },
    {
      country: 'AT',
      name: 'Austria',
      weight: 15,
      language: mostly('de', 'en'),
      places: [
        { city: 'Wien', postal_code: '1010' },
        { city: 'Graz', postal_code: '8010' },
        { city: 'Salzburg', postal_code: '5020' },
      ],
    },
    {
      country: 'CH',
      name: 'Switzerland',
      weight: 10,
      language: always('de'),
      places: [{ city: 'Zürich', postal_code: '8001' }],
    },
    {
      country: 'LU',
      name: 'Luxembourg',
      weight: 5,
      language: (faker) => pick(faker, ['de', 'fr']),
      places: [LUXEMBOURG],
    },
    {
      country: 'NL',
      name: 'Netherlands',
      weight: 5,
      language: always('en'),
      places: [COUNTRY_TRAITS.NL.places[0] as ShopPlace],
    },
    { country: 'GB', name: 'United Kingdom', weight: 5, language: always('en'), places: [LONDON] },
  ],
  paymentMethods: [
    { name: 'PayPal', active: true, weight: 40 },
    { name: 'Klarna', active: true, weight: 25 },
    { name: 'Credit card', active: true, weight: 25 },
    { name: 'Bank transfer', active: true, weight: 10 },
    { name: 'giropay', active: false, weight: 0 },
  ],
  designedIn: 'Deutschland',
  roastedIn: 'Hamburg',
  barcodePrefix: '40',
  mobilePrefix: '17',
  emailDomains: { 'proximus.be': 'web.de', 'telenet.be': 'gmx.de', 'yahoo.fr': 't-online.de' },
  streets: [
    'Hauptstraße',
    'Bahnhofstraße',
    'Schillerstraße',
    'Goethestraße',
    'Lindenallee',
    'Gartenweg',
    'Marktplatz',
    'Bergstraße',
  ],
};

/** The shops of the countries the eCommerce connectors sell in; any other keeps the Belgian one. */
const SHOPS: Readonly<Partial<Record<Country, ShopProfile>>> = { BE, DE };

/** The shop of an eCommerce connector: its country's (from the catalogue), Belgian by default. */
export function shopOf(integrationid: number): ShopProfile {
  const country = countryOf(
    loadCatalogue().get(integrationid) ?? { integrationid, supported_countries: null },
  );
  return SHOPS[country] ?? BE;
}

/** The countries a shop ships to: where its customers come from, by code. */
export const shipsTo = (shop: ShopProfile): { code: string; name: string }[] =>
  shop.origins
    .map((o) => ({ code: o.country, name: o.name }))
    .sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));

/** A phone number of the shop's country, drawn: a mobile one (`+324...` in Belgium, `+4917...` in Germany). */
export const shopPhone = (faker: Faker, shop: ShopProfile): string =>
  `${COUNTRY_TRAITS[shop.country].phonePrefix}${shop.mobilePrefix}${faker.string.numeric(8)}`;

/** An e-mail address drawn (vertical-data's emailOf), with the provider of the shop's country. */
export function emailIn(shop: ShopProfile, email: string): string {
  const at = email.lastIndexOf('@');
  const domain = shop.emailDomains[email.slice(at + 1)];
  return domain ? `${email.slice(0, at + 1)}${domain}` : email;
}

/** A street the faker drew, as a street of the shop's country: one of its streets, always the same for it. */
export function streetIn(shop: ShopProfile, street: string): string {
  if (shop.streets.length === 0) return street;
  let hash = 0;
  for (const char of street) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  return shop.streets[hash % shop.streets.length] as string;
}

/** A building number the faker drew, written the country's way (`12 bis` is `12a` in Germany). */
export const numberIn = (shop: ShopProfile, number: string): string =>
  shop.country === 'BE' ? number : number.replace(/ bis$/, 'a');

/**
 * The shop's tax of a rate: its own country's first (the country of the first on its list), as 21 %
 * in a Belgian shop is the Belgian rate and not the Dutch one; else the first of that rate it lists.
 */
export const taxOfRate = <T extends { rate: number; country: string | null }>(
  taxes: readonly T[],
  rate: number,
): T | undefined =>
  taxes.find((t) => t.rate === rate && t.country === taxes[0]?.country) ?? taxes.find((t) => t.rate === rate);
