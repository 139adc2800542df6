import { describe, expect, it } from 'vitest';
import { seedWorld } from '../../../src/control/seeded-world.js';
import * as C from '../../../src/modules/commerce/api/commerce.domain.js';
import type { OrderItemInInput } from '../../../src/modules/commerce/api/commerce.schemas.js';
import type * as R from '../../../src/modules/commerce/model/commerce.records.js';
import { buildCommerceDataset } from '../../../src/modules/commerce/world/commerce.seed.js';
import type { ConnectionRecord } from '../../../src/store/world.js';
import { datasetStore, refusal } from '../domain-helpers.js';

/** The eCommerce rules of commerce.domain.ts, called directly on a seeded dataset of each test's own. */

type D = R.CommerceDataset;
const ARGS = { consumerid: 'consumer-a', connectionid: 'connection-a', integrationid: 90301 };
const NOW = '2026-01-15T09:00:00.000Z';
/** Seeded once; each test works on a copy of its own. */
const SEEDED = buildCommerceDataset(7, ARGS);
const build = (): D => structuredClone(SEEDED);

/** The refusal `act` throws, as status, message, error code and detail. */

/** What each refusal answers, by error code (null: the generic 400 of a vertical). */
const ANSWERS: Record<string, [number, string]> = {
  null: [400, 'Error while trying to perform your request'],
  ERROR_PHONE_INVALID: [
    422,
    'The phone number doesnt seem to be valid. The number must begin with the country code.',
  ],
  ERROR_PHONE_ALREADY_USED: [422, 'The phone number is already used by another client.'],
  ERROR_PRODUCT_NOT_FOUND: [404, "The product doesn't exist"],
  ERROR_VARIANT_NOT_FOUND: [404, "The variant doesn't exist."],
  ERROR_CUSTOMER_NOT_FOUND: [404, "The customer doesn't exist."],
  ERROR_ORDER_NOT_FOUND: [404, "The order doesn't exist"],
  ERROR_LOCATION_NOT_FOUND: [404, "The location doesn't exist."],
};
const answer = (code: string | null, detail: string) => {
  const [status, message] = ANSWERS[String(code)] as [number, string];
  return { status, message, code: code ?? undefined, detail };
};

const productNamed = (d: D, name: string) =>
  Object.values(d.products).find((p) => p.name === name) as R.CommerceProduct;
/** The only variant of the 'Glass carafe' product. */
const carafe = (d: D) => productNamed(d, 'Glass carafe').variants[0] as R.CommerceVariant;
const loc = (d: D, i: number) => d.locations[i] as R.CommerceLocation;
/** The values of some fields of a record, named in a string. */
const pick = (record: object, keys: string) =>
  keys.split(' ').map((k) => (record as Record<string, unknown>)[k]);

/** Ids of each kind counted on their own: order-1, line-1, line-2... */
function orderIds(): C.OrderIds {
  const next = (kind: string, n = 0) => [kind, () => `${kind}-${++n}`];
  const kinds = ['order', 'customer', 'line', 'fee', 'transaction'];
  return Object.fromEntries(kinds.map((k) => next(k))) as C.OrderIds;
}

const ADDRESS = { first_name: 'Ada', last_name: 'Peeters', street: 'Meir', number: '1', city: 'Antwerpen' };
const address = (country = 'BE') => ({ ...ADDRESS, country });
/** The fields of a stored address that the input above leaves out. */
const UNSET = { company_name: null, box: null, postal_code: null, phone: null, email: null, vat: null };
/** Lines of the carafe: [quantity, unit price, tax rate]. */
const linesOf = (d: D, rows: number[][], id = carafe(d).id) =>
  rows.map(([q = 1, p = 10, r = 21]) => ({ variant_id: id, quantity: q, unit_price: p, tax_rate: r }));
