import { dayNumber, isoDay, LAST_DAY } from '../../../lib/calendar.js';
import { DatasetSeeder, type SeedInput } from '../../../platform/seeding/dataset-seeder.js';
import {
  addDays,
  amountBetween,
  at,
  dayBetween,
  round2,
  weekday,
} from '../../../platform/seeding/finance-fakes.js';
import {
  addMonths,
  daysBetween,
  historyStart,
  monthStart,
  monthsBetween,
} from '../../../platform/seeding/vertical-data.js';
import type { SourceRefValue } from '../../../store/world.js';
import type {
  PaymentBalance,
  PaymentDataset,
  PaymentLocation,
  PaymentPayment,
  PaymentPayout,
  PaymentRefund,
  PaymentStatusValue,
  PaymentTransaction,
} from '../model/payment.records.js';

/**
 * The seeded payment provider account of one connection, built from (seed, consumerid, connectionid)
 * and its `until` day alone, and the days after it from the clock's time and the world's pace.
 *
 * A merchant with two locations (a shop and a web shop), each with its own EUR balance. Card payments
 * of the year before `until` up to its eve (for the default clock, 2025-01-02 to 2026-01-14: most
 * completed, some failed or canceled, the last ones pending or authorized), and before them a few a
 * month back to January 2021; refunds of some of them, and the balance movements they make: a
 * payment brings its amount in and the provider's fee out, a refund takes its amount out, a monthly
 * subscription fee is charged. Every Monday the balance's net movements of before the Saturday are
 * paid out to the bank, arriving on Thursday (the last payout is still in transit), so a balance's
 * available amount is what has not been paid out yet: the sum of its unpaid movements.
 *
 * The business goes on after `until` as the clock moves, each record at its minute (see
 * livePaymentDays).
 */

/** The recent window starts on the 2nd of the month this many months before `until`'s. */
export const PAYMENT_RECENT_MONTHS = 12;

export const ref = (id: string, model: string): SourceRefValue => ({ id, model });

/** The provider's fee of a card payment: 1.4% plus 0.25. */
export const cardFee = (amount: number): number => round2(amount * 0.014 + 0.25);

/** The ids of a new balance movement: its own and its source's. */
export interface MovementIds {
  id: string;
  sourceId: string;
}

/** What a movement says of itself; the rest comes from its balance. */
export type MovementFields = Omit<
  PaymentTransaction,
  'id' | 'source_ref' | 'balance_id' | 'location_id' | 'currency' | 'exchange_rate' | 'payout_id'
>;

/** A movement of `balance`, not paid out yet (for the seeder and for fixtures). */
export const balanceMovement = (
  balance: PaymentBalance,
  ids: MovementIds,
  fields: MovementFields,
): PaymentTransaction => ({
  id: ids.id,
  source_ref: ref(ids.sourceId, 'balance_transaction'),
  balance_id: balance.id,
  location_id: balance.location_id,
  currency: balance.currency,
  exchange_rate: 1,
  payout_id: null,
  ...fields,
});

/** What a completed payment moves: its amount in, less the card fee. */
export const chargeFields = (payment: PaymentPayment): MovementFields => ({
  amount: payment.amount,
  fee: cardFee(payment.amount),
  create_date: payment.payment_date,
  application_type: 'charge',
  accounting_category: 'payment',
  refund_id: null,
  payment_id: payment.id,
  description: payment.description,
});

/** What a completed refund moves: its amount out, no fee. */
export const refundFields = (payment: PaymentPayment, refund: PaymentRefund): MovementFields => ({
  amount: -refund.amount,
  fee: 0,
  create_date: refund.refund_date,
  application_type: 'refund',
  accounting_category: 'payment_cancel',
  refund_id: refund.id,
  payment_id: payment.id,
  description: `Refund of ${payment.description}`,
});

/** What the provider's monthly subscription moves, charged on `day` (the first of the month). */
export const subscriptionFields = (day: string): MovementFields => ({
  amount: -19,
  fee: 0,
  create_date: at(day, 3),
  application_type: 'subscription_fee',
  accounting_category: 'fee',
  refund_id: null,
  payment_id: null,
  description: `Subscription ${day.slice(0, 7)}`,
});

/** How a refund of `payment` describes itself. */
export const refundDescription = (payment: PaymentPayment, full: boolean): string =>
  full ? `Refund of ${payment.description}` : `Partial refund of ${payment.description}`;

