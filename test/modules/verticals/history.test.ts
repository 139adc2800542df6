import { describe, expect, it } from 'vitest';
import { manualClock } from '../../../src/lib/clock.js';
import * as bankingRoutes from '../../../src/modules/banking/api/banking.routes.js';
import * as commerceClientRoutes from '../../../src/modules/commerce/api/commerce.client-routes.js';
import * as commerceRoutes from '../../../src/modules/commerce/api/commerce.routes.js';
import * as invoicingRoutes from '../../../src/modules/invoicing/api/invoicing.routes.js';
import * as paymentRoutes from '../../../src/modules/payment/api/payment.routes.js';
import * as pmsRoutes from '../../../src/modules/pms/api/pms.routes.js';
import * as posRoutes from '../../../src/modules/pos/api/pos.routes.js';
import { type CallResult, call, sandbox, sandboxToken, type TestSandbox } from '../../helpers.js';

/**
 * The seeded worlds of the Point of Sale, Property Management, eCommerce, Invoicing, Banking and
 * Payment verticals have a history: records in every month from January 2021 up to the clock's day
 * when the dataset is first used, sparse in the older months, dense in the recent ones. Date filters
 * of past years find data, a clock set in the future moves the history along, and every list of the
 * default consumers has something to show.
 */

// biome-ignore lint/suspicious/noExplicitAny: list items are read field by field
type Item = any;

interface Bound {
  s: TestSandbox;
  token: string;
  consumerId: string;
  segment: string;
  get(path: string): Promise<CallResult>;
  /** Every item of a list, page after page. */
  all(path: string): Promise<Item[]>;
}

async function bind(segment: string, env: string, s: TestSandbox = sandbox()): Promise<Bound> {
  const token = await sandboxToken(s);
  const consumerId = s.ids.verticalConsumers[env] as string;
  const get = (path: string) => call(s.app, 'GET', `/consumers/${consumerId}/${segment}${path}`, { token });
  return {
    s,
    token,
    consumerId,
    segment,
    get,
    all: async (path) => {
      const out: Item[] = [];
      const sep = path.includes('?') ? '&' : '?';
      for (let page = 1; ; page++) {
        const res = await get(`${path}${sep}page=${page}&size=100`);
        expect(res.status, `${path}: ${res.text.slice(0, 300)}`).toBe(200);
        out.push(...res.body.items);
        if (page * 100 >= res.body.total) return out;
      }
    },
  };
}

/** The months (YYYY-MM) from January 2021 to the month of `day`. */
function monthsUpTo(day: string): string[] {
  const out: string[] = [];
  for (let year = 2021; year <= Number(day.slice(0, 4)); year++) {
    for (let month = 1; month <= 12; month++) {
      const key = `${year}-${String(month).padStart(2, '0')}`;
      if (key <= day.slice(0, 7)) out.push(key);
    }
  }
  return out;
}

/**
 * One vertical: its main dated list (a period's path, the date of an item), and the period-taking
 * lists that must find data in any month of the history.
 */
interface Vertical {
  segment: string;
  env: string;
  /** The main dated list over a period, and the date (ISO) an item is filed under. */
  main(v: Bound, from: string, to: string): Promise<Item[]>;
  dateOf(item: Item): string;
  /** Every list that takes a period, as a path for one. */
  periodLists(v: Bound, from: string, to: string): Promise<string[]>;
}

async function firstAccount(v: Bound): Promise<string> {
  return (await v.get('/accounts')).body.items[0].id;
}

async function firstBankAccount(v: Bound): Promise<string> {
  return (await v.get('/bank-accounts')).body.items[0].id;
}

