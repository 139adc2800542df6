import { describe, expect, it } from 'vitest';
import { seedWorld } from '../../../src/control/seeded-world.js';
import { uuidFrom } from '../../../src/lib/ids.js';
import * as pms from '../../../src/modules/pms/api/pms.domain.js';
import type { PmsCustomer, PmsDataset, PmsPayment } from '../../../src/modules/pms/model/pms.records.js';
import { buildPmsDataset } from '../../../src/modules/pms/world/pms.seed.js';
import { bookStay, nextStay, stayLine } from '../../../src/modules/pms/world/pms.stays.js';
import { datasetStore, refusal } from '../domain-helpers.js';

/**
 * The Property Management System rules as functions (pms.domain.ts, pms.stays.ts) over the seeded
 * dataset of a Thais connection (French hotels, in Paris and Lyon), with stays of our own in June 2030,
 * after its activity. Lines and payments are written 'name n n…' joined by '|': 'ROOM 2 129' is two
 * nights at 129, 'Chèque-Vacances 20' a payment.
 */

const CONNECTION = 'connection-pms';
const ARGS = { consumerid: 'consumer-pms', connectionid: CONNECTION, integrationid: 9503 };
const SEEDED = buildPmsDataset(7, { ...ARGS, until: '2026-01-15' }, '2026-01-15');
/** Each test's own dataset: a deep copy of the seeded one, its next stay numbered 1001, invoice 2001. */
const fresh = (): PmsDataset => ({ ...structuredClone(SEEDED), counters: { order: 1000, invoice: 2000 } });
const ids = (spec: string) => (spec ? spec.split(' ') : []);
const at = (day: string, time: string) => `2030-06-${day}T${time}:00.000Z`;
const BOOKED = '2030-05-01T12:00:00.000Z';

function find<T>(what: string, list: readonly T[], test: (x: T) => boolean): T {
  const found = list.find(test);
  if (found === undefined) throw new Error(`missing ${what}`);
  return found;
}
const need = <T>(what: string, value: T | undefined) =>
  find(what, value === undefined ? [] : [value], () => true);
const fields = (entry: string): [string, number[]] => {
  const [, name = '', numbers = ''] = /^(.*?)((?: [\d.]+)*)$/.exec(` ${entry.trim()}`) ?? [];
  return [name.trim(), numbers ? numbers.trim().split(' ').map(Number) : []];
};
/** The tax of each accounting category in France: rooms and food at 10 %, minibar and parking at 20 %. */
const TAX = { ROOM: 'v10', BRK: 'v10', FNB: 'v20', PARK: 'v20', CITY: 'city' } as const;
const category = (d: PmsDataset, code: string) => find(code, d.accounting_categories, (c) => c.code === code);
const tax = (d: PmsDataset, key: string) =>
  find(key, d.tax_rates, (t) => t.rate === (key === 'city' ? null : Number(key.slice(1))));
const method = (d: PmsDataset, name: string) => find(name, d.payment_methods, (m) => m.name === name);

/** The ApiError `run` throws: status, message, detail and error code. */

interface Stay {
  loc: 0 | 1;
  checkIn: string;
  checkOut: string;
  closed: boolean;
  /** 'ROOM 2 129 25.8|CITY 2 5.2': category code, quantity, unit price and a discount. */
  lines: string;
  /** 'Carte bancaire 110|Chèque-Vacances 271.35'. */
  pay?: string;
  customer: string;
}

