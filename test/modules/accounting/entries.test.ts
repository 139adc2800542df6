import { beforeEach, describe, expect, it } from 'vitest';
import {
  type ApiError,
  entryHasNoReceivablePayable,
  entryNotLinkedToPartner,
  errors,
  serviceError,
} from '../../../src/lib/errors.js';
import {
  JournalEntryMultiAnalyticPlan,
  ServicePage_JournalEntryMonoAnalyticPlan_,
  ServicePage_OutstandingItem_,
} from '../../../src/modules/accounting/api/entries.schemas.js';
import { expectError, expectValidation } from '../../helpers.js';
import {
  type AccountingSandbox,
  accountingSandbox,
  all,
  closeBookYear,
  invoiceBody,
  line,
  type Reference,
  referenceOf,
} from './helpers.js';

/** Journal entries (listed, read, written line by line), outstanding items and matching. */

let a: AccountingSandbox;
let ref: Reference;

beforeEach(async () => {
  a = await accountingSandbox();
  ref = await referenceOf(a);
});

const failure = errors.accountingFailure('');

type Item = Record<string, unknown>;
const general = (account: string, debit: number, credit: number): Item => ({
  account_type: 'general_account',
  account,
  debit,
  credit,
});
const client = (id: string | undefined, debit: number, credit: number): Item => ({
  account_type: 'customer_account',
  account: id,
  debit,
  credit,
});
const supplier = (id: string | undefined, debit: number, credit: number): Item => ({
  account_type: 'supplier_account',
  account: id,
  debit,
  credit,
});

const entry = (items: Item[], overrides: Record<string, unknown> = {}) => ({
  journal_id: ref.journals.OD?.id,
  number: 'OD-T-1',
  currency: 'EUR',
  date: '2026-01-15',
  items,
  ...overrides,
});

const balanceOf = async (account: string) =>
  (await a.post('/chart-of-accounts/balance', { accounts: [account], end: '202612' })).body.items[0]
    .balance as number;

const outstanding = (type: 'client' | 'supplier', unposted = false) =>
  all(a, `/outstandings?type=${type}&unposted_allowed=${unposted}`);

