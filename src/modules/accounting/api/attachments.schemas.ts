import { z } from '@hono/zod-openapi';
import { pageQuery } from '../../../lib/pagination.js';
import { itemOrNull } from '../../../platform/openapi.js';
import { AttachmentItemOut, ServicePage_AttachmentItemOut_ } from '../../../platform/wire.js';
import { DocumentType } from '../model/accounting.values.js';
import { BoolParam, folderIdParam, pdfNameField } from './accounting.schemas.js';

// Shapes other verticals share too (platform/wire.ts), re-exported for this module's files.
export { AttachmentItemOut, ServicePage_AttachmentItemOut_ };

/** Documents (PDFs) attached to invoices and journal entries. */

export const AttachmentItem = z
  .object({
    base64_string: z.string().openapi({ description: 'The PDF, base64-encoded' }),
    name: pdfNameField(),
  })
  .openapi('AttachmentItem', { description: 'A PDF to attach' });

export const AttachmentsQuery = pageQuery({
  folder_id: folderIdParam,
  type: DocumentType.openapi({ param: { name: 'type', in: 'query', required: true } }),
  document_id: z.string().openapi({
    param: { name: 'document_id', in: 'query', required: true },
    description: 'Id of the invoice or journal entry',
  }),
});

export const AttachQuery = z.object({
  folder_id: folderIdParam,
  overwrite_existing: itemOrNull(BoolParam)
    .optional()
    .openapi({
      param: { name: 'overwrite_existing', in: 'query' },
      description: 'Replace the document the invoice already has (default false)',
    }),
});
