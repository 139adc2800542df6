import { own } from '../../../../lib/own.js';
import { documentNumber } from '../accounting.profiles.js';
import type {
  LedgerEntry,
  LedgerEntryLine,
  LedgerInvoice,
  LedgerJournal,
  LedgerMatching,
  LedgerRecord,
} from '../accounting.records.js';
import { fromCents, inMainCurrency, toCents } from './money.js';

/**
 * What the ledger's entries and matchings imply: open amounts, payment statuses, balances and
 * outstanding items. Nothing here is stored; every answer is computed from the journal entries, so a
 * write only has to add entries and matchings for every list to agree with it.
 */

/** An instant of a query parameter (a datetime without offset is read as UTC). */
export { instantOf } from '../../../../lib/clock.js';

/** Signed amount of a line in cents: debit positive, credit negative. */
export const signedCents = (line: Pick<LedgerEntryLine, 'debit' | 'credit'>): number =>
  toCents(line.debit) - toCents(line.credit);

/** Cents of each line already settled by matchings. */
export function matchedCentsByLine(ledger: LedgerRecord): Map<string, number> {
  const out = new Map<string, number>();
  for (const matching of Object.values(ledger.matchings)) {
    for (const allocation of matching.allocations) {
      out.set(allocation.line_id, (out.get(allocation.line_id) ?? 0) + toCents(allocation.amount));
    }
  }
  return out;
}

/** Matching numbers of each line. */
export function matchingNumbersByLine(ledger: LedgerRecord): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const matching of Object.values(ledger.matchings)) {
    for (const allocation of matching.allocations) {
      const list = out.get(allocation.line_id) ?? [];
      if (!list.includes(matching.number)) list.push(matching.number);
      out.set(allocation.line_id, list);
    }
  }
  return out;
}

/** Open cents of a line, with its sign (debit positive): zero once fully matched. */
export function openCents(line: LedgerEntryLine, matched: Map<string, number>): number {
  const signed = signedCents(line);
  const settled = matched.get(line.id) ?? 0;
  const open = Math.abs(signed) - settled;
  return open <= 0 ? 0 : Math.sign(signed) * open;
}

/** The side of a partner account: receivable accounts hold clients, payable accounts suppliers. */
export function partnerSideOf(ledger: LedgerRecord, accountNumber: string): 'client' | 'supplier' | null {
  const type = own(ledger.accounts, accountNumber)?.type;
  if (type === 'receivable') return 'client';
  if (type === 'payable') return 'supplier';
  return null;
}

export const isCustomerType = (type: LedgerInvoice['invoice_type']): boolean => type.startsWith('customer_');

export const isRefundType = (type: LedgerInvoice['invoice_type']): boolean => type.endsWith('_refund');

/** Journal type a journal must have to book an invoice of this type, by side. */
export const journalSideAccepts = (journal: LedgerJournal, type: LedgerInvoice['invoice_type']): boolean =>
  isCustomerType(type)
    ? journal.journal_type === 'customer_invoice' || journal.journal_type === 'customer_refund'
    : journal.journal_type === 'supplier_invoice' || journal.journal_type === 'supplier_refund';

export function entryLine(
  ledger: LedgerRecord,
  entryId: string,
  lineId: string,
): LedgerEntryLine | undefined {
  return own(ledger.entries, entryId)?.lines.find((line) => line.id === lineId);
}

/** Open amount of an invoice (positive, in the invoice's currency): what is still to be paid. */
export function invoiceOpenCents(
  ledger: LedgerRecord,
  invoice: LedgerInvoice,
  matched = matchedCentsByLine(ledger),
): number {
  const line = entryLine(ledger, invoice.entry_id, invoice.partner_line_id);
  return line ? Math.abs(openCents(line, matched)) : 0;
}

export type InvoiceWireStatus = 'cancelled' | 'draft' | 'posted' | 'paid';

/** Booked status, or 'paid' for a posted invoice with nothing left open. */
export function invoiceStatus(
  ledger: LedgerRecord,
  invoice: LedgerInvoice,
  matched = matchedCentsByLine(ledger),
): InvoiceWireStatus {
  if (invoice.status !== 'posted') return invoice.status;
  return toCents(invoice.total) !== 0 && invoiceOpenCents(ledger, invoice, matched) === 0 ? 'paid' : 'posted';
}

/** One settlement of an invoice: the line of another entry matched against the invoice's line. */
export interface InvoiceSettlement {
  matching: LedgerMatching;
  entry: LedgerEntry;
  line: LedgerEntryLine;
  /** Cents of the invoice settled by this line. */
  dedicatedCents: number;
}

