import { describe, expect, it } from 'vitest';
import { seedWorld } from '../../../src/control/seeded-world.js';
import { manualClock } from '../../../src/lib/clock.js';
import { uuidFrom } from '../../../src/lib/ids.js';
import { orderCompletedEvent, settleDataset } from '../../../src/modules/pos/api/pos.context.js';
import * as pos from '../../../src/modules/pos/api/pos.domain.js';
import type { PosDataset, PosOrder, PosPayment } from '../../../src/modules/pos/model/pos.records.js';
import {
  buildPosDataset,
  linePrice,
  orderLine,
  orderTotals,
} from '../../../src/modules/pos/world/pos.seed.js';
import { Ticker } from '../../../src/platform/ticker.js';
import { datasetStore, refusal } from '../domain-helpers.js';

/**
 * The Point of Sale rules as functions (pos.domain.ts, the settling of pos.context.ts) over the seeded
 * restaurant dataset of a connection (Zelty's: a French restaurant, 10 % on site, 5.5 % taken away, 20 %
 * on drinks), with a day of orders of our own after its activity. Amounts are written 'name n n…',
 * joined by '|': '10 2.45 26.95' is a rate, its tax and its total.
 */

const ARGS = { consumerid: 'consumer-pos', connectionid: 'connection-pos', integrationid: 9012 };
const SEEDED = buildPosDataset(7, { ...ARGS, until: '2026-01-15' }, '2026-01-15');
/** Each test's own dataset: a deep copy of the seeded one, which no test changes. */
const fresh = (): PosDataset => structuredClone(SEEDED);
const FAILURE = 'Error while trying to perform your request';
const failure = (detail: string) => ({ status: 400, message: FAILURE, detail, code: undefined });
const DAY = '2026-02-10';
const at = (time: string, day = DAY) => `${day}T${time}.000Z`;
const ids = (spec: string) => (spec ? spec.split(' ') : []);

function find<T>(what: string, list: readonly T[], test: (x: T) => boolean): T {
  const found = list.find(test);
  if (found === undefined) throw new Error(`missing ${what}`);
  return found;
}
const need = <T>(what: string, value: T | undefined) =>
  find(what, value === undefined ? [] : [value], () => true);
const named = <T extends { name: string | null }>(list: T[], name: string) =>
  find(name, list, (x) => x.name === name);
/** 'Visa / Mastercard 20 0.56' → ['Visa / Mastercard', [20, 0.56]]. */
const fields = (entry: string): [string, number[]] => {
  const [, name = '', numbers = ''] = /^(.*?)((?: [\d.]+)*)$/.exec(` ${entry.trim()}`) ?? [];
  return [name.trim(), numbers ? numbers.trim().split(' ').map(Number) : []];
};
const taxId = (d: PosDataset, rate: number) => find(`${rate}`, d.tax_rates, (t) => t.rate === rate).id;
const taxes = (d: PosDataset, spec: string) =>
  (spec ? spec.split('|') : []).map((entry) => {
    const [rate = 0, tax_amount, total] = fields(entry)[1];
    return { tax_id: taxId(d, rate), tax_rate: rate, tax_amount, total };
  });

/** The ApiError `run` throws: status, message, detail and error code. */

interface Sale {
  loc?: 0 | 1;
  created: string;
  closed: string | null;
  mode?: 'EAT_IN' | 'DELIVERY';
  /** 'Steak frites 1|Cola 2 0.5': product, quantity and the discount of each line. */
  lines: string;
  /** 'Espèces 20 2|CB 15.67': method, amount and tip; by default the total in cash. */
  pay?: string;
  customer?: string;
}

/** Adds an order as the till records one: its lines by orderLine, its totals by orderTotals. */
function addOrder(d: PosDataset, id: string, sale: Sale): PosOrder {
  const mode = sale.mode ?? 'EAT_IN';
  const items = sale.lines.split('|').map((entry, index) => {
    const [name, [quantity = 1, discount]] = fields(entry);
    const product = named(d.products, name);
    const { price, tax } = linePrice(d, product, mode);
    const discounts = discount ? [{ name: 'Offered', total: discount, type: 'OFFERED' as const }] : [];
    const line = { unitPrice: price.unit_price, quantity, tax, modifiers: [], discounts };
    return orderLine(id, index, product, line);
  });
  const totals = orderTotals(items);
  const paid = sale.closed === null ? [] : (sale.pay ?? `Espèces ${totals.total}`).split('|').map(fields);
  const payments = paid.map(([name, [total = 0, tip = 0]], index): PosPayment => {
    const method = { payment_method_id: named(d.payment_methods, name).id, payment_method_name: name };
    const common = { status: 'Completed', currency: 'EUR', invoice_ref: null, order_id: id } as const;
    return { id: `${id}-pay-${index + 1}`, ...method, total, tip, date: sale.closed, ...common };
  });
  const dates = { creation_date: sale.created, closing_date: sale.closed, service_date: sale.created };
  const location_id = need('location', d.locations[sale.loc ?? 0]).id;
  const till = { order_number: id, device_id: null, source: 'POS', currency: 'EUR', country: 'FR' } as const;
  const state = { loyalty: null, invoice_id: null, closes_at: null, planned_payment: null, guests: null };
  const tips = { total_tip: payments.reduce((t, p) => t + p.tip, 0), total_refund: 0 };
  const links = { id, mode, items, payments, location_id, customer_id: sale.customer ?? null };
  const order: PosOrder = { ...totals, ...dates, ...links, ...till, ...state, ...tips };
  d.orders[id] = order;
  return order;
}

