import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_ANNOUNCED_DAYS } from '../../../src/modules/commerce/index.js';
import { STOCK_DELIVERY } from '../../../src/modules/commerce/world/commerce.seed.js';
import {
  call,
  sandbox,
  sandboxToken,
  type TestSandbox,
  type WebhookReceiver,
  webhookReceiver,
} from '../../helpers.js';

/**
 * The eCommerce business goes on with the clock: each day after the first use of a connection's data
 * draws its own orders (some by new customers), which appear at the minute they are placed and are
 * announced by commerce.order.created; an order ships, is cancelled or sent back at instants drawn when
 * it was placed, and shows each change from that instant, its update time; the stock follows the
 * orders; the days already there never change; the same moves give the same bytes, whatever the cache.
 */

const DAY = 86_400;
const START = '2026-01-15';
/** The instant the history stops and the clock starts. */
const MORNING = `${START}T09:00:00.000Z`;
// biome-ignore lint/suspicious/noExplicitAny: records are read field by field
type Item = any;

let s: TestSandbox;
let consumer: string;

beforeEach(() => {
  s = sandbox();
  consumer = s.ids.verticalConsumers.ECOMMERCE as string;
});

async function advanceDays(days: number, app = s.app): Promise<void> {
  const res = await call(app, 'POST', '/__sandbox/clock', { body: { advance_seconds: days * DAY } });
  expect(res.status, res.text).toBe(200);
}

/** Every item of a list, all pages, as the API answers them (a new token: the clock moved). */
async function list(resource: string, query = '', t: TestSandbox = s): Promise<Item[]> {
  const bearer = await sandboxToken(t);
  const out: Item[] = [];
  for (let page = 1; ; page++) {
    const res = await call(
      t.app,
      'GET',
      `/consumers/${consumer}/commerce/${resource}?${query}&page=${page}&size=100`,
      { token: bearer },
    );
    expect(res.status, res.text).toBe(200);
    out.push(...res.body.items);
    if (page * 100 >= res.body.total) return out;
  }
}

const orders = (query = '', t: TestSandbox = s) => list('orders', query, t);

/** A paid order a client places now, of units of variants at 10 before 21 % VAT; answers the API's answer. */
async function placeOrder(lines: { id: string; quantity: number }[]) {
  const address = {
    first_name: 'Ada',
    last_name: 'Peeters',
    street: 'Meir',
    number: '1',
    city: 'Antwerpen',
    country: 'BE',
  };
  const created = await call(s.app, 'POST', `/consumers/${consumer}/commerce/orders`, {
    token: await sandboxToken(s),
    body: {
      customer: { email: 'ada.peeters@example.test' },
      billing_address: address,
      shipping_address: address,
      currency: 'EUR',
      payment_method: 'card',
      lines: lines.map((line) => ({
        variant_id: line.id,
        quantity: line.quantity,
        unit_price: 10,
        tax_rate: 21,
      })),
    },
  });
  expect(created.status, created.text).toBe(200);
  return created;
}
const dayOf = (instant: string) => instant.slice(0, 10);
const isoDay = (base: string, days: number) =>
  new Date(Date.parse(`${base}T00:00:00Z`) + days * DAY * 1000).toISOString().slice(0, 10);
/** The orders the days after the history drew (the clients of these tests create none). */
const living = (list: Item[]) => list.filter((o) => o.created_on > MORNING);
const byId = (list: Item[]) => new Map<string, Item>(list.map((item) => [item.id, item]));
/** Every instant a record (an order, a product) holds, at any depth. */
const instantsOf = (item: unknown): string[] =>
  typeof item === 'string'
    ? /^\d{4}-\d{2}-\d{2}T/.test(item)
      ? [item]
      : []
    : item !== null && typeof item === 'object'
      ? Object.values(item).flatMap(instantsOf)
      : [];

