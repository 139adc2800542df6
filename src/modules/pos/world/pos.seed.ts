import { LATEST_INSTANT, weekday } from '../../../lib/calendar.js';
import { uuidFrom } from '../../../lib/ids.js';
import { own } from '../../../lib/own.js';
import { NORMAL_PACE, type PaceOf } from '../../../lib/pace.js';
import { runAtOnce, type Sliced } from '../../../lib/slices.js';
import { loadCatalogue } from '../../../platform/catalogue.js';
import { COUNTRY_TRAITS, countryOf } from '../../../platform/countries.js';
import type { ConnectionDatasetArgs } from '../../../platform/datasets.js';
import { localNames } from '../../../platform/local-names.js';
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
  dayIn,
  daysBetween,
  fakerFor,
  historyStart,
  monthsBetween,
  pad,
  pick,
  plusMinutes,
  reseed,
  round2,
  sum2,
  taxOf,
} from '../../../platform/seeding/vertical-data.js';
import type { VerticalLocation } from '../../../store/world.js';
import type {
  PosDataset,
  PosDiscount,
  PosModeValue,
  PosModifierLine,
  PosOrder,
  PosOrderLine,
  PosPayment,
  PosPaymentMethod,
  PosProduct,
  PosSourceValue,
} from '../model/pos.records.js';
import { drawCustomers, seedCatalogue } from './pos.catalogue.js';
import { type Flavour, localPaymentName, RESTAURANT, SHOP, TIME_ZONES } from './pos.flavours.js';
import {
  completionPayment,
  lineGross,
  linePrice,
  modifierLine,
  orderLine,
  orderTotals,
} from './pos.lines.js';
import { DELIVERY_FEE_NAMES, POS_NAMES } from './pos.names.js';

/**
 * The seeded dataset of one Point of Sale connection, built from (seed, consumerid, connectionid)
 * and its `until` day alone. Zelty (9012) is a restaurant group, any other POS a shop: two
 * locations, a catalogue with categories, modifiers and accounting categories, customers, and the
 * orders, closed and paid: every order of the two months before `until` (for the default clock,
 * 2025-11-15 to 2026-01-15 09:00 UTC), and before them a few orders a month at each location back
 * to January 2021. A few orders of the last morning are still open and close, paid, when the clock
 * reaches their time.
 */

/** The recent window, whose every business day is seeded: the two months before `until`. */
export const POS_RECENT_MONTHS = 2;
/** Orders a month at each location in the older history. */
const HISTORY_ORDERS: [number, number] = [2, 3];
/** Opening hours (UTC minutes after midnight) in which orders are created. */
const OPENING = 7 * 60;
const CLOSING = 20 * 60 + 30;

export { completionPayment, lineGross, linePrice, localPaymentName, modifierLine, orderLine, orderTotals };