describe('accounting journal entries: reading', () => {
  it('lists balanced entries by date, posted only unless asked', async () => {
    const page = ServicePage_JournalEntryMonoAnalyticPlan_.parse(
      (await a.get('/journal/entries?unposted_allowed=false&date_from=2025-01-01&date_to=2025-03-31')).body,
    );
    expect(page.total).toBeGreaterThan(10);
    const everything = await all(a, '/journal/entries?unposted_allowed=true');
    for (const e of everything) {
      const debit = e.items.reduce((t: number, l: { debit: number }) => t + Math.round(l.debit * 100), 0);
      const credit = e.items.reduce((t: number, l: { credit: number }) => t + Math.round(l.credit * 100), 0);
      expect(debit, e.name).toBe(credit);
    }
    const dates = everything.map((e) => e.date);
    expect(dates).toEqual([...dates].sort());
    // The history opens on the second day of the first book year.
    const [first] = (await a.get('/bookyears')).body.items;
    expect(everything[0]).toMatchObject({
      reference: 'Opening balance',
      date: `${first.name}-01-02`,
      posted: true,
    });
  });

  it('filters by journal, dates, partner and updated_after', async () => {
    const bank = await all(a, `/journal/entries?unposted_allowed=false&journal_id=${ref.journals.BNK?.id}`);
    expect(bank.length).toBeGreaterThan(10);
    expect(
      bank.every((e) => e.journal_id === ref.journals.BNK?.id && e.journal_name === 'Bank current account'),
    ).toBe(true);
    const partner = ref.clients[0]?.id;
    const ofPartner = await all(a, `/journal/entries?unposted_allowed=false&partner_id=${partner}`);
    expect(ofPartner.length).toBeGreaterThan(0);
    expect(
      ofPartner.every((e) => e.items.some((l: { partner_id: string }) => l.partner_id === partner)),
    ).toBe(true);
    const quarter = await all(
      a,
      '/journal/entries?unposted_allowed=false&date_from=2025-04-01&date_to=2025-06-30',
    );
    expect(quarter.every((e) => e.date >= '2025-04-01' && e.date <= '2025-06-30')).toBe(true);
    expect(
      await all(a, '/journal/entries?unposted_allowed=false&updated_after=2026-01-15T00:00:00Z'),
    ).toEqual([]);
    await a.post('/journal-entries', entry([general('612000', 10, 0), general('550000', 0, 10)]));
    expect(
      await all(a, '/journal/entries?unposted_allowed=false&updated_after=2026-01-15T00:00:00Z'),
    ).toHaveLength(1);
  });

  it('serves at most 3 months at once unless updated_after is given', async () => {
    const res = await a.get(
      '/journal/entries?unposted_allowed=false&date_from=2025-01-01&date_to=2025-04-02',
    );
    expectError(res, serviceError('maxDifferenceMonths'));
    expect(res.body.error_code).toBe('ERROR_MAX_DIFFERENCE_MONTHS');
    expect(res.body.detail).toMatch(/more than 3 months apart/);
    expect(
      (await a.get('/journal/entries?unposted_allowed=false&date_from=2025-01-01&date_to=2025-04-01')).status,
    ).toBe(200);
    const wide = await a.get(
      '/journal/entries?unposted_allowed=false&date_from=2024-01-01&date_to=2026-12-31&updated_after=2020-01-01T00:00:00Z',
    );
    expect(wide.status).toBe(200);
    expectError(
      await a.get(
        '/journal/entries/multi-analytic-plans?unposted_allowed=false&date_from=2025-01-01&date_to=2025-06-30',
      ),
      serviceError('maxDifferenceMonths'),
    );
  });

  it('answers an empty list when date_to is before date_from', async () => {
    for (const path of ['/journal/entries', '/journal/entries/multi-analytic-plans']) {
      const res = await a.get(`${path}?unposted_allowed=true&date_from=2025-02-01&date_to=2025-01-01`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ items: [], total: 0 });
    }
  });

  it('reads one entry with analytic distributions; 404 for an unknown one', async () => {
    const [first] = (await a.get('/journal/entries/multi-analytic-plans?unposted_allowed=false&size=1')).body
      .items;
    const one = await a.get(`/journal/entries/${first.id}`);
    expect(JournalEntryMultiAnalyticPlan.parse(one.body)).toBeDefined();
    expect(one.body).toEqual(first);
    const unknown = await a.get('/journal/entries/unknown');
    expectError(unknown, serviceError('entryNotFound'));
    expect(unknown.body.error_code).toBe('ERROR_ENTRY_NOT_FOUND');
  });

  it('validates the list parameters (422)', async () => {
    expectValidation(await a.get('/journal/entries'), ['query', 'unposted_allowed']);
    expectValidation(
      await a.get('/journal/entries?unposted_allowed=yes'),
      ['query', 'unposted_allowed'],
      'enum',
    );
    expectValidation(await a.get('/journal/entries?unposted_allowed=true&date_from=2025-02-30'), [
      'query',
      'date_from',
    ]);
    expectValidation(
      await a.get('/journal/entries/multi-analytic-plans?unposted_allowed=false&updated_after=soon'),
      ['query', 'updated_after'],
    );
  });
});

