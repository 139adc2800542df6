import { paginate } from '../../../lib/pagination.js';
import { operation } from '../../../platform/operation.js';
import { publishEvent } from '../../webhooks/index.js';
import {
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
import { orderCreatedEvent } from './commerce.events.js';
import * as routes from './commerce.routes.js';
import { commerce } from './commerce.vertical.js';

const isTrue = (value: string | undefined, fallback: boolean) =>
  value === undefined ? fallback : value === 'true';

export const getCustomers = operation(commerce, routes.getCustomers, (c, { data }) => {
  const { page, size } = c.req.valid('query');
  return c.json(paginate(listCustomers(data), page, size), 200);
});

export const getCustomer = operation(commerce, routes.getCustomer, (c, { data }) => {
  return c.json(requireCustomer(data, c.req.valid('param').customer_id), 200);
});

export const getProducts = operation(commerce, routes.getProducts, (c, { data }) => {
  const { page, size, ...filters } = c.req.valid('query');
  const products = listProducts(data, filters).map((p) => toProductItem(data, p));
  return c.json(paginate(products, page, size), 200);
});

export const getProduct = operation(commerce, routes.getProduct, (c, { data }) => {
  return c.json(toProductItem(data, requireProduct(data, c.req.valid('param').product_id)), 200);
});

export const getVariant = operation(commerce, routes.getVariant, (c, { data }) => {
  const { product, variant } = requireVariant(data, c.req.valid('param').variant_id);
  return c.json(toVariantItem(data, product, variant), 200);
});

export const updateVariantQuantity = operation(
  commerce,
  routes.updateVariantQuantity,
  async (c, { data }) => {
    const { location_id, available_quantity } = c.req.valid('json');
    const variantId = c.req.valid('param').variant_id;
    const result = setAvailableQuantity(
      data,
      variantId,
      location_id,
      available_quantity,
      c.get('clock').now().toISOString(),
    );
    return c.json(result, 200);
  },
);

export const getLocations = operation(commerce, routes.getLocations, (c, { data }) => {
  const { page, size } = c.req.valid('query');
  const locations = data.locations.map(({ address: _a, ...wire }) => wire);
  return c.json(paginate(locations, page, size), 200);
});

export const getOrders = operation(commerce, routes.getOrders, (c, { data }) => {
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
  const orders = listOrders(data, filters).map((o) => toOrderItem(data, o, view));
  return c.json(paginate(orders, page, size), 200);
});

export const createOrder = operation(
  commerce,
  routes.createOrder,
  async (c, { data, consumer, connection }) => {
    const mint = (kind: string) => () => c.get('ids').next(kind);
    const { order } = createOrderRecord(
      data,
      c.req.valid('json'),
      {
        order: mint('commerce-order'),
        customer: mint('commerce-customer'),
        line: mint('commerce-line'),
        fee: mint('commerce-fee'),
        transaction: mint('commerce-transaction'),
      },
      c.get('clock').now().toISOString(),
    );
    c.set('createdEntityId', order.id);
    const item = toOrderItem(data, order);
    publishEvent(c.var, orderCreatedEvent(consumer, connection.connectionid, connection.integrationid, item));
    return c.json(item, 200);
  },
);

export const getOrder = operation(commerce, routes.getOrder, (c, { data }) => {
  const order = requireOrder(data, c.req.valid('param').order_id);
  const view = { include_product_categories: isTrue(c.req.valid('query').include_product_categories, false) };
  return c.json(toOrderItem(data, order, view), 200);
});

export const getPaymentMethods = operation(commerce, routes.getPaymentMethods, (c, { data }) => {
  const { page, size } = c.req.valid('query');
  return c.json(paginate(data.payment_methods, page, size), 200);
});

export const getProductCategories = operation(commerce, routes.getProductCategories, (c, { data }) => {
  const { page, size, only_parents } = c.req.valid('query');
  const categories = data.categories.filter((cat) => only_parents !== 'true' || cat.parent_id === null);
  return c.json(paginate(categories, page, size), 200);
});

export const getTaxes = operation(commerce, routes.getTaxes, (c, { data }) => {
  const { page, size } = c.req.valid('query');
  return c.json(paginate(data.tax_rates, page, size), 200);
});

export const getCountries = operation(commerce, routes.getCountries, (c, { data }) => {
  const { page, size } = c.req.valid('query');
  return c.json(paginate(data.countries, page, size), 200);
});
