import { weekday } from '../../../lib/calendar.js';
import { uuidFrom } from '../../../lib/ids.js';
import { NORMAL_PACE, type PaceOf } from '../../../lib/pace.js';
import { runAtOnce, type Sliced } from '../../../lib/slices.js';
import type { ConnectionDatasetArgs } from '../../../platform/datasets.js';
import {
  drawnDays,
  historyFaker,
  type SeedInput,
  seedInputOf,
  untilOf,
} from '../../../platform/seeding/dataset-seeder.js';
import type { Faker } from '../../../platform/seeding/fakers.js';
import {
  activityEnd,
  addDays,
  addMonths,
  atMinute,
  connectionIds,
  emailOf,
  fakerFor,
  historyStart,
  monthEnd,
  monthStart,
  monthsBetween,
  nativeRefs,
  pick,
  plusMinutes,
  reseed,
} from '../../../platform/seeding/vertical-data.js';
import type { SourceRefValue } from '../../../store/world.js';
import type {
  CommerceAddress,
  CommerceCustomer,
  CommerceDataset,
  CommerceOrder,
} from '../model/commerce.records.js';
import { GBP_PER_EUR, seedCatalogue } from './commerce.catalogue.js';
import {
  emailIn,
  numberIn,
  type ShopProfile,
  shipsTo,
  shopOf,
  shopPhone,
  streetIn,
} from './commerce.countries.js';
import {
  drawBasis,
  FREE_SHIPPING_FROM,
  lineAmounts,
  type OrderBasis,
  type OrderState,
  orderRecord,
  REFUND_REASONS,
  refundAll,
  refundOne,
  SHIPPING_FEE,
  seedOrder,
  shippingFee,
  shopNames,
  transactionOf,
} from './commerce.orders.js';

/**
 * The seeded dataset of one eCommerce connection (a home and lifestyle web shop of its connector's
 * country: Belgian, or German for Sandbox Shop Legacy, see commerce.countries), built from (seed,
 * consumerid, connectionid) and its `until` day: two stock locations, a catalogue of products with
 * variants, prices in EUR and GBP and stock per location, customers with addresses, and orders in
 * every status, with shipping fees, payments and refunds whose amounts add up: 160 in the year
 * before `until` (for the default clock, 2025-02-01 to 2026-01-15 09:00 UTC), and before them two or
 * three a month back to January 2021. The days after `until` add their own orders and customers, drawn
 * by the same builders, as they happen, and the stock follows them (see liveCommerceDays).
 */

/** The recent window: from the first of the month this many months before `until`'s. */
export const COMMERCE_RECENT_MONTHS = 11;
/** Orders of the recent window. */
const RECENT_ORDERS = 160;
/** Orders a month in the older history. */
const HISTORY_ORDERS: [number, number] = [2, 3];

export { FREE_SHIPPING_FROM, GBP_PER_EUR, lineAmounts, SHIPPING_FEE, shippingFee, shopNames };

/**
 * A customer of the shop, drawn from `faker`: a name, a country (mostly the shop's own), an e-mail,
 * often a phone, one address or a main and a delivery one, the currency of the country. `sourceRef`
 * and `created` are asked for at their place in the draws.
 */
