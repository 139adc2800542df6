import { beforeEach, describe, expect, it } from 'vitest';
import { errors, serviceError } from '../../../src/lib/errors.js';
import {
  BalanceItemOut,
  PaymentItemOut,
  PaymentLocationItem,
  PayoutItemOut,
  RefundItemOut,
  TransactionItemOut,
} from '../../../src/modules/payment/api/payment.schemas.js';
import { expectError, expectValidation } from '../../helpers.js';
import {
  all,
  cents,
  expectFailure,
  forVertical,
  type VerticalSandbox,
  verticalSandbox,
} from '../verticals/finance-helpers.js';

/** The Payment vertical through HTTP: payments, refunds, balance movements, payouts, and their sums. */

let v: VerticalSandbox;

beforeEach(async () => {
  v = await verticalSandbox('payment');
});

// biome-ignore lint/suspicious/noExplicitAny: items are read field by field
type Item = any;

const keysOf = (schema: { shape: object }) => Object.keys(schema.shape).sort();
const net = (items: Item[]) => items.reduce((s, t) => s + cents(t.amount) - cents(t.fee), 0);

describe('payment: locations, balances and what they hold', () => {
  it('lists two locations, each with an EUR balance', async () => {
    const locations = await all(v, '/locations');
    expect(locations).toHaveLength(2);
    for (const l of locations)
      expect(Object.keys(PaymentLocationItem.parse(l)).sort()).toEqual(keysOf(PaymentLocationItem));
    const balances = await all(v, '/balances');
    expect(balances).toHaveLength(2);
    for (const b of balances) {
      expect(Object.keys(BalanceItemOut.parse(b)).sort()).toEqual(keysOf(BalanceItemOut));
      expect(b.currency).toBe('EUR');
    }
  });

  it('a balance holds the net of its movements, which is what has not been paid out yet', async () => {
    for (const balance of await all(v, '/balances')) {
      const movements = await all(v, `/transactions?balance_id=${balance.id}`);
      expect(movements.length).toBeGreaterThan(50);
      expect(cents(balance.available_amount)).toBe(net(movements));
      expect(balance.available_amount).toBeGreaterThanOrEqual(0);
    }
  });

  it('a payout pays out the net of its movements, and its own movement takes it out', async () => {
    const payouts = await all(v, '/payouts');
    expect(payouts.length).toBeGreaterThan(50);
    expect(payouts.filter((p) => p.status === 'in_transit').length).toBeGreaterThan(0);
    for (const payout of payouts.slice(0, 12)) {
      expect(Object.keys(PayoutItemOut.parse(payout)).sort()).toEqual(keysOf(PayoutItemOut));
      const movements = await all(v, `/transactions?payout_id=${payout.id}`);
      const own = movements.filter((t) => t.accounting_category === 'payout');
      expect(own).toHaveLength(1);
      expect(own[0].amount).toBe(-payout.amount);
      expect(net(movements.filter((t) => t.accounting_category !== 'payout'))).toBe(cents(payout.amount));
      expect(payout.amount).toBeGreaterThan(0);
    }
  });
});