const orderInput = (d: D, over: Partial<OrderItemInInput> = {}): OrderItemInInput => ({
  customer: { email: 'ada.peeters@example.test', phone: null },
  billing_address: address(),
  shipping_address: address(),
  currency: 'EUR',
  lines: linesOf(d, [[1, 10, 21]]),
  ...over,
});
/** '1 2 3, 4 5 6' as [[1, 2, 3], [4, 5, 6]]. */
const table = (rows: string) => rows.split(', ').map((row) => row.split(' ').map(Number));
const create = (d: D, over: Partial<OrderItemInInput> = {}) =>
  C.createOrder(d, orderInput(d, over), orderIds(), NOW);

describe('the dataset of a connection', () => {
  it('is built from the seed on first use, kept in the store, and the same object afterwards', () => {
    const store = datasetStore(seedWorld(7));
    const connection = { ...ARGS, connectionid: 'connection-z' } as ConnectionRecord;
    const before = Object.keys(store.world.commerce_datasets).length;
    const first = C.commerceDatasetOf(store, connection);
    expect(Object.keys(store.world.commerce_datasets)).toHaveLength(before + 1);
    expect(C.commerceDatasetOf(store, connection)).toBe(first);
    const expected = buildCommerceDataset(7, { ...connection, until: store.today() });
    expect(JSON.stringify(first)).toBe(JSON.stringify(expected));
  });
});

