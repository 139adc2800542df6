import type { RouteHandler } from '@hono/zod-openapi';
import type { AppEnv } from '../../context.js';
import { paginate } from '../../lib/pagination.js';
import { openPos } from './pos.context.js';
import {
  assertLocation,
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
import type * as routes from './pos.routes.js';

type Handler<R extends keyof typeof routes> = RouteHandler<(typeof routes)[R], AppEnv>;

const today = (c: { var: AppEnv['Variables'] }) => c.var.clock.now().toISOString().slice(0, 10);

export const getModifiers: Handler<'getModifiers'> = async (c) => {
  const { dataset } = await openPos(c, 'pos_get_modifiers');
  const { page, size, location_id } = c.req.valid('query');
  assertLocation(dataset, location_id);
  return c.json(paginate(atLocation(dataset.modifiers, location_id).map(withoutLocations), page, size), 200);
};

export const getOrders: Handler<'getOrders'> = async (c) => {
  const { dataset } = await openPos(c, 'pos_get_orders');
  const { page, size, ...filters } = c.req.valid('query');
  return c.json(paginate(listOrders(dataset, filters).map(toOrderItem), page, size), 200);
};

export const getOrder: Handler<'getOrder'> = async (c) => {
  const { dataset } = await openPos(c, 'pos_get_order');
  return c.json(toOrderItem(requireOrder(dataset, c.req.valid('param').order_id)), 200);
};

export const updateOrder: Handler<'updateOrder'> = async (c) => {
  const { dataset } = await openPos(c, 'pos_update_pos_customer');
  const order = updateOrderCustomer(dataset, c.req.valid('param').order_id, c.req.valid('json').customer_id);
  return c.json(toOrderItem(order), 200);
};

export const getLocations: Handler<'getLocations'> = async (c) => {
  const { dataset } = await openPos(c, 'pos_get_locations');
  const { page, size } = c.req.valid('query');
  return c.json(paginate(dataset.locations, page, size), 200);
};

export const getPayments: Handler<'getPayments'> = async (c) => {
  const { dataset } = await openPos(c, 'pos_get_payments');
  const { page, size, date_from, date_to } = c.req.valid('query');
  return c.json(paginate(listPayments(dataset, date_from, date_to), page, size), 200);
};

export const getSales: Handler<'getSales'> = async (c) => {
  const { dataset } = await openPos(c, 'pos_get_sales');
  const { date_from, date_to, location_id } = c.req.valid('query');
  return c.json(salesOf(dataset, date_from, date_to, location_id), 200);
};

export const getPaymentMethods: Handler<'getPaymentMethods'> = async (c) => {
  const { dataset } = await openPos(c, 'pos_get_payments_methods');
  const { page, size, location_id } = c.req.valid('query');
  assertLocation(dataset, location_id);
  return c.json(
    paginate(atLocation(dataset.payment_methods, location_id).map(withoutLocations), page, size),
    200,
  );
};

export const getCustomers: Handler<'getCustomers'> = async (c) => {
  const { dataset } = await openPos(c, 'pos_get_customers');
  const { page, size, ...filters } = c.req.valid('query');
  return c.json(paginate(listCustomers(dataset, filters), page, size), 200);
};

export const createCustomer: Handler<'createCustomer'> = async (c) => {
  const { dataset } = await openPos(c, 'pos_create_pos_customer');
  const input = c.req.valid('json');
  const customer = createCustomerRecord(
    dataset,
    input,
    () => c.var.ids.next('pos-customer'),
    c.var.clock.now().toISOString(),
  );
  c.set('createdEntityId', customer.id);
  return c.json(customer, 200);
};

export const getCustomer: Handler<'getCustomer'> = async (c) => {
  const { dataset } = await openPos(c, 'pos_get_customer');
  return c.json(requireCustomer(dataset, c.req.valid('param').customer_id), 200);
};

export const getProductCategories: Handler<'getProductCategories'> = async (c) => {
  const { dataset } = await openPos(c, 'pos_get_product_categories');
  const { page, size, location_id, only_parents } = c.req.valid('query');
  assertLocation(dataset, location_id);
  const categories = atLocation(dataset.product_categories, location_id).filter(
    (category) => only_parents !== 'true' || category.id_parent === null,
  );
  return c.json(paginate(categories.map(withoutLocations), page, size), 200);
};

export const getProducts: Handler<'getProducts'> = async (c) => {
  const { dataset } = await openPos(c, 'pos_get_products');
  const { page, size, location_id } = c.req.valid('query');
  assertLocation(dataset, location_id);
  const products = atLocation(dataset.products, location_id).map(
    ({ location_ids: _l, tax_id: _t, line_type: _k, ...wire }) => wire,
  );
  return c.json(paginate(products, page, size), 200);
};

export const getAccountingCategories: Handler<'getAccountingCategories'> = async (c) => {
  const { dataset } = await openPos(c, 'pos_get_accounting_categories');
  const { page, size, location_id } = c.req.valid('query');
  assertLocation(dataset, location_id);
  return c.json(
    paginate(atLocation(dataset.accounting_categories, location_id).map(withoutLocations), page, size),
    200,
  );
};

export const getTaxes: Handler<'getTaxes'> = async (c) => {
  const { dataset } = await openPos(c, 'pos_get_taxes');
  const { page, size } = c.req.valid('query');
  return c.json(paginate(dataset.tax_rates, page, size), 200);
};

export const getClosure: Handler<'getClosure'> = async (c) => {
  const { dataset } = await openPos(c, 'pos_get_closure');
  const { date } = c.req.valid('param');
  return c.json(closureOf(dataset, date, today(c), c.req.valid('query').location_id), 200);
};

export const getObjectives: Handler<'getObjectives'> = async (c) => {
  const { dataset } = await openPos(c, 'pos_get_objectives');
  const { page, size, date_from, date_to, location_id } = c.req.valid('query');
  return c.json(paginate(objectivesOf(dataset, date_from, date_to, location_id), page, size), 200);
};

export const getReport: Handler<'getReport'> = async (c) => {
  const { dataset } = await openPos(c, 'pos_get_report');
  const { date, location_id } = c.req.valid('query');
  return c.json(reportOf(dataset, date, location_id), 200);
};
