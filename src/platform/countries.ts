import type { Integration } from './catalogue.js';
import type { Faker } from './seeding/fakers.js';

/**
 * The countries the seeded world's connectors live in, and what every vertical draws the same way
 * there: the VAT rates, the VAT number, the phone prefix, the language of labels, the places. A
 * connection's data is of its connector's country (countryOf): a French POS sells at French VAT
 * rates, a Belgian invoicing tool numbers its customers' VAT BE0..., and so on. The Accounting
 * vertical's ledgers add their chart of accounts, journals and document numbers on top
 * (modules/accounting/model/accounting.profiles.ts).
 */

export const COUNTRIES = ['BE', 'FR', 'NL', 'DE', 'ES'] as const;
export type Country = (typeof COUNTRIES)[number];

/**
 * The country of the connectors whose catalogue entry names none, by integration id: the software's
 * home market. Connectors sold in many countries under one name (Quickbooks, Square, Zettle, SumUp,
 * GoCardless...) keep Belgium, the world's first country.
 */
const CONNECTOR_COUNTRIES: Readonly<Record<number, Country>> = {
  // Accounting
  1000: 'BE', // Odoo
  1005: 'BE', // Winbooks Classic
  1006: 'BE', // Sage BOB 50
  8024: 'NL', // Snelstart
  8025: 'NL', // e-Boekhouden
  8040: 'NL', // Moneybird
  8030: 'DE', // Exact Online DE
  8049: 'ES', // Contasol
  8034: 'BE', // Quickbooks
  // Invoicing
  7006: 'FR', // Vosfactures
  7010: 'FR', // Evoliz
  7015: 'FR', // Qonto
  7018: 'FR', // Sage 100 FR Gestion Commerciale
  7023: 'BE', // Billit
  // Point of Sale
  9005: 'FR', // Cashpad
  9006: 'FR', // Innovorder
  9010: 'FR', // Clyo Systems
  9012: 'FR', // Zelty (the seeded world's showcase restaurant)
  9016: 'FR', // Connectill
  9024: 'FR', // APITIC
  // Property Management System
  9503: 'FR', // Thais PMS
};

export const isCountry = (country: string | null | undefined): country is Country =>
  COUNTRIES.includes(country as Country);

/**
 * The country of a connector's data: the first of its supported countries, when the catalogue names
 * them and the world knows it; else the connector's own (CONNECTOR_COUNTRIES); else Belgium.
 */
export function countryOf(integration: Pick<Integration, 'integrationid' | 'supported_countries'>): Country {
  const first = integration.supported_countries?.[0];
  if (isCountry(first)) return first;
  return CONNECTOR_COUNTRIES[integration.integrationid] ?? 'BE';
}

/** What every vertical draws alike in a country. */
export interface CountryTraits {
  country: Country;
  /** VAT rates in percent: the standard rate first, then the reduced ones, then 0. */
  vatRates: readonly number[];
  /** The rate of food served on the premises (restaurants), and of food taken away. */
  foodRates: { onSite: number; takeAway: number; drinks: number };
  /** The language of labels (ISO 639-1). */
  language: string;
  /** The international prefix of phone numbers. */
  phonePrefix: string;
  /** How a mobile number starts (eight digits follow). */
  mobilePrefix: string;
  /** The e-mail providers of people there (five: the same draw in every country). */
  mailDomains: readonly [string, string, string, string, string];
  /** A company's VAT number, drawn. */
  vatNumber(faker: Faker): string;
  /** Cities with their postal codes, for addresses. */
  places: readonly { city: string; postal_code: string }[];
}

const digits = (faker: Faker, count: number) =>
  faker.string.numeric({ length: count, allowLeadingZeros: true });

