import { createRoute } from '@hono/zod-openapi';
import { errorResponses, jsonContent, scopesFor, secured } from '../../../platform/openapi.js';
import {
  ConsumerIdParam,
  PageOnlyQuery,
  PaymentIdParam,
  PaymentItemOut,
  PaymentsQuery,
  PayoutsQuery,
  RefundsQuery,
  ServicePage_BalanceItemOut_,
  ServicePage_PaymentItemOut_,
  ServicePage_PaymentLocationItem_,
  ServicePage_PayoutItemOut_,
  ServicePage_RefundItemOut_,
  ServicePage_TransactionItemOut_,
  TransactionsQuery,
} from './payment.schemas.js';

/** Routes of the Payment vertical under /consumers/{consumer_id}/payment (all reads). */

const base = '/consumers/{consumer_id}/payment';
const errors = errorResponses([400, 401, 404, 422]);
const TAG = 'Payment';

export const getLocations = createRoute({
  method: 'get',
  path: `${base}/locations`,
  operationId: 'payment_get_locations',
  tags: [TAG, 'Locations'],
  summary: 'List the locations',
  ...secured('consumer', scopesFor('payment', 'locations', 'read')),
  request: { params: ConsumerIdParam, query: PageOnlyQuery },
  responses: { 200: jsonContent(ServicePage_PaymentLocationItem_, 'The locations'), ...errors },
});

export const getBalances = createRoute({
  method: 'get',
  path: `${base}/balances`,
  operationId: 'payment_get_balances',
  tags: [TAG, 'Balances'],
  summary: 'List the balances',
  ...secured('consumer', scopesFor('payment', 'balances', 'read')),
  request: { params: ConsumerIdParam, query: PageOnlyQuery },
  responses: { 200: jsonContent(ServicePage_BalanceItemOut_, 'The balances and what they hold'), ...errors },
});

export const getTransactions = createRoute({
  method: 'get',
  path: `${base}/transactions`,
  operationId: 'payment_get_transactions',
  tags: [TAG, 'Transactions'],
  summary: 'List the movements of the balances',
  ...secured('consumer', scopesFor('payment', 'transactions', 'read')),
  request: { params: ConsumerIdParam, query: TransactionsQuery },
  responses: { 200: jsonContent(ServicePage_TransactionItemOut_, 'The movements, newest first'), ...errors },
});

export const getPayments = createRoute({
  method: 'get',
  path: `${base}/payments`,
  operationId: 'payment_get_payments',
  tags: [TAG, 'Payments'],
  summary: 'List the payments',
  ...secured('consumer', scopesFor('payment', 'payments', 'read')),
  request: { params: ConsumerIdParam, query: PaymentsQuery },
  responses: { 200: jsonContent(ServicePage_PaymentItemOut_, 'The payments, newest first'), ...errors },
});

export const getPayment = createRoute({
  method: 'get',
  path: `${base}/payments/{payment_id}`,
  operationId: 'payment_get_payment',
  tags: [TAG, 'Payments'],
  summary: 'Get one payment',
  ...secured('consumer', scopesFor('payment', 'payments', 'read')),
  request: { params: PaymentIdParam },
  responses: { 200: jsonContent(PaymentItemOut, 'The payment'), ...errors },
});

export const getRefunds = createRoute({
  method: 'get',
  path: `${base}/refunds`,
  operationId: 'payment_get_refunds',
  tags: [TAG, 'Refunds'],
  summary: 'List the refunds',
  ...secured('consumer', scopesFor('payment', 'refunds', 'read')),
  request: { params: ConsumerIdParam, query: RefundsQuery },
  responses: { 200: jsonContent(ServicePage_RefundItemOut_, 'The refunds, newest first'), ...errors },
});

export const getPayouts = createRoute({
  method: 'get',
  path: `${base}/payouts`,
  operationId: 'payment_get_payouts',
  tags: [TAG, 'Payouts'],
  summary: 'List the payouts to the bank',
  ...secured('consumer', scopesFor('payment', 'payouts', 'read')),
  request: { params: ConsumerIdParam, query: PayoutsQuery },
  responses: { 200: jsonContent(ServicePage_PayoutItemOut_, 'The payouts, newest first'), ...errors },
});
