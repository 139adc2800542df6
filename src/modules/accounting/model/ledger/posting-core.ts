import { errors, type ServiceErrorName, serviceError } from '../../../../lib/errors.js';
import { uuidFrom } from '../../../../lib/ids.js';
import { own } from '../../../../lib/own.js';
import { documentNumber } from '../accounting.profiles.js';
import type {
  LedgerAccount,
  LedgerAnalyticAccount,
  LedgerAttachment,
  LedgerBankStatement,
  LedgerEntry,
  LedgerInvoice,
  LedgerJournal,
  LedgerMatching,
  LedgerPartner,
  LedgerRecord,
} from '../accounting.records.js';
import { documentCounterKey } from './derived.js';
import { fromCents } from './money.js';

/** What every posting shares: its context, the change it returns and how it applies, numbers, attachments. */

const fail = errors.accountingFailure;

export interface PostingContext {
  /** Mints the id of a new record (c.get('ids') in a request, a seeded id source in the seed). */
  mint(kind: string): string;
  /** ISO timestamp of the write. */
  now: string;
}

export interface LedgerChange {
  invoices?: LedgerInvoice[];
  entries?: LedgerEntry[];
  matchings?: LedgerMatching[];
  attachments?: LedgerAttachment[];
  accounts?: LedgerAccount[];
  partners?: LedgerPartner[];
  journals?: LedgerJournal[];
  analytic_accounts?: LedgerAnalyticAccount[];
  bank_statements?: LedgerBankStatement[];
  /** Ids of attachments that the change replaces. */
  removed_attachments?: string[];
  /** New values of counters. */
  counters?: Record<string, number>;
}

/**
 * Adds a checked change to the ledger. A matching changes the entries it settles (their matching
 * numbers) and the invoices of those entries (their payments and status): their last_updated_on
 * moves to `now`, so that updated_after finds them.
 */
export function applyChange(ledger: LedgerRecord, change: LedgerChange, now: string): void {
  for (const account of change.accounts ?? []) ledger.accounts[account.number] = account;
  for (const journal of change.journals ?? []) ledger.journals[journal.id] = journal;
  for (const partner of change.partners ?? []) ledger.partners[partner.id] = partner;
  for (const entry of change.entries ?? []) ledger.entries[entry.id] = entry;
  for (const invoice of change.invoices ?? []) ledger.invoices[invoice.id] = invoice;
  for (const id of change.removed_attachments ?? []) delete ledger.attachments[id];
  for (const attachment of change.attachments ?? []) ledger.attachments[attachment.id] = attachment;
  for (const account of change.analytic_accounts ?? []) ledger.analytic_accounts[account.id] = account;
  for (const statement of change.bank_statements ?? []) {
    ledger.bank_statements ??= {};
    ledger.bank_statements[statement.id] = statement;
  }
  for (const matching of change.matchings ?? []) ledger.matchings[matching.number] = matching;
  Object.assign(ledger.counters, change.counters ?? {});
  const touched = new Set((change.matchings ?? []).flatMap((m) => m.allocations.map((a) => a.entry_id)));
  for (const id of touched) {
    const entry = own(ledger.entries, id);
    if (!entry) continue;
    entry.last_updated_on = now;
    const invoice = entry.invoice_id ? own(ledger.invoices, entry.invoice_id) : undefined;
    if (invoice) invoice.last_updated_on = now;
  }
}

/**
 * Runs a build that could be refused after it minted an id (one that books several entries, or checks
 * more after buildJournalEntry) twice: first with ids that are not minted, so that a refusal anywhere
 * leaves the id counter (kept in the world) untouched, then for real.
 */
export function checkedBuild<T>(ctx: PostingContext, build: (ctx: PostingContext) => T): T {
  let n = 0;
  build({ now: ctx.now, mint: (kind) => uuidFrom('dry-run', kind, ++n) });
  return build(ctx);
}

/** The next `count` free numbers of a journal in a book year, and the counter to store. */
export function mintDocumentNumbers(
  ledger: LedgerRecord,
  journal: LedgerJournal,
  bookYearName: string,
  count: number,
): { numbers: string[]; counters: Record<string, number> } {
  const numbers: string[] = [];
  let counters: Record<string, number> = {};
  for (let i = 0; i < count; i++) {
    const view = { ...ledger, counters: { ...ledger.counters, ...counters } };
    const next = mintDocumentNumber(view, journal, bookYearName);
    numbers.push(next.number);
    counters = next.counters;
  }
  return { numbers, counters };
}

/** Line ids derive from their entry's id, so an entry needs one minted id only. */
export const lineIdOf = (entryId: string, index: number) => uuidFrom('entry-line', entryId, index);

/** Turns signed cents (debit positive) into a debit/credit pair. */
export function sides(cents: number): { debit: number; credit: number } {
  return cents >= 0 ? { debit: fromCents(cents), credit: 0 } : { debit: 0, credit: fromCents(-cents) };
}

/** Numbers taken in a journal (entry numbers are unique per journal). */
function numbersOf(ledger: LedgerRecord, journalId: string): Set<string> {
  const out = new Set<string>();
  for (const entry of Object.values(ledger.entries))
    if (entry.journal_id === journalId) out.add(entry.number);
  return out;
}

/**
 * The next free number of a journal in a book year (CODE/YEAR/0001 in a Belgian folder, see
 * documentNumber), and the counter to store.
 */
export function mintDocumentNumber(
  ledger: LedgerRecord,
  journal: LedgerJournal,
  bookYearName: string,
): { number: string; counters: Record<string, number> } {
  const key = documentCounterKey(journal.id, bookYearName);
  const taken = numbersOf(ledger, journal.id);
  let next = own(ledger.counters, key) ?? 0;
  let number: string;
  do {
    next += 1;
    number = documentNumber(ledger, journal, bookYearName, next);
  } while (taken.has(number));
  return { number, counters: { [key]: next } };
}

/** A number given by the caller is free in its journal (an invoice's: ERROR_INVOICE_NUMBER_ALREADY_USED). */
export function assertNumberFree(
  ledger: LedgerRecord,
  journal: LedgerJournal,
  number: string,
  taken?: Extract<ServiceErrorName, 'invoiceNumberAlreadyUsed'>,
): void {
  if (numbersOf(ledger, journal.id).has(number)) {
    const detail = `The number '${number}' is already used in the journal '${journal.code}'`;
    throw taken ? serviceError(taken, detail) : fail(detail);
  }
}

export function attachmentOf(
  ctx: PostingContext,
  documentType: LedgerAttachment['document_type'],
  documentId: string,
  pdf: string | null | undefined,
  name: string,
): LedgerAttachment[] {
  if (!pdf) return [];
  const filename = name.toLowerCase().endsWith('.pdf') ? name : `${name}.pdf`;
  return [
    {
      id: ctx.mint('accounting-attachment'),
      document_type: documentType,
      document_id: documentId,
      filename,
      base64_string: pdf.replace(/\s+/g, ''),
      created_on: ctx.now,
    },
  ];
}