const VERTICALS: Vertical[] = [
  {
    segment: 'pos',
    env: 'POS',
    main: (v, from, to) => v.all(`/orders?date_from=${from}&date_to=${to}`),
    dateOf: (o) => o.creation_date,
    periodLists: async (_v, from, to) => [
      `/orders?date_from=${from}&date_to=${to}`,
      `/payments?date_from=${from}&date_to=${to}`,
      `/objectives?date_from=${from}&date_to=${to}`,
    ],
  },
  {
    segment: 'pms',
    env: 'PMS',
    main: (v, from, to) => v.all(`/orders?date_from=${from}&date_to=${to}`),
    dateOf: (o) => o.service_date,
    periodLists: async (_v, from, to) => [
      `/orders?date_from=${from}&date_to=${to}`,
      `/orders?date_from=${from}&date_to=${to}&state=closed`,
      `/invoices?date_from=${from}&date_to=${to}`,
      `/payments?date_from=${from}&date_to=${to}`,
      `/accounting-transactions?date_from=${from}&date_to=${to}`,
    ],
  },
  {
    segment: 'commerce',
    env: 'ECOMMERCE',
    main: (v, from, to) => v.all(`/orders?date_from=${from}&date_to=${to}`),
    dateOf: (o) => o.created_on,
    periodLists: async (_v, from, to) => [`/orders?date_from=${from}&date_to=${to}`],
  },
  {
    segment: 'invoicing',
    env: 'INVOICING',
    main: (v, from, to) => v.all(`/invoices?date_from=${from}&date_to=${to}`),
    dateOf: (i) => i.invoice_date,
    periodLists: async (v, from, to) => [
      `/invoices?date_from=${from}&date_to=${to}`,
      `/invoices?date_from=${from}&date_to=${to}&invoice_type=customer_invoice`,
      `/payments?date_from=${from}&date_to=${to}`,
      `/bank-transactions?bank_account_id=${await firstBankAccount(v)}&date_from=${from}&date_to=${to}`,
    ],
  },
  {
    segment: 'banking',
    env: 'BANKING',
    main: async (v, from, to) =>
      v.all(`/transactions?account_id=${await firstAccount(v)}&date_from=${from}&date_to=${to}`),
    dateOf: (t) => t.value_date,
    periodLists: async (v, from, to) => [
      `/transactions?account_id=${await firstAccount(v)}&date_from=${from}&date_to=${to}`,
      `/transactions?account_id=${await firstAccount(v)}&date_from=${from}&date_to=${to}&date_type=execution_date`,
      `/counterparts?date_from=${from}&date_to=${to}`,
    ],
  },
  {
    segment: 'payment',
    env: 'PAYMENT',
    main: (v, from, to) => v.all(`/payments?date_from=${from}&date_to=${to}`),
    dateOf: (p) => p.payment_date,
    periodLists: async (_v, from, to) => [
      `/payments?date_from=${from}&date_to=${to}`,
      `/transactions?date_from=${from}&date_to=${to}`,
      `/refunds?date_from=${from}&date_to=${to}`,
      `/payouts?date_from=${from}&date_to=${to}`,
    ],
  },
];

describe.each(VERTICALS)('history of $segment', (vertical) => {
  it('date filters of past years find data: December 2022, early 2023', async () => {
    const v = await bind(vertical.segment, vertical.env);
    for (const [from, to] of [
      ['2022-12-01', '2022-12-31'],
      ['2023-01-01', '2023-02-28'],
    ] as const) {
      for (const path of await vertical.periodLists(v, from, to)) {
        const items = await v.all(path);
        expect(items.length, `${vertical.segment}${path}`).toBeGreaterThan(0);
      }
      const main = await vertical.main(v, from, to);
      expect(main.every((item) => vertical.dateOf(item).slice(0, 10) >= from)).toBe(true);
      expect(main.every((item) => vertical.dateOf(item).slice(0, 10) <= to)).toBe(true);
    }
  });

  it('holds records in every month from January 2021 to the clock’s, dense in the last ones', async () => {
    const v = await bind(vertical.segment, vertical.env);
    const today = v.s.app.services.clock.now().toISOString().slice(0, 10);
    const items = await vertical.main(v, '2021-01-01', today);
    const perMonth = new Map<string, number>();
    for (const item of items) {
      const month = vertical.dateOf(item).slice(0, 7);
      perMonth.set(month, (perMonth.get(month) ?? 0) + 1);
    }
    const months = monthsUpTo(today);
    expect(months.filter((m) => !perMonth.has(m))).toEqual([]);
    expect([...perMonth.keys()].every((m) => m >= '2021-01' && m <= today.slice(0, 7))).toBe(true);
    // The older months are sparse, the last ones busier.
    const mean = (some: string[]) => some.reduce((t, m) => t + (perMonth.get(m) ?? 0), 0) / some.length;
    expect(mean(months.slice(-7, -1))).toBeGreaterThan(mean(months.slice(0, 12)));
    expect(items.every((item) => vertical.dateOf(item).slice(0, 10) <= today)).toBe(true);
  });

  it('follows a clock set in 2027 before its first use: data in 2027, nothing after the clock', async () => {
    const s = sandbox({ clock: manualClock(new Date('2027-03-01T09:00:00Z')) });
    const v = await bind(vertical.segment, vertical.env, s);
    const items = await vertical.main(v, '2027-01-01', '2027-03-01');
    expect(items.length).toBeGreaterThan(0);
    for (const month of ['2027-01', '2027-02']) {
      expect(
        items.some((item) => vertical.dateOf(item).startsWith(month)),
        month,
      ).toBe(true);
    }
    const later = await vertical.main(v, '2027-03-02', '2027-12-31');
    expect(later).toEqual([]);
    // The history still reaches back to 2021.
    expect((await vertical.main(v, '2021-01-01', '2021-01-31')).length).toBeGreaterThan(0);
  });
});