describe('stock and catalogue', () => {
  it.each([
    [{}, {}, 0],
    [{ a: 3, b: 4 }, {}, 7],
    [{ a: -2, b: 5 }, {}, 3],
    [{ a: 0.5, b: 0.25 }, {}, 0.75],
    [{ a: 3, b: 4 }, { a: -5 }, 2],
    [{ a: 3 }, { b: 2.5 }, 5.5],
  ])(
    'counts the stock %j, clients having moved %j, as an available quantity of %d',
    (stock, moved, expected) => {
      const d = build();
      const product = productNamed(d, 'Glass carafe');
      const variant = { ...carafe(d), stock };
      expect(C.availableQuantity({ ...product, moved: { [variant.id]: moved } }, variant)).toBe(expected);
    },
  );

  it('answers a product with its categories by name, each variant with its available quantity', () => {
    const d = build();
    const product = productNamed(d, 'Scented candle');
    product.categories.push('no-such-category');
    (product.variants[0] as R.CommerceVariant).stock = { [loc(d, 0).id]: 3, [loc(d, 1).id]: 4 };
    const item = C.toProductItem(d, product);
    expect(item.categories?.map((c) => c.name)).toEqual(['Candles', 'Home decor']);
    expect(item).not.toHaveProperty('tax_id');
    expect(item.variants?.[0]).not.toHaveProperty('stock');
    expect(item.variants?.map((v) => [v.sku, v.available_quantity])[0]).toEqual([
      product.variants[0]?.sku,
      7,
    ]);
  });

  it('answers a variant with its stock at each location, 0 where it holds none', () => {
    const d = build();
    carafe(d).stock = { [loc(d, 0).id]: 5 };
    const item = C.toVariantItem(d, productNamed(d, 'Glass carafe'), carafe(d));
    expect(item.available_quantity).toBe(5);
    const inventory = item.inventory_details?.map(
      (x) => `${x.location.id} ${x.location.name} ${x.available_quantity}`,
    );
    expect(inventory).toEqual([`${loc(d, 0).id} ${loc(d, 0).name} 5`, `${loc(d, 1).id} ${loc(d, 1).name} 0`]);
    expect(item.categories?.map((c) => c.name)).toEqual(['Tableware', 'Kitchen']);
  });

  it.each([
    [{}, 'p-1 p-2 p-3'],
    [{ sku: 'SKU-A' }, 'p-1'],
    [{ sku: '  sku-a ' }, 'p-1'],
    [{ sku: 'sku-b-02' }, 'p-2'],
    [{ sku: 'SKU' }, ''],
    [{ sku: '   ' }, 'p-1 p-2 p-3'],
    [{ updated_after: '2025-06-01T00:00:00.000Z' }, 'p-2 p-3'],
    [{ updated_after: '2025-06-01T02:00:00+02:00' }, 'p-2 p-3'],
    [{ updated_after: '2025-05-31T23:59:59.999Z' }, 'p-1 p-2 p-3'],
    [{ updated_after: '2025-07-01T00:00:00.000Z' }, 'p-3'],
  ])('lists the products matching %j by creation: %s', (filters, expected) => {
    const d = build();
    const [a, b] = Object.values(d.products) as [R.CommerceProduct, R.CommerceProduct];
    const variant = (sku: string) => ({ ...(b.variants[0] as R.CommerceVariant), sku });
    d.products = {
      'p-3': { ...a, id: 'p-3', sku: null, created_on: null, last_updated_on: null, variants: [] },
      'p-2': { ...b, id: 'p-2', sku: 'SKU-B', created_on: '2025-07-01T00:00:00.000Z', last_updated_on: null },
      'p-1': { ...a, id: 'p-1', sku: 'SKU-A', created_on: '2024-01-01T00:00:00.000Z' },
    };
    (d.products['p-2'] as R.CommerceProduct).variants = [variant('SKU-B-01'), variant('SKU-B-02')];
    (d.products['p-1'] as R.CommerceProduct).last_updated_on = '2025-06-01T00:00:00.000Z';
    expect(C.listProducts(d, filters).map((p) => p.id)).toEqual(expected ? expected.split(' ') : []);
  });

  it.each([
    [5, 3, [2], 3, 3],
    [2, 5, [4], 0, 3],
    [4, 10, [2, 3], 0, 9],
    [2, 1, [5], -2, 0],
    [0, 0, [1], -1, 0],
    [-1, 4, [2], -1, 2],
    [-1, 1, [3], -3, 0],
  ])('takes an order from %d + %d in stock, quantities %j, down to %d + %d', (s0, s1, quantities, e0, e1) => {
    const d = build();
    carafe(d).stock = { [loc(d, 0).id]: s0, [loc(d, 1).id]: s1 };
    const lines = linesOf(
      d,
      quantities.map((q) => [q]),
    );
    create(d, { lines });
    const product = productNamed(d, 'Glass carafe');
    expect([0, 1].map((i) => C.stockAt(product, carafe(d), loc(d, i).id))).toEqual([e0, e1]);
    // The shop's own stock is left to its days: the order's units are the client's moves.
    expect(carafe(d).stock).toEqual({ [loc(d, 0).id]: s0, [loc(d, 1).id]: s1 });
    expect(C.productUpdatedOn(product)).toBe(NOW);
  });

  it.each([0, 7, 2.5])('sets the stock of a variant at a location to %d', (quantity) => {
    const d = build();
    carafe(d).stock = { [loc(d, 0).id]: 4, [loc(d, 1).id]: 9 };
    const set = C.setAvailableQuantity(d, carafe(d).id, loc(d, 1).id, quantity, NOW);
    const { id, name } = loc(d, 1);
    expect(set).toEqual({ location: { id, name }, available_quantity: quantity });
    const product = productNamed(d, 'Glass carafe');
    expect(C.availableQuantity(product, carafe(d))).toBe(4 + quantity);
    expect(carafe(d).stock).toEqual({ [loc(d, 0).id]: 4, [loc(d, 1).id]: 9 });
    expect(C.productUpdatedOn(product)).toBe(NOW);
  });

  it.each([
    ['no-variant', 'location', 'ERROR_VARIANT_NOT_FOUND', "No variant has the id 'no-variant'"],
    ['no-variant', 'no-location', 'ERROR_VARIANT_NOT_FOUND', "No variant has the id 'no-variant'"],
    ['constructor', 'location', 'ERROR_VARIANT_NOT_FOUND', "No variant has the id 'constructor'"],
    ['variant', 'no-location', 'ERROR_LOCATION_NOT_FOUND', "No location has the id 'no-location'"],
    ['variant', '__proto__', 'ERROR_LOCATION_NOT_FOUND', "No location has the id '__proto__'"],
  ])('refuses to set the stock of %s at %s: %s', (variantId, locationId, code, detail) => {
    const d = build();
    const before = JSON.stringify(d);
    const v = variantId === 'variant' ? carafe(d).id : variantId;
    const l = locationId === 'location' ? loc(d, 0).id : locationId;
    expect(refusal(() => C.setAvailableQuantity(d, v, l, 3, NOW))).toEqual(answer(code, detail));
    expect(JSON.stringify(d)).toBe(before);
  });
});

