import { paginate } from '../../../lib/pagination.js';
import { operation } from '../../../platform/operation.js';
import { writeContext } from '../../../platform/request-context.js';
import {
  createContact as createContactRecord,
  createInvoice as createInvoiceRecord,
  createPayment as createPaymentRecord,
  createProduct as createProductRecord,
  listBankTransactions,
  listContacts,
  listInvoices,
  listOpportunities,
  listPayments,
  paymentsByInvoice,
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
} from './invoicing.domain.js';
import * as routes from './invoicing.routes.js';
import { invoicing } from './invoicing.vertical.js';

export const getContacts = operation(invoicing, routes.getContacts, (c, { data }) => {
  const q = c.req.valid('query');
  const items = listContacts(data, q.contact_type).map(toContactItem);
  return c.json(paginate(items, q.page, q.size), 200);
});

export const createContact = operation(invoicing, routes.createContact, async (c, { data }) => {
  const contact = createContactRecord(data, c.req.valid('json'), writeContext(c));
  c.set('createdEntityId', contact.id);
  return c.json(toContactItem(contact), 200);
});

export const getContact = operation(invoicing, routes.getContact, (c, { data }) => {
  return c.json(toContactItem(requireContact(data, c.req.valid('param').contact_id)), 200);
});

export const getProducts = operation(invoicing, routes.getProducts, (c, { data }) => {
  const q = c.req.valid('query');
  const items = Object.values(data.products).map((p) => toProductItem(data, p));
  return c.json(paginate(items, q.page, q.size), 200);
});

export const createProduct = operation(invoicing, routes.createProduct, async (c, { data }) => {
  const product = createProductRecord(data, c.req.valid('json'), writeContext(c));
  c.set('createdEntityId', product.id);
  return c.json(toProductItem(data, product), 200);
});

export const getProduct = operation(invoicing, routes.getProduct, (c, { data }) => {
  return c.json(toProductItem(data, requireProduct(data, c.req.valid('param').product_id)), 200);
});

export const getTaxes = operation(invoicing, routes.getTaxes, (c, { data }) => {
  const q = c.req.valid('query');
  return c.json(paginate(Object.values(data.taxes).map(toTaxItem), q.page, q.size), 200);
});

export const getTax = operation(invoicing, routes.getTax, (c, { data }) => {
  return c.json(toTaxItem(requireTax(data, c.req.valid('param').tax_id)), 200);
});

export const getInvoices = operation(invoicing, routes.getInvoices, (c, { data, integration }) => {
  const q = c.req.valid('query');
  const view = {
    // An integration whose software returns lines only on a separate request (a catalogue feature)
    // lists them only when asked; the others always include them.
    lines: q.include_invoice_lines === 'true' || !integration.features.invoice_lines_on_request,
    analytic: q.include_analytic_accounts === 'true',
  };
  const index = paymentsByInvoice(data);
  const page = paginate(listInvoices(data, q, index), q.page, q.size);
  return c.json(
    { ...page, items: page.items.map((invoice) => toInvoiceItem(data, invoice, view, index)) },
    200,
  );
});

export const createInvoice = operation(invoicing, routes.createInvoice, async (c, { data }) => {
  const invoice = createInvoiceRecord(data, c.req.valid('json'), writeContext(c));
  c.set('createdEntityId', invoice.id);
  return c.json(toInvoiceItem(data, invoice, { lines: true, analytic: false }), 200);
});

export const getInvoice = operation(invoicing, routes.getInvoice, (c, { data }) => {
  const q = c.req.valid('query');
  const invoice = requireInvoice(data, c.req.valid('param').invoice_id);
  return c.json(
    toInvoiceSingle(data, invoice, {
      pdf: q.include_pdf === 'true',
      analytic: q.include_analytic_accounts === 'true',
    }),
    200,
  );
});

export const uploadDocument = operation(invoicing, routes.uploadDocument, async (c, { data }) => {
  const document = uploadDocumentRecord(data, c.req.valid('json'), writeContext(c));
  c.set('createdEntityId', document.id);
  return c.json(document, 201);
});

export const getOpportunities = operation(invoicing, routes.getOpportunities, (c, { data }) => {
  const q = c.req.valid('query');
  return c.json(paginate(listOpportunities(data).map(toOpportunityItem), q.page, q.size), 200);
});

export const getOpportunity = operation(invoicing, routes.getOpportunity, (c, { data }) => {
  return c.json(toOpportunityItem(requireOpportunity(data, c.req.valid('param').opportunity_id)), 200);
});

export const getPayments = operation(invoicing, routes.getPayments, (c, { data }) => {
  const q = c.req.valid('query');
  const items = listPayments(data, q).map((p) => toPaymentItem(data, p));
  return c.json(paginate(items, q.page, q.size), 200);
});

export const createPayment = operation(invoicing, routes.createPayment, async (c, { data }) => {
  const payment = createPaymentRecord(data, c.req.valid('json'), writeContext(c));
  c.set('createdEntityId', payment.id);
  return c.json(toPaymentItem(data, payment), 201);
});

export const updatePayment = operation(invoicing, routes.updatePayment, async (c, { data }) => {
  const payment = updatePaymentRecord(
    data,
    c.req.valid('param').payment_id,
    c.req.valid('json'),
    writeContext(c),
  );
  return c.json(toPaymentItem(data, payment), 200);
});

export const getPaymentMethods = operation(invoicing, routes.getPaymentMethods, (c, { data }) => {
  const q = c.req.valid('query');
  return c.json(paginate(Object.values(data.payment_methods).map(toPaymentMethodItem), q.page, q.size), 200);
});

export const getBankAccounts = operation(invoicing, routes.getBankAccounts, (c, { data }) => {
  const q = c.req.valid('query');
  const items = Object.values(data.bank_accounts).map((a) => toBankAccountItem(data, a));
  return c.json(paginate(items, q.page, q.size), 200);
});

export const getBankTransactions = operation(invoicing, routes.getBankTransactions, (c, { data }) => {
  const q = c.req.valid('query');
  return c.json(paginate(listBankTransactions(data, q), q.page, q.size, toBankTransactionItem), 200);
});
