import { beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/app.js';
import { errors, serviceError } from '../../../src/lib/errors.js';
import {
  FolderItem,
  ServicePage_AccountItem_,
  ServicePage_Journal_,
} from '../../../src/modules/accounting/api/reference.schemas.js';
import { call, expectError, expectValidation, SEED, sandboxToken } from '../../helpers.js';
import { type AccountingSandbox, accountingSandbox, all, closeBookYear, forConsumer } from './helpers.js';

/**
 * What every accounting operation shares (the connection, the folder rule, paging, the lazily built
 * ledger) and the reference data: folders, book years, plans, schemes, VAT codes, payment methods and
 * terms, journals, the chart of accounts, new accounts and balances.
 */

let a: AccountingSandbox;

beforeEach(async () => {
  a = await accountingSandbox();
});

const failure = errors.accountingFailure('');

describe('accounting: the connection and the folder', () => {
  it('answers 400 with a detail when the consumer has no accounting connection', async () => {
    const pos = forConsumer(a, a.token, a.ids.verticalConsumers.POS as string);
    for (const path of ['/folders', '/clients', '/journal/entries?unposted_allowed=true']) {
      const res = await pos.get(path);
      expectError(res, failure);
      expect(res.body.detail).toMatch(/no active connection to an? Accounting integration/);
    }
  });

  it('answers 404 for an unknown consumer and 401 for a token of the other environment', async () => {
    const missing = forConsumer(a, a.token, '00000000-0000-4000-8000-000000000000');
    expectError(await missing.get('/folders'), errors.consumerNotFound());
    const production = await sandboxToken({ ...a, ids: { ...a.ids, sandbox: a.ids.production } });
    const other = forConsumer(a, production, a.consumerId);
    expectError(await other.get('/folders'), errors.wrongEnvironment());
  });

  it('uses the most recent accounting connection, or the one X-Chift-ConnectionId names', async () => {
    const seeded = Object.values(a.app.services.store.world.connections).find(
      (c) => c.consumerid === a.consumerId && c.integrationid === 1000,
    );
    const before = (await a.get('/folders')).body[0].id;
    const added = await call(a.app, 'POST', `/consumers/${a.consumerId}/connections`, {
      token: a.token,
      body: { integrationid: 90102, credentials: [{ key: 'database_path', value: 'C:/books' }] },
    });
    expect(added.status, added.text).toBe(200);
    const now = (await a.get('/folders')).body[0].id;
    expect(now).not.toBe(before);
    const named = await a.get('/folders', {
      headers: { 'x-chift-connectionid': seeded?.connectionid ?? '' },
    });
    expect(named.body[0].id).toBe(before);
    // The data of the first software is still there when it is named again.
    const client = await a.post(
      '/clients',
      { name: 'Kept', addresses: [] },
      { headers: { 'x-chift-connectionid': seeded?.connectionid ?? '' } },
    );
    const again = await a.get(`/clients/${client.body.id}`, {
      headers: { 'x-chift-connectionid': seeded?.connectionid ?? '' },
    });
    expect(again.body.name).toBe('Kept');
    expectError(await a.get(`/clients/${client.body.id}`), serviceError('partnerNotFound'));
  });

  it('refuses the operations the integration does not implement (catalogue coverage)', async () => {
    const retired = forConsumer(a, a.token, a.ids.retiredConsumerId);
    const res = await retired.get('/clients');
    expectError(res, failure);
    expect(res.body.detail).toMatch(/does not support accounting_get_clients \(NOT_IMPLEMENTED\)/);
  });

  it('lists one folder for a single-folder integration; folder_id is optional and must be that folder', async () => {
    const folders = await a.get('/folders');
    expect(folders.status).toBe(200);
    expect(folders.body).toHaveLength(1);
    const folder = FolderItem.parse(folders.body[0]);
    expect(folder).toMatchObject({
      main_currency: 'EUR',
      selected: true,
      active: true,
      vat: expect.stringMatching(/^BE0\d{9}$/),
    });
    expect((await a.get(`/folders/${folder.id}`)).body).toEqual(folders.body[0]);
    expect((await a.get(`/bookyears?folder_id=${folder.id}`)).status).toBe(200);
    const other = await a.get('/bookyears?folder_id=not-a-folder');
    expectError(other, failure);
    expect(other.body.detail).toMatch(/folder 'not-a-folder' does not exist/);
    expectError(await a.get('/folders/not-a-folder'), failure);
  });

  describe('an integration with several folders (features.multiple_folders)', () => {
    let multi: AccountingSandbox;
    beforeEach(() => {
      multi = forConsumer(a, a.token, a.ids.multiFolderConsumerId);
    });

    it('lists three folders and requires a valid folder_id on every folder operation', async () => {
      const folders = (await multi.get('/folders')).body as { id: string }[];
      expect(folders).toHaveLength(3);
      expect(new Set(folders.map((f) => f.id)).size).toBe(3);
      const paths = ['/bookyears', '/clients', '/vat-codes', '/journal/entries?unposted_allowed=true'];
      for (const path of paths) {
        const missing = await multi.get(path);
        expectError(missing, failure);
        expect(missing.body.detail).toMatch(/folder_id is required/);
        const sep = path.includes('?') ? '&' : '?';
        expectError(await multi.get(`${path}${sep}folder_id=unknown`), failure);
        expect((await multi.get(`${path}${sep}folder_id=${folders[1]?.id}`)).status).toBe(200);
      }
      const write = await multi.post('/journal', {
        code: 'NEW',
        name: 'New',
        journal_type: 'miscellaneous_operation',
      });
      expectError(write, failure);
    });

    it('keeps the data of each folder apart', async () => {
      const [first, second] = (await multi.get('/folders')).body as { id: string }[];
      const created = await multi.post(`/clients?folder_id=${first?.id}`, {
        name: 'Only in the first folder',
        addresses: [],
      });
      expect(created.status).toBe(200);
      const inFirst = await all(multi, `/clients?folder_id=${first?.id}`);
      const inSecond = await all(multi, `/clients?folder_id=${second?.id}`);
      expect(inFirst.map((c) => c.id)).toContain(created.body.id);
      expect(inSecond.map((c) => c.id)).not.toContain(created.body.id);
      expect(inSecond.map((c) => c.id)).not.toEqual(inFirst.map((c) => c.id));
    });
  });

  it('builds a ledger on first use only, the same for the same seed', async () => {
    const world = a.app.services.store.world;
    expect(Object.keys(world.accounting_ledgers)).toEqual([]);
    await a.get('/folders');
    expect(Object.keys(world.accounting_ledgers)).toEqual([]);
    const first = await a.get(
      '/invoices/type/customer_invoice?include_invoice_lines=true&include_payments=true',
    );
    expect(Object.keys(world.accounting_ledgers)).toHaveLength(1);
    const again = createApp({ seed: SEED });
    const token = await sandboxToken({ app: again, ids: a.ids });
    const second = await call(
      again,
      'GET',
      `${a.base}/invoices/type/customer_invoice?include_invoice_lines=true&include_payments=true`,
      { token },
    );
    expect(second.text).toBe(first.text);
    const otherSeed = createApp({ seed: SEED + 1 });
    expect(Object.keys(otherSeed.services.store.world.accounting_ledgers)).toEqual([]);
  });

  it('removes the ledgers with the consumer', async () => {
    await a.get('/clients');
    expect(Object.keys(a.app.services.store.world.accounting_ledgers)).toHaveLength(1);
    expect((await call(a.app, 'DELETE', `/consumers/${a.consumerId}`, { token: a.token })).status).toBe(204);
    expect(Object.keys(a.app.services.store.world.accounting_ledgers)).toEqual([]);
  });
});

describe('accounting: MCP scopes', () => {
  const mcpToken = async (scopes: string[]) => {
    const res = await call(a.app, 'POST', '/mcp-token', {
      token: a.token,
      body: { accountId: a.ids.accountId, ...a.ids.sandbox, consumerId: a.consumerId, scopes },
    });
    expect(res.status, res.text).toBe(200);
    return res.body.access_token as string;
  };

  it('reads with a read scope of the group, and writes only with the write scope', async () => {
    const reader = forConsumer(a, await mcpToken(['accounting.clients.read']), a.consumerId);
    expect((await reader.get('/clients')).status).toBe(200);
    expectError(
      await reader.post('/clients', { name: 'X', addresses: [] }),
      errors.scopeDenied(['accounting', 'accounting.clients']),
    );
    expectError(await reader.get('/suppliers'), errors.scopeDenied([]));
    const writer = forConsumer(a, await mcpToken(['accounting.clients']), a.consumerId);
    expect((await writer.post('/clients', { name: 'X', addresses: [] })).status).toBe(200);
    const broad = forConsumer(a, await mcpToken(['accounting.read']), a.consumerId);
    for (const path of [
      '/folders',
      '/bookyears',
      '/journals',
      '/vat-codes',
      '/chart-of-accounts',
      '/outstandings?type=client&unposted_allowed=false',
    ]) {
      expect((await broad.get(path)).status, path).toBe(200);
    }
    expectError(
      await broad.post('/journal', { code: 'NO', name: 'No', journal_type: 'cash' }),
      errors.scopeDenied([]),
    );
    expect((await broad.post('/chart-of-accounts/balance', { accounts: [], end: '202601' })).status).toBe(
      200,
    );
  });
});

describe('accounting: paging', () => {
  const lists = [
    '/bookyears',
    '/analytic-plans',
    '/schemes',
    '/vat-codes',
    '/payment-methods',
    '/payment-terms',
    '/journals',
    '/chart-of-accounts',
    '/clients',
    '/suppliers',
    '/invoices/type/customer_invoice',
    '/invoices/multi-analytic-plans/type/supplier_invoice',
    '/journal/entries?unposted_allowed=false',
    '/journal/entries/multi-analytic-plans?unposted_allowed=true',
    '/outstandings?type=client&unposted_allowed=false',
  ];

  it.each(lists)('%s answers a page wrapper and refuses out-of-range page and size (422)', async (path) => {
    const sep = path.includes('?') ? '&' : '?';
    const first = await a.get(path);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ page: 1, size: 50, total: expect.any(Number) });
    expect(first.body.items.length).toBe(Math.min(50, first.body.total));
    expect(first.body.total).toBeGreaterThan(0);
    const second = await a.get(`${path}${sep}page=2&size=1`);
    expect(second.body).toMatchObject({ page: 2, size: 1, total: first.body.total });
    if (first.body.total > 1) expect(second.body.items[0]).toEqual(first.body.items[1]);
    const beyond = await a.get(`${path}${sep}page=1000`);
    expect(beyond.body).toMatchObject({ items: [], total: first.body.total });
    expectValidation(await a.get(`${path}${sep}page=0`), ['query', 'page'], 'greater_than_equal');
    expectValidation(await a.get(`${path}${sep}size=0`), ['query', 'size'], 'greater_than_equal');
    expectValidation(await a.get(`${path}${sep}size=101`), ['query', 'size'], 'less_than_equal');
    expectValidation(await a.get(`${path}${sep}page=abc`), ['query', 'page']);
  });

  it('pages the balances and the contacts too', async () => {
    const balance = await a.post('/chart-of-accounts/balance?size=2', { accounts: ['4'], end: '202601' });
    expect(balance.body).toMatchObject({ page: 1, size: 2, items: [expect.any(Object), expect.any(Object)] });
    expectValidation(await a.post('/chart-of-accounts/balance?size=101', { accounts: [], end: '202601' }), [
      'query',
      'size',
    ]);
    const client = (await a.get('/clients?size=100')).body.items.find(
      (c: { is_company: boolean }) => c.is_company,
    );
    expectValidation(await a.get(`/contacts?partner_type=client&partner_id=${client.id}&page=0`), [
      'query',
      'page',
    ]);
  });
});