describe('accounting journal entries: writing', () => {
  it('books a balanced entry; it is listed, read back and moves the balances', async () => {
    const supplierId = ref.suppliers[0]?.id;
    const expenseBefore = await balanceOf('616000');
    const payableBefore = await balanceOf('440000');
    const body = entry(
      [
        { ...general('616000', 100, 0), description: 'Software subscription', tax_code: ref.vat.A21?.id },
        general('411000', 21, 0),
        supplier(supplierId, 0, 121),
      ],
      { journal_id: ref.journals.ACH?.id, number: 'ACH-MANUAL-1', reference: 'SaaS', due_date: '2026-02-15' },
    );
    const created = await a.post('/journal-entries', body);
    expect(created.status, created.text).toBe(200);
    expect(created.body).toMatchObject({
      name: 'ACH-MANUAL-1',
      journal_id: ref.journals.ACH?.id,
      journal_name: 'Purchases',
      date: '2026-01-15',
      posted: true,
      reference: 'SaaS',
      due_date: '2026-02-15',
      due_dates: [{ due_date: '2026-02-15', debit: 0, credit: 121 }],
    });
    expect(
      created.body.items.map((l: Item) => [
        l.account_number,
        l.account_name,
        l.debit,
        l.credit,
        l.partner_id,
      ]),
    ).toEqual([
      ['616000', 'Telecommunications and software', 100, 0, null],
      ['411000', 'VAT recoverable', 21, 0, null],
      ['440000', 'Trade creditors', 0, 121, supplierId],
    ]);
    expect((await a.get(`/journal/entries/${created.body.id}`)).body).toEqual(created.body);
    const listed = await all(a, '/journal/entries?unposted_allowed=false&date_from=2026-01-15');
    expect(listed.map((e) => e.id)).toContain(created.body.id);
    expect(await balanceOf('616000')).toBeCloseTo(expenseBefore + 100, 2);
    expect(await balanceOf('440000')).toBeCloseTo(payableBefore - 121, 2);
    const open = (await outstanding('supplier')).find((o) => o.original_document?.id === created.body.id);
    expect(open).toMatchObject({
      amount: 121,
      open_amount: 121,
      journal_type: 'supplier_invoice',
      posted: true,
    });
  });

  it('books client and employee lines on their accounts, and creates a general account on request', async () => {
    const employee = Object.values(a.app.services.store.world.accounting_ledgers)[0]?.employees ?? {};
    const employeeId = Object.keys(employee)[0];
    const created = await a.post(
      '/journal-entries',
      entry([
        client(ref.clients[0]?.id, 50, 0),
        { account_type: 'employee_account', account: employeeId, debit: 25, credit: 0 },
        {
          ...general('758000', 0, 75),
          account_info: { account_number: '758000', account_name: 'Sundry income' },
        },
      ]),
    );
    expect(created.status, created.text).toBe(200);
    expect(created.body.items.map((l: Item) => l.account_number)).toEqual(['400000', '455000', '758000']);
    expect((await a.get('/chart-of-accounts?classes=758')).body.items).toEqual([
      expect.objectContaining({ number: '758000', name: 'Sundry income', type: 'income' }),
    ]);
  });

  it('keeps an unposted entry out of the balances and the open items', async () => {
    const before = await balanceOf('400000');
    const created = await a.post(
      '/journal-entries',
      entry([client(ref.clients[0]?.id, 99, 0), general('740000', 0, 99)], { posted: false }),
    );
    expect(created.body.posted).toBe(false);
    expect(await balanceOf('400000')).toBe(before);
    expect((await outstanding('client')).some((o) => o.original_document?.id === created.body.id)).toBe(
      false,
    );
    expect((await outstanding('client', true)).some((o) => o.original_document?.id === created.body.id)).toBe(
      true,
    );
  });

  it('refuses a number already used in the journal', async () => {
    expect(
      (await a.post('/journal-entries', entry([general('612000', 1, 0), general('550000', 0, 1)]))).status,
    ).toBe(200);
    const again = await a.post('/journal-entries', entry([general('612000', 1, 0), general('550000', 0, 1)]));
    expectError(again, failure);
    expect(again.body.detail).toMatch(/'OD-T-1' is already used in the journal 'OD'/);
  });

  const cases: [string, () => object, RegExp, ApiError][] = [
    [
      'an unbalanced entry',
      () => entry([general('612000', 100, 0), general('550000', 0, 99.99)]),
      /not balanced: debit 100, credit 99.99/,
      serviceError('entryNotBalanced'),
    ],
    [
      'a negative amount',
      () => entry([general('612000', -1, 0), general('550000', 0, -1)]),
      /debit -1/,
      serviceError('debitCreditNegative'),
    ],
    [
      'debit and credit on one item',
      () => entry([general('612000', 1, 1), general('550000', 0, 0)]),
      /debit 1, credit 1/,
      serviceError('debitCreditBothPositive'),
    ],
    [
      'an unknown journal',
      () => entry([general('612000', 1, 0), general('550000', 0, 1)], { journal_id: 'nope' }),
      /journal 'nope' does not exist/,
      serviceError('journalNotFound'),
    ],
    [
      'an unknown account',
      () => entry([general('612999', 1, 0), general('550000', 0, 1)]),
      /account number '612999' does not exist/,
      serviceError('accountNumberNotFound'),
    ],
    [
      'a partner account as a general account',
      () => entry([general('400000', 1, 0), general('550000', 0, 1)]),
      /is a partner account/,
      serviceError('partnerAccountMissing'),
    ],
    [
      'an unknown client',
      () => entry([client('nobody', 1, 0), general('700000', 0, 1)]),
      /partner 'nobody' does not exist/,
      serviceError('partnerNotFound'),
    ],
    [
      'a client line without client',
      () => entry([client(undefined, 1, 0), general('700000', 0, 1)]),
      /must hold the id of the client/,
      serviceError('partnerAccountMissing'),
    ],
    [
      'an unknown employee',
      () =>
        entry([
          { account_type: 'employee_account', account: 'x', debit: 1, credit: 0 },
          general('550000', 0, 1),
        ]),
      /employee 'x' does not exist/,
      serviceError('employeeNotFound'),
    ],
    [
      'a date in the closed book year',
      () => entry([general('612000', 1, 0), general('550000', 0, 1)], { date: '2024-03-01' }),
      /closed book year 2024/,
      failure,
    ],
    [
      'a date in no book year',
      () => entry([general('612000', 1, 0), general('550000', 0, 1)], { date: '2099-03-01' }),
      /outside every book year/,
      serviceError('bookyearNotFound'),
    ],
    [
      'a currency that is not ISO 4217',
      () => entry([general('612000', 1, 0), general('550000', 0, 1)], { currency: 'Euro' }),
      /not an ISO 4217 code/,
      serviceError('invalidCurrencyFormat'),
    ],
    [
      'an unknown VAT code',
      () => entry([{ ...general('612000', 1, 0), tax_code: 'T' }, general('550000', 0, 1)]),
      /VAT code 'T' does not exist/,
      serviceError('taxCodeNotFound'),
    ],
    [
      'two partners in a sale journal',
      () =>
        entry([client(ref.clients[0]?.id, 1, 0), client(ref.clients[1]?.id, 1, 0), general('700000', 0, 2)], {
          journal_id: ref.journals.VEN?.id,
        }),
      /names 2 clients or suppliers/,
      serviceError('multiplePartnerAccounts'),
    ],
    [
      'a forced account that is not a partner account',
      () =>
        entry([
          { ...client(ref.clients[0]?.id, 1, 0), force_general_account: '700000' },
          general('740000', 0, 1),
        ]),
      /'700000' is not a receivable account/,
      serviceError('collectiveAccountMissing'),
    ],
  ];

  it.each(cases)('refuses %s and books nothing', async (_label, body, detail, error) => {
    // No seeded year is closed: the cases dated in 2024 need it closed.
    await closeBookYear(a, '2024');
    const before = (await a.get('/journal/entries?unposted_allowed=true')).body.total;
    const res = await a.post('/journal-entries', body());
    expectError(res, error);
    expect(res.body.error_code ?? null).toBe(error.errorCode ?? null);
    expect(res.body.detail).toMatch(detail);
    expect((await a.get('/journal/entries?unposted_allowed=true')).body.total).toBe(before);
  });

  it("refuses a single item as the service's schema does (minItems 2): a validation error", async () => {
    const before = (await a.get('/journal/entries?unposted_allowed=true')).body.total;
    const res = await a.post('/journal-entries', entry([general('612000', 0, 0)]));
    expectValidation(res, ['body', 'items'], 'too_short');
    expect((await a.get('/journal/entries?unposted_allowed=true')).body.total).toBe(before);
  });

  it('books items of zero, as the software does', async () => {
    const res = await a.post('/journal-entries', entry([general('612000', 0, 0), general('550000', 0, 0)]));
    expect(res.status, res.text).toBe(200);
    expect(res.body.items.map((l: Item) => [l.debit, l.credit])).toEqual([
      [0, 0],
      [0, 0],
    ]);
  });

  it.each([
    ['no number', { number: undefined }, ['body', 'number'], 'missing'],
    ['no items', { items: undefined }, ['body', 'items'], 'missing'],
    [
      'an unknown account type',
      { items: [{ account_type: 'bank', debit: 1, credit: 0 }] },
      ['body', 'items', 0, 'account_type'],
      'enum',
    ],
    ['a date that is not a date', { date: 'today' }, ['body', 'date'], undefined],
  ] as [string, Record<string, unknown>, (string | number)[], string | undefined][])(
    'validates an entry with %s (422)',
    async (_label, overrides, loc, type) => {
      expectValidation(
        await a.post(
          '/journal-entries',
          entry([general('612000', 1, 0), general('550000', 0, 1)], overrides),
        ),
        loc,
        type,
      );
    },
  );

  it('books once per client request id', async () => {
    const headers = { 'x-chift-client-requestid': 'entry-1' };
    const body = entry([general('612000', 5, 0), general('550000', 0, 5)]);
    const first = await a.post('/journal-entries', body, { headers });
    const again = await a.post('/journal-entries', body, { headers });
    expect(again.text).toBe(first.text);
    expect(
      (await all(a, '/journal/entries?unposted_allowed=true&date_from=2026-01-15')).filter(
        (e) => e.name === 'OD-T-1',
      ),
    ).toHaveLength(1);
  });
});

