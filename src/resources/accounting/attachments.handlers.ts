import type { RouteHandler } from '@hono/zod-openapi';
import type { AppEnv } from '../../context.js';
import { paginate } from '../../lib/pagination.js';
import { postingContext, requireAccounting } from './accounting.context.js';
import { attachmentsOf, toAttachmentItem } from './attachments.domain.js';
import type * as routes from './attachments.routes.js';
import { requireInvoice } from './invoices.domain.js';
import { buildInvoiceAttachment } from './ledger/documents.js';
import { applyChange } from './ledger/posting.js';

type Handler<R extends keyof typeof routes> = RouteHandler<(typeof routes)[R], AppEnv>;

export const getAttachments: Handler<'getAttachments'> = (c) => {
  const { ledger } = requireAccounting(c, 'accounting_get_attachments');
  const { page, size, type, document_id } = c.req.valid('query');
  return c.json(paginate(attachmentsOf(ledger, type, document_id).map(toAttachmentItem), page, size), 200);
};

export const addAttachment: Handler<'addAttachment'> = async (c) => {
  const { ledger } = requireAccounting(c, 'accounting_add_attachment');
  const ctx = postingContext(c);
  const invoice = requireInvoice(ledger, c.req.valid('param').invoice_id);
  const { base64_string, name } = c.req.valid('json');
  const overwrite = c.req.valid('query').overwrite_existing === 'true';
  const change = buildInvoiceAttachment(ledger, invoice, base64_string, name ?? null, overwrite, ctx);
  applyChange(ledger, change, ctx.now);
  c.set('createdEntityId', change.attachments?.[0]?.id);
  return c.body(null, 204);
};
