import { beforeEach, describe, expect, it } from 'vitest';
import { errors, serviceError } from '../../../src/lib/errors.js';
import {
  PMSClosureItem,
  PMSCustomerItem,
  ServicePage_PMSAccountingCategoryItem_,
  ServicePage_PMSAccountingTransactionItem_,
  ServicePage_PMSCustomerItem_,
  ServicePage_PMSInvoiceFullItem_,
  ServicePage_PMSLocationItem_,
  ServicePage_PMSOrderItem_,
  ServicePage_PMSPaymentItem_,
  ServicePage_PMSPaymentMethods_,
  ServicePage_PMSTaxRateItem_,
} from '../../../src/modules/pms/api/pms.schemas.js';
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
 * The Property Management System vertical through HTTP (read only): the connection rules, every
 * operation, the period and location filters, paging, and the amounts: a stay's lines add up, its
 * invoice bills them and is paid in full, closures sum the day's invoices, and the accounting
 * transactions of an invoice balance to zero.
 */

let s: TestSandbox;
let token: string;
let consumerId: string;

const base = (consumer: string) => `/consumers/${consumer}/pms`;
const get = (path: string, options: CallOptions = {}, consumer = consumerId) =>
  call(s.app, 'GET', `${base(consumer)}${path}`, { token, ...options });

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
const PERIOD = 'date_from=2025-12-01&date_to=2025-12-31';

beforeEach(async () => {
  s = sandbox();
  token = await sandboxToken(s);
  consumerId = s.ids.verticalConsumers.PMS as string;
});

const READS = [
  `/orders?${PERIOD}`,
  `/invoices?${PERIOD}`,
  '/customers',
  '/customers/x',
  '/locations',
  `/payments?${PERIOD}`,
  '/payment-methods',
  '/accounting-categories',
  '/closures/2025-12-01',
  '/taxes',
  `/accounting-transactions?${PERIOD}`,
];

describe('pms: the connection', () => {
  it.each(READS)(
    'GET %s: 404 for an unknown consumer, 400 without a PMS connection, 401 from the other environment',
    async (path) => {
      expectError(await get(path, {}, '00000000-0000-4000-8000-000000000000'), errors.consumerNotFound());
      const other = await get(path, {}, s.ids.verticalConsumers.ECOMMERCE as string);
      expectError(other, failure);
      expect(other.body.detail).toBe(
        'The consumer has no active connection to a Property Management System integration',
      );
      const production = await sandboxToken({ ...s, ids: { ...s.ids, sandbox: s.ids.production } });
      expectError(await get(path, { token: production }), errors.wrongEnvironment());
    },
  );

  it.each(['/orders', '/invoices', '/payments', '/accounting-transactions'])(
    'GET %s needs date_from and date_to; a date_to before the date_from matches nothing',
    async (path) => {
      expectValidation(await get(path), ['query', 'date_from'], 'missing');
      expectValidation(await get(`${path}?date_from=2025-12-01`), ['query', 'date_to'], 'missing');
      const backwards = await get(`${path}?date_from=2025-12-31&date_to=2025-12-01`);
      expect(backwards.status, backwards.text).toBe(200);
      expect(backwards.body).toMatchObject({ items: [], total: 0 });
    },
  );
});

describe('pms: reference data and customers', () => {
  it('lists hotels, taxes (with the city tax), accounting categories and payment methods', async () => {
    const locations = ServicePage_PMSLocationItem_.parse((await get('/locations')).body);
    expect(locations.total).toBe(2);
    const taxes = ServicePage_PMSTaxRateItem_.parse((await get('/taxes')).body);
    expect(taxes.items.filter((t) => t.is_city_tax)).toEqual([expect.objectContaining({ rate: null })]);
    const categories = ServicePage_PMSAccountingCategoryItem_.parse(
      (await get('/accounting-categories')).body,
    );
    expect(categories.items.map((c) => c.code)).toContain('ROOM');
    const methods = ServicePage_PMSPaymentMethods_.parse((await get('/payment-methods')).body);
    const second = locations.items[1]?.id as string;
    const atSecond = ServicePage_PMSPaymentMethods_.parse(
      (await get(`/payment-methods?location_id=${second}`)).body,
    );
    expect(atSecond.total).toBe(methods.total - 1);
    // Thais's French hotels take cash (espèces) at the first only.
    expect(methods.items.map((m) => m.name)).toContain('Espèces');
    expect(atSecond.items.map((m) => m.name)).not.toContain('Espèces');
    expect((await get('/payment-methods?location_id=nowhere')).body).toMatchObject({ items: [], total: 0 });
  });

  it('lists, filters and reads customers; 404 for a missing one', async () => {
    const page = ServicePage_PMSCustomerItem_.parse((await get('/customers?size=100')).body);
    expect(page.total).toBe(60);
    expect(page.items.some((c) => c.is_company && c.company_name)).toBe(true);
    const someone = page.items.find((c) => c.email && c.phone && !c.is_company);
    expect(
      (await all(`/customers?email=${encodeURIComponent(String(someone?.email).toUpperCase())}`)).map(
        (c) => c.id,
      ),
    ).toEqual([someone?.id]);
    expect(
      (await all(`/customers?phone=${encodeURIComponent(String(someone?.phone))}`)).map((c) => c.id),
    ).toContain(someone?.id);
    const search = await all(`/customers?search=${encodeURIComponent(String(someone?.last_name))}`);
    expect(search.map((c) => c.id)).toContain(someone?.id);
    expect(search.length).toBeLessThan(page.total);
    expect(PMSCustomerItem.parse((await get(`/customers/${someone?.id}`)).body)).toEqual(someone);
    const missing = await get('/customers/nobody');
    expectError(missing, serviceError('posCustomerNotFound'));
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({
      message: 'The customer could not be found',
      error_code: 'ERROR_CUSTOMER_NOT_FOUND',
    });
  });
});