export function* seedPosDataset(input: SeedInput): Sliced<PosDataset> {
  const { seed, consumerid, connectionid, integrationid } = input;
  const faker = fakerFor('pos', seed, consumerid, connectionid);
  // The connector's country: its places, its VAT rates (a French restaurant charges 10 % on site).
  const country = countryOf(
    loadCatalogue().get(integrationid) ?? { integrationid, supported_countries: null },
  );
  const CITIES = COUNTRY_TRAITS[country].places;
  const until = untilOf(input);
  const end = activityEnd(until);
  const recentStart = addMonths(until, -POS_RECENT_MONTHS);
  const firstDay = historyStart(until);
  const flavour = integrationid === 9012 ? RESTAURANT : SHOP;
  // What the till names, in its country's language.
  const names = localNames(POS_NAMES, country);
  const id = connectionIds('pos', connectionid);
  const brand = faker.company.name().split(/[ ,]/)[0] ?? 'Maison';

  const locations: VerticalLocation[] = flavour.locationNames.map((suffix, index) => {
    const place = CITIES[(index * 2 + faker.number.int({ min: 0, max: 1 })) % CITIES.length] ?? CITIES[0];
    return {
      id: id('location', index),
      name: `${brand} ${names(suffix)}`,
      timezone: TIME_ZONES[country],
      address: {
        address_type: 'main',
        name: `${brand} ${names(suffix)}`,
        street: faker.location.street(),
        number: faker.location.buildingNumber(),
        box: null,
        city: place?.city ?? 'Bruxelles',
        postal_code: place?.postal_code ?? '1000',
        country,
      },
    };
  });
  const allLocations = locations.map((l) => l.id);
  // The second location does not sell everything: a few products and one payment method are the first's only.
  const firstOnly = [allLocations[0] as string];

  const drawn = { faker, country, names, id };
  const { taxes, accounting, categories, modifiers, products, paymentMethods } = seedCatalogue({
    ...drawn,
    flavour,
    allLocations,
    firstOnly,
  });
  const lastJoined = addMonths(until, -POS_RECENT_MONTHS - 1);
  const { customers, customerIds } = drawCustomers({ ...drawn, firstDay, lastJoined, until });

  const dataset: PosDataset = {
    consumerid,
    connectionid,
    integrationid,
    counters: { order: 0, customer: customerIds.length },
    locations,
    tax_rates: taxes,
    accounting_categories: accounting,
    product_categories: categories,
    modifiers,
    products,
    payment_methods: paymentMethods,
    customers,
    orders: {},
    open_orders: [],
    daily_objectives: Object.fromEntries(
      locations.map((l) => [
        l.id,
        faker.number.int({ min: 14, max: 24 }) * (flavour === RESTAURANT ? 10 : 12),
      ]),
    ),
  };

  // The older history first (numbered first, drawn from a faker of its own), a few orders a month.
  const past = historyFaker('pos', input);
  const history = new OrderBuilder(past, flavour, dataset, id, end);
  for (const month of monthsBetween(firstDay, recentStart)) {
    yield;
    for (const location of locations) {
      const count = past.number.int({ min: HISTORY_ORDERS[0], max: HISTORY_ORDERS[1] });
      const instants = Array.from({ length: count }, () =>
        atMinute(dayIn(past, month.first, month.last), past.number.int({ min: OPENING, max: CLOSING })),
      ).sort();
      for (const instant of instants) {
        const known = customerIds.filter((c) => (customers[c]?.created_on ?? instant) < instant);
        history.order(location, instant, false, known);
      }
    }
  }

  const builder = new OrderBuilder(faker, flavour, dataset, id, end);
  for (const day of daysBetween(recentStart, until)) {
    yield;
    for (const location of locations) {
      const count = faker.number.int({ min: flavour.ordersPerDay[0], max: flavour.ordersPerDay[1] });
      const lastDay = day === until;
      const latest = lastDay
        ? Math.floor((Date.parse(end) - Date.parse(`${day}T00:00:00Z`)) / 60_000) - 5
        : CLOSING;
      const minutes = Array.from({ length: count }, () =>
        faker.number.int({ min: OPENING, max: latest }),
      ).sort((a, b) => a - b);
      // The last morning ends with an order still open at each location, which the clock completes.
      if (lastDay) minutes.push(latest - faker.number.int({ min: 0, max: 20 }));
      for (const [index, minute] of minutes.entries()) {
        const forceOpen = lastDay && index === minutes.length - 1;
        builder.order(location, atMinute(day, minute), forceOpen, customerIds);
      }
    }
  }
  return dataset;
}

/** How many units a line takes: one mostly, now and then two or three. */
const LINE_QUANTITIES = [
  { weight: 70, value: 1 },
  { weight: 22, value: 2 },
  { weight: 8, value: 3 },
];