class PaymentSeeder extends DatasetSeeder<PaymentDataset> {
  /** The first day of the recent window (for the default clock, 2025-01-02). */
  readonly first = addDays(monthStart(addMonths(this.until, -PAYMENT_RECENT_MONTHS)), 1);
  /** The last day with activity: the eve of `until`. */
  readonly last = addDays(this.until, -1);
  /** The first day of the older history. */
  readonly origin = historyStart(this.until);
  /** The customers of each location, drawn once (the days after the history pay with them too). */
  readonly customers = new Map<string, string[]>();
  /** The refunds a payment of the last days drew for a day after the history's: the days to come make them. */
  readonly later: LaterRefund[] = [];

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
      create_date: at(this.origin, 8),
    };
    this.data.balances[balanceId] = balance;
    return { location, balance };
  }

  movement(balance: PaymentBalance, fields: MovementFields) {
    const id = this.id('transaction');
    this.data.transactions[id] = balanceMovement(balance, { id, sourceId: this.sourceId('txn') }, fields);
  }

  status(day: string): PaymentStatusValue {
    const recent = day >= addDays(this.until, -3);
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
    this.customers.set(location.id, customers);
    for (const day of daysBetween(this.first, this.last)) {
      if (!online && weekday(day) === 0) continue;
      // A couple of payments a week in each location keeps the year to a few hundred records.
      const count = f.helpers.weightedArrayElement([
        { weight: 6, value: 0 },
        { weight: 3, value: 1 },
        { weight: 1, value: 2 },
      ]);
      for (let i = 0; i < count; i++) this.payment(location, balance, online, day, customers);
    }
    // The provider's subscription, charged on the first of each month.
    for (let month = 1; month <= PAYMENT_RECENT_MONTHS; month++) {
      this.subscription(balance, addMonths(monthStart(this.first), month));
    }
  }

  /**
   * The older history, from its faker and ids (see `inHistory`), in the months wholly before the
   * recent window's: at each location one to three payments a month and the subscription, and a
   * refund a month (of a payment of the month that has none yet) when none came by chance.
   */
  history(locations: { location: PaymentLocation; balance: PaymentBalance; online: boolean }[]) {
    const f = this.faker;
    const refunded = new Set<string>();
    const refundMonths = new Set<string>();
    let seen = 0;
    for (const month of monthsBetween(this.origin, monthStart(this.first))) {
      const made: PaymentPayment[] = [];
      for (const { location, balance, online } of locations) {
        const customers = this.customers.get(location.id) ?? [];
        if (month.first > this.origin) this.subscription(balance, month.first);
        const days = Array.from({ length: f.number.int({ min: 1, max: 3 }) }, () =>
          dayBetween(f, month.first, month.last),
        )
          .map((day) => (!online && weekday(day) === 0 ? addDays(day, day < month.last ? 1 : -1) : day))
          .sort();
        for (const day of days) made.push(this.payment(location, balance, online, day, customers));
      }
      const refunds = Object.values(this.data.refunds);
      for (const r of refunds.slice(seen)) {
        refunded.add(r.payment_id);
        refundMonths.add(r.refund_date.slice(0, 7));
      }
      seen = refunds.length;
      if (refundMonths.has(month.month)) continue;
      // A payment of the month refunded within it, the day after at the earliest.
      const candidates = made.filter(
        (p) => p.status === 'completed' && p.payment_date.slice(0, 10) < month.last && !refunded.has(p.id),
      );
      const payment = candidates.length ? f.helpers.arrayElement(candidates) : undefined;
      const balance = locations.find((l) => l.location.id === payment?.location_id)?.balance;
      if (payment && balance) {
        this.refund(
          payment,
          balance,
          dayBetween(f, addDays(payment.payment_date.slice(0, 10), 1), month.last),
        );
      }
    }
  }

  payment(
    location: PaymentLocation,
    balance: PaymentBalance,
    online: boolean,
    day: string,
    customers: string[],
  ): PaymentPayment {
    const f = this.faker;
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
    if (status !== 'completed') return payment;
    this.movement(balance, chargeFields(payment));
    if (f.datatype.boolean(online ? 0.06 : 0.03)) this.refund(payment, balance);
    return payment;
  }

  /** The provider's subscription of the month of `day` (its first). */
  subscription(balance: PaymentBalance, day: string) {
    this.movement(balance, subscriptionFields(day));
  }

  /** A refund of `payment`, one to ten days after it unless `day` is given. */
  refund(
    payment: PaymentPayment,
    balance: PaymentBalance,
    day = addDays(payment.payment_date.slice(0, 10), this.faker.number.int({ min: 1, max: 10 })),
  ) {
    const f = this.faker;
    if (day > this.last) {
      this.later.push({ payment, day });
      return;
    }
    const full = f.datatype.boolean(0.6);
    const amount = full ? payment.amount : round2(payment.amount * f.number.float({ min: 0.2, max: 0.8 }));
    const id = this.id('refund');
    const stamp = at(day, f.number.int({ min: 9, max: 18 }), f.number.int({ min: 0, max: 59 }));
    const pending = day >= addDays(this.until, -2);
    const refund: PaymentRefund = {
      id,
      source_ref: ref(this.sourceId('re'), 'refund'),
      location_id: payment.location_id,
      payment_id: payment.id,
      status: pending ? 'pending' : 'completed',
      description: refundDescription(payment, full),
      amount,
      currency: payment.currency,
      refund_date: stamp,
    };
    this.data.refunds[id] = refund;
    if (pending) return;
    this.movement(balance, refundFields(payment, refund));
  }

  /**
   * Every Monday: the net of the balance's unpaid movements of before the Saturday, paid out. The
   * payouts of the older history draw from its faker and ids.
   */
  payouts(balance: PaymentBalance) {
    // Mondays, from the first after the history's first day.
    const start = addDays(this.origin, 1);
    const mint = (kind: 'payout' | 'transaction'): MovementIds => ({
      id: this.id(kind),
      sourceId: this.sourceId(kind === 'payout' ? 'po' : 'txn'),
    });
    weeklyPayouts(this.data, balance, nextMonday(start), this.last, this.until, (day, kind) =>
      day <= this.first ? this.inHistory(() => mint(kind)) : mint(kind),
    );
  }
}

