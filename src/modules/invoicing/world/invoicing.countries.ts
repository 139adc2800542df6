import { loadCatalogue } from '../../../platform/catalogue.js';
import { COUNTRY_TRAITS, type Country, countryOf } from '../../../platform/countries.js';
import type { Faker } from '../../../platform/seeding/fakers.js';
import { belgianCompanyNumber, belgianIban } from '../../../platform/seeding/finance-fakes.js';
import type { InvoicingInvoiceTypeValue, InvoicingTax } from '../model/invoicing.records.js';

/**
 * The invoicing software of a connection as its connector's country has it (platform/countries.ts
 * gives the country, its VAT rates and VAT numbers, phone prefixes, languages and places): the taxes it
 * lists, in the country's words, the tax of each product, the legal mention of a line without VAT, how
 * it numbers invoices, its journals and accounts, its bank, and its customers and suppliers, mostly of
 * the country. Belgium is the company the sandbox always drew, unchanged.
 */

/** Rate, label, code, type, scope, active. */
export type TaxRow = readonly [number, string, string, InvoicingTax['type'], InvoicingTax['scope'], boolean];

/** What a product's tax follows: the standard rate, or the reduced one of books, of plants, of renovation works. */
export type ProductTaxKind = 'standard' | 'books' | 'plants' | 'works';

interface JournalRef {
  id: string;
  name: string;
}

export interface InvoicingCountry {
  country: Country;
  /** The taxes, in the order the software lists them. */
  taxes: readonly TaxRow[];
  /** The code of the tax of each kind of product. */
  productTaxes: Readonly<Record<ProductTaxKind, string>>;
  /** The code of the tax of an export (no VAT). */
  exportTax: string;
  /** The legal mention of a line without VAT: exempt, or exported outside the EU. */
  exemption: { exempt: string; export: string };
  /** The prefix of each type's series of numbers. */
  prefixes: Readonly<Record<InvoicingInvoiceTypeValue, string>>;
  /** A number of a series (a year, or a day), its tail the count in it. */
  number(prefix: string, series: string, tail: string): string;
  /** Whether customer invoices carry the Belgian structured communication (+++123/4567/89012+++). */
  structuredCommunication: boolean;
  journals: { sale: JournalRef; purchase: JournalRef };
  /** The general ledger's accounts the software books to. */
  accounts: {
    salesGoods: string;
    salesServices: string;
    purchaseGoods: string;
    purchaseServices: string;
    bankFees: string;
    transfers: string;
    interest: string;
    /** A customer's (supplier's) own account: this, and its number among the contacts on 3 digits. */
    customer: string;
    supplier: string;
  };
  /** The countries of its customers and suppliers: mostly its own, now and then a neighbour's. */
  partners: readonly { weight: number; value: Country }[];
}

/** The words a country's taxes are built from (their rates are the country's, from COUNTRY_TRAITS). */
interface TaxWords {
  /** The word for VAT on a label, and the code's prefix. */
  word: string;
  code: string;
  exempt: string;
  /** Intra-EU supply (reverse charge), export, intra-EU purchase: label and code. */
  intraSupply: [string, string];
  export: [string, string];
  intraPurchase: [string, string];
  /** The rate the country had before, and the words that say so. */
  old: [number, string];
}

/** A rate as the country writes it: 5,5 in France. */
const written = (rate: number) => String(rate).replace('.', ',');

/**
 * The taxes of a country: one for each of its VAT rates (COUNTRY_TRAITS), none, intra-EU supply and
 * export (both at 0), intra-EU purchase at the standard rate, and the old rate, inactive.
 */
function taxesOf(country: Country, words: TaxWords): TaxRow[] {
  const rates = COUNTRY_TRAITS[country].vatRates;
  const standard = rates[0] as number;
  const rows: TaxRow[] = rates
    .filter((rate) => rate > 0)
    .map((rate) => [rate, `${words.word} ${written(rate)}%`, `${words.code}${rate}`, 'both', 'nat', true]);
  return [
    ...rows,
    [0, words.exempt, `${words.code}0`, 'both', 'nat', true],
    [0, words.intraSupply[0], words.intraSupply[1], 'sale', 'eu', true],
    [0, words.export[0], words.export[1], 'sale', 'int', true],
    [
      standard,
      `${words.intraPurchase[0]} ${written(standard)}%`,
      `${words.intraPurchase[1]}${standard}`,
      'purchase',
      'eu',
      true,
    ],
    [
      words.old[0],
      `${words.word} ${written(words.old[0])}% ${words.old[1]}`,
      `${words.code}${words.old[0]}`,
      'both',
      'nat',
      false,
    ],
  ];
}