/** Books a stay as the seeder does: numbered by nextStay, lines by stayLine, stored by bookStay. */
function addStay(d: PmsDataset, stay: Stay): string {
  const { number, orderId } = nextStay(d);
  const lines = stay.lines.split('|').map((entry, index) => {
    const [code, [quantity = 0, unitPrice = 0, off]] = fields(entry) as [keyof typeof TAX, number[]];
    const discount = off ? { name: 'Long stay discount', total: off } : null;
    const line = { description: code, quantity, unitPrice, discount, categoryId: category(d, code).id };
    return stayLine(orderId, number, index, { ...line, tax: tax(d, TAX[code]) });
  });
  const locationId = need('location', d.locations[stay.loc]).id;
  const room = find('room', d.rooms, (r) => r.location_id === locationId);
  // The payments say in their description what bookStay asked them for: the invoice's id and total.
  const payments = (invoiceId: string, invoiceNumber: string, invoiceTotal: number): PmsPayment[] =>
    (stay.pay ? stay.pay.split('|') : []).map((entry, i) => {
      const [name, [total = 0]] = fields(entry);
      const paid = { payment_method_id: method(d, name).id, payment_method_name: name, total, tip: 0 };
      const source_ref = { id: `${invoiceNumber}/${i + 1}`, model: 'payment' };
      const refs = { source_ref, invoice_ref: invoiceNumber };
      const more = { status: 'Completed', currency: 'EUR', date: stay.checkOut } as const;
      const customer = { customer_id: stay.customer, description: `${invoiceId} ${invoiceTotal}` };
      return { id: `pay-${number}-${i + 1}`, ...paid, ...refs, ...more, ...customer };
    });
  const dates = { checkIn: stay.checkIn, checkOut: stay.checkOut, booked: BOOKED };
  const rest = { room, locationId, customerId: stay.customer, guests: 2, closed: stay.closed };
  bookStay(d, { orderId, number, lines, ...dates, ...rest, payments, source: () => 'WEB' });
  return orderId;
}

/**
 * June 2030: a (first hotel, Paris, two nights) and b (second hotel, Lyon) check out on the 12th; c
 * arrives on the 12th and is still there; d arrives at 23:30 UTC on the 12th (01:30 in Paris) and
 * leaves on the 13th. Their invoices x (F2030-02001), y (02002) and z (02003). The taxe de séjour is
 * Paris's 5.20 and Lyon's 1.65 a person and night.
 */
function scenario() {
  const d = fresh();
  const [loc0, loc1] = d.locations.map((l) => l.id) as [string, string];
  const guest = find('guest', Object.values(d.customers), (c) => !c.is_company);
  const company = find('company', Object.values(d.customers), (c) => c.is_company);
  const stay = (loc: 0 | 1, checkIn: string, checkOut: string, lines: string, pay?: string) =>
    ({ loc, checkIn, checkOut, lines, pay, closed: pay !== undefined, customer: guest.id }) as const;
  const [nights, paid] = [
    'ROOM 1 129|ROOM 1 154|BRK 3 16.5|CITY 3 5.2',
    'Carte bancaire 110|Chèque-Vacances 271.35',
  ];
  const s1 = addStay(d, stay(0, at('10', '15:00'), at('12', '10:00'), nights, paid));
  const parked = 'ROOM 1 109|PARK 1 22|CITY 2 1.65';
  const second = stay(1, at('11', '16:00'), at('12', '09:00'), parked, 'Carte bancaire 149.6');
  const s2 = addStay(d, { ...second, customer: company.id });
  const s3 = addStay(d, stay(0, at('12', '17:00'), at('14', '10:00'), 'ROOM 2 129|CITY 2 5.2'));
  const s4 = addStay(d, stay(1, at('12', '23:30'), at('13', '09:00'), 'ROOM 1 109', 'Chèque-Vacances 119.9'));
  const invoice = (n: number) => uuidFrom('pms', CONNECTION, 'invoice', 2000 + n);
  const all = [s1, s2, s3, s4, invoice(1), invoice(2), invoice(3)];
  const letters = new Map(all.map((id, i) => [id, 'abcdxyz'[i]]));
  const named = (list: { id: string }[]) => list.map((x) => letters.get(x.id) ?? x.id).join(' ');
  return { d, loc0, loc1, guest, company, s1, s2, s3, s4, invoice, named };
}
type Scene = ReturnType<typeof scenario>;

