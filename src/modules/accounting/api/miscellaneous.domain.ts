import { errors } from '../../../lib/errors.js';
import { own } from '../../../lib/own.js';
import type { LedgerEntry, LedgerRecord } from '../model/accounting.records.js';
import { matchedCentsByLine, openCents, partnerSideOf } from '../model/ledger/derived.js';
import type { MiscellaneousOperationDraft } from '../model/ledger/documents.js';
import { fromCents, toCents } from '../model/ledger/money.js';
import type { MiscellaneousOperationInput, MiscellaneousOperationOutValue } from './miscellaneous.schemas.js';

/**
 * Miscellaneous operations are the entries of the miscellaneous-operation journals (the seeded
 * salary accruals and expense notes among them): listed, read and written in the operation shape.
 */

export function draftOf(input: MiscellaneousOperationInput): MiscellaneousOperationDraft {
  return {
    operation_number: input.operation_number ?? null,
    currency: input.currency,
    currency_exchange_rate: input.currency_exchange_rate ?? 1,
    operation_date: input.operation_date,
    journal_id: input.journal_id ?? null,
    status: input.status ?? 'posted',
    lines: input.lines.map((line) => ({
      line_number: line.line_number ?? 1,
      description: line.description ?? null,
      amount: line.amount,
      type: line.type,
      account_number: line.account_number,
      partner_id: line.partner_id ?? null,
      analytic_account: line.analytic_account ?? null,
    })),
  };
}

const isOperation = (ledger: LedgerRecord, entry: LedgerEntry) =>
  own(ledger.journals, entry.journal_id)?.journal_type === 'miscellaneous_operation';

/** The operation of a path id: an entry of a miscellaneous-operation journal, or 404. */
export function requireOperation(ledger: LedgerRecord, id: string): LedgerEntry {
  const entry = own(ledger.entries, id.toLowerCase());
  if (!entry || !isOperation(ledger, entry)) {
    throw errors.accountingOperationNotFound(`No miscellaneous operation with the id '${id}' in the folder`);
  }
  return entry;
}

export interface OperationFilters {
  date_from?: string | undefined;
  date_to?: string | undefined;
  journal_ids?: string | undefined;
}

/**
 * Operations by date and number, of the journals journal_ids names (a comma-separated list). Filters
 * only narrow the list: a journal that is unknown, or not a miscellaneous-operation journal, holds no
 * operation, and a date_to before date_from leaves none.
 */
export function listOperations(ledger: LedgerRecord, filters: OperationFilters): LedgerEntry[] {
  const journals = (filters.journal_ids ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  return Object.values(ledger.entries)
    .filter((e) => isOperation(ledger, e))
    .filter((e) => journals.length === 0 || journals.includes(e.journal_id))
    .filter((e) => !filters.date_from || e.date >= filters.date_from)
    .filter((e) => !filters.date_to || e.date <= filters.date_to)
    .sort(
      (a, b) => a.date.localeCompare(b.date) || a.number.localeCompare(b.number) || a.id.localeCompare(b.id),
    );
}

/**
 * An entry in the operation shape: amounts positive for a credit; a line on a receivable or payable
 * account with its partner is a customer_account or supplier_account line. A posted operation whose
 * partner lines are all fully matched is 'matched'.
 */
export function toOperation(
  ledger: LedgerRecord,
  entry: LedgerEntry,
  matched = matchedCentsByLine(ledger),
): MiscellaneousOperationOutValue {
  const partnerLines = entry.lines.filter((l) => l.partner_id && partnerSideOf(ledger, l.account_number));
  const settled = partnerLines.length > 0 && partnerLines.every((l) => openCents(l, matched) === 0);
  return {
    id: entry.id,
    operation_number: entry.number,
    currency: entry.currency,
    currency_exchange_rate: entry.currency_exchange_rate,
    operation_date: entry.date,
    journal_id: entry.journal_id,
    status: !entry.posted ? 'draft' : settled ? 'matched' : 'posted',
    lines: entry.lines.map((line, i) => {
      const side = line.partner_id ? partnerSideOf(ledger, line.account_number) : null;
      return {
        line_number: i + 1,
        description: line.description,
        amount: fromCents(toCents(line.credit) - toCents(line.debit)),
        type:
          side === 'client'
            ? 'customer_account'
            : side === 'supplier'
              ? 'supplier_account'
              : 'general_account',
        account_number: line.account_number,
        partner_id: side ? line.partner_id : null,
        analytic_account: line.analytic_distribution[0]?.analytic_accounts[0]?.analytic_account ?? null,
      };
    }),
  };
}
