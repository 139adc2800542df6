import { errors, serviceError } from '../../../../lib/errors.js';
import { own } from '../../../../lib/own.js';
import { profileOf } from '../accounting.profiles.js';
import type {
  LedgerAccount,
  LedgerBankStatement,
  LedgerEntry,
  LedgerEntryLine,
  LedgerJournal,
  LedgerMatching,
  LedgerRecord,
} from '../accounting.records.js';
import { matchedCentsByLine, openCents, partnerSideOf, signedCents } from './derived.js';
import { fromCents, toCents } from './money.js';
import {
  assertNumberFree,
  buildJournalEntry,
  checkedBuild,
  type EntryItemDraft,
  type LedgerChange,
  matchingNumber,
  mintDocumentNumber,
  mintDocumentNumbers,
  type PostingContext,
} from './posting.js';
import {
  assertCurrency,
  assertJournalCurrency,
  assertPdf,
  exchangeRateOf,
  normalizeIban,
  requireAccount,
  requireOpenBookYear,
  requireVatCode,
} from './rules.js';

/**
 * Money in and out of the bank and cash accounts: financial entries (receipts and payments booked in
 * a bank or cash journal), bank accounts (a bank journal with its own ledger account) and bank
 * statements (one entry per transaction).
 */

const fail = errors.accountingFailure;

const item = (
  account_type: EntryItemDraft['account_type'],
  account: string,
  description: string | null,
  cents: number,
  force_general_account: string | null = null,
): EntryItemDraft => ({
  account_type,
  account,
  force_general_account,
  description,
  debit: cents > 0 ? fromCents(cents) : 0,
  credit: cents < 0 ? fromCents(-cents) : 0,
  analytic_distribution: [],
  tax_code: null,
  account_info: null,
});

/** A bank account is a financial journal whose ledger account is a bank account. */
export function isBankAccount(ledger: LedgerRecord, journal: LedgerJournal): boolean {
  if (journal.journal_type !== 'financial_operation' || !journal.counterpart_account) return false;
  return own(ledger.accounts, journal.counterpart_account)?.type === 'bank';
}

const FINANCIAL_ACCOUNT_TYPES = new Set<LedgerAccount['type']>(['bank', 'cash', 'other_financial']);

// ---------------------------------------------------------------------------------------------------
// Financial entries

export interface FinancialTaxDraft {
  tax_code: string;
  tax_amount: number;
  vat_account: string | null;
  reversed_vat_account: string | null;
  description: string | null;
}

export interface FinancialLineDraft {
  account_type: EntryItemDraft['account_type'];
  /** A general account number, or the id of the client, supplier or employee. */
  account: string;
  /** The receivable, payable or employee account of a third-party line (the deprecated shape names it). */
  force_general_account: string | null;
  /** Positive: received on the bank or cash account; negative: paid from it. */
  amount: number;
  description: string | null;
  tax: FinancialTaxDraft | null;
  automated_matching_number: string | null;
}

export interface FinancialEntryDraft {
  date: string;
  journal_id: string;
  currency: string;
  currency_exchange_rate: number;
  reference: string | null;
  number: string | null;
  pdf: string | null;
  pdf_name: string | null;
  /** The bank or cash account, when the journal does not name one (or to book on another). */
  counterpart_account: string | null;
  items: FinancialLineDraft[];
}

/** The bank or cash account of a financial entry: the one given, or the journal's. */
function financialAccountOf(ledger: LedgerRecord, journal: LedgerJournal, given: string | null): string {
  const number = given ?? journal.counterpart_account;
  if (!number) {
    throw fail(
      `The journal '${journal.code}' names no bank or cash account: give financial_counterpart_account`,
    );
  }
  const account = requireAccount(ledger, number);
  if (!FINANCIAL_ACCOUNT_TYPES.has(account.type)) {
    throw serviceError(
      'accountNumberNotGoodScope',
      `The account '${number}' is not a bank or cash account (it is a ${account.type} account)`,
    );
  }
  return number;
}