/**
 * The list operations of a vertical (GET routes of the published document, and those of the
 * official clients), keyed by the path after the vertical's segment.
 */
function listPaths(...modules: Record<string, unknown>[]): string[] {
  const paths = new Set<string>();
  for (const module of modules) {
    for (const route of Object.values(module)) {
      const r = route as { method?: string; path?: string };
      if (r?.method !== 'get' || typeof r.path !== 'string') continue;
      const rest = r.path.replace(/^\/consumers\/\{consumer_id\}\/[a-z]+/, '');
      // A single record is read by its id: not a list.
      if (/\{(?!date\})[a-z_]+\}/.test(rest)) continue;
      paths.add(rest);
    }
  }
  return [...paths].sort();
}

/** Checks one answer of a list operation: a page with items, or the object the operation returns. */
type Check = (v: Bound) => Promise<void>;

const page =
  (path: string | ((v: Bound) => Promise<string>)): Check =>
  async (v) => {
    const resolved = typeof path === 'string' ? path : await path(v);
    const res = await v.get(resolved);
    expect(res.status, `${resolved}: ${res.text.slice(0, 300)}`).toBe(200);
    expect(res.body.items.length, resolved).toBeGreaterThan(0);
  };

const RECENT = 'date_from=2026-01-05&date_to=2026-01-11';

