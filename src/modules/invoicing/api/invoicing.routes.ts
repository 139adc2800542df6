import { createRoute } from '@hono/zod-openapi';
import { errorResponses, jsonBody, jsonContent, scopesFor, secured } from '../../../platform/openapi.js';
import {
  AttachmentItemIn,
  BankTransactionsQuery,
  ConsumerIdParam,
  ContactIdParam,
  ContactItemIn,
  ContactItemOut,
  ContactsQuery,
  InvoiceIdParam,
  InvoiceItemIn,
  InvoiceItemOut,
  InvoiceItemOutSingle,
  InvoiceQuery,
  InvoicesQuery,
  InvoicingPaymentItem,
  InvoicingPaymentItemIn,
  InvoicingPaymentItemUpdate,
  InvoicingVatCode,
  OpportunityIdParam,
  OpportunityItem,
  PageOnlyQuery,
  PaymentIdParam,
  PaymentsQuery,
  ProductIdParam,
  ProductItem,
  ProductItemOut,
  ServicePage_ContactItemOut_,
  ServicePage_InvoiceItemOut_,
  ServicePage_InvoicingBankAccountItem_,
  ServicePage_InvoicingBankTransactionItem_,
  ServicePage_InvoicingPaymentItem_,
  ServicePage_InvoicingPaymentMethodItem_,
  ServicePage_InvoicingVatCode_,
  ServicePage_OpportunityItem_,
  ServicePage_ProductItemOut_,
  TaxIdParam,
  UploadDocumentItemOut,
} from './invoicing.schemas.js';

/**
 * Routes of the Invoicing vertical under /consumers/{consumer_id}/invoicing. MCP scopes as the
 * reference lists them (see scopesFor); uploading a document has those of the vertical alone.
 */

const base = '/consumers/{consumer_id}/invoicing';
const errors = errorResponses([400, 401, 404, 422]);
const TAG = 'Invoicing';

export const getContacts = createRoute({
  method: 'get',
  path: `${base}/contacts`,
  operationId: 'invoicing_get_contacts',
  tags: [TAG, 'Contacts'],
  summary: 'List the contacts',
  ...secured('consumer', scopesFor('invoicing', 'contacts', 'read')),
  request: { params: ConsumerIdParam, query: ContactsQuery },
  responses: { 200: jsonContent(ServicePage_ContactItemOut_, 'The contacts, oldest first'), ...errors },
});

export const createContact = createRoute({
  method: 'post',
  path: `${base}/contacts`,
  operationId: 'invoicing_post_contacts',
  tags: [TAG, 'Contacts'],
  summary: 'Create a contact',
  ...secured('consumer', scopesFor('invoicing', 'contacts', 'write')),
  request: { params: ConsumerIdParam, body: jsonBody(ContactItemIn, 'The new contact') },
  responses: { 200: jsonContent(ContactItemOut, 'The created contact'), ...errors },
});

export const getContact = createRoute({
  method: 'get',
  path: `${base}/contacts/{contact_id}`,
  operationId: 'invoicing_get_contact',
  tags: [TAG, 'Contacts'],
  summary: 'Get one contact',
  ...secured('consumer', scopesFor('invoicing', 'contacts', 'read')),
  request: { params: ContactIdParam },
  responses: { 200: jsonContent(ContactItemOut, 'The contact'), ...errors },
});

export const getProducts = createRoute({
  method: 'get',
  path: `${base}/products`,
  operationId: 'invoicing_get_products',
  tags: [TAG, 'Products'],
  summary: 'List the products',
  ...secured('consumer', scopesFor('invoicing', 'products', 'read')),
  request: { params: ConsumerIdParam, query: PageOnlyQuery },
  responses: { 200: jsonContent(ServicePage_ProductItemOut_, 'The products, oldest first'), ...errors },
});

