import { errors, serviceError } from '../../../../lib/errors.js';
import { isStorableKey, own } from '../../../../lib/own.js';
import { typeOfNewAccount } from '../accounting.profiles.js';
import type {
  LedgerAccount,
  LedgerAnalyticDistribution,
  LedgerEntry,
  LedgerEntryLine,
  LedgerEntryOrigin,
  LedgerRecord,
} from '../accounting.records.js';
import { partnerSideOf } from './derived.js';
import { assertBalanced } from './invoice-posting.js';
import { round2 } from './money.js';
import {
  assertNumberFree,
  attachmentOf,
  type LedgerChange,
  lineIdOf,
  type PostingContext,
} from './posting-core.js';
import {
  assertAnalyticDistribution,
  assertCurrency,
  assertJournalCurrency,
  assertPdf,
  exchangeRateOf,
  requireAccount,
  requireEmployee,
  requireJournal,
  requireOpenBookYear,
  requirePartner,
  requireVatCode,
} from './rules.js';

const fail = errors.accountingFailure;

/** Journal entries: the draft and its posting. */

export interface EntryItemDraft {
  account_type: 'customer_account' | 'supplier_account' | 'employee_account' | 'general_account';
  account: string | null;
  force_general_account: string | null;
  description: string | null;
  debit: number;
  credit: number;
  analytic_distribution: LedgerAnalyticDistribution[];
  tax_code: string | null;
  /** A general account to create when `account` does not exist yet. */
  account_info: { account_number: string; account_name: string } | null;
}

export interface EntryDraft {
  journal_id: string;
  number: string;
  reference: string | null;
  due_date: string | null;
  currency: string;
  currency_exchange_rate: number;
  date: string;
  posted: boolean;
  pdf: string | null;
  pdf_name: string | null;
  start_date: string | null;
  end_date: string | null;
  origin: LedgerEntryOrigin;
  items: EntryItemDraft[];
}

/**
 * The documented errors of a line refused by buildJournalEntry depend on the operation that books
 * the entry (its origin): a journal entry, a miscellaneous operation, or an entry of the financial
 * operations (financial entries, bank statements, expenses).
 */
function lineErrors(origin: LedgerEntryOrigin) {
  const journalEntry = origin === 'journal_entry';
  const operation = origin === 'miscellaneous_operation';
  return {
    /** A client or supplier line whose account is not a receivable or payable account. */
    notCollective: (detail: string) =>
      journalEntry
        ? serviceError('collectiveAccountMissing', detail)
        : serviceError(operation ? 'wrongAccountType' : 'accountNumberNotGoodScope', detail),
    /** A client or supplier line that names no client or supplier. */
    noPartner: (detail: string) =>
      journalEntry
        ? serviceError('partnerAccountMissing', detail)
        : operation
          ? serviceError('invalidOperationLineType', detail)
          : fail(detail),
    /**
     * A general line on a receivable or payable account: a journal entry names its client or
     * supplier there; a financial operation cannot use it; a miscellaneous operation may (the
     * official Node SDK books one), the line then names no partner.
     */
    partnerAccount: (detail: string) =>
      journalEntry
        ? serviceError('partnerAccountMissing', detail)
        : operation
          ? null
          : serviceError('accountNumberNotGoodScope', detail),
  };
}

/**
 * The line of an entry's item, checked: its account (a partner's, an employee's or a general one,
 * `created` when the item opens it) and its VAT code and analytic split. Partners named go to `partners`.
 */
