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
} from '../../platform/cube.js';
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
    idDimension('order_id', 'order', (r) => r.order.id, { primaryKey: true }),
    ...OWNER_DIMENSIONS,
    idDimension('location_id', 'location', (r) => r.order.location_id),
    stringDimension('location_name', 'Location', 'Name of the location', (r) => r.location),
    stringDimension('mode', 'Mode', 'Eat in, takeaway or delivery', (r) => r.order.mode, {
      values: ['EAT_IN', 'TAKEAWAY', 'DELIVERY', 'UNKNOWN'],
    }),
    stringDimension('source', 'Source', 'Where the order was taken', (r) => r.order.source),
    stringDimension('state', 'State', 'open or closed', (r) => (r.order.closing_date ? 'closed' : 'open'), {
      values: ['open', 'closed'],
    }),
    currencyDimension('order', (r) => r.order.currency),
    timeDimension('creation_date', 'Created', 'When the order was opened', (r) => r.order.creation_date),
    timeDimension(
      'closing_date',
      'Closed',
      'When the order was paid and closed',
      (r) => r.order.closing_date,
    ),
  ],
  relationships: [{ target: 'consumers', relationship: 'many_to_one' }],
  currency: (r) => r.order.currency,
  rows: (source) =>
    connectionRows(source, 'Point of Sale', (connection) => {
      const dataset = posDatasetOf(source.store, connection);
      settleDataset(source.services, source.world, dataset);
      const locations = new Map(dataset.locations.map((l) => [l.id, l.name]));
      return Object.values(dataset.orders).map((order) => ({
        order,
        location: locations.get(order.location_id) ?? null,
      }));
    }),
};