/** The day: orders a and b at the first location, c at the second, d paid after midnight, e open. */
function scenario() {
  const d = fresh();
  const [loc0, loc1] = d.locations.map((l) => l.id) as [string, string];
  const a = { created: at('11:30:00'), closed: at('12:00:00'), lines: 'Steak frites 1|Cola 2' };
  addOrder(d, 'a', { ...a, pay: 'Espèces 20 2|CB 15.11' });
  const b = { mode: 'DELIVERY', created: at('18:40:00'), closed: at('19:00:00') } as const;
  addOrder(d, 'b', { ...b, lines: 'Steak frites 1|Frais de livraison 1', pay: 'CB 28.83' });
  const c = { loc: 1, created: at('23:30:00'), closed: '2026-02-10T23:59:59.999Z' } as const;
  addOrder(d, 'c', { ...c, lines: 'Expresso 1', pay: 'Visa / Mastercard 3.36' });
  addOrder(d, 'd', {
    created: at('23:50:00'),
    closed: at('00:00:00', '2026-02-11'),
    lines: 'Soupe à la tomate 1',
  });
  addOrder(d, 'e', { created: at('20:00:00'), closed: null, lines: 'Cola 1' });
  return { d, loc0, loc1 };
}
type Scene = ReturnType<typeof scenario>;

