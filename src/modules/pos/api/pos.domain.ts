import { dayNumber, isoDay, weekday } from '../../../lib/calendar.js';
import { isCountryCode } from '../../../lib/country-codes.js';
import { type CustomerFilters, customerFilter } from '../../../lib/customer-filters.js';
import { serviceError } from '../../../lib/errors.js';
import { uuidFrom } from '../../../lib/ids.js';
import { own } from '../../../lib/own.js';
import { connectionDataset, type DatasetUse, prepareConnectionDataset } from '../../../platform/datasets.js';
import { mergeTaxTotals, round2, sum2, taxTotals } from '../../../platform/seeding/vertical-data.js';
import { verticalFailure } from '../../../platform/vertical-connection.js';
import type { WorldStore } from '../../../store/store.js';
import type { ConnectionRecord, VerticalTaxTotal } from '../../../store/world.js';
import type { PosCustomer, PosDataset, PosOrder, PosPayment } from '../model/pos.records.js';
import type {
  ClosureOut,
  POSCreateCustomerInput,
  POSCustomerOut,
  POSOrderOut,
  ReportOut,
} from './pos.schemas.js';

// Open orders complete when the clock reaches their time (see pos.seed.ts).
export { completeDueOrders } from '../world/pos.seed.js';

/**
 * Rules of the Point of Sale vertical, as functions over a connection's dataset. Amounts: a line's
 * total is its untaxed amount plus its tax; an order's total is the sum of its lines; a closed order
 * is paid in full (payments add up to its total, tips on top). A day's sales, closures and report are
 * computed from the orders closed that day (UTC days), never stored.
 */

/** The dataset of a connection, built from the seed the first time it is reached. */
export function posDatasetOf(
  store: WorldStore,
  connection: ConnectionRecord,
  how: DatasetUse = 'open',
): PosDataset {
  return connectionDataset<PosDataset>(store, 'pos_datasets', connection, how);
}

/** The POS dataset of a connection built in slices before a read in passing reads it (a cube). */
export function preparePosDataset(
  store: WorldStore,
  connection: ConnectionRecord,
): Promise<void> | undefined {
  return prepareConnectionDataset(store, 'pos_datasets', connection);
}

// ------------------------------------------------------------------------------------------------
// Reading.

export function toOrderItem(order: PosOrder): POSOrderOut {
  const { closes_at: _closes, planned_payment: _plan, ...wire } = order;
  return wire;
}

export const toCustomerItem = (customer: PosCustomer): POSCustomerOut => customer;

const withoutLocations = <T extends { location_ids: string[] }>(record: T): Omit<T, 'location_ids'> => {
  const { location_ids: _ids, ...wire } = record;
  return wire;
};

export { withoutLocations };

/*
 * Filters refuse nothing: a location_id that names no location of the connection, or a period whose
 * date_to comes before its date_from, matches nothing, and the answer is an empty list (zero sums),
 * as the service answers.
 */

/** Items a location filter keeps: those of the location, or all of them without a filter. */
export const atLocation = <T extends { location_ids: string[] }>(
  items: readonly T[],
  locationId?: string,
): T[] => items.filter((item) => locationId === undefined || item.location_ids.includes(locationId));

const dayOf = (instant: string | null): string | null => (instant ? instant.slice(0, 10) : null);

/** The id of the closure of one location for one day. */
export const closureIdOf = (dataset: PosDataset, locationId: string, day: string): string =>
  uuidFrom('pos-closure', dataset.connectionid, locationId, day);

export interface OrderFilters {
  date_from?: string | undefined;
  date_to?: string | undefined;
  location_id?: string | undefined;
  state?: 'open' | 'closed' | 'all' | undefined;
  closure_id?: string | undefined;
}

