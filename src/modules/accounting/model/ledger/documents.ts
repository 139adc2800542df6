import { errors, serviceError } from '../../../../lib/errors.js';
import type {
  LedgerAnalyticDistribution,
  LedgerEntry,
  LedgerInvoice,
  LedgerJournal,
  LedgerRecord,
} from '../accounting.records.js';
import { fromCents, round2, sumCents, toCents } from './money.js';
import {
  attachmentOf,
  buildJournalEntry,
  type EntryItemDraft,
  type LedgerChange,
  mintDocumentNumber,
  type PostingContext,
} from './posting.js';
import {
  assertCurrency,
  assertJournalCurrency,
  assertPdf,
  exchangeRateOf,
  requireActiveAnalyticAccount,
  requireActiveEmployee,
  requireGeneralAccount,
  requireJournal,
  requireOpenBookYear,
  requireVatCode,
} from './rules.js';

/**
 * Documents that post a journal entry without being invoices: miscellaneous operations, expense notes,
 * and PDFs attached to invoices.
 */

const fail = errors.accountingFailure;

/**
 * The journal of a kind when the input names none: the only unblocked one, or a refusal
 * (ERROR_JOURNAL_NOT_FOUND, ERROR_MULTIPLE_JOURNALS).
 */
function onlyJournalOf(ledger: LedgerRecord, type: LedgerJournal['journal_type']): LedgerJournal {
  const candidates = Object.values(ledger.journals).filter((j) => j.journal_type === type && !j.blocked);
  if (candidates.length === 1) return candidates[0] as LedgerJournal;
  if (candidates.length === 0) throw serviceError('journalNotFound', `The folder has no ${type} journal`);
  throw serviceError('multipleJournals', `Several ${type} journals exist: give journal_id`);
}

/** Debit/credit of an item from signed cents (debit positive). */
const amounts = (cents: number) => ({
  debit: cents > 0 ? fromCents(cents) : 0,
  credit: cents < 0 ? fromCents(-cents) : 0,
});

// ---------------------------------------------------------------------------------------------------
// Miscellaneous operations

export interface MiscellaneousLineDraft {
  line_number: number;
  description: string | null;
  /** Positive for a credit, negative for a debit. */
  amount: number;
  type: 'customer_account' | 'supplier_account' | 'general_account';
  account_number: string;
  partner_id: string | null;
  analytic_account: string | null;
}

export interface MiscellaneousOperationDraft {
  operation_number: string | null;
  currency: string;
  currency_exchange_rate: number;
  operation_date: string;
  journal_id: string | null;
  status: 'draft' | 'posted';
  lines: MiscellaneousLineDraft[];
}

/**
 * A miscellaneous operation: an entry in a miscellaneous-operation journal (the only one when none is
 * given), lines in the order of their line_number. Client and supplier lines name the partner and its
 * receivable or payable account; general lines any account (the partner_id of a general line is not
 * used); the amounts add up to zero. One line is enough, and a line may be 0 (the official Node SDK
 * books a single line of 0).
 */
