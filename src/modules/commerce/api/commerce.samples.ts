import { type ConsoleSample, SAMPLE_ROWS } from '../../../platform/console-sample.js';
import { commerceDatasetOf, listOrders, toOrderItem } from './commerce.domain.js';
import * as routes from './commerce.routes.js';

/** What the console shows of a consumer's eCommerce data: its latest orders, newest first. */
export const commerceSamples: readonly ConsoleSample[] = [
  {
    api: 'eCommerce',
    title: 'Orders',
    route: routes.getOrders,
    columns: ['id', 'order_number', 'created_on', 'status', 'currency', 'total'],
    rows: (c, { connection }) => {
      const data = commerceDatasetOf(c.get('store'), connection);
      return listOrders(data, {})
        .slice(-SAMPLE_ROWS)
        .reverse()
        .map((order) => toOrderItem(data, order));
    },
  },
];