function drawCustomer(
  faker: Faker,
  shop: ShopProfile,
  id: string,
  sourceRef: () => SourceRefValue,
  created: () => string,
): CommerceCustomer {
  const first = faker.person.firstName();
  const last = faker.person.lastName();
  const origin = faker.helpers.weightedArrayElement(
    shop.origins.map((o) => ({ weight: o.weight, value: o })),
  );
  const { country } = origin;
  const email = emailIn(shop, emailOf(faker, first, last));
  const phone = faker.datatype.boolean(0.7) ? shopPhone(faker, shop) : null;
  const address = (type: 'main' | 'delivery'): CommerceAddress => {
    const place = pick(faker, origin.places);
    return {
      address_type: type,
      company_name: null,
      first_name: first,
      last_name: last,
      street: streetIn(shop, faker.location.street()),
      number: numberIn(shop, faker.location.buildingNumber()),
      box: null,
      city: place.city,
      postal_code: place.postal_code,
      country,
      phone,
      email,
      vat: null,
    };
  };
  return {
    id,
    source_ref: sourceRef(),
    first_name: first,
    last_name: last,
    phone,
    email,
    language: origin.language(faker),
    internal_notes: faker.datatype.boolean(0.1) ? 'Prefers delivery after 5 pm' : null,
    currency: country === 'GB' ? 'GBP' : 'EUR',
    addresses: faker.datatype.boolean(0.3) ? [address('main'), address('delivery')] : [address('main')],
    created_on: created(),
  };
}

export function seedCommerceDataset(input: SeedInput): CommerceDataset {
  const { seed, consumerid, connectionid, integrationid } = input;
  const faker = fakerFor('commerce', seed, consumerid, connectionid);
  // The connector's country: its taxes, its warehouse and store, its customers (see commerce.countries).
  const shop = shopOf(integrationid);
  const names = shopNames(shop);
  const until = untilOf(input);
  const end = activityEnd(until);
  const recentStart = addMonths(monthStart(until), -COMMERCE_RECENT_MONTHS);
  const firstDay = historyStart(until);
  const id = connectionIds('commerce', connectionid);
  const ref = nativeRefs(faker, 1000, 8000, 9);
  const brand = faker.company.name().split(/[ ,]/)[0] ?? 'Maison';

  const { locations, taxes, categories, paymentMethods, products, variantIndex } = seedCatalogue({
    faker,
    shop,
    names,
    id,
    ref,
    brand,
    until,
    recentStart,
    firstDay,
  });

  const customers: Record<string, CommerceCustomer> = {};
  const customerIds: string[] = [];
  for (let i = 0; i < 40; i++) {
    // Customers since half a year before the history, the last ones two months before `until`.
    const customer = drawCustomer(
      faker,
      shop,
      id('customer', i),
      () => ref('customer'),
      () =>
        faker.date
          .between({
            from: `${addMonths(firstDay, -6)}T00:00:00Z`,
            to: `${monthEnd(addMonths(until, -2))}T00:00:00Z`,
          })
          .toISOString(),
    );
    customers[customer.id] = customer;
    customerIds.push(customer.id);
  }

  const dataset: CommerceDataset = {
    consumerid,
    connectionid,
    integrationid,
    counters: { order: 1000 },
    currencies: ['EUR', 'GBP'],
    locations,
    tax_rates: taxes,
    categories,
    payment_methods: paymentMethods,
    countries: shipsTo(shop),
    customers,
    products,
    variant_index: variantIndex,
    orders: {},
  };

  const sellable = Object.values(products).filter((p) => p.status === 'published');
  // The older history first (numbered first, drawn from a faker of its own), of customers known by then.
  const past = historyFaker('commerce', input);
  for (const month of monthsBetween(firstDay, recentStart)) {
    const from = Date.parse(`${month.first}T00:00:00Z`);
    const to = Date.parse(`${month.last}T23:59:59Z`);
    const count = past.number.int({ min: HISTORY_ORDERS[0], max: HISTORY_ORDERS[1] });
    const stamps = Array.from({ length: count }, () => past.number.int({ min: from, max: to })).sort(
      (a, b) => a - b,
    );
    for (const stamp of stamps) {
      const created = new Date(stamp).toISOString();
      const known = customerIds.filter((c) => String(customers[c]?.created_on) < created);
      const customer = customers[pick(past, known.length ? known : customerIds)] as CommerceCustomer;
      seedOrder(past, shop, dataset, sellable, customer, created, end);
    }
  }

  const start = Date.parse(`${recentStart}T00:00:00.000Z`);
  const stop = Date.parse(end);
  const instants = Array.from({ length: RECENT_ORDERS }, () =>
    faker.number.int({ min: start, max: stop - 3_600_000 }),
  ).sort((a, b) => a - b);
  for (const instant of instants) {
    const customer = customers[pick(faker, customerIds)] as CommerceCustomer;
    seedOrder(faker, shop, dataset, sellable, customer, new Date(instant).toISOString(), end);
  }
  return dataset;
}

