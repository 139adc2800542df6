import { serviceError } from '../../../lib/errors.js';
import { own } from '../../../lib/own.js';
import type { LedgerEntry, LedgerRecord } from '../model/accounting.records.js';
import {
  instantOf,
  matchingNumbersByLine,
  type OpenLine,
  openPartnerLines,
  partnerSideOf,
} from '../model/ledger/derived.js';
import { fromCents, round2 } from '../model/ledger/money.js';
import type { EntryDraft, EntryItemDraft } from '../model/ledger/posting.js';
import type {
  GenericJournalEntryInput,
  JournalEntryInInput,
  JournalEntryMonoOut,
  JournalEntryMultiOut,
  OutstandingItemOut,
} from './entries.schemas.js';

/** Journal entries on the wire, their filters, and outstanding items. */

export function draftFromGeneric(input: GenericJournalEntryInput): EntryDraft {
  return {
    journal_id: input.journal_id,
    number: input.number,
    reference: input.reference ?? null,
    due_date: input.due_date ?? null,
    currency: input.currency,
    currency_exchange_rate: input.currency_exchange_rate ?? 1,
    date: input.date,
    posted: input.posted ?? true,
    pdf: input.pdf ?? null,
    pdf_name: input.pdf_name ?? null,
    start_date: input.start_date ?? null,
    end_date: input.end_date ?? null,
    origin: 'journal_entry',
    items: input.items.map((item) => ({
      account_type: item.account_type,
      account: item.account ?? null,
      force_general_account: item.force_general_account ?? null,
      description: item.description ?? null,
      debit: item.debit,
      credit: item.credit,
      analytic_distribution: (item.analytic_distribution ?? []).map((d) => ({
        analytic_plan: d.analytic_plan,
        analytic_accounts: d.analytic_accounts.map((a) => ({ ...a })),
      })),
      tax_code: item.tax_code ?? item.tax_info?.tax_code ?? null,
      account_info: item.account_info ? { ...item.account_info } : null,
    })),
  };
}

/**
 * The deprecated shape: each line names its account number; a line on a receivable or payable account
 * names its client or supplier in partner_id (the partner_id of another line is not used). Every line
 * is in the entry's one currency, at one exchange rate.
 */
export function draftFromLegacy(ledger: LedgerRecord, input: JournalEntryInInput): EntryDraft {
  const first = input.items[0];
  const currency = first?.currency ?? ledger.folder.main_currency;
  const rate = first?.currency_exchange_rate ?? 1;
  const items = input.items.map((item, i): EntryItemDraft => {
    const where = `items[${i}]`;
    if (item.currency !== currency) {
      throw serviceError(
        'multipleCurrencies',
        `${where}: ${item.currency}, where the first line is in ${currency}`,
      );
    }
    if ((item.currency_exchange_rate ?? 1) !== rate) {
      throw serviceError(
        'multipleExchangeRates',
        `${where}: ${item.currency_exchange_rate ?? 1}, where the first line has ${rate}`,
      );
    }
    const side = partnerSideOf(ledger, item.account_number);
    if (side && !item.partner_id) {
      throw serviceError(
        'partnerAccountMissing',
        `${where}: the account '${item.account_number}' takes a client or supplier: give partner_id`,
      );
    }
    const partnerLine = side && item.partner_id;
    return {
      account_type:
        side === 'client' ? 'customer_account' : side === 'supplier' ? 'supplier_account' : 'general_account',
      account: partnerLine ? (item.partner_id as string) : item.account_number,
      force_general_account: partnerLine ? item.account_number : null,
      description: item.description ?? null,
      debit: item.debit,
      credit: item.credit,
      analytic_distribution: (item.analytic_distribution ?? []).map((d) => ({
        analytic_plan: d.analytic_plan,
        analytic_accounts: d.analytic_accounts.map((a) => ({ ...a })),
      })),
      tax_code: null,
      account_info: null,
    };
  });
  return {
    journal_id: input.journal_id,
    number: input.name,
    reference: input.reference ?? null,
    due_date: input.due_date ?? null,
    currency,
    currency_exchange_rate: rate,
    date: input.date,
    posted: true,
    pdf: input.pdf ?? null,
    pdf_name: null,
    start_date: null,
    end_date: null,
    origin: 'journal_entry',
    items,
  };
}

