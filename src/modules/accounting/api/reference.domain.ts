import { errors, serviceError } from '../../../lib/errors.js';
import { own } from '../../../lib/own.js';
import type {
  AccountItemTypeValue,
  LedgerAccount,
  LedgerFolder,
  LedgerJournal,
  LedgerRecord,
  LedgerVatCode,
} from '../model/accounting.records.js';
import {
  type AccountBalanceFigures,
  accountBalances,
  bookYearOf,
  monthBounds,
  nextDocumentNumber,
} from '../model/ledger/derived.js';
import type { PostingContext } from '../model/ledger/posting.js';
import { monthOf, requireAccount } from '../model/ledger/rules.js';
import type {
  AccountBalanceFilterInput,
  AccountItemOut,
  JournalInInput,
  JournalOut,
  LedgerAccountInput,
} from './reference.schemas.js';

/** Reference data of a folder: views of the records, and the writes that add to them. */

const fail = errors.accountingFailure;

export const toFolderItem = (folder: LedgerFolder) => ({
  id: folder.id,
  name: folder.name,
  selected: true,
  active: true,
  vat: folder.vat,
  company_number: folder.company_number,
  main_currency: folder.main_currency,
  addresses: [{ ...folder.address }],
});

export const toAccountItem = (account: LedgerAccount): AccountItemOut => ({
  number: account.number,
  name: account.name,
  active: account.active,
  type: account.type,
  scheme_ids: account.scheme_ids ? [...account.scheme_ids] : null,
  accounting_category: account.accounting_category,
});

export const toVatCodeItem = (code: LedgerVatCode) => ({ ...code });

/** A journal, with the next number it gives in each open book year. */
export function toJournalItem(ledger: LedgerRecord, journal: LedgerJournal): JournalOut {
  return {
    id: journal.id,
    code: journal.code,
    name: journal.name,
    journal_type: journal.journal_type,
    counterpart_account: journal.counterpart_account,
    unallocated_account: journal.unallocated_account,
    next_document_numbers: ledger.bookyears
      .filter((year) => !year.closed)
      .map((year) => ({
        bookyear_name: year.name,
        next_document_number: nextDocumentNumber(ledger, journal, year.name),
        start_date: year.start,
        end_date: year.end,
      })),
    iban: journal.iban,
    currency: journal.currency,
    other_currencies_allowed: journal.other_currencies_allowed,
    blocked: journal.blocked,
  };
}

/** Accounts by number; `classes` is a comma-separated list of number prefixes. */
export function chartOfAccounts(
  ledger: LedgerRecord,
  filters: { classes?: string | undefined; type?: AccountItemTypeValue | undefined },
): LedgerAccount[] {
  const prefixes = (filters.classes ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  return Object.values(ledger.accounts)
    .filter((a) => prefixes.length === 0 || prefixes.some((p) => a.number.startsWith(p)))
    .filter((a) => filters.type === undefined || a.type === filters.type)
    .sort((a, b) => a.number.localeCompare(b.number));
}

/**
 * Account numbers of the folders' charts (Belgian, French, Spanish...) are digits: their structure is
 * set by the official chart of accounts, as the service says. The class and the length are left to
 * the caller (class 0 and 8 accounts exist, and charts differ in length).
 */
const ACCOUNT_NUMBER = /^[0-9]+$/;

/** A new account: digits only, a number not used yet. */
export function createLedgerAccount(ledger: LedgerRecord, input: LedgerAccountInput): LedgerAccount {
  if (!ACCOUNT_NUMBER.test(input.number)) {
    throw fail(`The account number '${input.number}' must be digits only, as the chart of accounts takes`);
  }
  if (own(ledger.accounts, input.number)) {
    throw serviceError(
      'ledgerAccountAlreadyExists',
      `A ledger account already exists with the number '${input.number}'`,
    );
  }
  const account: LedgerAccount = {
    number: input.number,
    name: input.name,
    type: input.type ?? 'other',
    active: true,
    scheme_ids: null,
    accounting_category: null,
  };
  ledger.accounts[account.number] = account;
  return account;
}

const JOURNAL_TYPES: Record<JournalInInput['journal_type'], LedgerJournal['journal_type']> = {
  customer_invoice: 'customer_invoice',
  customer_refund: 'customer_refund',
  supplier_invoice: 'supplier_invoice',
  supplier_refund: 'supplier_refund',
  bank: 'financial_operation',
  cash: 'financial_operation',
  miscellaneous_operation: 'miscellaneous_operation',
};

/**
 * A new journal: its code is unique in the folder; a bank or cash journal names its bank or cash
 * account (counterpart_account), which must exist with that type.
 */
export function createJournal(
  ledger: LedgerRecord,
  input: JournalInInput,
  ctx: PostingContext,
): LedgerJournal {
  const code = input.code.trim().toUpperCase();
  if (Object.values(ledger.journals).some((j) => j.code.toUpperCase() === code)) {
    throw serviceError('journalAlreadyExists', `A journal already exists with the code '${input.code}'`);
  }
  const financial = input.journal_type === 'bank' || input.journal_type === 'cash';
  if (financial && !input.counterpart_account) {
    throw fail(`counterpart_account is required for a ${input.journal_type} journal`);
  }
  if (input.counterpart_account) {
    if (!own(ledger.accounts, input.counterpart_account)) {
      throw serviceError(
        'counterpartAccountNotFound',
        `The account number '${input.counterpart_account}' does not exist in the chart of accounts`,
      );
    }
    const account = requireAccount(ledger, input.counterpart_account);
    if (financial && account.type !== input.journal_type) {
      throw fail(`The account '${account.number}' is not a ${input.journal_type} account`);
    }
  }
  const journal: LedgerJournal = {
    id: ctx.mint('accounting-journal'),
    code: input.code,
    name: input.name,
    journal_type: JOURNAL_TYPES[input.journal_type],
    counterpart_account: input.counterpart_account ?? null,
    unallocated_account: null,
    iban: null,
    bank_name: null,
    currency: ledger.folder.main_currency,
    other_currencies_allowed: true,
    blocked: false,
  };
  ledger.journals[journal.id] = journal;
  return journal;
}

/**
 * Balances for the filter: months are YYYYMM (a day YYYY-MM-DD stands for its month); without a start
 * month, the period starts with the book year of the end month (or the end month itself outside every
 * book year). A start month after the end month gives an empty period: its figures are 0.
 */
export function balancesFor(
  ledger: LedgerRecord,
  filter: AccountBalanceFilterInput,
): AccountBalanceFigures[] {
  const end = monthBounds(monthOf(filter.end, 'end'));
  let start: string;
  if (filter.start) {
    start = monthBounds(monthOf(filter.start, 'start')).first;
  } else {
    start = bookYearOf(ledger, end.last)?.start ?? end.first;
  }
  return accountBalances(ledger, filter.accounts.map((a) => a.trim()).filter(Boolean), start, end.last);
}
