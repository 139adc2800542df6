import { beforeEach, describe, expect, it } from 'vitest';
import { errors, serviceError } from '../../../src/lib/errors.js';
import {
  ClosureItem,
  POSCustomerItem,
  POSOrderItem,
  ReportItem,
  SalesItem,
  ServicePage_AccountingCategoryItem_,
  ServicePage_ModifiersItem_,
  ServicePage_ObjectivesItem_,
  ServicePage_PaymentMethods_,
  ServicePage_POSCustomerItem_,
  ServicePage_POSLocationItem_,
  ServicePage_POSOrderItem_,
  ServicePage_POSPaymentItem_,
  ServicePage_POSProductItem_,
  ServicePage_POSTaxRateItem_,
  ServicePage_ProductCategoryItem_,
} from '../../../src/modules/pos/api/pos.schemas.js';
import { verticalFailure } from '../../../src/platform/vertical-connection.js';
import { datasetKey } from '../../../src/store/world.js';
import {
  type CallOptions,
  type CallResult,
  call,
  expectError,
  expectValidation,
  sandbox,
  sandboxToken,
  type TestSandbox,
} from '../../helpers.js';

/**
 * The Point of Sale vertical through HTTP: the connection rules, every operation, the filters and
 * paging, the amounts (lines, orders, payments, closures, sales and report agree), the writes and
 * their idempotency, and the open orders the clock completes (pos.order.completed).
 */

let s: TestSandbox;
let token: string;
let consumerId: string;

const base = (consumer: string) => `/consumers/${consumer}/pos`;
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
async function all(path: string, consumer = consumerId): Promise<any[]> {
  const out: unknown[] = [];
  const sep = path.includes('?') ? '&' : '?';
  for (let page = 1; ; page++) {
    const res = await get(`${path}${sep}page=${page}&size=100`, {}, consumer);
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
  consumerId = s.ids.verticalConsumers.POS as string;
});

/** Adds a Square (9000) connection to a consumer through the API. */
async function connectRetail(consumer: string): Promise<string> {
  const res = await call(s.app, 'POST', `/consumers/${consumer}/connections`, {
    token,
    body: { integrationid: 9000, credentials: [{ key: 'token', value: 't' }] },
  });
  expect(res.status, res.text).toBe(200);
  const connection = Object.values(s.app.services.store.world.connections).find(
    (c) => c.consumerid === consumer && c.integrationid === 9000,
  );
  return connection?.connectionid as string;
}

const READS = [
  '/modifiers',
  '/orders',
  '/locations',
  '/payments?date_from=2026-01-01&date_to=2026-01-14',
  '/sales?date_from=2026-01-01&date_to=2026-01-14',
  '/payment-methods',
  '/customers',
  '/product-categories',
  '/products',
  '/accounting-categories',
  '/tax-rates',
  '/closures/2026-01-14',
  '/objectives?date_from=2026-01-01&date_to=2026-01-07',
  '/report?date=2026-01-14',
  '/orders/some-order',
  '/customers/some-customer',
];
const WRITES: [string, string, unknown][] = [
  ['POST', '/customers', { first_name: 'Ann', last_name: 'Peeters' }],
  ['PATCH', '/orders/some-order', { customer_id: null }],
];