/** The seeded book years, all open: 2021 to the year of the sandbox clock. */
const openYears = () =>
  Array.from({ length: a.app.services.clock.now().getUTCFullYear() - 2020 }, (_, i) => String(2021 + i));

describe('accounting: reference data', () => {
  it('has book years from 2021 to the clock year, all open', async () => {
    const clockYear = a.app.services.clock.now().getUTCFullYear();
    const expected = [];
    for (let year = 2021; year <= clockYear; year++) {
      expected.push({
        name: `${year}`,
        start: `${year}-01-01`,
        end: `${year}-12-31`,
        closed: false,
      });
    }
    expect((await a.get('/bookyears')).body.items).toEqual(expected);
  });

  it('lists analytic plans, schemes, VAT codes, payment methods and terms with every field', async () => {
    const plans = (await a.get('/analytic-plans')).body.items;
    expect(plans.map((p: { name: string }) => p.name)).toEqual(['Departments', 'Projects']);
    expect(plans[0]).toEqual({ id: expect.any(String), name: 'Departments', active: true, parent_id: null });
    const schemes = (await a.get('/schemes')).body.items;
    expect(schemes.map((s: { code: string }) => s.code)).toEqual(['PCMN', 'NBB-AA']);
    const vat = (await a.get('/vat-codes')).body.items as Record<string, unknown>[];
    expect(vat.find((v) => v.code === 'V21')).toEqual({
      id: expect.any(String),
      code: 'V21',
      label: 'Sales 21%',
      active: true,
      scope: 'nat',
      rate: 21,
      type: 'sale',
      deductible_account: null,
      payable_account: '451000',
      reversed: false,
      withholding_tax: false,
      country: 'BE',
    });
    expect(vat.find((v) => v.code === 'AIC21')).toMatchObject({
      type: 'purchase',
      scope: 'eu',
      reversed: true,
    });
    expect(vat.some((v) => v.active === false)).toBe(true);
    const methods = (await a.get('/payment-methods')).body.items as { name: string }[];
    expect(methods.map((m) => m.name)).toEqual(['Bank transfer', 'Card payment', 'Cash', 'Direct debit']);
    const terms = (await a.get('/payment-terms')).body.items as { name: string }[];
    expect(terms.map((t) => t.name)).toEqual([
      'Immediate',
      '15 days',
      '30 days',
      '30 days end of month',
      '60 days',
    ]);
  });

  it('lists journals of every kind, with their next numbers in the open book years', async () => {
    const page = ServicePage_Journal_.parse((await a.get('/journals')).body);
    expect(page.items.map((j) => [j.code, j.journal_type])).toEqual([
      ['ACH', 'supplier_invoice'],
      ['ANC', 'supplier_refund'],
      ['BNK', 'financial_operation'],
      ['CSH', 'financial_operation'],
      ['OD', 'miscellaneous_operation'],
      ['VEN', 'customer_invoice'],
      ['VNC', 'customer_refund'],
    ]);
    const bank = page.items.find((j) => j.code === 'BNK');
    expect(bank).toMatchObject({ counterpart_account: '550000', iban: expect.stringMatching(/^BE/) });
    // Every seeded book year is open: one next number in each, 2021 to the clock year.
    const years = openYears();
    expect(bank?.next_document_numbers?.map((n) => n.bookyear_name)).toEqual(years);
    expect(bank?.next_document_numbers?.at(-1)?.next_document_number).toMatch(/^BNK\/2026\/\d{4}$/);
    // A closed year gives no next number.
    await closeBookYear(a, '2024');
    const closed = (await all(a, '/journals')).find((j) => j.code === 'BNK');
    expect(closed.next_document_numbers.map((n: { bookyear_name: string }) => n.bookyear_name)).toEqual(
      years.filter((y) => y !== '2024'),
    );
  });

  it('filters the chart of accounts by classes and by type', async () => {
    const chart = ServicePage_AccountItem_.parse((await a.get('/chart-of-accounts?size=100')).body);
    expect(chart.total).toBeGreaterThan(40);
    const numbers = chart.items.map((x) => x.number);
    expect(numbers).toEqual([...numbers].sort());
    expect(new Set(numbers.map((n) => n[0]))).toEqual(new Set(['1', '2', '3', '4', '5', '6', '7']));
    expect(chart.items.find((x) => x.number === '400000')).toMatchObject({
      type: 'receivable',
      name: 'Trade debtors',
    });
    expect(chart.items.find((x) => x.number === '440000')).toMatchObject({ type: 'payable' });
    const classes = (await a.get('/chart-of-accounts?classes=6,70&size=100')).body.items as {
      number: string;
    }[];
    expect(classes.length).toBeGreaterThan(5);
    expect(classes.every((x) => x.number.startsWith('6') || x.number.startsWith('70'))).toBe(true);
    const vat = (await a.get('/chart-of-accounts?type=vat')).body.items as { number: string }[];
    expect(vat.map((x) => x.number)).toEqual(['411000', '451000']);
    const bank = (await a.get('/chart-of-accounts?type=bank&classes=5')).body.items as { number: string }[];
    expect(bank.map((x) => x.number)).toEqual(['550000', '550100']);
    expectValidation(await a.get('/chart-of-accounts?type=receivable'), ['query', 'type'], 'enum');
  });

  it('adds an account to the chart', async () => {
    const created = await a.post('/accounts', { number: '612500', name: 'Cleaning', type: 'expense' });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      number: '612500',
      name: 'Cleaning',
      active: true,
      type: 'expense',
      scheme_ids: null,
      accounting_category: null,
    });
    const chart = (await a.get('/chart-of-accounts?classes=612')).body.items;
    expect(chart).toContainEqual(created.body);
    expect((await a.post('/accounts', { number: '499500', name: 'Default type' })).body.type).toBe('other');
  });

  it.each([
    [
      'an existing number',
      { number: '400000', name: 'Again' },
      /already exists/,
      serviceError('ledgerAccountAlreadyExists'),
    ],
    ['letters in the number', { number: '61A000', name: 'Bad' }, /must be digits only/, failure],
  ])('refuses an account with %s', async (_label, body, detail, error) => {
    const res = await a.post('/accounts', body);
    expectError(res, error);
    expect(res.body.detail).toMatch(detail);
  });

  it('adds accounts of any class and length the chart takes (class 0, class 9, 3 digits)', async () => {
    for (const number of ['010000', '900000', '123', '61234567890123456789012']) {
      const res = await a.post('/accounts', { number, name: `Account ${number}` });
      expect(res.status, res.text).toBe(200);
    }
  });

  it.each([
    ['a missing name', { number: '612600' }, ['body', 'name'], 'missing'],
    ['a short number', { number: '61', name: 'Short' }, ['body', 'number'], 'string_too_short'],
    ['an unknown type', { number: '612600', name: 'X', type: 'asset' }, ['body', 'type'], undefined],
  ] as [string, object, string[], string | undefined][])(
    'validates an account with %s (422)',
    async (_label, body, loc, type) => {
      const res = await a.post('/accounts', body);
      expect(res.status).toBe(422);
      expect(JSON.stringify(res.body.detail)).toContain(JSON.stringify(loc).slice(1, -1));
      if (type) expect(res.body.detail[0].type).toBe(type);
    },
  );

  it('creates journals; a bank journal names its bank account', async () => {
    const created = await a.post('/journal', {
      code: 'BNK2',
      name: 'Savings',
      journal_type: 'bank',
      counterpart_account: '550100',
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      id: expect.any(String),
      code: 'BNK2',
      name: 'Savings',
      journal_type: 'financial_operation',
      counterpart_account: '550100',
      blocked: false,
      next_document_numbers: openYears().map((year) => ({
        bookyear_name: year,
        next_document_number: `BNK2/${year}/0001`,
      })),
    });
    const listed = await all(a, '/journals');
    expect(listed).toContainEqual(created.body);
    const misc = await a.post('/journal', {
      code: 'OD2',
      name: 'Adjustments',
      journal_type: 'miscellaneous_operation',
    });
    expect(misc.body).toMatchObject({ journal_type: 'miscellaneous_operation', counterpart_account: null });
  });

  it.each([
    [
      'a code in use',
      { code: 'ven', name: 'Sales again', journal_type: 'customer_invoice' },
      /already exists with the code/,
      serviceError('journalAlreadyExists'),
    ],
    [
      'a bank journal without account',
      { code: 'BK', name: 'Bank', journal_type: 'bank' },
      /counterpart_account is required/,
      failure,
    ],
    [
      'an unknown counterpart account',
      { code: 'BK', name: 'Bank', journal_type: 'bank', counterpart_account: '559999' },
      /does not exist/,
      serviceError('counterpartAccountNotFound'),
    ],
    [
      'a counterpart account of another type',
      { code: 'CS', name: 'Cash', journal_type: 'cash', counterpart_account: '550000' },
      /is not a cash account/,
      failure,
    ],
  ])('refuses a journal with %s', async (_label, body, detail, error) => {
    const res = await a.post('/journal', body);
    expectError(res, error);
    expect(res.body.error_code ?? null).toBe(error.errorCode ?? null);
    expect(res.body.detail).toMatch(detail);
  });

  it('validates a journal body (422)', async () => {
    expectValidation(await a.post('/journal', { code: 'X', name: 'n', journal_type: 'bank' }), [
      'body',
      'code',
    ]);
    expectValidation(
      await a.post('/journal', { code: 'XX', name: 'n', journal_type: 'sales' }),
      ['body', 'journal_type'],
      'enum',
    );
    expectValidation(await a.post('/journal', undefined), ['body'], 'missing');
  });
});