describe('payment: payments and refunds', () => {
  it('lists payments newest first; completed ones bring their amount in, less the fee', async () => {
    const payments = await all(v, '/payments');
    expect(payments.length).toBeGreaterThan(100);
    const statuses = new Set(payments.map((p) => p.status));
    for (const s of ['completed', 'failed', 'canceled']) expect(statuses).toContain(s);
    const dates = payments.map((p) => p.payment_date);
    expect(dates).toEqual([...dates].sort().reverse());
    const movements = await all(v, '/transactions?accounting_category=payment');
    const byPayment = new Map(movements.map((t) => [t.payment_id, t]));
    for (const p of payments) {
      expect(Object.keys(PaymentItemOut.parse(p)).sort()).toEqual(keysOf(PaymentItemOut));
      expect(p.payment_date < '2026-01-15').toBe(true);
      const movement = byPayment.get(p.id);
      if (p.status === 'completed') {
        expect(movement.amount).toBe(p.amount);
        // 1.4% + 0.25, to the cent.
        expect(Math.abs(cents(movement.fee) - (p.amount * 1.4 + 25))).toBeLessThanOrEqual(0.5001);
      } else {
        expect(movement).toBeUndefined();
      }
    }
  });

  it('reads one payment; a missing one is the documented 404', async () => {
    const [first] = (await v.get('/payments?size=1')).body.items;
    expect((await v.get(`/payments/${first.id}`)).body).toEqual(first);
    const missing = await v.get('/payments/nope');
    expectError(missing, serviceError('paymentNotFound'));
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({
      message: 'The payment was not found',
      error_code: 'ERROR_PAYMENT_NOT_FOUND',
    });
  });

  it('refunds refer to completed payments, for at most their amount, and take it out of the balance', async () => {
    const payments = new Map((await all(v, '/payments')).map((p) => [p.id, p]));
    const refunds = await all(v, '/refunds');
    expect(refunds.length).toBeGreaterThan(3);
    const movements = await all(v, '/transactions?accounting_category=payment_cancel');
    for (const r of refunds) {
      expect(Object.keys(RefundItemOut.parse(r)).sort()).toEqual(keysOf(RefundItemOut));
      const payment = payments.get(r.payment_id);
      expect(payment.status).toBe('completed');
      expect(r.amount).toBeLessThanOrEqual(payment.amount);
      expect(r.refund_date > payment.payment_date).toBe(true);
      const movement = movements.find((t) => t.refund_id === r.id);
      if (r.status === 'completed')
        expect(movement).toMatchObject({ amount: -r.amount, payment_id: r.payment_id, fee: 0 });
      else expect(movement).toBeUndefined();
    }
    const one = refunds[0];
    const ofPayment = await all(v, `/refunds?payment_id=${one.payment_id}`);
    expect(ofPayment.map((r) => r.id)).toEqual(
      refunds.filter((r) => r.payment_id === one.payment_id).map((r) => r.id),
    );
  });

  it('filters payments, refunds and payouts by location and dates', async () => {
    const [shop, web] = await all(v, '/locations');
    const payments = await all(v, '/payments');
    const atShop = await all(v, `/payments?location_id=${shop.id}`);
    const atWeb = await all(v, `/payments?location_id=${web.id}`);
    expect(atShop.length).toBeGreaterThan(0);
    expect(atShop.length + atWeb.length).toBe(payments.length);
    expect(atWeb.every((p) => p.description.startsWith('Web order'))).toBe(true);
    const june = await all(v, '/payments?date_from=2025-06-01&date_to=2025-06-30');
    expect(june.map((p) => p.id)).toEqual(
      payments
        .filter((p) => p.payment_date >= '2025-06-01' && p.payment_date < '2025-07-01')
        .map((p) => p.id),
    );
    const payouts = await all(v, '/payouts');
    const shopPayouts = await all(v, `/payouts?location_id=${shop.id}`);
    expect(shopPayouts.length).toBeGreaterThan(0);
    expect(shopPayouts.length).toBeLessThan(payouts.length);
    const q3 = await all(v, '/payouts?date_from=2025-07-01&date_to=2025-09-30');
    expect(q3.map((p) => p.id)).toEqual(
      payouts
        .filter((p) => p.payment_date >= '2025-07-01' && p.payment_date <= '2025-09-30')
        .map((p) => p.id),
    );
    const refunds = await all(v, '/refunds');
    const webRefunds = await all(v, `/refunds?location_id=${web.id}`);
    const webIds = new Set(atWeb.map((p) => p.id));
    expect(webRefunds.map((r) => r.id)).toEqual(
      refunds.filter((r) => webIds.has(r.payment_id)).map((r) => r.id),
    );
    const late = await all(v, '/refunds?date_from=2025-10-01');
    expect(late.every((r) => r.refund_date >= '2025-10-01')).toBe(true);
  });
});

