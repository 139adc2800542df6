import type { LedgerEntry } from '../model/accounting.records.js';
import type { ExpenseDraft } from '../model/ledger/documents.js';
import type { ExpenseInput, ExpenseOut } from './expenses.schemas.js';

export const expenseDraftOf = (input: ExpenseInput): ExpenseDraft => ({
  employee_id: input.employee_id,
  total: input.total,
  untaxed_amount: input.untaxed_amount,
  tax_amount: input.tax_amount,
  reference: input.reference ?? null,
  number: input.number ?? null,
  currency: input.currency,
  currency_exchange_rate: input.currency_exchange_rate ?? 1,
  date: input.date,
  pdf: input.pdf ?? null,
  pdf_name: input.pdf_name ?? null,
  lines: input.lines.map((line) => ({ ...line, description: line.description ?? null })),
});

/** The expense as booked: what was sent, with the entry's id and number. */
export const toExpenseOut = (input: ExpenseInput, entry: LedgerEntry): ExpenseOut => ({
  ...input,
  reference: input.reference ?? null,
  number: entry.number,
  currency_exchange_rate: input.currency_exchange_rate ?? 1,
  pdf: input.pdf ?? null,
  pdf_name: input.pdf_name ?? null,
  lines: input.lines.map((line) => ({ ...line, description: line.description ?? null })),
  id: entry.id,
});