describe('stays', () => {
  it.each([
    ['ROOM', 2, 129, 0, 'v10', '283.8 25.8 10'],
    ['ROOM', 4, 109, 43.6, 'v10', '431.64 39.24 10'],
    ['BRK', 3, 16.5, 0, 'v10', '54.45 4.95 10'],
    ['FNB', 3, 4.5, 0, 'v20', '16.2 2.7 20'],
    ['CITY', 3, 5.2, 0, 'city', '15.6 0 0'],
    ['ROOM', 0, 129, 0, 'v10', '0 0 10'],
  ])('totals %s: %d × %d less %d at %s: %s', (code, quantity, unitPrice, off, key, expected) => {
    const d = fresh();
    const discount = off ? { name: 'Long stay discount', total: off } : null;
    const input = { description: code, quantity, unitPrice, tax: tax(d, key), discount };
    const line = stayLine('abcdefgh-order', 42, 2, { ...input, categoryId: category(d, code).id });
    expect(`${line.total} ${line.tax_amount} ${line.tax_rate}`).toBe(expected);
    const ref = { id: 'abcdefgh-3', source_ref: { id: '42.3', model: 'folio_line' }, type: 'service' };
    const ids = { tax_id: tax(d, key).id, accounting_category_id: category(d, code).id, product_id: null };
    const discounts = discount ? [{ name: 'Long stay discount', total: off, type: 'UNKNOWN' }] : [];
    expect(line).toMatchObject({ ...ref, ...ids, quantity, unit_price: unitPrice, discounts });
  });

  it('taxes no city tax nor a rate that is not set, and numbers stays after the last one', () => {
    const d = fresh();
    const input = { description: 'x', quantity: 1, unitPrice: 10, categoryId: 'c', discount: null };
    const line = stayLine('order', 1, 0, { ...input, tax: { ...tax(d, 'v10'), rate: null } });
    expect(line).toMatchObject({ total: 10, tax_amount: 0, tax_rate: 0 });
    const city = stayLine('order', 1, 0, { ...input, tax: { ...tax(d, 'city'), rate: 5 } });
    expect(city).toMatchObject({ total: 10, tax_amount: 0, tax_rate: 0 });
    expect(nextStay(d)).toEqual({ number: 1001, orderId: uuidFrom('pms', CONNECTION, 'order', 1001) });
    expect(d.counters.order).toBe(1001);
    d.counters = {};
    expect(nextStay(d).number).toBe(1);
  });

  it('stores a checked-out stay with its invoice, paid by the payments asked for its total', () => {
    const s = scenario();
    const order = need('a', s.d.orders[s.s1]);
    const invoice = need('x', s.d.invoices[s.invoice(1)]);
    const [x, out] = [s.invoice(1), at('12', '10:00')];
    const source_ref = { id: 'F2030-02001', model: 'invoice' };
    const numbered = { id: x, source_ref, invoice_number: 'F2030-02001' };
    const links = { customer_id: s.guest.id, order_id: s.s1, location_id: s.loc0, service_id: null };
    // Nights 129 + 154 and breakfasts 3 x 16.5 at 10 %: 332.5 + 33.25; the taxe de séjour 3 x 5.20.
    const amounts = { tax_amount: 33.25, untaxed_amount: 348.1, total: 381.35, currency: 'EUR' };
    const dated = { ...numbered, creation_date: out, closing_date: out };
    expect(invoice).toMatchObject({ ...dated, ...links, ...amounts });
    const asked = invoice.payments.map((p) => `${p.id} ${p.total} ${p.description}`);
    expect(asked).toEqual([`pay-1001-1 110 ${x} 381.35`, `pay-1001-2 271.35 ${x} 381.35`]);
    const folio = { source_ref: { id: 'FOLIO-001001', model: 'folio' }, order_number: '1001', guests: 2 };
    const dates = { creation_date: BOOKED, closing_date: out, service_date: at('10', '15:00') };
    const totals = { total: 381.35, tax_amount: 33.25, total_discount: 0, invoice_ids: [x], source: 'WEB' };
    expect(order).toMatchObject({ ...folio, ...dates, ...totals });
    const rate = (key: string, tax_amount: number, total: number) => {
      const { id, rate } = tax(s.d, key);
      return { tax_id: id, tax_rate: rate ?? 0, tax_amount, total };
    };
    const taxes = [rate('city', 0, 15.6), rate('v10', 33.25, 365.75)];
    expect(order.taxes).toEqual(taxes);
    const room = find('room', s.d.rooms, (r) => r.location_id === s.loc0);
    const resource = { id: room.id, source_ref: { id: room.identifier, model: 'room' } };
    const id = uuidFrom('pms', CONNECTION, 'reservation', 1001);
    const booking = { id, source_ref: { id: 'RES-001001', model: 'reservation' }, creation_date: BOOKED };
    const period = { start_date: at('10', '15:00'), end_date: out, resource_id: resource };
    const names = { resource_name: room.name, resource_identifier: room.identifier };
    expect(order.reservation).toEqual({ ...booking, ...period, ...names });
  });

  it('stores a running stay without invoice, and numbers invoices by the year of check-out', () => {
    const d = fresh();
    const guest = need('guest', Object.keys(d.customers)[0]);
    const stay = { loc: 0, lines: 'ROOM 2 129 25.8', customer: guest } as const;
    const june = { checkIn: at('12', '17:00'), checkOut: at('14', '10:00'), closed: false };
    const open = addStay(d, { ...stay, ...june });
    // 2 × 129 − 25.8 = 232.2, and its 10 %: 23.22.
    const running = { closing_date: null, invoice_ids: [], total: 255.42, tax_amount: 23.22 };
    expect(d.orders[open]).toMatchObject({ ...running, total_discount: 25.8 });
    expect([d.counters.invoice, Object.keys(d.invoices)]).toEqual([2000, Object.keys(SEEDED.invoices)]);
    const year = { checkIn: '2030-12-30T15:00:00.000Z', checkOut: '2031-01-01T10:00:00.000Z', closed: true };
    addStay(d, { ...stay, ...year, pay: 'Chèque-Vacances 255.42' });
    expect(d.invoices[uuidFrom('pms', CONNECTION, 'invoice', 2001)]?.invoice_number).toBe('F2031-02001');
  });
});

