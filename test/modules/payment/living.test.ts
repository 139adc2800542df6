import { beforeEach, describe, expect, it } from 'vitest';
import { buildPaymentDataset } from '../../../src/modules/payment/world/payment.living.js';
import { call, sandbox, sandboxToken, type TestSandbox } from '../../helpers.js';

/**
 * The payment provider's business goes on with the clock: each day after the first use of a
 * connection's data draws its own payments (and the refunds they will have), the subscription comes
 * on the first of the month and the balances are paid out every Monday; each record appears at its
 * own minute (a payout is paid from noon on the day it reaches the bank), the days already there
 * never change, and the same moves give the same bytes, whatever the cache.
 */

const DAY = 86_400;
const START = '2026-01-15';
// biome-ignore lint/suspicious/noExplicitAny: records are read field by field
type Item = any;
type Kind = 'payments' | 'refunds' | 'transactions' | 'payouts';
const KINDS: readonly Kind[] = ['payments', 'refunds', 'transactions', 'payouts'];

/** The field each list's date filters read. */
const DATE_OF: Record<Kind, string> = {
  payments: 'payment_date',
  refunds: 'refund_date',
  transactions: 'create_date',
  payouts: 'payment_date',
};
const dayOf = (kind: Kind, item: Item): string => (item[DATE_OF[kind]] as string).slice(0, 10);
const isoDay = (base: string, days: number) =>
  new Date(Date.parse(`${base}T00:00:00Z`) + days * DAY * 1000).toISOString().slice(0, 10);
const cents = (amount: number) => Math.round(amount * 100);
const net = (items: Item[]) => items.reduce((sum, t) => sum + cents(t.amount) - cents(t.fee), 0);

let s: TestSandbox;
let consumer: string;

beforeEach(() => {
  s = sandbox();
  consumer = s.ids.verticalConsumers.PAYMENT as string;
});

async function advanceDays(days: number, app = s.app): Promise<void> {
  const moved = await call(app, 'POST', '/__sandbox/clock', { body: { advance_seconds: days * DAY } });
  expect(moved.status, moved.text).toBe(200);
}

/** Every item of a list, all pages, as the API answers them (a new token: the clock moved). */
async function list(path: string, t: TestSandbox = s): Promise<Item[]> {
  const token = await sandboxToken(t);
  const out: Item[] = [];
  const sep = path.includes('?') ? '&' : '?';
  for (let page = 1; ; page++) {
    const res = await call(
      t.app,
      'GET',
      `/consumers/${consumer}/payment/${path}${sep}page=${page}&size=100`,
      {
        token,
      },
    );
    expect(res.status, res.text).toBe(200);
    out.push(...res.body.items);
    if (page * 100 >= res.body.total) return out;
  }
}

/** Everything the account holds: its four lists from the start of the history, and its balances. */
async function everything(t: TestSandbox = s): Promise<Record<Kind | 'balances', Item[]>> {
  const [payments, refunds, transactions, payouts, balances] = await Promise.all([
    ...KINDS.map((kind) => list(`${kind}?date_from=2021-01-01`, t)),
    list('balances', t),
  ]);
  return {
    payments: payments ?? [],
    refunds: refunds ?? [],
    transactions: transactions ?? [],
    payouts: payouts ?? [],
    balances: balances ?? [],
  };
}

/** The records of a list dated before `day`. */
const datedBefore = (kind: Kind, items: Item[], day: string) =>
  items.filter((item) => dayOf(kind, item) < day);
/** The records of a list that are in `earlier` too. */
const among = (items: Item[], earlier: Item[]) => {
  const ids = new Set(earlier.map((item) => item.id));
  return items.filter((item) => ids.has(item.id));
};

/**
 * The business of the days after the first use, up to `last`, as the history's: payments on most
 * days, each completed one bringing its amount in less the card fee; refunds (at least `refunds`) of
 * earlier completed payments, completed, with their movement; the subscription on the first of each
 * month; payouts on Mondays; and the balances holding the net of every movement.
 */