describe('pms: stays, invoices and payments', () => {
  it('a stay adds up and its invoice bills it, paid in full', async () => {
    const orders = ServicePage_PMSOrderItem_.parse((await get(`/orders?${PERIOD}&size=100`)).body);
    expect(orders.total).toBeGreaterThan(20);
    const invoices = new Map(
      (await all('/invoices?date_from=2025-11-01&date_to=2026-01-15')).map((i) => [i.id, i]),
    );
    for (const order of orders.items) {
      expect(order.total).toBe(sum(order.items.map((l) => l.total)));
      expect(order.tax_amount).toBe(sum(order.items.map((l) => l.tax_amount)));
      expect(
        (order.service_date?.slice(0, 10) ?? '') >= '2025-12-01' &&
          (order.service_date?.slice(0, 10) ?? '') <= '2025-12-31',
      ).toBe(true);
      expect(order.reservation?.resource_name).toBeTruthy();
      for (const bill of order.bills ?? []) {
        const invoice = invoices.get(bill.id);
        expect(invoice, `invoice ${bill.id} of stay ${order.id}`).toBeDefined();
        expect(invoice.total).toBe(order.total);
        expect(invoice.items).toEqual(order.items);
        expect(sum(invoice.payments.map((p: { total: number }) => p.total))).toBe(invoice.total);
        expect(invoice.total).toBe(sum([invoice.untaxed_amount, invoice.tax_amount]));
      }
    }
  });

  it('consumed lists the check-ins of the period, closed the check-outs; location filters', async () => {
    const consumed = await all('/orders?date_from=2026-01-10&date_to=2026-01-14');
    expect(consumed.every((o) => o.service_date >= '2026-01-10' && o.service_date < '2026-01-15')).toBe(true);
    const closed = await all('/orders?date_from=2026-01-10&date_to=2026-01-14&state=closed');
    expect(closed.every((o) => o.closing_date >= '2026-01-10' && o.closing_date < '2026-01-15')).toBe(true);
    expect(closed.map((o) => o.id)).not.toEqual(consumed.map((o) => o.id));
    const running = consumed.filter((o) => o.closing_date === null);
    expect(running.length).toBeGreaterThan(0);
    expect(running.every((o) => o.bills.length === 0)).toBe(true);
    const [hotel] = (await get('/locations')).body.items as { id: string }[];
    const here = await all(`/orders?date_from=2026-01-10&date_to=2026-01-14&location_id=${hotel?.id}`);
    expect(here.length).toBeGreaterThan(0);
    expect(here.every((o) => o.location_id === hotel?.id)).toBe(true);
    expect(here.length).toBeLessThan(consumed.length);
    const nowhere = await get('/orders?date_from=2026-01-10&date_to=2026-01-14&location_id=nowhere');
    expect(nowhere.status, nowhere.text).toBe(200);
    expect(nowhere.body).toMatchObject({ items: [], total: 0 });
    const closure = await get('/closures/2026-01-10?location_id=nowhere');
    expect(closure.body).toEqual({ date: '2026-01-10', status: 'closed', closures: [] });
    expectValidation(await get('/orders?date_from=2026-01-10&date_to=2026-01-14&state=open'), [
      'query',
      'state',
    ]);
  });

  it('lists invoices and payments of a period; payments point at existing invoices and customers', async () => {
    const invoices = ServicePage_PMSInvoiceFullItem_.parse(
      (await get('/invoices?date_from=2026-01-05&date_to=2026-01-11&size=100')).body,
    );
    expect(invoices.total).toBeGreaterThan(0);
    expect(
      invoices.items.every(
        (i) => (i.creation_date ?? '') >= '2026-01-05' && (i.creation_date ?? '') < '2026-01-12',
      ),
    ).toBe(true);
    const payments = ServicePage_PMSPaymentItem_.parse(
      (await get('/payments?date_from=2026-01-05&date_to=2026-01-11&size=100')).body,
    );
    expect(sum(payments.items.map((p) => p.total))).toBe(sum(invoices.items.map((i) => i.total)));
    const numbers = new Set(invoices.items.map((i) => i.invoice_number));
    const customers = new Set((await all('/customers')).map((c) => c.id));
    for (const payment of payments.items) {
      expect(numbers.has(payment.invoice_ref as string)).toBe(true);
      expect(customers.has(payment.partner_id?.id as string)).toBe(true);
    }
    for (const invoice of invoices.items) {
      expect(customers.has(invoice.partners?.[0]?.id as string)).toBe(true);
    }
    const [hotel] = (await get('/locations')).body.items as { id: string }[];
    const here = await all(`/invoices?date_from=2026-01-05&date_to=2026-01-11&location_id=${hotel?.id}`);
    expect(here.length).toBeLessThan(invoices.total);
  });

  it('pages with page and size bounds', async () => {
    for (const query of ['page=0', 'size=0', 'size=101']) {
      expectValidation(await get(`/orders?${PERIOD}&${query}`), ['query', query.split('=')[0] as string]);
    }
    const first = await get(`/orders?${PERIOD}&size=5`);
    const second = await get(`/orders?${PERIOD}&size=5&page=2`);
    expect(first.body.items).toHaveLength(5);
    expect(second.body.items[0].id).not.toBe(first.body.items[0].id);
    expect(second.body.total).toBe(first.body.total);
  });
});