/** The VAT lines of a financial line (debit positive), and what they add to the bank movement. */
function taxLines(
  ledger: LedgerRecord,
  tax: FinancialTaxDraft,
  direction: number,
  where: string,
): { items: EntryItemDraft[]; bankCents: number } {
  const code = requireVatCode(ledger, tax.tax_code);
  const cents = toCents(tax.tax_amount);
  if (cents < 0) throw fail(`${where}: tax_info.tax_amount cannot be negative (the line's sign applies)`);
  if (cents === 0) return { items: [], bankCents: 0 };
  const collected = code.type === 'sale' || (code.type !== 'purchase' && direction > 0);
  const vatAccount = tax.vat_account ?? (collected ? code.payable_account : code.deductible_account);
  if (!vatAccount)
    throw fail(`${where}: the VAT code '${code.code}' names no VAT account: give tax_info.vat_account`);
  requireAccount(ledger, vatAccount);
  const description = tax.description ?? code.label;
  if (code.reversed) {
    // Reverse charge: the VAT is both due and deductible; nothing moves on the bank account.
    const reversedAccount = tax.reversed_vat_account ?? code.payable_account;
    if (!reversedAccount)
      throw fail(`${where}: give tax_info.reversed_vat_account for a reverse-charge VAT code`);
    requireAccount(ledger, reversedAccount);
    return {
      items: [
        item('general_account', vatAccount, description, cents),
        item('general_account', reversedAccount, description, -cents),
      ],
      bankCents: 0,
    };
  }
  // The VAT is on the line's side: -direction (a receipt credits the line's account).
  return { items: [item('general_account', vatAccount, description, -direction * cents)], bankCents: cents };
}

/**
 * Open lines a line with an automated matching number settles: the partner's open items on the same
 * account whose invoice number, entry number or reference is that number, on the other side. None
 * leaves the line open: the software matches what it finds, and books the entry in any case.
 */
function matchTargets(
  ledger: LedgerRecord,
  line: LedgerEntryLine,
  currency: string,
  number: string,
  matched: Map<string, number>,
  where: string,
): { entry: LedgerEntry; line: LedgerEntryLine; open: number }[] {
  const out: { entry: LedgerEntry; line: LedgerEntryLine; open: number }[] = [];
  for (const entry of Object.values(ledger.entries)) {
    if (!entry.posted) continue;
    const invoice = entry.invoice_id ? own(ledger.invoices, entry.invoice_id) : undefined;
    if (![invoice?.invoice_number, entry.number, entry.reference].includes(number)) continue;
    for (const candidate of entry.lines) {
      if (candidate.partner_id !== line.partner_id || candidate.account_number !== line.account_number)
        continue;
      const open = openCents(candidate, matched);
      if (open === 0 || Math.sign(open) === Math.sign(signedCents(line))) continue;
      if (entry.currency !== currency) {
        throw fail(`${where}: the item '${number}' is in ${entry.currency}, not ${currency}`);
      }
      out.push({ entry, line: candidate, open });
    }
  }
  return out.sort((a, b) => a.entry.date.localeCompare(b.entry.date) || a.line.id.localeCompare(b.line.id));
}

/**
 * A receipt or payment booked in a bank or cash journal: each item is booked on its account (with its
 * VAT, when tax_info is given) against the bank or cash account. Third-party lines with an automated
 * matching number are matched with the open item of that number (an invoice's number, say), so a
 * financial entry that pays an invoice settles it.
 */
export function buildFinancialEntry(
  ledger: LedgerRecord,
  draft: FinancialEntryDraft,
  ctx: PostingContext,
): { entry: LedgerEntry; counterpartAccount: string; change: LedgerChange } {
  return checkedBuild(ctx, (c) => bookFinancialEntry(ledger, draft, c));
}

