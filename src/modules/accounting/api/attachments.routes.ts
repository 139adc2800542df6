import { createRoute } from '@hono/zod-openapi';
import {
  emptyResponse,
  errorResponses,
  jsonBody,
  jsonContent,
  scopesFor,
  secured,
} from '../../../platform/openapi.js';
import { ConsumerIdParam } from './accounting.schemas.js';
import {
  AttachmentItem,
  AttachmentsQuery,
  AttachQuery,
  ServicePage_AttachmentItemOut_,
} from './attachments.schemas.js';
import { InvoiceIdParam } from './invoices.schemas.js';

const base = '/consumers/{consumer_id}/accounting';
const tags = ['Accounting'];
const errors = errorResponses([400, 401, 404, 422]);

export const getAttachments = createRoute({
  method: 'get',
  path: `${base}/attachments`,
  operationId: 'accounting_get_attachments',
  tags,
  summary: 'List the documents attached to an invoice or a journal entry',
  ...secured('consumer', scopesFor('accounting', 'attachments', 'read')),
  request: { params: ConsumerIdParam, query: AttachmentsQuery },
  responses: { 200: jsonContent(ServicePage_AttachmentItemOut_, 'The documents, oldest first'), ...errors },
});

export const addAttachment = createRoute({
  method: 'post',
  path: `${base}/invoices/pdf/{invoice_id}`,
  operationId: 'accounting_add_attachment',
  tags,
  summary: 'Attach a PDF to an invoice',
  ...secured('consumer', scopesFor('accounting', 'attachments', 'write')),
  request: { params: InvoiceIdParam, query: AttachQuery, body: jsonBody(AttachmentItem, 'The PDF') },
  responses: { 204: emptyResponse('The PDF is attached'), ...errors },
});