export function requireEntry(ledger: LedgerRecord, id: string): LedgerEntry {
  const entry = own(ledger.entries, id.toLowerCase());
  if (!entry) throw serviceError('entryNotFound', `No journal entry with the id '${id}' in the folder`);
  return entry;
}

/** A journal entry on the wire, its lines in either analytic variant. */
export function toJournalEntry(
  ledger: LedgerRecord,
  entry: LedgerEntry,
  variant: 'mono',
  numbers?: Map<string, string[]>,
): JournalEntryMonoOut;
export function toJournalEntry(
  ledger: LedgerRecord,
  entry: LedgerEntry,
  variant: 'multi',
  numbers?: Map<string, string[]>,
): JournalEntryMultiOut;
export function toJournalEntry(
  ledger: LedgerRecord,
  entry: LedgerEntry,
  variant: 'mono' | 'multi',
  numbers = matchingNumbersByLine(ledger),
): JournalEntryMonoOut | JournalEntryMultiOut {
  const journal = own(ledger.journals, entry.journal_id);
  const attachments = Object.values(ledger.attachments).filter(
    (a) =>
      (a.document_type === 'entry' && a.document_id === entry.id) ||
      (a.document_type === 'invoice' && a.document_id === entry.invoice_id),
  );
  const method = entry.payment_method_id ? own(ledger.payment_methods, entry.payment_method_id) : undefined;
  const partnerLines = entry.lines.filter((l) => l.partner_id && partnerSideOf(ledger, l.account_number));
  const head = {
    id: entry.id,
    reference: entry.reference,
    due_date: entry.due_date,
    journal_id: entry.journal_id,
    name: entry.number,
    journal_name: journal?.name ?? null,
    date: entry.date,
    posted: entry.posted,
    due_dates:
      entry.due_date && partnerLines.length
        ? [
            {
              due_date: entry.due_date,
              payment_method: method?.name ?? null,
              payment_method_id: method?.id ?? null,
              debit: round2(partnerLines.reduce((t, l) => t + l.debit, 0)),
              credit: round2(partnerLines.reduce((t, l) => t + l.credit, 0)),
            },
          ]
        : [],
    attachments_info: {
      status: attachments.length ? ('yes' as const) : ('no' as const),
      attachments: attachments.map((a) => ({ filename: a.filename, url: null })),
    },
  };
  const item = (line: LedgerEntry['lines'][number]) => ({
    id: line.id,
    account_number: line.account_number,
    account_name: own(ledger.accounts, line.account_number)?.name ?? line.account_number,
    partner_id: line.partner_id,
    partner_name: line.partner_id ? (own(ledger.partners, line.partner_id)?.name ?? null) : null,
    description: line.description,
    debit: line.debit,
    credit: line.credit,
    currency: entry.currency,
    currency_exchange_rate: entry.currency_exchange_rate,
    matching_numbers: numbers.get(line.id) ?? [],
  });
  if (variant === 'mono') {
    return {
      ...head,
      items: entry.lines.map((line) => {
        const analytic = line.analytic_distribution[0]?.analytic_accounts[0]?.analytic_account;
        return {
          ...item(line),
          analytic_account: analytic ?? null,
          analytic_account_name: analytic ? (own(ledger.analytic_accounts, analytic)?.name ?? null) : null,
        };
      }),
    };
  }
  return {
    ...head,
    items: entry.lines.map((line) => ({
      ...item(line),
      analytic_distribution: line.analytic_distribution.map((d) => ({
        analytic_plan: d.analytic_plan,
        analytic_accounts: d.analytic_accounts.map((a) => ({ ...a })),
      })),
    })),
  };
}

export interface EntryFilters {
  unposted_allowed: 'true' | 'false';
  journal_id?: string | undefined;
  date_from?: string | undefined;
  date_to?: string | undefined;
  updated_after?: string | undefined;
  partner_id?: string | undefined;
}

