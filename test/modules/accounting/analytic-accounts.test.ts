import { beforeEach, describe, expect, it } from 'vitest';
import { type ApiError, errors, serviceError } from '../../../src/lib/errors.js';
import {
  AnalyticAccountItemOut,
  AnalyticAccountItemOutMultiAnalyticPlans,
  ServicePage_AnalyticAccountItemOut_,
  ServicePage_AnalyticAccountItemOutMultiAnalyticPlans_,
} from '../../../src/modules/accounting/api/analytic-accounts.schemas.js';
import { expectError, expectValidation } from '../../helpers.js';
import {
  type AccountingSandbox,
  accountingSandbox,
  all,
  forConsumer,
  invoiceBody,
  line,
  type Reference,
  referenceOf,
} from './helpers.js';

/**
 * Analytic accounts, single-plan and Multiple Analytic Plans: listed with figures computed from the
 * analytic distributions of the posted lines, created in a plan, read and updated.
 */

let a: AccountingSandbox;
let ref: Reference;

beforeEach(async () => {
  a = await accountingSandbox();
  ref = await referenceOf(a);
});

const failure = errors.accountingFailure('');
const notFound = serviceError('analyticAccountNotFound');

const ledgerOf = async (s: AccountingSandbox) =>
  s.app.services.store.world.accounting_ledgers[`${s.consumerId}:${(await s.get('/folders')).body[0].id}`];

const departments = () => ref.plans.find((p) => p.name === 'Departments')?.id as string;
const projects = () => ref.plans.find((p) => p.name === 'Projects')?.id as string;

