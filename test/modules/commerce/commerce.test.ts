import { beforeEach, describe, expect, it } from 'vitest';
import { errors, SERVICE_ERRORS, serviceError } from '../../../src/lib/errors.js';
import {
  CommerceCustomerItem,
  CommerceProductItem,
  InventoryDetailsItem,
  OrderItemOut,
  ServicePage_CategoryItem_,
  ServicePage_CommerceCustomerItem_,
  ServicePage_CommerceLocationItemOut_,
  ServicePage_CommerceProductItem_,
  ServicePage_CountryItem_,
  ServicePage_PaymentMethodItem_,
  ServicePage_TaxRateItem_,
  VariantItem,
} from '../../../src/modules/commerce/api/commerce.schemas.js';
import { verticalFailure } from '../../../src/platform/vertical-connection.js';
import {
  type CallOptions,
  call,
  expectError,
  expectValidation,
  sandbox,
  sandboxToken,
  type TestSandbox,
} from '../../helpers.js';

/**
 * The eCommerce vertical through HTTP: the connection rules, every operation, filters and paging,
 * the amounts of the orders (lines, fees, refunds), the stock kept per location, order creation
 * (checks, stock taken, customer found or created, commerce.order.created) and its idempotency.
 */

let s: TestSandbox;
let token: string;
let consumerId: string;

const base = (consumer: string) => `/consumers/${consumer}/commerce`;
const get = (path: string, options: CallOptions = {}, consumer = consumerId) =>
  call(s.app, 'GET', `${base(consumer)}${path}`, { token, ...options });
const send = (
  method: string,
  path: string,
  body: unknown,
  options: CallOptions = {},
  consumer = consumerId,
) => call(s.app, method, `${base(consumer)}${path}`, { token, body, ...options });

// biome-ignore lint/suspicious/noExplicitAny: list items are read field by field
async function all(path: string): Promise<any[]> {
  const out: unknown[] = [];
  const sep = path.includes('?') ? '&' : '?';
  for (let page = 1; ; page++) {
    const res = await get(`${path}${sep}page=${page}&size=100`);
    expect(res.status, res.text).toBe(200);
    out.push(...res.body.items);
    if (page * 100 >= res.body.total) break;
  }
  // biome-ignore lint/suspicious/noExplicitAny: as above
  return out as any[];
}

const cents = (n: number) => Math.round(n * 100);
const sum = (values: number[]) => values.reduce((t, v) => t + cents(v), 0) / 100;
const failure = verticalFailure('');

beforeEach(async () => {
  s = sandbox();
  token = await sandboxToken(s);
  consumerId = s.ids.verticalConsumers.ECOMMERCE as string;
});

const READS = [
  '/customers',
  '/customers/x',
  '/products',
  '/products/x',
  '/variants/x',
  '/locations',
  '/orders',
  '/orders/x',
  '/payment-methods',
  '/product-categories',
  '/taxes',
  '/countries',
];

const address = {
  first_name: 'Ann',
  last_name: 'Peeters',
  street: 'Rue Haute',
  number: '12',
  city: 'Bruxelles',
  postal_code: '1000',
  country: 'BE',
};

/** A variant for sale with stock, its product and price. */
async function sellable() {
  const products = await all('/products');
  for (const product of products) {
    if (product.status !== 'published') continue;
    const variant = product.variants.find((v: { available_quantity: number }) => v.available_quantity >= 3);
    if (variant) return { product, variant, price: variant.prices[0].price as number };
  }
  throw new Error('no variant in stock');
}

async function orderBody(overrides: Record<string, unknown> = {}) {
  const { variant, price } = await sellable();
  const method = (await get('/payment-methods')).body.items[0];
  return {
    customer: { email: 'ann.peeters@example.be', first_name: 'Ann', last_name: 'Peeters' },
    billing_address: address,
    shipping_address: address,
    currency: 'EUR',
    note: 'Ring twice',
    lines: [{ variant_id: variant.id, quantity: 2, tax_rate: 21, unit_price: price }],
    payment_method: method.id,
    ...overrides,
  };
}

