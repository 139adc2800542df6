import type { LedgerAttachment, LedgerRecord } from '../model/accounting.records.js';
import { requireEntry } from './entries.domain.js';
import { requireInvoice } from './invoices.domain.js';

/**
 * The documents of an invoice, or of a journal entry: an entry shows its own and those of the
 * invoice it was posted for (as attachments_info of GET journal entries does). Oldest first; an
 * unknown invoice or entry answers 404.
 */
export function attachmentsOf(
  ledger: LedgerRecord,
  type: 'invoice' | 'entry',
  documentId: string,
): LedgerAttachment[] {
  let wanted: (a: LedgerAttachment) => boolean;
  if (type === 'invoice') {
    const invoice = requireInvoice(ledger, documentId);
    wanted = (a) => a.document_type === 'invoice' && a.document_id === invoice.id;
  } else {
    const entry = requireEntry(ledger, documentId);
    wanted = (a) =>
      (a.document_type === 'entry' && a.document_id === entry.id) ||
      (a.document_type === 'invoice' && a.document_id === entry.invoice_id);
  }
  return Object.values(ledger.attachments)
    .filter(wanted)
    .sort((a, b) => a.created_on.localeCompare(b.created_on) || a.id.localeCompare(b.id));
}

export const toAttachmentItem = (attachment: LedgerAttachment) => ({
  id: attachment.id,
  base64_string: attachment.base64_string,
});