/** Orders by creation date, oldest first; dates filter on the day the order was created. */
export function listOrders(dataset: PosDataset, filters: OrderFilters): PosOrder[] {
  const state = filters.state ?? 'all';
  return Object.values(dataset.orders)
    .filter((order) => {
      const created = order.creation_date.slice(0, 10);
      if (filters.date_from && created < filters.date_from) return false;
      if (filters.date_to && created > filters.date_to) return false;
      if (filters.location_id !== undefined && order.location_id !== filters.location_id) return false;
      if (state === 'open' && order.closing_date !== null) return false;
      if (state === 'closed' && order.closing_date === null) return false;
      if (filters.closure_id !== undefined) {
        const day = dayOf(order.closing_date);
        if (!day || closureIdOf(dataset, order.location_id, day) !== filters.closure_id) return false;
      }
      return true;
    })
    .sort((a, b) => a.creation_date.localeCompare(b.creation_date) || a.id.localeCompare(b.id));
}

export function requireOrder(dataset: PosDataset, orderId: string): PosOrder {
  const order = own(dataset.orders, orderId);
  if (!order) throw serviceError('posOrderNotFound', `No order has the id '${orderId}'`);
  return order;
}

/** Orders of a location (or all) closed on the days of a period. */
function closedOrders(dataset: PosDataset, from: string, to: string, locationId?: string): PosOrder[] {
  return Object.values(dataset.orders).filter((order) => {
    const day = dayOf(order.closing_date);
    return (
      day !== null &&
      day >= from &&
      day <= to &&
      (locationId === undefined || order.location_id === locationId)
    );
  });
}

/** Payments made in a period (on the day their order was paid), oldest first. */
export function listPayments(dataset: PosDataset, from: string, to: string): PosPayment[] {
  return closedOrders(dataset, from, to)
    .flatMap((order) => order.payments)
    .filter((p) => p.date !== null)
    .sort((a, b) => String(a.date).localeCompare(String(b.date)) || a.id.localeCompare(b.id));
}

/** Sales of a period: the orders closed on its days, summed. */
export function salesOf(dataset: PosDataset, from: string, to: string, locationId?: string) {
  const orders = closedOrders(dataset, from, to, locationId);
  return {
    total: sum2(orders.map((o) => o.total)),
    tax_amount: sum2(orders.map((o) => o.tax_amount)),
    taxes: mergeTaxTotals(orders.flatMap((o) => o.taxes)),
  };
}

/**
 * The closure of a day: closed once the day is over (before the clock's day), with one closure per
 * location summing the orders paid that day; a day not over yet is open and has no closure.
 */
export function closureOf(dataset: PosDataset, day: string, today: string, locationId?: string): ClosureOut {
  if (day >= today) return { date: day, status: 'open', closures: [] };
  const locations = dataset.locations.filter((l) => locationId === undefined || l.id === locationId);
  return {
    date: day,
    status: 'closed',
    closures: locations.map((location) => {
      const orders = closedOrders(dataset, day, day, location.id);
      const payments = orders.flatMap((o) => o.payments);
      const byMethod = new Map<string, PosPayment[]>();
      for (const payment of payments) {
        const key = payment.payment_method_id ?? '';
        byMethod.set(key, [...(byMethod.get(key) ?? []), payment]);
      }
      return {
        id: closureIdOf(dataset, location.id, day),
        total: sum2(orders.map((o) => o.total)),
        tax_amount: sum2(orders.map((o) => o.tax_amount)),
        payments: [...byMethod.values()].map((group) => ({
          payment_method_id: group[0]?.payment_method_id ?? null,
          payment_method_name: group[0]?.payment_method_name ?? null,
          tip: sum2(group.map((p) => p.tip)),
          total: sum2(group.map((p) => p.total)),
        })),
        taxes: mergeTaxTotals(orders.flatMap((o) => o.taxes)),
      };
    }),
  };
}

/** Weekday weights of the daily objective (Sunday first). */
const WEEKDAY_FACTOR = [0.8, 0.7, 0.85, 0.9, 1, 1.35, 1.4];

/**
 * Daily sales objectives (taxes included) of a location, or of all of them added up: the location's
 * daily objective weighted by the weekday. The tax part assumes the average rate of the catalogue.
 * A period of any length (of any years: a query date is not bound to the sandbox's calendar) is a
 * paged list: only the days of the page asked for are computed, counted as numbers.
 */