/** The first Monday on or after `day`. */
export const nextMonday = (day: string): string => addDays(day, (8 - weekday(day)) % 7);

/**
 * Pays out a balance every Monday from `first` (a Monday) to `last`: the net of the movements no
 * payout has paid yet, once two days old (see payableMovements), when it comes to more than nothing;
 * otherwise they wait for the next Monday. The unpaid movements are sorted by time once, and each
 * Monday takes those before its cutoff. `ids` gives a payout's ids, then its movement's.
 */
export function weeklyPayouts(
  data: PaymentDataset,
  balance: PaymentBalance,
  first: string,
  last: string,
  until: string,
  ids: (day: string, kind: 'payout' | 'transaction') => MovementIds,
): { payout: PaymentPayout; movement: PaymentTransaction }[] {
  const unpaid = Object.values(data.transactions)
    .filter((t) => t.balance_id === balance.id && t.payout_id === null)
    .sort((a, b) => (a.create_date < b.create_date ? -1 : a.create_date > b.create_date ? 1 : 0));
  const made: { payout: PaymentPayout; movement: PaymentTransaction }[] = [];
  let from = 0;
  let to = 0;
  for (let n = dayNumber(first), end = Math.min(dayNumber(last), LAST_DAY); n <= end; n += 7) {
    const day = isoDay(n);
    const cutoff = at(addDays(day, -2), 0);
    while (to < unpaid.length && (unpaid[to] as PaymentTransaction).create_date < cutoff) to += 1;
    const movements = unpaid.slice(from, to);
    if (payoutNet(movements) <= 0) continue;
    made.push(payOut(data, balance, movements, day, until, (kind) => ids(day, kind)));
    from = to;
  }
  return made;
}

/** A payout reaches the bank three days after it is made (a Monday's on Thursday). */
const PAYOUT_TRANSIT_DAYS = 3;

/** The day a payout that reaches the bank on `arrival` (its payment_date) was made. */
export const payoutDayOf = (arrival: string): string => addDays(arrival, -PAYOUT_TRANSIT_DAYS);

/**
 * The movements of a balance a payout made on `day` pays out: those no payout has paid yet, once
 * two days old (for a Monday's, those of before the Saturday).
 */
export function payableMovements(
  data: PaymentDataset,
  balance: PaymentBalance,
  day: string,
): PaymentTransaction[] {
  const cutoff = at(addDays(day, -2), 0);
  return Object.values(data.transactions).filter(
    (t) => t.balance_id === balance.id && t.payout_id === null && t.create_date < cutoff,
  );
}

/** What a payout of `movements` transfers: the net they moved the balance by (amount - fee each). */
export const payoutNet = (movements: readonly PaymentTransaction[]): number =>
  movements.reduce((sum, t) => sum + Math.round((t.amount - t.fee) * 100), 0) / 100;

/**
 * The payout made on `day` of a balance's `movements`: their net transferred to the bank account,
 * arriving three days later (in transit while that day has not come before `until`, the day the
 * world's activity reaches), the movement that takes it out of the balance, and the movements marked
 * as paid by it. `ids` gives the payout's ids, then its movement's.
 */
