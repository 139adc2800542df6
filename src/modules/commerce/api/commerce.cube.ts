import {
  type CubeDef,
  connectionRows,
  count,
  currencyDimension,
  idDimension,
  OWNER_DIMENSIONS,
  stringDimension,
  sumOf,
  timeDimension,
} from '../../../platform/cube.js';
import { commerceDatasetOf, prepareCommerceDataset, toOrderItem } from './commerce.domain.js';

/**
 * The Datalab's cube of eCommerce orders: every order of the active eCommerce connections, as
 * answered. A query reads the datasets in passing.
 */
export const commerceOrdersCube: CubeDef = {
  name: 'commerce_orders',
  title: 'eCommerce orders',
  description: 'Orders of the eCommerce connections',
  domain: 'commerce',
  api: 'eCommerce',
  measures: [
    count('count', 'Number of orders', 'How many orders'),
    sumOf('total', 'Total', (r) => r.order.total),
    sumOf('tax_amount', 'Tax amount', (r) => r.order.tax_amount),
    sumOf('refunded_amount', 'Refunded amount', (r) => r.order.refunded_amount),
    {
      name: 'customers',
      title: 'Customers',
      description: 'Distinct customers',
      agg: 'countDistinct',
      get: (r) => r.order.customer?.id ?? null,
    },
  ],
  dimensions: [
    idDimension('order_id', 'order', (r) => r.order.id, { primaryKey: true }),
    ...OWNER_DIMENSIONS,
    stringDimension('status', 'Status', 'Status of the order', (r) => r.order.status, {
      values: ['cancelled_unpaid', 'cancelled', 'draft', 'confirmed', 'shipped', 'refunded'],
    }),
    currencyDimension('order', (r) => r.order.currency),
    stringDimension(
      'shipping_country',
      'Shipping country',
      'Country shipped to',
      (r) => r.order.shipping_address?.country ?? null,
    ),
    timeDimension('created_on', 'Created', 'When the order was placed', (r) => r.order.created_on),
  ],
  relationships: [{ target: 'consumers', relationship: 'many_to_one' }],
  currency: (r) => r.order.currency,
  rows: (source) =>
    connectionRows(
      source,
      'eCommerce',
      function* (connection) {
        const dataset = commerceDatasetOf(source.store, connection, 'peek');
        for (const order of Object.values(dataset.orders)) yield { order: toOrderItem(dataset, order) };
      },
      (connection) => prepareCommerceDataset(source.store, connection),
    ),
};
