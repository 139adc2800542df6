import { serviceError } from '../../../lib/errors.js';
import { own } from '../../../lib/own.js';
import { connectionDataset } from '../../../platform/datasets.js';
import { verticalFailure } from '../../../platform/vertical-connection.js';
import type { WorldStore } from '../../../store/store.js';
import { cloneRecord } from '../../../store/unit-of-work.js';
import type {
  PaymentBalance,
  PaymentDataset,
  PaymentPayment,
  PaymentTransaction,
} from '../model/payment.records.js';
import { payoutStatusAt } from '../world/payment.seed.js';
import type { TransactionsQueryInput } from './payment.schemas.js';

/**
 * The Payment vertical's rules over one connection's dataset (read-only). A balance's available amount
 * is derived from its movements (each moves it by amount - fee; a payout's own movement takes out
 * what it paid), never stored. Filters naming a record the payment software looks up (a balance, a
 * payout, a payment, the transaction to start from) that does not exist are refused with the generic
 * 400, as the software refuses them; a location_id that names no location matches nothing (an empty
 * list), as the service filters on it.
 */

/** The dataset of a connection, built from the seed the first time the connection is used. */
export function paymentDatasetOf(
  store: WorldStore,
  consumerid: string,
  connectionid: string,
  integrationid: number,
): PaymentDataset {
  return connectionDataset<PaymentDataset>(store, 'payment_datasets', {
    consumerid,
    connectionid,
    integrationid,
  });
}

const cents = (amount: number) => Math.round(amount * 100);
const day = (instant: string) => instant.slice(0, 10);

interface DateFilters {
  date_from?: string | undefined;
  date_to?: string | undefined;
  location_id?: string | undefined;
}

const within = (when: string, filters: DateFilters) =>
  (!filters.date_from || day(when) >= filters.date_from) &&
  (!filters.date_to || day(when) <= filters.date_to);

/** Newest first; the id breaks ties so that the order (and starting_from) is total. */
const newestFirst =
  <T extends { id: string }>(dateOf: (item: T) => string) =>
  (a: T, b: T) =>
    dateOf(b).localeCompare(dateOf(a)) || b.id.localeCompare(a.id);

export function toBalanceItem(data: PaymentDataset, balance: PaymentBalance) {
  const available = Object.values(data.transactions)
    .filter((t) => t.balance_id === balance.id)
    .reduce((sum, t) => sum + cents(t.amount) - cents(t.fee), 0);
  return {
    id: balance.id,
    source_ref: { ...balance.source_ref },
    available_amount: available / 100,
    currency: balance.currency,
    create_date: balance.create_date,
  };
}

export function toTransactionItem(transaction: PaymentTransaction) {
  const { balance_id: _balance, location_id: _location, payout_id: _payout, ...wire } = transaction;
  return cloneRecord(wire);
}

export function toPaymentItem(payment: PaymentPayment) {
  const { location_id: _location, ...wire } = payment;
  return cloneRecord(wire);
}

/** Movements matching every filter, newest first. */
export function listTransactions(data: PaymentDataset, q: TransactionsQueryInput): PaymentTransaction[] {
  if (q.balance_id !== undefined && !own(data.balances, q.balance_id)) {
    throw verticalFailure(
      `The balance '${q.balance_id}' does not exist (GET .../payment/balances lists them)`,
    );
  }
  if (q.payout_id !== undefined && !own(data.payouts, q.payout_id)) {
    throw verticalFailure(`The payout '${q.payout_id}' does not exist (GET .../payment/payouts lists them)`);
  }
  const order = newestFirst<PaymentTransaction>((t) => t.create_date);
  let after: PaymentTransaction | undefined;
  if (q.starting_from !== undefined) {
    after = own(data.transactions, q.starting_from);
    if (!after) throw verticalFailure(`starting_from: the transaction '${q.starting_from}' does not exist`);
  }
  const category = q.accounting_category ?? 'all';
  return Object.values(data.transactions)
    .filter(
      (t) =>
        (category === 'all' || t.accounting_category === category) &&
        (q.balance_id === undefined || t.balance_id === q.balance_id) &&
        (q.payout_id === undefined || t.payout_id === q.payout_id) &&
        (q.location_id === undefined || t.location_id === q.location_id) &&
        within(t.create_date, q) &&
        (!after || order(t, after) < 0),
    )
    .sort(order);
}

export function listPayments(data: PaymentDataset, q: DateFilters): PaymentPayment[] {
  return Object.values(data.payments)
    .filter(
      (p) => (q.location_id === undefined || p.location_id === q.location_id) && within(p.payment_date, q),
    )
    .sort(newestFirst((p) => p.payment_date));
}

export function requirePayment(data: PaymentDataset, id: string): PaymentPayment {
  const payment = own(data.payments, id);
  if (!payment) throw serviceError('paymentNotFound', `No payment has the id '${id}'`);
  return payment;
}

export function listRefunds(data: PaymentDataset, q: DateFilters & { payment_id?: string | undefined }) {
  if (q.payment_id !== undefined && !own(data.payments, q.payment_id)) {
    throw verticalFailure(
      `The payment '${q.payment_id}' does not exist (GET .../payment/payments lists them)`,
    );
  }
  return Object.values(data.refunds)
    .filter(
      (r) =>
        (q.payment_id === undefined || r.payment_id === q.payment_id) &&
        (q.location_id === undefined || r.location_id === q.location_id) &&
        within(r.refund_date, q),
    )
    .sort(newestFirst((r) => r.refund_date))
    .map(({ location_id: _location, ...wire }) => cloneRecord(wire));
}

/** The payouts, newest first, each with its status at `now`. */
export function listPayouts(data: PaymentDataset, q: DateFilters, now: string) {
  return Object.values(data.payouts)
    .filter(
      (p) => (q.location_id === undefined || p.location_id === q.location_id) && within(p.payment_date, q),
    )
    .sort(newestFirst((p) => p.payment_date))
    .map(({ location_id: _location, balance_id: _balance, ...wire }) =>
      cloneRecord({ ...wire, status: payoutStatusAt(wire, now) }),
    );
}
