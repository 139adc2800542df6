import { beforeEach, describe, expect, it } from 'vitest';
import { type ApiError, errors, serviceError } from '../../../src/lib/errors.js';
import { ServicePage_AttachmentItemOut_ } from '../../../src/modules/accounting/api/attachments.schemas.js';
import { JournalEntryMultiAnalyticPlan } from '../../../src/modules/accounting/api/entries.schemas.js';
import { ExpenseItemOut } from '../../../src/modules/accounting/api/expenses.schemas.js';
import {
  MiscellaneousOperationOut,
  ServicePage_MiscellaneousOperationOut_,
} from '../../../src/modules/accounting/api/miscellaneous.schemas.js';
import type { LedgerRecord } from '../../../src/modules/accounting/model/accounting.records.js';
import { expectError, expectValidation } from '../../helpers.js';
import {
  type AccountingSandbox,
  accountingSandbox,
  all,
  closeBookYear,
  forConsumer,
  invoiceBody,
  line,
  type Reference,
  referenceOf,
  TINY_PDF,
} from './helpers.js';

/**
 * Miscellaneous operations, expense notes, the deprecated journal entry shape and attached PDFs: each
 * posts (or documents) a journal entry that every other list then agrees with.
 */

let a: AccountingSandbox;
let ref: Reference;
let ledger: LedgerRecord;

beforeEach(async () => {
  a = await accountingSandbox();
  ref = await referenceOf(a);
  const folder = (await a.get('/folders')).body[0].id;
  ledger = a.app.services.store.world.accounting_ledgers[`${a.consumerId}:${folder}`] as LedgerRecord;
});

const failure = errors.accountingFailure('');

/** The entries of the seeded miscellaneous-operation journals (opening, salary accruals, expenses...). */
const seededOperations = (l: LedgerRecord) =>
  Object.values(l.entries).filter(
    (e) => l.journals[e.journal_id]?.journal_type === 'miscellaneous_operation',
  );

const balanceOf = async (account: string) =>
  (await a.post('/chart-of-accounts/balance', { accounts: [account], end: '202612' })).body.items[0]
    .balance as number;

type Line = Record<string, unknown>;
const general = (account: string, amount: number, extra: Line = {}): Line => ({
  type: 'general_account',
  account_number: account,
  amount,
  ...extra,
});
const customer = (partner: string | undefined, amount: number, extra: Line = {}): Line => ({
  type: 'customer_account',
  account_number: '400000',
  partner_id: partner,
  amount,
  ...extra,
});
const operation = (lines: Line[], extra: Line = {}) => ({
  currency: 'EUR',
  operation_date: '2026-01-15',
  lines,
  ...extra,
});

