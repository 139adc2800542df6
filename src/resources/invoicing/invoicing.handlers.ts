import type { RouteHandler } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../context.js';
import { paginate } from '../../lib/pagination.js';
import { datasetKey } from '../../store/world.js';
import { requireVerticalConnection } from '../consumers/vertical-connection.js';
import {
  createContact as createContactRecord,
  createInvoice as createInvoiceRecord,
  createPayment as createPaymentRecord,
  createProduct as createProductRecord,
  invoicingDatasetOf,
  listBankTransactions,
  listContacts,
  listInvoices,
  listOpportunities,
  listPayments,
  requireContact,
  requireInvoice,
  requireOpportunity,
  requireProduct,
  requireTax,
  toBankAccountItem,
  toBankTransactionItem,
  toContactItem,
  toInvoiceItem,
  toInvoiceSingle,
  toOpportunityItem,
  toPaymentItem,
  toPaymentMethodItem,
  toProductItem,
  toTaxItem,
  updatePayment as updatePaymentRecord,
  uploadDocument as uploadDocumentRecord,
  type WriteContext,
} from './invoicing.domain.js';
import type * as routes from './invoicing.routes.js';

type Handler<R extends keyof typeof routes> = RouteHandler<(typeof routes)[R], AppEnv>;

/**
 * Integrations whose software returns invoice lines only on a separate request: their invoice lists
 * carry lines when include_invoice_lines=true (the others always include them).
 */
const LINES_ON_REQUEST = new Set([1402]);

/** The connection's dataset, once the consumer, connection and coverage checks have passed. */
function dataset(c: Context<AppEnv>, operationId: string) {
  const scope = requireVerticalConnection(c, 'Invoicing', operationId);
  const data = invoicingDatasetOf(
    c.var.store,
    scope.consumer.consumerid,
    scope.connection.connectionid,
    scope.integration.integrationid,
  );
  return { ...scope, data, key: datasetKey(scope.consumer.consumerid, scope.connection.connectionid) };
}

const writeContext = (c: Context<AppEnv>): WriteContext => ({
  mint: (kind) => c.var.ids.next(kind),
  now: c.var.clock.now().toISOString(),
});

export const getContacts: Handler<'getContacts'> = (c) => {
  const { data } = dataset(c, 'invoicing_get_contacts');
  const q = c.req.valid('query');
  const items = listContacts(data, q.contact_type).map(toContactItem);
  return c.json(paginate(items, q.page, q.size), 200);
};

export const createContact: Handler<'createContact'> = async (c) => {
  const { data } = dataset(c, 'invoicing_post_contacts');
  const contact = createContactRecord(data, c.req.valid('json'), writeContext(c));
  c.set('createdEntityId', contact.id);
  return c.json(toContactItem(contact), 200);
};

export const getContact: Handler<'getContact'> = (c) => {
  const { data } = dataset(c, 'invoicing_get_contact');
  return c.json(toContactItem(requireContact(data, c.req.valid('param').contact_id)), 200);
};

export const getProducts: Handler<'getProducts'> = (c) => {
  const { data } = dataset(c, 'invoicing_get_products');
  const q = c.req.valid('query');
  const items = Object.values(data.products).map((p) => toProductItem(data, p));
  return c.json(paginate(items, q.page, q.size), 200);
};

export const createProduct: Handler<'createProduct'> = async (c) => {
  const { data } = dataset(c, 'invoicing_post_products');
  const product = createProductRecord(data, c.req.valid('json'), writeContext(c));
  c.set('createdEntityId', product.id);
  return c.json(toProductItem(data, product), 200);
};

export const getProduct: Handler<'getProduct'> = (c) => {
  const { data } = dataset(c, 'invoicing_get_product');
  return c.json(toProductItem(data, requireProduct(data, c.req.valid('param').product_id)), 200);
};

export const getTaxes: Handler<'getTaxes'> = (c) => {
  const { data } = dataset(c, 'invoicing_get_taxes');
  const q = c.req.valid('query');
  return c.json(paginate(Object.values(data.taxes).map(toTaxItem), q.page, q.size), 200);
};

export const getTax: Handler<'getTax'> = (c) => {
  const { data } = dataset(c, 'invoicing_get_tax');
  return c.json(toTaxItem(requireTax(data, c.req.valid('param').tax_id)), 200);
};

