/**
 * Postings: each `build*` function checks a write against the ledger and returns what it would add
 * (a LedgerChange), without touching the ledger; `applyChange` then adds it. Invoices, payments,
 * journal entries and matchings all go through here, the seed included, so seeded data and data
 * written through the API obey the same rules and derive the same way.
 */

export { buildJournalEntry, type EntryDraft, type EntryItemDraft } from './entry-posting.js';
export { assertBalanced, buildInvoice, defaultInvoiceJournal, type InvoiceDraft } from './invoice-posting.js';
export { buildMatching } from './matching-posting.js';
export { buildInvoicePayment, matchingNumber, type PaymentDraft } from './payment-posting.js';
export {
  applyChange,
  assertNumberFree,
  attachmentOf,
  checkedBuild,
  type LedgerChange,
  lineIdOf,
  mintDocumentNumber,
  mintDocumentNumbers,
  type PostingContext,
  sides,
} from './posting-core.js';
