import { z } from '@hono/zod-openapi';
import { pageQuery, servicePage } from '../../lib/pagination.js';
import { itemOrNull } from '../../platform/openapi.js';
import { BoolParam, folderIdParam, pdfNameField } from './accounting.schemas.js';

/** Documents (PDFs) attached to invoices and journal entries. */

export const DocumentType = z
  .enum(['invoice', 'entry'])
  .openapi('DocumentType', { description: 'The kind of record a document is attached to' });

export const AttachmentItem = z
  .object({
    base64_string: z.string().openapi({ description: 'The PDF, base64-encoded' }),
    name: pdfNameField(),
  })
  .openapi('AttachmentItem', { description: 'A PDF to attach' });

export const AttachmentItemOut = z
  .object({
    id: z.string(),
    base64_string: z.string().openapi({ description: 'The PDF, base64-encoded' }),
  })
  .openapi('AttachmentItemOut', { description: 'An attached PDF' });

export const ServicePage_AttachmentItemOut_ = servicePage(AttachmentItemOut, 'AttachmentItemOut');

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