describe('look-ups', () => {
  it.each([
    ['product', C.requireProduct, 'ERROR_PRODUCT_NOT_FOUND'],
    ['variant', C.requireVariant, 'ERROR_VARIANT_NOT_FOUND'],
    ['customer', C.requireCustomer, 'ERROR_CUSTOMER_NOT_FOUND'],
    ['order', C.requireOrder, 'ERROR_ORDER_NOT_FOUND'],
  ] as const)('refuses an unknown or inherited %s id', (kind, require, code) => {
    const d = build();
    for (const id of ['nope', '__proto__', 'toString', '']) {
      expect(refusal(() => require(d, id))).toEqual(answer(code, `No ${kind} has the id '${id}'`));
    }
  });

  it('finds a variant only in the product the index names', () => {
    const d = build();
    expect(C.requireVariant(d, carafe(d).id).product.name).toBe('Glass carafe');
    d.variant_index[carafe(d).id] = productNamed(d, 'Wool throw').id;
    expect(C.findVariant(d, carafe(d).id)).toBeUndefined();
  });

  it('lists customers by creation, then id, those without a date last', () => {
    const d = build();
    const c = Object.values(d.customers)[0] as R.CommerceCustomer;
    const dates: [string, string | null][] = [
      ['c-0', null],
      ['c-b', '2025-01-01T00:00:00.000Z'],
      ['c-a', '2025-01-01T00:00:00.000Z'],
      ['c-c', '2024-12-31T23:59:59.999Z'],
    ];
    d.customers = Object.fromEntries(dates.map(([id, created_on]) => [id, { ...c, id, created_on }]));
    expect(C.listCustomers(d).map((x) => x.id)).toEqual(['c-c', 'c-a', 'c-b', 'c-0']);
  });
});

