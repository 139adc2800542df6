import { paginate } from '../../../lib/pagination.js';
import { connectionDatasetRef } from '../../../platform/datasets.js';
import { operation, type Vertical } from '../../../platform/operation.js';
import type { PaymentDataset } from '../model/payment.records.js';
import {
  listPayments,
  listPayouts,
  listRefunds,
  listTransactions,
  paymentDatasetOf,
  requirePayment,
  toBalanceItem,
  toPaymentItem,
  toTransactionItem,
} from './payment.domain.js';
import * as routes from './payment.routes.js';

/** Payment operations work on the connection's dataset (built in slices first when not in memory). */
const payment: Vertical<PaymentDataset> = {
  api: 'Payment',
  dataset: (_c, { connection }) => connectionDatasetRef('payment_datasets', connection),
  open: (c, { consumer, connection, integration }) =>
    paymentDatasetOf(c.get('store'), consumer.consumerid, connection.connectionid, integration.integrationid),
};

export const getLocations = operation(payment, routes.getLocations, (c, { data }) => {
  const q = c.req.valid('query');
  return c.json(
    paginate(
      Object.values(data.locations).map((l) => ({ ...l })),
      q.page,
      q.size,
    ),
    200,
  );
});

export const getBalances = operation(payment, routes.getBalances, (c, { data }) => {
  const q = c.req.valid('query');
  const items = Object.values(data.balances).map((b) => toBalanceItem(data, b));
  return c.json(paginate(items, q.page, q.size), 200);
});

export const getTransactions = operation(payment, routes.getTransactions, (c, { data }) => {
  const q = c.req.valid('query');
  return c.json(paginate(listTransactions(data, q), q.page, q.size, toTransactionItem), 200);
});

export const getPayments = operation(payment, routes.getPayments, (c, { data }) => {
  const q = c.req.valid('query');
  return c.json(paginate(listPayments(data, q), q.page, q.size, toPaymentItem), 200);
});

/**
 * The official SDK's getPayment sends the url template as it is (`.../payments/%7Bpayment_id%7D`)
 * and the id as the query parameter `payment_id`; the sandbox reads the id from there in that case
 * alone, so that the SDK method works.
 */
const SDK_UNFILLED_TEMPLATE = '{payment_id}';

export const getPayment = operation(payment, routes.getPayment, (c, { data }) => {
  const fromPath = c.req.valid('param').payment_id;
  const id = fromPath === SDK_UNFILLED_TEMPLATE ? (c.req.query('payment_id') ?? fromPath) : fromPath;
  return c.json(toPaymentItem(requirePayment(data, id)), 200);
});

export const getRefunds = operation(payment, routes.getRefunds, (c, { data }) => {
  const q = c.req.valid('query');
  return c.json(paginate(listRefunds(data, q), q.page, q.size), 200);
});

export const getPayouts = operation(payment, routes.getPayouts, (c, { data }) => {
  const q = c.req.valid('query');
  return c.json(paginate(listPayouts(data, q, c.get('clock').now().toISOString()), q.page, q.size), 200);
});
