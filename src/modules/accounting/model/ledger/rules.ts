import { errors, type ServiceErrorName, serviceError } from '../../../../lib/errors.js';
import { isUuid } from '../../../../lib/ids.js';
import { own } from '../../../../lib/own.js';
import { profileOf } from '../accounting.profiles.js';
import type {
  LedgerAccount,
  LedgerAnalyticAccount,
  LedgerAnalyticDistribution,
  LedgerAnalyticPlan,
  LedgerBookYear,
  LedgerEmployee,
  LedgerJournal,
  LedgerPartner,
  LedgerPaymentMethod,
  LedgerPaymentTerm,
  LedgerRecord,
  LedgerVatCode,
} from '../accounting.records.js';
import { bookYearOf } from './derived.js';

/**
 * The checks a real ledger makes before it books anything. Each rule is one function that throws the
 * service's documented error for its case (serviceError, with its error_code), or the accounting
 * failure (400, generic message) where the service documents none, with a detail naming what is
 * wrong; writes run every rule before they change the ledger, so a refused request leaves nothing
 * behind.
 */

const fail = errors.accountingFailure;

/**
 * The date falls in a book year of the folder, and that year is not closed. Book years run from 2021
 * to the sandbox clock's year (see missingBookYears in ledgers.ts): a date outside them gets
 * ERROR_BOOKYEAR_NOT_FOUND. A draft (an unposted document) may be dated in a closed year, as the
 * software keeps drafts out of the closed books (the official Node SDK books a draft invoice dated in
 * an old year); only posting there is refused. No seeded year is closed.
 */
export function requireOpenBookYear(
  ledger: LedgerRecord,
  date: string,
  what = 'date',
  posted = true,
): LedgerBookYear {
  const year = bookYearOf(ledger, date);
  if (!year) {
    throw serviceError('bookyearNotFound', `The ${what} ${date} is outside every book year of the folder`);
  }
  if (year.closed && posted) throw fail(`The ${what} ${date} falls in the closed book year ${year.name}`);
  return year;
}

export function requireJournal(ledger: LedgerRecord, journalId: string): LedgerJournal {
  const journal = own(ledger.journals, journalId);
  if (!journal) throw serviceError('journalNotFound', `The journal '${journalId}' does not exist`);
  if (journal.blocked) throw fail(`The journal '${journal.code}' is blocked`);
  return journal;
}

export function requireAccount(ledger: LedgerRecord, number: string): LedgerAccount {
  const account = own(ledger.accounts, number);
  if (!account) {
    throw serviceError(
      'accountNumberNotFound',
      `The account number '${number}' does not exist in the chart of accounts`,
    );
  }
  if (!account.active) throw fail(`The account '${number}' is not active`);
  return account;
}

export function requireVatCode(ledger: LedgerRecord, id: string, side?: 'sale' | 'purchase'): LedgerVatCode {
  const code = own(ledger.vat_codes, id);
  if (!code) throw serviceError('taxCodeNotFound', `The VAT code '${id}' does not exist`);
  if (!code.active) throw fail(`The VAT code '${code.code}' is not active`);
  if (side && code.type !== side && code.type !== 'both') {
    throw fail(`The VAT code '${code.code}' is a ${code.type} code and cannot be used on a ${side}`);
  }
  return code;
}

export type PartnerRole = 'client' | 'supplier';

export function requirePartner(ledger: LedgerRecord, id: string, role?: PartnerRole): LedgerPartner {
  const partner = own(ledger.partners, id);
  if (!partner) throw serviceError('partnerNotFound', `The partner '${id}' does not exist`);
  if (role === 'client' && !partner.is_client) {
    throw serviceError('partnerNotFound', `The partner '${id}' is not a client`);
  }
  if (role === 'supplier' && !partner.is_supplier) {
    throw serviceError('partnerNotFound', `The partner '${id}' is not a supplier`);
  }
  return partner;
}

export function requireEmployee(ledger: LedgerRecord, id: string): LedgerEmployee {
  const employee = own(ledger.employees, id);
  if (!employee) throw serviceError('employeeNotFound', `The employee '${id}' does not exist`);
  return employee;
}

export function requirePaymentMethod(ledger: LedgerRecord, id: string): LedgerPaymentMethod {
  const method = own(ledger.payment_methods, id);
  if (!method) throw fail(`The payment method '${id}' does not exist`);
  return method;
}

export function requirePaymentTerm(ledger: LedgerRecord, id: string): LedgerPaymentTerm {
  const term = own(ledger.payment_terms, id);
  if (!term) throw fail(`The payment term '${id}' does not exist`);
  return term;
}

