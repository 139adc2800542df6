import {
  activeConnections,
  type CubeDef,
  count,
  OWNER_DIMENSIONS,
  sumOf,
} from '../datalab/datalab.cube-def.js';
import { commerceDatasetOf, toOrderItem } from './commerce.domain.js';

/** The Datalab's cube of eCommerce orders: every order of the active eCommerce connections, as answered. */
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
    {
      name: 'order_id',
      title: 'Order id',
      type: 'string',
      description: 'Id of the order',
      primaryKey: true,
      get: (r) => r.order.id,
    },
    ...OWNER_DIMENSIONS,
    {
      name: 'status',
      title: 'Status',
      type: 'string',
      description: 'Status of the order',
      values: ['cancelled_unpaid', 'cancelled', 'draft', 'confirmed', 'shipped', 'refunded'],
      get: (r) => r.order.status,
    },
    {
      name: 'currency',
      title: 'Currency',
      type: 'string',
      description: 'Currency of the order',
      get: (r) => r.order.currency,
    },
    {
      name: 'shipping_country',
      title: 'Shipping country',
      type: 'string',
      description: 'Country shipped to',
      get: (r) => r.order.shipping_address?.country ?? null,
    },
    {
      name: 'created_on',
      title: 'Created',
      type: 'time',
      description: 'When the order was placed',
      get: (r) => r.order.created_on,
    },
  ],
  relationships: [{ target: 'consumers', relationship: 'many_to_one' }],
  currency: (r) => r.order.currency,
  rows: (source) =>
    activeConnections(source, 'eCommerce').flatMap((connection) => {
      const dataset = commerceDatasetOf(source.store, connection);
      return Object.values(dataset.orders).map((order) => ({
        order: toOrderItem(dataset, order),
        consumerid: connection.consumerid,
        connectionid: connection.connectionid,
      }));
    }),
};