describe('orders', () => {
  it.each([
    ['a', 35.11, 3.81, 0, '10 2.45 26.95|20 1.36 8.16'],
    ['b', 28.83, 1.85, 2.98, '5.5 1.35 25.85|20 0.5 2.98'],
    ['c', 3.36, 0.56, 0, '20 0.56 3.36'],
    ['d', 7.15, 0.65, 0, '10 0.65 7.15'],
  ])('order %s comes to %d, taxes %d, delivery fee %d, per rate %s', (id, total, tax, fee, spec) => {
    const { d } = scenario();
    const order = pos.requireOrder(d, id);
    const expected = [total, tax, fee, taxes(d, spec)];
    expect([order.total, order.tax_amount, order.delivery_fee, order.taxes]).toEqual(expected);
  });

  it('refuses a line discounted beyond what it comes to, and frees an offered one', () => {
    const d = fresh();
    const sale = { created: at('10:00:00'), closed: null };
    const refused = refusal(() => addOrder(d, 'x', { ...sale, lines: 'Steak frites 1 24.51' }));
    expect(refused).toEqual(failure("The discounts (24.51) are more than the line's 24.5"));
    const offered = addOrder(d, 'y', { ...sale, lines: 'Steak frites 2 49' });
    expect([offered.total, offered.tax_amount, offered.total_discount]).toEqual([0, 0, 49]);
  });

  const missing = (what: string, id: string) => ({
    status: 404,
    message: `The ${what} could not be found`,
    detail: `No ${what} has the id '${id}'`,
    code: `ERROR_${what.toUpperCase()}_NOT_FOUND`,
  });
  it.each(['', 'nope', '__proto__', 'toString', 'constructor'])('answers the documented 404 for %j', (id) => {
    const d = fresh();
    expect(refusal(() => pos.requireOrder(d, id))).toEqual(missing('order', id));
    expect(refusal(() => pos.updateOrderCustomer(d, id, null))).toEqual(missing('order', id));
    expect(refusal(() => pos.requireCustomer(d, id))).toEqual(missing('customer', id));
  });

  it.each<[string, (s: Scene) => pos.OrderFilters, string]>([
    ['of the day', () => ({ date_from: DAY, date_to: DAY }), 'a b e c d'],
    ['open', () => ({ date_from: DAY, date_to: DAY, state: 'open' }), 'e'],
    ['closed', () => ({ date_from: DAY, date_to: DAY, state: 'closed' }), 'a b c d'],
    ['of a location', (s) => ({ date_from: DAY, date_to: DAY, location_id: s.loc1 }), 'c'],
    ['of a closure', (s) => ({ closure_id: pos.closureIdOf(s.d, s.loc0, DAY) }), 'a b'],
    ['of the next closure', (s) => ({ closure_id: pos.closureIdOf(s.d, s.loc0, '2026-02-11') }), 'd'],
    ['of the other location', (s) => ({ closure_id: pos.closureIdOf(s.d, s.loc1, DAY) }), 'c'],
    ['of an unknown closure', () => ({ date_from: DAY, closure_id: 'closure' }), ''],
    ['created from the next day', () => ({ date_from: '2026-02-11' }), ''],
    ['created the day before', () => ({ date_from: '2026-02-09', date_to: '2026-02-09' }), ''],
    ['of a reversed period', () => ({ date_from: '2026-02-11', date_to: DAY }), ''],
    ['of an unknown location', () => ({ location_id: 'nowhere' }), ''],
  ])('lists the orders %s, oldest first', (_name, filters, expected) => {
    const s = scenario();
    expect(pos.listOrders(s.d, filters(s)).map((o) => o.id)).toEqual(ids(expected));
  });

  it('sorts the orders of one instant by id', () => {
    const d = fresh();
    for (const id of ['z', 'y']) addOrder(d, id, { created: at('09:00:00'), closed: null, lines: 'Cola 1' });
    expect(pos.listOrders(d, { date_from: DAY }).map((o) => o.id)).toEqual(['y', 'z']);
  });

  it('answers an order without its internal fields, and the records of a location', () => {
    const s = scenario();
    const keys = Object.keys(pos.toOrderItem(pos.requireOrder(s.d, 'e')));
    const internal = ['closes_at', 'planned_payment', 'location_id'];
    expect(keys.filter((k) => internal.includes(k))).toEqual(['location_id']);
    const names = (loc?: string) => pos.atLocation(s.d.payment_methods, loc).map((m) => m.name);
    expect(names(s.loc0)).toEqual(['Espèces', 'CB', 'Visa / Mastercard', 'Titres-restaurant', 'Lydia']);
    expect(names(s.loc1)).toEqual(['Espèces', 'CB', 'Visa / Mastercard', 'Titres-restaurant']);
    expect([names().length, names('nowhere')]).toEqual([5, []]);
    expect(pos.withoutLocations(named(s.d.payment_methods, 'Espèces'))).not.toHaveProperty('location_ids');
  });
});