/**
 * At most 3 months between date_from and date_to (ERROR_MAX_DIFFERENCE_MONTHS), unless updated_after
 * narrows the list. A date_to before date_from is no refusal: the list is empty.
 */
export function assertEntryPeriod(filters: EntryFilters): void {
  if (!filters.date_from || !filters.date_to || filters.updated_after) return;
  if (filters.date_to < filters.date_from) return;
  const limit = new Date(`${filters.date_from}T00:00:00Z`);
  limit.setUTCMonth(limit.getUTCMonth() + 3);
  if (filters.date_to > limit.toISOString().slice(0, 10)) {
    throw serviceError(
      'maxDifferenceMonths',
      `date_from ${filters.date_from} and date_to ${filters.date_to} are more than 3 months apart (give updated_after to list more)`,
    );
  }
}

/** Entries by date and number. */
export function listEntries(ledger: LedgerRecord, filters: EntryFilters): LedgerEntry[] {
  assertEntryPeriod(filters);
  const after = filters.updated_after ? instantOf(filters.updated_after) : undefined;
  return Object.values(ledger.entries)
    .filter((e) => filters.unposted_allowed === 'true' || e.posted)
    .filter((e) => !filters.journal_id || e.journal_id === filters.journal_id)
    .filter((e) => !filters.date_from || e.date >= filters.date_from)
    .filter((e) => !filters.date_to || e.date <= filters.date_to)
    .filter((e) => after === undefined || Date.parse(e.last_updated_on) > after)
    .filter((e) => !filters.partner_id || e.lines.some((l) => l.partner_id === filters.partner_id))
    .sort(
      (a, b) => a.date.localeCompare(b.date) || a.number.localeCompare(b.number) || a.id.localeCompare(b.id),
    );
}

/**
 * An outstanding item: one open line. Amounts are positive for what the partner owes (a client's
 * invoice) or is owed (a supplier's invoice), negative for payments and refunds.
 */
export function toOutstandingItem(
  ledger: LedgerRecord,
  open: OpenLine,
  side: 'client' | 'supplier',
  numbers: Map<string, string[]>,
): OutstandingItemOut {
  const { entry, line } = open;
  const sign = side === 'client' ? 1 : -1;
  const journal = own(ledger.journals, entry.journal_id);
  const invoice = entry.invoice_id ? own(ledger.invoices, entry.invoice_id) : undefined;
  const method = entry.payment_method_id ? own(ledger.payment_methods, entry.payment_method_id) : undefined;
  const openAmount = fromCents(sign * open.openCents);
  return {
    id: line.id,
    number: entry.number,
    journal_id: entry.journal_id,
    journal_type: journal?.journal_type ?? 'unknown',
    date: entry.date,
    due_date: entry.due_date,
    due_dates: entry.due_date
      ? [
          {
            due_date: entry.due_date,
            payment_method: method?.name ?? null,
            payment_method_id: method?.id ?? null,
            amount: openAmount,
          },
        ]
      : [],
    currency: entry.currency,
    currency_exchange_rate: entry.currency_exchange_rate,
    amount: round2(sign * (line.debit - line.credit)),
    open_amount: openAmount,
    partner_id: line.partner_id ?? '',
    account_number: line.account_number,
    reference: entry.reference,
    matching_numbers: numbers.get(line.id) ?? [],
    payment_communication: invoice?.payment_communication ?? null,
    posted: entry.posted,
    original_document: {
      id: invoice?.id ?? entry.id,
      number: invoice?.invoice_number ?? entry.number,
      journal_id: entry.journal_id,
      journal_type: journal?.journal_type ?? 'unknown',
      date: entry.date,
      due_date: entry.due_date,
      reference: entry.reference,
    },
  };
}

export function outstandingItems(
  ledger: LedgerRecord,
  side: 'client' | 'supplier',
  unpostedAllowed: boolean,
): OutstandingItemOut[] {
  const numbers = matchingNumbersByLine(ledger);
  return openPartnerLines(ledger, side, unpostedAllowed).map((open) =>
    toOutstandingItem(ledger, open, side, numbers),
  );
}