describe('accounting analytic accounts: reading', () => {
  it('lists every account of every plan, with and without its plan, by plan then code', async () => {
    const mono = ServicePage_AnalyticAccountItemOut_.parse((await a.get('/analytic-accounts')).body);
    const multi = ServicePage_AnalyticAccountItemOutMultiAnalyticPlans_.parse(
      (await a.get('/analytic-accounts/multi-analytic-plans')).body,
    );
    expect(mono.total).toBe(7);
    expect(multi.total).toBe(7);
    expect(mono.items.map((x) => x.id)).toEqual(multi.items.map((x) => x.id));
    expect(mono.items[0]).not.toHaveProperty('analytic_plan');
    expect(multi.items.map((x) => x.code)).toEqual([
      'ADMIN',
      'OPS',
      'SALES',
      'PRJ-099',
      'PRJ-101',
      'PRJ-102',
      'PRJ-103',
    ]);
    expect(multi.items.slice(0, 3).every((x) => x.analytic_plan === departments())).toBe(true);
    expect(multi.items.find((x) => x.code === 'PRJ-099')).toMatchObject({ active: false });
  });

  it('computes debit, credit and balance from the distributions of the posted lines', async () => {
    const ledger = await ledgerOf(a);
    // What the seeded history gives each department, computed independently from the entries.
    const expected = new Map<string, { d: number; c: number }>();
    for (const entry of Object.values(ledger?.entries ?? {})) {
      if (!entry.posted) continue;
      for (const l of entry.lines)
        for (const dist of l.analytic_distribution)
          for (const part of dist.analytic_accounts) {
            const t = expected.get(part.analytic_account) ?? { d: 0, c: 0 };
            const share = (amount: number) =>
              Math.round((Math.round(amount * entry.currency_exchange_rate * 100) * part.percentage) / 100);
            t.d += share(l.debit);
            t.c += share(l.credit);
            expected.set(part.analytic_account, t);
          }
    }
    expect(expected.size).toBeGreaterThan(0);
    const listed = await all(a, '/analytic-accounts/multi-analytic-plans');
    for (const account of listed) {
      const t = expected.get(account.id) ?? { d: 0, c: 0 };
      expect(Math.round(account.debit * 100), account.code).toBe(t.d);
      expect(Math.round(account.credit * 100), account.code).toBe(t.c);
      expect(Math.round(account.balance * 100)).toBe(
        Math.round(account.debit * 100) - Math.round(account.credit * 100),
      );
    }
  });

  it('moves the figures of the accounts an invoice distributes over, and only when posted', async () => {
    const analyticId = (code: string) => ref.analytic.find((x) => x.code === code)?.id as string;
    const sales = analyticId('SALES');
    const ops = analyticId('OPS');
    const project = ref.analytic.find((x) => x.code === 'PRJ-101')?.id as string;
    const before = new Map((await all(a, '/analytic-accounts/multi-analytic-plans')).map((x) => [x.id, x]));
    const l = line(ref, { quantity: 1, unit_price: 1000, vat: 'V21' });
    const distribution = [
      {
        analytic_plan: departments(),
        analytic_accounts: [
          { analytic_account: sales, percentage: 60 },
          { analytic_account: ops, percentage: 40 },
        ],
      },
      { analytic_plan: projects(), analytic_accounts: [{ analytic_account: project, percentage: 100 }] },
    ];
    const { analytic_account: _none, ...plain } = l as typeof l & { analytic_account?: string };
    const body = invoiceBody(ref, 'customer_invoice', [
      { ...plain, analytic_distribution: distribution },
    ] as never);
    const draft = await a.post('/invoices/multi-analytic-plans', { ...body, status: 'draft' });
    expect(draft.status, draft.text).toBe(200);
    const unchanged = await a.get(`/analytic-accounts/${sales}`);
    expect(unchanged.body.credit).toBe(before.get(sales)?.credit);
    const posted = await a.post('/invoices/multi-analytic-plans', { ...body, invoice_number: 'AN-1' });
    expect(posted.status, posted.text).toBe(200);
    const figuresOf = async (id: string) =>
      AnalyticAccountItemOut.parse((await a.get(`/analytic-accounts/${id}`)).body);
    expect((await figuresOf(sales)).credit).toBeCloseTo((before.get(sales)?.credit ?? 0) + 600, 2);
    expect((await figuresOf(ops)).credit).toBeCloseTo((before.get(ops)?.credit ?? 0) + 400, 2);
    expect((await figuresOf(project)).credit).toBeCloseTo((before.get(project)?.credit ?? 0) + 1000, 2);
    expect((await figuresOf(sales)).balance).toBeCloseTo((before.get(sales)?.balance ?? 0) - 600, 2);
  });

  it('reads one account; the multi-plan read also checks its plan', async () => {
    const sales = ref.analytic.find((x) => x.code === 'SALES')?.id as string;
    const one = await a.get(`/analytic-accounts/${sales}`);
    expect(AnalyticAccountItemOut.parse(one.body)).toMatchObject({ id: sales, code: 'SALES', active: true });
    const inPlan = await a.get(`/analytic-accounts/${sales}/multi-analytic-plans/${departments()}`);
    expect(AnalyticAccountItemOutMultiAnalyticPlans.parse(inPlan.body)).toMatchObject({
      id: sales,
      analytic_plan: departments(),
    });
    expectError(await a.get(`/analytic-accounts/${sales}/multi-analytic-plans/${projects()}`), notFound);
    expectError(await a.get('/analytic-accounts/unknown'), notFound);
    const plan = await a.get('/analytic-accounts/unknown/multi-analytic-plans/unknown');
    expectError(plan, serviceError('analyticPlanNotFound'));
    expect(plan.body.error_code).toBe('ERROR_ANALYTIC_PLAN_NOT_FOUND');
    expect((await a.get('/analytic-accounts/unknown')).body.error_code).toBe(
      'ERROR_ANALYTIC_ACCOUNT_NOT_FOUND',
    );
  });

  it('pages within 1..100 items', async () => {
    const page = await a.get('/analytic-accounts?page=2&size=5');
    expect(page.body).toMatchObject({ total: 7, page: 2, size: 5 });
    expect(page.body.items).toHaveLength(2);
    expect((await a.get('/analytic-accounts/multi-analytic-plans?page=9')).body.items).toEqual([]);
    expectValidation(await a.get('/analytic-accounts?size=101'), ['query', 'size']);
    expectValidation(await a.get('/analytic-accounts/multi-analytic-plans?page=0'), ['query', 'page']);
  });
});

