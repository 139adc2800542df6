import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/app.js';
import { MAX_ANNOUNCED_DAYS } from '../../../src/modules/pos/index.js';
import type { Store } from '../../../src/store/store.js';
import {
  call,
  sandbox,
  sandboxToken,
  type TestSandbox,
  type WebhookReceiver,
  webhookReceiver,
} from '../../helpers.js';

/**
 * The POS business goes on with the clock: each day after the first use of a connection's data
 * draws its own orders, which appear once the day is over and are announced by pos.order.completed;
 * the days already there never change; the same moves give the same bytes, whatever the cache.
 */

const DAY = 86_400;
// biome-ignore lint/suspicious/noExplicitAny: orders are read field by field
type Order = any;

let s: TestSandbox;
let token: string;
let consumer: string;

beforeEach(async () => {
  s = sandbox();
  token = await sandboxToken(s);
  consumer = s.ids.verticalConsumers.POS as string;
});

async function advanceDays(days: number, app = s.app): Promise<void> {
  const moved = await call(app, 'POST', '/__sandbox/clock', { body: { advance_seconds: days * DAY } });
  expect(moved.status, moved.text).toBe(200);
}

/** Every order of a query, all pages, as the API answers them (a new token: the clock moved). */
async function orders(query: string, t: TestSandbox = s): Promise<Order[]> {
  const bearer = await sandboxToken(t);
  const out: Order[] = [];
  for (let page = 1; ; page++) {
    const res = await call(t.app, 'GET', `/consumers/${consumer}/pos/orders?${query}&page=${page}&size=100`, {
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

describe('the POS business on the clock', () => {
  let receiver: WebhookReceiver | null = null;
  afterEach(async () => {
    await receiver?.close();
    receiver = null;
  });

  it('a vendor nightly sync over 60 days sees each day once it is over, and a webhook for every order completed', async () => {
    // The vendor's webhook receiver.
    receiver = await webhookReceiver();
    const { url, received } = receiver;
    const hook = await call(s.app, 'POST', '/webhooks', {
      token,
      body: { event: 'pos.order.completed', url, integrationid: 9012 },
    });
    expect(hook.status, hook.text).toBe(200);

    // The first sync: everything up to now (the clock starts on 2026-01-15 at 09:00).
    const start = '2026-01-15';
    const initial = await orders('date_from=2021-01-01');
    const seen = new Map<string, Order>(initial.map((o) => [o.id, o]));
    const pulled = new Map<string, Order[]>();
    for (let night = 1; night <= 60; night++) {
      await advanceDays(1);
      const yesterday = isoDay(start, night - 1);
      const day = await orders(`date_from=${yesterday}&date_to=${yesterday}`);
      pulled.set(yesterday, day);
      for (const order of day) seen.set(order.id, order);
    }
    await s.app.services.ticker.idle();

    // The business moved: new orders every day (closed, paid), up to the clock's time: the last
    // morning's orders are there already (the restaurant opens at 07:00), those in progress open.
    const all = await orders('date_from=2021-01-01');
    const last = isoDay(start, 60);
    const created = all.filter((o) => o.creation_date > `${start}T09:00:00.000Z`);
    const days = new Set(created.map((o) => dayOf(o.creation_date)));
    expect(days.size).toBeGreaterThanOrEqual(55);
    expect([...days].every((d) => d >= start && d <= last)).toBe(true);
    expect(all.length).toBeGreaterThan(initial.length + 200);
    for (const order of created) {
      expect(order.creation_date <= `${last}T09:00:00.000Z`, order.id).toBe(true);
      if (order.closing_date === null) {
        expect(order.creation_date > `${last}T07:25:00.000Z`, order.id).toBe(true);
        continue;
      }
      expect(order.closing_date <= `${last}T09:00:00.000Z`, order.id).toBe(true);
      expect(order.payments.length, order.id).toBeGreaterThan(0);
    }
    // What the nightly pulls saw is exactly what the world holds, and a day never changed afterwards.
    const beforeToday = all.filter((o) => dayOf(o.creation_date) < last);
    expect([...seen.keys()].sort()).toEqual(beforeToday.map((o) => o.id).sort());
    for (const [day, seenThen] of pulled) {
      expect(all.filter((o) => dayOf(o.creation_date) === day)).toEqual(seenThen);
    }
    // One pos.order.completed for each order completed after the vendor's first sync, no more.
    const completedSince = all.filter(
      (o) => o.closing_date !== null && o.closing_date > `${start}T09:00:00.000Z`,
    );
    // (Every POS connection of Zelty in the environment is announced: this consumer's, among them.)
    const announced = received
      .filter((body) => body.consumerid === consumer)
      .map((body) => body.order_id as string);
    expect(new Set(announced).size).toBe(announced.length);
    expect(announced.sort()).toEqual(completedSince.map((o) => o.id).sort());
    expect(received[0]).toMatchObject({
      event: 'pos.order.completed',
      consumerid: consumer,
      integrationid: 9012,
    });
  }, 120_000);

  it('orders appear as they are placed and close at their time: an hourly pull of the day misses none', async () => {
    receiver = await webhookReceiver();
    const hook = await call(s.app, 'POST', '/webhooks', {
      token,
      body: { event: 'pos.order.completed', url: receiver.url, integrationid: 9012 },
    });
    expect(hook.status, hook.text).toBe(200);
    const today = 'date_from=2026-01-16&date_to=2026-01-16';
    // From 21:00 on the 15th, a pull of the 16th's orders every 31 minutes, at odd minutes.
    await advanceDays(0.5);
    const pulls: Order[][] = [];
    for (let i = 0; i < 56; i++) {
      const moved = await call(s.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: 31 * 60 } });
      expect(moved.status).toBe(200);
      const now = (moved.body as { now: string }).now;
      const pulled = await orders(today);
      for (const order of pulled) {
        // Nothing from the future; an open order is in progress (placed, not yet closed).
        expect(order.creation_date <= now, order.id).toBe(true);
        if (order.closing_date === null) expect(order.payments).toEqual([]);
        else expect(order.closing_date <= now, order.id).toBe(true);
      }
      pulls.push(pulled);
    }
    await s.app.services.ticker.idle();
    const final = await orders(today);
    expect(final.length).toBeGreaterThan(2);
    expect(final.every((o) => o.closing_date !== null)).toBe(true);
    // Each pull held every order of the one before (an order never goes away), and some held open
    // orders that a later pull showed closed, as they were, paid.
    for (let i = 1; i < pulls.length; i++) {
      const ids = new Set((pulls[i] as Order[]).map((o) => o.id));
      expect((pulls[i - 1] as Order[]).every((o) => ids.has(o.id))).toBe(true);
    }
    const wereOpen = pulls.flat().filter((o) => o.closing_date === null);
    expect(wereOpen.length).toBeGreaterThan(0);
    const byId = new Map(final.map((o) => [o.id, o]));
    for (const open of wereOpen) {
      const closed = byId.get(open.id);
      expect(closed.creation_date).toBe(open.creation_date);
      expect(closed.total).toBe(open.total);
    }
    // Each order of the 16th was announced once, when it closed.
    const announced = receiver.received.map((body) => body.order_id as string);
    for (const order of final) expect(announced.filter((id) => id === order.id)).toHaveLength(1);
  }, 60_000);

  it('the same clock moves give the same orders, with a cache of one byte too; the days already there stay as they were', async () => {
    const tiny = sandbox({ cacheBytes: 1 });
    const before = await orders('date_from=2021-01-01');
    // The history runs up to the first use: both apps first use the data on the same day.
    expect(await orders('date_from=2021-01-01', tiny)).toEqual(before);
    await advanceDays(10);
    await advanceDays(10, tiny.app);
    const after = await orders('date_from=2021-01-01');
    expect(await orders('date_from=2021-01-01', tiny)).toEqual(after);
    expect(after.length).toBeGreaterThan(before.length);
    // The orders that were there are there still, unchanged but for those the clock completed.
    const byId = new Map(after.map((o) => [o.id, o]));
    for (const order of before.filter((o) => o.closing_date !== null))
      expect(byId.get(order.id)).toEqual(order);
    // A further move adds days and leaves the first ten as they were.
    await advanceDays(5);
    const later = await orders('date_from=2021-01-01');
    const firstTen = (list: Order[]) => list.filter((o) => dayOf(o.creation_date) < '2026-01-25');
    expect(firstTen(later)).toEqual(firstTen(after));
  });

  it(`a clock moved a year at once announces the last ${MAX_ANNOUNCED_DAYS} days, and the world stores none of the generated orders`, async () => {
    const hook = await call(s.app, 'POST', '/webhooks', {
      token,
      body: { event: 'pos.order.completed', url: 'http://127.0.0.1:9/hooks', integrationid: 9012 },
    });
    expect(hook.status).toBe(200);
    await orders('date_from=2021-01-01');
    await advanceDays(365);
    const deliveries = await call(
      s.app,
      'GET',
      '/__sandbox/webhook-deliveries?event=pos.order.completed&limit=500',
    );
    expect(deliveries.status).toBe(200);
    const closed = (deliveries.body as { payload: { closing_date: string } }[]).map((d) =>
      dayOf(d.payload.closing_date),
    );
    expect(closed.length).toBeGreaterThan(50);
    // The orders left open on the first morning complete that day; the rest is the last days' business.
    const cutoff = isoDay('2026-01-15', 365 - MAX_ANNOUNCED_DAYS);
    expect(closed.filter((day) => day !== '2026-01-15' && day < cutoff)).toEqual([]);
    // The world keeps the last day announced, and none of the orders of the year: without a webhook
    // (whose deliveries are records), a year adds nothing of its orders.
    expect(s.app.services.store.world.sandbox_state['business:pos']).toEqual({
      through: `${isoDay('2026-01-15', 365)}T09:00:00.000Z`,
    });
    const quiet = sandbox();
    await orders('date_from=2021-01-01', quiet);
    await advanceDays(1, quiet.app);
    const oneDay = quiet.app.services.store.world.meta.client_bytes ?? 0;
    await advanceDays(364, quiet.app);
    expect((await orders('date_from=2021-01-01', quiet)).length).toBeGreaterThan(2000);
    // A year of orders is some 3 MB as JSON; the world grew by the platform's own scheduled work.
    expect((quiet.app.services.store.world.meta.client_bytes ?? 0) - oneDay).toBeLessThan(32 * 1024);
    expect(oneDay).toBeLessThan(16 * 1024);
  });
});

describe('the datasets a client reached, after the clock moved', () => {
  it('are built again for the new minute by the move itself, not by the next read; those no client reached since are not', async () => {
    const world = s.app.services.store.world;
    // A nightly sync: each day, yesterday's orders, read after the move that ended the day.
    for (const day of ['2026-01-15', '2026-01-16', '2026-01-17']) {
      await advanceDays(1);
      // The move answers once its background work is done: the dataset is there, for the new day.
      if (day !== '2026-01-15') expect(Object.keys(world.pos_datasets)).toHaveLength(1);
      expect((await orders(`date_from=${day}&date_to=${day}`)).length).toBeGreaterThan(0);
    }
    const built = Object.values(world.pos_datasets)[0] as { orders: Record<string, Order> };
    expect(Object.values(built.orders).some((o) => dayOf(o.creation_date) === '2026-01-17')).toBe(true);
    // No read since: the next moves leave it to be built when it is next read.
    await advanceDays(1);
    await advanceDays(1);
    expect(Object.keys(world.pos_datasets)).toHaveLength(0);
  });
});

describe('the clock kept in the world', () => {
  it('an app on a world someone moved the clock of starts where it stood, also after a reset', async () => {
    await advanceDays(3);
    const reset = await call(s.app, 'POST', '/__sandbox/reset');
    expect(reset.status).toBe(200);
    // The app's store is the Store createApp made.
    const again = createApp({ seed: s.app.services.config.seed, store: s.app.services.store as Store });
    const clock = await call(again, 'GET', '/__sandbox/clock');
    expect(clock.body).toEqual({ now: '2026-01-18T09:00:00.000Z', mode: 'manual' });
  });
});
