import { describe, expect, it } from 'vitest';
import { seedWorld } from '../../../src/control/seeded-world.js';
import * as P from '../../../src/modules/payment/api/payment.domain.js';
import type { TransactionsQueryInput } from '../../../src/modules/payment/api/payment.schemas.js';
import type * as R from '../../../src/modules/payment/model/payment.records.js';
import { buildPaymentDataset } from '../../../src/modules/payment/world/payment.living.js';
import {
  balanceMovement,
  payoutNet,
  payoutStatusAt,
} from '../../../src/modules/payment/world/payment.seed.js';
import { datasetStore, refusal } from '../domain-helpers.js';

/**
 * The Payment rules of payment.domain.ts, called directly: a balance's available amount derived from
 * its movements, the filters and the order of each list, and the look-ups they refuse. Each test
 * builds the seeded dataset, and replaces the records a table is about with records of known dates.
 */

const ARGS = { consumerid: 'consumer-a', connectionid: 'connection-a', integrationid: 90501 };
/** Seeded once (a payment dataset takes some 100 ms to build); each test works on a copy of its own. */
const SEEDED = buildPaymentDataset(7, ARGS);
const build = () => structuredClone(SEEDED);
const GENERIC = 'Error while trying to perform your request';

/** The refusal `act` throws, as status, message, error code and detail. */
const generic = (detail: string) => ({ status: 400, message: GENERIC, code: undefined, detail });
const ids = (items: { id: string }[]) => items.map((item) => item.id).join(' ');

/**
 * The seeded dataset with known records: movements t1-t5, payments p1-p3, refunds r1-r3 and payouts
 * po-1 to po-3, of the balances B1 and B2 (locations L1 and L2). `q` turns those names into ids.
 */
function dataset() {
  const data = build();
  const [b1, b2] = Object.values(data.balances) as [R.PaymentBalance, R.PaymentBalance];
  const names: Record<string, string> = { B1: b1.id, B2: b2.id, L1: b1.location_id, L2: b2.location_id };
  const name = (key: string) => names[key] ?? key;
  const balance = (key: string) => (key === 'B1' ? b1 : b2);
  /** Rows of words; '-' for null. */
  const rows = (table: string[]) =>
    table.map(
      (row) =>
        row.split(' ').map((w) => (w === '-' ? null : w)) as [string, string, string, string, string | null],
    );
  const fields = {
    amount: 10,
    fee: 0.39,
    application_type: 'charge',
    refund_id: null,
    payment_id: null,
    description: null,
  };
  data.transactions = {};
  for (const [id, key, create_date, category, payout_id] of rows([
    't1 B1 2025-03-01T09:00:00.000Z payment po-1',
    't2 B1 2025-03-01T09:00:00.000Z fee -',
    't3 B1 2025-03-02T00:00:00.000Z payment_cancel -',
    't4 B2 2025-03-02T23:59:59.999Z payment -',
    't5 B2 2025-03-03T06:00:00.000Z payout po-2',
  ])) {
    const accounting_category = category as R.PaymentAccountingCategory;
    const movement = balanceMovement(
      balance(key),
      { id, sourceId: `txn_${id}` },
      { ...fields, create_date, accounting_category },
    );
    data.transactions[id] = { ...movement, payout_id: payout_id ?? null };
  }
  const payment = Object.values(data.payments)[0] as R.PaymentPayment;
  data.payments = {};
  for (const [id, location, payment_date] of rows([
    'p1 L1 2025-03-01T10:00:00.000Z',
    'p2 L2 2025-03-01T10:00:00.000Z',
    'p3 L1 2025-03-05T00:00:00.000Z',
  ])) {
    data.payments[id] = { ...payment, id, location_id: name(location), payment_date };
  }
  const refund = Object.values(data.refunds)[0] as R.PaymentRefund;
  data.refunds = {};
  for (const [id, payment_id, location, refund_date] of rows([
    'r1 p1 L1 2025-03-02T09:00:00.000Z',
    'r2 p1 L1 2025-03-04T09:00:00.000Z',
    'r3 p2 L2 2025-03-03T09:00:00.000Z',
  ])) {
    data.refunds[id] = {
      ...refund,
      id,
      payment_id,
      location_id: name(location),
      refund_date: refund_date ?? '',
    };
  }
  const payout = Object.values(data.payouts)[0] as R.PaymentPayout;
  data.payouts = {};
  for (const [id, key, payment_date] of rows([
    'po-1 B1 2025-03-06',
    'po-2 B2 2025-03-06',
    'po-3 B1 2025-03-13',
  ])) {
    const { id: balance_id, location_id } = balance(key);
    data.payouts[id] = { ...payout, id, balance_id, location_id, payment_date };
  }
  /** A query whose B1, B2, L1 and L2 name the balances and locations. */
  const q = <T extends object>(query: T) =>
    Object.fromEntries(Object.entries(query).map(([k, v]) => [k, name(String(v))])) as T;
  return { data, b1, b2, q };
}

