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
  dayIn,
  daysBetween,
  fakerFor,
  historyStart,
  monthEnd,
  monthStart,
  monthsBetween,
  nativeRefs,
  pad,
  pick,
  reseed,
  round2,
} from '../../../platform/seeding/vertical-data.js';
import type { VerticalLocation } from '../../../store/world.js';
import type {
  PmsAccountingCategory,
  PmsCustomer,
  PmsDataset,
  PmsOrder,
  PmsOrderLine,
  PmsPayment,
  PmsPaymentMethod,
  PmsTaxRate,
} from '../model/pms.records.js';
import { type PmsHotel, type PmsProfile, pmsProfileOf, type TaxRole } from './pms.countries.js';
import { bookStay, checkOutStay, nextStay, stayLine, stayOrder } from './pms.stays.js';

/**
 * The seeded dataset of one Property Management System connection, built from (seed, consumerid,
 * connectionid) and its `until` day: two hotels of the connector's country (pms.countries.ts: Belgian
 * as the sandbox always drew them, French for Thais) with their rooms, guests (some of them
 * companies), and their stays: one or two check-ins a day at each hotel from the first of the month
 * two months before `until`'s to the day before `until` (for the default clock, 2025-11-01 to
 * 2026-01-14), and before them one or two stays a month at each hotel back to January 2021. A stay
 * is an order whose lines are the nights, breakfasts, extras and the city tax; it is invoiced and
 * paid at check-out. Stays still running on `until` (09:00 UTC) are open (no invoice yet). The days
 * after `until` bring their own stays, and check the running ones out (livePmsDays).
 */

/** The recent window, whose every day has check-ins: from the first of the month this many months before `until`'s. */
export const PMS_RECENT_MONTHS = 2;
/** Stays a month at each hotel in the older history. */
const HISTORY_STAYS: [number, number] = [1, 2];
const CHECK_IN_MINUTE = 15 * 60;
const CHECK_OUT_MINUTE = 10 * 60 + 30;

/** The payment methods of a connection's hotels. */
function paymentMethodsOf(
  profile: PmsProfile,
  id: ReturnType<typeof connectionIds>,
  ref: ReturnType<typeof nativeRefs>,
  locations: VerticalLocation[],
): PmsPaymentMethod[] {
  const allLocations = locations.map((l) => l.id);
  return profile.methods.map((m, index) => ({
    id: id('payment-method', index),
    source_ref: ref('payment_type'),
    name: m.name,
    extra: m.extra,
    ledger_account_code: m.account,
    // Cash is only taken at the first hotel.
    location_ids: m.firstHotelOnly ? [allLocations[0] as string] : allLocations,
  }));
}

/** The guests of a connection (every seventh a company), drawn in this order from its faker. */
function drawGuests(
  faker: Faker,
  profile: PmsProfile,
  id: ReturnType<typeof connectionIds>,
  ref: ReturnType<typeof nativeRefs>,
  { firstDay, until }: { firstDay: string; until: string },
) {
  const { words } = profile;
  const customers: Record<string, PmsCustomer> = {};
  const customerIds: string[] = [];
  for (let i = 0; i < 60; i++) {
    const company = i % 7 === 3;
    const first = faker.person.firstName();
    const last = faker.person.lastName();
    const country = faker.helpers.weightedArrayElement([...profile.guestCountries]);
    const customer: PmsCustomer = {
      id: id('customer', i),
      source_ref: ref('guest'),
      first_name: company ? null : first,
      last_name: company ? null : last,
      company_name: company ? faker.company.name() : null,
      phone: faker.datatype.boolean(0.75) ? profile.guestPhone(faker, country) : null,
      email: faker.datatype.boolean(0.9) ? profile.guestEmail(faker, first, last) : null,
      account_number: `${profile.guestAccounts}${pad(i + 1, 3)}`,
      // Guests since half a year before the history, the last ones two months before the recent window.
      created_on: faker.date
        .between({
          from: `${addMonths(firstDay, -6)}T00:00:00Z`,
          to: `${monthEnd(addMonths(until, -PMS_RECENT_MONTHS - 3))}T00:00:00Z`,
        })
        .toISOString(),
      addresses: [
        {
          address_type: company ? 'invoice' : 'home',
          name: company ? words.office : words.home,
          street: faker.location.street(),
          number: faker.location.buildingNumber(),
          box: null,
          // city and postal_code, drawn in this order.
          ...profile.guestPlace(faker, country),
          country,
        },
      ],
      is_company: company,
    };
    customers[customer.id] = customer;
    customerIds.push(customer.id);
  }
  return { customers, customerIds };
}