/** The code of a country's tax at a rate (a national one). */
const codeAt = (words: TaxWords, rate: number) => `${words.code}${rate}`;

/** The codes of the products' taxes: the standard rate, and the rates of books, plants and works. */
function productTaxesOf(
  country: Country,
  words: TaxWords,
  reduced: Record<Exclude<ProductTaxKind, 'standard'>, number>,
): Record<ProductTaxKind, string> {
  const standard = COUNTRY_TRAITS[country].vatRates[0] as number;
  return {
    standard: codeAt(words, standard),
    books: codeAt(words, reduced.books),
    plants: codeAt(words, reduced.plants),
    works: codeAt(words, reduced.works),
  };
}

const weighted = (...pairs: [number, Country][]) => pairs.map(([weight, value]) => ({ weight, value }));

const BE: InvoicingCountry = {
  country: 'BE',
  taxes: [
    [21, 'VAT 21%', 'V21', 'both', 'nat', true],
    [12, 'VAT 12%', 'V12', 'both', 'nat', true],
    [6, 'VAT 6%', 'V06', 'both', 'nat', true],
    [0, 'VAT exempt', 'V00', 'both', 'nat', true],
    [0, 'Intra-community supply (reverse charge)', 'ICL', 'sale', 'eu', true],
    [0, 'Export outside the EU', 'EXP', 'sale', 'int', true],
    [21, 'Intra-community purchase 21%', 'ICA21', 'purchase', 'eu', true],
    [19.5, 'VAT 19.5% (no longer used)', 'V195', 'both', 'nat', false],
  ],
  productTaxes: { standard: 'V21', books: 'V06', plants: 'V06', works: 'V06' },
  exportTax: 'EXP',
  exemption: { exempt: 'Article 44 of the VAT code', export: 'Export outside the EU' },
  prefixes: {
    customer_invoice: 'INV',
    customer_refund: 'CN',
    supplier_invoice: 'BILL',
    supplier_refund: 'BCN',
  },
  number: (prefix, series, tail) => `${prefix}-${series}-${tail}`,
  structuredCommunication: true,
  journals: { sale: { id: 'SAL', name: 'Sales journal' }, purchase: { id: 'PUR', name: 'Purchase journal' } },
  accounts: {
    salesGoods: '700000',
    salesServices: '700100',
    purchaseGoods: '604000',
    purchaseServices: '613000',
    bankFees: '657000',
    transfers: '580000',
    interest: '751000',
    customer: '400',
    supplier: '440',
  },
  partners: weighted([8, 'BE'], [1, 'FR'], [1, 'NL']),
};

const FR_WORDS: TaxWords = {
  word: 'TVA',
  code: 'TVA',
  exempt: 'Exonéré de TVA',
  intraSupply: ['Livraison intracommunautaire (autoliquidation)', 'LIC'],
  export: ['Exportation hors UE', 'EXP'],
  intraPurchase: ['Acquisition intracommunautaire', 'AIC'],
  old: [19.6, '(ancien taux)'],
};

const FR: InvoicingCountry = {
  country: 'FR',
  taxes: taxesOf('FR', FR_WORDS),
  productTaxes: productTaxesOf('FR', FR_WORDS, { books: 5.5, plants: 10, works: 10 }),
  exportTax: 'EXP',
  exemption: {
    exempt: 'Exonération de TVA, article 261 du CGI',
    export: 'Exonération de TVA, article 262 I du CGI',
  },
  prefixes: { customer_invoice: 'FA', customer_refund: 'AV', supplier_invoice: 'AC', supplier_refund: 'AF' },
  number: (prefix, series, tail) => `${prefix}${series}-${tail}`,
  structuredCommunication: false,
  journals: {
    sale: { id: 'VT', name: 'Journal des ventes' },
    purchase: { id: 'AC', name: 'Journal des achats' },
  },
  accounts: {
    salesGoods: '707000',
    salesServices: '706000',
    purchaseGoods: '607000',
    purchaseServices: '604000',
    bankFees: '627000',
    transfers: '580000',
    interest: '768000',
    customer: '411',
    supplier: '401',
  },
  partners: weighted([8, 'FR'], [1, 'BE'], [1, 'DE']),
};