describe('accounting outstanding items and matching', () => {
  const sale = (total: number, partner = ref.clients[0]?.id) =>
    invoiceBody(ref, 'customer_invoice', [line(ref, { quantity: 1, unit_price: total, vat: 'V0' })], {
      partner_id: partner,
    });

  /** A bank receipt from a client: bank against the client's receivable, as a bank statement books it. */
  const receipt = (amount: number, number: string, partner = ref.clients[0]?.id) =>
    a.post(
      '/journal-entries',
      entry([general('550000', amount, 0), client(partner, 0, amount)], {
        journal_id: ref.journals.BNK?.id,
        number,
      }),
    );

  it('lists open items of clients and suppliers, with signed amounts', async () => {
    const page = ServicePage_OutstandingItem_.parse(
      (await a.get('/outstandings?type=client&unposted_allowed=false')).body,
    );
    expect(page.total).toBeGreaterThan(0);
    const clients = await outstanding('client');
    expect(clients.every((o) => o.account_number === '400000' && o.open_amount !== 0)).toBe(true);
    const suppliers = await outstanding('supplier');
    expect(suppliers.every((o) => o.account_number === '440000')).toBe(true);
    expect(suppliers.some((o) => o.amount > 0 && o.journal_type === 'supplier_invoice')).toBe(true);
    expectValidation(await a.get('/outstandings?unposted_allowed=false'), ['query', 'type']);
    expectValidation(
      await a.get('/outstandings?type=employee&unposted_allowed=false'),
      ['query', 'type'],
      'enum',
    );
  });

  it('matches an invoice with a bank receipt: both leave the open items and the invoice is paid', async () => {
    const invoice = (await a.post('/invoices', sale(300))).body;
    const bank = (await receipt(300, 'BNK-R-1')).body;
    const open = (await outstanding('client')).filter((o) =>
      [invoice.id, bank.id].includes(o.original_document?.id),
    );
    expect(open.map((o) => [o.original_document.id, o.amount, o.open_amount])).toEqual([
      [bank.id, -300, -300],
      [invoice.id, 300, 300],
    ]);
    a.app.services.clock.advance(60);
    const res = await a.post('/matching', { entries: open.map((o) => o.id), partner_id: ref.clients[0]?.id });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ matching_number: expect.stringMatching(/^M\d{6}$/), balance: 0 });
    // Matching changes both entries and the invoice: updated_after finds them.
    const changed = await all(
      a,
      '/journal/entries?unposted_allowed=false&updated_after=2026-01-15T09:00:30Z',
    );
    expect(changed.map((e) => e.name).sort()).toEqual(['BNK-R-1', invoice.invoice_number].sort());
    expect(
      (await all(a, '/invoices/type/customer_invoice?updated_after=2026-01-15T09:00:30Z')).map((i) => i.id),
    ).toEqual([invoice.id]);
    expect(
      (await outstanding('client')).filter((o) => [invoice.id, bank.id].includes(o.original_document?.id)),
    ).toEqual([]);
    const paid = await a.get(`/invoices/${invoice.id}?include_payments=true`);
    expect(paid.body).toMatchObject({
      status: 'paid',
      payments: [
        {
          id: bank.id,
          name: 'BNK-R-1',
          amount: 300,
          dedicated_amount: 300,
          matching_number: res.body.matching_number,
          journal_type: 'financial_operation',
        },
      ],
    });
    const lines = (await a.get(`/journal/entries/${bank.id}`)).body.items;
    expect(lines[1].matching_numbers).toEqual([res.body.matching_number]);
    const again = await a.post('/matching', {
      entries: open.map((o) => o.id),
      partner_id: ref.clients[0]?.id,
    });
    expectError(again, serviceError('entryHasInvalidStatus'));
    expect(again.body.error_code).toBe('ERROR_ENTRY_HAS_INVALID_STATUS');
    expect(again.body.detail).toMatch(/is already matched/);
  });

  it('matches by entry ids too, and leaves the rest open when the amounts differ', async () => {
    const invoice = (await a.post('/invoices', sale(500))).body;
    const bank = (await receipt(200, 'BNK-R-2')).body;
    const invoiceEntry = (await outstanding('client')).find((o) => o.original_document?.id === invoice.id);
    const res = await a.post('/matching', {
      entries: [bank.id, invoiceEntry.id],
      partner_id: ref.clients[0]?.id,
    });
    expect(res.body.balance).toBe(300);
    const left = (await outstanding('client')).find((o) => o.original_document?.id === invoice.id);
    expect(left).toMatchObject({
      amount: 500,
      open_amount: 300,
      matching_numbers: [res.body.matching_number],
    });
    expect((await a.get(`/invoices/${invoice.id}`)).body.status).toBe('posted');
    expect((await a.get(`/invoices/id/${invoice.id}/payments`)).body.items).toMatchObject([
      { id: bank.id, dedicated_amount: 200 },
    ]);
  });

  it.each([
    [
      'an unknown entry',
      async () => ({ entries: ['nope', 'nada'], partner_id: ref.clients[0]?.id }),
      /Entry 'nope' does not exist/,
      serviceError('entryNotFound'),
    ],
    [
      'an unknown partner',
      async () => ({ entries: ['x', 'y'], partner_id: 'nobody' }),
      /partner 'nobody' does not exist/,
      serviceError('partnerNotFound'),
    ],
  ])('refuses a matching with %s', async (_label, body, detail, error) => {
    const res = await a.post('/matching', await body());
    expectError(res, error);
    expect(res.body.detail).toMatch(detail);
  });

  it.each([
    [
      'one entry',
      async () => ({
        entries: [(await outstanding('client'))[0]?.id],
        partner_id: (await outstanding('client'))[0]?.partner_id,
      }),
    ],
    ['no entries', async () => ({ entries: [], partner_id: ref.clients[0]?.id })],
  ])("refuses a matching with %s as the service's schema does (minItems 2)", async (_label, body) => {
    expectValidation(await a.post('/matching', await body()), ['body', 'entries'], 'too_short');
  });

  it('refuses entries of different accounts, and an entry with no receivable or payable line', async () => {
    const partnerId = ref.clients[0]?.id as string;
    const invoice = (await a.post('/invoices', sale(15))).body;
    const account = await a.post('/accounts', {
      name: 'Clients (other)',
      number: '400900',
      type: 'receivable',
    });
    expect(account.status, account.text).toBe(200);
    const other = await a.post(
      '/journal-entries',
      entry([{ ...client(partnerId, 0, 15), force_general_account: '400900' }, general('550000', 15, 0)], {
        journal_id: ref.journals.BNK?.id,
        number: 'BNK-R-9',
      }),
    );
    expect(other.status, other.text).toBe(200);
    const accounts = await a.post('/matching', {
      entries: [invoice.id, other.body.id],
      partner_id: partnerId,
    });
    expectError(accounts, serviceError('multipleGlAccounts'));
    expect(accounts.body.error_code).toBe('ERROR_MULTIPLE_GL_ACCOUNTS');
    const plain = await a.post('/journal-entries', entry([general('612000', 5, 0), general('550000', 0, 5)]));
    const none = await a.post('/matching', { entries: [plain.body.id, invoice.id], partner_id: partnerId });
    expectError(none, entryHasNoReceivablePayable(plain.body.id, partnerId));
    expect(none.body.error_code).toBe('ERROR_ENTRY_HAS_NO_ACCOUNT_RECEIVABLE_PAYABLE');
  });

  it('refuses items on the same side, of another partner, or unposted', async () => {
    const first = (await a.post('/invoices', sale(10))).body;
    const second = (await a.post('/invoices', sale(20))).body;
    const items = (await outstanding('client', true)).filter((o) =>
      [first.id, second.id].includes(o.original_document?.id),
    );
    const sameSide = await a.post('/matching', {
      entries: items.map((o) => o.id),
      partner_id: ref.clients[0]?.id,
    });
    expectError(sameSide, serviceError('amountsNotBalanced'));
    expect(sameSide.body.error_code).toBe('ERROR_AMOUNTS_NOT_BALANCED');
    expect(sameSide.body.detail).toMatch(/all on the same side/);
    const foreign = (await a.post('/invoices', sale(30, ref.clients[1]?.id))).body;
    const foreignItem = (await outstanding('client')).find((o) => o.original_document?.id === foreign.id);
    const mismatch = await a.post('/matching', {
      entries: [items[0]?.id, foreignItem.id],
      partner_id: ref.clients[0]?.id,
    });
    expectError(mismatch, entryNotLinkedToPartner(foreignItem.id, ref.clients[0]?.id as string));
    expect(mismatch.body.error_code).toBe('ERROR_ENTRY_NOT_LINKED_TO_PARTNER');
    const draft = (await a.post('/invoices', { ...sale(40), status: 'draft' })).body;
    const draftItem = (await outstanding('client', true)).find((o) => o.original_document?.id === draft.id);
    const bank = (await receipt(40, 'BNK-R-3')).body;
    const unposted = await a.post('/matching', {
      entries: [draftItem.id, bank.id],
      partner_id: ref.clients[0]?.id,
    });
    expectError(unposted, serviceError('entryHasInvalidStatus'));
    expect(unposted.body.detail).toMatch(/is not posted/);
  });

  it('makes several matchings, each on its own', async () => {
    const invoice = (await a.post('/invoices', sale(70))).body;
    const bank = (await receipt(70, 'BNK-R-4')).body;
    const res = await a.post('/matching-multiple', {
      matchings: [
        { entries: [invoice.id, bank.id], partner_id: ref.clients[0]?.id },
        { entries: ['nope', 'nada'], partner_id: ref.clients[0]?.id },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { matching_number: expect.stringMatching(/^M\d{6}$/), processed: true, error_msg: null },
      {
        matching_number: null,
        processed: false,
        error_msg: {
          message: serviceError('entryNotFound').message,
          status: 'error',
          detail: "Entry 'nope' does not exist",
          error_code: 'ERROR_ENTRY_NOT_FOUND',
        },
      },
    ]);
    expect((await a.get(`/invoices/${invoice.id}`)).body.status).toBe('paid');
    expectValidation(
      await a.post('/matching-multiple', { matchings: [{ entries: [] }] }),
      ['body', 'matchings', 0, 'partner_id'],
      'missing',
    );
  });

  it('matches once per client request id', async () => {
    const invoice = (await a.post('/invoices', sale(80))).body;
    const bank = (await receipt(80, 'BNK-R-5')).body;
    const headers = { 'x-chift-client-requestid': 'match-1' };
    const body = { entries: [invoice.id, bank.id], partner_id: ref.clients[0]?.id };
    const first = await a.post('/matching', body, { headers });
    const again = await a.post('/matching', body, { headers });
    expect(first.status).toBe(200);
    expect(again.text).toBe(first.text);
  });
});