/**
 * Each distribution names an existing plan once, its accounts belong to that plan, and their
 * percentages are whole numbers that add up to 100.
 */
export function assertAnalyticDistribution(
  ledger: LedgerRecord,
  distributions: readonly LedgerAnalyticDistribution[],
  where: string,
): void {
  const seen = new Set<string>();
  for (const distribution of distributions) {
    const plan = own(ledger.analytic_plans, distribution.analytic_plan);
    if (!plan) {
      throw serviceError(
        'analyticPlanNotFound',
        `${where}: the analytic plan '${distribution.analytic_plan}' does not exist`,
      );
    }
    if (seen.has(plan.id)) throw fail(`${where}: the analytic plan '${plan.name}' is given twice`);
    seen.add(plan.id);
    if (distribution.analytic_accounts.length === 0) {
      throw fail(`${where}: the distribution of the plan '${plan.name}' has no account`);
    }
    let total = 0;
    for (const part of distribution.analytic_accounts) {
      const account = own(ledger.analytic_accounts, part.analytic_account);
      if (!account || account.plan_id !== plan.id) {
        throw serviceError(
          'analyticAccountNotFound',
          `${where}: the analytic account '${part.analytic_account}' does not exist in the plan '${plan.name}'`,
        );
      }
      if (!account.active) throw fail(`${where}: the analytic account '${account.code}' is not active`);
      if (!Number.isInteger(part.percentage) || part.percentage < 0) {
        throw fail(`${where}: analytic percentages are whole numbers (no decimals), not negative`);
      }
      total += part.percentage;
    }
    if (total !== 100) {
      throw fail(`${where}: the percentages of the plan '${plan.name}' add up to ${total}, not 100`);
    }
  }
}

/** A journal kept in one currency takes no other unless it allows other currencies. */
export function assertJournalCurrency(journal: LedgerJournal, currency: string): void {
  if (journal.currency && journal.currency !== currency && !journal.other_currencies_allowed) {
    throw fail(`The journal '${journal.code}' only takes ${journal.currency}, not ${currency}`);
  }
}

const CURRENCY = /^[A-Z]{3}$/;

/**
 * A currency is an ISO 4217 code. The service answers ERROR_CURRENCY_NOT_FOUND for a code the
 * software does not know, and, for journal entries, ERROR_INVALID_CURRENCY_FORMAT for one that is no
 * code at all: `unknown` names the error to give.
 */
export function assertCurrency(
  currency: string,
  rate: number | null | undefined,
  unknown: Extract<ServiceErrorName, 'currencyNotFound' | 'invalidCurrencyFormat'> = 'currencyNotFound',
): void {
  if (!CURRENCY.test(currency)) {
    throw serviceError(unknown, `The currency '${currency}' is not an ISO 4217 code (e.g. EUR)`);
  }
  if (rate !== null && rate !== undefined && !(rate > 0)) {
    throw fail('The currency exchange rate must be greater than 0');
  }
}

/**
 * The exchange rate a document is booked at. The service asks for a rate only when the currency
 * differs from the folder's main currency: in the folder's own currency the amounts need no
 * conversion, so whatever rate is given (0 and null included) is not used and the document is
 * booked at 1. In another currency the rate must be above 0 (none given: 1, the reference's default).
 */
export function exchangeRateOf(
  ledger: LedgerRecord,
  currency: string,
  rate: number | null | undefined,
): number {
  if (currency === ledger.folder.main_currency) return 1;
  assertCurrency(currency, rate);
  return rate ?? 1;
}

/** A PDF given as base64: valid base64 whose bytes start with %PDF. */
export function assertPdf(base64: string): void {
  const clean = base64.replace(/\s+/g, '');
  const valid = clean.length > 0 && clean.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(clean);
  if (!valid || !Buffer.from(clean, 'base64').subarray(0, 4).equals(Buffer.from('%PDF'))) {
    throw serviceError('invalidBase64', 'The document is not a PDF encoded in base64');
  }
}

/**
 * A VAT number is a country prefix (two capital letters) followed by digits, without dots or
 * whitespace: BE0123456789, NL123456789, FR12345678901. The software of a country whose VAT numbers
 * hold letters also takes those of its country (NL123456789B01 in a Dutch folder, ESB12345678 in a
 * Spanish one).
 */
export const VAT_NUMBER = /^[A-Z]{2}[0-9]{2,13}$/;