class OrderBuilder {
  /** The rate each of the dataset's taxes has in the flavour as drawn (its Belgian rate), by tax id. */
  private readonly drawnRates: ReadonlyMap<string, number>;
  /** What each location sells and takes, by location id (the catalogue does not change while drawing). */
  private readonly atLocation = new Map<
    string,
    {
      sellable: PosProduct[];
      methods: PosPaymentMethod[];
      weights: { value: PosPaymentMethod; weight: number }[];
    }
  >();
  private readonly tills: string[];
  private readonly deliveryFee: PosProduct | undefined;
  /** The flavour's payment method of each of the dataset's, by id (names differ by country). */
  private readonly drawnPayments: ReadonlyMap<string, Flavour['payments'][number]>;

  constructor(
    private readonly faker: Faker,
    private readonly flavour: Flavour,
    private readonly dataset: PosDataset,
    private readonly id: (kind: string, ...parts: (string | number)[]) => string,
    /** The instant the seeded activity stops: orders still open then close when the clock reaches them. */
    private readonly end: string,
  ) {
    this.drawnRates = new Map(flavour.taxes.map((t) => [id('tax', t.key), t.rate]));
    this.drawnPayments = new Map(flavour.payments.map((p, index) => [id('payment-method', index), p]));
    this.tills = flavour.devices.filter((d) => !d.startsWith('kiosk'));
    this.deliveryFee = dataset.products.find(
      (p) => p.line_type === 'service' && DELIVERY_FEE_NAMES.has(p.name),
    );
  }

  private at(location: VerticalLocation) {
    let here = this.atLocation.get(location.id);
    if (!here) {
      const methods = this.dataset.payment_methods.filter((m) => m.location_ids.includes(location.id));
      here = {
        sellable: this.dataset.products.filter(
          (p) => p.location_ids.includes(location.id) && p.line_type === 'product',
        ),
        methods,
        weights: methods.map((m) => ({ value: m, weight: this.drawnPayments.get(m.id)?.weight ?? 1 })),
      };
      this.atLocation.set(location.id, here);
    }
    return here;
  }

  /**
   * What an order's lines come to at the flavour's rates as drawn (a Belgian till's: its total). Whether
   * a party splits the bill is drawn on it, so no draw depends on the country's rates: a connection
   * draws the same orders in every country, only their taxes and totals differ.
   */
  private drawnTotal(lines: readonly PosOrderLine[]): number {
    return sum2(
      lines.map((line) => {
        const rate = (line.tax_id === null ? undefined : this.drawnRates.get(line.tax_id)) ?? line.tax_rate;
        if (rate === line.tax_rate) return line.total;
        const untaxed = round2(line.total - line.tax_amount);
        return round2(untaxed + taxOf(untaxed, rate));
      }),
    );
  }

