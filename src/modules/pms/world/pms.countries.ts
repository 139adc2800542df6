import { loadCatalogue } from '../../../platform/catalogue.js';
import { COUNTRY_TRAITS, type Country, countryOf } from '../../../platform/countries.js';
import type { Faker } from '../../../platform/seeding/fakers.js';
import { emailOf, phoneOf, pick } from '../../../platform/seeding/vertical-data.js';

/**
 * The hotels of a PMS connection are of its software's country (platform/countries.ts): their
 * places and time zone, the VAT rates a hotel charges there and the labels in its language, the
 * city tax, the guests, the payment methods and the accounts they are booked to. Belgium is the
 * PMS as the sandbox always drew it; Thais is French. A connector of a country the PMS has no hotels
 * of keeps Belgium's.
 */

/** The countries whose hotels the PMS draws. */
export type PmsCountry = 'BE' | 'FR';

/** What a stay's line is, for the tax it takes: the nights, food served, anything else, the city tax. */
export type TaxRole = 'lodging' | 'food' | 'standard' | 'city';

export interface PmsHotel {
  suffix: string;
  city: string;
  postal: string;
  rooms: number;
  /** The rate of a double room's weekday night, before taxes. */
  base: number;
  /** The city tax per person and night (no VAT on it). */
  cityTax: number;
}

export interface PmsTax {
  key: string;
  label: string;
  rate: number | null;
  city: boolean;
}

export interface PmsCategory {
  key: 'rooms' | 'breakfast' | 'fb' | 'parking' | 'city';
  name: string;
  code: string;
  account: string;
  posting: string;
}

export interface PmsMethod {
  name: string;
  extra: string | null;
  account: string;
  weight: number;
  /** Taken only at the first hotel (cash). */
  firstHotelOnly: boolean;
}

/** The words of a country's stays, invoices and postings. */
export interface PmsWords {
  /** A hotel's name starts with it. */
  hotel: string;
  single: string;
  double: string;
  suite: string;
  night: string;
  weekendNight: string;
  longStay: string;
  breakfast: string;
  dinner: string;
  minibar: string;
  parking: string;
  cityTax: string;
  home: string;
  office: string;
  deposit: (invoiceNumber: string) => string;
  payment: (invoiceNumber: string) => string;
  /** The tax's word on a tax posting ('VAT 6%'). */
  vat: string;
  /** A revenue posting's count of lines: 'Accommodation (2 lines)'. */
  lines: (count: number) => string;
}

export interface PmsProfile {
  country: PmsCountry;
  timezone: string;
  hotels: readonly PmsHotel[];
  /** The property's taxes, in the order the API lists them; the city tax last. */
  taxes: readonly PmsTax[];
  /** The key of the tax each kind of line takes. */
  taxOf: Readonly<Record<TaxRole, string>>;
  categories: readonly PmsCategory[];
  methods: readonly PmsMethod[];
  /** Where the guests live, weighted. */
  guestCountries: readonly { weight: number; value: string }[];
  /** The first digits of a guest's account number (the clients' account of the country's chart). */
  guestAccounts: string;
  /** The account VAT due is booked to. */
  vatAccount: string;
  words: PmsWords;
  /** A guest's phone, e-mail and address place, from the country they live in. */
  guestPhone(faker: Faker, country: string): string;
  guestEmail(faker: Faker, first: string, last: string): string;
  guestPlace(faker: Faker, country: string): { city: string; postal_code: string };
}

// ---------------------------------------------------------------------------------------------------
// Belgium: two hotels, Brussels and Bruges, as the sandbox always drew them.