export function buildMiscellaneousOperation(
  ledger: LedgerRecord,
  draft: MiscellaneousOperationDraft,
  ctx: PostingContext,
): { entry: LedgerEntry; change: LedgerChange } {
  const journal = draft.journal_id
    ? requireJournal(ledger, draft.journal_id)
    : onlyJournalOf(ledger, 'miscellaneous_operation');
  if (journal.journal_type !== 'miscellaneous_operation') {
    throw serviceError(
      'journalNotGoodScope',
      `The journal '${journal.code}' (${journal.journal_type}) cannot take a miscellaneous operation`,
    );
  }
  if (draft.lines.length === 0) throw serviceError('noOperationLine', 'The operation has no line');
  assertCurrency(draft.currency, null);
  const rate = exchangeRateOf(ledger, draft.currency, draft.currency_exchange_rate);
  const year = requireOpenBookYear(ledger, draft.operation_date, 'operation_date', draft.status === 'posted');
  const sum = sumCents(draft.lines.map((line) => line.amount));
  if (sum !== 0) {
    throw serviceError('operationNotBalanced', `The amounts of the lines add up to ${fromCents(sum)}`);
  }
  const ordered = draft.lines
    .map((line, index) => ({ line, index }))
    .sort((a, b) => a.line.line_number - b.line.line_number || a.index - b.index);
  const items = ordered.map(({ line, index }): EntryItemDraft => {
    const where = `lines[${index}]`;
    const cents = toCents(line.amount);
    let distribution: LedgerAnalyticDistribution[] = [];
    if (line.analytic_account) {
      const account = requireActiveAnalyticAccount(ledger, line.analytic_account, where);
      distribution = [
        {
          analytic_plan: account.plan_id,
          analytic_accounts: [{ analytic_account: account.id, percentage: 100 }],
        },
      ];
    }
    const base = {
      description: line.description,
      ...amounts(-cents),
      analytic_distribution: distribution,
      tax_code: null,
      account_info: null,
    };
    if (line.type === 'general_account') {
      return {
        ...base,
        account_type: 'general_account',
        account: line.account_number,
        force_general_account: null,
      };
    }
    if (!line.partner_id) {
      throw serviceError('invalidOperationLineType', `${where}: the ${line.type} line has no partner_id`);
    }
    return {
      ...base,
      account_type: line.type,
      account: line.partner_id,
      force_general_account: line.account_number,
    };
  });
  let number = draft.operation_number;
  let counters: Record<string, number> = {};
  if (!number) ({ number, counters } = mintDocumentNumber(ledger, journal, year.name));
  const { entry, change } = buildJournalEntry(
    ledger,
    {
      journal_id: journal.id,
      number,
      reference: null,
      due_date: null,
      currency: draft.currency,
      currency_exchange_rate: rate,
      date: draft.operation_date,
      posted: draft.status === 'posted',
      pdf: null,
      pdf_name: null,
      start_date: null,
      end_date: null,
      origin: 'miscellaneous_operation',
      items,
    },
    ctx,
  );
  return { entry, change: { ...change, counters } };
}

// ---------------------------------------------------------------------------------------------------
// Expenses

export interface ExpenseLineDraft {
  total: number;
  untaxed_amount: number;
  tax_amount: number;
  description: string | null;
  account_number: string;
  tax_rate: number;
  tax_id: string;
}

export interface ExpenseDraft {
  employee_id: string;
  total: number;
  untaxed_amount: number;
  tax_amount: number;
  reference: string | null;
  number: string | null;
  currency: string;
  currency_exchange_rate: number;
  date: string;
  pdf: string | null;
  pdf_name: string | null;
  lines: ExpenseLineDraft[];
}

/** Expense notes are booked in the folder's first miscellaneous-operation journal (the seeded OD). */
export function expenseJournalOf(ledger: LedgerRecord): LedgerJournal {
  const journal = Object.values(ledger.journals).find(
    (j) => j.journal_type === 'miscellaneous_operation' && !j.blocked,
  );
  if (!journal) throw fail('The folder has no miscellaneous-operation journal to book expenses in');
  return journal;
}

/** An expense line's amounts agree with its purchase VAT code, to the cent. */
function assertExpenseLine(ledger: LedgerRecord, line: ExpenseLineDraft, where: string) {
  requireGeneralAccount(ledger, line.account_number, where);
  const code = requireVatCode(ledger, line.tax_id, 'purchase');
  if (line.tax_rate !== code.rate) {
    throw fail(`${where}: tax_rate ${line.tax_rate} is not the rate ${code.rate} of its VAT code`);
  }
  const expected = code.reversed ? 0 : round2((line.untaxed_amount * code.rate) / 100);
  if (Math.abs(toCents(expected) - toCents(line.tax_amount)) > 1) {
    throw fail(
      `${where}: tax_amount ${line.tax_amount} is not ${code.rate}% of ${line.untaxed_amount} (${expected})`,
    );
  }
  if (toCents(line.untaxed_amount) + toCents(line.tax_amount) !== toCents(line.total)) {
    throw fail(`${where}: total ${line.total} is not untaxed_amount + tax_amount`);
  }
  return code;
}

/**
 * An expense note: the expense accounts (untaxed) and the deductible VAT are debited, the employee's
 * account credited with the total the company owes the employee.
 */