const NL_WORDS: TaxWords = {
  word: 'BTW',
  code: 'BTW',
  exempt: 'Vrijgesteld van btw',
  intraSupply: ['Intracommunautaire levering (btw verlegd)', 'ICP'],
  export: ['Export buiten de EU', 'EXP'],
  intraPurchase: ['Intracommunautaire verwerving', 'ICV'],
  old: [6, '(tot 2019)'],
};

const NL: InvoicingCountry = {
  country: 'NL',
  taxes: taxesOf('NL', NL_WORDS),
  productTaxes: productTaxesOf('NL', NL_WORDS, { books: 9, plants: 9, works: 9 }),
  exportTax: 'EXP',
  exemption: {
    exempt: 'Vrijgesteld van btw (artikel 11 Wet OB 1968)',
    export: 'Export buiten de EU, 0% btw (artikel 9 Wet OB 1968)',
  },
  prefixes: { customer_invoice: '', customer_refund: 'CN', supplier_invoice: 'IK', supplier_refund: 'IKC' },
  number: (prefix, series, tail) => `${prefix}${series}-${tail}`,
  structuredCommunication: false,
  journals: { sale: { id: 'VK', name: 'Verkoopboek' }, purchase: { id: 'IK', name: 'Inkoopboek' } },
  accounts: {
    salesGoods: '8010',
    salesServices: '8020',
    purchaseGoods: '7000',
    purchaseServices: '4520',
    bankFees: '4910',
    transfers: '1200',
    interest: '8950',
    customer: '13',
    supplier: '16',
  },
  partners: weighted([8, 'NL'], [1, 'BE'], [1, 'DE']),
};

const DE_WORDS: TaxWords = {
  word: 'MwSt',
  code: 'UST',
  exempt: 'Steuerfrei',
  intraSupply: ['Innergemeinschaftliche Lieferung (steuerfrei)', 'IGL'],
  export: ['Ausfuhrlieferung (Drittland)', 'EXP'],
  intraPurchase: ['Innergemeinschaftlicher Erwerb', 'IGE'],
  old: [16, '(2. Halbjahr 2020)'],
};

const DE: InvoicingCountry = {
  country: 'DE',
  taxes: taxesOf('DE', DE_WORDS),
  productTaxes: productTaxesOf('DE', DE_WORDS, { books: 7, plants: 7, works: 19 }),
  exportTax: 'EXP',
  exemption: {
    exempt: 'Steuerfrei nach § 4 UStG',
    export: 'Steuerfreie Ausfuhrlieferung (§ 4 Nr. 1a UStG)',
  },
  prefixes: { customer_invoice: 'RE', customer_refund: 'GS', supplier_invoice: 'ER', supplier_refund: 'EG' },
  number: (prefix, series, tail) => `${prefix}-${series}-${tail}`,
  structuredCommunication: false,
  journals: {
    sale: { id: 'AR', name: 'Ausgangsrechnungen' },
    purchase: { id: 'ER', name: 'Eingangsrechnungen' },
  },
  accounts: {
    salesGoods: '8400',
    salesServices: '8400',
    purchaseGoods: '3200',
    purchaseServices: '4950',
    bankFees: '4970',
    transfers: '1360',
    interest: '2650',
    customer: '10',
    supplier: '70',
  },
  partners: weighted([8, 'DE'], [1, 'FR'], [1, 'BE']),
};

const ES_WORDS: TaxWords = {
  word: 'IVA',
  code: 'IVA',
  exempt: 'Exento de IVA',
  intraSupply: ['Entrega intracomunitaria exenta', 'EIC'],
  export: ['Exportación', 'EXP'],
  intraPurchase: ['Adquisición intracomunitaria', 'AIC'],
  old: [18, '(tipo anterior)'],
};

const ES: InvoicingCountry = {
  country: 'ES',
  taxes: taxesOf('ES', ES_WORDS),
  productTaxes: productTaxesOf('ES', ES_WORDS, { books: 4, plants: 10, works: 10 }),
  exportTax: 'EXP',
  exemption: {
    exempt: 'Operación exenta de IVA (artículo 20 de la Ley 37/1992)',
    export: 'Exportación exenta de IVA (artículo 21 de la Ley 37/1992)',
  },
  prefixes: { customer_invoice: 'A', customer_refund: 'R', supplier_invoice: 'C', supplier_refund: 'RC' },
  number: (prefix, series, tail) => `${prefix}/${series}/${tail}`,
  structuredCommunication: false,
  journals: { sale: { id: 'VEN', name: 'Ventas' }, purchase: { id: 'COM', name: 'Compras' } },
  accounts: {
    salesGoods: '700000',
    salesServices: '705000',
    purchaseGoods: '600000',
    purchaseServices: '623000',
    bankFees: '626000',
    transfers: '572100',
    interest: '769000',
    customer: '430',
    supplier: '400',
  },
  partners: weighted([8, 'ES'], [1, 'FR'], [1, 'DE']),
};