const BE: PmsProfile = {
  country: 'BE',
  timezone: 'Europe/Brussels',
  hotels: [
    { suffix: 'Grand-Place', city: 'Bruxelles', postal: '1000', rooms: 14, base: 129, cityTax: 4.24 },
    { suffix: 'Canal Lodge', city: 'Brugge', postal: '8000', rooms: 10, base: 109, cityTax: 4.24 },
  ],
  taxes: [
    { key: 'v6', label: 'VAT 6% (accommodation)', rate: 6, city: false },
    { key: 'v12', label: 'VAT 12% (food)', rate: 12, city: false },
    { key: 'v21', label: 'VAT 21%', rate: 21, city: false },
    { key: 'city', label: 'City tax', rate: null, city: true },
  ],
  taxOf: { lodging: 'v6', food: 'v12', standard: 'v21', city: 'city' },
  categories: [
    { key: 'rooms', name: 'Accommodation', code: 'ROOM', account: '700000', posting: '740000' },
    { key: 'breakfast', name: 'Breakfast', code: 'BRK', account: '700100', posting: '740100' },
    { key: 'fb', name: 'Food and beverage', code: 'FNB', account: '700200', posting: '740200' },
    { key: 'parking', name: 'Parking', code: 'PARK', account: '700400', posting: '740400' },
    { key: 'city', name: 'City tax', code: 'CITY', account: '453000', posting: '453000' },
  ],
  methods: [
    {
      name: 'Credit card',
      extra: 'Visa / Mastercard / Amex',
      account: '550100',
      weight: 45,
      firstHotelOnly: false,
    },
    { name: 'Bancontact', extra: null, account: '550200', weight: 20, firstHotelOnly: false },
    { name: 'Cash', extra: 'Espèces', account: '570000', weight: 5, firstHotelOnly: true },
    { name: 'Bank transfer', extra: 'Virement', account: '550000', weight: 10, firstHotelOnly: false },
    {
      name: 'Booking.com virtual card',
      extra: 'OTA payout',
      account: '550300',
      weight: 15,
      firstHotelOnly: false,
    },
    { name: 'Gift voucher', extra: 'Bon cadeau', account: '440500', weight: 5, firstHotelOnly: false },
  ],
  guestCountries: [
    { weight: 50, value: 'BE' },
    { weight: 15, value: 'FR' },
    { weight: 15, value: 'NL' },
    { weight: 10, value: 'DE' },
    { weight: 10, value: 'GB' },
  ],
  guestAccounts: '400',
  vatAccount: '451000',
  words: {
    hotel: 'Hotel',
    single: 'Single room',
    double: 'Double room',
    suite: 'Suite',
    night: 'night',
    weekendNight: 'weekend night',
    longStay: 'Long stay discount',
    breakfast: 'Breakfast',
    dinner: 'Dinner at the restaurant',
    minibar: 'Minibar',
    parking: 'Parking',
    cityTax: 'City tax',
    home: 'Home',
    office: 'Head office',
    deposit: (invoice) => `Deposit for invoice ${invoice}`,
    payment: (invoice) => `Payment for invoice ${invoice}`,
    vat: 'VAT',
    lines: (count) => `${count} line${count > 1 ? 's' : ''}`,
  },
  // Every guest has a Belgian mobile and a place drawn by the Belgian faker, wherever they live.
  guestPhone: (faker) => phoneOf(faker),
  guestEmail: emailOf,
  guestPlace: (faker) => ({ city: faker.location.city(), postal_code: faker.location.zipCode('####') }),
};

// ---------------------------------------------------------------------------------------------------
// France: two hotels, Paris and Lyon, as Thais keeps them.

const FR_TRAITS = COUNTRY_TRAITS.FR;
/** Nights and meals served: the intermediate rate (10 %); the minibar, parking and the rest: 20 %. */
const FR_REDUCED = FR_TRAITS.foodRates.onSite;
const FR_STANDARD = FR_TRAITS.vatRates[0] as number;
type Place = (typeof FR_TRAITS.places)[number];
const [PARIS, LYON] = FR_TRAITS.places as readonly [Place, Place, ...Place[]];

/** The first digits of a mobile number after the country's prefix, where the guests may live. */
const MOBILES: Readonly<Record<Country, string>> = { BE: '4', FR: '6', NL: '6', DE: '17', ES: '6' };
/** The e-mail providers of French guests, for the Belgian ones emailOf draws. */
const FR_MAIL: Readonly<Record<string, string>> = { '@proximus.be': '@orange.fr', '@telenet.be': '@free.fr' };

