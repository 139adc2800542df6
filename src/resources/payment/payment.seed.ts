import { DatasetSeeder, type SeedInput } from '../../seed/dataset-seeder.js';
import {
  addDays,
  amountBetween,
  at,
  FIRST_SEEDED_DAY,
  LAST_SEEDED_DAY,
  round2,
  weekday,
} from '../../seed/finance-fakes.js';
import type { SourceRefValue } from '../../store/world.js';
import type {
  PaymentBalance,
  PaymentDataset,
  PaymentLocation,
  PaymentPayment,
  PaymentStatusValue,
  PaymentTransaction,
} from './payment.records.js';

/**
 * The seeded payment provider account of one connection, built from (seed, consumerid, connectionid)
 * alone.
 *
 * A merchant with two locations (a shop and a web shop), each with its own EUR balance. Card payments
 * through 2025 up to 2026-01-14 (most completed, some failed or canceled, the last ones pending or
 * authorized), refunds of some of them, and the balance movements they make: a payment brings its
 * amount in and the provider's fee out, a refund takes its amount out, a monthly subscription fee is
 * charged. Every Monday the balance's net movements of before the Saturday are paid out to the bank,
 * arriving on Thursday (the last payout is still in transit), so a balance's available amount is
 * what has not been paid out yet: the sum of its unpaid movements.
 */

const ref = (id: string, model: string): SourceRefValue => ({ id, model });

/** The provider's fee of a card payment: 1.4% plus 0.25. */
export const cardFee = (amount: number): number => round2(amount * 0.014 + 0.25);

class PaymentSeeder extends DatasetSeeder<PaymentDataset> {
  constructor(options: SeedInput) {
    super('payment', options, {
      locations: {},
      balances: {},
      payments: {},
      refunds: {},
      transactions: {},
      payouts: {},
    });
  }

  /** The provider's own id of a record (its source_ref id): py_..., re_..., po_... */
  sourceId(prefix: string): string {
    return `${prefix}_${this.faker.string.alphanumeric({ length: 14 })}`;
  }

  location(name: string): { location: PaymentLocation; balance: PaymentBalance } {
    const id = this.id('location');
    const location = { id, name };
    this.data.locations[id] = location;
    const balanceId = this.id('balance');
    const balance: PaymentBalance = {
      id: balanceId,
      source_ref: ref(this.sourceId('bal'), 'balance'),
      location_id: id,
      currency: 'EUR',
      create_date: at(FIRST_SEEDED_DAY, 8),
    };
    this.data.balances[balanceId] = balance;
    return { location, balance };
  }

  movement(
    balance: PaymentBalance,
    fields: Omit<
      PaymentTransaction,
      'id' | 'source_ref' | 'balance_id' | 'location_id' | 'currency' | 'exchange_rate' | 'payout_id'
    >,
  ) {
    const id = this.id('transaction');
    this.data.transactions[id] = {
      id,
      source_ref: ref(this.sourceId('txn'), 'balance_transaction'),
      balance_id: balance.id,
      location_id: balance.location_id,
      currency: balance.currency,
      exchange_rate: 1,
      payout_id: null,
      ...fields,
    };
  }

  status(day: string): PaymentStatusValue {
    const recent = day >= '2026-01-12';
    return this.faker.helpers.weightedArrayElement(
      recent
        ? [
            { weight: 6, value: 'completed' as const },
            { weight: 2, value: 'pending' as const },
            { weight: 2, value: 'authorized' as const },
          ]
        : [
            { weight: 90, value: 'completed' as const },
            { weight: 6, value: 'failed' as const },
            { weight: 4, value: 'canceled' as const },
          ],
    );
  }

  payments(location: PaymentLocation, balance: PaymentBalance, online: boolean) {
    const f = this.faker;
    const customers = Array.from({ length: 25 }, () => `cus_${f.string.alphanumeric({ length: 14 })}`);
    for (let day = FIRST_SEEDED_DAY; day <= LAST_SEEDED_DAY; day = addDays(day, 1)) {
      if (!online && weekday(day) === 0) continue;
      // A couple of payments a week in each location keeps the year to a few hundred records.
      const count = f.helpers.weightedArrayElement([
        { weight: 6, value: 0 },
        { weight: 3, value: 1 },
        { weight: 1, value: 2 },
      ]);
      for (let i = 0; i < count; i++) {
        const id = this.id('payment');
        const stamp = at(
          day,
          f.number.int({ min: online ? 0 : 9, max: online ? 23 : 19 }),
          f.number.int({ min: 0, max: 59 }),
        );
        const amount = amountBetween(f, online ? 15 : 4, online ? 420 : 160);
        const status = this.status(day);
        const order = f.number.int({ min: 10000, max: 99999 });
        const payment: PaymentPayment = {
          id,
          source_ref: ref(this.sourceId('py'), 'payment'),
          location_id: location.id,
          status,
          description: online ? `Web order #${order}` : `Sale ${location.name} #${order}`,
          amount,
          currency: 'EUR',
          payment_date: stamp,
          partner_id: online || f.datatype.boolean(0.3) ? f.helpers.arrayElement(customers) : null,
        };
        this.data.payments[id] = payment;
        if (status !== 'completed') continue;
        this.movement(balance, {
          amount,
          fee: cardFee(amount),
          create_date: stamp,
          application_type: 'charge',
          accounting_category: 'payment',
          refund_id: null,
          payment_id: id,
          description: payment.description,
        });
        if (f.datatype.boolean(online ? 0.06 : 0.03)) this.refund(payment, balance);
      }
    }
    // The provider's subscription, charged on the first of each month.
    for (let month = 2; month <= 13; month++) {
      const day = month === 13 ? '2026-01-01' : `2025-${String(month).padStart(2, '0')}-01`;
      this.movement(balance, {
        amount: -19,
        fee: 0,
        create_date: at(day, 3),
        application_type: 'subscription_fee',
        accounting_category: 'fee',
        refund_id: null,
        payment_id: null,
        description: `Subscription ${day.slice(0, 7)}`,
      });
    }
  }