describe('stays, invoices and payments of a period', () => {
  type Loc = 0 | 1 | 'nowhere' | undefined;
  const where = (s: Scene, loc: Loc) => (typeof loc === 'number' ? [s.loc0, s.loc1][loc] : loc);
  const june = (from: string, to: string) => ({ date_from: `2030-06-${from}`, date_to: `2030-06-${to}` });
  it.each<[string, string, string, 'consumed' | 'closed' | undefined, Loc, string]>([
    ['checked in', '10', '11', undefined, undefined, 'a b'],
    ['checked in (UTC days)', '12', '12', 'consumed', undefined, 'c d'],
    ['checked in', '13', '13', undefined, undefined, ''],
    ['checked out', '12', '12', 'closed', undefined, 'a b'],
    ['checked out', '13', '14', 'closed', undefined, 'd'],
    ['checked out at a hotel', '12', '12', 'closed', 1, 'b'],
    ['checked in at no hotel', '10', '30', undefined, 'nowhere', ''],
    ['checked in (reversed)', '12', '10', undefined, undefined, ''],
  ])('lists the stays %s from the %s to the %s, by check-in', (_name, from, to, state, loc, expected) => {
    const s = scenario();
    const found = pms.listOrders(s.d, { ...june(from, to), state, location_id: where(s, loc) });
    expect(s.named(found)).toBe(expected);
  });

  it.each<[string, string, Loc, string]>([
    ['12', '12', undefined, 'y x'],
    ['12', '12', 0, 'x'],
    ['13', '13', undefined, 'z'],
    ['10', '11', undefined, ''],
    ['13', '12', 1, ''],
    ['12', '13', 'nowhere', ''],
  ])('lists the invoices from the %s to the %s (hotel %s), oldest first', (from, to, loc, expected) => {
    const s = scenario();
    expect(s.named(pms.listInvoices(s.d, { ...june(from, to), location_id: where(s, loc) }))).toBe(expected);
  });

  it.each([
    ['12', '12', 'pay-1002-1 pay-1001-1 pay-1001-2'],
    ['13', '13', 'pay-1004-1'],
    ['12', '13', 'pay-1002-1 pay-1001-1 pay-1001-2 pay-1004-1'],
    ['13', '12', ''],
  ])('lists the payments from the %s to the %s, oldest first', (from, to, expected) => {
    const s = scenario();
    expect(pms.listPayments(s.d, `2030-06-${from}`, `2030-06-${to}`).map((p) => p.id)).toEqual(ids(expected));
  });

  it('answers payments, stays and invoices with their partner, bills and lines', () => {
    const s = scenario();
    const invoice = need('x', s.d.invoices[s.invoice(1)]);
    const paid = need('payment', invoice.payments[0]);
    const guest = { id: s.guest.id, source_ref: s.guest.source_ref };
    const payment = pms.toPaymentItem(s.d, paid);
    expect([Object.keys(payment).includes('customer_id'), payment.partner_id]).toEqual([false, guest]);
    expect(pms.toPaymentItem(s.d, { ...paid, customer_id: null }).partner_id).toBeNull();
    const { first_name, last_name, company_name, addresses } = s.guest;
    const partner = { ...guest, type: 'account', address: addresses[0], first_name, last_name, company_name };
    const { id, invoice_number, creation_date, closing_date, source_ref } = invoice;
    const bill = { id, source_ref, invoice_number, creation_date, closing_date, partners: [partner] };
    const order = need('a', s.d.orders[s.s1]);
    const item = pms.toOrderItem(s.d, order);
    expect([Object.keys(item).includes('invoice_ids'), item.bills]).toEqual([false, [bill]]);
    expect(pms.toOrderItem(s.d, need('c', s.d.orders[s.s3])).bills).toEqual([]);
    expect(pms.toOrderItem(s.d, { ...order, invoice_ids: ['nope', id] }).bills).toEqual([bill]);
    const amounts = { tax_amount: 33.25, untaxed_amount: 348.1, total: 381.35, service_id: null };
    const payments = invoice.payments.map((p) => ({ ...p, customer_id: undefined, partner_id: guest }));
    const stay = { items: order.items, reservation: order.reservation, payments };
    expect(pms.toInvoiceItem(s.d, invoice)).toEqual({ ...bill, ...amounts, ...stay });
    const orphan = pms.toInvoiceItem(s.d, { ...invoice, order_id: 'nope', customer_id: 'nope' });
    expect([orphan.items, orphan.reservation, orphan.partners]).toEqual([[], null, []]);
  });
});

