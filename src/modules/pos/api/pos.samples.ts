import { type ConsoleSample, recentPeriod, SAMPLE_ROWS } from '../../../platform/console-sample.js';
import { pos } from './pos.context.js';
import { listOrders, toOrderItem } from './pos.domain.js';
import * as routes from './pos.routes.js';

/** What the console shows of a consumer's Point of Sale data: the latest orders of the last 90 days. */
export const posSamples: readonly ConsoleSample[] = [
  {
    api: 'Point of Sale',
    title: 'Orders',
    route: routes.getOrders,
    columns: ['id', 'order_number', 'creation_date', 'closing_date', 'total', 'currency'],
    rows: async (c, scope) => {
      // The vertical's own opening: it completes the orders due by now first, as the API does.
      const data = await pos.open(c, scope);
      return listOrders(data, recentPeriod(c)).slice(-SAMPLE_ROWS).reverse().map(toOrderItem);
    },
  },
];
