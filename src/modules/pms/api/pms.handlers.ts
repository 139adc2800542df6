import { paginate } from '../../../lib/pagination.js';
import { connectionDatasetRef } from '../../../platform/datasets.js';
import { operation, type Vertical } from '../../../platform/operation.js';
import type { PmsDataset } from '../model/pms.records.js';
import {
  accountingTransactions,
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
import * as routes from './pms.routes.js';

/** PMS operations work on the connection's dataset (built in slices first when not in memory). */
const pms: Vertical<PmsDataset> = {
  api: 'Property Management System',
  dataset: (_c, { connection }) => connectionDatasetRef('pms_datasets', connection),
  open: (c, { connection }) => pmsDatasetOf(c.get('store'), connection),
};

export const getOrders = operation(pms, routes.getOrders, (c, { data }) => {
  const { page, size, ...filters } = c.req.valid('query');
  return c.json(
    paginate(
      listOrders(data, filters).map((o) => toOrderItem(data, o)),
      page,
      size,
    ),
    200,
  );
});

export const getInvoices = operation(pms, routes.getInvoices, (c, { data }) => {
  const { page, size, ...filters } = c.req.valid('query');
  return c.json(
    paginate(
      listInvoices(data, filters).map((i) => toInvoiceItem(data, i)),
      page,
      size,
    ),
    200,
  );
});

export const getCustomers = operation(pms, routes.getCustomers, (c, { data }) => {
  const { page, size, ...filters } = c.req.valid('query');
  return c.json(paginate(listCustomers(data, filters), page, size), 200);
});

export const getCustomer = operation(pms, routes.getCustomer, (c, { data }) => {
  return c.json(requireCustomer(data, c.req.valid('param').customer_id), 200);
});

export const getLocations = operation(pms, routes.getLocations, (c, { data }) => {
  const { page, size } = c.req.valid('query');
  return c.json(paginate(data.locations, page, size), 200);
});

export const getPayments = operation(pms, routes.getPayments, (c, { data }) => {
  const { page, size, date_from, date_to } = c.req.valid('query');
  const payments = listPayments(data, date_from, date_to).map((p) => toPaymentItem(data, p));
  return c.json(paginate(payments, page, size), 200);
});

export const getPaymentMethods = operation(pms, routes.getPaymentMethods, (c, { data }) => {
  const { page, size, location_id } = c.req.valid('query');
  const methods = atLocation(data.payment_methods, location_id).map(({ location_ids: _l, ...wire }) => wire);
  return c.json(paginate(methods, page, size), 200);
});

export const getAccountingCategories = operation(pms, routes.getAccountingCategories, (c, { data }) => {
  const { page, size } = c.req.valid('query');
  return c.json(paginate(data.accounting_categories, page, size), 200);
});

export const getClosure = operation(pms, routes.getClosure, (c, { data }) => {
  const today = c.get('clock').now().toISOString().slice(0, 10);
  return c.json(closureOf(data, c.req.valid('param').date, today, c.req.valid('query').location_id), 200);
});

export const getTaxes = operation(pms, routes.getTaxes, (c, { data }) => {
  const { page, size } = c.req.valid('query');
  return c.json(paginate(data.tax_rates, page, size), 200);
});

export const getAccountingTransactions = operation(pms, routes.getAccountingTransactions, (c, { data }) => {
  const { page, size, ...filters } = c.req.valid('query');
  return c.json(paginate(accountingTransactions(data, filters), page, size), 200);
});