function expectBusiness(held: Record<Kind | 'balances', Item[]>, last: string, refunds: number): void {
  const since = `${START}T09:00:00.000Z`;
  const fresh = (kind: Kind) => held[kind].filter((item) => item[DATE_OF[kind]] > since);
  const payments = fresh('payments');
  const span = Math.round((Date.parse(last) - Date.parse(START)) / (DAY * 1000)) + 1;
  const days = new Set(payments.map((p) => dayOf('payments', p)));
  expect(days.size).toBeGreaterThanOrEqual(span * 0.4);
  expect([...days].every((d) => d >= START && d <= last)).toBe(true);
  expect(payments.length).toBeGreaterThan(span * 0.6);
  const statuses = new Set(payments.map((p) => p.status));
  expect(statuses).toContain('completed');
  expect([...statuses].every((status) => ['completed', 'failed', 'canceled'].includes(status))).toBe(true);
  const movements = fresh('transactions');
  const charges = new Map(
    movements.filter((t) => t.accounting_category === 'payment').map((t) => [t.payment_id, t]),
  );
  for (const payment of payments) {
    const charge = charges.get(payment.id);
    if (payment.status !== 'completed') expect(charge, payment.id).toBeUndefined();
    else {
      expect(charge).toMatchObject({ amount: payment.amount, create_date: payment.payment_date });
      expect(Math.abs(cents(charge.fee) - (payment.amount * 1.4 + 25))).toBeLessThanOrEqual(0.5001);
    }
  }
  const byId = new Map(held.payments.map((p) => [p.id, p]));
  const refunded = fresh('refunds');
  expect(refunded.length).toBeGreaterThanOrEqual(refunds);
  for (const refund of refunded) {
    const payment = byId.get(refund.payment_id);
    expect(payment.status).toBe('completed');
    expect(refund.refund_date > payment.payment_date).toBe(true);
    expect(refund.amount).toBeLessThanOrEqual(payment.amount);
    expect(refund.status).toBe('completed');
    expect(movements.find((t) => t.refund_id === refund.id)).toMatchObject({
      amount: -refund.amount,
      fee: 0,
      create_date: refund.refund_date,
      payment_id: payment.id,
    });
  }
  // The subscription of each month after the first use's, at each of the two balances.
  const firsts = [...new Set(Array.from({ length: span }, (_, i) => isoDay(START, i)))].filter((d) =>
    d.endsWith('-01'),
  );
  const fees = movements.filter((t) => t.accounting_category === 'fee');
  expect(fees.map((t) => t.create_date).sort()).toEqual(
    firsts.flatMap((d) => [`${d}T03:00:00.000Z`, `${d}T03:00:00.000Z`]),
  );
  expect(fees.every((t) => t.amount === -19 && t.fee === 0)).toBe(true);
  const payoutDays = movements
    .filter((t) => t.accounting_category === 'payout')
    .map((t) => new Date(t.create_date).getUTCDay());
  // A week whose movements come to nothing (none, or the subscription alone) waits for the next.
  expect(payoutDays.length).toBeGreaterThanOrEqual(Math.floor(span / 7) * 2 * 0.8);
  expect(new Set(payoutDays)).toEqual(new Set([1]));
  expect(held.balances.reduce((sum, b) => sum + cents(b.available_amount), 0)).toBe(net(held.transactions));
}