export const INVOICING_COUNTRIES: Readonly<Record<Country, InvoicingCountry>> = { BE, FR, NL, DE, ES };

/** The invoicing software of a connector's country (platform/countries.ts). */
export const invoicingCountryOf = (integrationid: number): InvoicingCountry =>
  INVOICING_COUNTRIES[
    countryOf(loadCatalogue().get(integrationid) ?? { integrationid, supported_countries: null })
  ];

// ---- customers and suppliers ----------------------------------------------------------------------

/** The country of a partner paying in USD. */
export type PartnerCountry = Country | 'US';

const numeric = (faker: Faker, length: number) => faker.string.numeric({ length, allowLeadingZeros: true });

/** A partner's VAT number (COUNTRY_TRAITS) and its company number: SIREN, KvK, register, CIF. */
export function partnerIds(faker: Faker, country: Country): { vat: string; company: string | null } {
  if (country === 'BE') {
    // The Belgian enterprise number, with its check digits, as the Belgian company always drew it.
    const number = belgianCompanyNumber(faker);
    return { vat: `BE${number}`, company: number };
  }
  const vat = COUNTRY_TRAITS[country].vatNumber(faker);
  if (country === 'FR') return { vat, company: vat.slice(4) };
  if (country === 'NL') return { vat, company: numeric(faker, 8) };
  if (country === 'DE') return { vat, company: `HRB ${numeric(faker, 5)}` };
  return { vat, company: vat.slice(2) };
}

/** The landline and the mobile numbers of a country, after its prefix (COUNTRY_TRAITS). */
const PHONES: Readonly<
  Record<PartnerCountry, { landline(faker: Faker): string; mobile(faker: Faker): string }>
> = {
  BE: {
    landline: (f) => `2 ${numeric(f, 3)} ${numeric(f, 2)} ${numeric(f, 2)}`,
    mobile: (f) => `4${numeric(f, 2)} ${numeric(f, 2)} ${numeric(f, 2)} ${numeric(f, 2)}`,
  },
  FR: {
    landline: (f) =>
      `${f.number.int({ min: 1, max: 5 })} ${numeric(f, 2)} ${numeric(f, 2)} ${numeric(f, 2)} ${numeric(f, 2)}`,
    mobile: (f) => `6 ${numeric(f, 2)} ${numeric(f, 2)} ${numeric(f, 2)} ${numeric(f, 2)}`,
  },
  NL: {
    landline: (f) =>
      `${f.helpers.arrayElement(['20', '10', '30', '40', '70'])} ${numeric(f, 3)} ${numeric(f, 4)}`,
    mobile: (f) => `6 ${numeric(f, 4)} ${numeric(f, 4)}`,
  },
  DE: {
    landline: (f) => `${f.helpers.arrayElement(['30', '40', '89', '221'])} ${numeric(f, 7)}`,
    mobile: (f) => `1${f.helpers.arrayElement(['51', '60', '70', '76'])} ${numeric(f, 7)}`,
  },
  ES: {
    landline: (f) =>
      `9${f.helpers.arrayElement(['1', '3', '5', '6'])} ${numeric(f, 3)} ${numeric(f, 2)} ${numeric(f, 2)}`,
    mobile: (f) => `6${numeric(f, 2)} ${numeric(f, 3)} ${numeric(f, 3)}`,
  },
  US: {
    landline: (f) => `212 555 ${numeric(f, 4)}`,
    mobile: (f) => `646 555 ${numeric(f, 4)}`,
  },
};

const prefixOf = (country: PartnerCountry) => (country === 'US' ? '+1' : COUNTRY_TRAITS[country].phonePrefix);

/** A landline number of a partner of a country. */
export const landlineIn = (faker: Faker, country: PartnerCountry) =>
  `${prefixOf(country)} ${PHONES[country].landline(faker)}`;

/** A mobile number of a partner of a country. */
export const mobileIn = (faker: Faker, country: PartnerCountry) =>
  `${prefixOf(country)} ${PHONES[country].mobile(faker)}`;