export const getInvoices: Handler<'getInvoices'> = (c) => {
  const { data, integration } = dataset(c, 'invoicing_get_invoices');
  const q = c.req.valid('query');
  const view = {
    lines: q.include_invoice_lines === 'true' || !LINES_ON_REQUEST.has(integration.integrationid),
    analytic: q.include_analytic_accounts === 'true',
  };
  const items = listInvoices(data, q).map((invoice) => toInvoiceItem(data, invoice, view));
  return c.json(paginate(items, q.page, q.size), 200);
};

export const createInvoice: Handler<'createInvoice'> = async (c) => {
  const { data } = dataset(c, 'invoicing_post_invoices');
  const invoice = createInvoiceRecord(data, c.req.valid('json'), writeContext(c));
  c.set('createdEntityId', invoice.id);
  return c.json(toInvoiceItem(data, invoice, { lines: true, analytic: false }), 200);
};

export const getInvoice: Handler<'getInvoice'> = (c) => {
  const { data } = dataset(c, 'invoicing_get_invoice');
  const q = c.req.valid('query');
  const invoice = requireInvoice(data, c.req.valid('param').invoice_id);
  return c.json(
    toInvoiceSingle(data, invoice, {
      pdf: q.include_pdf === 'true',
      analytic: q.include_analytic_accounts === 'true',
    }),
    200,
  );
};

export const uploadDocument: Handler<'uploadDocument'> = async (c) => {
  const { data } = dataset(c, 'invoicing_upload_document');
  const document = uploadDocumentRecord(data, c.req.valid('json'), writeContext(c));
  c.set('createdEntityId', document.id);
  return c.json(document, 201);
};

export const getOpportunities: Handler<'getOpportunities'> = (c) => {
  const { data } = dataset(c, 'invoicing_get_opportunities');
  const q = c.req.valid('query');
  return c.json(paginate(listOpportunities(data).map(toOpportunityItem), q.page, q.size), 200);
};

export const getOpportunity: Handler<'getOpportunity'> = (c) => {
  const { data } = dataset(c, 'invoicing_get_opportunity');
  return c.json(toOpportunityItem(requireOpportunity(data, c.req.valid('param').opportunity_id)), 200);
};

export const getPayments: Handler<'getPayments'> = (c) => {
  const { data } = dataset(c, 'invoicing_get_payments');
  const q = c.req.valid('query');
  const items = listPayments(data, q).map((p) => toPaymentItem(data, p));
  return c.json(paginate(items, q.page, q.size), 200);
};

export const createPayment: Handler<'createPayment'> = async (c) => {
  const { data } = dataset(c, 'invoicing_create_payment');
  const payment = createPaymentRecord(data, c.req.valid('json'), writeContext(c));
  c.set('createdEntityId', payment.id);
  return c.json(toPaymentItem(data, payment), 201);
};

export const updatePayment: Handler<'updatePayment'> = async (c) => {
  const { data } = dataset(c, 'invoicing_update_payment');
  const payment = updatePaymentRecord(
    data,
    c.req.valid('param').payment_id,
    c.req.valid('json'),
    writeContext(c),
  );
  return c.json(toPaymentItem(data, payment), 200);
};

export const getPaymentMethods: Handler<'getPaymentMethods'> = (c) => {
  const { data } = dataset(c, 'invoicing_get_payments_methods');
  const q = c.req.valid('query');
  return c.json(paginate(Object.values(data.payment_methods).map(toPaymentMethodItem), q.page, q.size), 200);
};

export const getBankAccounts: Handler<'getBankAccounts'> = (c) => {
  const { data } = dataset(c, 'invoicing_get_bank_accounts');
  const q = c.req.valid('query');
  const items = Object.values(data.bank_accounts).map((a) => toBankAccountItem(data, a));
  return c.json(paginate(items, q.page, q.size), 200);
};

export const getBankTransactions: Handler<'getBankTransactions'> = (c) => {
  const { data } = dataset(c, 'invoicing_get_bank_transactions');
  const q = c.req.valid('query');
  return c.json(paginate(listBankTransactions(data, q).map(toBankTransactionItem), q.page, q.size), 200);
};