describe('the payment business on the clock', () => {
  it('a vendor nightly sync over 60 days sees each day once it is over, and the balances add up', async () => {
    // The first sync: everything up to now (the clock starts on 2026-01-15 at 09:00).
    const initial = await everything();
    const seen = Object.fromEntries(
      KINDS.map((kind) => [kind, new Map<string, Item>(initial[kind].map((item) => [item.id, item]))]),
    ) as Record<Kind, Map<string, Item>>;
    const pulled = new Map<string, Record<Kind, Item[]>>();
    for (let night = 1; night <= 60; night++) {
      await advanceDays(1);
      const yesterday = isoDay(START, night - 1);
      const lists = await Promise.all(
        KINDS.map((kind) => list(`${kind}?date_from=${yesterday}&date_to=${yesterday}`)),
      );
      const day = Object.fromEntries(KINDS.map((kind, i) => [kind, lists[i] ?? []])) as Record<Kind, Item[]>;
      pulled.set(yesterday, day);
      for (const kind of KINDS) for (const item of day[kind]) seen[kind].set(item.id, item);
    }
    const last = isoDay(START, 59);
    const final = await everything();

    // The business moved, as the history's (see expectBusiness), up to the clock's time: the last
    // morning's business is there already.
    expectBusiness(final, isoDay(START, 60), 0);

    // What the nightly pulls saw is exactly what the world holds, and a day never changed afterwards:
    // a payout, dated by its arrival at the bank, is seen paid the night after it arrives.
    for (const kind of KINDS) {
      const sorted = (items: Iterable<Item>) => [...items].sort((a, b) => a.id.localeCompare(b.id));
      expect(sorted(seen[kind].values()), kind).toEqual(
        sorted(final[kind].filter((item) => dayOf(kind, item) <= last)),
      );
      for (const [day, seenThen] of pulled)
        expect(final[kind].filter((item) => dayOf(kind, item) === day)).toEqual(seenThen[kind]);
    }
    expect(final.payouts.filter((p) => p.payment_date <= last).every((p) => p.status === 'paid')).toBe(true);
    expect(final.payouts.filter((p) => p.payment_date > last).every((p) => p.status === 'in_transit')).toBe(
      true,
    );

    // A balance holds the net of its movements; a payout pays out the net of those it swept. The
    // nights saw every movement up to the last one's day (the clock's morning is the next night's).
    for (const balance of final.balances) {
      const own = await list(`transactions?balance_id=${balance.id}`);
      expect(cents(balance.available_amount)).toBe(net(own));
      const byNight = own.filter((t) => dayOf('transactions', t) <= last);
      expect(byNight.every((t) => seen.transactions.has(t.id))).toBe(true);
    }
    const recent = final.payouts.filter((p) => p.payment_date > START);
    expect(recent.length).toBeGreaterThanOrEqual(12);
    for (const payout of recent) {
      const swept = await list(`transactions?payout_id=${payout.id}`);
      const out = swept.filter((t) => t.accounting_category === 'payout');
      expect(out).toHaveLength(1);
      expect(out[0].amount).toBe(-payout.amount);
      expect(net(swept.filter((t) => t.accounting_category !== 'payout'))).toBe(cents(payout.amount));
      expect(payout.amount).toBeGreaterThan(0);
    }
  }, 120_000);

  it('records appear at their minute and payouts are paid at theirs: a pull of the day every 31 minutes misses none', async () => {
    // The first use, on the clock's first morning; then from 21:00 on the eve of a Thursday (when
    // the payouts made on Monday reach the bank), a pull of that day's lists every 31 minutes.
    await list('payments?date_from=2026-01-15');
    await advanceDays(55.5);
    const day = '2026-03-12';
    const arrived = (payout: Item, now: string) => `${payout.payment_date}T12:00:00.000Z` <= now;
    const pulls: { now: string; lists: Record<Kind, Item[]> }[] = [];
    for (let i = 0; i < 56; i++) {
      const moved = await call(s.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: 31 * 60 } });
      expect(moved.status).toBe(200);
      const now = (moved.body as { now: string }).now;
      const pulled = await Promise.all(KINDS.map((kind) => list(`${kind}?date_from=${day}&date_to=${day}`)));
      const lists = Object.fromEntries(KINDS.map((kind, k) => [kind, pulled[k] ?? []])) as Record<
        Kind,
        Item[]
      >;
      // Nothing from the future; a payout dated the day is in transit until noon, then paid.
      for (const kind of ['payments', 'refunds', 'transactions'] as const) {
        for (const item of lists[kind]) expect(item[DATE_OF[kind]] <= now, item.id).toBe(true);
      }
      for (const payout of lists.payouts) {
        expect(payout.status, payout.id).toBe(arrived(payout, now) ? 'paid' : 'in_transit');
      }
      // The balances hold the net of the movements made so far, exactly.
      if (i % 4 === 0) {
        const [balances, movements] = await Promise.all([
          list('balances'),
          list('transactions?date_from=2021-01-01'),
        ]);
        expect(movements.every((t) => t.create_date <= now)).toBe(true);
        expect(balances.reduce((sum, b) => sum + cents(b.available_amount), 0)).toBe(net(movements));
      }
      pulls.push({ now, lists });
    }
    const final = Object.fromEntries(
      await Promise.all(
        KINDS.map(async (kind) => [kind, await list(`${kind}?date_from=${day}&date_to=${day}`)] as const),
      ),
    ) as Record<Kind, Item[]>;
    expect(final.payments.length + final.refunds.length).toBeGreaterThan(0);
    expect(final.transactions.length).toBeGreaterThan(0);
    expect(final.payouts.length).toBeGreaterThan(0);
    expect(final.payouts.every((p) => p.status === 'paid')).toBe(true);

    // Each pull held exactly what had happened by its time: every record made by then, as it was then.
    for (const { now, lists } of pulls) {
      for (const kind of ['payments', 'refunds', 'transactions'] as const) {
        expect(lists[kind], `${kind} at ${now}`).toEqual(
          final[kind].filter((item) => item[DATE_OF[kind]] <= now),
        );
      }
      expect(lists.payouts, `payouts at ${now}`).toEqual(
        final.payouts.map((p) => (arrived(p, now) ? p : { ...p, status: 'in_transit' })),
      );
    }
    // The pulls saw every record of the day, as the end has it, and each change once: a payout seen
    // in transit in the morning, then paid.
    for (const kind of KINDS) {
      const seen = new Map<string, Item[]>();
      for (const { lists } of pulls) {
        for (const item of lists[kind]) {
          const versions = seen.get(item.id) ?? [];
          if (!versions.some((v) => JSON.stringify(v) === JSON.stringify(item))) versions.push(item);
          seen.set(item.id, versions);
        }
      }
      expect([...seen.keys()].sort(), kind).toEqual(final[kind].map((item) => item.id).sort());
      for (const item of final[kind]) {
        const versions = seen.get(item.id) ?? [];
        expect(versions.at(-1), item.id).toEqual(item);
        if (kind === 'payouts')
          expect(
            versions.map((v) => v.status),
            item.id,
          ).toEqual(['in_transit', 'paid']);
        else expect(versions, item.id).toHaveLength(1);
      }
    }
  }, 120_000);

  it('a payout leaves on Monday at its minute: before it, the movements it pays out wait, unpaid', () => {
    const args = {
      consumerid: 'consumer-a',
      connectionid: 'connection-a',
      integrationid: 90501,
      until: START,
    };
    const before = buildPaymentDataset(7, args, '2026-01-26T05:59:00.000Z');
    const after = buildPaymentDataset(7, args, '2026-01-26T06:00:00.000Z');
    const left = Object.values(after.transactions).filter(
      (t) => t.create_date === '2026-01-26T06:00:00.000Z',
    );
    expect(left.length).toBeGreaterThan(0);
    for (const movement of left) {
      expect(movement.accounting_category).toBe('payout');
      const payout = after.payouts[movement.payout_id as string];
      expect(payout).toMatchObject({
        status: 'in_transit',
        payment_date: '2026-01-29',
        amount: -movement.amount,
      });
      expect(before.payouts[payout?.id as string]).toBeUndefined();
      expect(before.transactions[movement.id]).toBeUndefined();
      const swept = Object.values(after.transactions).filter(
        (t) => t.payout_id === payout?.id && t !== movement,
      );
      expect(swept.length).toBeGreaterThan(0);
      for (const t of swept) expect(before.transactions[t.id]).toEqual({ ...t, payout_id: null });
    }
    // Nothing else moved in that minute; the payouts reach the bank at noon on Thursday.
    expect(Object.keys(after.transactions).length).toBe(
      Object.keys(before.transactions).length + left.length,
    );
    const thursday = (time: string) => buildPaymentDataset(7, args, `2026-01-29T${time}:00.000Z`);
    const [morning, noon] = [thursday('11:59'), thursday('12:00')];
    for (const movement of left) {
      expect(morning.payouts[movement.payout_id as string]?.status).toBe('in_transit');
      expect(noon.payouts[movement.payout_id as string]?.status).toBe('paid');
    }
  });

  it('the same clock moves give the same records, with a cache of one byte too; the days already there stay as they were', async () => {
    const tiny = sandbox({ cacheBytes: 1 });
    const first = await everything();
    // The history runs up to the first use: both apps first use the data on the same day.
    expect(await everything(tiny)).toEqual(first);
    await advanceDays(10);
    await advanceDays(10, tiny.app);
    const after = await everything();
    expect(await everything(tiny)).toEqual(after);
    expect(after.payments.length).toBeGreaterThan(first.payments.length);
    expect(after.transactions.length).toBeGreaterThan(first.transactions.length);
    expect(after.payouts.length).toBeGreaterThan(first.payouts.length);
    // The records that were there are there still, unchanged but for the payouts that reached the
    // bank; the new ones are dated after the morning of the first use.
    for (const kind of ['payments', 'refunds', 'transactions'] as const)
      expect(among(after[kind], first[kind]), kind).toEqual(first[kind]);
    expect(first.payouts.filter((p) => p.status === 'in_transit').length).toBeGreaterThan(0);
    expect(among(after.payouts, first.payouts)).toEqual(
      first.payouts.map((p) => (p.status === 'in_transit' ? { ...p, status: 'paid' } : p)),
    );
    for (const kind of KINDS) {
      const known = new Set(first[kind].map((item) => item.id));
      const added = after[kind].filter((item) => !known.has(item.id));
      if (kind !== 'refunds') expect(added.length, kind).toBeGreaterThan(0);
      expect(
        added.every((item) => item[DATE_OF[kind]] > (kind === 'payouts' ? START : `${START}T09:00:00.000Z`)),
      ).toBe(true);
    }
    // A further move adds days and leaves the first ten as they were.
    await advanceDays(5);
    const later = await everything();
    for (const kind of KINDS)
      expect(datedBefore(kind, later[kind], '2026-01-25'), kind).toEqual(
        datedBefore(kind, after[kind], '2026-01-25'),
      );
    expect(later.payments.length).toBeGreaterThan(after.payments.length);
  });

  it('a busier pace from a day on draws more payments from that day, and leaves the days before', async () => {
    const normal = sandbox();
    const changed = await call(s.app, 'POST', '/__sandbox/pace', {
      body: { pace: 'busy', from: '2026-02-01' },
    });
    expect(changed.status, changed.text).toBe(200);
    // The history runs up to the first use of the data: use it now, so the days after are the living ones.
    for (const t of [s, normal]) await list('payments?date_from=2026-01-15', t);
    for (const app of [s.app, normal.app]) await advanceDays(45, app);
    const [busy, usual] = await Promise.all([everything(s), everything(normal)]);
    for (const kind of KINDS)
      expect(datedBefore(kind, busy[kind], '2026-02-01'), kind).toEqual(
        datedBefore(kind, usual[kind], '2026-02-01'),
      );
    const from = (items: Item[]) => items.filter((p) => p.payment_date >= '2026-02-01').length;
    expect(from(usual.payments)).toBeGreaterThan(10);
    expect(from(busy.payments)).toBeGreaterThan(from(usual.payments) * 1.8);
    for (const { balances, transactions } of [busy, usual])
      expect(balances.reduce((sum, b) => sum + cents(b.available_amount), 0)).toBe(net(transactions));
  });

  it('a clock moved a year at once adds the year of business to what a read answers, and none of it to the world', async () => {
    const first = await everything();
    await advanceDays(1);
    const oneDay = s.app.services.store.world.meta.client_bytes ?? 0;
    await advanceDays(364);
    const year = await everything();
    expect(year.payments.length).toBeGreaterThan(first.payments.length + 250);
    expect(year.payouts.length).toBeGreaterThan(first.payouts.length + 90);
    expectBusiness(year, isoDay(START, 365), 8);
    expect((s.app.services.store.world.meta.client_bytes ?? 0) - oneDay).toBeLessThan(16 * 1024);
  });
});