  /** Draws one order placed at `created`; returns its id. */
  order(location: VerticalLocation, created: string, forceOpen: boolean, customerIds: string[]): string {
    const { faker, flavour, dataset } = this;
    dataset.counters.order = (dataset.counters.order ?? 0) + 1;
    const number = dataset.counters.order;
    const orderId = this.id('order', number);
    const mode = faker.helpers.weightedArrayElement(flavour.modes);
    const source = sourceOf(faker, mode, flavour === RESTAURANT);
    const { sellable, methods, weights } = this.at(location);
    const lines: PosOrderLine[] = [];
    const lineCount = faker.number.int({ min: 1, max: flavour === RESTAURANT ? 5 : 3 });
    for (let i = 0; i < lineCount; i++) {
      lines.push(this.line(orderId, i, pick(faker, sellable), mode));
    }
    if (mode === 'DELIVERY' && this.deliveryFee) {
      lines.push(this.line(orderId, lines.length, this.deliveryFee, mode, 1));
    }
    const totals = orderTotals(lines);
    const total = totals.total;
    const closesAt = plusMinutes(
      created,
      mode === 'EAT_IN' ? faker.number.int({ min: 25, max: 95 }) : faker.number.int({ min: 4, max: 25 }),
    );
    const open = forceOpen || closesAt > this.end;
    const closingDate = open ? null : closesAt;
    const finalClose =
      open && closesAt <= this.end ? plusMinutes(this.end, faker.number.int({ min: 5, max: 90 })) : closesAt;
    const customerId = faker.datatype.boolean(0.25) && customerIds.length ? pick(faker, customerIds) : null;
    const invoiced = !open && faker.datatype.boolean(0.05);
    const invoiceId = invoiced ? `INV-${created.slice(0, 4)}-${pad(number, 5)}` : null;

    const method = this.faker.helpers.weightedArrayElement(weights);
    const tip = this.tip(method, mode);
    const payments: PosPayment[] = open
      ? []
      : this.payments(
          orderId,
          methods,
          method,
          { total, drawn: this.drawnTotal(lines) },
          tip,
          closesAt,
          invoiceId,
        );
    const order: PosOrder = {
      id: orderId,
      order_number: String(number),
      creation_date: created,
      closing_date: closingDate,
      service_date: created,
      device_id: source === 'KIOSK' ? 'kiosk-1' : pick(faker, this.tills),
      total,
      tax_amount: totals.tax_amount,
      total_discount: totals.total_discount,
      total_refund: 0,
      total_tip: open ? 0 : sum2(payments.map((p) => p.tip)),
      delivery_fee: totals.delivery_fee,
      mode,
      source,
      currency: 'EUR',
      country: location.address?.country ?? 'BE',
      loyalty: customerId ? Math.floor(total) : null,
      customer_id: customerId,
      location_id: location.id,
      taxes: totals.taxes,
      guests: mode === 'EAT_IN' ? faker.number.int({ min: 1, max: 6 }) : null,
      payments,
      items: lines,
      invoice_id: invoiceId,
      closes_at: open ? finalClose : null,
      planned_payment: open ? { payment_method_id: method.id, tip } : null,
    };
    dataset.orders[orderId] = order;
    if (open) dataset.open_orders.push(orderId);
    return orderId;
  }

  private line(
    orderId: string,
    index: number,
    product: PosProduct,
    mode: PosModeValue,
    fixedQuantity?: number,
  ): PosOrderLine {
    const { faker, dataset } = this;
    const quantity = fixedQuantity ?? faker.helpers.weightedArrayElement(LINE_QUANTITIES);
    const { price, tax } = linePrice(dataset, product, mode);
    const modifiers: PosModifierLine[] = [];
    if (product.modifier_groups_ids.length && faker.datatype.boolean(0.4)) {
      const group = dataset.modifiers.find((m) => m.id === pick(faker, product.modifier_groups_ids));
      const option = group ? pick(faker, group.options) : undefined;
      if (group && option) modifiers.push(modifierLine(group, option, quantity));
    }
    const gross = lineGross(price.unit_price, quantity, modifiers);
    const discounts: PosDiscount[] = [];
    const roll = faker.number.float({ min: 0, max: 1 });
    if (product.line_type === 'product' && roll < 0.03) {
      discounts.push({ name: 'Offered by the house', total: gross, type: 'OFFERED' });
    } else if (product.line_type === 'product' && roll < 0.08) {
      discounts.push({ name: '10% loyalty discount', total: round2(gross * 0.1), type: 'UNKNOWN' });
    } else if (product.line_type === 'product' && roll < 0.09) {
      discounts.push({ name: 'Broken or spilled', total: gross, type: 'LOSS' });
    }
    return orderLine(orderId, index, product, {
      unitPrice: price.unit_price,
      quantity,
      tax,
      modifiers,
      discounts,
    });
  }

  private tip(method: PosPaymentMethod, mode: PosModeValue): number {
    const tips = this.drawnPayments.get(method.id)?.tips ?? false;
    return tips && mode === 'EAT_IN' && this.faker.datatype.boolean(0.3)
      ? this.faker.helpers.arrayElement([0.5, 1, 1.5, 2, 3])
      : 0;
  }

