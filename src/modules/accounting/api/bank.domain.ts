import type { LedgerEntry, LedgerJournal, LedgerRecord } from '../model/accounting.records.js';
import type { BankAccountDraft, BankStatementDraft } from '../model/ledger/treasury.js';
import { isBankAccount } from '../model/ledger/treasury.js';
import type { BankAccountInInput, BankStatementInInput, BankStatementOutValue } from './bank.schemas.js';

/** Bank accounts are the bank journals of the folder; statements book one entry per transaction. */

export const toBankAccountItem = (ledger: LedgerRecord, journal: LedgerJournal) => ({
  id: journal.id,
  code: journal.code,
  currency: journal.currency ?? ledger.folder.main_currency,
  account_name: journal.name,
  account_number: journal.bank_account_number ?? null,
  iban: journal.iban,
  bank_name: journal.bank_name,
  journal_id: journal.id,
  ledger_account: journal.counterpart_account,
  unallocated_account: journal.unallocated_account,
});

/** The bank journals, by code. */
export const listBankAccounts = (ledger: LedgerRecord): LedgerJournal[] =>
  Object.values(ledger.journals)
    .filter((j) => isBankAccount(ledger, j))
    .sort((a, b) => a.code.localeCompare(b.code));

export const bankAccountDraftOf = (input: BankAccountInInput): BankAccountDraft => ({
  code: input.code,
  currency: input.currency,
  account_name: input.account_name ?? null,
  account_number: input.account_number ?? null,
  iban: input.iban ?? null,
  bank_name: input.bank_name,
});

export const statementDraftOf = (input: BankStatementInInput): BankStatementDraft => ({
  date: input.bank_statement_date,
  bank_account_id: input.bank_account_id,
  currency: input.currency,
  external_bank_statement_id: input.external_bank_statement_id,
  opening_balance: input.opening_balance ?? null,
  pdf: input.pdf ?? null,
  pdf_name: input.pdf_name ?? null,
  items: input.items.map((t) => ({
    general_ledger_account: t.general_ledger_account ?? null,
    description: t.description ?? null,
    external_transaction_id: t.external_transaction_id ?? null,
    amount: t.amount,
    fee_amount: t.fee_amount ?? 0,
    tax_amount: t.tax_amount ?? 0,
    currency_exchange_rate: t.currency_exchange_rate ?? 1,
    counterpart: t.counterpart
      ? { type: t.counterpart.counterpart_type ?? null, id: t.counterpart.id ?? null }
      : null,
  })),
});

/** The statement as imported: what was sent, with the statement's id and each transaction's entry id. */
export function toStatementOut(
  input: BankStatementInInput,
  statementId: string,
  entries: LedgerEntry[],
): BankStatementOutValue {
  return {
    id: statementId,
    bank_statement_date: input.bank_statement_date,
    bank_account_id: input.bank_account_id,
    currency: input.currency,
    external_bank_statement_id: input.external_bank_statement_id,
    items: input.items.map((t, i) => ({
      general_ledger_account: t.general_ledger_account ?? null,
      description: t.description ?? null,
      external_transaction_id: t.external_transaction_id ?? null,
      amount: t.amount,
      fee_amount: t.fee_amount ?? 0,
      tax_amount: t.tax_amount ?? 0,
      currency_exchange_rate: t.currency_exchange_rate ?? 1,
      counterpart: t.counterpart ?? null,
      id: entries[i]?.id ?? null,
    })),
  };
}