describe('the dataset of a connection', () => {
  it('is built from the seed on first use, kept in the store, and the same object afterwards', () => {
    const store = datasetStore(seedWorld(7));
    const before = Object.keys(store.world.payment_datasets).length;
    const first = P.paymentDatasetOf(store, 'consumer-a', 'connection-z', 90501);
    expect(Object.keys(store.world.payment_datasets)).toHaveLength(before + 1);
    expect(P.paymentDatasetOf(store, 'consumer-a', 'connection-z', 90501)).toBe(first);
    const args = { ...ARGS, connectionid: 'connection-z', until: store.today() };
    expect(JSON.stringify(first)).toBe(JSON.stringify(buildPaymentDataset(7, args)));
  });
});

describe('balances', () => {
  it.each([
    ['', 0],
    ['10 0.39', 9.61],
    ['0.1 0, 0.2 0', 0.3],
    ['100 1.65, -19 0, -40 0', 39.35],
    ['-19 0', -19],
    ['0.01 0.26', -0.25],
    ['12.34 0.42, -11.92 0', 0],
    ['19.99 0.53, 19.99 0.53, 19.99 0.53', 58.38],
  ])('makes movements (amount fee) %j an available amount of %d', (movements, expected) => {
    const { data, b1, b2 } = dataset();
    const fields = { create_date: '2025-03-01T00:00:00.000Z', application_type: 'charge' };
    const rest = {
      accounting_category: 'payment',
      refund_id: null,
      payment_id: null,
      description: null,
    } as const;
    const move = (id: string, balance: R.PaymentBalance, amount: number, fee: number) =>
      balanceMovement(balance, { id, sourceId: id }, { ...fields, ...rest, amount, fee });
    const table = movements ? movements.split(', ').map((m) => m.split(' ').map(Number)) : [];
    data.transactions = Object.fromEntries(
      table.map(([amount = 0, fee = 0], i) => [`m${i}`, move(`m${i}`, b1, amount, fee)]),
    );
    data.transactions.other = move('other', b2, 999, 0);
    const item = P.toBalanceItem(data, b1);
    expect(item).toEqual({
      id: b1.id,
      source_ref: b1.source_ref,
      available_amount: expected,
      currency: 'EUR',
      create_date: b1.create_date,
    });
    expect(item.source_ref).not.toBe(b1.source_ref);
  });

  it('holds, in a seeded balance, what no payout has paid out yet', () => {
    const data = build();
    for (const balance of Object.values(data.balances)) {
      const unpaid = Object.values(data.transactions).filter(
        (t) => t.balance_id === balance.id && !t.payout_id,
      );
      expect(P.toBalanceItem(data, balance).available_amount).toBe(payoutNet(unpaid));
    }
  });
});

