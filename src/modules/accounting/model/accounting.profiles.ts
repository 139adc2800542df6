import { own } from '../../../lib/own.js';
import { loadCatalogue } from '../../../platform/catalogue.js';
import { COUNTRIES, type Country, countryOf, isCountry } from '../../../platform/countries.js';
import type { Faker } from '../../../platform/seeding/fakers.js';
import { PROFILES } from './accounting.countries.js';
import type {
  AccountItemTypeValue,
  JournalTypeValue,
  LedgerFolder,
  LedgerJournal,
  LedgerRecord,
  LedgerVatCode,
} from './accounting.records.js';

/**
 * Each accounting connector keeps its folders the way its software does in its country: a country
 * profile gives a ledger its chart of accounts, its VAT codes, its journals and the numbers they give,
 * the folder's and the partners' identifiers, the payment references, the public holidays and the
 * words the seed writes. The profile of a folder is its country (LedgerFolder.address.country), set
 * when the folder is drawn from the connector (see countryOf), so a ledger stays a function of its
 * arguments, and the writes of the API find the accounts of the ledger they post to (profileOf).
 *
 * Every profile gives every role below an account, so the seed and the writes book the same
 * documents in every country: only the numbers, the names and the formats differ. The Belgian profile
 * is the ledger the sandbox always had.
 */

/** The countries of the profiles, and a connector's country: those every vertical shares. */
export const PROFILE_COUNTRIES = COUNTRIES;
export type ProfileCountry = Country;
export { countryOf };

/** The country of an integration of the catalogue, by its id (Belgium for an id it does not hold). */
export function countryOfIntegration(integrationid: number): ProfileCountry {
  const integration = loadCatalogue().get(integrationid);
  return countryOf(integration ?? { integrationid, supported_countries: null });
}

// ---------------------------------------------------------------------------------------------------
// What a profile holds.

/** A line of a chart of accounts. */
export type ChartLine = readonly [number: string, name: string, type: AccountItemTypeValue, category: string];

/**
 * The accounts the seed and the writes book on, by what they are for: every posting of the seed
 * names a role, never a number.
 */
export interface AccountRoles {
  capital: string;
  receivable: string;
  payable: string;
  /** Net salaries owed to the employees. */
  employee: string;
  vat_deductible: string;
  vat_payable: string;
  /** Payroll taxes and social security withheld. */
  withholding: string;
  /** The year's estimated income taxes, owed. */
  estimated_taxes: string;
  /** What a bank statement cannot allocate yet. */
  suspense: string;
  bank: string;
  savings: string;
  cash: string;
  /** The first of the services accounts (rent). */
  services: string;
  travel: string;
  /** Office supplies bought over the counter. */
  supplies: string;
  other_charges: string;
  /** The charge of the year's estimated income taxes. */
  income_tax: string;
  gross_salaries: string;
  depreciation: string;
  /** The fixed asset the quarters depreciate (or its depreciation account). */
  depreciated_asset: string;
  interest_charges: string;
  bank_charges: string;
  /** Sales over the counter. */
  sales: string;
  financial_income: string;
}

export type AccountRole = keyof AccountRoles;

export type JournalRole =
  | 'sales'
  | 'sales_refunds'
  | 'purchases'
  | 'purchase_refunds'
  | 'bank'
  | 'cash'
  | 'misc';

export interface JournalDefinition {
  role: JournalRole;
  code: string;
  name: string;
  type: JournalTypeValue;
  /** What the numbers of the journal start with (its code when it is left out). */
  prefix?: string;
}

export interface VatDefinition {
  code: string;
  label: string;
  rate: number;
  type: LedgerVatCode['type'];
  scope: LedgerVatCode['scope'];
  /** Reverse charge: the VAT is booked as deductible and as payable. */
  reversed?: boolean;
  active?: boolean;
  /** VAT accounts of their own (the role's otherwise). */
  deductible_account?: string;
  payable_account?: string;
}

export interface Weighted<T> {
  weight: number;
  value: T;
}

/** The texts the seed writes, in the language of the software. */
export interface SeedWords {
  paymentMethods: readonly [transfer: string, debit: string, card: string, cash: string];
  paymentTerms: readonly [immediate: string, d15: string, d30: string, d30EndOfMonth: string, d60: string];
  departments: string;
  projects: string;
  /** The departments' accounts: SALES, OPS and ADMIN. */
  analytic: readonly [sales: string, operations: string, administration: string];
  project(faker: Faker): string;
  closedProject: string;
  notes: string;
  contactFunctions: readonly string[];
  employeeFunctions: readonly string[];
  products: readonly string[];
  supplies: readonly string[];
  /** What employees spend and claim back, and the account each goes to. */
  expenseItems: readonly (readonly [description: string, account: string])[];
  commercialGesture: string;
  returnedGoods: string;
  creditNoteOn(number: string): string;
  creditNoteOf(date: string): string;
  openingBalance: string;
  capitalPaidIn: string;
  shareCapital: string;
  salaries(month: string): string;
  grossSalaries(month: string): string;
  withheld: string;
  netSalary(name: string): string;
  salary(name: string): string;
  expenses(name: string, month: string): string;
  expensesOf(name: string): string;
  reimbursed(name: string): string;
  counterSale: string;
  officeSupplies: string;
  accountFees: string;
  interest: string;
  depreciation(month: string): string;
  estimatedTaxes: string;
  estimatedTaxesOf(year: string): string;
}

