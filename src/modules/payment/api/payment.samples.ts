import { type ConsoleSample, SAMPLE_ROWS } from '../../../platform/console-sample.js';
import { listPayments, paymentDatasetOf, toPaymentItem } from './payment.domain.js';
import * as routes from './payment.routes.js';

/** What the console shows of a consumer's payment data: its first payments. */
export const paymentSamples: readonly ConsoleSample[] = [
  {
    api: 'Payment',
    title: 'Payments',
    route: routes.getPayments,
    columns: ['id', 'payment_date', 'status', 'currency', 'amount', 'description'],
    rows: (c, { consumer, connection, integration }) => {
      const data = paymentDatasetOf(
        c.get('store'),
        consumer.consumerid,
        connection.connectionid,
        integration.integrationid,
      );
      return listPayments(data, {}).slice(0, SAMPLE_ROWS).map(toPaymentItem);
    },
  },
];