/** Orders a usual weekday draws on average: each day's count is a Poisson draw around its rhythm. */
const ORDERS_PER_DAY = 1.8;
/** The share of a day's orders placed by a customer new to the shop. */
const NEW_CUSTOMERS = 0.25;
/** Units of a variant the warehouse receives at once when its stock cannot cover an order. */
export const STOCK_DELIVERY = 24;
/** The hours of a day the shop's customers order in (minutes after midnight UTC). */
const FIRST_ORDER = 7 * 60;
const LAST_ORDER = 23 * 60 + 30;

/** A change of a variant's stock: units taken by an order (negative), or put back by a cancellation. */
interface StockMove {
  at: string;
  variantId: string;
  quantity: number;
}

/**
 * The business of the days after the history: each day's orders are drawn from the seed, the
 * connection and the day alone, whole, so a day reads the same whenever it is built, and the days
 * already there never change when the clock adds more. What a build shows is what happened up to
 * `at` (the clock's time to the minute), from the dataset's first use (after its morning, which the
 * history holds) on: an order exists from the minute it is placed, a customer new to the shop from
 * the minute they sign up. Weekends are busier, December up to the 20th busier still, summer quieter,
 * and the world's pace scales every day (see docs/living-world.md).
 *
 * What happens to an order later (it ships, it is cancelled, sent back or partly returned) is drawn
 * when it is placed; the order shows each change from its instant on (a whole minute), with its
 * `last_updated_on` at that instant. The stock of the variants follows the orders (see settleStock).
 */
export function* liveCommerceDays(
  dataset: CommerceDataset,
  input: SeedInput,
  at: string,
  pace: PaceOf = NORMAL_PACE,
): Sliced<CommerceDataset> {
  const until = untilOf(input);
  // Nothing the days after the history draw happens by the end of its morning.
  if (at <= activityEnd(until)) return dataset;
  const today = at.slice(0, 10);
  const faker = fakerFor('commerce-day');
  const shop = shopOf(input.integrationid);
  const regulars = Object.values(dataset.customers);
  const sellable = Object.values(dataset.products).filter((p) => p.status === 'published');
  const morning = (Date.parse(activityEnd(until)) - Date.parse(`${until}T00:00:00.000Z`)) / 60_000;
  const moves: StockMove[] = [];
  for (const day of drawnDays(until, today)) {
    yield;
    reseed(faker, 'commerce-day', input.seed, dataset.connectionid, day);
    const count = poisson(faker, ORDERS_PER_DAY * busyness(day) * pace(day));
    // The first day's orders come after its morning (and its new customers' sign-up, after it too).
    const first = (day === until ? morning + 30 : FIRST_ORDER) * 60;
    const midnight = Date.parse(`${day}T00:00:00.000Z`);
    const seconds = Array.from({ length: count }, () =>
      faker.number.int({ min: first, max: LAST_ORDER * 60 }),
    ).sort((a, b) => a - b);
    // Numbers with the day in them: the API numbers the orders and customers it creates otherwise.
    const prefix = Number(day.replaceAll('-', '')) * 1000;
    let newcomers = 0;
    for (const [index, second] of seconds.entries()) {
      // Placed at the minute of the second drawn: every instant of an order is a whole minute.
      const created = new Date(midnight + Math.floor(second / 60) * 60_000).toISOString();
      let customer = pick(faker, regulars);
      if (faker.datatype.boolean(NEW_CUSTOMERS)) {
        newcomers += 1;
        const ref = String(prefix + newcomers);
        customer = drawCustomer(
          faker,
          shop,
          uuidFrom('commerce-customer', dataset.connectionid, day, newcomers - 1),
          () => ({ id: ref, model: 'customer' }),
          () => plusMinutes(created, -faker.number.int({ min: 2, max: 20 })),
        );
        if ((customer.created_on ?? '') <= at) dataset.customers[customer.id] = customer;
      }
      const basis = drawBasis(faker, shop, dataset, sellable, {
        id: uuidFrom('commerce-order', dataset.connectionid, day, index),
        number: prefix + index + 1,
        ref: `5${prefix + index + 1}`,
        created,
        customer,
      });
      // Drawn whole whenever it is built; shown once placed, as it stands at `at`.
      const order = livingOrder(faker, dataset, basis, day, at, moves);
      if (created <= at) dataset.orders[basis.id] = order;
    }
  }
  yield* settleStock(dataset, moves, at);
  return dataset;
}