/** Sets the world's pace from a day on, as the sandbox's own write does. */
async function setPace(app: TestSandbox['app'], from: string, pace: 'quiet' | 'busy'): Promise<void> {
  await app.services.store.transact(async (write) => {
    write.world.sandbox_state.pace = { changes: [{ from, pace }] };
  });
}

/** The orders announced of the showcase consumer's shop (every shop a webhook reaches is). */
const ofConsumer = (deliveries: unknown): string[] =>
  (deliveries as { payload: { order_id: string; consumerid: string } }[])
    .filter((d) => d.payload.consumerid === consumer)
    .map((d) => d.payload.order_id);

describe('the eCommerce business on the clock', () => {
  let receiver: WebhookReceiver | null = null;
  afterEach(async () => {
    await receiver?.close();
    receiver = null;
  });

  it('a vendor nightly sync over 60 days sees every order, product and customer created or changed, and a webhook for every order placed', async () => {
    // The vendor's webhook receiver.
    receiver = await webhookReceiver();
    const { url, received } = receiver;
    const hook = await call(s.app, 'POST', '/webhooks', {
      token: await sandboxToken(s),
      body: { event: 'commerce.order.created', url, integrationid: 90301 },
    });
    expect(hook.status, hook.text).toBe(200);

    // The first sync: everything up to now (the clock starts on 2026-01-15 at 09:00).
    const seenOrders = byId(await orders());
    const seenProducts = byId(await list('products'));
    const initialVariants = byId(await list('variants'));
    const initialCustomers = await list('customers');
    const pulledByDay = new Map<string, string[]>();
    for (let night = 1; night <= 60; night++) {
      await advanceDays(1);
      const yesterday = isoDay(START, night - 1);
      const since = `${yesterday}T00:00:00Z`;
      for (const order of await orders(`updated_after=${since}`)) seenOrders.set(order.id, order);
      for (const product of await list('products', `updated_after=${since}`))
        seenProducts.set(product.id, product);
      const placed = await orders(`date_from=${yesterday}&date_to=${yesterday}`);
      pulledByDay.set(
        yesterday,
        placed.map((o) => o.id),
      );
    }
    await s.app.services.ticker.idle();

    // The business moved: orders on most days, none dated after the clock (09:00 on the last day,
    // whose morning is there already: the business appears as it happens).
    const clock = `${isoDay(START, 60)}T09:00:00.000Z`;
    const all = await orders();
    const placed = living(all);
    const days = new Set(placed.map((o) => dayOf(o.created_on)));
    expect(days.size).toBeGreaterThanOrEqual(40);
    expect(placed.length).toBeGreaterThan(70);
    expect([...days].every((d) => d >= START && d <= isoDay(START, 60))).toBe(true);
    // What the nightly pulls saw is exactly what the world holds (ids and bodies), products too.
    expect([...seenOrders.keys()].sort()).toEqual(all.map((o) => o.id).sort());
    for (const order of all) expect(seenOrders.get(order.id), order.id).toEqual(order);
    const products = await list('products');
    expect([...seenProducts.keys()].sort()).toEqual(products.map((p) => p.id).sort());
    for (const product of products) expect(seenProducts.get(product.id), product.id).toEqual(product);
    // Each day's orders by date are those the world holds for that day, placed once the day was over.
    for (const [day, ids] of pulledByDay) {
      expect(all.filter((o) => dayOf(o.created_on) === day).map((o) => o.id)).toEqual(ids);
    }

    // Orders look like the history's: their amounts add up, in the customer's currency.
    const sum = (amounts: number[]) => Math.round(amounts.reduce((t, a) => t + a * 100, 0)) / 100;
    for (const order of placed) {
      expect(order.total, order.id).toBe(
        sum([order.total_without_fees, ...order.other_fees.map((f: Item) => f.total)]),
      );
      expect(order.total).toBe(sum([order.untaxed_amount, order.tax_amount]));
      expect(order.current_total).toBe(sum([order.total, -order.refunded_amount]));
      expect(['EUR', 'GBP']).toContain(order.currency);
      expect(order.order_number).toMatch(
        new RegExp(`^#${dayOf(order.created_on).replaceAll('-', '')}\\d{3}$`),
      );
    }
    // Most ship; some are cancelled or sent back on a later day, their update time the change's.
    const statuses = new Set(placed.map((o) => o.status));
    expect(statuses).toContain('shipped');
    const later = placed.filter((o) => ['cancelled', 'refunded'].includes(o.status));
    expect(later.length).toBeGreaterThan(0);
    for (const order of later) {
      expect(dayOf(order.last_updated_on) > dayOf(order.created_on), order.id).toBe(true);
      expect(order.current_total).toBe(0);
    }
    for (const order of placed.filter((o) => o.status === 'shipped'))
      expect(order.last_updated_on >= order.delivery_date).toBe(true);
    expect(placed.every((o) => o.last_updated_on <= clock)).toBe(true);

    // Some orders came from customers new to the shop, signed up that day, before ordering.
    const customers = byId(await list('customers'));
    const newcomers = [...customers.values()].filter((c) => c.created_on > MORNING);
    expect(newcomers.length).toBeGreaterThan(5);
    expect(customers.size).toBe(initialCustomers.length + newcomers.length);
    for (const order of placed) expect(customers.has(order.customer.id), order.id).toBe(true);
    for (const customer of newcomers) {
      const first = placed.find((o) => o.customer.id === customer.id);
      expect(first, customer.id).toBeDefined();
      expect(dayOf(customer.created_on)).toBe(dayOf(first.created_on));
      expect(customer.created_on < first.created_on).toBe(true);
    }

    // The stock follows the orders: what was sold is gone, never below zero; deliveries of whole
    // batches came in where the stock could not cover an order.
    const variants = await list('variants');
    const sold = new Map<string, number>();
    for (const order of placed.filter((o) => ['confirmed', 'shipped', 'refunded'].includes(o.status)))
      for (const line of order.lines)
        sold.set(line.variant.id, (sold.get(line.variant.id) ?? 0) + line.quantity);
    expect([...sold.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(100);
    let deliveries = 0;
    for (const variant of variants) {
      for (const place of variant.inventory_details)
        expect(place.available_quantity).toBeGreaterThanOrEqual(0);
      const before = initialVariants.get(variant.id).available_quantity;
      const delivered = variant.available_quantity - before + (sold.get(variant.id) ?? 0);
      expect(delivered, variant.sku).toBeGreaterThanOrEqual(0);
      expect(delivered % STOCK_DELIVERY, variant.sku).toBe(0);
      deliveries += delivered / STOCK_DELIVERY;
    }
    expect(deliveries).toBeGreaterThan(0);
    // A product was last updated when its stock last moved: an order placed (and paid) or cancelled.
    const lastMove = new Map<string, string>();
    const productOf = new Map(variants.map((v) => [v.id, v.parent_id]));
    for (const order of placed.filter((o) => o.status !== 'cancelled_unpaid')) {
      const at = order.status === 'cancelled' ? order.cancelled_on : order.created_on;
      for (const line of order.lines) {
        const product = productOf.get(line.variant.id);
        if (at > (lastMove.get(product) ?? '')) lastMove.set(product, at);
      }
    }
    expect(lastMove.size).toBeGreaterThan(5);
    for (const product of products) {
      if (lastMove.has(product.id))
        expect(product.last_updated_on, product.id).toBe(lastMove.get(product.id));
      else expect(product.last_updated_on <= MORNING, product.id).toBe(true);
    }

    // One commerce.order.created for each order placed since the vendor's first sync, no more, with
    // the order as it was placed.
    // (Every shop of the connector in the environment is announced: this consumer's, among them.)
    const ours = received.filter((body) => body.consumerid === consumer);
    const announced = ours.map((body) => body.order_id as string);
    expect(new Set(announced).size).toBe(announced.length);
    expect([...announced].sort()).toEqual(placed.map((o) => o.id).sort());
    const ordersById = byId(all);
    for (const body of ours) {
      const order = ordersById.get(body.order_id as string);
      expect(body).toMatchObject({
        event: 'commerce.order.created',
        consumerid: consumer,
        integrationid: 90301,
        order_number: order.order_number,
        currency: order.currency,
        total: order.total,
        status: order.status === 'cancelled_unpaid' ? 'cancelled_unpaid' : 'confirmed',
      });
    }
  }, 240_000);

  it('orders, their changes, customers and stock appear at their minute: a pull every 31 minutes misses none and sees each change once', async () => {
    // From 09:00 on the 27th (the shop busy enough there to show every kind of change), a first sync,
    // then a pull of what changed since the previous pull's clock time, every 31 minutes, for 29 hours.
    // The connection's data was first used on the 15th.
    await orders();
    await advanceDays(12);
    const from = `${isoDay(START, 12)}T09:00:00.000Z`;
    const nextMorning = `${isoDay(START, 13)}T09:00:00.000Z`;
    receiver = await webhookReceiver();
    const hook = await call(s.app, 'POST', '/webhooks', {
      token: await sandboxToken(s),
      body: { event: 'commerce.order.created', url: receiver.url, integrationid: 90301 },
    });
    expect(hook.status, hook.text).toBe(200);
    const pull = (kind: 'orders' | 'products', query = '') => list(kind, query);
    const synced = { orders: byId(await pull('orders')), products: byId(await pull('products')) };
    const versions = { orders: new Map<string, Item[]>(), products: new Map<string, Item[]>() };
    for (const kind of ['orders', 'products'] as const)
      for (const [id, item] of synced[kind]) versions[kind].set(id, [item]);
    const customersThen: Item[][] = [await list('customers')];
    let previous = from;
    for (let i = 0; i < 56; i++) {
      const moved = await call(s.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: 31 * 60 } });
      expect(moved.status).toBe(200);
      const now = new Date((moved.body as { now: string }).now).toISOString();
      for (const kind of ['orders', 'products'] as const) {
        for (const item of await pull(kind, `updated_after=${previous}`)) {
          // Changed since the last pull, and nothing dated after the clock.
          expect(item.last_updated_on > previous && item.last_updated_on <= now, item.id).toBe(true);
          for (const instant of instantsOf(item)) expect(instant <= now, `${item.id} ${instant}`).toBe(true);
          synced[kind].set(item.id, item);
          versions[kind].set(item.id, [...(versions[kind].get(item.id) ?? []), item]);
        }
      }
      // Customers (a list without updated_after): those signed up so far, none going away.
      const customers = await list('customers');
      expect(customers.every((c) => c.created_on <= now)).toBe(true);
      const ids = new Set(customers.map((c) => c.id));
      expect((customersThen.at(-1) as Item[]).every((c) => ids.has(c.id))).toBe(true);
      customersThen.push(customers);
      previous = now;
    }
    await s.app.services.ticker.idle();

    // What the pulls saw is what the full lists hold at the end, ids and bodies.
    for (const kind of ['orders', 'products'] as const) {
      const all = await pull(kind);
      expect([...synced[kind].keys()].sort(), kind).toEqual(all.map((item) => item.id).sort());
      for (const item of all) expect(synced[kind].get(item.id), `${kind} ${item.id}`).toEqual(item);
      // Each change was pulled once: a record's versions come one change after the other.
      for (const [id, pulled] of versions[kind]) {
        const times = pulled.map((item) => item.last_updated_on);
        expect(new Set(times).size, id).toBe(times.length);
        expect([...times].sort(), id).toEqual(times);
      }
    }
    // The business appeared at its minutes, all whole: orders placed in the afternoon, the night and
    // the next morning; some pulled as placed and again once shipped, as they were but for it.
    const placed = living([...synced.orders.values()]);
    for (const order of placed) {
      for (const instant of instantsOf(order))
        expect(instant.slice(16), `${order.id} ${instant}`).toBe(':00.000Z');
    }
    const placedNow = placed.filter((o) => o.created_on > from);
    expect(placedNow.length).toBeGreaterThan(2);
    expect(
      placedNow.some((o) => o.created_on < nextMorning && dayOf(o.created_on) === dayOf(nextMorning)),
    ).toBe(true);
    const changed = [...versions.orders.values()].filter((pulled) => pulled.length > 1);
    const shipped = changed.filter(
      (pulled) => pulled[0].status === 'confirmed' && pulled[1].status === 'shipped',
    );
    expect(shipped.length).toBeGreaterThan(0);
    expect(shipped.some(([then]) => then.created_on > from)).toBe(true);
    expect(
      changed.some(([, after]) => after.last_updated_on < nextMorning && after.last_updated_on > from),
    ).toBe(true);
    for (const [then, ...later] of changed) {
      for (const after of later) {
        for (const field of ['created_on', 'order_number', 'customer', 'currency', 'total', 'other_fees'])
          expect(after[field], `${then.id} ${field}`).toEqual(then[field]);
      }
    }
    // Products pulled again when an order moved their stock; newcomers signed up at whole minutes.
    expect([...versions.products.values()].some((pulled) => pulled.length > 1)).toBe(true);
    const newcomers = (customersThen.at(-1) as Item[]).filter((c) => c.created_on > MORNING);
    expect(newcomers.length).toBeGreaterThan(0);
    for (const customer of newcomers) expect(customer.created_on.slice(16)).toBe(':00.000Z');
    // Each order the shop's customers placed was announced once, as it was placed.
    const announced = receiver.received
      .filter((body) => body.consumerid === consumer)
      .map((body) => body.order_id as string);
    expect([...announced].sort()).toEqual(placedNow.map((o) => o.id).sort());
  }, 120_000);

  it('the same clock moves give the same bytes, with a cache of one byte too; the days already there stay as they were but for their scheduled changes', async () => {
    const tiny = sandbox({ cacheBytes: 1 });
    const before = await orders();
    expect(await orders('', tiny)).toEqual(before);
    await advanceDays(20);
    await advanceDays(20, tiny.app);
    const after = await orders();
    expect(await orders('', tiny)).toEqual(after);
    expect(await list('products', '', tiny)).toEqual(await list('products'));
    expect(await list('customers', '', tiny)).toEqual(await list('customers'));
    expect(after.length).toBeGreaterThan(before.length + 20);
    // The history's orders are there still, unchanged.
    const now = byId(after);
    for (const order of before) expect(now.get(order.id)).toEqual(order);
    // A further move adds days; the first twenty keep their orders, each unchanged unless the clock
    // passed one of its scheduled changes, whose instant is then its update time.
    await advanceDays(20);
    const later = await orders();
    const firstDays = (list: Item[]) => living(list).filter((o) => dayOf(o.created_on) < '2026-02-04');
    expect(firstDays(later).map((o) => o.id)).toEqual(firstDays(after).map((o) => o.id));
    // What the first build showed: the changes up to the instant it was built for (the clock's).
    const cutoff = '2026-02-04T09:00:00.000Z';
    let changed = 0;
    for (const order of firstDays(later)) {
      const then = now.get(order.id);
      if (order.last_updated_on <= cutoff) {
        expect(order, order.id).toEqual(then);
        continue;
      }
      changed += 1;
      expect(order.last_updated_on > then.last_updated_on, order.id).toBe(true);
      const fixed = ['id', 'order_number', 'created_on', 'customer', 'currency', 'total', 'other_fees'];
      for (const field of fixed) expect(order[field], `${order.id} ${field}`).toEqual(then[field]);
    }
    expect(changed).toBeGreaterThan(0);
  });

  it('a pace set from a day on scales the days from it and leaves the days before as they were', async () => {
    const busy = sandbox();
    await orders();
    await orders('', busy);
    await advanceDays(10);
    await advanceDays(10, busy.app);
    const read = await orders('', busy);
    expect(read).toEqual(await orders());
    // From the clock's day on, the second world is busy.
    await setPace(busy.app, '2026-01-25', 'busy');
    await advanceDays(30);
    await advanceDays(30, busy.app);
    const normal = living(await orders());
    const busier = living(await orders('', busy));
    const earlier = (list: Item[]) => list.filter((o) => dayOf(o.created_on) < '2026-01-25');
    const from = (list: Item[]) => list.filter((o) => dayOf(o.created_on) >= '2026-01-25');
    // The days before the change read the same in both worlds (the clock changed both alike).
    expect(earlier(busier).map((o) => o.id)).toEqual(earlier(living(read)).map((o) => o.id));
    expect(earlier(busier)).toEqual(earlier(normal));
    expect(from(busier).length).toBeGreaterThan(from(normal).length * 1.8);
  });

  it('an order a client creates keeps its number and stays as written while the days after add theirs', async () => {
    const variant = (await list('variants')).find((v) => v.available_quantity >= 2);
    const created = await placeOrder([{ id: variant.id, quantity: 2 }]);
    await advanceDays(20);
    const all = await orders();
    const mine = all.find((o) => o.id === created.body.id);
    expect(mine).toEqual(created.body);
    const numbers = all.map((o) => o.order_number);
    expect(new Set(numbers).size).toBe(numbers.length);
    expect(new Set(all.map((o) => o.source_ref.id)).size).toBe(all.length);
    const customers = await list('customers');
    expect(new Set(customers.map((c) => c.source_ref.id)).size).toBe(customers.length);
    expect(living(all).length).toBeGreaterThan(20);
  });

  it("the stock a client's order takes and the stock a client sets keep moving with the days' orders after them", async () => {
    // The same world twice: one where a client orders a unit of ten variants and sets the stock of
    // another at its first location, one where nobody writes; twenty days later, the first's stock is
    // the second's less what the order took, plus what the setting changed, and each product was last
    // updated at the later of the client's write and the days' last move.
    const twin = sandbox();
    await advanceDays(1);
    await advanceDays(1, twin.app);
    const variants = (await list('variants')).filter((v) => v.available_quantity >= 2);
    // The twin's first use the same morning (the history stops at it).
    expect((await list('variants', '', twin)).length).toBeGreaterThanOrEqual(variants.length);
    const ordered = variants.slice(0, 10);
    const [set] = variants.slice(10);
    const created = await placeOrder(ordered.map((v) => ({ id: v.id, quantity: 1 })));
    const location = set.inventory_details[0].location.id;
    const wasHere = set.inventory_details[0].available_quantity;
    const setting = await call(
      s.app,
      'POST',
      `/consumers/${consumer}/commerce/variants/set_quantity/${set.id}`,
      {
        token: await sandboxToken(s),
        body: { location_id: location, available_quantity: wasHere + 7 },
      },
    );
    expect(setting.status, setting.text).toBe(200);
    const wroteAt = created.body.created_on;

    await advanceDays(20);
    await advanceDays(20, twin.app);
    const mine = new Map((await list('variants')).map((v) => [v.id, v]));
    const theirs = new Map((await list('variants', '', twin)).map((v) => [v.id, v]));
    let moved = 0;
    for (const [id, variant] of theirs) {
      const taken = ordered.some((v) => v.id === id) ? 1 : 0;
      const added = id === set.id ? 7 : 0;
      expect(mine.get(id)?.available_quantity, variant.sku).toBe(variant.available_quantity - taken + added);
      const before = variants.find((v) => v.id === id)?.available_quantity;
      if ((taken || added) && before !== undefined && before !== variant.available_quantity) moved += 1;
    }
    // The days after did sell some of the variants the client wrote (else the test proves nothing).
    expect(moved).toBeGreaterThan(0);
    const here = (v: Item) =>
      v.inventory_details.find((d: Item) => d.location.id === location).available_quantity;
    expect(here(mine.get(set.id))).toBe(here(theirs.get(set.id)) + 7);
    const products = new Map((await list('products')).map((p) => [p.id, p]));
    for (const product of await list('products', '', twin)) {
      const written = [...ordered, set].some((v) => v.parent_id === product.id);
      const expected = written && wroteAt > product.last_updated_on ? wroteAt : product.last_updated_on;
      expect(products.get(product.id)?.last_updated_on, product.id).toBe(expected);
    }
  });

  it('a world that kept the last day announced (as earlier worlds did) goes on from the end of that day', async () => {
    await orders();
    await advanceDays(5);
    await s.app.services.store.transact(async (write) => {
      write.world.sandbox_state['business:commerce'] = { through: '2026-01-18' };
    });
    const hook = await call(s.app, 'POST', '/webhooks', {
      token: await sandboxToken(s),
      body: { event: 'commerce.order.created', url: 'http://127.0.0.1:9/hooks', integrationid: 90301 },
    });
    expect(hook.status).toBe(200);
    await advanceDays(1);
    const deliveries = await call(
      s.app,
      'GET',
      '/__sandbox/webhook-deliveries?event=commerce.order.created&limit=500',
    );
    expect(deliveries.status).toBe(200);
    const announced = ofConsumer(deliveries.body);
    const clock = '2026-01-21T09:00:00.000Z';
    const since = living(await orders()).filter((o) => o.created_on >= '2026-01-19T00:00:00.000Z');
    expect(since.length).toBeGreaterThan(2);
    expect(since.every((o) => o.created_on <= clock)).toBe(true);
    expect([...announced].sort()).toEqual(since.map((o) => o.id).sort());
    expect(s.app.services.store.world.sandbox_state['business:commerce']).toEqual({ through: clock });
  });

  it(`a clock moved a year at once announces the last ${MAX_ANNOUNCED_DAYS} days, and the world stores none of the generated orders`, async () => {
    const hook = await call(s.app, 'POST', '/webhooks', {
      token: await sandboxToken(s),
      body: { event: 'commerce.order.created', url: 'http://127.0.0.1:9/hooks', integrationid: 90301 },
    });
    expect(hook.status).toBe(200);
    await orders();
    await advanceDays(365);
    const deliveries = await call(
      s.app,
      'GET',
      '/__sandbox/webhook-deliveries?event=commerce.order.created&limit=500',
    );
    expect(deliveries.status).toBe(200);
    const announced = ofConsumer(deliveries.body);
    const all = await orders();
    const created = new Map(all.map((o) => [o.id, dayOf(o.created_on)]));
    const cutoff = isoDay(START, 365 - MAX_ANNOUNCED_DAYS);
    const lastDays = living(all).filter((o) => dayOf(o.created_on) >= cutoff);
    expect(lastDays.length).toBeGreaterThan(20);
    expect([...announced].sort()).toEqual(lastDays.map((o) => o.id).sort());
    expect(announced.every((id) => (created.get(id) ?? '') >= cutoff)).toBe(true);
    // The world keeps the last instant announced: the clock's.
    expect(s.app.services.store.world.sandbox_state['business:commerce']).toEqual({
      through: `${isoDay(START, 365)}T09:00:00.000Z`,
    });
    // Without a webhook (whose deliveries are records), a year adds nothing of its orders to the world.
    const quiet = sandbox();
    await orders('', quiet);
    await advanceDays(1, quiet.app);
    const oneDay = quiet.app.services.store.world.meta.client_bytes ?? 0;
    await advanceDays(364, quiet.app);
    expect(living(await orders('', quiet)).length).toBeGreaterThan(500);
    expect((quiet.app.services.store.world.meta.client_bytes ?? 0) - oneDay).toBeLessThan(32 * 1024);
    expect(oneDay).toBeLessThan(16 * 1024);
  });
});