describe('payment: balance movements', () => {
  it('lists movements newest first, every field filled as typed', async () => {
    const movements = await all(v, '/transactions');
    const dates = movements.map((t) => t.create_date);
    expect(dates).toEqual([...dates].sort().reverse());
    for (const t of movements) {
      expect(Object.keys(TransactionItemOut.parse(t)).sort()).toEqual(keysOf(TransactionItemOut));
      expect(t.exchange_rate).toBe(1);
    }
    const categories = new Set(movements.map((t) => t.accounting_category));
    expect([...categories].sort()).toEqual(['fee', 'payment', 'payment_cancel', 'payout']);
  });

  it.each(['payment', 'payment_cancel', 'fee', 'payout', 'invoice'])(
    'filters by accounting_category=%s',
    async (category) => {
      const every = await all(v, '/transactions');
      const some = await all(v, `/transactions?accounting_category=${category}`);
      expect(some.map((t) => t.id)).toEqual(
        every.filter((t) => t.accounting_category === category).map((t) => t.id),
      );
      expect((await all(v, '/transactions?accounting_category=all')).length).toBe(every.length);
    },
  );

  it('starting_from lists only the movements more recent than the one given', async () => {
    const every = await all(v, '/transactions');
    const pivot = every[10];
    const newer = await all(v, `/transactions?starting_from=${pivot.id}`);
    expect(newer.map((t) => t.id)).toEqual(every.slice(0, 10).map((t) => t.id));
    expect((await all(v, `/transactions?starting_from=${every[0].id}`)).length).toBe(0);
  });

  it('filters movements by balance, location and dates', async () => {
    const [shop] = await all(v, '/locations');
    const every = await all(v, '/transactions');
    const balances = await all(v, '/balances');
    const perBalance = await Promise.all(balances.map((b) => all(v, `/transactions?balance_id=${b.id}`)));
    expect(perBalance.reduce((n, list) => n + list.length, 0)).toBe(every.length);
    const atShop = await all(v, `/transactions?location_id=${shop.id}`);
    expect(perBalance.some((list) => JSON.stringify(list) === JSON.stringify(atShop))).toBe(true);
    const december = await all(v, '/transactions?date_from=2025-12-01&date_to=2025-12-31');
    expect(december.map((t) => t.id)).toEqual(
      every.filter((t) => t.create_date >= '2025-12-01' && t.create_date < '2026-01-01').map((t) => t.id),
    );
  });

  it.each([
    ['/transactions?balance_id=nope', "The balance 'nope' does not exist"],
    ['/transactions?payout_id=nope', "The payout 'nope' does not exist"],
    ['/transactions?starting_from=nope', "starting_from: the transaction 'nope' does not exist"],
    ['/refunds?payment_id=nope', "The payment 'nope' does not exist"],
  ])('GET %s names an id that does not exist', async (path, detail) => {
    expectFailure(await v.get(path), detail);
  });

  it.each(['/transactions', '/payments', '/refunds', '/payouts'])(
    'GET %s?location_id= of no location matches nothing (an empty list)',
    async (path) => {
      const res = await v.get(`${path}?location_id=nope`);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ items: [], total: 0 });
    },
  );

  it.each([
    ['/transactions?accounting_category=charge', ['query', 'accounting_category']],
    ['/transactions?date_from=2025-02-30', ['query', 'date_from']],
    ['/payments?size=0', ['query', 'size']],
    ['/refunds?page=-1', ['query', 'page']],
    ['/payouts?date_to=tomorrow', ['query', 'date_to']],
    ['/locations?size=101', ['query', 'size']],
  ])('validates %s', async (path, loc) => {
    expectValidation(await v.get(path), loc);
  });
});

describe('payment: who may call', () => {
  it.each(['/locations', '/balances', '/transactions', '/payments', '/payments/x', '/refunds', '/payouts'])(
    'GET %s needs a Payment connection, and an existing consumer',
    async (path) => {
      const other = forVertical(v, v.token, v.ids.verticalConsumers.BANKING as string, 'payment');
      expectFailure(await other.get(path), 'The consumer has no active connection to a Payment integration');
      const missing = forVertical(v, v.token, '00000000-0000-4000-8000-000000000009', 'payment');
      expectError(await missing.get(path), errors.consumerNotFound());
    },
  );

  it('pages: a page past the end is empty, with the right total', async () => {
    const first = await v.get('/payments?size=7');
    expect(first.body.items).toHaveLength(7);
    const past = await v.get('/payments?page=500&size=7');
    expect(past.body).toEqual({ items: [], total: first.body.total, page: 500, size: 7 });
  });
});
