import type { Faker } from '../../../../platform/seeding/fakers.js';
import { pick } from '../../../../platform/seeding/vertical-data.js';
import type {
  JournalDefinition,
  PartnerIds,
  Place,
  ProfileCountry,
  SeedLocale,
  Weighted,
} from '../accounting.profiles.js';

/**
 * What the country profiles share: the builders of their tables, and the people, companies and
 * addresses of the countries drawn from lists.
 */

export const weighted = <T>(...pairs: [weight: number, value: T][]): Weighted<T>[] =>
  pairs.map(([weight, value]) => ({ weight, value }));

export const journals = (
  ...rows: [JournalDefinition['role'], string, string, JournalDefinition['type'], string][]
): JournalDefinition[] =>
  rows.map(([role, code, name, type, prefix]) => ({ role, code, name, type, prefix }));

// ---------------------------------------------------------------------------------------------------
// People, companies and addresses of the other countries, drawn from short lists.

/** Streets and (postal code, city) pairs of a country. */
interface Places {
  streets: readonly string[];
  cities: readonly (readonly [postalCode: string, city: string])[];
}

const PLACES: Readonly<Record<string, Places>> = {
  BE: {
    streets: [
      'Rue Royale',
      'Chaussée de Louvain',
      'Kerkstraat',
      'Rue de la Station',
      'Stationsstraat',
      'Avenue Louise',
    ],
    cities: [
      ['1000', 'Bruxelles'],
      ['2000', 'Antwerpen'],
      ['9000', 'Gent'],
      ['4000', 'Liège'],
      ['5000', 'Namur'],
      ['3000', 'Leuven'],
      ['8000', 'Brugge'],
      ['6000', 'Charleroi'],
    ],
  },
  FR: {
    streets: [
      'rue de la République',
      'avenue Jean Jaurès',
      'rue Victor Hugo',
      'boulevard Voltaire',
      'rue du Général de Gaulle',
      'place de la Mairie',
      'rue des Écoles',
      'avenue de la Gare',
    ],
    cities: [
      ['75011', 'Paris'],
      ['69003', 'Lyon'],
      ['13006', 'Marseille'],
      ['31000', 'Toulouse'],
      ['33000', 'Bordeaux'],
      ['59000', 'Lille'],
      ['44000', 'Nantes'],
      ['67000', 'Strasbourg'],
      ['35000', 'Rennes'],
      ['34000', 'Montpellier'],
    ],
  },
  NL: {
    streets: [
      'Hoofdstraat',
      'Kerkstraat',
      'Dorpsstraat',
      'Stationsweg',
      'Molenweg',
      'Schoolstraat',
      'Marktplein',
      'Industrieweg',
    ],
    cities: [
      ['1012 AB', 'Amsterdam'],
      ['3011 BD', 'Rotterdam'],
      ['2511 CV', 'Den Haag'],
      ['3511 LN', 'Utrecht'],
      ['5611 AZ', 'Eindhoven'],
      ['9711 LM', 'Groningen'],
      ['6511 KK', 'Nijmegen'],
      ['2011 HA', 'Haarlem'],
    ],
  },
  DE: {
    streets: [
      'Hauptstraße',
      'Bahnhofstraße',
      'Schulstraße',
      'Gartenstraße',
      'Dorfstraße',
      'Industriestraße',
      'Lindenstraße',
      'Berliner Straße',
    ],
    cities: [
      ['10115', 'Berlin'],
      ['20095', 'Hamburg'],
      ['80331', 'München'],
      ['50667', 'Köln'],
      ['60311', 'Frankfurt am Main'],
      ['70173', 'Stuttgart'],
      ['40213', 'Düsseldorf'],
      ['04109', 'Leipzig'],
    ],
  },
  ES: {
    streets: [
      'Calle Mayor',
      'Calle Real',
      'Avenida de la Constitución',
      'Calle del Sol',
      'Calle Nueva',
      'Paseo de Gracia',
      'Calle de Alcalá',
      'Gran Vía',
    ],
    cities: [
      ['28013', 'Madrid'],
      ['08007', 'Barcelona'],
      ['46002', 'Valencia'],
      ['41001', 'Sevilla'],
      ['50001', 'Zaragoza'],
      ['29015', 'Málaga'],
      ['48001', 'Bilbao'],
      ['03001', 'Alicante'],
    ],
  },
  PT: {
    streets: ['Rua Augusta', 'Avenida da Liberdade', 'Rua de Santa Catarina', 'Rua do Comércio'],
    cities: [
      ['1100-148', 'Lisboa'],
      ['4000-322', 'Porto'],
      ['3000-150', 'Coimbra'],
      ['4700-424', 'Braga'],
    ],
  },
};