/** Streets of each country's addresses (their cities and postal codes are COUNTRY_TRAITS' places). */
const STREETS: Readonly<Record<PartnerCountry, readonly string[]>> = {
  BE: [
    'Rue Royale',
    'Chaussée de Louvain',
    'Kerkstraat',
    'Rue de la Station',
    'Stationsstraat',
    'Avenue Louise',
  ],
  FR: [
    'rue de la République',
    'avenue Jean Jaurès',
    'rue Victor Hugo',
    'boulevard Voltaire',
    'rue des Écoles',
    'avenue de la Gare',
  ],
  NL: ['Hoofdstraat', 'Kerkstraat', 'Dorpsstraat', 'Stationsweg', 'Molenweg', 'Industrieweg'],
  DE: ['Hauptstraße', 'Bahnhofstraße', 'Schulstraße', 'Gartenstraße', 'Lindenstraße', 'Berliner Straße'],
  ES: [
    'Calle Mayor',
    'Calle Real',
    'Avenida de la Constitución',
    'Calle del Sol',
    'Calle de Alcalá',
    'Gran Vía',
  ],
  US: ['Main Street', 'Broadway', 'Market Street', 'Park Avenue'],
};

const US_PLACES = [
  { city: 'New York', postal_code: '10001' },
  { city: 'Boston', postal_code: '02108' },
  { city: 'Chicago', postal_code: '60601' },
  { city: 'San Francisco', postal_code: '94105' },
];

/** A street, city and postal code of a country. */
export function placeIn(
  faker: Faker,
  country: PartnerCountry,
): { street: string; city: string; postal_code: string } {
  const places = country === 'US' ? US_PLACES : COUNTRY_TRAITS[country].places;
  const place = faker.helpers.arrayElement(places);
  return {
    street: faker.helpers.arrayElement(STREETS[country]),
    city: place.city,
    postal_code: place.postal_code,
  };
}

/** The legal forms of companies of each country. */
const FORMS: Readonly<Record<PartnerCountry, readonly string[]>> = {
  BE: ['SRL', 'SA', 'BV', 'NV'],
  FR: ['SARL', 'SAS', 'SA', 'EURL'],
  NL: ['B.V.', 'B.V.', 'V.O.F.', 'Holding B.V.'],
  DE: ['GmbH', 'GmbH', 'KG', 'AG'],
  ES: ['S.L.', 'S.L.', 'S.A.', 'S.L.U.'],
  US: ['Inc.', 'LLC', 'Corp.'],
};

/** The name of a company of a country: a family name and the country's legal form. */
export const companyNameIn = (faker: Faker, country: PartnerCountry) =>
  `${faker.person.lastName()} ${faker.helpers.arrayElement(FORMS[country])}`;

/** The language of a partner of a country. */
export const languageIn = (country: PartnerCountry) =>
  country === 'US' ? 'en' : COUNTRY_TRAITS[country].language;

// ---- the company's bank -----------------------------------------------------------------------------

/** The IBAN of a country's account number (BBAN), with its check digits (ISO 13616). */
function ibanOf(country: Country, bban: string): string {
  const letters = `${bban}${country}00`.replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55));
  const check = 98 - Number(BigInt(letters) % 97n);
  return `${country}${String(check).padStart(2, '0')}${bban}`;
}

/** An IBAN of the company's bank, in its country. */
export function ibanIn(faker: Faker, country: Country): string {
  switch (country) {
    case 'FR': {
      // Bank, branch, account and the RIB key that checks them.
      const bank = faker.helpers.arrayElement(['30004', '30003', '30002', '20041', '10278']);
      const branch = numeric(faker, 5);
      const account = numeric(faker, 11);
      const key = 97 - Number((89n * BigInt(bank) + 15n * BigInt(branch) + 3n * BigInt(account)) % 97n);
      return ibanOf('FR', `${bank}${branch}${account}${String(key).padStart(2, '0')}`);
    }
    case 'NL':
      return ibanOf(
        'NL',
        `${faker.helpers.arrayElement(['INGB', 'RABO', 'ABNA', 'BUNQ', 'TRIO'])}${numeric(faker, 10)}`,
      );
    case 'DE':
      return ibanOf('DE', `${numeric(faker, 8)}${numeric(faker, 10)}`);
    case 'ES':
      return ibanOf(
        'ES',
        `${faker.helpers.arrayElement(['0049', '0182', '2100', '0081'])}${numeric(faker, 16)}`,
      );
    default:
      return belgianIban(faker);
  }
}