/** A partner's identifiers: its VAT number (companies only) and its company number. */
export interface PartnerIds {
  vat: string | null;
  company_number: string | null;
}

/** The street, city and postal code of an address. */
export interface Place {
  street: string;
  city: string;
  postal_code: string;
}

/** How the seed draws the people, companies and addresses of a country. */
export interface SeedLocale {
  /** The folder's company, `suffix` added to its name. */
  folder(faker: Faker, suffix: string): Omit<LedgerFolder, 'id'>;
  firstName(faker: Faker): string;
  lastName(faker: Faker): string;
  companyName(faker: Faker): string;
  phone(faker: Faker): string;
  /** Where the partners are: mostly the folder's country. */
  partnerCountries: readonly Weighted<string>[];
  partnerIds(faker: Faker, country: string, isCompany: boolean): PartnerIds;
  language(faker: Faker, country: string): string;
  place(faker: Faker, country: string): Place;
  banks: readonly string[];
}

export interface LedgerProfile {
  country: ProfileCountry;
  schemes: { chart: { code: string; name: string }; reporting: { code: string; name: string } };
  chart: readonly ChartLine[];
  accounts: AccountRoles;
  /** The accounts the invoices' lines take, sales and purchases. */
  revenue: readonly string[];
  expenses: readonly string[];
  /** The numbers new bank accounts take, in steps (first, last and step). */
  bankAccounts: { first: number; last: number; step: number };
  /** The type of an account an entry creates, by the first digit of its number (other when absent). */
  classes: Readonly<Record<string, AccountItemTypeValue>>;
  journals: readonly JournalDefinition[];
  /** A document's number: the journal's prefix, the book year and what follows (0001, or a day's 0611-01). */
  number(prefix: string, year: string, tail: string): string;
  vat: readonly VatDefinition[];
  /** The VAT codes invoice lines draw, by side, and the usual rate's of each side. */
  vatDraws: { sale: readonly Weighted<string>[]; purchase: readonly Weighted<string>[] };
  standardVat: { sale: string; purchase: string };
  /** VAT numbers of the country the software takes besides prefix-and-digits ones, and an example. */
  vatNumber: { pattern: RegExp | null; example: string };
  /** The payment reference of a customer invoice, when the country has a structured one. */
  paymentReference(faker: Faker): string | null;
  /** A supplier's own number of its invoice. */
  supplierReference(faker: Faker): string;
  /** Public holidays of a fixed date (MM-DD). */
  holidays: ReadonlySet<string>;
  words: SeedWords;
  locale: SeedLocale;
}

/** Categories of the balance sheet: their accounts are also in the annual accounts' scheme. */
export const BALANCE_CATEGORIES: ReadonlySet<string> = new Set([
  'equity',
  'liabilities',
  'fixed_assets',
  'inventory',
  'receivables',
  'payables',
  'cash',
]);

// ---------------------------------------------------------------------------------------------------
// Lookups.

/** The profile of a country (the Belgian one for a country without a profile). */
export function profileFor(country: string | null | undefined): LedgerProfile {
  return isCountry(country) ? PROFILES[country] : PROFILES.BE;
}

/** The profile of a ledger: its folder's country's. */
export const profileOf = (ledger: Pick<LedgerRecord, 'folder'>): LedgerProfile =>
  profileFor(ledger.folder.address.country);

/** The account a ledger books a role on. */
export const roleAccount = (ledger: Pick<LedgerRecord, 'folder'>, role: AccountRole): string =>
  profileOf(ledger).accounts[role];

/** What the numbers of a journal start with: its profile's prefix for a seeded journal, its code otherwise. */
function prefixOf(profile: LedgerProfile, journal: LedgerJournal): string {
  return profile.journals.find((j) => j.code === journal.code)?.prefix ?? journal.code;
}

/** The n-th number a journal gives in a book year (BE: VEN/2026/0001, FR: FA2026-0001...). */
export function documentNumber(
  ledger: Pick<LedgerRecord, 'folder'>,
  journal: LedgerJournal,
  bookYearName: string,
  n: number,
): string {
  const profile = profileOf(ledger);
  return profile.number(prefixOf(profile, journal), bookYearName, String(n).padStart(4, '0'));
}

/**
 * The number of the rank-th document a day gives a journal (BE: VEN/2026/0611-01): a number the
 * journal's counter never gives, whatever the country's format.
 */
export function dayDocumentNumber(
  ledger: Pick<LedgerRecord, 'folder'>,
  journal: LedgerJournal,
  bookYearName: string,
  day: string,
  rank: number,
): string {
  const profile = profileOf(ledger);
  const tail = `${day.slice(5, 7)}${day.slice(8, 10)}-${String(rank).padStart(2, '0')}`;
  return profile.number(prefixOf(profile, journal), bookYearName, tail);
}

/** The type of an account an entry creates, by the class its number starts with. */
export function typeOfNewAccount(ledger: Pick<LedgerRecord, 'folder'>, number: string): AccountItemTypeValue {
  return own(profileOf(ledger).classes, number.slice(0, 1)) ?? 'other';
}