describe('pos: the connection', () => {
  it.each([...READS.map((p) => ['GET', p, undefined] as const), ...WRITES])(
    '%s %s: 404 for an unknown consumer, 400 without a POS connection, 400 when it is inactive',
    async (method, path, body) => {
      const missing = await send(method, path, body, {}, '00000000-0000-4000-8000-000000000000');
      expectError(missing, errors.consumerNotFound());
      const accounting = await send(method, path, body, {}, s.ids.verticalConsumers.ACCOUNTING as string);
      expectError(accounting, failure);
      expect(accounting.body.detail).toBe(
        'The consumer has no active connection to a Point of Sale integration',
      );
      const pending = await send(method, path, body, {}, s.ids.pendingConsumerId);
      expectError(pending, failure);
      expect(pending.body.detail).toMatch(/no active connection to a Point of Sale/);
    },
  );

  it('answers 401 to a token of the other environment', async () => {
    const production = await sandboxToken({ ...s, ids: { ...s.ids, sandbox: s.ids.production } });
    expectError(await get('/orders', { token: production }), errors.wrongEnvironment());
  });

  it('refuses what the integration does not cover: Sandbox Till Basic has no objectives (NOT_SUPPORTED)', async () => {
    const path = '/objectives?date_from=2026-01-01&date_to=2026-01-07';
    const res = await get(path, {}, s.ids.coverageLimitsConsumerId);
    expectError(res, failure);
    expect(res.body.detail).toBe('Sandbox Till Basic does not support pos_get_objectives (NOT_SUPPORTED)');
    // The default consumer's integration (Zelty) covers them.
    expect((await get(path)).status).toBe(200);
  });

  it('serves the connection named by X-Chift-ConnectionId, else the newest one', async () => {
    const tillwise = Object.values(s.app.services.store.world.connections).find(
      (c) => c.consumerid === consumerId && c.integrationid === 9012,
    )?.connectionid as string;
    const retail = await connectRetail(consumerId);
    const newest = await get('/objectives?date_from=2026-01-01&date_to=2026-01-02');
    expect(newest.status).toBe(200);
    const chosen = await get('/objectives?date_from=2026-01-01&date_to=2026-01-02', {
      headers: { 'x-chift-connectionid': tillwise },
    });
    expect(chosen.status).toBe(200);
    const newestProducts = (await all('/products')).map((p) => p.name);
    expect(newestProducts).toContain('Linen shirt');
    const viaHeader = await get('/products?size=100', { headers: { 'x-chift-connectionid': tillwise } });
    expect(viaHeader.body.items.map((p: { name: string }) => p.name)).toContain('Steak frites');
    expect(viaHeader.body.items.map((p: { name: string }) => p.name)).not.toContain('Linen shirt');
    expect(s.app.services.store.world.pos_datasets[datasetKey(consumerId, retail)]).toBeDefined();
  });
});

describe('pos: reference data', () => {
  it('lists locations, tax rates, payment methods, categories, accounting categories, modifiers and products', async () => {
    const locations = ServicePage_POSLocationItem_.parse((await get('/locations')).body);
    expect(locations.total).toBe(2);
    expect(locations.items[0]).toMatchObject({ timezone: 'Europe/Paris', address: { country: 'FR' } });
    const taxes = ServicePage_POSTaxRateItem_.parse((await get('/tax-rates')).body);
    expect(taxes.items.map((t) => t.rate)).toEqual([20, 10, 5.5, 0]);
    const methods = ServicePage_PaymentMethods_.parse((await get('/payment-methods')).body);
    expect(methods.items.map((m) => m.name)).toEqual([
      'Espèces',
      'CB',
      'Visa / Mastercard',
      'Titres-restaurant',
      'Lydia',
    ]);
    const categories = ServicePage_ProductCategoryItem_.parse((await get('/product-categories')).body);
    const parents = ServicePage_ProductCategoryItem_.parse(
      (await get('/product-categories?only_parents=true')).body,
    );
    expect(parents.items.every((c) => c.id_parent === null)).toBe(true);
    expect(parents.total).toBeLessThan(categories.total);
    for (const child of categories.items.filter((c) => c.id_parent)) {
      expect(parents.items.map((p) => p.id)).toContain(child.id_parent);
    }
    const accounting = ServicePage_AccountingCategoryItem_.parse((await get('/accounting-categories')).body);
    expect(accounting.items.every((a) => a.ledger_account_code?.startsWith('70'))).toBe(true);
    const modifiers = ServicePage_ModifiersItem_.parse((await get('/modifiers')).body);
    expect(modifiers.items.every((m) => m.options.length > 0)).toBe(true);
    const products = ServicePage_POSProductItem_.parse((await get('/products?size=100')).body);
    const categoryIds = new Set(categories.items.map((c) => c.id));
    const modifierIds = new Set(modifiers.items.map((m) => m.id));
    const accountingIds = new Set(accounting.items.map((a) => a.id));
    for (const product of products.items) {
      expect(product.prices.length).toBeGreaterThan(0);
      expect(product.categories?.every((id) => categoryIds.has(id))).toBe(true);
      expect(product.modifier_groups_ids?.every((id) => modifierIds.has(id))).toBe(true);
      expect(product.accounting_category_ids?.every((id) => accountingIds.has(id))).toBe(true);
    }
  });

  it('filters by location: the second location sells less, an unknown one matches nothing', async () => {
    const [first, second] = (await get('/locations')).body.items as { id: string }[];
    const everywhere = await all('/products');
    const atFirst = await all(`/products?location_id=${first?.id}`);
    const atSecond = await all(`/products?location_id=${second?.id}`);
    expect(atFirst.length).toBe(everywhere.length);
    expect(atSecond.length).toBeLessThan(everywhere.length);
    const methodsSecond = await all(`/payment-methods?location_id=${second?.id}`);
    expect(methodsSecond.length).toBeLessThan((await all('/payment-methods')).length);
    for (const path of [
      '/products',
      '/payment-methods',
      '/modifiers',
      '/accounting-categories',
      '/product-categories',
      '/orders',
    ]) {
      const res = await get(`${path}?location_id=nowhere`);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ items: [], total: 0 });
    }
    const sales = await get('/sales?date_from=2026-01-01&date_to=2026-01-02&location_id=nowhere');
    expect(sales.status, sales.text).toBe(200);
    expect(SalesItem.parse(sales.body)).toMatchObject({ total: 0, tax_amount: 0, taxes: [] });
    const closure = await get('/closures/2026-01-02?location_id=nowhere');
    expect(ClosureItem.parse(closure.body)).toEqual({ date: '2026-01-02', status: 'closed', closures: [] });
    const report = await get('/report?date=2026-01-02&location_id=nowhere');
    expect(ReportItem.parse(report.body)).toMatchObject({ location_id: 'nowhere', orders: [], payments: [] });
  });
});

