import type { RouteHandler } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../context.js';
import { paginate } from '../../lib/pagination.js';
import { requireVerticalConnection } from '../consumers/vertical-connection.js';
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
import type * as routes from './payment.routes.js';

type Handler<R extends keyof typeof routes> = RouteHandler<(typeof routes)[R], AppEnv>;

/** The connection's dataset, once the consumer, connection and coverage checks have passed. */
function dataset(c: Context<AppEnv>, operationId: string) {
  const scope = requireVerticalConnection(c, 'Payment', operationId);
  return paymentDatasetOf(
    c.var.store,
    scope.consumer.consumerid,
    scope.connection.connectionid,
    scope.integration.integrationid,
  );
}

export const getLocations: Handler<'getLocations'> = (c) => {
  const data = dataset(c, 'payment_get_locations');
  const q = c.req.valid('query');
  return c.json(
    paginate(
      Object.values(data.locations).map((l) => ({ ...l })),
      q.page,
      q.size,
    ),
    200,
  );
};

export const getBalances: Handler<'getBalances'> = (c) => {
  const data = dataset(c, 'payment_get_balances');
  const q = c.req.valid('query');
  const items = Object.values(data.balances).map((b) => toBalanceItem(data, b));
  return c.json(paginate(items, q.page, q.size), 200);
};

export const getTransactions: Handler<'getTransactions'> = (c) => {
  const data = dataset(c, 'payment_get_transactions');
  const q = c.req.valid('query');
  return c.json(paginate(listTransactions(data, q).map(toTransactionItem), q.page, q.size), 200);
};

export const getPayments: Handler<'getPayments'> = (c) => {
  const data = dataset(c, 'payment_get_payments');
  const q = c.req.valid('query');
  return c.json(paginate(listPayments(data, q).map(toPaymentItem), q.page, q.size), 200);
};

/**
 * The official SDK's getPayment sends the url template as it is (`.../payments/%7Bpayment_id%7D`)
 * and the id as the query parameter `payment_id`; the sandbox reads the id from there in that case
 * alone, so that the SDK method works.
 */
const SDK_UNFILLED_TEMPLATE = '{payment_id}';

export const getPayment: Handler<'getPayment'> = (c) => {
  const data = dataset(c, 'payment_get_payment');
  const fromPath = c.req.valid('param').payment_id;
  const id = fromPath === SDK_UNFILLED_TEMPLATE ? (c.req.query('payment_id') ?? fromPath) : fromPath;
  return c.json(toPaymentItem(requirePayment(data, id)), 200);
};

export const getRefunds: Handler<'getRefunds'> = (c) => {
  const data = dataset(c, 'payment_get_refunds');
  const q = c.req.valid('query');
  return c.json(paginate(listRefunds(data, q), q.page, q.size), 200);
};

export const getPayouts: Handler<'getPayouts'> = (c) => {
  const data = dataset(c, 'payment_get_payouts');
  const q = c.req.valid('query');
  return c.json(paginate(listPayouts(data, q), q.page, q.size), 200);
};