export function* seedPmsDataset(input: SeedInput): Sliced<PmsDataset> {
  const { seed, consumerid, connectionid, integrationid } = input;
  const faker = fakerFor('pms', seed, consumerid, connectionid);
  // The connector's country: its hotels, rates, labels, guests and accounts.
  const profile = pmsProfileOf(integrationid);
  const { hotels, words } = profile;
  const until = untilOf(input);
  const end = activityEnd(until);
  const recentStart = addMonths(monthStart(until), -PMS_RECENT_MONTHS);
  const firstDay = historyStart(until);
  const id = connectionIds('pms', connectionid);
  const ref = nativeRefs(faker, 200, 500, 5);
  const brand = faker.person.lastName();

  const locations: VerticalLocation[] = hotels.map((hotel, index) => ({
    id: id('location', index),
    name: `${words.hotel} ${brand} ${hotel.suffix}`,
    timezone: profile.timezone,
    address: {
      address_type: 'main',
      name: `${words.hotel} ${brand} ${hotel.suffix}`,
      street: faker.location.street(),
      number: faker.location.buildingNumber(),
      box: null,
      city: hotel.city,
      postal_code: hotel.postal,
      country: profile.country,
    },
  }));
  const rooms = hotels.flatMap((hotel, index) =>
    Array.from({ length: hotel.rooms }, (_, r) => {
      const floor = 1 + Math.floor(r / 5);
      const identifier = `${floor}${pad((r % 5) + 1, 2)}`;
      const kind = r === hotel.rooms - 1 ? words.suite : r % 3 === 0 ? words.single : words.double;
      return {
        id: id('room', index, r),
        location_id: locations[index]?.id as string,
        name: `${kind} ${identifier}`,
        identifier,
      };
    }),
  );

  const taxes: PmsTaxRate[] = profile.taxes.map((t) => ({
    id: id('tax', t.key),
    source_ref: ref('tax'),
    label: t.label,
    rate: t.rate,
    is_city_tax: t.city,
  }));

  const categories: PmsAccountingCategory[] = profile.categories.map((cat) => ({
    id: id('accounting-category', cat.key),
    source_ref: ref('revenue_group'),
    name: cat.name,
    code: cat.code,
    ledger_account_code: cat.account,
    posting_account_code: cat.posting,
  }));

  const methods = paymentMethodsOf(profile, id, ref, locations);
  const { customers, customerIds } = drawGuests(faker, profile, id, ref, { firstDay, until });

  const dataset: PmsDataset = {
    consumerid,
    connectionid,
    integrationid,
    counters: { order: 0, invoice: 0 },
    locations,
    rooms,
    tax_rates: taxes,
    accounting_categories: categories,
    payment_methods: methods,
    customers,
    orders: {},
    invoices: {},
  };

  // The older history first (numbered first, drawn from a faker of its own): a few stays a month, of
  // guests known by then.
  const past = historyFaker('pms', input);
  const lookups = lookupsOf(dataset, profile);
  const history = new StayBuilder(past, dataset, profile, lookups, end);
  const byCreation = [...customerIds].sort((a, b) =>
    String(customers[a]?.created_on).localeCompare(String(customers[b]?.created_on)),
  );
  for (const month of monthsBetween(firstDay, recentStart)) {
    yield;
    hotels.forEach((hotel, index) => {
      const location = locations[index] as VerticalLocation;
      const count = past.number.int({ min: HISTORY_STAYS[0], max: HISTORY_STAYS[1] });
      const days = Array.from({ length: count }, () => dayIn(past, month.first, month.last)).sort();
      for (const day of days) {
        const known = byCreation.filter((c) => String(customers[c]?.created_on) < day);
        history.stay(location, hotel, day, pick(past, known.length ? known : byCreation.slice(0, 1)));
      }
    });
  }

  const stays = new StayBuilder(faker, dataset, profile, lookups, end);
  // The last check-ins are the afternoon before `until` (the clock's day starts in the morning).
  for (const day of daysBetween(recentStart, addDays(until, -1))) {
    yield;
    hotels.forEach((hotel, index) => {
      const location = locations[index] as VerticalLocation;
      const arrivals = faker.number.int({ min: 1, max: 2 });
      for (let a = 0; a < arrivals; a++) stays.stay(location, hotel, day, pick(faker, customerIds));
    });
  }
  return dataset;
}

interface Lookups {
  /** The tax a kind of line takes. */
  tax: (role: TaxRole) => PmsTaxRate;
  category: (key: PmsProfile['categories'][number]['key']) => PmsAccountingCategory;
}