export function assertVatNumber(
  vat: string | null | undefined,
  ledger: Pick<LedgerRecord, 'folder'> | null = null,
): void {
  if (vat === null || vat === undefined) return;
  const { pattern, example } = ledger
    ? profileOf(ledger).vatNumber
    : { pattern: null, example: 'BE0123456789' };
  if (!VAT_NUMBER.test(vat) && !pattern?.test(vat))
    throw errors.accountingVatNumberInvalid(`'${vat}' is not of the form ${example}`);
}

/**
 * company_id is the id of the company (a partner of this ledger) an individual works for, so it has
 * the format of the ledger's partner ids: a uuid. A well-formed id must name a company partner.
 */
export function assertCompanyId(
  ledger: LedgerRecord,
  companyId: string | null | undefined,
  selfId?: string,
): void {
  if (companyId === null || companyId === undefined) return;
  if (!isUuid(companyId)) {
    throw errors.accountingCompanyIdInvalid(`'${companyId}' is not a partner id (a uuid) of this folder`);
  }
  const company = own(ledger.partners, companyId.toLowerCase());
  if (!company || companyId.toLowerCase() === selfId) {
    throw fail(`company_id: no company with the id '${companyId}' exists in the folder`);
  }
  if (!company.is_company) throw fail(`company_id: the partner '${companyId}' is not a company`);
}

/** A forced financial period is MMYYYY. */
export function assertFinancialPeriod(period: string | null | undefined): void {
  if (period === null || period === undefined) return;
  if (!/^(0[1-9]|1[0-2])[0-9]{4}$/.test(period)) {
    throw serviceError(
      'invalidFinancialPeriodFormat',
      `The forced financial period '${period}' must be 6 digits MMYYYY (e.g. 022026)`,
    );
  }
}

/**
 * A month given as YYYYMM, as the service documents it, or as a day YYYY-MM-DD (the official Node
 * SDK sends the first and last days of the period): the YYYYMM month it falls in.
 */
export function monthOf(value: string, field: string): string {
  const day = /^([0-9]{4})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$/.exec(value);
  if (day) return `${day[1]}${day[2]}`;
  if (!/^[0-9]{4}(0[1-9]|1[0-2])$/.test(value)) {
    throw fail(`${field}: '${value}' is not a month YYYYMM (nor a day YYYY-MM-DD)`);
  }
  return value;
}

export function requireAnalyticPlan(ledger: LedgerRecord, id: string): LedgerAnalyticPlan {
  const plan = own(ledger.analytic_plans, id);
  if (!plan) throw serviceError('analyticPlanNotFound', `The analytic plan '${id}' does not exist`);
  return plan;
}

/** An analytic account given in a body (a path id answers 404 instead): it exists and is active. */
export function requireActiveAnalyticAccount(
  ledger: LedgerRecord,
  id: string,
  where: string,
): LedgerAnalyticAccount {
  const account = own(ledger.analytic_accounts, id);
  if (!account) {
    throw serviceError('analyticAccountNotFound', `${where}: the analytic account '${id}' does not exist`);
  }
  if (!account.active) throw fail(`${where}: the analytic account '${account.code}' is not active`);
  return account;
}

/** The employee of an expense or a line is known and still works for the company. */
export function requireActiveEmployee(ledger: LedgerRecord, id: string): LedgerEmployee {
  const employee = requireEmployee(ledger, id);
  if (!employee.active) throw fail(`The employee '${employee.name}' is not active`);
  return employee;
}

/**
 * A general (non-partner) account: receivable and payable accounts take a client or supplier line
 * (ERROR_ACCOUNT_NUMBER_NOT_GOOD_SCOPE).
 */
export function requireGeneralAccount(ledger: LedgerRecord, number: string, where: string): LedgerAccount {
  const account = requireAccount(ledger, number);
  if (account.type === 'receivable' || account.type === 'payable') {
    throw serviceError(
      'accountNumberNotGoodScope',
      `${where}: the account '${number}' cannot be used for this type of line (it is a ${account.type} account)`,
    );
  }
  return account;
}

/**
 * An IBAN: a country code, two check digits and up to 30 letters or digits, whose mod-97 check
 * (ISO 13616) holds. Spaces are allowed in the input and dropped.
 */
export function normalizeIban(iban: string): string {
  const clean = iban.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]{10,30}$/.test(clean)) throw fail(`The IBAN '${iban}' is not well formed`);
  const rearranged = `${clean.slice(4)}${clean.slice(0, 4)}`;
  let remainder = 0;
  for (const char of rearranged) {
    const digits = /[A-Z]/.test(char) ? String(char.charCodeAt(0) - 55) : char;
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  if (remainder !== 1) throw fail(`The IBAN '${iban}' fails its check digits`);
  return clean;
}
