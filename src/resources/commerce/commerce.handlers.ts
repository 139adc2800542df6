import type { RouteHandler } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../context.js';
import { paginate } from '../../lib/pagination.js';
import type { ConsumerRecord } from '../../store/world.js';
import { requireVerticalConnection } from '../consumers/vertical-connection.js';
import { publishEvent } from '../webhooks/events.js';
import {
  commerceDatasetOf,
  createOrder as createOrderRecord,
  listCustomers,
  listOrders,
  listProducts,
  requireCustomer,
  requireOrder,
  requireProduct,
  requireVariant,
  setAvailableQuantity,
  toOrderItem,
  toProductItem,
  toVariantItem,
} from './commerce.domain.js';
import type * as routes from './commerce.routes.js';
import type { OrderItemOutValue } from './commerce.schemas.js';

type Handler<R extends keyof typeof routes> = RouteHandler<(typeof routes)[R], AppEnv>;

/** The consumer's eCommerce connection (requireVerticalConnection) and its dataset, built on first access. */
function openCommerce(c: Context<AppEnv>, operationId: string) {
  const scope = requireVerticalConnection(c, 'eCommerce', operationId);
  return { ...scope, dataset: commerceDatasetOf(c.var.store, scope.connection) };
}

const isTrue = (value: string | undefined, fallback: boolean) =>
  value === undefined ? fallback : value === 'true';

/** commerce.order.created: an order was placed through the API. */
function orderCreatedEvent(
  consumer: ConsumerRecord,
  connectionid: string,
  integrationid: number,
  order: Pick<OrderItemOutValue, 'id' | 'order_number' | 'status' | 'currency' | 'total'>,
) {
  return {
    accountid: consumer.accountid,
    envid: consumer.envid,
    event: 'commerce.order.created',
    consumerid: consumer.consumerid,
    integrationid,
    fields: {
      connectionid,
      integrationid,
      order_id: order.id,
      order_number: order.order_number,
      status: order.status,
      currency: order.currency,
      total: order.total,
    },
  };
}

export const getCustomers: Handler<'getCustomers'> = (c) => {
  const { dataset } = openCommerce(c, 'ecommerce_get_customers');
  const { page, size } = c.req.valid('query');
  return c.json(paginate(listCustomers(dataset), page, size), 200);
};

export const getCustomer: Handler<'getCustomer'> = (c) => {
  const { dataset } = openCommerce(c, 'ecommerce_get_customer');
  return c.json(requireCustomer(dataset, c.req.valid('param').customer_id), 200);
};

export const getProducts: Handler<'getProducts'> = (c) => {
  const { dataset } = openCommerce(c, 'ecommerce_get_products');
  const { page, size, ...filters } = c.req.valid('query');
  const products = listProducts(dataset, filters).map((p) => toProductItem(dataset, p));
  return c.json(paginate(products, page, size), 200);
};

export const getProduct: Handler<'getProduct'> = (c) => {
  const { dataset } = openCommerce(c, 'ecommerce_get_product');
  return c.json(toProductItem(dataset, requireProduct(dataset, c.req.valid('param').product_id)), 200);
};

export const getVariant: Handler<'getVariant'> = (c) => {
  const { dataset } = openCommerce(c, 'ecommerce_get_variant');
  const { product, variant } = requireVariant(dataset, c.req.valid('param').variant_id);
  return c.json(toVariantItem(dataset, product, variant), 200);
};

export const updateVariantQuantity: Handler<'updateVariantQuantity'> = async (c) => {
  const { dataset } = openCommerce(c, 'ecommerce_update_variant_quantity');
  const { location_id, available_quantity } = c.req.valid('json');
  const variantId = c.req.valid('param').variant_id;
  const result = setAvailableQuantity(
    dataset,
    variantId,
    location_id,
    available_quantity,
    c.var.clock.now().toISOString(),
  );
  return c.json(result, 200);
};

export const getLocations: Handler<'getLocations'> = (c) => {
  const { dataset } = openCommerce(c, 'ecommerce_get_locations');
  const { page, size } = c.req.valid('query');
  const locations = dataset.locations.map(({ address: _a, ...wire }) => wire);
  return c.json(paginate(locations, page, size), 200);
};

export const getOrders: Handler<'getOrders'> = (c) => {
  const { dataset } = openCommerce(c, 'ecommerce_get_orders');
  const {
    page,
    size,
    include_detailed_refunds,
    include_product_categories,
    include_customer_details,
    ...filters
  } = c.req.valid('query');
  const view = {
    include_detailed_refunds: isTrue(include_detailed_refunds, false),
    include_product_categories: isTrue(include_product_categories, false),
    include_customer_details: isTrue(include_customer_details, true),
  };
  const orders = listOrders(dataset, filters).map((o) => toOrderItem(dataset, o, view));
  return c.json(paginate(orders, page, size), 200);
};

export const createOrder: Handler<'createOrder'> = async (c) => {
  const { dataset, consumer, connection } = openCommerce(c, 'ecommerce_create_order');
  const mint = (kind: string) => () => c.var.ids.next(kind);
  const { order } = createOrderRecord(
    dataset,
    c.req.valid('json'),
    {
      order: mint('commerce-order'),
      customer: mint('commerce-customer'),
      line: mint('commerce-line'),
      fee: mint('commerce-fee'),
      transaction: mint('commerce-transaction'),
    },
    c.var.clock.now().toISOString(),
  );
  c.set('createdEntityId', order.id);
  const item = toOrderItem(dataset, order);
  publishEvent(c.var, orderCreatedEvent(consumer, connection.connectionid, connection.integrationid, item));
  return c.json(item, 200);
};

export const getOrder: Handler<'getOrder'> = (c) => {
  const { dataset } = openCommerce(c, 'ecommerce_get_order');
  const order = requireOrder(dataset, c.req.valid('param').order_id);
  const view = { include_product_categories: isTrue(c.req.valid('query').include_product_categories, false) };
  return c.json(toOrderItem(dataset, order, view), 200);
};

export const getPaymentMethods: Handler<'getPaymentMethods'> = (c) => {
  const { dataset } = openCommerce(c, 'ecommerce_get_payments_methods');
  const { page, size } = c.req.valid('query');
  return c.json(paginate(dataset.payment_methods, page, size), 200);
};

export const getProductCategories: Handler<'getProductCategories'> = (c) => {
  const { dataset } = openCommerce(c, 'ecommerce_get_product_categories');
  const { page, size, only_parents } = c.req.valid('query');
  const categories = dataset.categories.filter((cat) => only_parents !== 'true' || cat.parent_id === null);
  return c.json(paginate(categories, page, size), 200);
};

export const getTaxes: Handler<'getTaxes'> = (c) => {
  const { dataset } = openCommerce(c, 'ecommerce_get_taxes');
  const { page, size } = c.req.valid('query');
  return c.json(paginate(dataset.tax_rates, page, size), 200);
};

export const getCountries: Handler<'getCountries'> = (c) => {
  const { dataset } = openCommerce(c, 'ecommerce_get_countries');
  const { page, size } = c.req.valid('query');
  return c.json(paginate(dataset.countries, page, size), 200);
};
