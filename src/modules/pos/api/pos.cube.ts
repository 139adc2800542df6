import { own } from '../../../lib/own.js';
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
import type { PosDataset, PosOrder } from '../model/pos.records.js';
import { completeDueOrders, posDatasetOf, preparePosDataset } from './pos.domain.js';

/**
 * The orders of a dataset as of `now`: the open orders whose time has come are shown closed, as the
 * next POS request will close them (completeDueOrders), on copies; the dataset is left as it is.
 */
function* ordersAsOf(dataset: PosDataset, now: Date): Generator<PosOrder> {
  const instant = now.toISOString();
  const due = dataset.open_orders.filter((id) => {
    const closesAt = own(dataset.orders, id)?.closes_at;
    return closesAt !== null && closesAt !== undefined && closesAt <= instant;
  });
  let closed: Record<string, PosOrder> = {};
  if (due.length) {
    // The rule works on a copy of what it changes: the due orders and their customers.
    const orders = Object.fromEntries(due.map((id) => [id, { ...(own(dataset.orders, id) as PosOrder) }]));
    const customers = Object.fromEntries(
      Object.values(orders).flatMap((order) => {
        const customer = own(dataset.customers, order.customer_id);
        return customer ? [[customer.id, { ...customer }]] : [];
      }),
    );
    const copy: PosDataset = { ...dataset, open_orders: due, orders, customers };
    closed = Object.fromEntries(completeDueOrders(copy, now).map((order) => [order.id, order]));
  }
  for (const order of Object.values(dataset.orders)) yield own(closed, order.id) ?? order;
}

/**
 * The Datalab's cube of POS orders: every order of the active Point of Sale connections, as of the
 * query (due open orders shown closed). A query reads the datasets in passing and changes nothing.
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
    connectionRows(
      source,
      'Point of Sale',
      function* (connection) {
        const dataset = posDatasetOf(source.store, connection, 'peek');
        const locations = new Map(dataset.locations.map((l) => [l.id, l.name]));
        for (const order of ordersAsOf(dataset, source.now)) {
          yield { order, location: locations.get(order.location_id) ?? null };
        }
      },
      (connection) => preparePosDataset(source.store, connection),
    ),
};