describe('accounting: balances', () => {
  it('sums posted entries up to the end month, and over the period', async () => {
    const res = await a.post('/chart-of-accounts/balance', { accounts: ['400000', '7'], end: '202512' });
    expect(res.status).toBe(200);
    const items = res.body.items as {
      account_number: string;
      debit: number;
      credit: number;
      balance: number;
      period_debit: number;
      period_credit: number;
      period_balance: number;
    }[];
    expect(items.map((b) => b.account_number)).toEqual([
      '400000',
      '700000',
      '701000',
      '705000',
      '708000',
      '740000',
      '750000',
    ]);
    for (const b of items) {
      expect(b.balance).toBeCloseTo(b.debit - b.credit, 2);
      expect(b.period_balance).toBeCloseTo(b.period_debit - b.period_credit, 2);
      expect(b.period_debit).toBeLessThanOrEqual(b.debit);
    }
    const receivable = items[0];
    expect(receivable?.debit).toBeGreaterThan(0);
    expect(items.find((b) => b.account_number === '700000')?.balance).toBeLessThan(0);
    // Without a start month the period is the book year of the end month.
    const year = await a.post('/chart-of-accounts/balance', {
      accounts: ['400000'],
      start: '202501',
      end: '202512',
    });
    expect(year.body.items[0]).toEqual(receivable);
    const oneMonth = await a.post('/chart-of-accounts/balance', {
      accounts: ['400000'],
      start: '202512',
      end: '202512',
    });
    expect(oneMonth.body.items[0].debit).toBe(receivable?.debit);
    expect(oneMonth.body.items[0].period_debit).toBeLessThan(receivable?.period_debit ?? 0);
  });

  it('lists every account for an empty account list, and balances to zero overall', async () => {
    const all = await a.post('/chart-of-accounts/balance?size=100', { accounts: [], end: '202601' });
    expect(all.body.total).toBeGreaterThan(40);
    const sum = (all.body.items as { balance: number }[]).reduce(
      (t, b) => t + Math.round(b.balance * 100),
      0,
    );
    expect(sum).toBe(0);
  });

  it('takes the months as days YYYY-MM-DD too, as the official Node SDK sends them', async () => {
    const months = await a.post('/chart-of-accounts/balance', {
      accounts: ['7'],
      start: '202501',
      end: '202512',
    });
    const days = await a.post('/chart-of-accounts/balance', {
      accounts: ['7'],
      start: '2025-01-01',
      end: '2025-12-31',
    });
    expect(days.status, days.text).toBe(200);
    expect(days.body).toEqual(months.body);
    const endOnly = await a.post('/chart-of-accounts/balance', { accounts: ['7'], end: '2025-12-31' });
    expect(endOnly.body).toEqual(
      (await a.post('/chart-of-accounts/balance', { accounts: ['7'], end: '202512' })).body,
    );
  });

  it('answers an empty period when the start month is after the end month', async () => {
    const res = await a.post('/chart-of-accounts/balance', {
      accounts: ['400000'],
      start: '202602',
      end: '202601',
    });
    expect(res.status, res.text).toBe(200);
    const closing = await a.post('/chart-of-accounts/balance', { accounts: ['400000'], end: '202601' });
    expect(res.body.items[0]).toMatchObject({
      debit: closing.body.items[0].debit,
      credit: closing.body.items[0].credit,
      period_debit: 0,
      period_credit: 0,
      period_balance: 0,
    });
  });

  it.each([
    ['a month 13', { accounts: [], end: '202513' }, /'202513' is not a month/],
    ['a bad start', { accounts: [], start: '2025-1', end: '202601' }, /start: '2025-1'/],
  ])('refuses %s', async (_label, body, detail) => {
    const res = await a.post('/chart-of-accounts/balance', body);
    expectError(res, failure);
    expect(res.body.detail).toMatch(detail);
  });

  it('validates the filter (422)', async () => {
    expectValidation(
      await a.post('/chart-of-accounts/balance', { accounts: [] }),
      ['body', 'end'],
      'missing',
    );
    expectValidation(
      await a.post('/chart-of-accounts/balance', { accounts: [], end: '20251' }),
      ['body', 'end'],
      'string_too_short',
    );
    expectValidation(
      await a.post('/chart-of-accounts/balance', { end: '202512' }),
      ['body', 'accounts'],
      'missing',
    );
  });
});