describe('closures', () => {
  it('closes a day once over, per hotel: its invoices, their payments per method, taxes per rate', () => {
    const s = scenario();
    const day = '2030-06-12';
    const paid = (name: string, total: number) => {
      return { payment_method_id: method(s.d, name).id, payment_method_name: name, tip: 0, total };
    };
    const rate = (key: string, tax_amount: number, total: number) => {
      const { id, rate } = tax(s.d, key);
      return { tax_id: id, tax_rate: rate ?? 0, tax_amount, total };
    };
    // Nights and breakfasts share the 10 % rate: one tax total for them.
    const first = {
      id: `${s.loc0}:${day}`,
      total: 381.35,
      tax_amount: 33.25,
      payments: [paid('Carte bancaire', 110), paid('Chèque-Vacances', 271.35)],
      taxes: [rate('city', 0, 15.6), rate('v10', 33.25, 365.75)],
    };
    const second = {
      id: `${s.loc1}:${day}`,
      total: 149.6,
      tax_amount: 15.3,
      payments: [paid('Carte bancaire', 149.6)],
      taxes: [rate('city', 0, 3.3), rate('v10', 10.9, 119.9), rate('v20', 4.4, 26.4)],
    };
    const closed = { date: day, status: 'closed', closures: [first, second] };
    expect(pms.closureOf(s.d, day, '2030-06-13')).toEqual(closed);
    // A day not over yet (the clock's day, or a day after it) is open, without closures.
    expect(pms.closureOf(s.d, day, day)).toEqual({ date: day, status: 'open', closures: [] });
    expect(pms.closureOf(s.d, day, '2030-06-01')).toEqual({ date: day, status: 'open', closures: [] });
    expect(pms.closureOf(s.d, day, '2030-07-01', s.loc1).closures).toEqual([second]);
    expect(pms.closureOf(s.d, day, '2030-07-01', 'nowhere').closures).toEqual([]);
    const zero = { total: 0, tax_amount: 0, payments: [], taxes: [] };
    expect(pms.closureOf(s.d, '2030-06-11', '2030-07-01').closures).toMatchObject([zero, zero]);
  });
});