/** The entries that settled (part of) an invoice: payments, refunds, manual entries, by date. */
export function invoiceSettlements(ledger: LedgerRecord, invoice: LedgerInvoice): InvoiceSettlement[] {
  const out: InvoiceSettlement[] = [];
  for (const matching of Object.values(ledger.matchings)) {
    const settling = matching.allocations.find((a) => a.line_id === invoice.partner_line_id);
    if (!settling) continue;
    for (const allocation of matching.allocations) {
      if (allocation.entry_id === invoice.entry_id) continue;
      const entry = own(ledger.entries, allocation.entry_id);
      const line = entry?.lines.find((l) => l.id === allocation.line_id);
      if (!entry || !line) continue;
      out.push({
        matching,
        entry,
        line,
        dedicatedCents: Math.min(toCents(allocation.amount), toCents(settling.amount)),
      });
    }
  }
  return out.sort(
    (a, b) => a.entry.date.localeCompare(b.entry.date) || a.entry.number.localeCompare(b.entry.number),
  );
}

/** An open line of a partner account: what the outstanding items list shows. */
export interface OpenLine {
  entry: LedgerEntry;
  line: LedgerEntryLine;
  /** Open cents with the line's sign (debit positive). */
  openCents: number;
}

/**
 * Lines on receivable (clients) or payable (suppliers) accounts that are not fully matched, oldest
 * first. Unposted entries count only when asked for.
 */
export function openPartnerLines(
  ledger: LedgerRecord,
  side: 'client' | 'supplier',
  unpostedAllowed: boolean,
): OpenLine[] {
  const matched = matchedCentsByLine(ledger);
  const out: OpenLine[] = [];
  for (const entry of Object.values(ledger.entries)) {
    if (!entry.posted && !unpostedAllowed) continue;
    for (const line of entry.lines) {
      if (!line.partner_id || partnerSideOf(ledger, line.account_number) !== side) continue;
      const open = openCents(line, matched);
      if (open !== 0) out.push({ entry, line, openCents: open });
    }
  }
  return out.sort(
    (a, b) =>
      a.entry.date.localeCompare(b.entry.date) ||
      a.entry.number.localeCompare(b.entry.number) ||
      a.line.id.localeCompare(b.line.id),
  );
}

/** First and last day of a YYYYMM month. */
export function monthBounds(month: string): { first: string; last: string } {
  const year = Number(month.slice(0, 4));
  const m = Number(month.slice(4, 6));
  const last = new Date(Date.UTC(year, m, 0)).getUTCDate();
  const mm = month.slice(4, 6);
  return { first: `${year}-${mm}-01`, last: `${year}-${mm}-${String(last).padStart(2, '0')}` };
}

export interface AccountBalanceFigures {
  account_number: string;
  account_name: string;
  debit: number;
  credit: number;
  balance: number;
  period_debit: number;
  period_credit: number;
  period_balance: number;
}

/**
 * Balances of the accounts whose number starts with one of `prefixes` (every account when there is
 * none), in the main currency, from posted entries: up to `end` for debit/credit/balance, and from
 * `start` to `end` for the period figures.
 */
export function accountBalances(
  ledger: LedgerRecord,
  prefixes: readonly string[],
  start: string,
  end: string,
): AccountBalanceFigures[] {
  const accounts = Object.values(ledger.accounts)
    .filter((a) => prefixes.length === 0 || prefixes.some((p) => a.number.startsWith(p)))
    .sort((a, b) => a.number.localeCompare(b.number));
  const totals = new Map(accounts.map((a) => [a.number, { d: 0, c: 0, pd: 0, pc: 0 }]));
  for (const entry of Object.values(ledger.entries)) {
    if (!entry.posted || entry.date > end) continue;
    const inPeriod = entry.date >= start;
    for (const line of entry.lines) {
      const total = totals.get(line.account_number);
      if (!total) continue;
      const d = toCents(inMainCurrency(line.debit, entry.currency_exchange_rate));
      const c = toCents(inMainCurrency(line.credit, entry.currency_exchange_rate));
      total.d += d;
      total.c += c;
      if (inPeriod) {
        total.pd += d;
        total.pc += c;
      }
    }
  }
  return accounts.map((account) => {
    const t = totals.get(account.number) ?? { d: 0, c: 0, pd: 0, pc: 0 };
    return {
      account_number: account.number,
      account_name: account.name,
      debit: fromCents(t.d),
      credit: fromCents(t.c),
      balance: fromCents(t.d - t.c),
      period_debit: fromCents(t.pd),
      period_credit: fromCents(t.pc),
      period_balance: fromCents(t.pd - t.pc),
    };
  });
}

/** The book year a date falls in, if any. */
export const bookYearOf = (ledger: LedgerRecord, date: string) =>
  ledger.bookyears.find((year) => year.start <= date && date <= year.end);

/** Counter key of the document numbers of a journal in a book year. */
export const documentCounterKey = (journalId: string, bookYearName: string) =>
  `doc:${journalId}:${bookYearName}`;

/**
 * The number the next document of a journal gets in a book year, in the format of the folder's
 * country: CODE/YEAR/0001 in a Belgian folder (see documentNumber).
 */
export function nextDocumentNumber(
  ledger: LedgerRecord,
  journal: LedgerJournal,
  bookYearName: string,
): string {
  const next = (own(ledger.counters, documentCounterKey(journal.id, bookYearName)) ?? 0) + 1;
  return documentNumber(ledger, journal, bookYearName, next);
}