export function payOut(
  data: PaymentDataset,
  balance: PaymentBalance,
  movements: readonly PaymentTransaction[],
  day: string,
  until: string,
  ids: (kind: 'payout' | 'transaction') => { id: string; sourceId: string },
): { payout: PaymentPayout; movement: PaymentTransaction } {
  const net = payoutNet(movements);
  const arrival = addDays(day, PAYOUT_TRANSIT_DAYS);
  const own = ids('payout');
  const payout: PaymentPayout = {
    id: own.id,
    source_ref: ref(own.sourceId, 'payout'),
    location_id: balance.location_id,
    balance_id: balance.id,
    status: arrival >= until ? 'in_transit' : 'paid',
    type: 'bank_account',
    amount: net,
    currency: balance.currency,
    fee: 0,
    extra_fee: null,
    payment_date: arrival,
  };
  data.payouts[payout.id] = payout;
  const out = ids('transaction');
  const movement: PaymentTransaction = {
    id: out.id,
    source_ref: ref(out.sourceId, 'balance_transaction'),
    balance_id: balance.id,
    location_id: balance.location_id,
    payout_id: payout.id,
    amount: -net,
    fee: 0,
    currency: balance.currency,
    exchange_rate: 1,
    create_date: at(day, 6),
    application_type: 'payout',
    accounting_category: 'payout',
    refund_id: null,
    payment_id: null,
    description: `Payout ${arrival}`,
  };
  data.transactions[movement.id] = movement;
  for (const t of movements) t.payout_id = payout.id;
  return { payout, movement };
}

/** A location of the provider, its balance, and whether it sells on the web. */
export interface PaymentSite {
  location: PaymentLocation;
  balance: PaymentBalance;
  online: boolean;
}

/** A refund a payment drew for a later day: made at its instant that day. */
interface LaterRefund {
  payment: PaymentPayment;
  day: string;
}

/** The history of a provider account, and what the days after it go on with. */
export interface PaymentHistory {
  data: PaymentDataset;
  sites: readonly PaymentSite[];
  customers: ReadonlyMap<string, readonly string[]>;
  /** The refunds the history's last payments drew for the days after it. */
  later: readonly LaterRefund[];
}

export function seedPaymentHistory(options: SeedInput): PaymentHistory {
  const s = new PaymentSeeder(options);
  const brand = s.faker.company.name();
  const city = s.faker.helpers.arrayElement(['Brussels', 'Ghent', 'Antwerp', 'Liège', 'Namur', 'Leuven']);
  const shop = s.location(`${brand} ${city}`);
  const web = s.location(`${brand} web shop`);
  s.payments(shop.location, shop.balance, false);
  s.payments(web.location, web.balance, true);
  const sites = [
    { ...shop, online: false },
    { ...web, online: true },
  ];
  s.inHistory(() => s.history(sites));
  s.payouts(shop.balance);
  s.payouts(web.balance);
  return { data: s.data, sites, customers: s.customers, later: s.later };
}

/** The seeded provider account up to the day of its first use (`until`), without the days after it. */
export const seedPayment = (options: SeedInput): PaymentDataset => seedPaymentHistory(options).data;

/** An instant `minute` minutes after midnight (UTC) of `day`. */
export const atMinuteOf = (day: string, minute: number): string =>
  at(day, Math.floor(minute / 60), minute % 60);

/**
 * The provider's own id of a record of the days after the history (its source_ref id): from the
 * record's id, in lower-case hex, where the history's ids are drawn and those of a fixture start
 * with an upper-case F.
 */
export const sourceOf = (prefix: string, id: string): string =>
  `${prefix}_${id.replace(/-/g, '').slice(-14)}`;

/** The hour a payout reaches the bank on the day of its arrival (noon, after the history's morning). */
const PAYOUT_ARRIVES = 12;

/** The instant a payout dated `arrival` (its payment_date) reaches the bank: from then on it is paid. */
const payoutArrival = (arrival: string): string => at(arrival, PAYOUT_ARRIVES);

/**
 * A payout's status at `now`: in transit until the instant it reaches the bank, paid from then. A
 * generated payout and one a client declared alike (what a client wrote keeps moving with the clock).
 */
export const payoutStatusAt = (
  payout: Pick<PaymentPayout, 'status' | 'payment_date'>,
  now: string,
): PaymentPayout['status'] =>
  payout.status === 'in_transit' && payoutArrival(payout.payment_date) <= now ? 'paid' : payout.status;