export const createProduct = createRoute({
  method: 'post',
  path: `${base}/products`,
  operationId: 'invoicing_post_products',
  tags: [TAG, 'Products'],
  summary: 'Create a product',
  ...secured('consumer', scopesFor('invoicing', 'products', 'write')),
  request: { params: ConsumerIdParam, body: jsonBody(ProductItem, 'The new product') },
  responses: { 200: jsonContent(ProductItemOut, 'The created product'), ...errors },
});

export const getProduct = createRoute({
  method: 'get',
  path: `${base}/products/{product_id}`,
  operationId: 'invoicing_get_product',
  tags: [TAG, 'Products'],
  summary: 'Get one product',
  ...secured('consumer', scopesFor('invoicing', 'products', 'read')),
  request: { params: ProductIdParam },
  responses: { 200: jsonContent(ProductItemOut, 'The product'), ...errors },
});

export const getTaxes = createRoute({
  method: 'get',
  path: `${base}/taxes`,
  operationId: 'invoicing_get_taxes',
  tags: [TAG, 'Taxes'],
  summary: 'List the taxes',
  ...secured('consumer', scopesFor('invoicing', 'taxes', 'read')),
  request: { params: ConsumerIdParam, query: PageOnlyQuery },
  responses: { 200: jsonContent(ServicePage_InvoicingVatCode_, 'The taxes'), ...errors },
});

export const getTax = createRoute({
  method: 'get',
  path: `${base}/taxes/{tax_id}`,
  operationId: 'invoicing_get_tax',
  tags: [TAG, 'Taxes'],
  summary: 'Get one tax',
  ...secured('consumer', scopesFor('invoicing', 'taxes', 'read')),
  request: { params: TaxIdParam },
  responses: { 200: jsonContent(InvoicingVatCode, 'The tax'), ...errors },
});

export const getInvoices = createRoute({
  method: 'get',
  path: `${base}/invoices`,
  operationId: 'invoicing_get_invoices',
  tags: [TAG, 'Invoices'],
  summary: 'List the invoices and credit notes',
  ...secured('consumer', scopesFor('invoicing', 'invoices', 'read')),
  request: { params: ConsumerIdParam, query: InvoicesQuery },
  responses: { 200: jsonContent(ServicePage_InvoiceItemOut_, 'The invoices, newest first'), ...errors },
});

export const createInvoice = createRoute({
  method: 'post',
  path: `${base}/invoices`,
  operationId: 'invoicing_post_invoices',
  tags: [TAG, 'Invoices'],
  summary: 'Create an invoice or credit note',
  ...secured('consumer', scopesFor('invoicing', 'invoices', 'write')),
  request: { params: ConsumerIdParam, body: jsonBody(InvoiceItemIn, 'The new invoice') },
  responses: { 200: jsonContent(InvoiceItemOut, 'The created invoice'), ...errors },
});

export const getInvoice = createRoute({
  method: 'get',
  path: `${base}/invoices/{invoice_id}`,
  operationId: 'invoicing_get_invoice',
  tags: [TAG, 'Invoices'],
  summary: 'Get one invoice',
  ...secured('consumer', scopesFor('invoicing', 'invoices', 'read')),
  request: { params: InvoiceIdParam, query: InvoiceQuery },
  responses: { 200: jsonContent(InvoiceItemOutSingle, 'The invoice'), ...errors },
});

export const uploadDocument = createRoute({
  method: 'post',
  path: `${base}/upload-document`,
  operationId: 'invoicing_upload_document',
  tags: [TAG],
  summary: 'Hand a PDF to the software',
  ...secured('consumer', scopesFor('invoicing', null, 'write')),
  request: { params: ConsumerIdParam, body: jsonBody(AttachmentItemIn, 'The PDF and what it is') },
  responses: { 201: jsonContent(UploadDocumentItemOut, 'The document received'), ...errors },
});