describe('commerce: the connection', () => {
  const validOrder = {
    customer: { email: 'a@b.be' },
    billing_address: address,
    shipping_address: address,
    currency: 'EUR',
    lines: [{ variant_id: 'x', quantity: 1, tax_rate: 21, unit_price: 1 }],
  };
  it.each([
    ...READS.map((p) => ['GET', p, undefined] as const),
    ['POST', '/orders', validOrder] as const,
    ['POST', '/variants/set_quantity/x', { location_id: 'x', available_quantity: 1 }] as const,
  ])(
    '%s %s: 404 for an unknown consumer, 400 without an eCommerce connection',
    async (method, path, body) => {
      expectError(
        await send(method, path, body, {}, '00000000-0000-4000-8000-000000000000'),
        errors.consumerNotFound(),
      );
      const pos = await send(method, path, body, {}, s.ids.verticalConsumers.POS as string);
      expectError(pos, failure);
      expect(pos.body.detail).toBe('The consumer has no active connection to a eCommerce integration');
    },
  );
});

describe('commerce: catalogue', () => {
  it('lists locations, taxes, payment methods, categories and countries', async () => {
    const locations = ServicePage_CommerceLocationItemOut_.parse((await get('/locations')).body);
    expect(locations.total).toBe(2);
    expect(locations.items[0]?.source_ref).toMatchObject({ model: 'location' });
    const taxes = ServicePage_TaxRateItem_.parse((await get('/taxes')).body);
    expect(taxes.items.find((t) => t.country === 'BE' && t.rate === 21)).toBeDefined();
    const methods = ServicePage_PaymentMethodItem_.parse((await get('/payment-methods')).body);
    expect(methods.items.some((m) => !m.active)).toBe(true);
    const categories = ServicePage_CategoryItem_.parse((await get('/product-categories')).body);
    const parents = ServicePage_CategoryItem_.parse(
      (await get('/product-categories?only_parents=true')).body,
    );
    expect(parents.items.every((c) => c.parent_id === null)).toBe(true);
    expect(parents.total).toBeLessThan(categories.total);
    const countries = ServicePage_CountryItem_.parse((await get('/countries')).body);
    expect(countries.items.map((c) => c.code)).toContain('BE');
    expectValidation(await get('/product-categories?only_parents=yes'), ['query', 'only_parents']);
  });

  it('lists products with their variants; stock is the sum over locations', async () => {
    const page = ServicePage_CommerceProductItem_.parse((await get('/products?size=100')).body);
    expect(page.total).toBeGreaterThan(10);
    expect(page.items.some((p) => p.status === 'archived')).toBe(true);
    const locations = (await get('/locations')).body.items as { id: string }[];
    for (const product of page.items) {
      expect(product.variants?.length).toBeGreaterThan(0);
      for (const variant of product.variants ?? []) {
        expect(variant.parent_id).toBe(product.id);
        const full = VariantItem.parse((await get(`/variants/${variant.id}`)).body);
        expect(full.inventory_details?.map((d) => d.location.id)).toEqual(locations.map((l) => l.id));
        expect(full.available_quantity).toBe(
          full.inventory_details?.reduce((t, d) => t + d.available_quantity, 0),
        );
        expect(full.prices?.map((p) => p.currency)).toEqual(['EUR', 'GBP']);
      }
    }
    const one = CommerceProductItem.parse((await get(`/products/${page.items[0]?.id}`)).body);
    expect(one).toEqual(page.items[0]);
    const product = await get('/products/nope');
    expectError(product, serviceError('commerceProductNotFound'));
    expect([product.status, product.body.error_code]).toEqual([404, 'ERROR_PRODUCT_NOT_FOUND']);
    const variant = await get('/variants/nope');
    expectError(variant, serviceError('commerceVariantNotFound'));
    expect([variant.status, variant.body.error_code]).toEqual([404, 'ERROR_VARIANT_NOT_FOUND']);
  });

  it('filters products by sku (the product or a variant) and updated_after', async () => {
    const products = await all('/products');
    const product = products.find((p) => p.variants.length > 1);
    expect((await all(`/products?sku=${product.sku}`)).map((p) => p.id)).toEqual([product.id]);
    expect((await all(`/products?sku=${product.variants[1].sku}`)).map((p) => p.id)).toEqual([product.id]);
    expect(await all('/products?sku=NOPE')).toEqual([]);
    const recent = await all('/products?updated_after=2025-10-01T00:00:00Z');
    expect(recent.length).toBeGreaterThan(0);
    expect(recent.length).toBeLessThan(products.length);
    expect(recent.every((p) => p.last_updated_on > '2025-10-01T00:00:00Z')).toBe(true);
    expectValidation(await get('/products?updated_after=yesterday'), ['query', 'updated_after']);
  });

  it('sets the stock of a variant at a location; the variant and the product follow', async () => {
    const { product, variant } = await sellable();
    const [, store] = (await get('/locations')).body.items as { id: string; name: string }[];
    const before = VariantItem.parse((await get(`/variants/${variant.id}`)).body);
    const atStore =
      before.inventory_details?.find((d) => d.location.id === store?.id)?.available_quantity ?? 0;
    const res = await send('POST', `/variants/set_quantity/${variant.id}`, {
      location_id: store?.id,
      available_quantity: atStore + 7,
    });
    expect(res.status, res.text).toBe(200);
    expect(InventoryDetailsItem.parse(res.body)).toEqual({
      location: { id: store?.id, name: store?.name },
      available_quantity: atStore + 7,
    });
    const after = VariantItem.parse((await get(`/variants/${variant.id}`)).body);
    expect(after.available_quantity).toBe((before.available_quantity ?? 0) + 7);
    const updated = (await get(`/products/${product.id}`)).body;
    expect(updated.last_updated_on).toBe('2026-01-15T09:00:00.000Z');
    expect((await all('/products?updated_after=2026-01-15T08:00:00Z')).map((p) => p.id)).toEqual([
      product.id,
    ]);
  });

  it.each([
    ['an unknown variant', 'nope', { available_quantity: 1 }, 'commerceVariantNotFound', /nope/],
    [
      'an unknown location',
      'VARIANT',
      { location_id: 'nowhere', available_quantity: 1 },
      'commerceLocationNotFound',
      /nowhere/,
    ],
  ] as const)('refuses %s with the documented 404', async (_label, variantId, body, name, detail) => {
    const { variant } = await sellable();
    const location = (await get('/locations')).body.items[0].id;
    const res = await send(
      'POST',
      `/variants/set_quantity/${variantId === 'VARIANT' ? variant.id : variantId}`,
      { location_id: location, ...body },
    );
    expectError(res, serviceError(name));
    expect([res.status, res.body.error_code]).toEqual([SERVICE_ERRORS[name][0], SERVICE_ERRORS[name][1]]);
    expect(res.body.detail).toMatch(detail);
  });

  it('takes a fractional quantity, as the reference documents a number', async () => {
    const { variant } = await sellable();
    const location = (await get('/locations')).body.items[0].id;
    const res = await send('POST', `/variants/set_quantity/${variant.id}`, {
      location_id: location,
      available_quantity: 1.5,
    });
    expect(res.status, res.text).toBe(200);
    expect(InventoryDetailsItem.parse(res.body).available_quantity).toBe(1.5);
  });

  it('validates the stock body (422)', async () => {
    const { variant } = await sellable();
    expectValidation(
      await send('POST', `/variants/set_quantity/${variant.id}`, {
        location_id: 'x',
        available_quantity: -1,
      }),
      ['body', 'available_quantity'],
    );
    expectValidation(
      await send('POST', `/variants/set_quantity/${variant.id}`, { available_quantity: 1 }),
      ['body', 'location_id'],
      'missing',
    );
  });
});

