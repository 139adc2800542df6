import { isoDay } from '../../../lib/calendar.js';
import { NORMAL_PACE, type PaceOf } from '../../../lib/pace.js';
import { runAtOnce, type Sliced } from '../../../lib/slices.js';
import type { ConnectionDatasetArgs } from '../../../platform/datasets.js';
import { drawnSpan, type SeedInput, seedInputOf, untilOf } from '../../../platform/seeding/dataset-seeder.js';
import { addDays, amountBetween, at, round2, weekday } from '../../../platform/seeding/finance-fakes.js';
import {
  activityEnd,
  connectionIds,
  type Faker,
  fakerFor,
  reseed,
} from '../../../platform/seeding/vertical-data.js';
import type {
  PaymentBalance,
  PaymentDataset,
  PaymentPayment,
  PaymentRefund,
} from '../model/payment.records.js';
import {
  atMinuteOf,
  balanceMovement,
  chargeFields,
  type MovementFields,
  nextMonday,
  type PaymentHistory,
  type PaymentSite,
  payoutStatusAt,
  ref,
  refundDescription,
  refundFields,
  seedPaymentHistory,
  sourceOf,
  subscriptionFields,
  weeklyPayouts,
} from './payment.seed.js';

/**
 * The days after a payment provider account's history: the business each day draws, as it
 * happens (livePaymentDays), and the module's build of a dataset.
 */

/** Payments a usual day takes at each location: none, one, now and then two (as the history draws). */
const PAYMENTS_PER_DAY = 0.5;
/** The minute of the day the shop opens (09:00) and of its last sale (19:59); the web shop never closes. */
const SHOP_OPENS = 9 * 60;
const SHOP_CLOSES = 19 * 60 + 59;
/** The minute the history's morning ends on the day the history ends (09:00, see activityEnd). */
const MORNING = 9 * 60;
/** Refunds are made in office hours, from 09:00 to 18:59. */
const REFUNDS_FROM = 9 * 60;
const REFUNDS_TO = 18 * 60 + 59;

/**
 * How busy a day is at a location against a usual weekday: the shop is closed on Sundays, both are
 * quieter at weekends, and December (the gifts) busies both.
 */
function busyness(site: PaymentSite, day: string): number {
  const weekend = weekday(day);
  if (!site.online && weekend === 0) return 0;
  return (weekend === 0 || weekend === 6 ? 0.7 : 1) * (day.slice(5, 7) === '12' ? 1.3 : 1);
}

/** A count drawn around `mean` (Poisson): around a half, mostly none or one, now and then two. */
function countAround(faker: Faker, mean: number): number {
  const drawn = faker.number.float();
  let count = 0;
  let chance = Math.exp(-mean);
  let below = chance;
  while (drawn >= below && count < 100) {
    count += 1;
    chance *= mean / count;
    below += chance;
  }
  return count;
}

/**
 * What the days after a history draw, into its dataset: the days are drawn whole, whatever `now`;
 * the records `now` has not reached yet are noted (`ahead`) and taken out once everything is drawn.
 */
class PaymentDays {
  readonly data: PaymentDataset;
  readonly ahead = { payments: [] as string[], refunds: [] as string[], transactions: [] as string[] };
  readonly id: (kind: string, ...parts: (string | number)[]) => string;
  readonly faker = fakerFor('payment-day');
  readonly siteOf: Map<string, PaymentSite>;
  /** The refunds the history's last payments drew for each day after it, in the order they were drawn. */
  readonly due = new Map<string, PaymentPayment[]>();

  constructor(
    readonly history: PaymentHistory,
    readonly input: SeedInput,
    readonly until: string,
    /** The last day drawn, and the instant the build shows. */
    readonly last: string,
    readonly now: string,
  ) {
    this.data = history.data;
    this.id = connectionIds('payment-day', this.data.connectionid);
    this.siteOf = new Map(history.sites.map((site) => [site.location.id, site]));
    for (const { payment, day } of history.later) this.due.set(day, [...(this.due.get(day) ?? []), payment]);
  }

  move(balance: PaymentBalance, movementId: string, fields: MovementFields): void {
    const ids = { id: movementId, sourceId: sourceOf('txn', movementId) };
    this.data.transactions[movementId] = balanceMovement(balance, ids, fields);
    if (fields.create_date > this.now) this.ahead.transactions.push(movementId);
  }