describe('movements', () => {
  it('answers a movement without its balance, location and payout, as a copy', () => {
    const { data } = dataset();
    const record = data.transactions.t1 as R.PaymentTransaction;
    const item = P.toTransactionItem(record);
    const { balance_id: _b, location_id: _l, payout_id: _p, ...wire } = record;
    expect(item).toEqual(wire);
    item.source_ref.id = 'changed';
    expect(record.source_ref.id).toBe('txn_t1');
  });

  it.each<[Partial<TransactionsQueryInput>, string]>([
    [{}, 't5 t4 t3 t2 t1'],
    [{ accounting_category: 'all' }, 't5 t4 t3 t2 t1'],
    [{ accounting_category: 'payment' }, 't4 t1'],
    [{ accounting_category: 'fee' }, 't2'],
    [{ accounting_category: 'invoice' }, ''],
    [{ balance_id: 'B1' }, 't3 t2 t1'],
    [{ balance_id: 'B2' }, 't5 t4'],
    [{ payout_id: 'po-1' }, 't1'],
    [{ payout_id: 'po-3' }, ''],
    [{ location_id: 'L2' }, 't5 t4'],
    [{ location_id: 'nowhere' }, ''],
    [{ date_from: '2025-03-02' }, 't5 t4 t3'],
    [{ date_to: '2025-03-02' }, 't4 t3 t2 t1'],
    [{ date_from: '2025-03-01', date_to: '2025-03-01' }, 't2 t1'],
    [{ date_from: '2025-03-03', date_to: '2025-03-01' }, ''],
    [{ starting_from: 't3' }, 't5 t4'],
    [{ starting_from: 't1' }, 't5 t4 t3 t2'],
    [{ starting_from: 't2' }, 't5 t4 t3'],
    [{ starting_from: 't5' }, ''],
    [{ balance_id: 'B1', starting_from: 't1' }, 't3 t2'],
    [{ balance_id: 'B1', accounting_category: 'payment', date_from: '2025-03-01' }, 't1'],
  ])('lists the movements of %j, newest first: %s', (query, expected) => {
    const { data, q } = dataset();
    expect(ids(P.listTransactions(data, { page: 1, size: 50, ...q(query) }))).toBe(expected);
  });

  it.each<[Partial<TransactionsQueryInput>, string]>([
    [{ balance_id: 'nope' }, "The balance 'nope' does not exist (GET .../payment/balances lists them)"],
    [
      { balance_id: 'constructor' },
      "The balance 'constructor' does not exist (GET .../payment/balances lists them)",
    ],
    [{ balance_id: '' }, "The balance '' does not exist (GET .../payment/balances lists them)"],
    [{ payout_id: 'nope' }, "The payout 'nope' does not exist (GET .../payment/payouts lists them)"],
    [{ starting_from: 'nope' }, "starting_from: the transaction 'nope' does not exist"],
    [{ starting_from: '__proto__' }, "starting_from: the transaction '__proto__' does not exist"],
    [
      { balance_id: 'x', payout_id: 'y', starting_from: 'z' },
      "The balance 'x' does not exist (GET .../payment/balances lists them)",
    ],
    [
      { payout_id: 'y', starting_from: 'z' },
      "The payout 'y' does not exist (GET .../payment/payouts lists them)",
    ],
  ])('refuses the movements of %j', (query, detail) => {
    const { data } = dataset();
    expect(refusal(() => P.listTransactions(data, { page: 1, size: 50, ...query }))).toEqual(generic(detail));
  });
});