describe('commerce: customers', () => {
  it('lists customers and reads one; 404 for a missing one', async () => {
    const page = ServicePage_CommerceCustomerItem_.parse((await get('/customers?size=100')).body);
    expect(page.total).toBe(40);
    const first = page.items[0];
    expect(CommerceCustomerItem.parse((await get(`/customers/${first?.id}`)).body)).toEqual(first);
    const missing = await get('/customers/nope');
    expectError(missing, serviceError('commerceCustomerNotFound'));
    expect([missing.status, missing.body.error_code]).toEqual([404, 'ERROR_CUSTOMER_NOT_FOUND']);
  });
});

describe('commerce: orders', () => {
  it('every order adds up: lines, fees, refunds and current amounts; statuses vary', async () => {
    const orders = (await all('/orders?include_detailed_refunds=true')).map((o) => OrderItemOut.parse(o));
    expect(orders.length).toBeGreaterThan(100);
    const statuses = new Set(orders.map((o) => o.status));
    for (const status of ['shipped', 'refunded', 'cancelled_unpaid']) expect(statuses).toContain(status);
    const customers = new Set((await all('/customers')).map((c) => c.id));
    for (const order of orders) {
      expect(order.untaxed_amount_without_fees).toBe(sum(order.lines.map((l) => l.untaxed_amount)));
      expect(order.total_without_fees).toBe(sum(order.lines.map((l) => l.total)));
      expect(order.total).toBe(
        sum([order.total_without_fees, ...(order.other_fees ?? []).map((f) => f.total)]),
      );
      expect(order.total).toBe(sum([order.untaxed_amount, order.tax_amount]));
      for (const line of order.lines) {
        const discount = sum((line.discounts ?? []).map((d) => d.amount));
        expect(line.untaxed_amount).toBe(sum([line.quantity * line.unit_price, -discount]));
        expect(line.total).toBe(sum([line.untaxed_amount, line.tax_amount]));
      }
      const refunded = sum((order.detailed_refunds ?? []).map((r) => r.total));
      expect(order.refunded_amount).toBe(refunded);
      expect(order.current_total).toBe(sum([order.total, -refunded]));
      const paid = sum(
        (order.transactions ?? []).filter((t) => t.status === 'success' && t.amount > 0).map((t) => t.amount),
      );
      if (['shipped', 'confirmed', 'refunded', 'cancelled'].includes(order.status))
        expect(paid).toBeGreaterThanOrEqual(order.total);
      if (order.status === 'refunded') expect(order.current_total).toBe(0);
      expect(customers.has(order.customer?.id as string)).toBe(true);
      expect(order.created_on && order.created_on < '2026-01-15T09:00:00.000Z').toBe(true);
    }
  });

  it('filters orders by dates and updated_after; details on request', async () => {
    const january = await all('/orders?date_from=2026-01-01&date_to=2026-01-14');
    expect(january.length).toBeGreaterThan(0);
    expect(january.every((o) => o.created_on >= '2026-01-01' && o.created_on < '2026-01-15')).toBe(true);
    const updated = await all('/orders?updated_after=2026-01-01T00:00:00Z');
    expect(updated.every((o) => o.last_updated_on > '2026-01-01T00:00:00Z')).toBe(true);
    expect(updated.length).toBeGreaterThanOrEqual(january.length);
    const plain = (await get('/orders?size=1')).body.items[0];
    expect(plain.detailed_refunds).toBeNull();
    expect(plain.customer.email).not.toBeNull();
    expect(plain.lines[0].variant.categories).toEqual([]);
    const lean = (await get('/orders?size=1&include_customer_details=false&include_product_categories=true'))
      .body.items[0];
    expect(lean.customer).toEqual({
      id: plain.customer.id,
      first_name: null,
      last_name: null,
      phone: null,
      internal_notes: null,
      email: null,
    });
    expect(lean.lines[0].variant.categories.length).toBeGreaterThan(0);
    const one = (await get(`/orders/${plain.id}?include_product_categories=true`)).body;
    expect(one.lines[0].variant.categories).toEqual(lean.lines[0].variant.categories);
    const missing = await get('/orders/nope');
    expectError(missing, serviceError('commerceOrderNotFound'));
    expect([missing.status, missing.body.error_code]).toEqual([404, 'ERROR_ORDER_NOT_FOUND']);
    // A date_to before the date_from is no refusal: nothing matches.
    const backwards = await get('/orders?date_from=2026-01-10&date_to=2026-01-01');
    expect(backwards.status, backwards.text).toBe(200);
    expect(backwards.body).toMatchObject({ items: [], total: 0 });
    for (const query of ['page=0', 'size=101']) {
      expectValidation(await get(`/orders?${query}`), ['query', query.split('=')[0] as string]);
    }
  });

  it('creates an order: amounts, stock taken, customer found, event published, listed and readable', async () => {
    const hook = await call(s.app, 'POST', '/webhooks', {
      token,
      body: { event: 'commerce.order.created', url: 'http://127.0.0.1:9/hooks', integrationid: 90301 },
    });
    expect(hook.status, hook.text).toBe(200);
    const body = await orderBody();
    const line = body.lines[0] as { variant_id: string; unit_price: number };
    const before =
      VariantItem.parse((await get(`/variants/${line.variant_id}`)).body).available_quantity ?? 0;
    const customersBefore = (await get('/customers')).body.total as number;
    const res = await send('POST', '/orders', body, { headers: { 'x-chift-client-requestid': 'o-1' } });
    expect(res.status, res.text).toBe(200);
    const order = OrderItemOut.parse(res.body);
    const untaxed = Math.round(2 * line.unit_price * 100) / 100;
    const tax = Math.round(untaxed * 21) / 100;
    expect(order).toMatchObject({
      status: 'confirmed',
      currency: 'EUR',
      note: 'Ring twice',
      untaxed_amount_without_fees: untaxed,
      tax_amount_without_fees: tax,
      refunded_amount: 0,
      created_on: '2026-01-15T09:00:00.000Z',
    });
    expect(order.total).toBe(sum([untaxed, tax, ...(order.other_fees ?? []).map((f) => f.total)]));
    expect(order.transactions).toEqual([expect.objectContaining({ amount: order.total, status: 'success' })]);
    expect((await get(`/variants/${line.variant_id}`)).body.available_quantity).toBe(before - 2);
    expect((await get('/customers')).body.total).toBe(customersBefore + 1);
    expect((await get(`/orders/${order.id}`)).body).toEqual(res.body);
    expect((await all('/orders?date_from=2026-01-15&date_to=2026-01-15')).map((o) => o.id)).toContain(
      order.id,
    );
    const replay = await send('POST', '/orders', body, { headers: { 'x-chift-client-requestid': 'o-1' } });
    expect(replay.body).toEqual(res.body);
    expect((await get(`/variants/${line.variant_id}`)).body.available_quantity).toBe(before - 2);
    const second = OrderItemOut.parse(
      (await send('POST', '/orders', { ...body, payment_method: null })).body,
    );
    expect(second.status).toBe('draft');
    expect(second.transactions).toEqual([]);
    expect(second.customer?.id).toBe(order.customer?.id);
    expect((await get('/customers')).body.total).toBe(customersBefore + 1);
    const deliveries = await call(s.app, 'GET', '/__sandbox/webhook-deliveries?event=commerce.order.created');
    const payloads = (deliveries.body as { payload: Record<string, unknown> }[]).map((d) => d.payload);
    expect(payloads.map((p) => p.order_id).sort()).toEqual([order.id, second.id].sort());
    expect(payloads.find((p) => p.order_id === order.id)).toMatchObject({
      consumerid: consumerId,
      integrationid: 90301,
      total: order.total,
    });
  });

  it.each([
    [
      'an unknown variant',
      { lines: [{ variant_id: 'nope', quantity: 1, tax_rate: 21, unit_price: 1 }] },
      /variant 'nope' does not exist/,
    ],
    ['a quantity below 1', { lines: 'ZERO' }, /quantity must be at least 1/],
    ['a negative unit price', { lines: 'NEGATIVE' }, /unit price cannot be negative/],
    [
      'an invalid country',
      { billing_address: { ...address, country: 'ZZ' } },
      /ZZ is not a valid country code/,
    ],
  ])('refuses an order with %s (400) and changes nothing', async (_label, given, detail) => {
    const overrides = given as Record<string, unknown>;
    const { variant, price } = await sellable();
    const lines =
      overrides.lines === 'ZERO'
        ? [{ variant_id: variant.id, quantity: 0, tax_rate: 21, unit_price: price }]
        : overrides.lines === 'NEGATIVE'
          ? [{ variant_id: variant.id, quantity: 1, tax_rate: 21, unit_price: -1 }]
          : overrides.lines;
    const body = await orderBody({ ...overrides, ...(lines !== undefined ? { lines } : {}) });
    const before = JSON.stringify(s.app.services.store.world);
    const res = await send('POST', '/orders', body);
    expectError(res, failure);
    expect(res.body.detail).toMatch(detail);
    expect(JSON.stringify(s.app.services.store.world)).toBe(before);
  });

  it.each([
    ['a phone without its country code', '0475 12 34 56', 'phoneInvalid'],
    ['a phone that is not a number', 'call me', 'phoneInvalid'],
    ['the phone of another customer', 'TAKEN', 'phoneAlreadyUsed'],
  ] as const)(
    'refuses a new customer with %s (the documented 422) and changes nothing',
    async (_label, phone, name) => {
      const taken = (await all('/customers')).find((c) => c.phone);
      const body = await orderBody({
        customer: { email: 'new.customer@example.be', phone: phone === 'TAKEN' ? ` ${taken.phone} ` : phone },
      });
      const before = JSON.stringify(s.app.services.store.world);
      const res = await send('POST', '/orders', body);
      expectError(res, serviceError(name));
      expect([res.status, res.body.error_code]).toEqual([422, SERVICE_ERRORS[name][1]]);
      expect(JSON.stringify(s.app.services.store.world)).toBe(before);
    },
  );

  it('takes a phone with its country code (+ or 00), and any phone for a customer it finds by e-mail', async () => {
    const known = (await all('/customers')).find((c) => c.phone && c.email);
    const created = await send(
      'POST',
      '/orders',
      await orderBody({ customer: { email: 'new.customer@example.be', phone: '0032 475 12.34.56' } }),
    );
    expect(created.status, created.text).toBe(200);
    expect(created.body.customer.phone).toBe('0032 475 12.34.56');
    const found = await send(
      'POST',
      '/orders',
      await orderBody({ customer: { email: known.email, phone: 'whatever' } }),
    );
    expect(found.status, found.text).toBe(200);
    expect(found.body.customer.id).toBe(known.id);
  });

  it('takes what the shop software takes: any currency and e-mail text, an unlisted tax rate or payment method, more than the stock', async () => {
    const { variant, product } = await sellable();
    const unpublished = (await all('/products')).find((p) => p.status !== 'published' && p.variants.length);
    const stock = VariantItem.parse((await get(`/variants/${variant.id}`)).body).available_quantity ?? 0;
    const inactive = (await get('/payment-methods')).body.items.find((m: { active: boolean }) => !m.active);
    const res = await send(
      'POST',
      '/orders',
      await orderBody({
        customer: { email: 'not-an-email' },
        currency: 'usd',
        shipping_address: { ...address, country: 'US' },
        lines: [
          { variant_id: variant.id, quantity: stock + 5, tax_rate: 13, unit_price: 10 },
          ...(unpublished
            ? [{ variant_id: unpublished.variants[0].id, quantity: 1, tax_rate: 21, unit_price: 1 }]
            : []),
        ],
        payment_method: 'bank-transfer',
      }),
    );
    expect(res.status, res.text).toBe(200);
    const order = OrderItemOut.parse(res.body);
    expect(order).toMatchObject({ currency: 'USD', status: 'confirmed', payment_method_id: 'bank-transfer' });
    expect(order.lines[0]).toMatchObject({
      tax_rate: 13,
      tax_id: null,
      tax_amount: cents(1.3 * (stock + 5)) / 100,
    });
    expect(order.payment_methods).toEqual([{ id: 'bank-transfer', name: 'bank-transfer' }]);
    expect(order.customer?.email).toBe('not-an-email');
    expect((await get(`/variants/${variant.id}`)).body.available_quantity).toBe(-5);
    expect((await get(`/products/${product.id}`)).status).toBe(200);
    const withInactive = await send('POST', '/orders', await orderBody({ payment_method: inactive.id }));
    expect(withInactive.status, withInactive.text).toBe(200);
    expect(withInactive.body.payment_method_id).toBe(inactive.id);
  });

  it.each([
    [{ customer: undefined }, ['body', 'customer']],
    [{ lines: [] }, ['body', 'lines']],
    [
      { lines: [{ variant_id: 'x', quantity: 1.5, tax_rate: 21, unit_price: 1 }] },
      ['body', 'lines', 0, 'quantity'],
    ],
    [{ currency: 3 }, ['body', 'currency']],
  ])('validates the order body (422): %j', async (overrides, loc) => {
    const body = { ...(await orderBody()), ...overrides };
    expectValidation(await send('POST', '/orders', body), loc as (string | number)[]);
  });
});