  refund(payment: PaymentPayment, day: string, full: boolean, share: number, minute: number): void {
    const site = this.siteOf.get(payment.location_id) as PaymentSite;
    const refundId = this.id('refund', payment.id);
    const made: PaymentRefund = {
      id: refundId,
      source_ref: ref(sourceOf('re', refundId), 'refund'),
      location_id: payment.location_id,
      payment_id: payment.id,
      status: 'completed',
      description: refundDescription(payment, full),
      amount: full ? payment.amount : round2(payment.amount * share),
      currency: payment.currency,
      refund_date: atMinuteOf(day, minute),
    };
    this.data.refunds[refundId] = made;
    if (made.refund_date > this.now) this.ahead.refunds.push(refundId);
    this.move(site.balance, this.id('movement', refundId), refundFields(payment, made));
  }

  /** One day: its payments at each site (and the refunds they draw), the subscription, the refunds due. */
  day(day: string, pace: PaceOf): void {
    const { faker } = this;
    reseed(faker, 'payment-day', this.input.seed, this.data.connectionid, day);
    const opening = day === this.until ? MORNING + 1 : 0;
    let index = 0;
    for (const site of this.history.sites) index = this.payments(site, day, opening, index, pace);
    if (day > this.until && day.endsWith('-01')) {
      for (const { balance } of this.history.sites) {
        this.move(balance, this.id('subscription', day, balance.id), subscriptionFields(day));
      }
    }
    // The refunds the history's last payments drew for this day, drawn with the day's own faker.
    for (const payment of this.due.get(day) ?? []) {
      const full = faker.datatype.boolean(0.6);
      const share = faker.number.float({ min: 0.2, max: 0.8 });
      const minute = faker.number.int({ min: Math.max(opening, REFUNDS_FROM), max: REFUNDS_TO });
      this.refund(payment, day, full, share, minute);
    }
  }

  /** A site's payments of the day (numbered on from `index`, which it returns), with their fates. */
  payments(site: PaymentSite, day: string, opening: number, index: number, pace: PaceOf): number {
    const { faker } = this;
    const { location, balance, online } = site;
    const count = countAround(faker, PAYMENTS_PER_DAY * busyness(site, day) * pace(day));
    const minutes = Array.from({ length: count }, () =>
      faker.number.int({
        min: Math.max(opening, online ? 0 : SHOP_OPENS),
        max: online ? 24 * 60 - 1 : SHOP_CLOSES,
      }),
    ).sort((a, b) => a - b);
    const customers = this.history.customers.get(location.id) ?? [];
    let n = index;
    for (const minute of minutes) {
      n += 1;
      const paymentId = this.id('payment', day, n);
      const amount = amountBetween(faker, online ? 15 : 4, online ? 420 : 160);
      const status = faker.helpers.weightedArrayElement([
        { weight: 90, value: 'completed' as const },
        { weight: 6, value: 'failed' as const },
        { weight: 4, value: 'canceled' as const },
      ]);
      const order = faker.number.int({ min: 10000, max: 99999 });
      const customer = online || faker.datatype.boolean(0.3);
      const payment: PaymentPayment = {
        id: paymentId,
        source_ref: ref(sourceOf('py', paymentId), 'payment'),
        location_id: location.id,
        status,
        description: online ? `Web order #${order}` : `Sale ${location.name} #${order}`,
        amount,
        currency: balance.currency,
        payment_date: atMinuteOf(day, minute),
        partner_id: customer && customers.length > 0 ? faker.helpers.arrayElement(customers) : null,
      };
      this.data.payments[paymentId] = payment;
      if (payment.payment_date > this.now) this.ahead.payments.push(paymentId);
      if (status !== 'completed') continue;
      this.move(balance, this.id('movement', paymentId), chargeFields(payment));
      // Its fate, drawn today: a refund one to ten days later, made at its instant.
      if (!faker.datatype.boolean(online ? 0.06 : 0.03)) continue;
      const on = addDays(day, faker.number.int({ min: 1, max: 10 }));
      const full = faker.datatype.boolean(0.6);
      const share = faker.number.float({ min: 0.2, max: 0.8 });
      const time = faker.number.int({ min: REFUNDS_FROM, max: REFUNDS_TO });
      if (on <= this.last) this.refund(payment, on, full, share, time);
    }
    return n;
  }

