import { afterEach, describe, expect, it } from 'vitest';
import {
  call,
  sandbox,
  sandboxToken,
  type TestSandbox,
  type WebhookReceiver,
  webhookReceiver,
} from '../helpers.js';

/**
 * A vendor's nightly sync over 60 simulated days against one consumer of each vertical: each night,
 * at 09:00, it pulls what changed since its last run (updated_after=<the last run's instant> where
 * the list has it, a day where the list takes a day, the days from the last run's to today's where
 * it has dates only) and receives the webhooks; at the end, what it saw is exactly what the world
 * holds, and every order announced is one the world generated. The business of the hours between
 * midnight and the run is there when it runs.
 */

// biome-ignore lint/suspicious/noExplicitAny: records are compared whole
type Item = any;

const DAY = 86_400;
const NIGHTS = 60;
const START = '2026-01-15';

const dayAfter = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
const isoDay = (days: number) =>
  new Date(Date.parse(`${START}T00:00:00Z`) + days * DAY * 1000).toISOString().slice(0, 10);

/** Every item of a list, all pages. */
async function all(s: TestSandbox, token: string, path: string): Promise<Item[]> {
  const out: Item[] = [];
  const joiner = path.includes('?') ? '&' : '?';
  for (let page = 1; ; page++) {
    const res = await call(s.app, 'GET', `${path}${joiner}page=${page}&size=100`, { token });
    expect(res.status, `${path}: ${res.text}`).toBe(200);
    out.push(...res.body.items);
    if (page * 100 >= res.body.total) return out;
  }
}

interface Feed {
  name: string;
  /** The list read in full (the world's truth at the end). */
  full(ids: Record<string, string>): string;
  /** What a night pulls for the day that ended (`day`). */
  night(ids: Record<string, string>, day: string): string;
  key(item: Item): string;
}

const FEEDS: Feed[] = [
  {
    name: 'POS orders',
    full: (ids) => `/consumers/${ids.POS}/pos/orders?date_from=2021-01-01`,
    // The day that ended and the day so far: orders appear as they are placed.
    night: (ids, day) => `/consumers/${ids.POS}/pos/orders?date_from=${day}&date_to=${dayAfter(day)}`,
    key: (item) => item.id,
  },
  {
    name: 'eCommerce orders',
    full: (ids) => `/consumers/${ids.ECOMMERCE}/commerce/orders`,
    night: (ids, day) => `/consumers/${ids.ECOMMERCE}/commerce/orders?updated_after=${day}T09:00:00Z`,
    key: (item) => item.id,
  },
  {
    name: 'invoicing invoices',
    full: (ids) => `/consumers/${ids.INVOICING}/invoicing/invoices`,
    night: (ids, day) => `/consumers/${ids.INVOICING}/invoicing/invoices?updated_after=${day}T09:00:00Z`,
    key: (item) => item.id,
  },
  {
    name: 'accounting customer invoices',
    full: (ids) => `/consumers/${ids.ACCOUNTING}/accounting/invoices/type/customer_invoice`,
    night: (ids, day) =>
      `/consumers/${ids.ACCOUNTING}/accounting/invoices/type/customer_invoice?updated_after=${day}T09:00:00Z`,
    key: (item) => item.id,
  },
  {
    name: 'payments',
    full: (ids) => `/consumers/${ids.PAYMENT}/payment/payments`,
    night: (ids, day) =>
      `/consumers/${ids.PAYMENT}/payment/payments?date_from=${day}&date_to=${dayAfter(day)}`,
    key: (item) => item.id,
  },
  {
    name: 'PMS invoices',
    full: (ids) => `/consumers/${ids.PMS}/pms/invoices?date_from=2021-01-01&date_to=2099-12-31`,
    night: (ids, day) => `/consumers/${ids.PMS}/pms/invoices?date_from=${day}&date_to=${dayAfter(day)}`,
    key: (item) => item.id,
  },
];