describe('orders', () => {
  it.each([
    [{}, 'o-0 o-a o-b o-c'],
    [{ date_from: '2025-03-01', date_to: '2025-03-01' }, 'o-0 o-a o-b'],
    [{ date_from: '2025-03-02' }, 'o-c'],
    [{ date_to: '2025-02-28' }, ''],
    [{ date_from: '2025-03-03' }, ''],
    [{ date_from: '2025-03-02', date_to: '2025-03-01' }, ''],
    [{ updated_after: '2025-03-02T10:00:00.000Z' }, 'o-b o-c'],
    [{ updated_after: '2025-03-02T11:00:00+01:00' }, 'o-b o-c'],
    [{ updated_after: '2025-03-02T09:59:59.999Z' }, 'o-a o-b o-c'],
    [{ date_from: '2025-03-01', date_to: '2025-03-01', updated_after: '2025-03-04T00:00:00Z' }, 'o-b'],
  ])('lists the orders matching %j, oldest first: %s', (filters, expected) => {
    const d = build();
    const seeded = Object.values(d.orders)[0] as R.CommerceOrder;
    const orders = [
      'o-c 2025-03-02T00:00:00.000Z 2025-03-02T12:00:00.000Z',
      'o-b 2025-03-01T23:59:59.999Z 2025-03-05T00:00:00.000Z',
      'o-a 2025-03-01T00:00:00.000Z 2025-03-02T10:00:00.000Z',
      'o-0 2025-03-01T00:00:00.000Z 2025-03-01T00:00:00.000Z',
    ].map((row) => row.split(' ') as [string, string, string]);
    d.orders = Object.fromEntries(
      orders.map(([id, created_on, last_updated_on]) => [id, { ...seeded, id, created_on, last_updated_on }]),
    );
    expect(C.listOrders(d, filters).map((o) => o.id)).toEqual(expected ? expected.split(' ') : []);
  });

  const amounts = (u: number, t: number, total: number) => ({ untaxed_amount: u, tax_amount: t, total });
  const line = (u: number, t: number, total: number, variant_id: string | null = null) =>
    ({ id: `l-${total}`, variant_id, quantity: 1, ...amounts(u, t, total) }) as R.CommerceOrderLine;
  const fee = (u: number, t: number, total: number, removed = false) =>
    ({ ...amounts(u, t, total), removed }) as R.CommerceFee;
  const refund = (total: number, order_lines: object[], shipping_refunds: object[]) =>
    ({ total, order_lines, shipping_refunds, other_fees: [] }) as unknown as R.CommerceRefund;

  it('adds up lines, the fees not removed and the refunds, to the cent', () => {
    const d = build();
    const order: R.CommerceOrder = {
      ...(Object.values(d.orders)[0] as R.CommerceOrder),
      lines: [line(10, 2.1, 12.1), line(5.55, 1.17, 6.72), line(0.1, 0, 0.1), line(0.2, 0, 0.2)],
      other_fees: [fee(4.09, 0.86, 4.95), fee(100, 21, 121, true)],
      refunds: [refund(12.1, [amounts(10, 2.1, 12.1)], []), refund(4.95, [], [amounts(4.09, 0.86, 4.95)])],
    };
    const item = C.toOrderItem(d, order);
    const withoutFees = 'untaxed_amount_without_fees tax_amount_without_fees total_without_fees';
    expect(pick(item, withoutFees)).toEqual([15.85, 3.27, 19.12]);
    expect(pick(item, 'untaxed_amount tax_amount total refunded_amount')).toEqual([
      19.94, 4.13, 24.07, 17.05,
    ]);
    expect(pick(item, 'current_untaxed_amount current_tax_amount current_total')).toEqual([5.85, 1.17, 7.02]);
  });

  it.each([
    [{}, true, [], null],
    [{ include_customer_details: false }, false, [], null],
    [{ include_product_categories: true }, true, ['Tableware', 'Kitchen'], null],
    [{ include_detailed_refunds: true }, true, [], 1],
  ])('answers an order with the view %j', (view, details, categories, refunds) => {
    const d = build();
    const known = Object.values(d.customers)[0] as R.CommerceCustomer;
    const { order } = create(d, { customer: { email: known.email ?? '' } });
    order.refunds = [refund(0, [{ ...amounts(0, 0, 0), variant_id: carafe(d).id }], [])];
    const item = C.toOrderItem(d, order, view);
    const fields = 'id first_name last_name phone internal_notes email';
    const expected = pick(known, fields).map((value, i) => (details || i === 0 ? value : null));
    expect(pick(item.customer ?? {}, fields)).toEqual(expected);
    expect(Object.keys(item.customer ?? {})).toHaveLength(6);
    const { variant } = item.lines[0] ?? {};
    expect([variant?.id, variant?.sku, variant?.name]).toEqual([carafe(d).id, carafe(d).sku, 'Glass carafe']);
    expect(variant?.categories?.map((c) => c.name)).toEqual(categories);
    expect(item.detailed_refunds?.length ?? null).toBe(refunds);
    if (refunds) expect(item.detailed_refunds?.[0]?.order_lines?.[0]?.variant?.id).toBe(carafe(d).id);
    expect(item.returns).toEqual([]);
  });

  it('answers what it cannot find as null, its warehouse, and each payment method once', () => {
    const d = build();
    const seeded = (Object.values(d.orders)[0] as R.CommerceOrder).transactions[0] as R.CommerceTransaction;
    const paid = (payment_method_id: string | null, payment_method_name: string | null) =>
      ({ ...seeded, payment_method_id, payment_method_name }) as const;
    const order: R.CommerceOrder = {
      ...(Object.values(d.orders)[0] as R.CommerceOrder),
      customer_id: 'gone',
      lines: [line(1, 0, 1, null), line(1, 0, 1, 'gone')],
      transactions: [paid('a', 'A'), paid(null, 'none'), paid('b', null), paid('a', 'A2')],
    };
    const item = C.toOrderItem(d, { ...order, fulfilled_from: null });
    const unknown = [item.customer, item.fulfillment, ...item.lines.map((l) => l.variant)];
    expect(unknown).toEqual([null, null, null, null]);
    expect(item.payment_methods?.map((m) => `${m.id} ${m.name}`)).toEqual(['a A2', 'b null']);
    expect(C.toOrderItem(d, { ...order, fulfilled_from: 'gone' }).fulfillment).toBeNull();
    const from = C.toOrderItem(d, { ...order, fulfilled_from: loc(d, 0).id }).fulfillment;
    expect(from?.fulfillment_type).toBe('FBM');
    const shipping = pick(from?.shipping_from_address ?? {}, 'address_type name mobile country');
    expect(shipping).toEqual(['main', loc(d, 0).name, null, 'BE']);
  });
});