export const COUNTRY_TRAITS: Readonly<Record<Country, CountryTraits>> = {
  BE: {
    country: 'BE',
    vatRates: [21, 12, 6, 0],
    foodRates: { onSite: 12, takeAway: 6, drinks: 21 },
    language: 'fr',
    phonePrefix: '+32',
    mobilePrefix: '+324',
    mailDomains: ['gmail.com', 'outlook.com', 'proximus.be', 'telenet.be', 'yahoo.fr'],
    vatNumber: (faker) => `BE0${digits(faker, 9)}`,
    places: [
      { city: 'Bruxelles', postal_code: '1000' },
      { city: 'Liège', postal_code: '4000' },
      { city: 'Namur', postal_code: '5000' },
      { city: 'Gent', postal_code: '9000' },
      { city: 'Antwerpen', postal_code: '2000' },
    ],
  },
  FR: {
    country: 'FR',
    vatRates: [20, 10, 5.5, 2.1, 0],
    foodRates: { onSite: 10, takeAway: 5.5, drinks: 20 },
    language: 'fr',
    phonePrefix: '+33',
    mobilePrefix: '+336',
    mailDomains: ['gmail.com', 'outlook.fr', 'orange.fr', 'free.fr', 'yahoo.fr'],
    vatNumber: (faker) => `FR${digits(faker, 2)}${digits(faker, 9)}`,
    places: [
      { city: 'Paris', postal_code: '75011' },
      { city: 'Lyon', postal_code: '69002' },
      { city: 'Lille', postal_code: '59000' },
      { city: 'Bordeaux', postal_code: '33000' },
      { city: 'Nantes', postal_code: '44000' },
    ],
  },
  NL: {
    country: 'NL',
    vatRates: [21, 9, 0],
    foodRates: { onSite: 9, takeAway: 9, drinks: 21 },
    language: 'nl',
    phonePrefix: '+31',
    mobilePrefix: '+316',
    mailDomains: ['gmail.com', 'outlook.com', 'ziggo.nl', 'kpnmail.nl', 'hotmail.nl'],
    vatNumber: (faker) => `NL${digits(faker, 9)}B01`,
    places: [
      { city: 'Amsterdam', postal_code: '1012 AB' },
      { city: 'Rotterdam', postal_code: '3011 AA' },
      { city: 'Utrecht', postal_code: '3511 AA' },
      { city: 'Eindhoven', postal_code: '5611 AA' },
    ],
  },
  DE: {
    country: 'DE',
    vatRates: [19, 7, 0],
    foodRates: { onSite: 19, takeAway: 7, drinks: 19 },
    language: 'de',
    phonePrefix: '+49',
    mobilePrefix: '+4917',
    mailDomains: ['gmail.com', 'web.de', 'gmx.de', 't-online.de', 'outlook.de'],
    vatNumber: (faker) => `DE${digits(faker, 9)}`,
    places: [
      { city: 'Berlin', postal_code: '10115' },
      { city: 'München', postal_code: '80331' },
      { city: 'Köln', postal_code: '50667' },
      { city: 'Hamburg', postal_code: '20095' },
    ],
  },
  ES: {
    country: 'ES',
    vatRates: [21, 10, 4, 0],
    foodRates: { onSite: 10, takeAway: 10, drinks: 21 },
    language: 'es',
    phonePrefix: '+34',
    mobilePrefix: '+346',
    mailDomains: ['gmail.com', 'hotmail.es', 'yahoo.es', 'telefonica.net', 'outlook.es'],
    vatNumber: (faker) => `ESB${digits(faker, 8)}`,
    places: [
      { city: 'Madrid', postal_code: '28013' },
      { city: 'Barcelona', postal_code: '08001' },
      { city: 'Valencia', postal_code: '46001' },
      { city: 'Sevilla', postal_code: '41001' },
    ],
  },
};

/** The traits of a connector's country. */
export const traitsOf = (
  integration: Pick<Integration, 'integrationid' | 'supported_countries'>,
): CountryTraits => COUNTRY_TRAITS[countryOf(integration)];