describe('payments, sales and closures of a day', () => {
  it.each([
    [DAY, DAY, 'a-pay-1 a-pay-2 b-pay-1 c-pay-1'],
    ['2026-02-11', '2026-02-11', 'd-pay-1'],
    [DAY, '2026-02-11', 'a-pay-1 a-pay-2 b-pay-1 c-pay-1 d-pay-1'],
    ['2026-02-11', DAY, ''],
    ['2026-02-12', '2026-12-31', ''],
  ])('lists the payments from %s to %s, oldest first', (from, to, expected) => {
    expect(pos.listPayments(scenario().d, from, to).map((p) => p.id)).toEqual(ids(expected));
  });

  it('dates payments by the day their order closed, and leaves out the undated ones', () => {
    const { d } = scenario();
    const [first, second] = pos.requireOrder(d, 'a').payments as [PosPayment, PosPayment];
    [first.date, second.date] = ['2026-02-09T23:00:00.000Z', null];
    expect(pos.listPayments(d, '2026-02-09', '2026-02-09')).toEqual([]);
    expect(pos.listPayments(d, DAY, DAY).map((p) => p.id)).toEqual(['a-pay-1', 'b-pay-1', 'c-pay-1']);
  });

  it.each<[string, string, 0 | 1 | 'nowhere' | undefined, number, number, string]>([
    [DAY, DAY, undefined, 67.3, 6.22, '5.5 1.35 25.85|10 2.45 26.95|20 2.42 14.5'],
    [DAY, DAY, 0, 63.94, 5.66, '5.5 1.35 25.85|10 2.45 26.95|20 1.86 11.14'],
    [DAY, DAY, 1, 3.36, 0.56, '20 0.56 3.36'],
    [DAY, '2026-02-11', undefined, 74.45, 6.87, '5.5 1.35 25.85|10 3.1 34.1|20 2.42 14.5'],
    // c was paid at 23:59:59.999 UTC: on the 10th, though it is past midnight in Paris (UTC days).
    ['2026-02-11', '2026-02-11', 1, 0, 0, ''],
    ['2026-02-11', DAY, undefined, 0, 0, ''],
    [DAY, DAY, 'nowhere', 0, 0, ''],
  ])('sums the sales from %s to %s at location %s: %d, taxes %d', (from, to, loc, total, tax, spec) => {
    const s = scenario();
    const location = typeof loc === 'number' ? [s.loc0, s.loc1][loc] : loc;
    expect(pos.salesOf(s.d, from, to, location)).toEqual({ total, tax_amount: tax, taxes: taxes(s.d, spec) });
  });

  it('closes a day once over: per location, its payments per method, tips apart, and taxes per rate', () => {
    const s = scenario();
    const paid = (spec: string) =>
      spec.split('|').map((entry) => {
        const [name, [tip, total]] = fields(entry);
        const method = named(s.d.payment_methods, name).id;
        return { payment_method_id: method, payment_method_name: name, tip, total };
      });
    const closure = (loc: string, [total, tax]: number[], pay: string, spec: string) => {
      const id = uuidFrom('pos-closure', 'connection-pos', loc, DAY);
      return { id, total, tax_amount: tax, payments: paid(pay), taxes: taxes(s.d, spec) };
    };
    const rates = '5.5 1.35 25.85|10 2.45 26.95|20 1.86 11.14';
    const first = closure(s.loc0, [63.94, 5.66], 'Espèces 2 20|CB 0 43.94', rates);
    const second = closure(s.loc1, [3.36, 0.56], 'Visa / Mastercard 0 3.36', '20 0.56 3.36');
    const closed = { date: DAY, status: 'closed', closures: [first, second] };
    expect(pos.closureOf(s.d, DAY, '2026-02-11')).toEqual(closed);
    // A day not over yet (the clock's day, or a day after it) is open, without closures.
    expect(pos.closureOf(s.d, DAY, DAY)).toEqual({ date: DAY, status: 'open', closures: [] });
    expect(pos.closureOf(s.d, DAY, '2026-02-01')).toEqual({ date: DAY, status: 'open', closures: [] });
    expect(pos.closureOf(s.d, DAY, '2026-03-01', s.loc1).closures).toEqual([second]);
    expect(pos.closureOf(s.d, DAY, '2026-03-01', 'nowhere').closures).toEqual([]);
    const quiet = pos.closureOf(s.d, '2026-02-12', '2026-03-01').closures ?? [];
    const zero = { total: 0, tax_amount: 0, payments: [], taxes: [] };
    expect(quiet).toMatchObject([zero, zero]);
  });
});

describe('objectives', () => {
  // Sunday to Saturday (× 0.8, 0.7, 0.85, 0.9, 1, 1.35, 1.4) of 200 + 150, the tax at 11.83 % (20, 10, 5.5).
  const WEEK = '01-11 280 29.63|01-12 245 25.92|01-13 297.5 31.48|01-14 315 33.33|01-15 350 37.03';
  const WEEKEND = '01-16 472.5 50|01-17 490 51.85';
  const MARCH = '03-28 490 51.85|03-29 280 29.63|03-30 245 25.92';
  it.each<[string, string, string, 'all' | 0 | 'nowhere', number, number, number, string]>([
    ['a week', '01-11', '01-17', 'all', 1, 7, 7, `${WEEK}|${WEEKEND}`],
    ['page 2 of it', '01-11', '01-17', 'all', 2, 3, 7, '01-14 315 33.33|01-15 350 37.03|01-16 472.5 50'],
    ['its last page', '01-11', '01-17', 'all', 3, 3, 7, '01-17 490 51.85'],
    ['a page past its end', '01-11', '01-17', 'all', 4, 3, 7, ''],
    ['a location', '01-11', '01-11', 0, 1, 7, 1, '01-11 160 16.93'],
    ['an unknown location', '01-11', '01-11', 'nowhere', 1, 7, 1, '01-11 0 0'],
    ['a reversed period', '01-17', '01-11', 'all', 1, 7, 0, ''],
    ['the change to summer time', '03-28', '03-30', 'all', 1, 5, 3, MARCH],
  ])('weights the daily objectives by weekday over %s', (_name, from, to, which, page, size, total, spec) => {
    const d = fresh();
    const [loc0, loc1] = d.locations.map((l) => l.id) as [string, string];
    d.daily_objectives = { [loc0]: 200, [loc1]: 150 };
    const loc = which === 'all' ? undefined : which === 0 ? loc0 : which;
    const answer = pos.objectivesOf(d, `2026-${from}`, `2026-${to}`, loc, page, size);
    const items = (spec ? spec.split('|') : []).map((entry) => {
      const [day, [sum, tax]] = fields(entry);
      return { total: sum, tax_amount: tax, date: `2026-${day}` };
    });
    expect(answer).toEqual({ items, total, page, size });
  });

  it.each([
    ['2028-01-01', '2028-12-31', 366, { total: 490, tax_amount: 51.85, date: '2028-01-01' }],
    ['2026-01-01', '2026-12-31', 365, { total: 350, tax_amount: 37.03, date: '2026-01-01' }],
  ])('counts the days from %s to %s: %d', (from, to, total, first) => {
    const d = fresh();
    d.daily_objectives = Object.fromEntries(d.locations.map((l, i) => [l.id, [200, 150][i] ?? 0]));
    const answer = { items: [first], total, page: 1, size: 1 };
    expect(pos.objectivesOf(d, from, to, undefined, 1, 1)).toEqual(answer);
  });

  it.each([
    ['the average of the non-zero rates', [21, 6, 0], 33.3],
    ['nothing when every rate is zero', [0, 0], 0],
    ['nothing without rates', [], 0],
  ])('takes as tax part %s', (_name, rates, tax) => {
    const d = fresh();
    d.tax_rates = rates.map((rate, i) => ({ id: `t${i}`, label: null, rate, tax_code: null }));
    d.daily_objectives = { [need('location', d.locations[0]).id]: 350 };
    const { items } = pos.objectivesOf(d, '2026-01-11', '2026-01-11', undefined, 1, 1);
    expect(items).toEqual([{ total: 280, tax_amount: tax, date: '2026-01-11' }]);
  });
});

