import { beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/app.js';
import { loadFixtures } from '../../../src/control/fixtures.control.js';
import { call, SEED, sandbox, sandboxToken, type TestSandbox } from '../../helpers.js';

/**
 * The hotels' business goes on with the clock: each day after the first use of a connection's data
 * brings its arrivals, which appear at their check-in and are checked out (invoiced, paid, posted)
 * at their check-out; the days already there never change; the same moves give the same bytes,
 * whatever the cache; the pace scales the days from its day on.
 */

const DAY = 86_400;
const START = '2026-01-15';
const EVER = 'date_from=2021-01-01&date_to=2027-12-31';
// biome-ignore lint/suspicious/noExplicitAny: records are read field by field
type Item = any;

let s: TestSandbox;
let consumer: string;

beforeEach(() => {
  s = sandbox();
  consumer = s.ids.verticalConsumers.PMS as string;
});

async function advanceDays(days: number, app = s.app): Promise<void> {
  const moved = await call(app, 'POST', '/__sandbox/clock', { body: { advance_seconds: days * DAY } });
  expect(moved.status, moved.text).toBe(200);
}

/** Every item of a PMS list, all pages, as the API answers them (a new token: the clock moved). */
async function list(path: string, t: TestSandbox = s, who = consumer): Promise<Item[]> {
  const bearer = await sandboxToken(t);
  const out: Item[] = [];
  const sep = path.includes('?') ? '&' : '?';
  for (let page = 1; ; page++) {
    const res = await call(t.app, 'GET', `/consumers/${who}/pms/${path}${sep}page=${page}&size=100`, {
      token: bearer,
    });
    expect(res.status, res.text).toBe(200);
    out.push(...res.body.items);
    if (page * 100 >= res.body.total) return out;
  }
}

const dayOf = (instant: string) => instant.slice(0, 10);
const isoDay = (base: string, days: number) =>
  new Date(Date.parse(`${base}T00:00:00Z`) + days * DAY * 1000).toISOString().slice(0, 10);
const cents = (n: number) => Math.round(n * 100);
const byId = (items: Item[]) => new Map<string, Item>(items.map((item) => [item.id, item]));
const period = (from: string, to: string) => `date_from=${from}&date_to=${to}`;

/** The lists a nightly sync pulls for a period: stays checked in and out, invoices, payments, accounting. */
const LISTS = {
  arrived: (p: string) => `orders?${p}`,
  left: (p: string) => `orders?state=closed&${p}`,
  invoices: (p: string) => `invoices?${p}`,
  payments: (p: string) => `payments?${p}`,
  transactions: (p: string) => `accounting-transactions?${p}`,
} as const;
type ListName = keyof typeof LISTS;

async function pullAll(p: string, t: TestSandbox = s): Promise<Record<ListName, Item[]>> {
  const out = {} as Record<ListName, Item[]>;
  for (const name of Object.keys(LISTS) as ListName[]) out[name] = await list(LISTS[name](p), t);
  return out;
}

describe('the PMS business on the clock', () => {
  it('a vendor nightly sync over 60 days sees each day once it is over, its stays, invoices, payments and postings', async () => {
    // The first sync: everything up to now (the clock starts on 2026-01-15 at 09:00).
    const initial = await pullAll(period('2021-01-01', START));
    const running = initial.arrived.filter((o) => o.closing_date === null);
    expect(running.length).toBeGreaterThan(0);
    const seen = {
      orders: byId(initial.arrived),
      invoices: byId(initial.invoices),
      payments: byId(initial.payments),
      posted: byId(initial.transactions.filter((t) => t.status === 'posted')),
      drafts: byId(initial.transactions.filter((t) => t.status === 'draft')),
    };
    const nights = new Map<string, Record<ListName, Item[]>>();
    for (let night = 1; night <= 60; night++) {
      await advanceDays(1);
      const yesterday = isoDay(START, night - 1);
      const pulled = await pullAll(period(yesterday, yesterday));
      nights.set(yesterday, pulled);
      // A stay is pulled on the day it arrives and again on the day it leaves: the last one wins.
      for (const order of [...pulled.arrived, ...pulled.left]) seen.orders.set(order.id, order);
      for (const invoice of pulled.invoices) seen.invoices.set(invoice.id, invoice);
      for (const payment of pulled.payments) seen.payments.set(payment.id, payment);
      for (const line of pulled.transactions) {
        (line.status === 'posted' ? seen.posted : seen.drafts).set(line.id, line);
      }
    }
    const last = isoDay(START, 59);
    const now = `${isoDay(START, 60)}T09:00:00.000Z`;
    const world = await pullAll(EVER);

    // The business moved: arrivals every day up to the last full day, none after it (the clock's
    // day checks in from 15:00).
    const arrivals = world.arrived.filter((o) => o.service_date > `${START}T09:00:00.000Z`);
    const arrivalDays = new Map<string, number>();
    for (const order of arrivals) {
      const day = dayOf(order.service_date);
      arrivalDays.set(day, (arrivalDays.get(day) ?? 0) + 1);
    }
    expect([...arrivalDays.keys()].sort()).toEqual(Array.from({ length: 60 }, (_, i) => isoDay(START, i)));
    expect(arrivals.length).toBeGreaterThan(150);
    // Friday and Saturday take more arrivals than the other days.
    const weekend = [...arrivalDays].filter(([day]) => [5, 6].includes(new Date(day).getUTCDay()));
    const week = [...arrivalDays].filter(([day]) => ![5, 6].includes(new Date(day).getUTCDay()));
    const mean = (days: [string, number][]) => days.reduce((t, [, n]) => t + n, 0) / days.length;
    expect(mean(weekend)).toBeGreaterThan(mean(week) * 1.2);
    // Booked ahead, under numbers of their own.
    for (const order of arrivals) {
      expect(order.creation_date < order.service_date, order.id).toBe(true);
      expect(order.order_number, order.id).toMatch(
        new RegExp(`^${dayOf(order.service_date).replaceAll('-', '')}\\d{3}$`),
      );
    }
    // Stays leave at their check-out, invoiced and paid then: the morning's running stays too.
    for (const order of world.arrived) {
      const leaves = order.reservation.end_date;
      if (leaves <= now) {
        expect(order.closing_date, order.id).toBe(leaves);
        expect(order.bills, order.id).toHaveLength(1);
        expect(order.bills[0].creation_date).toBe(leaves);
      } else {
        expect(order.closing_date, order.id).toBeNull();
        expect(order.bills).toEqual([]);
      }
    }
    const runningNow = new Map(world.arrived.map((o) => [o.id, o]));
    for (const order of running) expect(runningNow.get(order.id)?.closing_date).not.toBeNull();

    // What the nightly pulls saw is exactly what the world holds, and a day never changed afterwards.
    expect(seen.orders).toEqual(byId(world.arrived));
    expect(seen.invoices).toEqual(byId(world.invoices));
    expect(seen.payments).toEqual(byId(world.payments));
    const posted = world.transactions.filter((t) => t.status === 'posted');
    expect(seen.posted).toEqual(byId(posted));
    // The draft lines of a running stay were pulled on its day of arrival; once it left, its
    // invoice's posted lines take their place.
    for (const draft of world.transactions.filter((t) => t.status === 'draft')) {
      expect(seen.drafts.get(draft.id)).toEqual(draft);
    }
    for (const [day, pulled] of nights) {
      const again = await pullAll(period(day, day));
      expect(again.invoices).toEqual(pulled.invoices);
      expect(again.payments).toEqual(pulled.payments);
      expect(again.left).toEqual(pulled.left);
      expect(again.transactions.filter((t) => t.status === 'posted')).toEqual(
        pulled.transactions.filter((t) => t.status === 'posted'),
      );
      expect(again.arrived.map((o) => o.id)).toEqual(pulled.arrived.map((o) => o.id));
    }

    // The amounts add up as the history's: lines, invoices, payments, postings and closures.
    const invoicesSince = world.invoices.filter((i) => i.creation_date > `${START}T09:00:00.000Z`);
    expect(invoicesSince.length).toBeGreaterThan(150);
    expect(new Set(world.invoices.map((i) => i.invoice_number)).size).toBe(world.invoices.length);
    // Thais's hotels are French: a deposit is an 'Acompte sur la facture ...'.
    const deposits = world.payments.filter((p) => p.description.startsWith('Acompte'));
    expect(deposits.some((p) => p.date > `${START}T09:00:00.000Z`)).toBe(true);
    for (const invoice of invoicesSince) {
      const lines = invoice.items.reduce((t: number, l: Item) => t + cents(l.total), 0);
      expect(lines, invoice.id).toBe(cents(invoice.total));
      expect(cents(invoice.untaxed_amount) + cents(invoice.tax_amount)).toBe(cents(invoice.total));
      const paid = invoice.payments.reduce((t: number, p: Item) => t + cents(p.total), 0);
      expect(paid, invoice.id).toBe(cents(invoice.total));
      expect(invoice.payments.every((p: Item) => p.date === invoice.creation_date)).toBe(true);
      const group = posted.filter((t) => t.group_id === invoice.id);
      expect(
        group.reduce((t: number, l: Item) => t + cents(l.amount), 0),
        invoice.id,
      ).toBe(0);
    }
    const bearer = await sandboxToken(s);
    for (const day of [START, isoDay(START, 20), last]) {
      const closure = await call(s.app, 'GET', `/consumers/${consumer}/pms/closures/${day}`, {
        token: bearer,
      });
      expect(closure.body.status).toBe('closed');
      const total = closure.body.closures.reduce((t: number, c: Item) => t + cents(c.total), 0);
      const ofDay = world.invoices.filter((i) => dayOf(i.creation_date) === day);
      expect(total, day).toBe(ofDay.reduce((t, i) => t + cents(i.total), 0));
    }
  }, 120_000);

  it('stays arrive and leave at their time: a pull of the day every 31 minutes misses none and sees each as it was', async () => {
    const day = '2026-01-16';
    const eve = '2026-01-15';
    /** The instant a list's record happened at: arrival, departure, invoice, payment or posting. */
    const INSTANT: Record<ListName, (item: Item) => string> = {
      arrived: (o) => o.service_date,
      left: (o) => o.closing_date,
      invoices: (i) => i.creation_date,
      payments: (p) => p.date,
      transactions: (t) => t.date,
    };
    // From 21:00 on the 15th, a pull of the 16th every 31 minutes, at odd minutes, and of the stays
    // that arrived on the 15th (to see them leave).
    await advanceDays(0.5);
    const clocks: string[] = [];
    const pulls: Record<ListName, Item[]>[] = [];
    const evenings: Item[][] = [];
    for (let i = 0; i < 56; i++) {
      const moved = await call(s.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: 31 * 60 } });
      expect(moved.status).toBe(200);
      const now = (moved.body as { now: string }).now;
      const pulled = await pullAll(period(day, day));
      for (const name of Object.keys(LISTS) as ListName[]) {
        // Nothing from the future.
        for (const item of pulled[name]) expect(INSTANT[name](item) <= now, `${name} ${item.id}`).toBe(true);
      }
      for (const order of pulled.arrived) {
        // Whoever arrived on the 16th is in the house: running, no bill.
        expect(order.closing_date, order.id).toBeNull();
        expect(order.bills).toEqual([]);
      }
      const evening = await list(LISTS.arrived(period(eve, eve)));
      for (const order of evening) {
        const left = order.reservation.end_date <= now;
        expect(order.closing_date, order.id).toBe(left ? order.reservation.end_date : null);
        expect(order.bills, order.id).toHaveLength(left ? 1 : 0);
      }
      clocks.push(now);
      pulls.push(pulled);
      evenings.push(evening);
    }
    const final = await pullAll(period(day, day));
    expect(final.arrived.length).toBeGreaterThan(0);
    expect(final.left.length).toBeGreaterThan(0);
    expect(final.invoices.length).toBeGreaterThan(0);
    expect(final.transactions.some((t) => t.status === 'draft')).toBe(true);
    for (const name of Object.keys(LISTS) as ListName[]) {
      // What the pulls saw, the last one winning, is the day as the world holds it, ids and bodies.
      const seen = new Map<string, Item>();
      for (const pulled of pulls) for (const item of pulled[name]) seen.set(item.id, item);
      expect(seen, name).toEqual(byId(final[name]));
      // Each record showed in the first pull at or after its instant, as it is now, and in every one
      // after: a record of the day never changes nor goes away.
      for (const item of final[name]) {
        const first = clocks.findIndex((clock) => clock >= INSTANT[name](item));
        expect(first, `${name} ${item.id}`).toBeGreaterThanOrEqual(0);
        for (const [i, pulled] of pulls.entries()) {
          const there = pulled[name].find((x) => x.id === item.id);
          if (i < first) expect(there, `${name} ${item.id} at ${clocks[i]}`).toBeUndefined();
          else expect(there, `${name} ${item.id} at ${clocks[i]}`).toEqual(item);
        }
      }
    }
    // Some of the 15th's guests were pulled in the house, and left on the 16th at their check-out,
    // their stay as it was, now closed and billed: the day's invoices bill them.
    const wereIn = evenings[0]?.filter(
      (o) => o.closing_date === null && dayOf(o.reservation.end_date) === day,
    );
    expect(wereIn?.length).toBeGreaterThan(0);
    const leftNow = byId(final.left);
    const billed = new Set(final.invoices.map((i) => i.id));
    for (const stay of wereIn ?? []) {
      const gone = leftNow.get(stay.id);
      const { closing_date: _c, bills: _b, ...same } = stay;
      expect(gone).toMatchObject({ ...same, closing_date: stay.reservation.end_date });
      expect(gone.bills).toHaveLength(1);
      expect(billed.has(gone.bills[0].id), stay.id).toBe(true);
    }
  }, 120_000);

  it('the same clock moves give the same bytes, with a cache of one byte too; the days already there stay as they were', async () => {
    const tiny = sandbox({ cacheBytes: 1 });
    const before = await pullAll(EVER);
    expect(await pullAll(EVER, tiny)).toEqual(before);
    await advanceDays(10);
    await advanceDays(10, tiny.app);
    const after = await pullAll(EVER);
    expect(JSON.stringify(await pullAll(EVER, tiny))).toBe(JSON.stringify(after));
    expect(after.arrived.length).toBeGreaterThan(before.arrived.length + 20);
    expect(after.invoices.length).toBeGreaterThan(before.invoices.length + 20);
    // What was closed is there still, unchanged; the running stays of the morning have left.
    const now = byId(after.arrived);
    for (const order of before.arrived) {
      if (order.closing_date !== null) expect(now.get(order.id)).toEqual(order);
      else {
        const { bills: _bills, closing_date: _closing, ...stay } = order;
        expect(now.get(order.id)).toMatchObject({ ...stay, closing_date: order.reservation.end_date });
        expect(now.get(order.id).bills).toHaveLength(1);
      }
    }
    expect(after.invoices.slice(0, before.invoices.length)).toEqual(before.invoices);
    // A further move adds days and leaves the first ten as they were.
    await advanceDays(5);
    const later = await pullAll(EVER);
    const firstTen = (p: Record<ListName, Item[]>) => ({
      left: p.left.filter((o) => dayOf(o.closing_date) < '2026-01-25'),
      invoices: p.invoices.filter((i) => dayOf(i.creation_date) < '2026-01-25'),
      payments: p.payments.filter((i) => dayOf(i.date) < '2026-01-25'),
      posted: p.transactions.filter((t) => t.status === 'posted' && dayOf(t.date) < '2026-01-25'),
    });
    expect(firstTen(later)).toEqual(firstTen(after));
    const arrivedBy = (p: Record<ListName, Item[]>) =>
      p.arrived.filter((o) => dayOf(o.service_date) < '2026-01-25').map((o) => o.id);
    expect(arrivedBy(later)).toEqual(arrivedBy(after));
  });

  it('a pace set from a day to come scales the arrivals from that day on and leaves the days before', async () => {
    const normal = sandbox();
    await list(`orders?${EVER}`);
    await list(`orders?${EVER}`, normal);
    const changed = await call(s.app, 'POST', '/__sandbox/pace', {
      body: { pace: 'busy', from: '2026-01-25' },
    });
    expect(changed.status, changed.text).toBe(200);
    await advanceDays(30);
    await advanceDays(30, normal.app);
    const busy = await pullAll(EVER);
    const usual = await pullAll(EVER, normal);
    const untilPace = (p: Record<ListName, Item[]>) => ({
      arrived: p.arrived.filter((o) => dayOf(o.service_date) < '2026-01-25').map((o) => o.id),
      invoices: p.invoices.filter((i) => dayOf(i.creation_date) <= '2026-01-25'),
      payments: p.payments.filter((i) => dayOf(i.date) <= '2026-01-25'),
      posted: p.transactions.filter((t) => t.status === 'posted' && dayOf(t.date) <= '2026-01-25'),
    });
    expect(untilPace(busy)).toEqual(untilPace(usual));
    const from = (p: Record<ListName, Item[]>) =>
      p.arrived.filter((o) => dayOf(o.service_date) >= '2026-01-25');
    expect(from(busy).length).toBeGreaterThan(from(usual).length * 2);
    expect(busy.invoices.length).toBeGreaterThan(usual.invoices.length + 50);
  });

  it('a clock moved a year at once stores none of the generated stays', async () => {
    await list(`orders?${EVER}`);
    await advanceDays(1);
    const oneDay = s.app.services.store.world.meta.client_bytes ?? 0;
    await advanceDays(364);
    const year = await list(`invoices?${period(START, '2027-01-14')}`);
    expect(year.length).toBeGreaterThan(800);
    // A year of stays is some 2 MB as JSON; the world grew by the platform's own scheduled work.
    expect((s.app.services.store.world.meta.client_bytes ?? 0) - oneDay).toBeLessThan(32 * 1024);
    expect(oneDay).toBeLessThan(16 * 1024);
  });

  it('a stay a fixture declared keeps its number and its invoice among the days that follow', async () => {
    const app = createApp({ seed: SEED });
    const result = await loadFixtures(app, {
      consumers: [
        {
          name: 'Hotelier',
          connections: [
            {
              integration: 9503,
              pms: {
                orders: [
                  {
                    customer: '411001',
                    check_in: '2026-01-12T15:00:00Z',
                    check_out: '2026-01-14T10:00:00Z',
                    lines: [{ description: 'Room', quantity: 2, unit_price: 100, tax: 10, category: 'ROOM' }],
                  },
                ],
              },
            },
          ],
        },
      ],
    });
    const hotelier = result.consumers[0]?.consumerid as string;
    const declared = result.consumers[0]?.connections[0]?.records.pms?.orders?.[0] as string;
    const t: TestSandbox = { app, ids: s.ids };
    const first = await list(`orders?${EVER}`, t, hotelier);
    const stay = first.find((o) => o.id === declared);
    expect(stay.bills).toHaveLength(1);
    await advanceDays(20, app);
    const later = await list(`orders?${EVER}`, t, hotelier);
    expect(later.find((o) => o.id === declared)).toEqual(stay);
    expect(later.length).toBeGreaterThan(first.length + 40);
    expect(new Set(later.map((o) => o.order_number)).size).toBe(later.length);
    const invoices = await list(`invoices?${EVER}`, t, hotelier);
    expect(new Set(invoices.map((i) => i.invoice_number)).size).toBe(invoices.length);
    expect(invoices.filter((i) => i.id === stay.bills[0].id)).toHaveLength(1);
  });
});