describe('creating an order', () => {
  /** 'quantity price rate' per line; each amount as 'untaxed tax total'; the shipping fee or ''. */
  const FEE = '4.09 0.86 4.95';
  it.each([
    ['one line', 'EUR', '1 10 21', '10 2.1 12.1', FEE, '14.09 2.96 17.05'],
    ['tax rounded down', 'EUR', '3 0.35 21', '1.05 0.22 1.27', FEE, '5.14 1.08 6.22'],
    ['per line', 'EUR', '1 0.5 21, 1 0.5 21', '0.5 0.11 0.61, 0.5 0.11 0.61', FEE, '5.09 1.08 6.17'],
    ['free shipping from 60', 'EUR', '1 60 0', '60 0 60', '', '60 0 60'],
    ['a cent below 60', 'EUR', '1 59.99 0', '59.99 0 59.99', FEE, '64.08 0.86 64.94'],
    ['free from 51.60 in GBP', ' gbp ', '1 51.6 0', '51.6 0 51.6', '', '51.6 0 51.6'],
    ['GBP shipping', 'GBP', '1 51.59 0', '51.59 0 51.59', '3.52 0.74 4.26', '55.11 0.74 55.85'],
    ['free goods', 'EUR', '2 0 21', '0 0 0', FEE, '4.09 0.86 4.95'],
    ['reduced rate', 'EUR', '2 19.99 6', '39.98 2.4 42.38', FEE, '44.07 3.26 47.33'],
    ['above 60 with taxes', 'EUR', '3 19.99 21', '59.97 12.59 72.56', '', '59.97 12.59 72.56'],
  ])('computes the amounts: %s', (_label, currency, lines, lineAmounts, shipping, totals) => {
    const d = build();
    const { order } = create(d, { currency, lines: linesOf(d, table(lines)) });
    const amounts = (x: object[]) => x.map((a) => pick(a, 'untaxed_amount tax_amount total').join(' '));
    expect(order.currency).toBe(currency.trim().toUpperCase());
    expect(amounts(order.lines).join(', ')).toBe(lineAmounts);
    expect(amounts(order.other_fees).join()).toBe(shipping);
    const item = C.toOrderItem(d, order);
    expect(amounts([item]).join()).toBe(totals);
    expect(item.current_total).toBe(item.total);
  });

  it.each([
    [21, 'BE standard rate 21%'],
    [6, 'BE reduced rate 6%'],
    [20, 'FR standard rate 20%'],
    [5.5, 'FR reduced rate 5.5%'],
    [19, 'DE standard rate 19%'],
    [7, null],
    [0, null],
  ])('names the tax of a rate of %d%%: %s', (rate, label) => {
    const d = build();
    const [line] = create(d, { lines: linesOf(d, [[1, 10, rate]]) }).order.lines;
    const id = label ? d.tax_rates.find((t) => t.label === label)?.id : null;
    expect([line?.tax_id, line?.tax_rate]).toEqual([id, rate]);
  });

  it.each([
    ['a listed method', 'Credit card', 'Credit card'],
    ['a method no longer offered', 'Klarna', 'Klarna'],
    ['an unlisted method', 'cash-on-delivery', 'cash-on-delivery'],
    ['no method', null, null],
    ['an empty method', '', null],
  ])('is paid with %s, or a draft', (_label, method, name) => {
    const d = build();
    const id = d.payment_methods.find((m) => m.name === method)?.id ?? method;
    const { order } = create(d, { payment_method: id });
    const paid = name !== null;
    expect([order.status, order.confirmed_on, order.payment_method_id]).toEqual(
      paid ? ['confirmed', NOW, id] : ['draft', null, null],
    );
    const sale = ['transaction-1', NOW, id, name, 17.05, 'success'];
    const fields = 'id created_on payment_method_id payment_method_name amount status';
    expect(order.transactions.map((t) => pick(t, fields))).toEqual(paid ? [sale] : []);
  });

  it('numbers orders after the seeded ones, and keeps the addresses, their country in capitals', () => {
    const d = build();
    const n = (d.counters.order ?? 0) + 1;
    const billing_address = { ...address(' be '), postal_code: '2000' };
    const { order } = create(d, { billing_address, note: 'ring twice', lines: linesOf(d, [[1], [2]]) });
    const numbers = [order.id, order.order_number, order.source_ref.id, order.note];
    expect(numbers).toEqual(['order-1', `#${n}`, `${5_000_000 + n}`, 'ring twice']);
    expect(order.lines.map((l) => `${l.id} ${l.source_ref.id}`)).toEqual([`line-1 ${n}01`, `line-2 ${n}02`]);
    const fields = { ...address('BE'), ...UNSET };
    expect(order.billing_address).toEqual({ ...fields, address_type: 'invoice', postal_code: '2000' });
    expect(order.shipping_address).toEqual({ ...fields, address_type: 'delivery' });
    expect(d.orders[order.id]).toBe(order);
    expect(create(d).order.order_number).toBe(`#${n + 1}`);
  });

  const PHONES = ['+32 470 12 34 56', '0032 (0)470/12.34-56', '+1234567', '+123456789012345', null, '', ' '];
  it.each(PHONES)('creates a customer of the phone %j', (phone) => {
    const d = build();
    const count = Object.keys(d.customers).length;
    const customer = { email: ' New@Example.test ', phone, last_name: 'Other' };
    const { order, customerCreated } = create(d, { customer });
    const created = [customerCreated, order.customer_id, Object.keys(d.customers).length - count];
    expect(created).toEqual([true, 'customer-1', 1]);
    const record = d.customers['customer-1'] as R.CommerceCustomer;
    const fields = pick(record, 'first_name last_name phone email currency created_on');
    expect(fields).toEqual(['Ada', 'Other', phone, 'New@Example.test', 'EUR', NOW]);
    expect(record.source_ref).toEqual({ id: String(900_000 + count), model: 'customer' });
    expect(record.addresses).toEqual([{ ...address('BE'), ...UNSET, address_type: 'main' }]);
  });

  it('finds a customer by e-mail in any case, and then checks no phone', () => {
    const d = build();
    const known = Object.values(d.customers)[3] as R.CommerceCustomer;
    const count = Object.keys(d.customers).length;
    const customer = { email: ` ${known.email?.toUpperCase()} `, phone: 'not a phone' };
    const { order, customerCreated } = create(d, { customer });
    const found = [customerCreated, order.customer_id, Object.keys(d.customers).length];
    expect(found).toEqual([false, known.id, count]);
  });

  const PHONE = 'ERROR_PHONE_INVALID';
  const phoneDetail = (phone: string) => `customer.phone '${phone}' does not begin with a country code`;
  const country = (field: string, code: string) => `${field}: ${code} is not a valid country code`;
  type Spec = { billing?: string; shipping?: string; phone?: string; lines?: number[][]; variant?: string };
  it.each<[string, Spec, string | null, string]>([
    ['XX', { billing: 'XX' }, null, country('billing_address', 'XX')],
    ['UK, no ISO code', { billing: 'UK' }, null, country('billing_address', 'UK')],
    ['an empty country', { billing: '' }, null, country('billing_address', '')],
    ['BEL', { shipping: 'BEL' }, null, country('shipping_address', 'BEL')],
    ['both countries', { billing: 'ZZ', shipping: 'YY' }, null, country('billing_address', 'ZZ')],
    ['a country and a phone', { shipping: 'YY', phone: '0470' }, null, country('shipping_address', 'YY')],
    ['a national phone', { phone: '0470 12 34 56' }, PHONE, phoneDetail('0470 12 34 56')],
    ['+0', { phone: '+0470123456' }, PHONE, phoneDetail('+0470123456')],
    ['6 digits', { phone: '+123456' }, PHONE, phoneDetail('+123456')],
    ['16 digits', { phone: '+1234567890123456' }, PHONE, phoneDetail('+1234567890123456')],
    ['a phone and a line', { phone: 'abc', lines: [[0]] }, PHONE, phoneDetail('abc')],
    ['quantity 0 on line 2', { lines: [[1], [0]] }, null, 'lines[1]: the quantity must be at least 1'],
    ['a negative quantity', { lines: [[-2]] }, null, 'lines[0]: the quantity must be at least 1'],
    ['a negative price', { lines: [[1, -0.01]] }, null, 'lines[0]: the unit price cannot be negative'],
    ['a quantity and a price', { lines: [[0, -1]] }, null, 'lines[0]: the quantity must be at least 1'],
    ['an unknown variant', { variant: 'gone' }, null, "lines[0]: the variant 'gone' does not exist"],
    ['__proto__', { variant: '__proto__' }, null, "lines[0]: the variant '__proto__' does not exist"],
  ])('refuses %s, and changes nothing', (_label, spec, code, detail) => {
    const d = build();
    const before = JSON.stringify(d);
    const input = orderInput(d, {
      billing_address: address(spec.billing),
      shipping_address: address(spec.shipping),
      customer: { email: 'x@y.z', phone: spec.phone ?? null },
      ...(spec.lines ? { lines: linesOf(d, spec.lines) } : {}),
    });
    if (spec.variant) (input.lines[0] as { variant_id: string }).variant_id = spec.variant;
    expect(refusal(() => C.createOrder(d, input, orderIds(), NOW))).toEqual(answer(code, detail));
    expect(JSON.stringify(d)).toBe(before);
  });

  it('refuses the phone of another customer, written otherwise', () => {
    const d = build();
    const owner = Object.values(d.customers).find((c) => c.phone) as R.CommerceCustomer;
    const phone = `00${owner.phone?.slice(1, 3)} ${owner.phone?.slice(3, 6)}.${owner.phone?.slice(6)}`;
    expect(refusal(() => create(d, { customer: { email: 'x@y.z', phone } }))).toEqual(
      answer('ERROR_PHONE_ALREADY_USED', `customer.phone '${phone}' is the phone of ${owner.id}`),
    );
  });
});