  refund(payment: PaymentPayment, balance: PaymentBalance) {
    const f = this.faker;
    const day = addDays(payment.payment_date.slice(0, 10), f.number.int({ min: 1, max: 10 }));
    if (day > LAST_SEEDED_DAY) return;
    const full = f.datatype.boolean(0.6);
    const amount = full ? payment.amount : round2(payment.amount * f.number.float({ min: 0.2, max: 0.8 }));
    const id = this.id('refund');
    const stamp = at(day, f.number.int({ min: 9, max: 18 }), f.number.int({ min: 0, max: 59 }));
    const pending = day >= '2026-01-13';
    this.data.refunds[id] = {
      id,
      source_ref: ref(this.sourceId('re'), 'refund'),
      location_id: payment.location_id,
      payment_id: payment.id,
      status: pending ? 'pending' : 'completed',
      description: full ? `Refund of ${payment.description}` : `Partial refund of ${payment.description}`,
      amount,
      currency: payment.currency,
      refund_date: stamp,
    };
    if (pending) return;
    this.movement(balance, {
      amount: -amount,
      fee: 0,
      create_date: stamp,
      application_type: 'refund',
      accounting_category: 'payment_cancel',
      refund_id: id,
      payment_id: payment.id,
      description: `Refund of ${payment.description}`,
    });
  }

  /** Every Monday: the net of the balance's unpaid movements of before the Saturday, paid out. */
  payouts(balance: PaymentBalance) {
    const movements = Object.values(this.data.transactions)
      .filter((t) => t.balance_id === balance.id)
      .sort((a, b) => a.create_date.localeCompare(b.create_date));
    for (let day = addDays(FIRST_SEEDED_DAY, 1); day <= LAST_SEEDED_DAY; day = addDays(day, 1)) {
      if (weekday(day) !== 1) continue;
      // Movements are paid out once two days old: those of before Saturday.
      const cutoff = at(addDays(day, -2), 0);
      const unpaid = movements.filter((t) => t.payout_id === null && t.create_date < cutoff);
      const net = unpaid.reduce((sum, t) => sum + Math.round((t.amount - t.fee) * 100), 0) / 100;
      if (net <= 0) continue;
      const id = this.id('payout');
      // The transfer reaches the bank on Thursday.
      const arrival = addDays(day, 3);
      const inTransit = arrival > LAST_SEEDED_DAY;
      this.data.payouts[id] = {
        id,
        source_ref: ref(this.sourceId('po'), 'payout'),
        location_id: balance.location_id,
        balance_id: balance.id,
        status: inTransit ? 'in_transit' : 'paid',
        type: 'bank_account',
        amount: net,
        currency: balance.currency,
        fee: 0,
        extra_fee: null,
        payment_date: arrival,
      };
      for (const t of unpaid) t.payout_id = id;
      const movementId = this.id('transaction');
      this.data.transactions[movementId] = {
        id: movementId,
        source_ref: ref(this.sourceId('txn'), 'balance_transaction'),
        balance_id: balance.id,
        location_id: balance.location_id,
        payout_id: id,
        amount: -net,
        fee: 0,
        currency: balance.currency,
        exchange_rate: 1,
        create_date: at(day, 6),
        application_type: 'payout',
        accounting_category: 'payout',
        refund_id: null,
        payment_id: null,
        description: `Payout ${addDays(day, 3)}`,
      };
    }
  }
}

export function seedPayment(options: SeedInput): PaymentDataset {
  const s = new PaymentSeeder(options);
  const brand = s.faker.company.name();
  const city = s.faker.helpers.arrayElement(['Brussels', 'Ghent', 'Antwerp', 'Liège', 'Namur', 'Leuven']);
  const shop = s.location(`${brand} ${city}`);
  const web = s.location(`${brand} web shop`);
  s.payments(shop.location, shop.balance, false);
  s.payments(web.location, web.balance, true);
  s.payouts(shop.balance);
  s.payouts(web.balance);
  return s.data;
}