/** A stay as drawn: its room, dates, guests and lines, before it is stored. */
interface DrawnStay {
  room: PmsDataset['rooms'][number];
  checkIn: string;
  checkOut: string;
  booked: string;
  guests: number;
  lines: PmsOrderLine[];
}

/** How a stay's invoice is settled: its payments' amounts and methods, drawn before it is numbered. */
interface Settlement {
  amount: number;
  method: PmsPaymentMethod;
  deposit: boolean;
}

class StayBuilder {
  constructor(
    private readonly faker: Faker,
    private readonly dataset: PmsDataset,
    private readonly profile: PmsProfile,
    private readonly lookups: Lookups,
    /** The instant the seeded activity stops: stays checking out later are still running. */
    private readonly end: string,
  ) {}

  /** A stay of the history: numbered after the dataset's last, invoiced and paid if it checked out by `end`. */
  stay(location: VerticalLocation, hotel: PmsHotel, checkInDay: string, customerId: string): void {
    const { dataset } = this;
    const { number, orderId } = nextStay(dataset);
    const drawn = this.draw(location, hotel, checkInDay, orderId, number);
    bookStay(dataset, {
      ...drawn,
      orderId,
      number,
      locationId: location.id,
      customerId,
      closed: drawn.checkOut <= this.end,
      payments: (invoiceId, invoiceNumber, total) =>
        paymentsOf(
          this.settlement(location, total),
          invoiceId,
          invoiceNumber,
          drawn.checkOut,
          customerId,
          this.profile,
        ),
      source: () => this.source(),
    });
  }

  /**
   * A stay of the days after the history, checked in on `checkInDay` under its own number: stored
   * running, with how it will be settled (drawn now, whatever the day it checks out).
   */
  arrival(
    location: VerticalLocation,
    hotel: PmsHotel,
    checkInDay: string,
    customerId: string,
    orderId: string,
    number: string,
  ): RunningStay {
    const drawn = this.draw(location, hotel, checkInDay, orderId, number);
    const order = stayOrder(this.dataset, { ...drawn, orderId, number, locationId: location.id, customerId });
    const settlement = this.settlement(location, order.total);
    order.source = this.source();
    return { order, settlement };
  }

  /** The nights, guests, room, times and lines of a stay checked in on `checkInDay`. */
  private draw(
    location: VerticalLocation,
    hotel: PmsHotel,
    checkInDay: string,
    orderId: string,
    number: number | string,
  ): DrawnStay {
    const { faker, lookups } = this;
    const { words } = this.profile;
    const nights = faker.helpers.weightedArrayElement([
      { weight: 40, value: 1 },
      { weight: 30, value: 2 },
      { weight: 15, value: 3 },
      { weight: 10, value: 4 },
      { weight: 5, value: 6 },
    ]);
    const guests = faker.helpers.weightedArrayElement([
      { weight: 35, value: 1 },
      { weight: 55, value: 2 },
      { weight: 10, value: 3 },
    ]);
    const room = pick(
      faker,
      this.dataset.rooms.filter((r) => r.location_id === location.id),
    );
    const checkOutDay = addDays(checkInDay, nights);
    const checkIn = atMinute(checkInDay, CHECK_IN_MINUTE + faker.number.int({ min: 0, max: 300 }));
    const checkOut = atMinute(checkOutDay, CHECK_OUT_MINUTE - faker.number.int({ min: 0, max: 120 }));
    const booked = atMinute(
      addDays(checkInDay, -faker.number.int({ min: 1, max: 60 })),
      faker.number.int({ min: 480, max: 1320 }),
    );
    // The nights of Friday and Saturday, from the weekday of the first.
    const firstNight = weekday(checkInDay);
    let weekendNights = 0;
    for (let night = 0; night < nights; night++) {
      const dayOfWeek = (firstNight + night) % 7;
      if (dayOfWeek === 5 || dayOfWeek === 6) weekendNights += 1;
    }
    const rate = round2(
      hotel.base + (room.name.startsWith(words.suite) ? 90 : room.name.startsWith(words.single) ? -20 : 0),
    );
    const lines: PmsOrderLine[] = [];
    const add = (
      description: string,
      quantity: number,
      unitPrice: number,
      taxRole: TaxRole,
      categoryKey: PmsProfile['categories'][number]['key'],
      discount = 0,
    ) => {
      lines.push(
        stayLine(orderId, number, lines.length, {
          description,
          quantity,
          unitPrice,
          tax: lookups.tax(taxRole),
          categoryId: lookups.category(categoryKey).id,
          discount: discount ? { name: words.longStay, total: discount } : null,
        }),
      );
    };
    const weekdayNights = nights - weekendNights;
    if (weekdayNights)
      add(
        `${room.name}, ${words.night}`,
        weekdayNights,
        rate,
        'lodging',
        'rooms',
        nights >= 4 ? round2(weekdayNights * rate * 0.1) : 0,
      );
    if (weekendNights)
      add(`${room.name}, ${words.weekendNight}`, weekendNights, round2(rate + 25), 'lodging', 'rooms');
    if (faker.datatype.boolean(0.55)) add(words.breakfast, nights * guests, 16.5, 'food', 'breakfast');
    if (faker.datatype.boolean(0.25))
      add(words.dinner, guests, round2(faker.number.int({ min: 28, max: 55 })), 'food', 'fb');
    if (faker.datatype.boolean(0.3))
      add(words.minibar, faker.number.int({ min: 1, max: 4 }), 4.5, 'standard', 'fb');
    if (faker.datatype.boolean(0.2)) add(words.parking, nights, 22, 'standard', 'parking');
    add(words.cityTax, nights * guests, hotel.cityTax, 'city', 'city');
    return { room, checkIn, checkOut, booked, guests, lines };
  }

