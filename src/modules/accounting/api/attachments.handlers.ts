import { paginate } from '../../../lib/pagination.js';
import { operation } from '../../../platform/operation.js';
import { writeContext } from '../../../platform/request-context.js';
import { buildInvoiceAttachment } from '../model/ledger/documents.js';
import { applyChange } from '../model/ledger/posting.js';
import { accountingLedger } from './accounting.context.js';
import { attachmentsOf, toAttachmentItem } from './attachments.domain.js';
import * as routes from './attachments.routes.js';
import { requireInvoice } from './invoices.domain.js';

export const getAttachments = operation(
  accountingLedger,
  routes.getAttachments,
  (c, { data: { ledger } }) => {
    const { page, size, type, document_id } = c.req.valid('query');
    return c.json(paginate(attachmentsOf(ledger, type, document_id).map(toAttachmentItem), page, size), 200);
  },
);

export const addAttachment = operation(accountingLedger, routes.addAttachment, (c, { data: { ledger } }) => {
  const ctx = writeContext(c);
  const invoice = requireInvoice(ledger, c.req.valid('param').invoice_id);
  const { base64_string, name } = c.req.valid('json');
  const overwrite = c.req.valid('query').overwrite_existing === 'true';
  const change = buildInvoiceAttachment(ledger, invoice, base64_string, name ?? null, overwrite, ctx);
  applyChange(ledger, change, ctx.now);
  c.set('createdEntityId', change.attachments?.[0]?.id);
  return c.body(null, 204);
});