  private payments(
    orderId: string,
    methods: PosPaymentMethod[],
    method: PosPaymentMethod,
    { total, drawn }: { total: number; drawn: number },
    tip: number,
    date: string,
    invoiceId: string | null,
  ): PosPayment[] {
    const split = drawn >= 20 && methods.length > 1 && this.faker.datatype.boolean(0.1);
    const parts: { method: PosPaymentMethod; amount: number; tip: number }[] = [];
    if (split) {
      const first = round2(Math.floor((total / 2) * 100) / 100);
      const other = methods.find((m) => m.id !== method.id) ?? method;
      parts.push({ method, amount: first, tip }, { method: other, amount: round2(total - first), tip: 0 });
    } else {
      parts.push({ method, amount: total, tip });
    }
    return parts.map((part, index) => ({
      id: uuidFrom('pos-payment', orderId, index),
      payment_method_id: part.method.id,
      payment_method_name: part.method.name,
      total: part.amount,
      tip: part.tip,
      status: 'Completed',
      currency: 'EUR',
      date,
      invoice_ref: invoiceId,
      order_id: orderId,
    }));
  }
}

function sourceOf(faker: Faker, mode: PosModeValue, restaurant: boolean): PosSourceValue {
  if (mode === 'DELIVERY') {
    return restaurant ? pick(faker, ['UBEREATS', 'DELIVEROO', 'JUSTEAT'] as const) : 'WEB';
  }
  if (mode === 'TAKEAWAY')
    return pick(faker, restaurant ? (['POS', 'WEB', 'MOBILE'] as const) : (['POS', 'POS', 'KIOSK'] as const));
  return pick(faker, ['POS', 'POS', 'POS', 'KIOSK'] as const);
}

/**
 * The business of the days after the history: each day's orders are drawn from the seed, the
 * connection and the day alone, whole, so a day reads the same whenever it is built. A build shows
 * what happened up to `at` (the clock's minute): an order appears at its creation and is open until
 * it closes, paid, at its closing instant (whole minutes), from the origin's morning on. Saturdays
 * are busier, shops close on Sundays, December busies shops and summer restaurants, and the world's
 * pace scales every day (see docs/living-world.md).
 */
export function* livePosDays(
  dataset: PosDataset,
  input: SeedInput,
  at: string,
  pace: PaceOf = NORMAL_PACE,
): Sliced<PosDataset> {
  const until = untilOf(input);
  const today = at.slice(0, 10);
  if (today < until) return dataset;
  const flavour = dataset.integrationid === 9012 ? RESTAURANT : SHOP;
  const id = connectionIds('pos', dataset.connectionid);
  const customerIds = Object.keys(dataset.customers);
  const faker = fakerFor('pos-day');
  const morning = Date.parse(activityEnd(until)) - Date.parse(`${until}T00:00:00.000Z`);
  const drawn: string[] = [];
  for (const day of drawnDays(until, today)) {
    yield;
    reseed(faker, 'pos-day', input.seed, dataset.connectionid, day);
    // Drawn closed, whenever they close (the calendar ends them): what `at` has not reached is shown below.
    const builder = new OrderBuilder(faker, flavour, dataset, id, LATEST_INSTANT.toISOString());
    const factor = busyness(flavour, day) * pace(day);
    const first = day === until ? morning / 60_000 + 1 : OPENING;
    for (const location of dataset.locations) {
      const drawnCount = faker.number.int({ min: flavour.ordersPerDay[0], max: flavour.ordersPerDay[1] });
      const count = Math.round(drawnCount * factor);
      const minutes = Array.from({ length: count }, () =>
        faker.number.int({ min: first, max: CLOSING }),
      ).sort((a, b) => a - b);
      for (const minute of minutes) {
        drawn.push(builder.order(location, atMinute(day, minute), false, customerIds));
      }
    }
  }
  // The last hours drawn, as they stand at `at`: orders not yet placed are not there; orders placed
  // and not yet closed are open, their payment planned for their closing (as the history's open
  // orders of the first morning, though nothing writes them: the next minute's build closes them).
  for (let i = drawn.length - 1; i >= 0; i--) {
    const order = own(dataset.orders, drawn[i] as string);
    if (!order || order.closing_date === null || order.closing_date <= at) {
      if (order && order.creation_date.slice(0, 10) < addDays(today, -1)) break;
      continue;
    }
    if (order.creation_date > at) {
      delete dataset.orders[order.id];
      continue;
    }
    const [payment] = order.payments;
    order.closes_at = order.closing_date;
    order.planned_payment = { payment_method_id: payment?.payment_method_id ?? '', tip: order.total_tip };
    order.closing_date = null;
    order.payments = [];
    order.total_tip = 0;
    order.invoice_id = null;
  }
  return dataset;
}