describe('pms: closures and accounting', () => {
  it('a past day is closed, with the invoices of each hotel; today is open', async () => {
    const day = '2026-01-11';
    const closure = PMSClosureItem.parse((await get(`/closures/${day}`)).body);
    expect(closure.status).toBe('closed');
    const invoices = await all(`/invoices?date_from=${day}&date_to=${day}`);
    expect(sum((closure.closures ?? []).map((c) => c.total))).toBe(sum(invoices.map((i) => i.total)));
    for (const c of closure.closures ?? []) {
      expect(sum((c.payments ?? []).map((p) => p.total))).toBe(c.total);
      expect(sum((c.taxes ?? []).map((t) => t.tax_amount))).toBe(c.tax_amount);
    }
    const [hotel] = (await get('/locations')).body.items as { id: string }[];
    const one = PMSClosureItem.parse((await get(`/closures/${day}?location_id=${hotel?.id}`)).body);
    expect(one.closures).toHaveLength(1);
    expect(PMSClosureItem.parse((await get('/closures/2026-01-15')).body)).toEqual({
      date: '2026-01-15',
      status: 'open',
      closures: [],
    });
    expectValidation(await get('/closures/yesterday'), ['path', 'date']);
  });

  it('accounting transactions: each invoice balances to zero, running stays are drafts', async () => {
    const page = ServicePage_PMSAccountingTransactionItem_.parse(
      (await get('/accounting-transactions?date_from=2026-01-10&date_to=2026-01-14&size=100')).body,
    );
    expect(page.total).toBeGreaterThan(0);
    const lines = await all('/accounting-transactions?date_from=2026-01-10&date_to=2026-01-14');
    const groups = new Map<string, typeof lines>();
    for (const line of lines) groups.set(line.group_id, [...(groups.get(line.group_id) ?? []), line]);
    const invoices = new Map(
      (await all('/invoices?date_from=2026-01-10&date_to=2026-01-14')).map((i) => [i.id, i]),
    );
    let drafts = 0;
    for (const [group, mine] of groups) {
      if (mine[0].status === 'posted') {
        expect(sum(mine.map((l) => l.amount)), `group ${group}`).toBe(0);
        const invoice = invoices.get(group);
        expect(sum(mine.filter((l) => l.transaction_type !== 'payment').map((l) => l.amount))).toBe(
          invoice.total,
        );
        expect(sum(mine.filter((l) => l.is_tax_line).map((l) => l.amount))).toBe(invoice.tax_amount);
      } else {
        drafts++;
        expect(mine.every((l) => l.origin.type === 'order' && l.transaction_type !== 'payment')).toBe(true);
      }
    }
    expect(groups.size).toBeGreaterThan(invoices.size);
    expect(drafts).toBeGreaterThan(0);
  });
});

describe('pms: the dataset', () => {
  it('is built once, deterministically, and goes with its connection', async () => {
    const first = await all(`/orders?${PERIOD}`);
    const other = sandbox();
    const res = await call(other.app, 'GET', `${base(consumerId)}/orders?${PERIOD}&size=100`, {
      token: await sandboxToken(other),
    });
    expect(res.body.items).toEqual(first.slice(0, 100));
    const world = s.app.services.store.world;
    expect(Object.keys(world.pms_datasets)).toHaveLength(1);
    const connection = Object.values(world.connections).find((c) => c.consumerid === consumerId);
    const deleted = await call(
      s.app,
      'DELETE',
      `/consumers/${consumerId}/connections/${connection?.connectionid}`,
      { token },
    );
    expect(deleted.status).toBe(204);
    expect(Object.keys(world.pms_datasets)).toEqual([]);
  });
});
