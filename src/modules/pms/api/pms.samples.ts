import { type ConsoleSample, recentPeriod, SAMPLE_ROWS } from '../../../platform/console-sample.js';
import { listOrders, pmsDatasetOf, toOrderItem } from './pms.domain.js';
import * as routes from './pms.routes.js';

/** What the console shows of a consumer's PMS data: the latest stays of the last 90 days. */
export const pmsSamples: readonly ConsoleSample[] = [
  {
    api: 'Property Management System',
    title: 'Orders (stays)',
    route: routes.getOrders,
    columns: ['id', 'order_number', 'service_date', 'closing_date', 'total', 'currency'],
    rows: (c, { connection }) => {
      const data = pmsDatasetOf(c.get('store'), connection);
      return listOrders(data, recentPeriod(c))
        .slice(-SAMPLE_ROWS)
        .reverse()
        .map((order) => toOrderItem(data, order));
    },
  },
];