const OPERATIONS: { segment: string; env: string; routes: string[]; checks: Record<string, Check> }[] = [
  {
    segment: 'pos',
    env: 'POS',
    routes: listPaths(posRoutes),
    checks: {
      '/accounting-categories': page('/accounting-categories'),
      '/closures/{date}': async (v) => {
        const closure = (await v.get('/closures/2026-01-12')).body;
        expect(closure.status).toBe('closed');
        expect(closure.closures.some((c: Item) => c.total > 0)).toBe(true);
      },
      '/customers': page('/customers'),
      '/locations': page('/locations'),
      '/modifiers': page('/modifiers'),
      '/objectives': page(`/objectives?${RECENT}`),
      '/orders': async (v) => {
        await page('/orders')(v);
        expect((await v.all('/orders?state=open')).length).toBeGreaterThan(0);
        expect((await v.all('/orders?state=closed')).length).toBeGreaterThan(0);
      },
      '/payment-methods': page('/payment-methods'),
      '/payments': page(`/payments?${RECENT}`),
      '/product-categories': page('/product-categories'),
      '/products': page('/products'),
      '/report': async (v) => {
        const report = (await v.get('/report?date=2026-01-12')).body;
        expect(report.orders.length).toBeGreaterThan(0);
        expect(report.payments.length).toBeGreaterThan(0);
      },
      '/sales': async (v) => {
        expect((await v.get(`/sales?${RECENT}`)).body.total).toBeGreaterThan(0);
      },
      '/tax-rates': page('/tax-rates'),
    },
  },
  {
    segment: 'pms',
    env: 'PMS',
    routes: listPaths(pmsRoutes),
    checks: {
      '/accounting-categories': page('/accounting-categories'),
      '/accounting-transactions': page(`/accounting-transactions?${RECENT}`),
      '/closures/{date}': async (v) => {
        const closure = (await v.get('/closures/2026-01-12')).body;
        expect(closure.status).toBe('closed');
        expect(closure.closures.some((c: Item) => c.total > 0)).toBe(true);
      },
      '/customers': page('/customers'),
      '/invoices': page(`/invoices?${RECENT}`),
      '/locations': page('/locations'),
      '/orders': async (v) => {
        await page(`/orders?${RECENT}`)(v);
        await page(`/orders?${RECENT}&state=closed`)(v);
      },
      '/payment-methods': page('/payment-methods'),
      '/payments': page(`/payments?${RECENT}`),
      '/taxes': page('/taxes'),
    },
  },
  {
    segment: 'commerce',
    env: 'ECOMMERCE',
    routes: listPaths(commerceRoutes, commerceClientRoutes),
    checks: {
      '/countries': page('/countries'),
      '/customers': page('/customers'),
      '/locations': page('/locations'),
      '/orders': async (v) => {
        const orders = await v.all('/orders?include_detailed_refunds=true');
        expect(orders.length).toBeGreaterThan(0);
        // Refunds come with their orders.
        expect(orders.some((o) => (o.detailed_refunds ?? []).length > 0)).toBe(true);
      },
      '/payment-methods': page('/payment-methods'),
      '/product-categories': page('/product-categories'),
      '/products': page('/products'),
      '/taxes': page('/taxes'),
      '/variants': page('/variants'),
    },
  },
  {
    segment: 'invoicing',
    env: 'INVOICING',
    routes: listPaths(invoicingRoutes),
    checks: {
      '/bank-accounts': page('/bank-accounts'),
      '/bank-transactions': page(
        async (v) => `/bank-transactions?bank_account_id=${await firstBankAccount(v)}`,
      ),
      '/contacts': page('/contacts'),
      '/invoices': async (v) => {
        for (const type of ['customer_invoice', 'customer_refund', 'supplier_invoice', 'supplier_refund']) {
          await page(`/invoices?invoice_type=${type}`)(v);
        }
      },
      '/opportunities': page('/opportunities'),
      '/payment-methods': page('/payment-methods'),
      '/payments': page('/payments'),
      '/products': page('/products'),
      '/taxes': page('/taxes'),
    },
  },
  {
    segment: 'banking',
    env: 'BANKING',
    routes: listPaths(bankingRoutes),
    checks: {
      '/accounts': page('/accounts'),
      '/attachments': async (v) => {
        const transactions = await v.all(`/transactions?account_id=${await firstAccount(v)}`);
        const receipt = transactions.find((t) => t.attachments_info?.status === 'yes');
        await page(`/attachments?transaction_id=${receipt?.id}`)(v);
      },
      '/counterparts': page('/counterparts'),
      '/financial-institutions': page('/financial-institutions'),
      '/opening-balance': async (v) => {
        const res = await v.get(`/opening-balance?account_id=${await firstAccount(v)}&date=2023-01-01`);
        expect(res.status, res.text).toBe(200);
        expect(typeof res.body.opening_balance).toBe('number');
      },
      '/transactions': page(async (v) => `/transactions?account_id=${await firstAccount(v)}`),
    },
  },
  {
    segment: 'payment',
    env: 'PAYMENT',
    routes: listPaths(paymentRoutes),
    checks: {
      '/balances': page('/balances'),
      '/locations': page('/locations'),
      '/payments': page('/payments'),
      '/payouts': page('/payouts'),
      '/refunds': page('/refunds'),
      '/transactions': page('/transactions'),
    },
  },
];

describe.each(OPERATIONS)('every list of the default $segment consumer returns data', (vertical) => {
  it('covers every list operation of the routes', () => {
    expect(Object.keys(vertical.checks).sort()).toEqual(vertical.routes);
  });

  it.each(Object.keys(vertical.checks))('%s', async (path) => {
    const v = await bind(vertical.segment, vertical.env);
    await vertical.checks[path]?.(v);
  });
});

describe('the history of a dataset', () => {
  it('is the same for the same seed and clock, in another app', async () => {
    const paths = ['/orders?date_from=2022-12-01&date_to=2022-12-31'];
    const first = await bind('pos', 'POS');
    const second = await bind('pos', 'POS');
    for (const path of paths) expect((await second.get(path)).body).toEqual((await first.get(path)).body);
  });

  it('is sparse before the recent window and dense in it', async () => {
    const v = await bind('pos', 'POS');
    const october = await v.all('/orders?date_from=2025-10-01&date_to=2025-10-31');
    const december = await v.all('/orders?date_from=2025-12-01&date_to=2025-12-31');
    expect(october.length).toBeGreaterThan(0);
    expect(december.length).toBeGreaterThan(october.length * 5);
  });
});