describe('the e-reporting summary', () => {
  const GOODS = 'Supply of goods subject to value-added tax.';
  const SERVICES = 'Services subject to value-added tax.';
  /** 'Espèces 10 1.4 15.35': what a method collected at a rate, tax and total. */
  const shares = (d: PosDataset, spec: string) =>
    spec.split('|').map((entry) => {
      const [name, [rate = 0, tax_amount, total]] = fields(entry);
      const method = { payment_method_id: named(d.payment_methods, name).id, payment_method_name: name };
      return { tax_id: taxId(d, rate), tax_rate: rate, tax_amount, total, ...method, currency: 'EUR' };
    });

  it.each([['given'], ['by default']])(
    'splits goods, services and payments per rate (location %s)',
    (how) => {
      const s = scenario();
      const line = (category: string, [total, tax, orders]: number[], spec: string) => {
        const head = { currency: 'EUR', total, tax_amount: tax, tax_duedatetypecode: null, category };
        return { ...head, total_orders: orders, taxes: taxes(s.d, spec) };
      };
      const goods = line(GOODS, [60.96, 5.16, 2], '5.5 1.35 25.85|10 2.45 26.95|20 1.36 8.16');
      // Cash paid 20 of 35.11: 15.35 (tax 1.40) at 10 %, the last rate the rest, 4.65 (tax 2.17 − 1.40).
      const cash = 'Espèces 10 1.4 15.35|Espèces 20 0.77 4.65';
      const card = 'CB 10 1.05 11.6|CB 20 1.09 6.49|CB 5.5 1.35 25.85';
      expect(pos.reportOf(s.d, DAY, how === 'given' ? s.loc0 : undefined)).toEqual({
        date: DAY,
        location_id: s.loc0,
        orders: [goods, line(SERVICES, [2.98, 0.5, 1], '20 0.5 2.98')],
        payments: shares(s.d, `${cash}|${card}`),
      });
    },
  );

  it('reports another location, an unknown one, a free order; refuses a connection without any', () => {
    const s = scenario();
    const other = pos.reportOf(s.d, DAY, s.loc1);
    const lines = (other.orders ?? []).map((o) => [o.category, o.total, o.tax_amount, o.total_orders]);
    expect(lines).toEqual([[GOODS, 3.36, 0.56, 1]]);
    expect(other.payments).toEqual(shares(s.d, 'Visa / Mastercard 20 0.56 3.36'));
    const nowhere = { date: DAY, location_id: 'nowhere', orders: [], payments: [] };
    expect(pos.reportOf(s.d, DAY, 'nowhere')).toEqual(nowhere);
    const day = '2026-02-12';
    const free = { created: at('10:00:00', day), closed: at('10:30:00', day), lines: 'Cola 1 3.4' };
    addOrder(s.d, 'free', { ...free, pay: 'Espèces 0' });
    const report = pos.reportOf(s.d, day);
    expect((report.orders ?? []).map((o) => [o.total, o.tax_amount, o.total_orders])).toEqual([[0, 0, 1]]);
    expect(report.payments).toEqual([]);
    s.d.locations = [];
    expect(refusal(() => pos.reportOf(s.d, DAY))).toEqual(failure('The connection has no location'));
  });

  it('splits a payment over three rates in proportion, the last rate taking what rounding leaves', () => {
    const d = fresh();
    need('price', named(d.products, 'Soupe à la tomate').prices[0]).tax_rate = 5.5;
    const day = { created: at('10:00:00', '2026-02-12'), closed: at('10:30:00', '2026-02-12') };
    // 41.97 (tax 4.17): 6.86 at 5.5 % (0.36), 26.95 at 10 % (2.45), 8.16 at 20 % (1.36).
    const lines = 'Soupe à la tomate 1|Steak frites 1|Cola 2';
    addOrder(d, 'f', { ...day, lines, pay: 'Espèces 1.27|CB 40.7' });
    // Cash: 0.21 and 0.82, then 0.24 (not 1.27 × 8.16 / 41.97 = 0.25); tax 0.01, 0.07, then 0.13 − 0.08.
    const cash = 'Espèces 5.5 0.01 0.21|Espèces 10 0.07 0.82|Espèces 20 0.05 0.24';
    const card = 'CB 5.5 0.35 6.65|CB 10 2.38 26.13|CB 20 1.31 7.92';
    expect(pos.reportOf(d, '2026-02-12').payments).toEqual(shares(d, `${cash}|${card}`));
  });
});