describe('accounting transactions', () => {
  type Row = ReturnType<typeof pms.accountingTransactions>[number];
  /** A transaction as 'letter type amount', a tax line marked with *. */
  const brief = (s: Scene, t: Row) =>
    `${s.named([{ id: t.group_id }])} ${t.transaction_type}${t.is_tax_line ? '*' : ''} ${t.amount}`;
  // One tax line per rate: the nights' and the breakfasts' 10 % together.
  const X = 'x room 283|x addon 49.5|x tax 15.6|x tax* 33.25|x payment -110|x payment -271.35';
  const Y = 'y room 109|y fee 22|y tax 3.3|y tax* 10.9|y tax* 4.4|y payment -149.6';
  const C = 'c room 258|c tax 10.4|c tax* 25.8';
  const Z = 'z room 109|z tax* 10.9|z payment -119.9';
  it.each<[string, string, 0 | 1 | 'nowhere' | undefined, string]>([
    ['12', '12', undefined, `${Y}|${X}|${C}`],
    ['12', '12', 1, Y],
    ['12', '12', 0, `${X}|${C}`],
    ['13', '13', undefined, Z],
    ['13', '12', undefined, ''],
    ['01', '30', 'nowhere', ''],
  ])('books from the %s to the %s (hotel %s) revenue, taxes and payments', (from, to, loc, spec) => {
    const s = scenario();
    const location_id = typeof loc === 'number' ? [s.loc0, s.loc1][loc] : loc;
    const period = { date_from: `2030-06-${from}`, date_to: `2030-06-${to}`, location_id };
    const rows = pms.accountingTransactions(s.d, period);
    // Ordered by date, then group, then id (ids are uuids: a group is compared as a set).
    const groups = (list: string[]) => list.map((r) => r.split(' ')[0]).filter((g, i, l) => l[i - 1] !== g);
    const expected = spec ? spec.split('|') : [];
    const found = rows.map((r) => brief(s, r));
    expect([groups(found), [...found].sort()]).toEqual([groups(expected), [...expected].sort()]);
    const order = (a: Row, b: Row) => a.date.localeCompare(b.date) || a.group_id.localeCompare(b.group_id);
    expect(rows.every((r, i) => i === 0 || order(need('row', rows[i - 1]), r) <= 0)).toBe(true);
  });

  it('writes each line of an invoice, its revenue untaxed, its payments negative: they add up to zero', () => {
    const s = scenario();
    const rows = pms.accountingTransactions(s.d, { date_from: '2030-06-12', date_to: '2030-06-12' });
    const row = (id: string) => find(id, rows, (r) => r.id === id);
    const [x, v10, room] = [s.invoice(1), tax(s.d, 'v10'), category(s.d, 'ROOM')];
    const partner_id = { id: s.guest.id, source_ref: s.guest.source_ref };
    const common = { group_id: x, date: at('12', '10:00'), currency_exchange_rate: 1, currency: 'EUR' };
    const posted = { ...common, status: 'posted', partner_id, reference: 'F2030-02001', location_id: s.loc0 };
    const origin = { id: x, type: 'invoice' };
    const [revenue, vat, payment] = [`${x}:${room.id}:${v10.id}`, `${x}:tax:${v10.id}`, 'pay-1001-2:payment'];
    const v10Code = 'TVA 10%';
    expect(row(revenue)).toEqual({
      id: revenue,
      source_ref: { id: 'F2030-02001/ROOM', model: 'revenue' },
      amount: 283,
      is_tax_line: false,
      sub_group_id: room.id,
      tax_code: v10Code,
      description: 'Hébergement (2 lignes)',
      transaction_type: 'room',
      accounting_category_id: room.id,
      ledger_account_code: '706100',
      origin,
      ...posted,
    });
    // The VAT of the nights (12.9 + 15.4) and of the breakfasts (4.95), to the VAT due (TVA collectée).
    expect(row(vat)).toEqual({
      id: vat,
      source_ref: { id: 'F2030-02001/VAT10', model: 'tax' },
      amount: 33.25,
      is_tax_line: true,
      sub_group_id: null,
      tax_code: v10Code,
      description: 'TVA 10%',
      transaction_type: 'tax',
      accounting_category_id: null,
      ledger_account_code: '445710',
      origin,
      ...posted,
    });
    expect(row(payment)).toEqual({
      id: payment,
      source_ref: { id: 'F2030-02001/2', model: 'payment' },
      amount: -271.35,
      is_tax_line: false,
      sub_group_id: 'pay-1001-2',
      tax_code: null,
      description: `${x} 381.35`,
      transaction_type: 'payment',
      accounting_category_id: null,
      ledger_account_code: '511200',
      origin: { id: 'pay-1001-2', type: 'payment' },
      ...posted,
    });
    const cents = (group: string) =>
      rows.filter((r) => r.group_id === group).reduce((t, r) => t + Math.round(r.amount * 100), 0);
    expect([cents(x), cents(s.invoice(2)), cents(s.s3)]).toEqual([0, 0, 29420]);
  });

  it('drafts the lines of a running stay at its check-in, and names what the catalogue does not know', () => {
    const s = scenario();
    const [night, city] = need('c', s.d.orders[s.s3]).items;
    if (!night || !city) throw new Error('lines');
    [night.accounting_category_id, city.tax_id, city.tax_amount] = ['gone', 'gone', 0.5];
    const period = { date_from: '2030-06-12', date_to: '2030-06-12', location_id: s.loc0 };
    const draft = pms.accountingTransactions(s.d, period).filter((r) => r.group_id === s.s3);
    const partner_id = { id: s.guest.id, source_ref: s.guest.source_ref };
    const drafted = { date: at('12', '17:00'), status: 'draft', reference: '1003', partner_id };
    expect(draft.map((r) => [r.date, r.status, r.reference, r.partner_id, r.origin])).toEqual(
      draft.map(() => [...Object.values(drafted), { id: s.s3, type: 'order' }]),
    );
    const other = { source_ref: { id: '1003/OTHER', model: 'revenue' }, description: '', amount: 258 };
    const unknown = { transaction_type: 'other', sub_group_id: null, accounting_category_id: null };
    const revenue = find('revenue', draft, (r) => r.id === `${s.s3}:gone:${night.tax_id}`);
    expect(revenue).toMatchObject({ ...other, ...unknown, ledger_account_code: null });
    const nameless = { source_ref: { id: '1003/VAT', model: 'tax' }, description: 'TVA %', tax_code: null };
    expect(find('tax', draft, (r) => r.id === `${s.s3}:tax:gone`)).toMatchObject({
      ...nameless,
      amount: 0.5,
    });
  });

  it('balances every seeded invoice of the last weeks to the cent, and drafts only running stays', () => {
    const d = fresh();
    const rows = pms.accountingTransactions(d, { date_from: '2025-12-01', date_to: '2026-01-15' });
    const cents = new Map<string, number>();
    for (const r of rows) cents.set(r.group_id, (cents.get(r.group_id) ?? 0) + Math.round(r.amount * 100));
    const posted = rows.filter((r) => r.status === 'posted').map((r) => r.group_id);
    const drafts = rows.filter((r) => r.status === 'draft').map((r) => r.group_id);
    expect(posted.length).toBeGreaterThan(100);
    expect(new Set(posted.map((g) => cents.get(g)))).toEqual(new Set([0]));
    expect(drafts.every((g) => d.orders[g]?.closing_date === null)).toBe(true);
  });
});