describe('payments, refunds and payouts', () => {
  it.each([
    [{}, 'p3 p2 p1'],
    [{ location_id: 'L1' }, 'p3 p1'],
    [{ location_id: 'nowhere' }, ''],
    [{ date_from: '2025-03-02' }, 'p3'],
    [{ date_to: '2025-03-01' }, 'p2 p1'],
    [{ date_from: '2025-03-05', date_to: '2025-03-05' }, 'p3'],
    [{ date_from: '2025-03-05', date_to: '2025-03-04' }, ''],
  ])('lists the payments of %j, newest first: %s', (query, expected) => {
    const { data, q } = dataset();
    expect(ids(P.listPayments(data, q(query)))).toBe(expected);
  });

  it('answers a payment without its location, as a copy', () => {
    const { data } = dataset();
    const record = P.requirePayment(data, 'p1');
    expect(record).toBe(data.payments.p1);
    const { location_id: _l, ...wire } = record;
    const item = P.toPaymentItem(record);
    expect(item).toEqual(wire);
    item.source_ref.id = 'changed';
    expect(record.source_ref.id).not.toBe('changed');
  });

  it.each(['nope', '__proto__', 'hasOwnProperty', ''])('refuses the payment %j', (id) => {
    const { data } = dataset();
    expect(refusal(() => P.requirePayment(data, id))).toEqual({
      status: 404,
      message: 'The payment was not found',
      code: 'ERROR_PAYMENT_NOT_FOUND',
      detail: `No payment has the id '${id}'`,
    });
  });

  it.each([
    [{}, 'r2 r3 r1'],
    [{ payment_id: 'p1' }, 'r2 r1'],
    [{ payment_id: 'p3' }, ''],
    [{ location_id: 'L2' }, 'r3'],
    [{ location_id: 'nowhere' }, ''],
    [{ date_from: '2025-03-03', date_to: '2025-03-03' }, 'r3'],
    [{ payment_id: 'p1', date_to: '2025-03-03' }, 'r1'],
    [{ date_from: '2025-03-05' }, ''],
  ])('lists the refunds of %j, newest first: %s', (query, expected) => {
    const { data, q } = dataset();
    const refunds = P.listRefunds(data, q(query));
    expect(ids(refunds)).toBe(expected);
    for (const refund of refunds) expect(Object.keys(refund)).not.toContain('location_id');
  });

  it.each(['nope', 'toString'])('refuses the refunds of the payment %j', (payment_id) => {
    const { data } = dataset();
    const detail = `The payment '${payment_id}' does not exist (GET .../payment/payments lists them)`;
    expect(refusal(() => P.listRefunds(data, { payment_id }))).toEqual(generic(detail));
  });

  it.each([
    [{}, 'po-3 po-2 po-1'],
    [{ location_id: 'L1' }, 'po-3 po-1'],
    [{ location_id: 'nowhere' }, ''],
    [{ date_from: '2025-03-07' }, 'po-3'],
    [{ date_to: '2025-03-06' }, 'po-2 po-1'],
    [{ date_from: '2025-03-06', date_to: '2025-03-06' }, 'po-2 po-1'],
    [{ date_from: '2025-03-14' }, ''],
  ])('lists the payouts of %j, newest first: %s', (query, expected) => {
    const { data, q } = dataset();
    const payouts = P.listPayouts(data, q(query), '2025-03-20T00:00:00.000Z');
    expect(ids(payouts)).toBe(expected);
    for (const payout of payouts) expect(Object.keys(payout)).not.toContain('balance_id');
    for (const payout of payouts) expect(Object.keys(payout)).not.toContain('location_id');
  });

  it.each([
    ['in_transit', '2025-03-13T23:59:00.000Z', 'in_transit'],
    ['in_transit', '2025-03-14T12:00:00.000Z', 'paid'],
    ['failed', '2025-03-20T00:00:00.000Z', 'failed'],
    ['paid', '2025-03-01T00:00:00.000Z', 'paid'],
  ] as const)('a payout %s, reaching the bank at noon on 2025-03-14, at %s: %s', (status, now, expected) => {
    expect(payoutStatusAt({ status, payment_date: '2025-03-14' }, now)).toBe(expected);
  });

  it('answers refunds and payouts as copies', () => {
    const { data } = dataset();
    const [refund] = P.listRefunds(data, { payment_id: 'p2' });
    const [payout] = P.listPayouts(data, { date_from: '2025-03-13' }, '2025-03-20T00:00:00.000Z');
    if (refund) refund.amount = -1;
    if (payout) payout.amount = -1;
    expect([data.refunds.r3?.amount, data.payouts['po-3']?.amount]).not.toContain(-1);
  });
});