export const getOpportunities = createRoute({
  method: 'get',
  path: `${base}/opportunities`,
  operationId: 'invoicing_get_opportunities',
  tags: [TAG, 'Opportunities'],
  summary: 'List the sales opportunities',
  ...secured('consumer', scopesFor('invoicing', 'opportunities', 'read')),
  request: { params: ConsumerIdParam, query: PageOnlyQuery },
  responses: { 200: jsonContent(ServicePage_OpportunityItem_, 'The opportunities, newest first'), ...errors },
});

export const getOpportunity = createRoute({
  method: 'get',
  path: `${base}/opportunities/{opportunity_id}`,
  operationId: 'invoicing_get_opportunity',
  tags: [TAG, 'Opportunities'],
  summary: 'Get one sales opportunity',
  ...secured('consumer', scopesFor('invoicing', 'opportunities', 'read')),
  request: { params: OpportunityIdParam },
  responses: { 200: jsonContent(OpportunityItem, 'The opportunity'), ...errors },
});

export const getPayments = createRoute({
  method: 'get',
  path: `${base}/payments`,
  operationId: 'invoicing_get_payments',
  tags: [TAG, 'Payments'],
  summary: 'List the payments of invoices',
  ...secured('consumer', scopesFor('invoicing', 'payments', 'read')),
  request: { params: ConsumerIdParam, query: PaymentsQuery },
  responses: { 200: jsonContent(ServicePage_InvoicingPaymentItem_, 'The payments, newest first'), ...errors },
});

export const createPayment = createRoute({
  method: 'post',
  path: `${base}/payments`,
  operationId: 'invoicing_create_payment',
  tags: [TAG, 'Payments'],
  summary: 'Register a payment of an invoice',
  ...secured('consumer', scopesFor('invoicing', 'payments', 'write')),
  request: { params: ConsumerIdParam, body: jsonBody(InvoicingPaymentItemIn, 'The payment') },
  responses: { 201: jsonContent(InvoicingPaymentItem, 'The registered payment'), ...errors },
});

export const updatePayment = createRoute({
  method: 'patch',
  path: `${base}/payments/{payment_id}`,
  operationId: 'invoicing_update_payment',
  tags: [TAG, 'Payments'],
  summary: 'Change a payment',
  ...secured('consumer', scopesFor('invoicing', 'payments', 'write')),
  request: { params: PaymentIdParam, body: jsonBody(InvoicingPaymentItemUpdate, 'The fields to change') },
  responses: { 200: jsonContent(InvoicingPaymentItem, 'The changed payment'), ...errors },
});

export const getPaymentMethods = createRoute({
  method: 'get',
  path: `${base}/payment-methods`,
  operationId: 'invoicing_get_payments_methods',
  tags: [TAG, 'Payment methods'],
  summary: 'List the payment methods',
  ...secured('consumer', scopesFor('invoicing', 'payment_methods', 'read')),
  request: { params: ConsumerIdParam, query: PageOnlyQuery },
  responses: { 200: jsonContent(ServicePage_InvoicingPaymentMethodItem_, 'The payment methods'), ...errors },
});

export const getBankAccounts = createRoute({
  method: 'get',
  path: `${base}/bank-accounts`,
  operationId: 'invoicing_get_bank_accounts',
  tags: [TAG, 'Bank accounts'],
  summary: 'List the bank accounts',
  ...secured('consumer', scopesFor('invoicing', 'bank_accounts', 'read')),
  request: { params: ConsumerIdParam, query: PageOnlyQuery },
  responses: { 200: jsonContent(ServicePage_InvoicingBankAccountItem_, 'The bank accounts'), ...errors },
});

export const getBankTransactions = createRoute({
  method: 'get',
  path: `${base}/bank-transactions`,
  operationId: 'invoicing_get_bank_transactions',
  tags: [TAG, 'Bank transactions'],
  summary: 'List the statement lines of a bank account',
  ...secured('consumer', scopesFor('invoicing', 'bank_transactions', 'read')),
  request: { params: ConsumerIdParam, query: BankTransactionsQuery },
  responses: {
    200: jsonContent(ServicePage_InvoicingBankTransactionItem_, 'The statement lines, newest first'),
    ...errors,
  },
});