  /** How a stay's total is paid at its hotel. */
  settlement(location: VerticalLocation, total: number): Settlement[] {
    const { faker, dataset, profile } = this;
    const methods = dataset.payment_methods.filter((m) => m.location_ids.includes(location.id));
    const pickMethod = () =>
      faker.helpers.weightedArrayElement(
        methods.map((m) => ({
          value: m,
          weight: profile.methods.find((x) => x.name === m.name)?.weight ?? 1,
        })),
      );
    // Now and then the guest settles in two payments (a deposit and the balance), both booked at check-out.
    const deposit = total > 150 && faker.datatype.boolean(0.2) ? round2(Math.floor(total * 0.3)) : 0;
    const parts = deposit ? [deposit, round2(total - deposit)] : [total];
    return parts.map((amount, index) => ({
      amount,
      method: pickMethod(),
      deposit: index === 0 && deposit > 0,
    }));
  }

  private source(): PmsOrder['source'] {
    return this.faker.helpers.weightedArrayElement([
      { weight: 50, value: 'WEB' as const },
      { weight: 20, value: 'MOBILE' as const },
      { weight: 30, value: 'UNKNOWN' as const },
    ]);
  }
}

/** The payments of an invoice, as it was settled, all made at check-out. */
function paymentsOf(
  settlement: readonly Settlement[],
  invoiceId: string,
  invoiceNumber: string,
  date: string,
  customerId: string,
  profile: PmsProfile,
): PmsPayment[] {
  return settlement.map(({ amount, method, deposit }, index) => ({
    id: uuidFrom('pms-payment', invoiceId, index),
    source_ref: { id: `${invoiceNumber}/${index + 1}`, model: 'payment' },
    payment_method_id: method.id,
    payment_method_name: method.name,
    total: amount,
    tip: 0,
    status: 'Completed',
    currency: 'EUR',
    date,
    invoice_ref: invoiceNumber,
    customer_id: customerId,
    description: deposit ? profile.words.deposit(invoiceNumber) : profile.words.payment(invoiceNumber),
  }));
}

/** A stay running after the history's end, and how its invoice will be settled at check-out. */
interface RunningStay {
  order: PmsOrder;
  settlement: Settlement[];
}

/** The taxes and accounting categories of a dataset, by the kinds of line that take them. */
function lookupsOf(dataset: PmsDataset, profile: PmsProfile): Lookups {
  return {
    tax: (role) =>
      dataset.tax_rates[profile.taxes.findIndex((t) => t.key === profile.taxOf[role])] as PmsTaxRate,
    category: (key) =>
      dataset.accounting_categories[
        profile.categories.findIndex((c) => c.key === key)
      ] as PmsAccountingCategory,
  };
}

/**
 * The business of the days after the history. Each day from the dataset's first use to the day of
 * `at` (the clock's time to the minute) draws its arrivals at each hotel from the seed, the
 * connection and the day alone (and the world's pace of that day), whole, so a day reads the same
 * whenever it is built and the days already there never change when the clock adds more. What a
 * build shows is what happened up to `at`: a stay is booked 1 to 60 days ahead; it appears at its
 * check-in, running, and is checked out (closed, invoiced and paid, its invoice numbered among that
 * day's) at its check-out, every instant a whole minute. The stays the history left running at its
 * end are checked out the same way. Friday and Saturday arrivals are half as many again, summer's
 * more (see docs/living-world.md).
 */