function entryLineOf(
  ledger: LedgerRecord,
  item: EntryItemDraft,
  i: number,
  refuse: ReturnType<typeof lineErrors>,
  created: Map<string, LedgerAccount>,
  partners: Set<string>,
): Omit<LedgerEntryLine, 'id'> {
  const where = `items[${i}]`;
  if (item.debit < 0 || item.credit < 0) {
    throw serviceError('debitCreditNegative', `${where}: debit ${item.debit}, credit ${item.credit}`);
  }
  if (item.debit > 0 && item.credit > 0) {
    throw serviceError('debitCreditBothPositive', `${where}: debit ${item.debit}, credit ${item.credit}`);
  }
  let accountNumber: string;
  let partnerId: string | null = null;
  let employeeId: string | null = null;
  if (item.account_type === 'customer_account' || item.account_type === 'supplier_account') {
    const role = item.account_type === 'customer_account' ? 'client' : 'supplier';
    if (!item.account) throw refuse.noPartner(`${where}: account must hold the id of the ${role}`);
    const partner = requirePartner(ledger, item.account, role);
    partnerId = partner.id;
    partners.add(partner.id);
    accountNumber =
      item.force_general_account ??
      (role === 'client'
        ? (partner.client_account ?? ledger.defaults.receivable_account)
        : (partner.supplier_account ?? ledger.defaults.payable_account));
    requireAccount(ledger, accountNumber);
    if (partnerSideOf(ledger, accountNumber) !== role) {
      throw refuse.notCollective(
        `${where}: the account '${accountNumber}' is not a ${role === 'client' ? 'receivable' : 'payable'} account`,
      );
    }
  } else if (item.account_type === 'employee_account') {
    if (!item.account) throw fail(`${where}: account must hold the id of the employee`);
    const employee = requireEmployee(ledger, item.account);
    employeeId = employee.id;
    accountNumber = item.force_general_account ?? employee.account_number;
    requireAccount(ledger, accountNumber);
  } else {
    accountNumber = item.account ?? item.account_info?.account_number ?? '';
    if (!accountNumber) throw fail(`${where}: account must hold a general account number`);
    if (!own(ledger.accounts, accountNumber) && !created.has(accountNumber)) {
      if (!isStorableKey(accountNumber)) {
        throw fail(`${where}: '${accountNumber}' cannot number an account`);
      }
      if (!item.account_info || item.account_info.account_number !== accountNumber) {
        throw serviceError(
          'accountNumberNotFound',
          `${where}: the account number '${accountNumber}' does not exist in the chart of accounts`,
        );
      }
      created.set(accountNumber, {
        number: accountNumber,
        name: item.account_info.account_name,
        type: typeOfNewAccount(ledger, accountNumber),
        active: true,
        scheme_ids: null,
        accounting_category: null,
      });
    } else if (own(ledger.accounts, accountNumber)) {
      requireAccount(ledger, accountNumber);
    }
    if (partnerSideOf(ledger, accountNumber)) {
      const refusal = refuse.partnerAccount(
        `${where}: '${accountNumber}' is a partner account: use customer_account or supplier_account`,
      );
      if (refusal) throw refusal;
    }
  }
  if (item.tax_code) requireVatCode(ledger, item.tax_code);
  assertAnalyticDistribution(ledger, item.analytic_distribution, where);
  return {
    account_number: accountNumber,
    partner_id: partnerId,
    employee_id: employeeId,
    description: item.description,
    debit: round2(item.debit),
    credit: round2(item.credit),
    analytic_distribution: item.analytic_distribution,
    tax_code: item.tax_code,
  };
}

/** Checks a journal entry given line by line and builds it. */
export function buildJournalEntry(
  ledger: LedgerRecord,
  draft: EntryDraft,
  ctx: PostingContext,
): { entry: LedgerEntry; change: LedgerChange } {
  const journalEntry = draft.origin === 'journal_entry';
  const refuse = lineErrors(draft.origin);
  const journal = requireJournal(ledger, draft.journal_id);
  assertCurrency(draft.currency, null, journalEntry ? 'invalidCurrencyFormat' : 'currencyNotFound');
  const rate = exchangeRateOf(ledger, draft.currency, draft.currency_exchange_rate);
  assertJournalCurrency(journal, draft.currency);
  requireOpenBookYear(ledger, draft.date, 'date', draft.posted);
  assertNumberFree(ledger, journal, draft.number);
  // The service takes at least two items in a journal entry (minItems 2); the other operations
  // check their own lines (a miscellaneous operation may have one).
  if (journalEntry && draft.items.length < 2) throw fail('An entry needs at least two items');
  if (draft.pdf) assertPdf(draft.pdf);
  const created = new Map<string, LedgerAccount>();
  const partners = new Set<string>();
  const lines = draft.items.map((item, i) => entryLineOf(ledger, item, i, refuse, created, partners));
  const salesOrPurchases = ['customer_invoice', 'customer_refund', 'supplier_invoice', 'supplier_refund'];
  if (salesOrPurchases.includes(journal.journal_type) && partners.size > 1) {
    throw serviceError(
      'multiplePartnerAccounts',
      `The entry names ${partners.size} clients or suppliers in the ${journal.journal_type} journal '${journal.code}'`,
    );
  }
  assertBalanced(
    lines,
    draft.origin === 'miscellaneous_operation' ? 'operationNotBalanced' : 'entryNotBalanced',
  );
  const entryId = ctx.mint('accounting-entry');
  const entry: LedgerEntry = {
    id: entryId,
    journal_id: journal.id,
    number: draft.number,
    date: draft.date,
    due_date: draft.due_date,
    reference: draft.reference,
    posted: draft.posted,
    currency: draft.currency,
    currency_exchange_rate: rate,
    origin: draft.origin,
    invoice_id: null,
    payment_method_id: null,
    start_date: draft.start_date,
    end_date: draft.end_date,
    lines: lines.map((line, i) => ({ id: lineIdOf(entryId, i), ...line })),
    created_on: ctx.now,
    last_updated_on: ctx.now,
  };
  return {
    entry,
    change: {
      entries: [entry],
      accounts: [...created.values()],
      attachments: attachmentOf(
        ctx,
        'entry',
        entryId,
        draft.pdf,
        draft.pdf_name ?? draft.number.replace(/\W+/g, '-'),
      ),
    },
  };
}