function bookFinancialEntry(
  ledger: LedgerRecord,
  draft: FinancialEntryDraft,
  ctx: PostingContext,
): { entry: LedgerEntry; counterpartAccount: string; change: LedgerChange } {
  const journal = own(ledger.journals, draft.journal_id);
  if (!journal) throw serviceError('journalNotFound', `The journal '${draft.journal_id}' does not exist`);
  if (journal.journal_type !== 'financial_operation') {
    throw serviceError(
      'journalNotGoodScope',
      `The journal '${journal.code}' (${journal.journal_type}) cannot take a financial entry: give a bank or cash journal`,
    );
  }
  const bank = financialAccountOf(ledger, journal, draft.counterpart_account);
  assertCurrency(draft.currency, null);
  const rate = exchangeRateOf(ledger, draft.currency, draft.currency_exchange_rate);
  assertJournalCurrency(journal, draft.currency);
  const year = requireOpenBookYear(ledger, draft.date);
  if (draft.items.length === 0) throw fail('A financial entry needs at least one item');
  const items: EntryItemDraft[] = [];
  const matchLines: { index: number; number: string; where: string }[] = [];
  draft.items.forEach((line, i) => {
    const where = `items[${i}]`;
    const cents = toCents(line.amount);
    const direction = Math.sign(cents);
    const thirdParty = line.account_type !== 'general_account';
    if (line.tax && thirdParty) throw fail(`${where}: tax_info is only for general_account lines`);
    // Matching by number applies to client and supplier items; on other lines the number is kept by
    // nobody, as in the software.
    const matchable = line.account_type === 'customer_account' || line.account_type === 'supplier_account';
    if (line.automated_matching_number && matchable) {
      matchLines.push({ index: items.length, number: line.automated_matching_number, where });
    }
    items.push(item(line.account_type, line.account, line.description, -cents, line.force_general_account));
    const tax = line.tax ? taxLines(ledger, line.tax, direction, where) : { items: [], bankCents: 0 };
    items.push(...tax.items);
    items.push(item('general_account', bank, line.description, cents + direction * tax.bankCents));
  });
  let number = draft.number;
  let counters: Record<string, number> = {};
  if (number) assertNumberFree(ledger, journal, number);
  else ({ number, counters } = mintDocumentNumber(ledger, journal, year.name));
  if (draft.pdf) assertPdf(draft.pdf);
  const { entry, change } = buildJournalEntry(
    ledger,
    {
      journal_id: journal.id,
      number,
      reference: draft.reference,
      due_date: null,
      currency: draft.currency,
      currency_exchange_rate: rate,
      date: draft.date,
      posted: true,
      pdf: draft.pdf,
      pdf_name: draft.pdf_name,
      start_date: null,
      end_date: null,
      origin: 'financial_entry',
      items,
    },
    ctx,
  );
  const matched = matchedCentsByLine(ledger);
  const matchings: LedgerMatching[] = [];
  let counter = ledger.counters.matching ?? 0;
  for (const { index, number: wanted, where } of matchLines) {
    const line = entry.lines[index] as LedgerEntryLine;
    let left = Math.abs(signedCents(line));
    const allocations: LedgerMatching['allocations'] = [];
    let settled = 0;
    const targets = matchTargets(ledger, line, entry.currency, wanted, matched, where);
    if (targets.length === 0 || left === 0) continue;
    for (const target of targets) {
      if (left === 0) break;
      const take = Math.min(left, Math.abs(target.open));
      allocations.push({ entry_id: target.entry.id, line_id: target.line.id, amount: fromCents(take) });
      matched.set(target.line.id, (matched.get(target.line.id) ?? 0) + take);
      left -= take;
      settled += take;
    }
    allocations.push({ entry_id: entry.id, line_id: line.id, amount: fromCents(settled) });
    counter += 1;
    matchings.push({
      number: matchingNumber(counter),
      partner_id: line.partner_id as string,
      date: draft.date,
      allocations,
      created_on: ctx.now,
    });
  }
  return {
    entry,
    counterpartAccount: bank,
    change: {
      ...change,
      matchings,
      counters: matchings.length ? { ...counters, matching: counter } : counters,
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Bank accounts

export interface BankAccountDraft {
  code: string;
  currency: string;
  account_name: string | null;
  account_number: string | null;
  iban: string | null;
  bank_name: string;
}

/**
 * The first free account number for a new bank account, in the range of the folder's chart: 550000 to
 * 559900 in steps of 100 in a Belgian folder, 512000 to 512900 in a French one, 1100 to 1190 in steps
 * of 10 in a Dutch one...
 */
function freeBankAccountNumber(ledger: LedgerRecord): string {
  const { first, last, step } = profileOf(ledger).bankAccounts;
  const width = String(first).length;
  for (let n = first; n <= last; n += step) {
    const number = String(n).padStart(width, '0');
    if (!own(ledger.accounts, number)) return number;
  }
  throw fail(`The chart of accounts has no free bank account number left (${first} to ${last})`);
}

/**
 * A new bank account: a bank journal with its own ledger account (the next free number of the bank
 * accounts' range, 55xx00 in a Belgian folder) and
 * the suspense account of the folder for what cannot be allocated yet. Its code is unique among the
 * journals, its IBAN (checked) among the bank accounts.
 */
export function buildBankAccount(
  ledger: LedgerRecord,
  draft: BankAccountDraft,
  ctx: PostingContext,
): { journal: LedgerJournal; change: LedgerChange } {
  const code = draft.code.trim() || draft.code;
  if (Object.values(ledger.journals).some((j) => j.code.toUpperCase() === code.toUpperCase())) {
    throw serviceError(
      'bankCodeAlreadyUsed',
      `A bank account or journal already exists with the code '${code}'`,
    );
  }
  assertCurrency(draft.currency, null);
  const accountNumber = draft.account_number?.trim() || null;
  if (!accountNumber && !draft.iban) throw fail('Give the account_number or the iban of the bank account');
  const iban = draft.iban ? normalizeIban(draft.iban) : null;
  const banks = Object.values(ledger.journals).filter((j) => isBankAccount(ledger, j));
  if (iban && banks.some((j) => j.iban?.replace(/\s+/g, '').toUpperCase() === iban)) {
    throw fail(`A bank account already exists with the IBAN '${iban}'`);
  }
  if (accountNumber && banks.some((j) => j.bank_account_number === accountNumber)) {
    throw fail(`A bank account already exists with the account number '${accountNumber}'`);
  }
  const bankName = draft.bank_name.trim() || draft.bank_name;
  const name = draft.account_name?.trim() || `${bankName} ${iban ?? accountNumber}`.trim();
  const account: LedgerAccount = {
    number: freeBankAccountNumber(ledger),
    name,
    type: 'bank',
    active: true,
    scheme_ids: null,
    accounting_category: 'cash',
  };
  const suspense = Object.values(ledger.journals).find(
    (j) => isBankAccount(ledger, j) && j.unallocated_account,
  );
  const journal: LedgerJournal = {
    id: ctx.mint('accounting-journal'),
    code,
    name,
    journal_type: 'financial_operation',
    counterpart_account: account.number,
    unallocated_account: suspense?.unallocated_account ?? null,
    iban,
    bank_name: bankName,
    currency: draft.currency,
    other_currencies_allowed: false,
    blocked: false,
    bank_account_number: accountNumber,
  };
  return { journal, change: { accounts: [account], journals: [journal] } };
}

// ---------------------------------------------------------------------------------------------------
// Bank statements

export interface BankTransactionDraft {
  general_ledger_account: string | null;
  description: string | null;
  external_transaction_id: string | null;
  /** What the bank account received (positive) or paid (negative), fees and their VAT included. */
  amount: number;
  fee_amount: number;
  tax_amount: number;
  currency_exchange_rate: number;
  counterpart: { type: 'customer' | 'supplier' | 'employee' | null; id: string | null } | null;
}

export interface BankStatementDraft {
  date: string;
  bank_account_id: string;
  currency: string;
  external_bank_statement_id: string;
  opening_balance: number | null;
  pdf: string | null;
  pdf_name: string | null;
  items: BankTransactionDraft[];
}

/** A bank account (bank journal) of the folder that can take entries. */
export function requireBankAccount(ledger: LedgerRecord, id: string): LedgerJournal {
  const journal = own(ledger.journals, id);
  if (!journal || !isBankAccount(ledger, journal)) {
    throw serviceError(
      'journalNotFound',
      `The bank account '${id}' does not exist (no bank journal has this id)`,
    );
  }
  if (journal.blocked) throw fail(`The bank account '${journal.code}' is blocked`);
  return journal;
}

/** The counterpart line of a transaction: its third party, its general account, or the suspense account. */
function counterpartItem(
  ledger: LedgerRecord,
  journal: LedgerJournal,
  transaction: BankTransactionDraft,
  cents: number,
  where: string,
): EntryItemDraft {
  const description = transaction.description;
  const counterpart = transaction.counterpart;
  if (counterpart?.id) {
    const type = counterpart.type;
    if (!type) throw fail(`${where}: counterpart.counterpart_type is required with counterpart.id`);
    const accountType = (
      { customer: 'customer_account', supplier: 'supplier_account', employee: 'employee_account' } as const
    )[type];
    return item(accountType, counterpart.id, description, cents, transaction.general_ledger_account);
  }
  if (transaction.general_ledger_account) {
    const account = transaction.general_ledger_account;
    if (partnerSideOf(ledger, account)) {
      throw serviceError(
        'accountNumberNotGoodScope',
        `${where}: the account '${account}' is a receivable or payable account: give the counterpart's id`,
      );
    }
    return item('general_account', account, description, cents);
  }
  if (!journal.unallocated_account) {
    throw fail(
      `${where}: give general_ledger_account or a counterpart (the bank account has no suspense account)`,
    );
  }
  return item('general_account', journal.unallocated_account, description, cents);
}

/**
 * A bank statement: each transaction is booked as its own entry in the bank account's journal (the
 * bank account against the counterpart, with the fee on bank charges and its VAT as deductible VAT).
 * The statement's currency is the bank account's; its external id, and each transaction's, are not
 * imported twice; an opening balance, when given, is kept as it is.
 */
export function buildBankStatement(
  ledger: LedgerRecord,
  draft: BankStatementDraft,
  ctx: PostingContext,
): { statement: LedgerBankStatement; entries: LedgerEntry[]; change: LedgerChange } {
  return checkedBuild(ctx, (c) => bookStatement(ledger, draft, c));
}

function bookStatement(
  ledger: LedgerRecord,
  draft: BankStatementDraft,
  ctx: PostingContext,
): { statement: LedgerBankStatement; entries: LedgerEntry[]; change: LedgerChange } {
  const journal = requireBankAccount(ledger, draft.bank_account_id);
  assertCurrency(draft.currency, null);
  if (journal.currency && journal.currency !== draft.currency) {
    throw fail(`The bank account '${journal.code}' is kept in ${journal.currency}, not ${draft.currency}`);
  }
  const externalId = draft.external_bank_statement_id.trim() || draft.external_bank_statement_id;
  const statements = Object.values(ledger.bank_statements ?? {}).filter((s) => s.journal_id === journal.id);
  if (statements.some((s) => s.external_bank_statement_id === externalId)) {
    throw fail(`The statement '${externalId}' was already imported on the bank account '${journal.code}'`);
  }
  const year = requireOpenBookYear(ledger, draft.date, 'bank_statement_date');
  // The opening balance is kept as given: the software records it without checking it against the
  // bank account's balance.
  const bankAccount = journal.counterpart_account as string;
  if (draft.items.length === 0) throw fail('A bank statement needs at least one transaction');
  if (draft.pdf) assertPdf(draft.pdf);
  const imported = new Set(
    Object.values(ledger.entries)
      .filter((e) => e.journal_id === journal.id && e.origin === 'bank_transaction' && e.reference)
      .map((e) => e.reference as string),
  );
  const { numbers, counters } = mintDocumentNumbers(ledger, journal, year.name, draft.items.length);
  // The fees and their VAT go to the bank charges and the deductible VAT of the folder's chart.
  const { accounts } = profileOf(ledger);
  const entries: LedgerEntry[] = [];
  const change: LedgerChange = { entries: [], accounts: [], attachments: [], counters };
  draft.items.forEach((transaction, i) => {
    const where = `items[${i}]`;
    const externalTransaction = transaction.external_transaction_id?.trim() || null;
    if (externalTransaction) {
      if (imported.has(externalTransaction)) {
        throw fail(
          `${where}: the transaction '${externalTransaction}' was already imported on '${journal.code}'`,
        );
      }
      imported.add(externalTransaction);
    }
    const amount = toCents(transaction.amount);
    const fee = toCents(transaction.fee_amount);
    const tax = toCents(transaction.tax_amount);
    if (fee < 0 || tax < 0) throw fail(`${where}: fee_amount and tax_amount cannot be negative`);
    const description = transaction.description;
    const items: EntryItemDraft[] = [item('general_account', bankAccount, description, amount)];
    if (fee) items.push(item('general_account', accounts.bank_charges, description, fee));
    if (tax) items.push(item('general_account', accounts.vat_deductible, description, tax));
    const rest = -(amount + fee + tax);
    if (rest !== 0) items.push(counterpartItem(ledger, journal, transaction, rest, where));
    const built = buildJournalEntry(
      ledger,
      {
        journal_id: journal.id,
        number: numbers[i] as string,
        reference: externalTransaction ?? externalId,
        due_date: null,
        currency: draft.currency,
        currency_exchange_rate: transaction.currency_exchange_rate,
        date: draft.date,
        posted: true,
        // The statement's PDF goes with its first transaction.
        pdf: i === 0 ? draft.pdf : null,
        pdf_name: i === 0 ? (draft.pdf_name ?? `statement-${externalId.replace(/\W+/g, '-')}`) : null,
        start_date: null,
        end_date: null,
        origin: 'bank_transaction',
        items,
      },
      ctx,
    );
    entries.push(built.entry);
    change.entries?.push(built.entry);
    change.attachments?.push(...(built.change.attachments ?? []));
  });
  const statement: LedgerBankStatement = {
    id: ctx.mint('accounting-bank-statement'),
    journal_id: journal.id,
    external_bank_statement_id: externalId,
    date: draft.date,
    currency: draft.currency,
    opening_balance: draft.opening_balance,
    entry_ids: entries.map((e) => e.id),
    created_on: ctx.now,
  };
  return { statement, entries, change: { ...change, bank_statements: [statement] } };
}
