import {
  activeConnections,
  type CubeDef,
  count,
  OWNER_DIMENSIONS,
  sumOf,
} from '../datalab/datalab.cube-def.js';
import { settleDataset } from './pos.context.js';
import { posDatasetOf } from './pos.domain.js';

/**
 * The Datalab's cube of POS orders: every order of the active Point of Sale connections. A dataset
 * read by a query first completes its due orders and publishes their events, as a POS request would.
 */
export const posOrdersCube: CubeDef = {
  name: 'pos_orders',
  title: 'POS orders',
  description: 'Orders of the Point of Sale connections',
  domain: 'pos',
  api: 'Point of Sale',
  measures: [
    count('count', 'Number of orders', 'How many orders'),
    sumOf('total', 'Total', (r) => r.order.total),
    sumOf('tax_amount', 'Tax amount', (r) => r.order.tax_amount),
    sumOf('total_tip', 'Tips', (r) => r.order.total_tip),
    {
      name: 'average_total',
      title: 'Average ticket',
      description: 'Average total of an order',
      agg: 'avg',
      get: (r) => r.order.total,
      monetary: true,
    },
    sumOf('guests', 'Guests', (r) => r.order.guests, false),
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
      name: 'location_id',
      title: 'Location id',
      type: 'string',
      description: 'Id of the location',
      get: (r) => r.order.location_id,
    },
    {
      name: 'location_name',
      title: 'Location',
      type: 'string',
      description: 'Name of the location',
      get: (r) => r.location,
    },
    {
      name: 'mode',
      title: 'Mode',
      type: 'string',
      description: 'Eat in, takeaway or delivery',
      values: ['EAT_IN', 'TAKEAWAY', 'DELIVERY', 'UNKNOWN'],
      get: (r) => r.order.mode,
    },
    {
      name: 'source',
      title: 'Source',
      type: 'string',
      description: 'Where the order was taken',
      get: (r) => r.order.source,
    },
    {
      name: 'state',
      title: 'State',
      type: 'string',
      description: 'open or closed',
      values: ['open', 'closed'],
      get: (r) => (r.order.closing_date ? 'closed' : 'open'),
    },
    {
      name: 'currency',
      title: 'Currency',
      type: 'string',
      description: 'Currency of the order',
      get: (r) => r.order.currency,
    },
    {
      name: 'creation_date',
      title: 'Created',
      type: 'time',
      description: 'When the order was opened',
      get: (r) => r.order.creation_date,
    },
    {
      name: 'closing_date',
      title: 'Closed',
      type: 'time',
      description: 'When the order was paid and closed',
      get: (r) => r.order.closing_date,
    },
  ],
  relationships: [{ target: 'consumers', relationship: 'many_to_one' }],
  currency: (r) => r.order.currency,
  rows: (source) =>
    activeConnections(source, 'Point of Sale').flatMap((connection) => {
      const dataset = posDatasetOf(source.store, connection);
      settleDataset(source.services, source.world, dataset);
      const locations = new Map(dataset.locations.map((l) => [l.id, l.name]));
      return Object.values(dataset.orders).map((order) => ({
        order,
        consumerid: connection.consumerid,
        connectionid: connection.connectionid,
        location: locations.get(order.location_id) ?? null,
      }));
    }),
};
