import { createRoute } from '@hono/zod-openapi';
import {
  emptyResponse,
  errorResponses,
  jsonBody,
  jsonContent,
  scopesFor,
  secured,
} from '../../../platform/openapi.js';
import { ConsumerIdParam, FolderQuery } from './accounting.schemas.js';
import {
  AccountingInvoicePaymentIn,
  InvoiceCreateQuery,
  InvoiceIdParam,
  InvoiceItemInMonoAnalyticPlan,
  InvoiceItemInMultiAnalyticPlans,
  InvoiceItemOutMonoAnalyticPlan,
  InvoiceItemOutMultiAnalyticPlans,
  InvoiceQuery,
  InvoicesQuery,
  InvoiceTypeParam,
  PaymentsPageQuery,
  ServicePage_InvoiceItemOutMonoAnalyticPlan_,
  ServicePage_InvoiceItemOutMultiAnalyticPlans_,
  ServicePage_Payment_,
} from './invoices.schemas.js';

const base = '/consumers/{consumer_id}/accounting';
const tags = ['Accounting'];
const errors = errorResponses([400, 401, 404, 422]);
/** Booking an invoice may also answer 409 (ERROR_INVOICE_NUMBER_ALREADY_USED). */
const invoiceWriteErrors = errorResponses([400, 401, 404, 409, 422]);

export const createInvoice = createRoute({
  method: 'post',
  path: `${base}/invoices`,
  operationId: 'accounting_create_invoice',
  tags,
  summary: 'Book a sale or purchase invoice (one analytic account per line)',
  ...secured('consumer', scopesFor('accounting', 'invoices', 'write')),
  request: {
    params: ConsumerIdParam,
    query: InvoiceCreateQuery,
    body: jsonBody(InvoiceItemInMonoAnalyticPlan, 'The invoice'),
  },
  responses: {
    200: jsonContent(InvoiceItemOutMonoAnalyticPlan, 'The booked invoice'),
    ...invoiceWriteErrors,
  },
});

export const createInvoiceMultiplePlans = createRoute({
  method: 'post',
  path: `${base}/invoices/multi-analytic-plans`,
  operationId: 'accounting_create_invoice_multiple_plans',
  tags,
  summary: 'Book a sale or purchase invoice (analytic distributions over several plans)',
  ...secured('consumer', scopesFor('accounting', 'invoices', 'write')),
  request: {
    params: ConsumerIdParam,
    query: InvoiceCreateQuery,
    body: jsonBody(InvoiceItemInMultiAnalyticPlans, 'The invoice'),
  },
  responses: {
    200: jsonContent(InvoiceItemOutMultiAnalyticPlans, 'The booked invoice'),
    ...invoiceWriteErrors,
  },
});

export const getInvoicesByType = createRoute({
  method: 'get',
  path: `${base}/invoices/type/{invoice_type}`,
  operationId: 'accounting_get_invoices_by_type',
  tags,
  summary: 'List the invoices of a type',
  ...secured('consumer', scopesFor('accounting', 'invoices', 'read')),
  request: { params: InvoiceTypeParam, query: InvoicesQuery },
  responses: {
    200: jsonContent(ServicePage_InvoiceItemOutMonoAnalyticPlan_, 'The invoices, oldest first'),
    ...errors,
  },
});

export const getInvoicesByTypeMultiPlans = createRoute({
  method: 'get',
  path: `${base}/invoices/multi-analytic-plans/type/{invoice_type}`,
  operationId: 'accounting_get_invoices_by_type_multi_analytic_plans',
  tags,
  summary: 'List the invoices of a type, with analytic distributions',
  ...secured('consumer', scopesFor('accounting', 'invoices', 'read')),
  request: { params: InvoiceTypeParam, query: InvoicesQuery },
  responses: {
    200: jsonContent(ServicePage_InvoiceItemOutMultiAnalyticPlans_, 'The invoices, oldest first'),
    ...errors,
  },
});

export const getInvoice = createRoute({
  method: 'get',
  path: `${base}/invoices/{invoice_id}`,
  operationId: 'accounting_get_invoice',
  tags,
  summary: 'Get one invoice',
  ...secured('consumer', scopesFor('accounting', 'invoices', 'read')),
  request: { params: InvoiceIdParam, query: InvoiceQuery },
  responses: { 200: jsonContent(InvoiceItemOutMonoAnalyticPlan, 'The invoice'), ...errors },
});

export const getInvoiceMultiPlans = createRoute({
  method: 'get',
  path: `${base}/invoices/multi-analytic-plans/{invoice_id}`,
  operationId: 'accounting_get_invoice_multi_analytic_plans',
  tags,
  summary: 'Get one invoice, with analytic distributions',
  ...secured('consumer', scopesFor('accounting', 'invoices', 'read')),
  request: { params: InvoiceIdParam, query: InvoiceQuery },
  responses: { 200: jsonContent(InvoiceItemOutMultiAnalyticPlans, 'The invoice'), ...errors },
});

export const createInvoicePayment = createRoute({
  method: 'post',
  path: `${base}/invoices/payments`,
  operationId: 'accounting_create_invoice_payment',
  tags,
  summary: 'Record a payment of one or more invoices',
  ...secured('consumer', scopesFor('accounting', 'invoices', 'write')),
  request: {
    params: ConsumerIdParam,
    query: FolderQuery,
    body: jsonBody(AccountingInvoicePaymentIn, 'The payment and its split over invoices'),
  },
  responses: { 204: emptyResponse('The payment was booked and matched'), ...errors },
});

export const getPaymentsByInvoice = createRoute({
  method: 'get',
  path: `${base}/invoices/id/{invoice_id}/payments`,
  operationId: 'accounting_get_payments_by_invoice',
  tags,
  summary: 'List the payments of an invoice',
  deprecated: true,
  ...secured('consumer', scopesFor('accounting', 'invoices', 'read')),
  request: { params: InvoiceIdParam, query: PaymentsPageQuery },
  responses: { 200: jsonContent(ServicePage_Payment_, 'The payments, oldest first'), ...errors },
});