/** The language of a partner of a country. */
const LANGUAGES: Readonly<Record<string, string>> = { FR: 'fr', NL: 'nl', DE: 'de', ES: 'es', PT: 'pt' };

/** Digits whose first is not 0. */
const digits = (faker: Faker, length: number) => faker.string.numeric({ length, allowLeadingZeros: false });

/**
 * The VAT number and the company number of a company of a country: BE0 and the 9 digits of its
 * enterprise number; FR, the 2 check digits of the SIREN and the SIREN; NL, 9 digits and B01 (the
 * KvK number apart, 8 digits); DE, 9 digits (the commercial register's number apart); ES, its CIF;
 * PT, its NIPC.
 */
function companyIds(faker: Faker, country: string): { vat: string; company: string } {
  switch (country) {
    case 'FR': {
      const siren = digits(faker, 9);
      const key = (12 + 3 * (Number(siren) % 97)) % 97;
      return { vat: `FR${String(key).padStart(2, '0')}${siren}`, company: siren };
    }
    case 'NL':
      return { vat: `NL${digits(faker, 9)}B01`, company: digits(faker, 8) };
    case 'DE':
      return { vat: `DE${digits(faker, 9)}`, company: `HRB ${digits(faker, 5)}` };
    case 'ES': {
      const cif = `B${faker.string.numeric(8)}`;
      return { vat: `ES${cif}`, company: cif };
    }
    case 'PT': {
      const nipc = `5${faker.string.numeric(8)}`;
      return { vat: `PT${nipc}`, company: nipc };
    }
    default: {
      const enterprise = `0${faker.string.numeric(9)}`;
      return { vat: `BE${enterprise}`, company: enterprise };
    }
  }
}

function placeIn(faker: Faker, country: string): Place {
  const places = PLACES[country] ?? (PLACES.BE as Places);
  const [postal_code, city] = pick(faker, places.cities);
  return { street: pick(faker, places.streets), city, postal_code };
}

interface People {
  firstNames: readonly string[];
  lastNames: readonly string[];
  /** Legal forms of companies, and the word that joins two partners' names. */
  forms: readonly string[];
  and: string;
  /** Trades a company's name starts with. */
  trades: readonly string[];
  phone(faker: Faker): string;
  banks: readonly string[];
}

/** The locale of a country whose people and places are drawn from lists. */
export function listedLocale(
  country: ProfileCountry,
  people: People,
  partnerCountries: Weighted<string>[],
): SeedLocale {
  const companyName = (faker: Faker) => {
    const name = pick(faker, people.lastNames);
    const form = pick(faker, people.forms);
    const shape = faker.number.int({ min: 0, max: 2 });
    if (shape === 0) return `${name} ${form}`;
    if (shape === 1) return `${name} ${people.and} ${pick(faker, people.lastNames)} ${form}`;
    return `${pick(faker, people.trades)} ${name} ${form}`;
  };
  return {
    folder: (faker, suffix) => {
      const ids = companyIds(faker, country);
      const place = placeIn(faker, country);
      return {
        name: `${companyName(faker)}${suffix}`,
        vat: ids.vat,
        company_number: ids.company,
        main_currency: 'EUR',
        address: {
          street: place.street,
          number: faker.location.buildingNumber(),
          box: null,
          postal_code: place.postal_code,
          city: place.city,
          country,
        },
      };
    },
    firstName: (faker) => pick(faker, people.firstNames),
    lastName: (faker) => pick(faker, people.lastNames),
    companyName,
    phone: people.phone,
    partnerCountries,
    partnerIds: (faker, partnerCountry, isCompany): PartnerIds => {
      const ids = companyIds(faker, partnerCountry);
      return {
        vat: isCompany ? ids.vat : null,
        company_number: isCompany && partnerCountry === country ? ids.company : null,
      };
    },
    language: (faker, partnerCountry) => LANGUAGES[partnerCountry] ?? pick(faker, ['fr', 'nl']),
    place: placeIn,
    banks: people.banks,
  };
}

/** Names of projects in the other countries' ledgers. */
export const PROJECT_NAMES = ['Alpha', 'Atlas', 'Horizon', 'Orion', 'Phoenix', 'Delta', 'Nova', 'Zenith'];

export const pairs = (faker: Faker, count: number) =>
  Array.from({ length: count }, () => faker.string.numeric(2)).join(' ');