/**
 * A day's order as it stands at `at`. Its course is drawn when it is placed: its payment, taken at
 * checkout, fails (cancelled_unpaid) or goes through (confirmed) as it is placed; a paid order ships
 * 12 to 40 hours later, unless the customer cancels it the next day (refunded whole); a shipped one
 * may be sent back whole (refunded) or in part (one unit) 2 to 14 days after. Each change shows from
 * its instant on, `last_updated_on` with it; before, the order stands as it was. A paid order takes its
 * units off the stock when it is placed; a cancelled one puts them back.
 */
function livingOrder(
  faker: Faker,
  dataset: CommerceDataset,
  basis: OrderBasis,
  day: string,
  at: string,
  moves: StockMove[],
): CommerceOrder {
  // Paid as placed, as an order the API creates is (the payment's own minutes drawn stay unused).
  const { created } = basis;
  const paid = faker.datatype.boolean(0.95);
  const course = faker.helpers.weightedArrayElement([
    { weight: 83, value: 'kept' },
    { weight: 5, value: 'cancelled' },
    { weight: 6, value: 'refunded' },
    { weight: 6, value: 'returned' },
  ] as const);
  const shippedOn = plusMinutes(created, faker.number.int({ min: 12 * 60, max: 40 * 60 }));
  const cancelledOn = atMinute(addDays(day, 1), faker.number.int({ min: 7 * 60, max: 20 * 60 }));
  const refundedOn = plusMinutes(shippedOn, faker.number.int({ min: 2 * 24 * 60, max: 14 * 24 * 60 }));
  const reason = basis.names(pick(faker, REFUND_REASONS));
  const sale = transactionOf(basis, 'sale', basis.total, paid ? 'success' : 'failed', created);
  const state: OrderState = {
    status: paid ? 'confirmed' : 'cancelled_unpaid',
    last_updated_on: created,
    confirmed_on: paid ? created : null,
    delivery_date: null,
    cancelled_on: paid ? null : created,
    fulfilled_from: null,
    payment_method_id: basis.method.id,
    transactions: [sale],
    refunds: [],
  };
  if (paid) {
    for (const line of basis.lines) {
      moves.push({ at: created, variantId: line.variant_id as string, quantity: -line.quantity });
      if (course === 'cancelled')
        moves.push({ at: cancelledOn, variantId: line.variant_id as string, quantity: line.quantity });
    }
    if (course === 'cancelled') {
      if (cancelledOn <= at) {
        state.status = 'cancelled';
        state.cancelled_on = cancelledOn;
        state.last_updated_on = cancelledOn;
        state.refunds = [refundAll(basis, cancelledOn, basis.names('Order cancelled by the customer'))];
      }
    } else if (shippedOn <= at) {
      state.status = 'shipped';
      state.delivery_date = shippedOn;
      state.fulfilled_from = dataset.locations[0]?.id ?? null;
      state.last_updated_on = shippedOn;
      if (course !== 'kept' && refundedOn <= at) {
        state.last_updated_on = refundedOn;
        if (course === 'refunded') {
          state.status = 'refunded';
          state.refunds = [refundAll(basis, refundedOn, reason)];
        } else {
          state.refunds = [refundOne(basis, refundedOn)];
        }
      }
    }
  }
  return orderRecord(faker, basis, state);
}