describe('accounting: idempotent writes', () => {
  it('replays a journal creation with the same client request id, and creates nothing new', async () => {
    const headers = { 'x-chift-client-requestid': 'journal-1' };
    const body = { code: 'IDEM', name: 'Idempotent', journal_type: 'miscellaneous_operation' };
    const first = await a.post('/journal', body, { headers });
    const again = await a.post('/journal', body, { headers });
    expect(first.status).toBe(200);
    expect(again.text).toBe(first.text);
    const journals = await all(a, '/journals');
    expect(journals.filter((j) => j.code === 'IDEM')).toHaveLength(1);
    const other = await a.post(
      '/journal',
      { ...body, code: 'IDEM2' },
      { headers: { 'x-chift-client-requestid': 'journal-2' } },
    );
    expect(other.body.id).not.toBe(first.body.id);
  });

  it('records the created account against the connection', async () => {
    const headers = { 'x-chift-client-requestid': 'account-1' };
    await a.post('/accounts', { number: '612700', name: 'Once' }, { headers });
    const replay = await a.post('/accounts', { number: '612700', name: 'Once' }, { headers });
    expect(replay.status).toBe(200);
    const transactions = Object.values(a.app.services.store.world.transactions).filter(
      (t) => t.client_request_id === 'account-1',
    );
    expect(transactions).toMatchObject([{ created_entity_id: '612700', status_code: 200, method: 'POST' }]);
  });
});