export function objectivesOf(
  dataset: PosDataset,
  from: string,
  to: string,
  locationId: string | undefined,
  page: number,
  size: number,
) {
  const first = dayNumber(from);
  const total = Math.max(0, dayNumber(to) - first + 1);
  const start = Math.min((page - 1) * size, total);
  const days = Array.from({ length: Math.min(size, total - start) }, (_, i) => isoDay(first + start + i));
  const locations = dataset.locations.filter((l) => locationId === undefined || l.id === locationId);
  const rates = dataset.tax_rates.map((t) => t.rate ?? 0).filter((r) => r > 0);
  const averageRate = rates.length ? rates.reduce((a, b) => a + b, 0) / rates.length : 0;
  const items = days.map((day) => {
    const total = sum2(
      locations.map((l) =>
        round2((own(dataset.daily_objectives, l.id) ?? 0) * (WEEKDAY_FACTOR[weekday(day)] ?? 1)),
      ),
    );
    return { total, tax_amount: round2(total - total / (1 + averageRate / 100)), date: day };
  });
  return { items, total, page, size };
}

const GOODS = 'Supply of goods subject to value-added tax.' as const;
const SERVICES = 'Services subject to value-added tax.' as const;

/**
 * The e-reporting summary of a day at a location: the lines of the orders closed that day, goods
 * and services apart, and what each payment method collected at each tax rate (each payment split
 * over the order's rates in proportion, the last rate taking the rounding).
 */
export function reportOf(dataset: PosDataset, day: string, locationId?: string): ReportOut {
  const location = locationId ?? dataset.locations[0]?.id;
  if (!location) throw verticalFailure('The connection has no location');
  const orders = closedOrders(dataset, day, day, location);
  const categories = [
    { category: GOODS, test: (type: string | null) => type !== 'service' },
    { category: SERVICES, test: (type: string | null) => type === 'service' },
  ];
  const reportOrders = categories.flatMap(({ category, test }) => {
    const lines = orders.flatMap((o) =>
      o.items.filter((l) => test(l.type)).map((l) => ({ order: o.id, line: l })),
    );
    if (!lines.length) return [];
    return [
      {
        currency: 'EUR',
        total: sum2(lines.map((x) => x.line.total)),
        tax_amount: sum2(lines.map((x) => x.line.tax_amount)),
        tax_duedatetypecode: null,
        category,
        total_orders: new Set(lines.map((x) => x.order)).size,
        taxes: taxTotals(lines.map((x) => x.line)),
      },
    ];
  });
  const shares = new Map<
    string,
    { method: PosPayment; taxId: string | null; rate: number; total: number[]; tax: number[] }
  >();
  for (const order of orders) {
    for (const payment of order.payments) {
      splitOverTaxes(payment.total, order.total, order.taxes).forEach((share) => {
        const key = `${payment.payment_method_id}:${share.tax_id}:${share.tax_rate}`;
        const entry = shares.get(key) ?? {
          method: payment,
          taxId: share.tax_id,
          rate: share.tax_rate,
          total: [],
          tax: [],
        };
        entry.total.push(share.total);
        entry.tax.push(share.tax_amount);
        shares.set(key, entry);
      });
    }
  }
  return {
    date: day,
    location_id: location,
    orders: reportOrders,
    payments: [...shares.values()].map((s) => ({
      tax_id: s.taxId,
      tax_rate: s.rate,
      tax_amount: sum2(s.tax),
      total: sum2(s.total),
      payment_method_id: s.method.payment_method_id,
      payment_method_name: s.method.payment_method_name,
      currency: s.method.currency ?? 'EUR',
    })),
  };
}