  /** The weekly payouts of the days drawn, then what `now` has not reached taken out. */
  finish(today: string): void {
    const { data, now, until } = this;
    for (const { balance } of this.history.sites) {
      const made = weeklyPayouts(data, balance, nextMonday(until), this.last, today, (day, kind) => {
        const own = this.id(kind, day, balance.id);
        return { id: own, sourceId: sourceOf(kind === 'payout' ? 'po' : 'txn', own) };
      });
      for (const { payout, movement } of made) {
        // On the Monday the history ends, the payout leaves after the morning the history holds.
        if (movement.create_date.slice(0, 10) === until) movement.create_date = at(until, 12);
        // A payout that has not left yet (the clock's Monday, before it leaves) is not there, and the
        // movements it pays out wait for it, unpaid.
        if (movement.create_date <= now) continue;
        delete data.payouts[payout.id];
        delete data.transactions[movement.id];
        for (const t of Object.values(data.transactions)) if (t.payout_id === payout.id) t.payout_id = null;
      }
    }
    for (const paymentId of this.ahead.payments) delete data.payments[paymentId];
    for (const refundId of this.ahead.refunds) delete data.refunds[refundId];
    for (const movementId of this.ahead.transactions) delete data.transactions[movementId];
    // A payout is paid from the instant it reaches the bank.
    for (const payout of Object.values(data.payouts)) payout.status = payoutStatusAt(payout, now);
  }
}

/**
 * The business of the days after the history: each day's payments are drawn from the seed, the
 * connection and the day alone, whole, so a day reads the same whenever it is built, and the days
 * already there never change when the clock adds more. What a build shows is what happened up to
 * `now` (the clock's time to the minute), from the morning its history ends (09:00) on:
 * each record appears at its own instant, a whole minute.
 *
 * - Payments: about one every other day at each location (the shop closed on Sundays, both quieter
 *   at weekends, busier in December), times the world's pace; most completed, some failed or
 *   canceled, as the history's, each bringing its amount in less the card fee when completed. A
 *   payment and its movement appear at its instant, final.
 * - Refunds: a completed payment draws on its day whether it will be refunded (6% on the web, 3% at
 *   the shop) and when (one to ten days later, in office hours); the refund, and its movement, appear
 *   at that instant, completed. The refunds the history's last payments drew for these days come the
 *   same way.
 * - The subscription on the first of each month, at 03:00.
 * - Payouts every Monday, as the history's (see weeklyPayouts): the payout and its movement appear
 *   when it leaves (06:00, or 12:00 on the Monday the history ends), in transit; it is paid from the
 *   instant it reaches the bank, noon on its day (the history's last ones too).
 */
export function* livePaymentDays(
  history: PaymentHistory,
  input: SeedInput,
  now: string,
  pace: PaceOf = NORMAL_PACE,
): Sliced<PaymentDataset> {
  const until = untilOf(input);
  const today = now.slice(0, 10);
  // Near the calendar's end, the days stop where the seeded data does (see LATEST_UNTIL), so that a
  // payout's arrival and a refund's day stay within it.
  const days = drawnSpan(until, today);
  if (days.last < days.first) return history.data;
  const drawing = new PaymentDays(history, input, until, isoDay(days.last), now);
  for (let n = days.first; n <= days.last; n++) {
    yield;
    drawing.day(isoDay(n), pace);
  }
  drawing.finish(today);
  return history.data;
}

/**
 * Builds one connection's dataset from the seed (the vertical module's `build`): its history up to
 * the morning of the origin's day, and the business of the days after it up to `at` (the clock's
 * time to the minute; by default the history's end).
 */
export function* paymentDatasetBuild(
  seed: number,
  args: ConnectionDatasetArgs,
  at?: string,
  pace: PaceOf = NORMAL_PACE,
  origin?: string,
): Sliced<PaymentDataset> {
  const input = seedInputOf(seed, args, origin);
  return yield* livePaymentDays(seedPaymentHistory(input), input, at ?? activityEnd(untilOf(input)), pace);
}

/** paymentDatasetBuild, at once. */
export const buildPaymentDataset = (...args: Parameters<typeof paymentDatasetBuild>): PaymentDataset =>
  runAtOnce(paymentDatasetBuild(...args));