describe('customers and hotels', () => {
  type Name = string | null;
  const person = (id: string, first_name: Name, last_name: Name, company_name: Name): PmsCustomer => {
    const names = { id, source_ref: { id, model: 'guest' }, first_name, last_name, company_name };
    const contact = { phone: '+32 470 12.34.56', email: `${id}@Example.com`, account_number: null };
    return { ...names, ...contact, created_on: null, addresses: [], is_company: company_name !== null };
  };
  function withCustomers() {
    const d = fresh();
    const people = [person('q3', null, 'Qqzeta', null), person('q2', 'Anna', 'Qqzson', null)];
    for (const c of [...people, person('q1', null, null, 'Qqz Holding')]) d.customers[c.id] = c;
    return d;
  }

  it.each([
    [{ search: 'qqz' }, 'q2 q1 q3'],
    [{ search: 'HOLDING' }, 'q1'],
    [{ search: 'q2@example' }, 'q2'],
    [{ email: 'Q3@EXAMPLE.COM' }, 'q3'],
    [{ email: 'q3@example' }, ''],
    [{ phone: '+32470123456', search: 'qqz' }, 'q2 q1 q3'],
    [{ phone: '0470123456' }, ''],
  ])('finds the customers of %j by name, a company by its name', (filters, expected) => {
    expect(pms.listCustomers(withCustomers(), filters).map((c) => c.id)).toEqual(ids(expected));
  });

  it.each(['', 'nope', '__proto__', 'toString'])('answers the documented 404 for the customer %j', (id) => {
    const message = 'The customer could not be found';
    const missing = { status: 404, message, detail: `No customer has the id '${id}'` };
    const refused = refusal(() => pms.requireCustomer(fresh(), id));
    expect(refused).toEqual({ ...missing, code: 'ERROR_CUSTOMER_NOT_FOUND' });
  });

  it('finds a customer, and the payment methods of a hotel (cash at the first only)', () => {
    const d = withCustomers();
    expect(pms.requireCustomer(d, 'q1')).toBe(d.customers.q1);
    const names = (loc?: string) => pms.atLocation(d.payment_methods, loc).map((m) => m.name);
    const all = 'Carte bancaire|Chèque-Vacances|Espèces|Virement|Carte virtuelle Booking.com|Bon cadeau';
    const [loc0, loc1] = d.locations.map((l) => l.id);
    const found = [names(), names(loc0), names(loc1), names('nowhere')].map((list) => list.join('|'));
    expect(found).toEqual([all, all, all.replace('|Espèces', ''), '']);
  });

  it('builds the dataset of a connection once, from the seed, up to the clock day', () => {
    const store = datasetStore(seedWorld(7));
    const connections = Object.values(store.world.connections);
    const connection = find('pms', connections, (c) => c.integrationid === 9503 && c.status === 'active');
    const first = pms.pmsDatasetOf(store, connection);
    expect(pms.pmsDatasetOf(store, connection)).toBe(first);
    const { consumerid, connectionid, integrationid } = connection;
    const args = { consumerid, connectionid, integrationid, until: '2026-01-15' };
    expect(first).toEqual(buildPmsDataset(7, args, '2026-01-15'));
  });
});