/** A payment's part of each tax rate of its order, the last rate taking what rounding leaves. */
function splitOverTaxes(
  paid: number,
  orderTotal: number,
  taxes: readonly VerticalTaxTotal[],
): VerticalTaxTotal[] {
  if (orderTotal === 0 || taxes.length === 0) return [];
  const out: VerticalTaxTotal[] = [];
  let totalLeft = paid;
  let taxLeft = round2((paid * sum2(taxes.map((t) => t.tax_amount))) / orderTotal);
  taxes.forEach((tax, index) => {
    const last = index === taxes.length - 1;
    const total = last ? round2(totalLeft) : round2((paid * tax.total) / orderTotal);
    const taxAmount = last ? round2(taxLeft) : round2((paid * tax.tax_amount) / orderTotal);
    totalLeft = round2(totalLeft - total);
    taxLeft = round2(taxLeft - taxAmount);
    out.push({ tax_id: tax.tax_id, tax_rate: tax.tax_rate, total, tax_amount: taxAmount });
  });
  return out;
}

// ------------------------------------------------------------------------------------------------
// Customers.

/** Customers by name; search: part of the name, e-mail or phone; email and phone: exact. */
export function listCustomers(dataset: PosDataset, filters: CustomerFilters): PosCustomer[] {
  return Object.values(dataset.customers)
    .filter(customerFilter(filters))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}

export function requireCustomer(dataset: PosDataset, customerId: string): PosCustomer {
  const customer = own(dataset.customers, customerId);
  if (!customer) throw serviceError('posCustomerNotFound', `No customer has the id '${customerId}'`);
  return customer;
}

/**
 * Checks a new customer: the address's country, documented as an ISO 3166-1 code, must be one. The
 * e-mail address is taken as given (the reference states no format for it), even one another
 * customer already has.
 */
export function checkNewCustomer(input: POSCreateCustomerInput): void {
  const country = input.address?.country;
  if (country && !isCountryCode(country)) throw verticalFailure(`${country} is not a valid country code`);
}

export function createCustomer(
  dataset: PosDataset,
  input: POSCreateCustomerInput,
  mintId: () => string,
  now: string,
): PosCustomer {
  checkNewCustomer(input);
  const id = mintId();
  const first = input.first_name.trim();
  const last = input.last_name.trim();
  const address = input.address;
  const customer: PosCustomer = {
    id,
    first_name: first,
    last_name: last,
    name: `${first} ${last}`,
    phone: input.phone ?? null,
    email: input.email?.trim() || null,
    created_on: now,
    addresses: address
      ? [
          {
            address_type: address.name,
            name: address.name,
            street: address.street ?? null,
            number: address.number ?? null,
            box: address.box ?? null,
            city: address.city,
            postal_code: address.postal_code,
            country: address.country ? address.country.toUpperCase() : null,
          },
        ]
      : [],
    loyalty: 0,
    birthdate: null,
  };
  dataset.customers[id] = customer;
  dataset.counters.customer = (dataset.counters.customer ?? 0) + 1;
  return customer;
}

/**
 * Links an order to a customer (or unlinks it with null). The loyalty points of a closed order (one
 * per whole euro) move from the former customer to the new one.
 */
export function updateOrderCustomer(
  dataset: PosDataset,
  orderId: string,
  customerId: string | null | undefined,
): PosOrder {
  const order = own(dataset.orders, orderId);
  // The order by its id, as GET .../orders/{order_id} reads it: the same documented 404.
  if (!order) throw serviceError('posOrderNotFound', `No order has the id '${orderId}'`);
  if (customerId === undefined || customerId === order.customer_id) return order;
  const next = customerId === null ? null : own(dataset.customers, customerId);
  if (next === undefined) throw verticalFailure(`The customer '${customerId}' does not exist`);
  const points = order.closing_date !== null ? Math.floor(order.total) : 0;
  const previous = order.customer_id ? own(dataset.customers, order.customer_id) : undefined;
  if (previous && previous.loyalty !== null) previous.loyalty = Math.max(0, previous.loyalty - points);
  if (next) next.loyalty = (next.loyalty ?? 0) + points;
  order.customer_id = next ? next.id : null;
  order.loyalty = next && order.closing_date !== null ? points : null;
  return order;
}
