import type { RouteHandler } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../context.js';
import { paginate } from '../../lib/pagination.js';
import { requireVerticalConnection } from '../consumers/vertical-connection.js';
import {
  accountingTransactions,
  assertLocation,
  atLocation,
  closureOf,
  listCustomers,
  listInvoices,
  listOrders,
  listPayments,
  pmsDatasetOf,
  requireCustomer,
  toInvoiceItem,
  toOrderItem,
  toPaymentItem,
} from './pms.domain.js';
import type * as routes from './pms.routes.js';

type Handler<R extends keyof typeof routes> = RouteHandler<(typeof routes)[R], AppEnv>;

/** The consumer's PMS connection (requireVerticalConnection) and its dataset, built on first access. */
function openPms(c: Context<AppEnv>, operationId: string) {
  const scope = requireVerticalConnection(c, 'Property Management System', operationId);
  return { ...scope, dataset: pmsDatasetOf(c.var.store, scope.connection) };
}

export const getOrders: Handler<'getOrders'> = (c) => {
  const { dataset } = openPms(c, 'pms_get_orders');
  const { page, size, ...filters } = c.req.valid('query');
  return c.json(
    paginate(
      listOrders(dataset, filters).map((o) => toOrderItem(dataset, o)),
      page,
      size,
    ),
    200,
  );
};

export const getInvoices: Handler<'getInvoices'> = (c) => {
  const { dataset } = openPms(c, 'pms_get_invoices');
  const { page, size, ...filters } = c.req.valid('query');
  return c.json(
    paginate(
      listInvoices(dataset, filters).map((i) => toInvoiceItem(dataset, i)),
      page,
      size,
    ),
    200,
  );
};

export const getCustomers: Handler<'getCustomers'> = (c) => {
  const { dataset } = openPms(c, 'pms_get_customers');
  const { page, size, ...filters } = c.req.valid('query');
  return c.json(paginate(listCustomers(dataset, filters), page, size), 200);
};

export const getCustomer: Handler<'getCustomer'> = (c) => {
  const { dataset } = openPms(c, 'pms_get_customer');
  return c.json(requireCustomer(dataset, c.req.valid('param').customer_id), 200);
};

export const getLocations: Handler<'getLocations'> = (c) => {
  const { dataset } = openPms(c, 'pms_get_locations');
  const { page, size } = c.req.valid('query');
  return c.json(paginate(dataset.locations, page, size), 200);
};

export const getPayments: Handler<'getPayments'> = (c) => {
  const { dataset } = openPms(c, 'pms_get_payments');
  const { page, size, date_from, date_to } = c.req.valid('query');
  const payments = listPayments(dataset, date_from, date_to).map((p) => toPaymentItem(dataset, p));
  return c.json(paginate(payments, page, size), 200);
};

export const getPaymentMethods: Handler<'getPaymentMethods'> = (c) => {
  const { dataset } = openPms(c, 'pms_get_payments_methods');
  const { page, size, location_id } = c.req.valid('query');
  assertLocation(dataset, location_id);
  const methods = atLocation(dataset.payment_methods, location_id).map(
    ({ location_ids: _l, ...wire }) => wire,
  );
  return c.json(paginate(methods, page, size), 200);
};

export const getAccountingCategories: Handler<'getAccountingCategories'> = (c) => {
  const { dataset } = openPms(c, 'pms_get_accounting_categories');
  const { page, size } = c.req.valid('query');
  return c.json(paginate(dataset.accounting_categories, page, size), 200);
};

export const getClosure: Handler<'getClosure'> = (c) => {
  const { dataset } = openPms(c, 'pms_get_closure');
  const today = c.var.clock.now().toISOString().slice(0, 10);
  return c.json(closureOf(dataset, c.req.valid('param').date, today, c.req.valid('query').location_id), 200);
};

export const getTaxes: Handler<'getTaxes'> = (c) => {
  const { dataset } = openPms(c, 'pms_get_taxes');
  const { page, size } = c.req.valid('query');
  return c.json(paginate(dataset.tax_rates, page, size), 200);
};

export const getAccountingTransactions: Handler<'getAccountingTransactions'> = (c) => {
  const { dataset } = openPms(c, 'pms_get_accounting_transactions');
  const { page, size, ...filters } = c.req.valid('query');
  return c.json(paginate(accountingTransactions(dataset, filters), page, size), 200);
};