describe('accounting analytic accounts: writing', () => {
  it('creates a single-plan account in the main plan, listed with zero figures and usable at once', async () => {
    const created = await a.post('/analytic-accounts', { code: 'RND', name: 'Research', currency: 'EUR' });
    expect(created.status, created.text).toBe(200);
    expect(AnalyticAccountItemOut.parse(created.body)).toMatchObject({
      code: 'RND',
      active: true,
      debit: 0,
      credit: 0,
      balance: 0,
    });
    const multi = await a.get(`/analytic-accounts/${created.body.id}/multi-analytic-plans/${departments()}`);
    expect(multi.body.analytic_plan).toBe(departments());
    const l = line(ref, { quantity: 2, unit_price: 50, vat: 'V21', analytic_account: created.body.id });
    const invoice = await a.post('/invoices', invoiceBody(ref, 'customer_invoice', [l]));
    expect(invoice.status, invoice.text).toBe(200);
    expect((await a.get(`/analytic-accounts/${created.body.id}`)).body).toMatchObject({
      credit: 100,
      balance: -100,
    });
  });

  it('creates an account in a given plan; codes are unique per plan only', async () => {
    const created = await a.post(`/analytic-accounts/multi-analytic-plans/${projects()}`, {
      code: 'SALES',
      name: 'Sales project',
      currency: 'EUR',
      active: false,
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toMatchObject({ analytic_plan: projects(), code: 'SALES', active: false });
    const listed = await all(a, '/analytic-accounts/multi-analytic-plans');
    expect(listed.filter((x) => x.code === 'SALES')).toHaveLength(2);
  });

  const invalid: [string, () => string, Record<string, unknown>, RegExp, ApiError][] = [
    [
      'a code already used in the plan',
      () => `/analytic-accounts`,
      { code: 'sales', name: 'X', currency: 'EUR' },
      /already exists with the code 'sales'/,
      serviceError('analyticAccountAlreadyExists'),
    ],
    [
      'a code already used in the plan (multiple plans)',
      () => `/analytic-accounts/multi-analytic-plans/${departments()}`,
      { code: 'SALES', name: 'X', currency: 'EUR' },
      /already exists with the code 'SALES'/,
      serviceError('analyticAccountAlreadyExists'),
    ],
    [
      'a currency that is not ISO 4217',
      () => `/analytic-accounts`,
      { code: 'N', name: 'X', currency: 'euro' },
      /not an ISO 4217 code/,
      serviceError('currencyNotFound'),
    ],
    [
      'an unknown plan',
      () => `/analytic-accounts/multi-analytic-plans/nope`,
      { code: 'N', name: 'X', currency: 'EUR' },
      /analytic plan 'nope' does not exist/,
      serviceError('analyticPlanNotFound'),
    ],
  ];
  it.each(invalid)('refuses %s, and writes nothing', async (_case, path, body, detail, error) => {
    const before = (await a.get('/analytic-accounts')).body.total;
    const res = await a.post(path(), body);
    expectError(res, error);
    expect(res.body.error_code).toBe(error.errorCode);
    expect(res.body.detail).toMatch(detail);
    expect((await a.get('/analytic-accounts')).body.total).toBe(before);
  });

  it('takes a code or a name of spaces, as the software does', async () => {
    const res = await a.post('/analytic-accounts', { code: '  ', name: ' ', currency: 'EUR' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ code: '  ', name: ' ' });
  });

  it('refuses a new account in an inactive plan', async () => {
    // Through the store's write boundary: the generated ledger itself is shared, and never changes.
    const key = `${a.consumerId}:${(await a.get('/folders')).body[0].id}`;
    await a.app.services.store.transact((store) => {
      const plan = store.world.accounting_ledgers[key]?.analytic_plans[projects()];
      if (!plan) throw new Error(`no plan ${projects()} in the ledger ${key}`);
      plan.active = false;
    });
    const res = await a.post(`/analytic-accounts/multi-analytic-plans/${projects()}`, {
      code: 'P',
      name: 'P',
      currency: 'EUR',
    });
    expectError(res, failure);
    expect(res.body.detail).toMatch(/plan 'Projects' is not active/);
  });

  it('validates the body (422)', async () => {
    expectValidation(await a.post('/analytic-accounts', { name: 'X', currency: 'EUR' }), ['body', 'code']);
    expectValidation(await a.post('/analytic-accounts', { code: '', name: 'X', currency: 'EUR' }), [
      'body',
      'code',
    ]);
    expectValidation(await a.patch(`/analytic-accounts/${ref.analytic[0]?.id}`, { active: 'yes' }), [
      'body',
      'active',
    ]);
  });

  it('updates the fields given and keeps the others; a deactivated account refuses new lines', async () => {
    const ops = ref.analytic.find((x) => x.code === 'OPS')?.id as string;
    const renamed = await a.patch(`/analytic-accounts/${ops}`, { name: 'Operations and logistics' });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({ code: 'OPS', name: 'Operations and logistics', active: true });
    const off = await a.patch(`/analytic-accounts/${ops}/multi-analytic-plans/${departments()}`, {
      active: false,
      code: 'OPS-OLD',
    });
    expect(off.body).toMatchObject({ code: 'OPS-OLD', active: false, analytic_plan: departments() });
    expect((await a.get(`/analytic-accounts/${ops}`)).body).toMatchObject({ code: 'OPS-OLD', active: false });
    const l = line(ref, { quantity: 1, unit_price: 10, vat: 'V21', analytic_account: ops });
    const refused = await a.post('/invoices', invoiceBody(ref, 'customer_invoice', [l]));
    expectError(refused, failure);
    expect(refused.body.detail).toMatch(/analytic account 'OPS-OLD' is not active/);
  });

  it('refuses an update to a code of another account of the plan (409)', async () => {
    const ops = ref.analytic.find((x) => x.code === 'OPS')?.id as string;
    const taken = await a.patch(`/analytic-accounts/${ops}`, { code: 'Admin' });
    expectError(taken, serviceError('analyticAccountAlreadyExists'));
    expect(taken.status).toBe(409);
    expect(taken.body.detail).toMatch(/already exists with the code 'Admin'/);
    expect((await a.get(`/analytic-accounts/${ops}`)).body.code).toBe('OPS');
    expectError(await a.patch('/analytic-accounts/unknown', { name: 'X' }), notFound);
    expectError(
      await a.patch(`/analytic-accounts/${ops}/multi-analytic-plans/${projects()}`, { name: 'X' }),
      notFound,
    );
  });

  it('replays a creation sent again with the same x-chift-client-requestid', async () => {
    const headers = { 'x-chift-client-requestid': 'analytic-1' };
    const first = await a.post(
      '/analytic-accounts',
      { code: 'IDEM', name: 'Once', currency: 'EUR' },
      { headers },
    );
    const again = await a.post(
      '/analytic-accounts',
      { code: 'IDEM', name: 'Once', currency: 'EUR' },
      { headers },
    );
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect((await all(a, '/analytic-accounts')).filter((x) => x.code === 'IDEM')).toHaveLength(1);
  });
});

describe('accounting analytic accounts: folders and coverage', () => {
  it('requires folder_id with several folders, and keeps each folder apart', async () => {
    const multi = forConsumer(a, a.token, a.ids.multiFolderConsumerId);
    const [first, second] = (await multi.get('/folders')).body as { id: string }[];
    const missing = await multi.get('/analytic-accounts');
    expectError(missing, failure);
    expect(missing.body.detail).toMatch(/folder_id is required/);
    expectError(await multi.post('/analytic-accounts', { code: 'X', name: 'X', currency: 'EUR' }), failure);
    const created = await multi.post(`/analytic-accounts?folder_id=${first?.id}`, {
      code: 'ONLY1',
      name: 'First folder',
      currency: 'EUR',
    });
    expect(created.status, created.text).toBe(200);
    expect((await multi.get(`/analytic-accounts/${created.body.id}?folder_id=${first?.id}`)).status).toBe(
      200,
    );
    expectError(await multi.get(`/analytic-accounts/${created.body.id}?folder_id=${second?.id}`), notFound);
  });

  it('answers 400 when the integration does not implement the operation', async () => {
    const retired = forConsumer(a, a.token, a.ids.retiredConsumerId);
    const res = await retired.get('/analytic-accounts');
    expectError(res, failure);
    expect(res.body.detail).toMatch(/does not support accounting_get_analytic_accounts \(NOT_IMPLEMENTED\)/);
  });
});