/** How busy a day is against a usual weekday: the weekday, and the season of the trade. */
function busyness(flavour: Flavour, day: string): number {
  const dayOfWeek = weekday(day);
  const month = Number(day.slice(5, 7));
  const restaurant = flavour === RESTAURANT;
  if (dayOfWeek === 0) return restaurant ? 1.3 : 0;
  const season = restaurant ? (month === 7 || month === 8 ? 1.2 : 1) : month === 12 ? 1.4 : 1;
  return (dayOfWeek === 6 ? 1.5 : 1) * season;
}

/**
 * Builds one connection's dataset from the seed (the vertical module's `build`) as it stands at `at`:
 * its history to the origin's day, the living days after it, the history's open orders closed once
 * `at` reached their time (generated, never written), in pieces of a day (or a month) of history.
 */
export function* posDatasetBuild(
  seed: number,
  args: ConnectionDatasetArgs,
  at: string,
  pace: PaceOf = NORMAL_PACE,
  origin?: string,
): Sliced<PosDataset> {
  const input = seedInputOf(seed, args, origin);
  const dataset = yield* livePosDays(yield* seedPosDataset(input), input, at, pace);
  completeDueOrders(dataset, new Date(at));
  return dataset;
}

/** posDatasetBuild, at once. */
export const buildPosDataset = (...args: Parameters<typeof posDatasetBuild>): PosDataset =>
  runAtOnce(posDatasetBuild(...args));

/**
 * Closes the open orders whose time has come by `now` (paid in full as planned, tip on top); returns
 * them. An id whose order is closed already (a client's change kept over a dataset that closed it
 * since) leaves the list.
 */
export function completeDueOrders(dataset: PosDataset, now: Date): PosOrder[] {
  const completed: PosOrder[] = [];
  const instant = now.toISOString();
  const open = dataset.open_orders.filter((id) => {
    const order = own(dataset.orders, id);
    if (!order || (order.closes_at === null && order.closing_date !== null)) return false;
    if (order.closes_at === null || order.closes_at > instant) return true;
    const plan = order.planned_payment;
    const method = dataset.payment_methods.find((m) => m.id === plan?.payment_method_id);
    const payment = completionPayment(order, method, plan?.tip ?? 0, order.closes_at);
    order.closing_date = order.closes_at;
    order.payments = [payment];
    order.total_tip = payment.tip;
    const customer = order.customer_id ? own(dataset.customers, order.customer_id) : undefined;
    if (customer) {
      order.loyalty = Math.floor(order.total);
      customer.loyalty = (customer.loyalty ?? 0) + order.loyalty;
    }
    order.closes_at = null;
    order.planned_payment = null;
    completed.push(order);
    return false;
  });
  // Nothing due: nothing changes (a read that opens the dataset writes nothing).
  if (open.length !== dataset.open_orders.length) dataset.open_orders = open;
  return completed;
}