describe('a nightly sync over every vertical', () => {
  let receiver: WebhookReceiver | null = null;
  afterEach(async () => {
    await receiver?.close();
    receiver = null;
  });

  it(`sees over ${NIGHTS} nights exactly what each vertical's world generated, and an event for each order`, async () => {
    const s = sandbox();
    const ids = s.ids.verticalConsumers;
    let token = await sandboxToken(s);

    // The vendor's webhook receiver.
    receiver = await webhookReceiver();
    const { url, received } = receiver;
    for (const [event, integrationid] of [
      ['pos.order.completed', 9012],
      ['commerce.order.created', 90301],
    ] as const) {
      const hook = await call(s.app, 'POST', '/webhooks', { token, body: { event, url, integrationid } });
      expect(hook.status, hook.text).toBe(200);
    }

    // The banking accounts, and the first full sync of everything.
    const accounts = await all(s, token, `/consumers/${ids.BANKING}/banking/accounts`);
    expect(accounts.length).toBeGreaterThan(0);
    const bankFeeds: Feed[] = accounts.map((account) => ({
      name: `bank account ${account.id}`,
      full: () => `/consumers/${ids.BANKING}/banking/transactions?account_id=${account.id}`,
      night: (_ids, day) =>
        `/consumers/${ids.BANKING}/banking/transactions?account_id=${account.id}&updated_after=${day}`,
      key: (item) => item.id,
    }));
    const feeds = [...FEEDS, ...bankFeeds];
    const seen = new Map<string, Map<string, Item>>();
    const firstCount = new Map<string, number>();
    for (const feed of feeds) {
      const items = await all(s, token, feed.full(ids));
      seen.set(feed.name, new Map(items.map((item) => [feed.key(item), item])));
      firstCount.set(feed.name, items.length);
    }

    for (let night = 1; night <= NIGHTS; night++) {
      const moved = await call(s.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: DAY } });
      expect(moved.status).toBe(200);
      token = await sandboxToken(s);
      const day = isoDay(night - 1);
      for (const feed of feeds) {
        const store = seen.get(feed.name) as Map<string, Item>;
        for (const item of await all(s, token, feed.night(ids, day))) store.set(feed.key(item), item);
      }
    }
    await s.app.services.ticker.idle();

    // What each feed saw is what the world holds, body for body; and every vertical moved.
    for (const feed of feeds) {
      const world = await all(s, token, feed.full(ids));
      const store = seen.get(feed.name) as Map<string, Item>;
      expect([...store.keys()].sort(), feed.name).toEqual(world.map(feed.key).sort());
      for (const item of world)
        expect(store.get(feed.key(item)), `${feed.name} ${feed.key(item)}`).toEqual(item);
      if (!feed.name.startsWith('bank account')) {
        expect(world.length, feed.name).toBeGreaterThan(firstCount.get(feed.name) ?? 0);
      }
    }
    const bankGrew = bankFeeds.some(
      (feed) => (seen.get(feed.name) as Map<string, Item>).size > (firstCount.get(feed.name) ?? 0),
    );
    expect(bankGrew).toBe(true);

    // One event for each order generated after the first sync, POS and eCommerce alike.
    const posCompleted = [...(seen.get('POS orders') as Map<string, Item>).values()].filter(
      (order) => order.closing_date !== null && order.closing_date > `${START}T09:00:00.000Z`,
    );
    // The webhooks hear every connection of their integration in the account, read or not: those of
    // the consumers this sync follows are the orders it saw.
    const announcedPos = received
      .filter((body) => body.event === 'pos.order.completed' && body.consumerid === ids.POS)
      .map((b) => b.order_id);
    expect([...announcedPos].sort()).toEqual(posCompleted.map((order) => order.id).sort());
    const commerceOrders = [...(seen.get('eCommerce orders') as Map<string, Item>).values()].filter(
      (order) => order.created_on > `${START}T09:00:00.000Z`,
    );
    const announcedCommerce = received
      .filter((body) => body.event === 'commerce.order.created' && body.consumerid === ids.ECOMMERCE)
      .map((body) => body.order_id);
    expect([...announcedCommerce].sort()).toEqual(commerceOrders.map((order) => order.id).sort());
    expect(new Set(received.map((body) => `${body.event}:${body.order_id}`)).size).toBe(received.length);
  }, 300_000);
});