describe('pos: orders and amounts', () => {
  it('every order adds up: lines, taxes, discounts, payments and tips', async () => {
    const orders = ServicePage_POSOrderItem_.parse((await get('/orders?size=100')).body);
    expect(orders.total).toBeGreaterThan(300);
    for (const order of await all('/orders')) {
      const parsed = POSOrderItem.parse(order);
      expect(parsed.total).toBe(sum(parsed.items.map((l) => l.total)));
      expect(parsed.tax_amount).toBe(sum(parsed.items.map((l) => l.tax_amount)));
      expect(parsed.tax_amount).toBe(sum((parsed.taxes ?? []).map((t) => t.tax_amount)));
      expect(parsed.total).toBe(sum((parsed.taxes ?? []).map((t) => t.total)));
      for (const line of parsed.items) {
        const untaxed = sum([
          line.quantity * line.unit_price,
          ...(line.modifiers ?? []).map((m) => m.total ?? 0),
          ...(line.discounts ?? []).map((d) => -d.total),
        ]);
        expect(line.total).toBe(sum([untaxed, line.tax_amount]));
        expect(line.tax_amount).toBe(Math.round(untaxed * (line.tax_rate ?? 0)) / 100);
      }
      if (parsed.closing_date) {
        expect(sum(parsed.payments.map((p) => p.total))).toBe(parsed.total);
        expect(parsed.total_tip).toBe(sum(parsed.payments.map((p) => p.tip ?? 0)));
        expect(parsed.payments.every((p) => p.order_id === parsed.id && p.status === 'Completed')).toBe(true);
        expect(parsed.closing_date >= parsed.creation_date).toBe(true);
      } else {
        expect(parsed.payments).toEqual([]);
      }
      // The history runs from January 2021 up to the sandbox start.
      expect(parsed.creation_date >= '2021-01-01' && parsed.creation_date < '2026-01-15T09:00:00.000Z').toBe(
        true,
      );
      expect(parsed.currency).toBe('EUR');
      // Nullable fields are present (null), not missing.
      expect(Object.keys(order)).toContain('invoice_id');
      expect(Object.keys(order)).toContain('customer_id');
    }
  });

  it('filters orders by dates, location, state and closure', async () => {
    const day = await all('/orders?date_from=2026-01-10&date_to=2026-01-10');
    expect(day.length).toBeGreaterThan(0);
    expect(day.every((o) => o.creation_date.startsWith('2026-01-10'))).toBe(true);
    const week = await all('/orders?date_from=2026-01-05&date_to=2026-01-11');
    expect(week.length).toBeGreaterThan(day.length);
    const [location] = (await get('/locations')).body.items as { id: string }[];
    const here = await all(`/orders?date_from=2026-01-05&date_to=2026-01-11&location_id=${location?.id}`);
    expect(here.length).toBeGreaterThan(0);
    expect(here.length).toBeLessThan(week.length);
    expect(here.every((o) => o.location_id === location?.id)).toBe(true);
    const open = await all('/orders?state=open');
    expect(open.length).toBeGreaterThanOrEqual(2);
    expect(open.every((o) => o.closing_date === null)).toBe(true);
    const closed = await all('/orders?state=closed');
    expect(closed.length + open.length).toBe((await all('/orders')).length);
    const closure = ClosureItem.parse((await get(`/closures/2026-01-10?location_id=${location?.id}`)).body);
    const closureId = closure.closures?.[0]?.id as string;
    const ofClosure = await all(`/orders?closure_id=${closureId}`);
    expect(ofClosure.length).toBeGreaterThan(0);
    expect(
      ofClosure.every((o) => o.closing_date.startsWith('2026-01-10') && o.location_id === location?.id),
    ).toBe(true);
    expect(sum(ofClosure.map((o) => o.total))).toBe(closure.closures?.[0]?.total);
    // A date_to before the date_from is no refusal: nothing matches.
    const backwards = await get('/orders?date_from=2026-01-10&date_to=2026-01-01');
    expect(backwards.status, backwards.text).toBe(200);
    expect(backwards.body).toMatchObject({ items: [], total: 0 });
    const noPayments = await get('/payments?date_from=2026-01-10&date_to=2026-01-01');
    expect(noPayments.status, noPayments.text).toBe(200);
    expect(noPayments.body).toMatchObject({ items: [], total: 0 });
    const noSales = await get('/sales?date_from=2026-01-10&date_to=2026-01-01');
    expect(noSales.status, noSales.text).toBe(200);
    expect(SalesItem.parse(noSales.body)).toMatchObject({ total: 0, tax_amount: 0 });
    expectValidation(await get('/orders?state=pending'), ['query', 'state']);
    expectValidation(await get('/orders?date_from=2026-13-01'), ['query', 'date_from']);
  });

  it('reads one order, 404 for a missing one', async () => {
    const [first] = (await get('/orders?size=1')).body.items as { id: string }[];
    const one = await get(`/orders/${first?.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual((await get('/orders?size=1')).body.items[0]);
    const missing = await get('/orders/nope');
    expectError(missing, serviceError('posOrderNotFound'));
    expect(missing.body).toMatchObject({ status: 'error', error_code: 'ERROR_ORDER_NOT_FOUND' });
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toMatch(/nope/);
  });

  it('pages: page and size bounds, a page past the end is empty', async () => {
    for (const query of ['page=0', 'size=0', 'size=101', 'page=x']) {
      const [name] = query.split('=');
      expectValidation(await get(`/orders?${query}`), ['query', name as string]);
    }
    const total = (await get('/orders?size=1')).body.total as number;
    const past = await get(`/orders?page=${Math.ceil(total / 100) + 1}&size=100`);
    expect(past.body).toMatchObject({ items: [], total, size: 100 });
    const defaults = await get('/orders');
    expect(defaults.body).toMatchObject({ page: 1, size: 50 });
    expect(defaults.body.items).toHaveLength(50);
  });
});

describe('pos: payments, sales, closures, report, objectives', () => {
  it('payments of a period belong to orders closed in it and add up to the sales', async () => {
    expectValidation(await get('/payments'), ['query', 'date_from'], 'missing');
    const payments = ServicePage_POSPaymentItem_.parse(
      (await get('/payments?date_from=2026-01-12&date_to=2026-01-13&size=100')).body,
    );
    expect(payments.total).toBeGreaterThan(0);
    const orders = new Map((await all('/orders?state=closed')).map((o) => [o.id, o]));
    for (const payment of payments.items) {
      const order = orders.get(payment.order_id as string);
      expect(order, `payment ${payment.id} of an unknown order`).toBeDefined();
      expect(
        (payment.date?.slice(0, 10) ?? '') >= '2026-01-12' &&
          (payment.date?.slice(0, 10) ?? '') <= '2026-01-13',
      ).toBe(true);
    }
    const sales = SalesItem.parse((await get('/sales?date_from=2026-01-12&date_to=2026-01-13')).body);
    expect(sales.total).toBe(sum(payments.items.map((p) => p.total)));
    expect(sales.tax_amount).toBe(sum((sales.taxes ?? []).map((t) => t.tax_amount)));
    expectValidation(await get('/sales?date_from=2026-01-12'), ['query', 'date_to'], 'missing');
  });

  it('a past day is closed, its closures sum to its sales and its report; today is open', async () => {
    const day = '2026-01-13';
    const closure = ClosureItem.parse((await get(`/closures/${day}`)).body);
    expect(closure.status).toBe('closed');
    expect(closure.closures).toHaveLength(2);
    const sales = SalesItem.parse((await get(`/sales?date_from=${day}&date_to=${day}`)).body);
    expect(sum((closure.closures ?? []).map((c) => c.total))).toBe(sales.total);
    for (const c of closure.closures ?? []) {
      expect(sum((c.payments ?? []).map((p) => p.total))).toBe(c.total);
      expect(sum((c.taxes ?? []).map((t) => t.tax_amount))).toBe(c.tax_amount);
    }
    const locations = (await get('/locations')).body.items as { id: string }[];
    for (const [index, location] of locations.entries()) {
      const report = ReportItem.parse((await get(`/report?date=${day}&location_id=${location.id}`)).body);
      const mine = closure.closures?.[index];
      expect(report.location_id).toBe(location.id);
      expect(sum((report.orders ?? []).map((o) => o.total))).toBe(mine?.total);
      expect(sum((report.payments ?? []).map((p) => p.total))).toBe(mine?.total);
      expect(sum((report.payments ?? []).map((p) => p.tax_amount))).toBe(mine?.tax_amount);
    }
    const defaultReport = ReportItem.parse((await get(`/report?date=${day}`)).body);
    expect(defaultReport.location_id).toBe(locations[0]?.id);
    const today = ClosureItem.parse((await get('/closures/2026-01-15')).body);
    expect(today).toEqual({ date: '2026-01-15', status: 'open', closures: [] });
    // A day before the seeded history: closed, nothing sold.
    const early = ClosureItem.parse((await get('/closures/2020-12-31')).body);
    expect(early.status).toBe('closed');
    expect(early.closures?.every((c) => c.total === 0)).toBe(true);
    expectValidation(await get('/closures/not-a-date'), ['path', 'date']);
    expectValidation(await get('/report'), ['query', 'date'], 'missing');
  });

  it('objectives: one per day of the period, for a connection that covers them', async () => {
    await connectRetail(consumerId);
    const week = ServicePage_ObjectivesItem_.parse(
      (await get('/objectives?date_from=2026-01-05&date_to=2026-01-11')).body,
    );
    expect(week.items.map((o) => o.date)).toEqual([
      '2026-01-05',
      '2026-01-06',
      '2026-01-07',
      '2026-01-08',
      '2026-01-09',
      '2026-01-10',
      '2026-01-11',
    ]);
    const saturday = week.items[5]?.total ?? 0;
    const monday = week.items[0]?.total ?? 0;
    expect(saturday).toBeGreaterThan(monday);
    const [first, second] = (await get('/locations')).body.items as { id: string }[];
    const a = (await get(`/objectives?date_from=2026-01-05&date_to=2026-01-05&location_id=${first?.id}`)).body
      .items[0];
    const b = (await get(`/objectives?date_from=2026-01-05&date_to=2026-01-05&location_id=${second?.id}`))
      .body.items[0];
    expect(sum([a.total, b.total])).toBe(monday);
    const nowhere = await get('/objectives?date_from=2026-01-05&date_to=2026-01-06&location_id=nowhere');
    expect(ServicePage_ObjectivesItem_.parse(nowhere.body).items.map((o) => o.total)).toEqual([0, 0]);
    // Any period is a paged list (only the page asked for is computed); a backwards one is empty.
    const long = ServicePage_ObjectivesItem_.parse(
      (await get('/objectives?date_from=2025-01-01&date_to=2026-06-30&page=5&size=100')).body,
    );
    expect(long.total).toBe(546);
    expect(long.items.map((o) => o.date)).toEqual([
      '2026-02-05',
      ...long.items.slice(1, -1).map((o) => o.date),
      '2026-05-15',
    ]);
    expect(long.items).toHaveLength(100);
    const ages = await get('/objectives?date_from=0001-01-01&date_to=9999-12-31&page=2&size=2');
    expect(ages.body).toMatchObject({ total: 3652059, page: 2, size: 2 });
    expect(ages.body.items.map((o: { date: string }) => o.date)).toEqual(['0001-01-03', '0001-01-04']);
    const backwards = await get('/objectives?date_from=2026-01-05&date_to=2026-01-01');
    expect(backwards.status, backwards.text).toBe(200);
    expect(backwards.body).toMatchObject({ items: [], total: 0 });
    expectValidation(await get('/objectives?date_from=2026-01-05'), ['query', 'date_to'], 'missing');
  });
});

describe('pos: customers', () => {
  it('lists and filters customers; reads one; 404 for a missing one', async () => {
    const customers = ServicePage_POSCustomerItem_.parse((await get('/customers?size=100')).body);
    expect(customers.total).toBe(30);
    const withEmail = customers.items.find((c) => c.email && c.phone) as {
      id: string;
      email: string;
      phone: string;
      last_name: string;
    };
    const byEmail = await all(`/customers?email=${encodeURIComponent(withEmail.email.toUpperCase())}`);
    expect(byEmail.map((c) => c.id)).toEqual([withEmail.id]);
    const byPhone = await all(`/customers?phone=${encodeURIComponent(withEmail.phone)}`);
    expect(byPhone.map((c) => c.id)).toContain(withEmail.id);
    const bySearch = await all(`/customers?search=${encodeURIComponent(withEmail.last_name.toLowerCase())}`);
    expect(bySearch.map((c) => c.id)).toContain(withEmail.id);
    expect(bySearch.length).toBeLessThan(customers.total);
    expect(await all('/customers?search=zzzz-nobody')).toEqual([]);
    const one = POSCustomerItem.parse((await get(`/customers/${withEmail.id}`)).body);
    expect(one.id).toBe(withEmail.id);
    const missing = await get('/customers/nobody');
    expectError(missing, serviceError('posCustomerNotFound'));
    expect(missing.body).toMatchObject({ error_code: 'ERROR_CUSTOMER_NOT_FOUND' });
    expect(missing.status).toBe(404);
  });

  it('creates a customer: visible in the list and by id, recorded with its client request id', async () => {
    const body = {
      first_name: 'Ann',
      last_name: 'Peeters',
      email: 'ann.peeters@example.be',
      phone: '+32470000000',
      address: {
        name: 'home',
        street: 'Rue Haute',
        number: '12',
        city: 'Bruxelles',
        postal_code: '1000',
        country: 'be',
      },
    };
    const created = await send('POST', '/customers', body, {
      headers: { 'x-chift-client-requestid': 'c-1' },
    });
    expect(created.status, created.text).toBe(200);
    const customer = POSCustomerItem.parse(created.body);
    expect(customer).toMatchObject({
      name: 'Ann Peeters',
      email: 'ann.peeters@example.be',
      loyalty: 0,
      birthdate: null,
      created_on: '2026-01-15T09:00:00.000Z',
      addresses: [{ address_type: 'home', city: 'Bruxelles', country: 'BE' }],
    });
    expect((await get(`/customers/${customer.id}`)).body).toEqual(created.body);
    expect((await all('/customers?email=ann.peeters@example.be')).map((c) => c.id)).toEqual([customer.id]);
    const again = await send('POST', '/customers', body, { headers: { 'x-chift-client-requestid': 'c-1' } });
    expect(again.body).toEqual(created.body);
    expect((await get('/customers')).body.total).toBe(31);
    const connection = Object.values(s.app.services.store.world.connections).find(
      (c) => c.consumerid === consumerId && c.integrationid === 9012,
    );
    const lookup = await call(
      s.app,
      'GET',
      `/consumers/${consumerId}/connections/${connection?.connectionid}/transactions?client_request_id=c-1`,
      { token },
    );
    expect(lookup.status).toBe(200);
    expect(lookup.body).toMatchObject({ method: 'POST', status_code: 200, created_entity_id: customer.id });
  });

  it.each([
    [
      {
        first_name: 'A',
        last_name: 'B',
        address: { name: 'home', city: 'X', postal_code: '1', country: 'XX' },
      },
      'XX is not a valid country code',
    ],
  ])('refuses a bad customer with 400 and writes nothing: %j', async (body, detail) => {
    await get('/customers?size=1');
    const before = JSON.stringify(s.app.services.store.world);
    const res = await send('POST', '/customers', body);
    expectError(res, failure);
    expect(res.body.detail).toBe(detail);
    expect(JSON.stringify(s.app.services.store.world)).toBe(before);
  });

  it('takes any e-mail text, even one another customer has (the reference states no format)', async () => {
    const existing = (await all('/customers')).find((c) => c.email);
    const same = await send('POST', '/customers', {
      first_name: 'A',
      last_name: 'B',
      email: existing.email.toUpperCase(),
    });
    expect(same.status, same.text).toBe(200);
    expect(same.body.email).toBe(existing.email.toUpperCase());
    const odd = await send('POST', '/customers', { first_name: 'A', last_name: 'B', email: 'not-an-email' });
    expect(odd.status, odd.text).toBe(200);
    expect(POSCustomerItem.parse(odd.body).email).toBe('not-an-email');
    expect((await get('/customers')).body.total).toBe(32);
  });

  it.each([
    [{ last_name: 'B' }, ['body', 'first_name'], 'missing'],
    [{ first_name: '', last_name: 'B' }, ['body', 'first_name'], undefined],
    [
      { first_name: 'A', last_name: 'B', address: { name: 'home', city: 'X' } },
      ['body', 'address', 'postal_code'],
      'missing',
    ],
  ])('validates the body (422): %j', async (body, loc, type) => {
    expectValidation(await send('POST', '/customers', body), loc as (string | number)[], type);
  });
});

describe('pos: linking an order to a customer', () => {
  it('links, moves the loyalty points, unlinks; replays with the same client request id', async () => {
    const order = (await all('/orders?state=closed&date_from=2026-01-12&date_to=2026-01-12')).find(
      (o) => o.customer_id === null,
    );
    const [customer] = (await get('/customers?size=1')).body.items as { id: string; loyalty: number }[];
    const before = customer?.loyalty ?? 0;
    const points = Math.floor(order.total);
    const linked = await send(
      'PATCH',
      `/orders/${order.id}`,
      { customer_id: customer?.id },
      { headers: { 'x-chift-client-requestid': 'link-1' } },
    );
    expect(linked.status, linked.text).toBe(200);
    expect(POSOrderItem.parse(linked.body)).toMatchObject({
      id: order.id,
      customer_id: customer?.id,
      loyalty: points,
    });
    expect((await get(`/orders/${order.id}`)).body.customer_id).toBe(customer?.id);
    expect((await get(`/customers/${customer?.id}`)).body.loyalty).toBe(before + points);
    const replay = await send(
      'PATCH',
      `/orders/${order.id}`,
      { customer_id: customer?.id },
      { headers: { 'x-chift-client-requestid': 'link-1' } },
    );
    expect(replay.body).toEqual(linked.body);
    expect((await get(`/customers/${customer?.id}`)).body.loyalty).toBe(before + points);
    const unlinked = await send('PATCH', `/orders/${order.id}`, { customer_id: null });
    expect(unlinked.body).toMatchObject({ customer_id: null, loyalty: null });
    expect((await get(`/customers/${customer?.id}`)).body.loyalty).toBe(before);
    const unchanged = await send('PATCH', `/orders/${order.id}`, {});
    expect(unchanged.body).toEqual(unlinked.body);
  });

  it('refuses an unknown order with the 404 of its read, an unknown customer with 400 and a detail', async () => {
    const missingOrder = await send('PATCH', '/orders/nope', { customer_id: null });
    expectError(missingOrder, serviceError('posOrderNotFound'));
    expect([missingOrder.status, missingOrder.body.error_code]).toEqual([404, 'ERROR_ORDER_NOT_FOUND']);
    const [order] = (await get('/orders?size=1')).body.items as { id: string }[];
    const missingCustomer = await send('PATCH', `/orders/${order?.id}`, { customer_id: 'nobody' });
    expectError(missingCustomer, failure);
    expect(missingCustomer.body.detail).toBe("The customer 'nobody' does not exist");
    expectValidation(await send('PATCH', `/orders/${order?.id}`, { customer_id: 12 }), [
      'body',
      'customer_id',
    ]);
  });
});

describe('pos: open orders complete with the clock', () => {
  /** This consumer's pos.order.completed (every POS connection a listening webhook reaches has its). */
  async function announced(): Promise<Record<string, unknown>[]> {
    const res = await call(s.app, 'GET', '/__sandbox/webhook-deliveries?event=pos.order.completed&limit=500');
    expect(res.status).toBe(200);
    const payloads = (res.body as { payload: Record<string, unknown> }[]).map((d) => d.payload);
    return payloads.filter((p) => p.consumerid === consumerId);
  }
  async function subscribe(): Promise<void> {
    const res = await call(s.app, 'POST', '/webhooks', {
      token,
      body: { event: 'pos.order.completed', url: 'http://127.0.0.1:9/hooks', integrationid: 9012 },
    });
    expect(res.status, res.text).toBe(200);
  }

  it('pays and closes the open orders when their time comes, and publishes pos.order.completed', async () => {
    await subscribe();
    const open = await all('/orders?state=open');
    expect(open.length).toBeGreaterThanOrEqual(2);
    const salesBefore = (await get('/sales?date_from=2026-01-15&date_to=2026-01-15')).body.total as number;
    const moved = await call(s.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: 4 * 3600 } });
    expect(moved.status).toBe(200);
    token = await sandboxToken(s);
    // The morning's open orders are closed; what is open now was placed since, and is in progress.
    const openNow = await all('/orders?state=open');
    expect(openNow.filter((o) => open.some((before) => before.id === o.id))).toEqual([]);
    for (const order of openNow) expect(order.creation_date > '2026-01-15T11:25:00').toBe(true);
    for (const before of open) {
      const after = POSOrderItem.parse((await get(`/orders/${before.id}`)).body);
      expect(after.closing_date).not.toBeNull();
      expect(after.closing_date?.slice(0, 10)).toBe('2026-01-15');
      expect(sum(after.payments.map((p) => p.total))).toBe(after.total);
      expect(after.payments[0]?.status).toBe('Completed');
    }
    // The day's sales: the morning's, the orders that were open, and those placed and closed since.
    const since = (await all('/orders?date_from=2026-01-15&date_to=2026-01-15')).filter(
      (o) => o.creation_date > '2026-01-15T09:00:00' && o.closing_date !== null,
    );
    expect(since.length).toBeGreaterThan(0);
    const sales = (await get('/sales?date_from=2026-01-15&date_to=2026-01-15')).body;
    expect(sales.total).toBeCloseTo(
      sum([salesBefore, ...open.map((o) => o.total), ...since.map((o) => o.total)]),
      2,
    );
    const payloads = await announced();
    expect(payloads.map((p) => p.order_id).sort()).toEqual([...open, ...since].map((o) => o.id).sort());
    expect(payloads[0]).toMatchObject({
      event: 'pos.order.completed',
      consumerid: consumerId,
      integrationid: 9012,
      currency: 'EUR',
    });
  });

  it('announces the orders of a connection no client read, as the clock passes them', async () => {
    await subscribe();
    await call(s.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: 6 * 3600 } });
    token = await sandboxToken(s);
    // No write changed a dataset: the world keeps none (those the move built are a cache).
    expect(s.app.services.store.generatedKeys('pos_datasets')).toEqual([]);
    const ids = async () => (await announced()).map((p) => p.order_id as string).sort();
    // Each order closed since the history's end is announced once, read or not: at the move, those
    // that closed before it; then, as the clock goes on, the others.
    const first = await ids();
    // Only orders placed in the last hour and a half (in progress at 15:00) are open.
    const openNow = await all('/orders?state=open');
    for (const order of openNow) expect(order.creation_date > '2026-01-15T13:25:00').toBe(true);
    const closedSince = async () =>
      (await all('/orders?date_from=2026-01-15&date_to=2026-01-15'))
        .filter((o) => o.closing_date !== null && o.closing_date > '2026-01-15T09:00:00.000Z')
        .map((o) => o.id)
        .sort();
    expect(first.length).toBeGreaterThanOrEqual(2);
    expect(first).toEqual(await closedSince());
    await call(s.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: 3600 } });
    token = await sandboxToken(s);
    const later = await ids();
    expect(later.length).toBeGreaterThan(first.length);
    expect(later).toEqual(await closedSince());
    expect(new Set(later).size).toBe(later.length);
  });
});

describe('pos: the dataset', () => {
  it('is built on first use, the same for the same seed, and removed with its consumer', async () => {
    const world = s.app.services.store.world;
    expect(Object.keys(world.pos_datasets)).toEqual([]);
    const first = await all('/orders?date_from=2026-01-01&date_to=2026-01-03');
    expect(Object.keys(world.pos_datasets)).toHaveLength(1);
    const other = sandbox();
    const otherToken = await sandboxToken(other);
    const again = await call(
      other.app,
      'GET',
      `${base(consumerId)}/orders?date_from=2026-01-01&date_to=2026-01-03&size=100`,
      {
        token: otherToken,
      },
    );
    expect(again.body.items).toEqual(first);
    const deleted = await call(s.app, 'DELETE', `/consumers/${consumerId}`, { token });
    expect(deleted.status).toBe(204);
    expect(Object.keys(world.pos_datasets)).toEqual([]);
  });

  it('another seed gives other data', async () => {
    const other = sandbox({ seed: 99 });
    const otherToken = await sandboxToken(other);
    const consumer = other.ids.verticalConsumers.POS as string;
    const theirs: CallResult = await call(other.app, 'GET', `${base(consumer)}/locations`, {
      token: otherToken,
    });
    const ours = await get('/locations');
    expect(theirs.body.items[0].id).not.toBe(ours.body.items[0].id);
  });
});