describe('open orders the clock completes', () => {
  const CLOSES = at('21:00:00');
  function openOrder(plan: 'CB' | 'unknown' | null, loyalty: number | null, known = true) {
    const d = fresh();
    const client = need('customer', Object.values(d.customers)[0]);
    client.loyalty = loyalty;
    const sale = { created: at('20:00:00'), closed: null, lines: 'Steak frites 2' };
    const order = addOrder(d, 'open', { ...sale, customer: known ? client.id : 'ghost' });
    order.closes_at = CLOSES;
    const method = plan === 'unknown' ? 'no-method' : plan && named(d.payment_methods, plan).id;
    order.planned_payment = method ? { payment_method_id: method, tip: 1.5 } : null;
    d.open_orders = ['open', 'no-order'];
    return { d, order, client };
  }

  it.each([
    ['a millisecond before its time', '2026-02-10T20:59:59.999Z', false, CLOSES],
    ['at its time', CLOSES, true, CLOSES],
    ['long after its time', '2026-03-01T00:00:00.000Z', true, CLOSES],
    ['never without a time to close', '9999-01-01T00:00:00.000Z', false, null],
  ])('completes an order %s, paid in full at its time', (_name, now, done, closes) => {
    const { d, order, client } = openOrder('CB', 10);
    order.closes_at = closes;
    expect(pos.completeDueOrders(d, new Date(now)).map((o) => o.id)).toEqual(done ? ['open'] : []);
    // The id of no order is forgotten either way.
    expect(d.open_orders).toEqual(done ? [] : ['open']);
    if (!done) return expect([order.closing_date, order.payments, client.loyalty]).toEqual([null, [], 10]);
    const closed = { closing_date: CLOSES, total_tip: 1.5, loyalty: 53, closes_at: null };
    expect(order).toMatchObject({ ...closed, planned_payment: null });
    const method = named(d.payment_methods, 'CB').id;
    const amounts = { total: 53.9, tip: 1.5, status: 'Completed', currency: 'EUR', date: CLOSES };
    const payment = { id: uuidFrom('pos-payment', 'open', 0), payment_method_id: method, ...amounts };
    const links = { payment_method_name: 'CB', invoice_ref: null, order_id: 'open' };
    expect(order.payments).toEqual([{ ...payment, ...links }]);
    expect(client.loyalty).toBe(63);
  });

  it.each<[string, 'CB' | 'unknown' | null, number | null, boolean, unknown[]]>([
    ['an unknown planned method', 'unknown', 10, true, [null, 53.9, 1.5, 53, 63]],
    ['no planned payment', null, 10, true, [null, 53.9, 0, 53, 63]],
    ['a customer without points yet', 'CB', null, true, ['CB', 53.9, 1.5, 53, 53]],
    ['a customer who is no more', 'CB', 10, false, ['CB', 53.9, 1.5, null, 10]],
  ])('completes an order with %s', (_name, plan, loyalty, known, expected) => {
    const { d, order, client } = openOrder(plan, loyalty, known);
    pos.completeDueOrders(d, new Date(CLOSES));
    const paid = need('payment', order.payments[0]);
    expect([paid.payment_method_name, paid.total, paid.tip, order.loyalty, client.loyalty]).toEqual(expected);
  });

  it('keeps the seeded open orders open at the end of the activity, and pays them within 90 minutes', () => {
    const d = fresh();
    const open = d.open_orders.map((id) => pos.requireOrder(d, id));
    const times = open.map((o) => o.closes_at);
    expect(open.length).toBeGreaterThan(0);
    expect(pos.completeDueOrders(d, new Date('2026-01-15T09:00:00.000Z'))).toEqual([]);
    const done = pos.completeDueOrders(d, new Date('2026-01-15T10:30:00.000Z'));
    expect([done, d.open_orders, done.map((o) => o.closing_date)]).toEqual([open, [], times]);
    const paid = done.map((o) => [o.payments.length, o.payments[0]?.total, o.payments[0]?.tip]);
    expect(paid).toEqual(done.map((o) => [1, o.total, o.total_tip]));
  });

  it('settles a dataset: completes the due orders and publishes pos.order.completed for each', () => {
    const store = datasetStore(seedWorld(7));
    const world = store.world;
    const consumer = need('consumer', Object.values(world.consumers)[0]);
    const { accountid, envid, consumerid } = consumer;
    const hook = { webhookid: 'hook', createdby: null, createdon: DAY, url: 'https://example.test/hook' };
    const subscription = { event: 'pos.order.completed', integrationid: null, signingsecret: null };
    world.webhooks.hook = { ...hook, ...subscription, accountid, envid, status: 'active' };
    let minted = 0;
    const noop = async () => undefined;
    const services = {
      store,
      clock: manualClock(new Date('2026-01-15T10:30:00.000Z')),
      ids: { next: (kind: string) => `${kind}-${++minted}` },
      ticker: new Ticker(noop, noop),
    };
    const d = { ...fresh(), consumerid };
    const due = [...d.open_orders].sort();
    const before = Object.keys(world.webhook_deliveries).length;
    expect(settleDataset(services, world, d)).toBe(due.length);
    const deliveries = Object.values(world.webhook_deliveries).slice(before);
    const bodies = deliveries.map((x) => JSON.parse(x.body));
    expect(bodies.map((b) => b.order_id).sort()).toEqual(due);
    const envelope = ['pos.order.completed', consumerid, 'connection-pos', 9012];
    const envelopes = bodies.map((b) => [b.event, b.consumerid, b.connectionid, b.integrationid]);
    expect(envelopes).toEqual(due.map(() => envelope));
    const order = pos.requireOrder(d, bodies[0].order_id);
    const { id: order_id, order_number, location_id, closing_date, total } = order;
    const fields = { order_id, order_number, location_id, closing_date, total, currency: 'EUR' };
    const event = { accountid, envid, event: 'pos.order.completed', consumerid, integrationid: 9012 };
    const connection = { connectionid: 'connection-pos', integrationid: 9012 };
    expect(orderCompletedEvent(consumer, d, order)).toEqual({
      ...event,
      fields: { ...connection, ...fields },
    });
    expect(settleDataset(services, world, d)).toBe(0);
    const orphan = { ...fresh(), consumerid: 'no-consumer' };
    expect([settleDataset(services, world, orphan), orphan.open_orders]).toEqual([due.length, []]);
    expect(Object.keys(world.webhook_deliveries)).toHaveLength(before + due.length);
  });

  it('builds the dataset of a connection once, from the seed, up to the clock day', () => {
    const store = datasetStore(seedWorld(7));
    const connections = Object.values(store.world.connections);
    const connection = find('pos', connections, (c) => c.integrationid === 9012 && c.status === 'active');
    const first = pos.posDatasetOf(store, connection);
    expect(pos.posDatasetOf(store, connection)).toBe(first);
    const { consumerid, connectionid, integrationid } = connection;
    const args = { consumerid, connectionid, integrationid, until: '2026-01-15' };
    expect(first).toEqual(buildPosDataset(7, args, '2026-01-15'));
  });
});