describe('accounting miscellaneous operations: reading', () => {
  it('lists the entries of the miscellaneous journals (opening, salary accruals), balanced, by date', async () => {
    const page = ServicePage_MiscellaneousOperationOut_.parse((await a.get('/miscellaneous-operation')).body);
    const od = await all(a, `/journal/entries?unposted_allowed=true&journal_id=${ref.journals.OD?.id}`);
    expect(page.total).toBe(od.length);
    expect(page.total).toBe(seededOperations(ledger).length);
    expect(od.some((e) => e.reference === 'Opening balance')).toBe(true);
    expect(od.some((e) => String(e.reference).startsWith('Salaries'))).toBe(true);
    const operations = await all(a, '/miscellaneous-operation');
    const dates = operations.map((o) => o.operation_date);
    expect(dates).toEqual([...dates].sort());
    for (const o of operations) {
      expect(o.journal_id).toBe(ref.journals.OD?.id);
      expect(o.status).toBe('posted');
      expect(o.lines.reduce((t: number, l: { amount: number }) => t + Math.round(l.amount * 100), 0)).toBe(0);
      expect(o.lines.every((l: { type: string }) => l.type === 'general_account')).toBe(true);
    }
  });

  it('filters by dates and journals', async () => {
    const march = await all(a, '/miscellaneous-operation?date_from=2025-03-01&date_to=2025-03-31');
    const seededMarch = seededOperations(ledger)
      .map((e) => e.date)
      .filter((d) => d >= '2025-03-01' && d <= '2025-03-31')
      .sort();
    expect(seededMarch).toContain('2025-03-25');
    expect(march.map((o) => o.operation_date)).toEqual(seededMarch);
    expect(await all(a, `/miscellaneous-operation?journal_ids=${ref.journals.OD?.id}`)).toHaveLength(
      seededOperations(ledger).length,
    );
    expectValidation(await a.get('/miscellaneous-operation?date_from=March'), ['query', 'date_from']);
  });

  it('answers an empty list for journals that hold no operation, and for date_to before date_from', async () => {
    const everything = await all(a, '/miscellaneous-operation');
    expect(everything.length).toBeGreaterThan(0);
    for (const query of [
      'journal_ids=nope',
      `journal_ids=${ref.journals.VEN?.id}`,
      'date_from=2025-03-01&date_to=2025-02-01',
    ]) {
      const res = await a.get(`/miscellaneous-operation?${query}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ items: [], total: 0 });
    }
    // An unknown journal among known ones only narrows nothing away.
    expect(await all(a, `/miscellaneous-operation?journal_ids=nope,${ref.journals.OD?.id}`)).toEqual(
      await all(a, `/miscellaneous-operation?journal_ids=${ref.journals.OD?.id}`),
    );
  });

  it('pages within 1..100 items', async () => {
    const total = seededOperations(ledger).length;
    expect((await a.get('/miscellaneous-operation?page=3&size=5')).body).toMatchObject({ total, page: 3 });
    expect((await a.get('/miscellaneous-operation?page=3&size=5')).body.items).toHaveLength(
      Math.min(5, total - 10),
    );
    expectValidation(await a.get('/miscellaneous-operation?size=0'), ['query', 'size']);
  });

  it('reads one operation; 404 for an unknown id or an entry of another journal', async () => {
    const [first] = await all(a, '/miscellaneous-operation');
    const one = await a.get(`/miscellaneous-operation/${first.id}`);
    expect(MiscellaneousOperationOut.parse(one.body)).toEqual(first);
    const notFound = errors.accountingOperationNotFound();
    expectError(await a.get('/miscellaneous-operation/unknown'), notFound);
    const [sale] = await all(a, `/journal/entries?unposted_allowed=false&journal_id=${ref.journals.VEN?.id}`);
    expectError(await a.get(`/miscellaneous-operation/${sale.id}`), notFound);
  });
});

describe('accounting miscellaneous operations: writing', () => {
  it('books the lines in line_number order: balances, entries and outstanding items agree', async () => {
    const client = ref.clients[0]?.id;
    const analytic = ref.analytic.find((x) => x.code === 'ADMIN')?.id;
    const before = { bank: await balanceOf('550000'), receivable: await balanceOf('400000') };
    const res = await a.post(
      '/miscellaneous-operation',
      operation([
        general('550000', -120.5, { line_number: 2, description: 'Bank' }),
        customer(client, 120.5, { line_number: 1, description: 'Client settles' }),
        general('612000', -10, { line_number: 3, analytic_account: analytic }),
        general('499000', 10, { line_number: 4 }),
      ]),
    );
    expect(res.status, res.text).toBe(200);
    const op = MiscellaneousOperationOut.parse(res.body);
    expect(op).toMatchObject({
      status: 'posted',
      journal_id: ref.journals.OD?.id,
      operation_number: 'OD/2026/0001',
    });
    expect(op.lines.map((l) => [l.line_number, l.type, l.account_number, l.amount])).toEqual([
      [1, 'customer_account', '400000', 120.5],
      [2, 'general_account', '550000', -120.5],
      [3, 'general_account', '612000', -10],
      [4, 'general_account', '499000', 10],
    ]);
    expect(op.lines[0]?.partner_id).toBe(client);
    expect(op.lines[2]?.analytic_account).toBe(analytic);
    expect(await balanceOf('550000')).toBeCloseTo(before.bank + 120.5, 2);
    expect(await balanceOf('400000')).toBeCloseTo(before.receivable - 120.5, 2);
    const entry = (await a.get(`/journal/entries/${op.id}`)).body;
    expect(entry).toMatchObject({ name: 'OD/2026/0001', posted: true });
    expect(entry.items[0]).toMatchObject({ account_number: '400000', credit: 120.5, partner_id: client });
    const open = await all(a, '/outstandings?type=client&unposted_allowed=false');
    const item = open.find((o) => o.id === entry.items[0].id);
    expect(item).toMatchObject({ amount: -120.5, open_amount: -120.5 });
    expect((await all(a, '/miscellaneous-operation')).map((o) => o.id)).toContain(op.id);
    expect((await a.get(`/analytic-accounts/${analytic}`)).body.debit).toBeGreaterThanOrEqual(10);
  });

  it('is matched once its client lines are settled', async () => {
    const client = ref.clients[1]?.id as string;
    const l = line(ref, { quantity: 1, unit_price: 100, vat: 'V21' });
    const invoice = await a.post(
      '/invoices',
      invoiceBody(ref, 'customer_invoice', [l], { partner_id: client }),
    );
    const op = await a.post(
      '/miscellaneous-operation',
      operation([customer(client, 121), general('550000', -121)]),
    );
    expect(op.body.status).toBe('posted');
    const matching = await a.post('/matching', {
      entries: [invoice.body.id, op.body.id],
      partner_id: client,
    });
    expect(matching.status, matching.text).toBe(200);
    expect((await a.get(`/miscellaneous-operation/${op.body.id}`)).body.status).toBe('matched');
    expect((await a.get(`/invoices/${invoice.body.id}`)).body.status).toBe('paid');
  });

  it('books a draft out of the balances', async () => {
    const before = await balanceOf('612000');
    const res = await a.post(
      '/miscellaneous-operation',
      operation([general('612000', -40), general('550000', 40)], {
        status: 'draft',
        operation_number: 'OD-DRAFT',
      }),
    );
    expect(res.body).toMatchObject({ status: 'draft', operation_number: 'OD-DRAFT' });
    expect(await balanceOf('612000')).toBe(before);
  });

  it('needs journal_id when several miscellaneous journals exist', async () => {
    await a.post('/journal', { code: 'OD2', name: 'Second', journal_type: 'miscellaneous_operation' });
    const res = await a.post(
      '/miscellaneous-operation',
      operation([general('612000', -1), general('550000', 1)]),
    );
    expectError(res, serviceError('multipleJournals'));
    expect(res.body.error_code).toBe('ERROR_MULTIPLE_JOURNALS');
    expect(res.body.detail).toMatch(/Several miscellaneous_operation journals exist: give journal_id/);
    const named = await a.post(
      '/miscellaneous-operation',
      operation([general('612000', -1), general('550000', 1)], { journal_id: ref.journals.OD?.id }),
    );
    expect(named.status).toBe(200);
  });

  const inactiveAnalytic = () => Object.values(ledger.analytic_accounts).find((x) => !x.active)?.id;
  const cases: [string, () => unknown, RegExp][] = [
    ['no line', () => operation([]), /has no line/],
    [
      'lines that do not add up to zero',
      () => operation([general('612000', -10), general('550000', 9.99)]),
      /add up to -0.01/,
    ],
    [
      'an unknown journal',
      () => operation([general('612000', -1), general('550000', 1)], { journal_id: 'nope' }),
      /journal 'nope' does not exist/,
    ],
    [
      'a journal of another kind',
      () => operation([general('612000', -1), general('550000', 1)], { journal_id: ref.journals.VEN?.id }),
      /'VEN' \(customer_invoice\) cannot take a miscellaneous operation/,
    ],
    [
      'a client line without partner_id',
      () => operation([customer(undefined, 1), general('550000', -1)]),
      /lines\[0\]: the customer_account line has no partner_id/,
    ],
    [
      'a client line on a payable account',
      () => operation([customer(ref.clients[0]?.id, 1, { account_number: '440000' }), general('550000', -1)]),
      /'440000' is not a receivable account/,
    ],
    [
      'an unknown account',
      () => operation([general('999999', -1), general('550000', 1)]),
      /account number '999999' does not exist/,
    ],
    [
      'a supplier in a client line',
      () => operation([customer(ref.suppliers[0]?.id, 1), general('550000', -1)]),
      /is not a client/,
    ],
    [
      'an unknown analytic account',
      () => operation([general('612000', -1, { analytic_account: 'nope' }), general('550000', 1)]),
      /analytic account 'nope' does not exist/,
    ],
    [
      'an inactive analytic account',
      () =>
        operation([general('612000', -1, { analytic_account: inactiveAnalytic() }), general('550000', 1)]),
      /analytic account 'PRJ-099' is not active/,
    ],
    [
      'a date in the closed year',
      () => operation([general('612000', -1), general('550000', 1)], { operation_date: '2024-06-30' }),
      /falls in the closed book year 2024/,
    ],
    [
      'a date outside the book years',
      () => operation([general('612000', -1), general('550000', 1)], { operation_date: '2030-01-01' }),
      /outside every book year/,
    ],
    [
      'a number already used in the journal',
      () => operation([general('612000', -1), general('550000', 1)], { operation_number: 'OD/2025/0001' }),
      /number 'OD\/2025\/0001' is already used/,
    ],
    [
      'a currency that is not ISO 4217',
      () => operation([general('612000', -1), general('550000', 1)], { currency: 'eur' }),
      /not an ISO 4217 code/,
    ],
  ];
  /** The cases the service documents, with their error_code; the others answer the generic failure. */
  const documented: Record<string, ApiError> = {
    'no line': serviceError('noOperationLine'),
    'lines that do not add up to zero': serviceError('operationNotBalanced'),
    'an unknown journal': serviceError('journalNotFound'),
    'a journal of another kind': serviceError('journalNotGoodScope'),
    'a client line without partner_id': serviceError('invalidOperationLineType'),
    'a client line on a payable account': serviceError('wrongAccountType'),
    'an unknown account': serviceError('accountNumberNotFound'),
    'a supplier in a client line': serviceError('partnerNotFound'),
    'an unknown analytic account': serviceError('analyticAccountNotFound'),
    'a date outside the book years': serviceError('bookyearNotFound'),
    'a currency that is not ISO 4217': serviceError('currencyNotFound'),
  };
  it.each(cases)('refuses %s, and writes nothing', async (label, body, detail) => {
    // No seeded year is closed: the cases dated in 2024 need it closed.
    await closeBookYear(a, '2024');
    const before = JSON.stringify(a.app.services.store.world);
    const res = await a.post('/miscellaneous-operation', body());
    const error = documented[label] ?? failure;
    expectError(res, error);
    expect(res.body.error_code ?? null).toBe(error.errorCode ?? null);
    expect(res.body.detail).toMatch(detail);
    expect(JSON.stringify(a.app.services.store.world)).toBe(before);
  });

  it('books what the software takes: a single line of 0, a general line on a receivable account', async () => {
    // The official Node SDK books this operation: one general line of 0 on 400000.
    const single = await a.post('/miscellaneous-operation', {
      operation_date: '2026-01-10',
      currency: 'EUR',
      currency_exchange_rate: 1,
      lines: [
        {
          line_number: 1,
          description: 'test line',
          amount: 0,
          type: 'general_account',
          account_number: '400000',
        },
      ],
      journal_id: ref.journals.OD?.id,
      status: 'draft',
    });
    expect(single.status, single.text).toBe(200);
    expect(single.body.lines).toHaveLength(1);
    const general400 = await a.post(
      '/miscellaneous-operation',
      operation([general('400000', -1, { partner_id: ref.clients[0]?.id }), general('550000', 1)]),
    );
    expect(general400.status, general400.text).toBe(200);
    expect(general400.body.lines.map((l: { amount: number }) => l.amount)).toEqual([-1, 1]);
  });

  it('validates the body (422)', async () => {
    expectValidation(await a.post('/miscellaneous-operation', { currency: 'EUR', lines: [] }), [
      'body',
      'operation_date',
    ]);
    expectValidation(
      await a.post(
        '/miscellaneous-operation',
        operation([{ ...general('612000', 1), type: 'employee_account' }]),
      ),
      ['body', 'lines', 0, 'type'],
    );
  });

  it('replays a creation sent again with the same x-chift-client-requestid', async () => {
    const headers = { 'x-chift-client-requestid': 'misc-1' };
    const body = operation([general('612000', -5), general('550000', 5)]);
    const seeded = (await a.get('/miscellaneous-operation')).body.total;
    const first = await a.post('/miscellaneous-operation', body, { headers });
    const again = await a.post('/miscellaneous-operation', body, { headers });
    expect(again.body).toEqual(first.body);
    expect((await a.get('/miscellaneous-operation')).body.total).toBe(seeded + 1);
  });
});

describe('accounting expenses', () => {
  const employee = () => Object.values(ledger.employees).find((e) => e.active)?.id as string;
  const expenseLine = (untaxed: number, extra: Line = {}): Line => ({
    untaxed_amount: untaxed,
    tax_rate: 21,
    tax_amount: Math.round(untaxed * 21) / 100,
    total: Math.round(untaxed * 121) / 100,
    account_number: '612000',
    tax_id: ref.vat.A21?.id,
    description: 'Train ticket',
    ...extra,
  });
  const expense = (lines: Line[], extra: Line = {}) => {
    const untaxed = lines.reduce((t, l) => t + Math.round((l.untaxed_amount as number) * 100), 0) / 100;
    const tax = lines.reduce((t, l) => t + Math.round((l.tax_amount as number) * 100), 0) / 100;
    return {
      employee_id: employee(),
      untaxed_amount: untaxed,
      tax_amount: tax,
      total: Math.round((untaxed + tax) * 100) / 100,
      currency: 'EUR',
      date: '2026-01-15',
      lines,
      ...extra,
    };
  };

  it("books the expense accounts and VAT against the employee's account, in the miscellaneous journal", async () => {
    const before = {
      employee: await balanceOf('455000'),
      vat: await balanceOf('411000'),
      cost: await balanceOf('612000'),
    };
    const body = expense([expenseLine(100), expenseLine(20.5, { account_number: '613000' })], {
      reference: 'Trip to Ghent',
      pdf: TINY_PDF,
    });
    const res = await a.post('/expenses', body);
    expect(res.status, res.text).toBe(200);
    const out = ExpenseItemOut.parse(res.body);
    expect(out).toMatchObject({
      employee_id: employee(),
      total: 145.81,
      number: 'OD/2026/0001',
      reference: 'Trip to Ghent',
    });
    expect(await balanceOf('455000')).toBeCloseTo(before.employee - 145.81, 2);
    expect(await balanceOf('411000')).toBeCloseTo(before.vat + 25.31, 2);
    expect(await balanceOf('612000')).toBeCloseTo(before.cost + 100, 2);
    const entry = JournalEntryMultiAnalyticPlan.parse((await a.get(`/journal/entries/${out.id}`)).body);
    expect(entry).toMatchObject({ journal_id: ref.journals.OD?.id, reference: 'Trip to Ghent' });
    expect(entry.attachments_info?.status).toBe('yes');
    const docs = await a.get(`/attachments?type=entry&document_id=${out.id}`);
    expect(docs.body.items.map((d: { base64_string: string }) => d.base64_string)).toEqual([TINY_PDF]);
    expect((await all(a, '/miscellaneous-operation')).map((o) => o.id)).toContain(out.id);
  });

  const inactive = () => Object.values(ledger.employees).find((e) => !e.active)?.id;
  const cases: [string, () => unknown, RegExp][] = [
    [
      'an unknown employee',
      () => expense([expenseLine(10)], { employee_id: 'nope' }),
      /employee 'nope' does not exist/,
    ],
    ['an employee who left', () => expense([expenseLine(10)], { employee_id: inactive() }), /is not active/],
    [
      'a sales VAT code',
      () => expense([expenseLine(10, { tax_id: ref.vat.V21?.id })]),
      /is a sale code and cannot be used on a purchase/,
    ],
    [
      'a rate that is not its code',
      () => expense([expenseLine(10, { tax_rate: 12 })]),
      /tax_rate 12 is not the rate 21/,
    ],
    [
      'a wrong tax amount',
      () => expense([expenseLine(10, { tax_amount: 3, total: 13 })]),
      /tax_amount 3 is not 21% of 10/,
    ],
    [
      'a line total that is not untaxed + tax',
      () => expense([expenseLine(10, { total: 12 })]),
      /total 12 is not untaxed_amount \+ tax_amount/,
    ],
    [
      'totals that are not the sums of the lines',
      () => expense([expenseLine(10)], { untaxed_amount: 11, total: 13.1 }),
      /untaxed_amount 11 is not the sum of the lines/,
    ],
    [
      'a total that is not untaxed + tax',
      () => expense([expenseLine(10)], { total: 99 }),
      /total 99 is not untaxed_amount \+ tax_amount/,
    ],
    [
      'a receivable account',
      () => expense([expenseLine(10, { account_number: '400000' })]),
      /cannot be used for this type of line/,
    ],
    [
      'an unknown account',
      () => expense([expenseLine(10, { account_number: '699999' })]),
      /'699999' does not exist/,
    ],
    [
      'a document that is not a PDF',
      () => expense([expenseLine(10)], { pdf: Buffer.from('hello').toString('base64') }),
      /not a PDF encoded in base64/,
    ],
    [
      'a number already used',
      () => expense([expenseLine(10)], { number: 'OD/2025/0001' }),
      /already used in the journal 'OD'/,
    ],
    ['a closed book year', () => expense([expenseLine(10)], { date: '2024-03-01' }), /closed book year 2024/],
  ];
  const documentedExpense: Record<string, ApiError> = {
    'an unknown employee': serviceError('employeeNotFound'),
    'a receivable account': serviceError('accountNumberNotGoodScope'),
    'an unknown account': serviceError('accountNumberNotFound'),
    'a document that is not a PDF': serviceError('invalidBase64'),
  };
  it.each(cases)('refuses %s, and writes nothing', async (label, body, detail) => {
    // No seeded year is closed: the cases dated in 2024 need it closed.
    await closeBookYear(a, '2024');
    const before = JSON.stringify(a.app.services.store.world);
    const res = await a.post('/expenses', body());
    const error = documentedExpense[label] ?? failure;
    expectError(res, error);
    expect(res.body.error_code ?? null).toBe(error.errorCode ?? null);
    expect(res.body.detail).toMatch(detail);
    expect(JSON.stringify(a.app.services.store.world)).toBe(before);
  });

  it('validates the body (422)', async () => {
    // No line: the service's schema takes at least one (minItems 1).
    expectValidation(await a.post('/expenses', expense([])), ['body', 'lines'], 'too_short');
    expectValidation(await a.post('/expenses', { ...expense([expenseLine(1)]), employee_id: undefined }), [
      'body',
      'employee_id',
    ]);
    expectValidation(await a.post('/expenses', expense([expenseLine(1)], { pdf_name: 'bad/name' })), [
      'body',
      'pdf_name',
    ]);
  });

  it('replays with the same x-chift-client-requestid', async () => {
    const headers = { 'x-chift-client-requestid': 'expense-1' };
    const seeded = (await a.get('/miscellaneous-operation')).body.total;
    const first = await a.post('/expenses', expense([expenseLine(10)]), { headers });
    const again = await a.post('/expenses', expense([expenseLine(10)]), { headers });
    expect(again.body).toEqual(first.body);
    expect((await a.get('/miscellaneous-operation')).body.total).toBe(seeded + 1);
  });
});

describe('accounting journal entries: the deprecated shape', () => {
  type Item = Record<string, unknown>;
  const item = (account: string, debit: number, credit: number, extra: Item = {}): Item => ({
    account_number: account,
    debit,
    credit,
    currency: 'EUR',
    ...extra,
  });
  const entry = (items: Item[], extra: Item = {}) => ({
    journal_id: ref.journals.OD?.id,
    name: 'OLD-1',
    date: '2026-01-15',
    items,
    ...extra,
  });

  it('books an entry whose partner lines name their partner, seen by the current operations', async () => {
    const client = ref.clients[2]?.id;
    const res = await a.post(
      '/journal/entries',
      entry([item('400000', 50, 0, { partner_id: client }), item('700000', 0, 50, { description: 'Fee' })], {
        reference: 'Legacy',
      }),
    );
    expect(res.status, res.text).toBe(200);
    const booked = JournalEntryMultiAnalyticPlan.parse(res.body);
    expect(booked).toMatchObject({ name: 'OLD-1', reference: 'Legacy', posted: true });
    expect((await a.get(`/journal/entries/${booked.id}`)).body).toEqual(res.body);
    const open = await all(a, '/outstandings?type=client&unposted_allowed=false');
    expect(open.find((o) => o.id === booked.items?.[0]?.id)).toMatchObject({
      partner_id: client,
      open_amount: 50,
    });
  });

  const cases: [string, () => unknown, RegExp][] = [
    [
      'lines in two currencies',
      () => entry([item('612000', 1, 0), item('550000', 0, 1, { currency: 'USD' })]),
      /USD, where the first line is in EUR/,
    ],
    [
      'lines with two exchange rates',
      () => entry([item('612000', 1, 0), item('550000', 0, 1, { currency_exchange_rate: 2 })]),
      /2, where the first line has 1/,
    ],
    [
      'a receivable line without partner',
      () => entry([item('400000', 1, 0), item('700000', 0, 1)]),
      /takes a client or supplier: give partner_id/,
    ],
    [
      'a supplier on the receivable account',
      () => entry([item('400000', 1, 0, { partner_id: ref.suppliers[0]?.id }), item('700000', 0, 1)]),
      /is not a client/,
    ],
    ['an unbalanced entry', () => entry([item('612000', 1, 0), item('550000', 0, 2)]), /not balanced/],
    [
      'a number already used',
      () => entry([item('612000', 1, 0), item('550000', 0, 1)], { name: 'OD/2025/0001' }),
      /already used/,
    ],
  ];
  const documentedLegacy: Record<string, ApiError> = {
    'lines in two currencies': serviceError('multipleCurrencies'),
    'lines with two exchange rates': serviceError('multipleExchangeRates'),
    'a receivable line without partner': serviceError('partnerAccountMissing'),
    'a supplier on the receivable account': serviceError('partnerNotFound'),
    'an unbalanced entry': serviceError('entryNotBalanced'),
  };
  it.each(cases)('refuses %s', async (label, body, detail) => {
    const res = await a.post('/journal/entries', body());
    const error = documentedLegacy[label] ?? failure;
    expectError(res, error);
    expect(res.body.error_code ?? null).toBe(error.errorCode ?? null);
    expect(res.body.detail).toMatch(detail);
  });

  it('books a partner_id given on a general line without using it', async () => {
    const res = await a.post(
      '/journal/entries',
      entry([item('612000', 1, 0, { partner_id: ref.clients[0]?.id }), item('550000', 0, 1)]),
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.items.map((l: { partner_id: string | null }) => l.partner_id ?? null)).toEqual([
      null,
      null,
    ]);
  });

  it('answers 400 when the integration does not implement journal entries', async () => {
    const retired = forConsumer(a, a.token, a.ids.retiredConsumerId);
    const res = await retired.post('/journal/entries', entry([item('612000', 1, 0), item('550000', 0, 1)]));
    expectError(res, failure);
    expect(res.body.detail).toMatch(/does not support accounting_create_generic_journal_entry/);
  });
});

describe('accounting attachments', () => {
  const invoices = () => all(a, '/invoices/type/customer_invoice');

  it('lists the PDF of a seeded invoice, and of its journal entry', async () => {
    const withPdf = (await invoices()).find((i) => i.attachments_info?.status === 'yes');
    const res = await a.get(`/attachments?type=invoice&document_id=${withPdf.id}`);
    const page = ServicePage_AttachmentItemOut_.parse(res.body);
    expect(page.total).toBe(1);
    expect(
      Buffer.from(page.items[0]?.base64_string ?? '', 'base64')
        .subarray(0, 4)
        .toString(),
    ).toBe('%PDF');
    const entry = (
      await all(a, `/journal/entries?unposted_allowed=false&journal_id=${withPdf.journal_id}`)
    ).find((e) => e.name === withPdf.invoice_number);
    expect((await a.get(`/attachments?type=entry&document_id=${entry.id}`)).body.items).toEqual(page.items);
  });

  it('attaches a PDF to an invoice (204): listed, shown on the invoice and its entry, and moves updated_after', async () => {
    const bare = (await invoices()).find((i) => i.attachments_info?.status === 'no');
    const res = await a.post(`/invoices/pdf/${bare.id}`, { base64_string: TINY_PDF, name: 'signed copy' });
    expect(res.status, res.text).toBe(204);
    expect(res.text).toBe('');
    const listed = await a.get(`/attachments?type=invoice&document_id=${bare.id}`);
    expect(listed.body.items.map((d: { base64_string: string }) => d.base64_string)).toEqual([TINY_PDF]);
    const invoice = (await a.get(`/invoices/${bare.id}`)).body;
    expect(invoice.attachments_info).toEqual({
      status: 'yes',
      attachments: [{ filename: 'signed copy.pdf', url: null }],
    });
    const updated = await all(a, '/invoices/type/customer_invoice?updated_after=2026-01-15T00:00:00Z');
    expect(updated.map((i) => i.id)).toEqual([bare.id]);
  });

  it('keeps an existing PDF unless overwrite_existing=true', async () => {
    const withPdf = (await invoices()).find((i) => i.attachments_info?.status === 'yes');
    const refused = await a.post(`/invoices/pdf/${withPdf.id}`, { base64_string: TINY_PDF });
    expectError(refused, serviceError('attachmentAlreadyExists'));
    expect(refused.body.error_code).toBe('ERROR_ATTACHMENT_ALREADY_EXISTS');
    expect(refused.body.detail).toMatch(/already has an attachment: set overwrite_existing=true/);
    const replaced = await a.post(`/invoices/pdf/${withPdf.id}?overwrite_existing=true`, {
      base64_string: TINY_PDF,
    });
    expect(replaced.status).toBe(204);
    const listed = await a.get(`/attachments?type=invoice&document_id=${withPdf.id}`);
    expect(listed.body.items.map((d: { base64_string: string }) => d.base64_string)).toEqual([TINY_PDF]);
  });

  it('refuses what is not a PDF, and unknown invoices or documents', async () => {
    const bare = (await invoices()).find((i) => i.attachments_info?.status === 'no');
    for (const bad of ['not base64!', Buffer.from('GIF89a...').toString('base64'), '']) {
      const res = await a.post(`/invoices/pdf/${bare.id}`, { base64_string: bad });
      expectError(res, serviceError('invalidBase64'));
      expect(res.body.detail).toMatch(/not a PDF encoded in base64/);
    }
    expect((await a.get(`/attachments?type=invoice&document_id=${bare.id}`)).body.total).toBe(0);
    expectError(
      await a.post('/invoices/pdf/unknown', { base64_string: TINY_PDF }),
      serviceError('accountingInvoiceNotFound'),
    );
    expectError(
      await a.get('/attachments?type=invoice&document_id=unknown'),
      serviceError('accountingInvoiceNotFound'),
    );
    expectError(await a.get('/attachments?type=entry&document_id=unknown'), serviceError('entryNotFound'));
    expectValidation(await a.get('/attachments?document_id=x'), ['query', 'type']);
    expectValidation(await a.get(`/attachments?type=invoice&document_id=${bare.id}&size=101`), [
      'query',
      'size',
    ]);
    expectValidation(await a.get('/attachments?type=bill&document_id=x'), ['query', 'type']);
    expectValidation(await a.post(`/invoices/pdf/${bare.id}`, { name: 'x' }), ['body', 'base64_string']);
    expectValidation(
      await a.post(`/invoices/pdf/${bare.id}?overwrite_existing=maybe`, { base64_string: TINY_PDF }),
      ['query', 'overwrite_existing'],
    );
  });

  it('replays an attachment sent again with the same x-chift-client-requestid (204)', async () => {
    const bare = (await invoices()).find((i) => i.attachments_info?.status === 'no');
    const headers = { 'x-chift-client-requestid': 'pdf-1' };
    expect((await a.post(`/invoices/pdf/${bare.id}`, { base64_string: TINY_PDF }, { headers })).status).toBe(
      204,
    );
    expect((await a.post(`/invoices/pdf/${bare.id}`, { base64_string: TINY_PDF }, { headers })).status).toBe(
      204,
    );
    expect((await a.get(`/attachments?type=invoice&document_id=${bare.id}`)).body.total).toBe(1);
  });
});