/**
 * The stock of the variants after the moves up to `at`, in the order they happened: an order
 * takes its units location by location in the shop's order; when the locations together lack them,
 * the warehouse (the first location) first receives deliveries of STOCK_DELIVERY units, enough to
 * cover the order, so no stock goes below zero. A cancellation puts the units back in the warehouse.
 * A product whose stock moved was last updated at its last move.
 */
function* settleStock(dataset: CommerceDataset, moves: StockMove[], at: string): Sliced<void> {
  const warehouse = dataset.locations[0]?.id;
  if (warehouse === undefined) return;
  // A stable sort: moves of the same instant keep the order they were drawn in.
  const due = moves.filter((move) => move.at <= at).sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  for (const [index, move] of due.entries()) {
    if (index % 256 === 0) yield;
    const product = dataset.products[dataset.variant_index[move.variantId] ?? ''];
    const variant = product?.variants.find((v) => v.id === move.variantId);
    if (!product || !variant) continue;
    const stock = variant.stock;
    if (move.quantity > 0) {
      stock[warehouse] = (stock[warehouse] ?? 0) + move.quantity;
    } else {
      let wanted = -move.quantity;
      const held = Object.values(stock).reduce((total, units) => total + units, 0);
      if (held < wanted) {
        stock[warehouse] =
          (stock[warehouse] ?? 0) + STOCK_DELIVERY * Math.ceil((wanted - held) / STOCK_DELIVERY);
      }
      for (const location of dataset.locations) {
        const here = stock[location.id] ?? 0;
        const taken = Math.min(here, wanted);
        stock[location.id] = here - taken;
        wanted -= taken;
      }
    }
    product.last_updated_on = move.at;
  }
}

/** How busy a day is against a usual weekday: the weekend, and the season of a gift shop. */
function busyness(day: string): number {
  const dayOfWeek = weekday(day);
  const month = Number(day.slice(5, 7));
  const season =
    month === 12 ? (Number(day.slice(8, 10)) <= 20 ? 1.8 : 1) : month === 7 || month === 8 ? 0.7 : 1;
  return (dayOfWeek === 0 || dayOfWeek === 6 ? 1.4 : 1) * season;
}

/** A count drawn around `mean` (a Poisson draw, from one number of the faker): some days are quiet. */
function poisson(faker: Faker, mean: number): number {
  const drawn = faker.number.float({ min: 0, max: 1 });
  let count = 0;
  let chance = Math.exp(-mean);
  let below = chance;
  while (drawn > below && count < 1000) {
    count += 1;
    chance = (chance * mean) / count;
    below += chance;
  }
  return count;
}

/**
 * Builds one connection's dataset from the seed (the vertical module's `build`): its history up to
 * the origin's day, and the business of the days after it as it stands at `at` (the clock's time to
 * the minute; by default that day: the history alone).
 */
export function* commerceDatasetBuild(
  seed: number,
  args: ConnectionDatasetArgs,
  at?: string,
  pace: PaceOf = NORMAL_PACE,
  origin?: string,
): Sliced<CommerceDataset> {
  const input = seedInputOf(seed, args, origin);
  return yield* liveCommerceDays(seedCommerceDataset(input), input, at ?? untilOf(input), pace);
}

/** commerceDatasetBuild, at once. */
export const buildCommerceDataset = (...args: Parameters<typeof commerceDatasetBuild>): CommerceDataset =>
  runAtOnce(commerceDatasetBuild(...args));