export function buildExpense(
  ledger: LedgerRecord,
  draft: ExpenseDraft,
  ctx: PostingContext,
): { entry: LedgerEntry; change: LedgerChange } {
  const employee = requireActiveEmployee(ledger, draft.employee_id);
  const journal = expenseJournalOf(ledger);
  assertCurrency(draft.currency, draft.currency_exchange_rate);
  assertJournalCurrency(journal, draft.currency);
  const year = requireOpenBookYear(ledger, draft.date);
  if (draft.lines.length === 0) throw fail('An expense needs at least one line');
  const items: EntryItemDraft[] = [];
  const vat = new Map<string, { cents: number; label: string }>();
  draft.lines.forEach((line, i) => {
    const where = `lines[${i}]`;
    const code = assertExpenseLine(ledger, line, where);
    items.push({
      account_type: 'general_account',
      account: line.account_number,
      force_general_account: null,
      description: line.description,
      ...amounts(toCents(line.untaxed_amount)),
      analytic_distribution: [],
      tax_code: code.id,
      account_info: null,
    });
    if (toCents(line.tax_amount) === 0) return;
    if (!code.deductible_account)
      throw fail(`${where}: the VAT code '${code.code}' has no deductible VAT account`);
    const total = vat.get(code.deductible_account) ?? { cents: 0, label: code.label };
    total.cents += toCents(line.tax_amount);
    vat.set(code.deductible_account, total);
  });
  const untaxed = sumCents(draft.lines.map((l) => l.untaxed_amount));
  const tax = sumCents(draft.lines.map((l) => l.tax_amount));
  if (untaxed !== toCents(draft.untaxed_amount)) {
    throw fail(`untaxed_amount ${draft.untaxed_amount} is not the sum of the lines (${fromCents(untaxed)})`);
  }
  if (tax !== toCents(draft.tax_amount)) {
    throw fail(`tax_amount ${draft.tax_amount} is not the sum of the lines (${fromCents(tax)})`);
  }
  if (untaxed + tax !== toCents(draft.total))
    throw fail(`total ${draft.total} is not untaxed_amount + tax_amount`);
  for (const [account, { cents, label }] of vat) {
    items.push({
      account_type: 'general_account',
      account,
      force_general_account: null,
      description: label,
      ...amounts(cents),
      analytic_distribution: [],
      tax_code: null,
      account_info: null,
    });
  }
  items.push({
    account_type: 'employee_account',
    account: employee.id,
    force_general_account: null,
    description: draft.reference ?? `Expenses ${employee.name}`,
    ...amounts(-(untaxed + tax)),
    analytic_distribution: [],
    tax_code: null,
    account_info: null,
  });
  let number = draft.number;
  let counters: Record<string, number> = {};
  if (!number) ({ number, counters } = mintDocumentNumber(ledger, journal, year.name));
  const { entry, change } = buildJournalEntry(
    ledger,
    {
      journal_id: journal.id,
      number,
      reference: draft.reference,
      due_date: null,
      currency: draft.currency,
      currency_exchange_rate: draft.currency_exchange_rate,
      date: draft.date,
      posted: true,
      pdf: draft.pdf,
      pdf_name: draft.pdf_name,
      start_date: null,
      end_date: null,
      origin: 'expense',
      items,
    },
    ctx,
  );
  return { entry, change: { ...change, counters } };
}

// ---------------------------------------------------------------------------------------------------
// Attachments

/**
 * A PDF attached to an invoice. An invoice that already has one keeps it unless `overwrite` says to
 * replace it; attaching moves the invoice's last_updated_on.
 */
export function buildInvoiceAttachment(
  ledger: LedgerRecord,
  invoice: LedgerInvoice,
  pdf: string,
  name: string | null,
  overwrite: boolean,
  ctx: PostingContext,
): LedgerChange {
  assertPdf(pdf);
  const existing = Object.values(ledger.attachments).filter(
    (a) => a.document_type === 'invoice' && a.document_id === invoice.id,
  );
  if (existing.length && !overwrite) {
    throw serviceError(
      'attachmentAlreadyExists',
      `The invoice '${invoice.invoice_number}' already has an attachment: set overwrite_existing=true to replace it`,
    );
  }
  return {
    removed_attachments: existing.map((a) => a.id),
    attachments: attachmentOf(
      ctx,
      'invoice',
      invoice.id,
      pdf,
      name ?? invoice.invoice_number.replace(/\W+/g, '-'),
    ),
    invoices: [{ ...invoice, last_updated_on: ctx.now }],
  };
}