describe('customers', () => {
  const NOW = '2026-02-10T10:00:00.000Z';
  function withCustomers() {
    const d = fresh();
    const add = (id: string, first_name: string, last_name: string, email?: string, phone?: string) =>
      pos.createCustomer(d, { first_name, last_name, email, phone }, () => id, NOW);
    add('cust-1', ' Zoé ', 'Qqzwick ', ' Zoe.Q@Example.com ', '+32 470 12 34 56');
    add('cust-3', 'Adam', 'Qqzwick', '   ');
    add('cust-2', 'Adam', 'Qqzwick');
    return d;
  }

  it('creates a customer trimmed, without points, and counts it', () => {
    const d = withCustomers();
    expect(d.counters.customer).toBe(33);
    const names = { id: 'cust-1', first_name: 'Zoé', last_name: 'Qqzwick', name: 'Zoé Qqzwick' };
    const contact = { phone: '+32 470 12 34 56', email: 'Zoe.Q@Example.com', created_on: NOW };
    const rest = { addresses: [], loyalty: 0, birthdate: null };
    expect(pos.requireCustomer(d, 'cust-1')).toEqual({ ...names, ...contact, ...rest });
    const [blank, none] = [pos.requireCustomer(d, 'cust-3'), pos.requireCustomer(d, 'cust-2')];
    expect([blank.email, none.phone]).toEqual([null, null]);
    const address = { name: 'Home', city: 'Gent', postal_code: '9000', country: 'be' };
    const home = pos.createCustomer(d, { first_name: 'A', last_name: 'B', address }, () => 'cust-4', NOW);
    const filled = { address_type: 'Home', street: null, number: null, box: null, country: 'BE' };
    expect(home.addresses).toEqual([{ ...address, ...filled }]);
  });

  it.each([
    ['XX', 'XX is not a valid country code'],
    ['BEL', 'BEL is not a valid country code'],
    ['be', null],
    ['', null],
    [null, null],
  ])('checks the country %j of a new customer', (country, detail) => {
    const d = fresh();
    const address = { name: 'Home', city: 'Gent', postal_code: '9000', country };
    const input = { first_name: 'A', last_name: 'B', address };
    if (detail === null) return expect(() => pos.checkNewCustomer(input)).not.toThrow();
    let minted = 0;
    expect(refusal(() => pos.createCustomer(d, input, () => `c${++minted}`, NOW))).toEqual(failure(detail));
    expect([minted, d.counters.customer, Object.keys(d.customers).length]).toEqual([0, 30, 30]);
  });

  it.each([
    [{ search: 'qqzw' }, 'cust-2 cust-3 cust-1'],
    [{ search: 'ZOE.Q@' }, 'cust-1'],
    [{ search: '470 12' }, 'cust-1'],
    [{ email: 'zoe.q@example.com ' }, 'cust-1'],
    [{ email: 'zoe.q@example' }, ''],
    [{ phone: '+32470123456' }, 'cust-1'],
    [{ phone: '0470123456' }, ''],
    [{ search: 'qqzw', email: 'nobody@example.com' }, ''],
  ])('finds the customers of %j, by name then id', (filters, expected) => {
    expect(pos.listCustomers(withCustomers(), filters).map((c) => c.id)).toEqual(ids(expected));
  });

  type Target = 'x' | 'y' | 'z' | 'ghost' | null | undefined;
  it.each<[string, boolean, number, Target, string, Target, number | null]>([
    ['moves the points of a closed order', true, 100, 'y', '65 40 null', 'y', 35],
    ['takes them back when unlinked', true, 100, null, '65 5 null', null, null],
    ['gives them to a customer without points', true, 100, 'z', '65 5 35', 'z', 35],
    ['takes no more points than the former customer has', true, 20, 'y', '0 40 null', 'y', 35],
    ['changes nothing without a customer_id', true, 100, undefined, '100 5 null', 'x', 35],
    ['changes nothing for the same customer', true, 20, 'x', '20 5 null', 'x', 35],
    ['moves no points for an open order', false, 100, 'y', '100 5 null', 'y', null],
  ])('%s', (_name, closed, xPoints, target, points, linked, orderPoints) => {
    const d = fresh();
    const person = (id: string) => pos.createCustomer(d, { first_name: id, last_name: id }, () => id, NOW);
    const people = ['x', 'y', 'z'].map(person);
    people.forEach((c, i) => {
      c.loyalty = [xPoints, 5, null][i] ?? null;
    });
    const paid = closed ? at('12:00:00') : null;
    const sale = { created: at('11:30:00'), closed: paid, lines: 'Steak frites 1|Cola 2' };
    const order = addOrder(d, 'o', { ...sale, customer: 'x' });
    order.loyalty = closed ? 35 : null;
    expect(pos.updateOrderCustomer(d, 'o', target)).toBe(order);
    expect(people.map((c) => String(c.loyalty)).join(' ')).toBe(points);
    expect([order.customer_id, order.loyalty]).toEqual([linked, orderPoints]);
  });

  it('refuses an unknown customer and changes nothing', () => {
    const d = fresh();
    addOrder(d, 'o', { created: at('11:30:00'), closed: null, lines: 'Cola 1' });
    const before = structuredClone(d);
    const refused = refusal(() => pos.updateOrderCustomer(d, 'o', 'ghost'));
    expect([refused, d]).toEqual([failure("The customer 'ghost' does not exist"), before]);
  });
});