export function* livePmsDays(
  dataset: PmsDataset,
  input: SeedInput,
  at: string,
  pace: PaceOf = NORMAL_PACE,
): Sliced<PmsDataset> {
  const until = untilOf(input);
  const today = at.slice(0, 10);
  if (today < until) return dataset;
  const faker = fakerFor('pms-day');
  const profile = pmsProfileOf(dataset.integrationid);
  const stays = new StayBuilder(faker, dataset, profile, lookupsOf(dataset, profile), activityEnd(until));
  const customerIds = Object.keys(dataset.customers);
  const running: RunningStay[] = [];
  for (const day of drawnDays(until, today)) {
    yield;
    reseed(faker, 'pms-day', input.seed, dataset.connectionid, day);
    if (day === until) {
      // The stays the history left running: how they will be paid is the first day's first draw.
      for (const order of Object.values(dataset.orders)) {
        const location = dataset.locations.find((l) => l.id === order.location_id);
        if (order.closing_date !== null || !location) continue;
        running.push({ order, settlement: stays.settlement(location, order.total) });
      }
    }
    const factor = busyness(day) * pace(day);
    // A folio number the API never gives: the day of check-in and the arrival's rank that day.
    const prefix = day.replaceAll('-', '');
    let index = 0;
    profile.hotels.forEach((hotel, h) => {
      const location = dataset.locations[h] as VerticalLocation;
      const count = Math.round(faker.number.float({ min: 1, max: 2 }) * factor);
      for (let a = 0; a < count; a++) {
        index += 1;
        const orderId = uuidFrom('pms-day', dataset.connectionid, 'order', day, index);
        const customerId = pick(faker, customerIds);
        running.push(stays.arrival(location, hotel, day, customerId, orderId, `${prefix}${pad(index, 3)}`));
      }
    });
  }
  // The day of `at` is drawn whole: its guests who have not arrived yet are not there (only that
  // day's arrivals can be later than `at`, and they leave on a later day).
  const arrived = running.filter(({ order }) => {
    if ((order.service_date as string) <= at) return true;
    delete dataset.orders[order.id];
    return false;
  });
  yield* checkOutDays(dataset, arrived, at, profile);
  return dataset;
}

/**
 * Checks out the running stays whose check-out instant `now` has reached: each day's invoices are
 * numbered from 1 in the order of check-out (so a later check-out never changes an earlier number),
 * under a number the API never gives (the day in it).
 */
function* checkOutDays(
  dataset: PmsDataset,
  running: readonly RunningStay[],
  now: string,
  profile: PmsProfile,
): Sliced<void> {
  const leaving = running
    .map((stay) => ({ ...stay, at: stay.order.reservation?.end_date as string }))
    .filter((stay) => stay.at <= now)
    .sort((a, b) => a.at.localeCompare(b.at) || a.order.id.localeCompare(b.order.id));
  let day = '';
  let rank = 0;
  for (const [index, { order, settlement, at }] of leaving.entries()) {
    if (index % 64 === 0) yield;
    rank = at.startsWith(day) && day !== '' ? rank + 1 : 1;
    day = at.slice(0, 10);
    const number = `F${day.slice(0, 4)}-${day.slice(5, 7)}${day.slice(8, 10)}-${pad(rank, 3)}`;
    const invoiceId = uuidFrom('pms-day', dataset.connectionid, 'invoice', order.id);
    checkOutStay(dataset, order, invoiceId, number, () =>
      paymentsOf(settlement, invoiceId, number, at, order.customer_id as string, profile),
    );
  }
}

/** How busy a day's arrivals are against a usual weekday's: weekends and summer fill the hotels. */
function busyness(day: string): number {
  const dayOfWeek = weekday(day);
  const month = Number(day.slice(5, 7));
  const season = month === 7 || month === 8 ? 1.4 : month === 6 || month === 9 ? 1.2 : 1;
  return (dayOfWeek === 5 || dayOfWeek === 6 ? 1.5 : 1) * season;
}

/**
 * Builds one connection's dataset from the seed (the vertical module's `build`): its history up to
 * the origin's day, and the days after it as they stand at `at`.
 */
export function* pmsDatasetBuild(
  seed: number,
  args: ConnectionDatasetArgs,
  at: string,
  pace: PaceOf = NORMAL_PACE,
  origin?: string,
): Sliced<PmsDataset> {
  const input = seedInputOf(seed, args, origin);
  return yield* livePmsDays(yield* seedPmsDataset(input), input, at, pace);
}

/** pmsDatasetBuild, at once. */
export const buildPmsDataset = (...args: Parameters<typeof pmsDatasetBuild>): PmsDataset =>
  runAtOnce(pmsDatasetBuild(...args));
