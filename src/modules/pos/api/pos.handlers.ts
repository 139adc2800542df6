import { paginate } from '../../../lib/pagination.js';
import type { AppEnv } from '../../../platform/context.js';
import { operation } from '../../../platform/operation.js';
import { pos } from './pos.context.js';
import {
  atLocation,
  closureOf,
  createCustomer as createCustomerRecord,
  listCustomers,
  listOrders,
  listPayments,
  objectivesOf,
  reportOf,
  requireCustomer,
  requireOrder,
  salesOf,
  toOrderItem,
  updateOrderCustomer,
  withoutLocations,
} from './pos.domain.js';
import * as routes from './pos.routes.js';

const today = (c: { get(key: 'clock'): AppEnv['Variables']['clock'] }) =>
  c.get('clock').now().toISOString().slice(0, 10);

export const getModifiers = operation(pos, routes.getModifiers, (c, { data }) => {
  const { page, size, location_id } = c.req.valid('query');
  return c.json(paginate(atLocation(data.modifiers, location_id).map(withoutLocations), page, size), 200);
});

export const getOrders = operation(pos, routes.getOrders, (c, { data }) => {
  const { page, size, ...filters } = c.req.valid('query');
  return c.json(paginate(listOrders(data, filters), page, size, toOrderItem), 200);
});

export const getOrder = operation(pos, routes.getOrder, (c, { data }) => {
  return c.json(toOrderItem(requireOrder(data, c.req.valid('param').order_id)), 200);
});

export const updateOrder = operation(pos, routes.updateOrder, async (c, { data }) => {
  const order = updateOrderCustomer(data, c.req.valid('param').order_id, c.req.valid('json').customer_id);
  return c.json(toOrderItem(order), 200);
});

export const getLocations = operation(pos, routes.getLocations, (c, { data }) => {
  const { page, size } = c.req.valid('query');
  return c.json(paginate(data.locations, page, size), 200);
});

export const getPayments = operation(pos, routes.getPayments, (c, { data }) => {
  const { page, size, date_from, date_to } = c.req.valid('query');
  return c.json(paginate(listPayments(data, date_from, date_to), page, size), 200);
});

export const getSales = operation(pos, routes.getSales, (c, { data }) => {
  const { date_from, date_to, location_id } = c.req.valid('query');
  return c.json(salesOf(data, date_from, date_to, location_id), 200);
});

export const getPaymentMethods = operation(pos, routes.getPaymentMethods, (c, { data }) => {
  const { page, size, location_id } = c.req.valid('query');
  return c.json(
    paginate(atLocation(data.payment_methods, location_id).map(withoutLocations), page, size),
    200,
  );
});

export const getCustomers = operation(pos, routes.getCustomers, (c, { data }) => {
  const { page, size, ...filters } = c.req.valid('query');
  return c.json(paginate(listCustomers(data, filters), page, size), 200);
});

export const createCustomer = operation(pos, routes.createCustomer, async (c, { data }) => {
  const input = c.req.valid('json');
  const customer = createCustomerRecord(
    data,
    input,
    () => c.get('ids').next('pos-customer'),
    c.get('clock').now().toISOString(),
  );
  c.set('createdEntityId', customer.id);
  return c.json(customer, 200);
});

export const getCustomer = operation(pos, routes.getCustomer, (c, { data }) => {
  return c.json(requireCustomer(data, c.req.valid('param').customer_id), 200);
});

export const getProductCategories = operation(pos, routes.getProductCategories, (c, { data }) => {
  const { page, size, location_id, only_parents } = c.req.valid('query');
  const categories = atLocation(data.product_categories, location_id).filter(
    (category) => only_parents !== 'true' || category.id_parent === null,
  );
  return c.json(paginate(categories.map(withoutLocations), page, size), 200);
});

export const getProducts = operation(pos, routes.getProducts, (c, { data }) => {
  const { page, size, location_id } = c.req.valid('query');
  const products = atLocation(data.products, location_id).map(
    ({ location_ids: _l, tax_id: _t, line_type: _k, ...wire }) => wire,
  );
  return c.json(paginate(products, page, size), 200);
});

export const getAccountingCategories = operation(pos, routes.getAccountingCategories, (c, { data }) => {
  const { page, size, location_id } = c.req.valid('query');
  return c.json(
    paginate(atLocation(data.accounting_categories, location_id).map(withoutLocations), page, size),
    200,
  );
});

export const getTaxes = operation(pos, routes.getTaxes, (c, { data }) => {
  const { page, size } = c.req.valid('query');
  return c.json(paginate(data.tax_rates, page, size), 200);
});

export const getClosure = operation(pos, routes.getClosure, (c, { data }) => {
  const { date } = c.req.valid('param');
  return c.json(closureOf(data, date, today(c), c.req.valid('query').location_id), 200);
});

export const getObjectives = operation(pos, routes.getObjectives, (c, { data }) => {
  const { page, size, date_from, date_to, location_id } = c.req.valid('query');
  return c.json(objectivesOf(data, date_from, date_to, location_id, page, size), 200);
});

export const getReport = operation(pos, routes.getReport, (c, { data }) => {
  const { date, location_id } = c.req.valid('query');
  return c.json(reportOf(data, date, location_id), 200);
});