const FR: PmsProfile = {
  country: 'FR',
  timezone: 'Europe/Paris',
  // A three-star hotel's taxe de séjour, per person and night, in Paris and in Lyon.
  hotels: [
    { suffix: 'Bastille', city: PARIS.city, postal: PARIS.postal_code, rooms: 14, base: 159, cityTax: 5.2 },
    { suffix: 'Bellecour', city: LYON.city, postal: LYON.postal_code, rooms: 10, base: 119, cityTax: 1.65 },
  ],
  taxes: [
    { key: `v${FR_REDUCED}`, label: `TVA ${FR_REDUCED}%`, rate: FR_REDUCED, city: false },
    { key: `v${FR_STANDARD}`, label: `TVA ${FR_STANDARD}%`, rate: FR_STANDARD, city: false },
    { key: 'city', label: 'Taxe de séjour', rate: null, city: true },
  ],
  taxOf: { lodging: `v${FR_REDUCED}`, food: `v${FR_REDUCED}`, standard: `v${FR_STANDARD}`, city: 'city' },
  // Accounts of the Plan comptable général, as the French ledgers of the Accounting vertical have
  // them: services sold (706), the taxe de séjour collected (447), cards and cheques still to be
  // cashed (511), the bank (512000), the cash (530000), the clients (411) and VAT due (445710).
  categories: [
    { key: 'rooms', name: 'Hébergement', code: 'ROOM', account: '706100', posting: '706100' },
    { key: 'breakfast', name: 'Petit-déjeuner', code: 'BRK', account: '706200', posting: '706200' },
    { key: 'fb', name: 'Restauration', code: 'FNB', account: '706300', posting: '706300' },
    { key: 'parking', name: 'Parking', code: 'PARK', account: '706400', posting: '706400' },
    { key: 'city', name: 'Taxe de séjour', code: 'CITY', account: '447000', posting: '447000' },
  ],
  methods: [
    {
      name: 'Carte bancaire',
      extra: 'CB / Visa / Mastercard / Amex',
      account: '511500',
      weight: 45,
      firstHotelOnly: false,
    },
    { name: 'Chèque-Vacances', extra: 'ANCV', account: '511200', weight: 20, firstHotelOnly: false },
    { name: 'Espèces', extra: null, account: '530000', weight: 5, firstHotelOnly: true },
    { name: 'Virement', extra: 'Virement SEPA', account: '512000', weight: 10, firstHotelOnly: false },
    {
      name: 'Carte virtuelle Booking.com',
      extra: 'Versement OTA',
      account: '511600',
      weight: 15,
      firstHotelOnly: false,
    },
    { name: 'Bon cadeau', extra: 'Chèque cadeau', account: '419100', weight: 5, firstHotelOnly: false },
  ],
  guestCountries: [
    { weight: 50, value: 'FR' },
    { weight: 15, value: 'BE' },
    { weight: 15, value: 'DE' },
    { weight: 10, value: 'ES' },
    { weight: 10, value: 'NL' },
  ],
  guestAccounts: '411',
  vatAccount: '445710',
  words: {
    hotel: 'Hôtel',
    single: 'Chambre simple',
    double: 'Chambre double',
    suite: 'Suite',
    night: 'nuit',
    weekendNight: 'nuit de week-end',
    longStay: 'Remise long séjour',
    breakfast: 'Petit-déjeuner',
    dinner: 'Dîner au restaurant',
    minibar: 'Minibar',
    parking: 'Parking',
    cityTax: 'Taxe de séjour',
    home: 'Domicile',
    office: 'Siège social',
    deposit: (invoice) => `Acompte sur la facture ${invoice}`,
    payment: (invoice) => `Règlement de la facture ${invoice}`,
    vat: 'TVA',
    lines: (count) => `${count} ligne${count > 1 ? 's' : ''}`,
  },
  // A guest's mobile and town are of the country they live in.
  guestPhone: (faker, country) => {
    const home = country in MOBILES ? (country as Country) : 'FR';
    return `${COUNTRY_TRAITS[home].phonePrefix}${MOBILES[home]}${faker.string.numeric(8)}`;
  },
  guestEmail: (faker, first, last) =>
    emailOf(faker, first, last).replace(/@(proximus|telenet)\.be$/, (domain) => FR_MAIL[domain] ?? domain),
  guestPlace: (faker, country) => {
    const home = country in COUNTRY_TRAITS ? (country as Country) : 'FR';
    const { city, postal_code } = pick(faker, COUNTRY_TRAITS[home].places);
    return { city, postal_code };
  },
};

const PMS_PROFILES: Readonly<Record<PmsCountry, PmsProfile>> = { BE, FR };

/** The country of a PMS connector's hotels: its own when the PMS has hotels there, else Belgium. */
export function pmsCountryOf(integrationid: number): PmsCountry {
  const country = countryOf(
    loadCatalogue().get(integrationid) ?? { integrationid, supported_countries: null },
  );
  return country in PMS_PROFILES ? (country as PmsCountry) : 'BE';
}

/** The profile of a PMS connector's hotels. */
export const pmsProfileOf = (integrationid: number): PmsProfile => PMS_PROFILES[pmsCountryOf(integrationid)];
