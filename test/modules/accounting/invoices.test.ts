import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { openWorldFile, seedWorld } from '../../../src/control/seeded-world.js';
import { type ApiError, errors, serviceError } from '../../../src/lib/errors.js';
import {
  InvoiceItemOutMonoAnalyticPlan,
  InvoiceItemOutMultiAnalyticPlans,
  ServicePage_Payment_,
} from '../../../src/modules/accounting/api/invoices.schemas.js';
import { expectError, expectValidation, SEED, sandbox, sandboxToken } from '../../helpers.js';
import { closedAfterTest, tempDir } from '../../temp-dir.js';
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
 * Invoices and their payments, and how they show everywhere a real ledger would show them: in the
 * invoice lists, the journal entries, the account balances and the outstanding items.
 */

let a: AccountingSandbox;
let ref: Reference;

beforeEach(async () => {
  a = await accountingSandbox();
  ref = await referenceOf(a);
});

const failure = errors.accountingFailure('');

const balanceOf = async (account: string, end = '202612') =>
  (await a.post('/chart-of-accounts/balance', { accounts: [account], end })).body.items[0] as {
    debit: number;
    credit: number;
    balance: number;
  };

const outstanding = (type: 'client' | 'supplier', unposted = false) =>
  all(a, `/outstandings?type=${type}&unposted_allowed=${unposted}`);

const entriesOf = (query: string) => all(a, `/journal/entries?${query}`);

const pay = (invoiceId: string, amount: number, extra: Record<string, unknown> = {}) =>
  a.post('/invoices/payments', {
    date: '2026-01-20',
    payment_method_id: ref.methods['Bank transfer'],
    currency: 'EUR',
    items: [{ invoice_id: invoiceId, amount }],
    ...extra,
  });

const sale = (overrides: Record<string, unknown> = {}) =>
  invoiceBody(
    ref,
    'customer_invoice',
    [
      line(ref, { quantity: 3, unit_price: 120.5, vat: 'V21' }),
      line(ref, { quantity: 1, unit_price: 80, vat: 'V6', account: '705000' }),
    ],
    overrides,
  );

describe('accounting invoices: a sale from creation to payment', () => {
  it('books the invoice and its entry, and every list agrees', async () => {
    const journal = (await all(a, '/journals')).find((j) => j.code === 'VEN');
    const expectedNumber = journal.next_document_numbers.find(
      (n: { bookyear_name: string }) => n.bookyear_name === '2026',
    ).next_document_number;
    const receivableBefore = await balanceOf('400000');
    const vatBefore = await balanceOf('451000');
    const body = sale({
      reference: 'PO-42',
      payment_communication: '+++123/4567/89012+++',
      payment_method_id: ref.methods['Bank transfer'],
    });
    const created = await a.post('/invoices', body);
    expect(created.status, created.text).toBe(200);
    const invoice = InvoiceItemOutMonoAnalyticPlan.parse(created.body);
    expect(created.body).toMatchObject({
      invoice_type: 'customer_invoice',
      invoice_number: expectedNumber,
      status: 'posted',
      untaxed_amount: 441.5,
      tax_amount: 80.72,
      total: 522.22,
      journal_id: journal.id,
      partner_id: ref.clients[0]?.id,
      payments: [],
      partner: null,
      approval_status: 'unknown',
      due_dates: [{ due_date: '2026-02-14', amount: 522.22, payment_method: 'Bank transfer' }],
      accounting_info: { main_currency: 'EUR', main_currency_total: 522.22, account_number: '400000' },
      attachments_info: { status: 'no', attachments: [] },
      last_updated_on: '2026-01-15T09:00:00.000Z',
    });
    expect(created.body.lines).toHaveLength(2);

    // By id, and in the list of its type.
    const byId = await a.get(`/invoices/${invoice.id}?include_invoice_lines=true&include_payments=true`);
    expect(byId.body).toEqual(created.body);
    const listed = await all(
      a,
      '/invoices/type/customer_invoice?date_from=2026-01-15&include_invoice_lines=true&include_payments=true',
    );
    expect(listed).toContainEqual(created.body);
    expect(await all(a, '/invoices/type/customer_refund?date_from=2026-01-15')).toEqual([]);

    // Its journal entry: receivable against revenue and VAT.
    const entries = await entriesOf(
      `unposted_allowed=false&journal_id=${journal.id}&date_from=2026-01-15&date_to=2026-01-15`,
    );
    expect(entries).toHaveLength(1);
    const entry = entries[0];
    expect(entry).toMatchObject({
      name: expectedNumber,
      date: '2026-01-15',
      posted: true,
      reference: 'PO-42',
      journal_name: 'Sales',
    });
    const lines = (
      entry.items as { account_number: string; debit: number; credit: number; partner_id: string | null }[]
    ).map((l) => [l.account_number, l.debit, l.credit, l.partner_id]);
    expect(lines).toEqual([
      ['400000', 522.22, 0, ref.clients[0]?.id],
      ['700000', 0, 361.5, null],
      ['705000', 0, 80, null],
      ['451000', 0, 75.92, null],
      ['451000', 0, 4.8, null],
    ]);
    expect((await a.get(`/journal/entries/${entry.id}`)).body.items.map((l: { id: string }) => l.id)).toEqual(
      entry.items.map((l: { id: string }) => l.id),
    );

    // The balances of the accounts it touches move by its amounts.
    const receivableAfter = await balanceOf('400000');
    expect(receivableAfter.debit).toBeCloseTo(receivableBefore.debit + 522.22, 2);
    expect(receivableAfter.balance).toBeCloseTo(receivableBefore.balance + 522.22, 2);
    expect((await balanceOf('451000')).credit).toBeCloseTo(vatBefore.credit + 80.72, 2);

    // It is an open item of the client, and unpaid.
    const open = (await outstanding('client')).find((o) => o.original_document?.id === invoice.id);
    expect(open).toMatchObject({
      id: entry.items[0].id,
      number: expectedNumber,
      amount: 522.22,
      open_amount: 522.22,
      partner_id: ref.clients[0]?.id,
      account_number: '400000',
      journal_type: 'customer_invoice',
      payment_communication: '+++123/4567/89012+++',
      posted: true,
      matching_numbers: [],
    });
    const unpaid = await all(a, '/invoices/type/customer_invoice?payment_status=unpaid');
    expect(unpaid.map((i) => i.id)).toContain(invoice.id);
    const paid = await all(a, '/invoices/type/customer_invoice?payment_status=paid');
    expect(paid.map((i) => i.id)).not.toContain(invoice.id);

    // Paid: no longer open, the payment is listed, the status is paid, the bank moved.
    const bankBefore = await balanceOf('550000');
    a.app.services.clock.advance(600);
    const payment = await pay(invoice.id as string, 522.22, { reference: 'Transfer 1' });
    expect(payment.status, payment.text).toBe(204);
    expect(payment.text).toBe('');
    expect((await outstanding('client')).some((o) => o.original_document?.id === invoice.id)).toBe(false);
    const payments = ServicePage_Payment_.parse((await a.get(`/invoices/id/${invoice.id}/payments`)).body);
    expect(payments.items).toEqual([
      {
        id: expect.any(String),
        name: expect.stringMatching(/^BNK\/2026\/\d{4}$/),
        currency: 'EUR',
        amount: 522.22,
        dedicated_amount: 522.22,
        payment_date: '2026-01-20',
        journal_type: 'financial_operation',
        journal_id: ref.journals.BNK?.id,
        journal_name: 'Bank current account',
        reconciled: true,
        communication: 'Transfer 1',
        matching_number: expect.stringMatching(/^M\d{6}$/),
      },
    ]);
    const after = await a.get(`/invoices/${invoice.id}?include_payments=true`);
    expect(after.body).toMatchObject({
      status: 'paid',
      payments: payments.items,
      last_updated_on: '2026-01-15T09:10:00.000Z',
    });
    expect((await all(a, '/invoices/type/customer_invoice?payment_status=paid')).map((i) => i.id)).toContain(
      invoice.id,
    );
    expect(
      (await all(a, '/invoices/type/customer_invoice?payment_status=unpaid')).map((i) => i.id),
    ).not.toContain(invoice.id);
    expect((await balanceOf('550000')).balance).toBeCloseTo(bankBefore.balance + 522.22, 2);
    expect((await balanceOf('400000')).balance).toBeCloseTo(receivableBefore.balance, 2);
    const paymentEntry = (await a.get(`/journal/entries/${payments.items[0]?.id}`)).body;
    expect(
      paymentEntry.items.map((l: { account_number: string; debit: number; credit: number }) => [
        l.account_number,
        l.debit,
        l.credit,
      ]),
    ).toEqual([
      ['400000', 0, 522.22],
      ['550000', 522.22, 0],
    ]);
    expect(paymentEntry.items[0].matching_numbers).toEqual([payments.items[0]?.matching_number]);
    const updated = await all(a, '/invoices/type/customer_invoice?updated_after=2026-01-15T09:05:00Z');
    expect(updated.map((i) => i.id)).toEqual([invoice.id]);
  });

  it('pays in parts: partly paid stays open for the rest', async () => {
    const invoice = (await a.post('/invoices', sale())).body;
    expect((await pay(invoice.id, 200)).status).toBe(204);
    let open = (await outstanding('client')).find((o) => o.original_document?.id === invoice.id);
    expect(open).toMatchObject({
      amount: 522.22,
      open_amount: 322.22,
      matching_numbers: [expect.any(String)],
    });
    expect((await a.get(`/invoices/${invoice.id}`)).body.status).toBe('posted');
    expect(
      (await all(a, '/invoices/type/customer_invoice?payment_status=unpaid')).map((i) => i.id),
    ).toContain(invoice.id);
    const over = await pay(invoice.id, 322.23);
    expectError(over, failure);
    expect(over.body.detail).toMatch(/more than the open amount 322.22/);
    expect((await pay(invoice.id, 322.22)).status).toBe(204);
    open = (await outstanding('client')).find((o) => o.original_document?.id === invoice.id);
    expect(open).toBeUndefined();
    const payments = (await a.get(`/invoices/id/${invoice.id}/payments`)).body.items;
    expect(payments.map((p: { dedicated_amount: number }) => p.dedicated_amount)).toEqual([200, 322.22]);
    expect((await a.get(`/invoices/${invoice.id}`)).body.status).toBe('paid');
    const again = await pay(invoice.id, 1);
    expectError(again, failure);
    expect(again.body.detail).toMatch(/already paid/);
  });

  it('pays several invoices with one payment, in one bank line', async () => {
    const first = (await a.post('/invoices', sale())).body;
    const second = (await a.post('/invoices', sale({ partner_id: ref.clients[1]?.id }))).body;
    const res = await a.post('/invoices/payments', {
      date: '2026-01-21',
      payment_method_id: ref.methods['Bank transfer'],
      currency: 'EUR',
      number: 'BNK/2026/9001',
      items: [
        { invoice_id: first.id, amount: first.total },
        { invoice_id: second.id, amount: 100 },
      ],
    });
    expect(res.status).toBe(204);
    const entry = (
      await entriesOf(
        `unposted_allowed=false&journal_id=${ref.journals.BNK?.id}&date_from=2026-01-21&date_to=2026-01-21`,
      )
    )[0];
    expect(entry.name).toBe('BNK/2026/9001');
    expect(
      entry.items.map((l: { account_number: string; debit: number; credit: number }) => [
        l.account_number,
        l.debit,
        l.credit,
      ]),
    ).toEqual([
      ['400000', 0, 522.22],
      ['400000', 0, 100],
      ['550000', 622.22, 0],
    ]);
    expect((await a.get(`/invoices/${first.id}`)).body.status).toBe('paid');
    expect((await a.get(`/invoices/id/${second.id}/payments`)).body.items[0]).toMatchObject({
      amount: 100,
      dedicated_amount: 100,
    });
    const reused = await a.post('/invoices/payments', {
      date: '2026-01-21',
      payment_method_id: ref.methods['Bank transfer'],
      currency: 'EUR',
      number: 'BNK/2026/9001',
      items: [{ invoice_id: second.id, amount: 1 }],
    });
    expectError(reused, failure);
    expect(reused.body.detail).toMatch(/already used in the journal 'BNK'/);
  });
});

describe('accounting invoices: the other kinds', () => {
  it('books a purchase on the payable, expense and deductible VAT accounts', async () => {
    const payableBefore = await balanceOf('440000');
    const body = invoiceBody(
      ref,
      'supplier_invoice',
      [line(ref, { quantity: 2, unit_price: 50, vat: 'A21', account: '612000' })],
      {
        invoice_number: 'SUP-2026-1',
      },
    );
    const created = await a.post('/invoices', body);
    expect(created.status, created.text).toBe(200);
    expect(created.body).toMatchObject({
      invoice_number: 'SUP-2026-1',
      total: 121,
      journal_id: ref.journals.ACH?.id,
    });
    const entry = (
      await entriesOf(`unposted_allowed=false&journal_id=${ref.journals.ACH?.id}&date_from=2026-01-15`)
    ).find((e) => e.name === 'SUP-2026-1');
    expect(
      entry.items.map((l: { account_number: string; debit: number; credit: number }) => [
        l.account_number,
        l.debit,
        l.credit,
      ]),
    ).toEqual([
      ['440000', 0, 121],
      ['612000', 100, 0],
      ['411000', 21, 0],
    ]);
    expect((await balanceOf('440000')).credit).toBeCloseTo(payableBefore.credit + 121, 2);
    const open = (await outstanding('supplier')).find((o) => o.original_document?.id === created.body.id);
    expect(open).toMatchObject({
      amount: 121,
      open_amount: 121,
      account_number: '440000',
      journal_type: 'supplier_invoice',
    });
    expect((await pay(created.body.id, 121)).status).toBe(204);
    const bank = (await a.get(`/invoices/id/${created.body.id}/payments`)).body.items[0];
    const paymentLines = (await a.get(`/journal/entries/${bank.id}`)).body.items;
    expect(
      paymentLines.map((l: { account_number: string; debit: number; credit: number }) => [
        l.account_number,
        l.debit,
        l.credit,
      ]),
    ).toEqual([
      ['440000', 121, 0],
      ['550000', 0, 121],
    ]);
  });

  it('books reverse-charge VAT both ways, with no VAT on the invoice', async () => {
    const body = invoiceBody(ref, 'supplier_invoice', [
      line(ref, { quantity: 1, unit_price: 1000, vat: 'AIC21' }),
    ]);
    expect(body.tax_amount).toBe(0);
    const created = await a.post('/invoices', body);
    expect(created.status, created.text).toBe(200);
    const entry = (
      await a.get('/journal/entries?unposted_allowed=false&date_from=2026-01-15')
    ).body.items.find((e: { name: string }) => e.name === created.body.invoice_number);
    expect(
      entry.items.map((l: { account_number: string; debit: number; credit: number }) => [
        l.account_number,
        l.debit,
        l.credit,
      ]),
    ).toEqual([
      ['440000', 0, 1000],
      ['604000', 1000, 0],
      ['411000', 210, 0],
      ['451000', 0, 210],
    ]);
    const taxed = invoiceBody(ref, 'supplier_invoice', [
      { ...line(ref, { quantity: 1, unit_price: 1000, vat: 'AIC21' }), tax_amount: 210, total: 1210 },
    ]);
    const refused = await a.post('/invoices', taxed);
    expectError(refused, failure);
    expect(refused.body.detail).toMatch(/reverse-charge VAT code takes a tax_amount of 0/);
  });

  it('books a refund the other way round; matched against the invoice, it settles it', async () => {
    const invoice = (await a.post('/invoices', sale())).body;
    const refund = await a.post(
      '/invoices',
      invoiceBody(ref, 'customer_refund', [line(ref, { quantity: 1, unit_price: 100, vat: 'V21' })], {
        partner_id: ref.clients[0]?.id,
      }),
    );
    expect(refund.status, refund.text).toBe(200);
    expect(refund.body).toMatchObject({
      journal_id: ref.journals.VNC?.id,
      invoice_number: expect.stringMatching(/^VNC\/2026\//),
    });
    const items = (await outstanding('client')).filter((o) =>
      [invoice.id, refund.body.id].includes(o.original_document?.id),
    );
    expect(items.map((o) => [o.amount, o.open_amount])).toEqual([
      [522.22, 522.22],
      [-121, -121],
    ]);
    const matched = await a.post('/matching', {
      entries: items.map((o) => o.id),
      partner_id: ref.clients[0]?.id,
    });
    expect(matched.status, matched.text).toBe(200);
    expect(matched.body).toEqual({ matching_number: expect.stringMatching(/^M\d{6}$/), balance: 401.22 });
    expect((await a.get(`/invoices/${refund.body.id}`)).body.status).toBe('paid');
    expect((await a.get(`/invoices/${invoice.id}`)).body.status).toBe('posted');
    const payments = (await a.get(`/invoices/id/${invoice.id}/payments`)).body.items;
    expect(payments).toMatchObject([
      { id: expect.any(String), journal_type: 'customer_refund', dedicated_amount: 121 },
    ]);
    const open = (await outstanding('client')).find((o) => o.original_document?.id === invoice.id);
    expect(open.open_amount).toBe(401.22);
  });

  it('books a draft as an unposted entry that moves no balance and cannot be paid', async () => {
    const before = await balanceOf('400000');
    const draft = await a.post('/invoices', sale({ status: 'draft' }));
    expect(draft.status).toBe(200);
    expect(draft.body.status).toBe('draft');
    expect((await balanceOf('400000')).balance).toBe(before.balance);
    const posted = await entriesOf('unposted_allowed=false&date_from=2026-01-15');
    const withDrafts = await entriesOf('unposted_allowed=true&date_from=2026-01-15');
    expect(posted.some((e) => e.name === draft.body.invoice_number)).toBe(false);
    expect(withDrafts.find((e) => e.name === draft.body.invoice_number)).toMatchObject({ posted: false });
    expect((await outstanding('client')).some((o) => o.original_document?.id === draft.body.id)).toBe(false);
    expect(
      (await outstanding('client', true)).find((o) => o.original_document?.id === draft.body.id),
    ).toMatchObject({ posted: false });
    const payment = await pay(draft.body.id, 10);
    expectError(payment, failure);
    expect(payment.body.detail).toMatch(/is draft, not posted/);
  });

  it('keeps analytic distributions over several plans; the mono view shows the first account', async () => {
    const [departments, projects] = ref.plans;
    const dept = ref.analytic.filter((x) => x.plan_id === departments?.id);
    const proj = ref.analytic.filter((x) => x.plan_id === projects?.id);
    const distribution = [
      {
        analytic_plan: departments?.id,
        analytic_accounts: [
          { analytic_account: dept[0]?.id, percentage: 60 },
          { analytic_account: dept[1]?.id, percentage: 40 },
        ],
      },
      {
        analytic_plan: projects?.id,
        analytic_accounts: [{ analytic_account: proj[0]?.id, percentage: 100 }],
      },
    ];
    const { analytic_account: _none, ...plain } = line(ref, { quantity: 2, unit_price: 10, vat: 'V21' });
    const body = invoiceBody(ref, 'customer_invoice', [
      { ...plain, analytic_distribution: distribution } as never,
    ]);
    const created = await a.post('/invoices/multi-analytic-plans', body);
    expect(created.status, created.text).toBe(200);
    InvoiceItemOutMultiAnalyticPlans.parse(created.body);
    expect(created.body.lines[0].analytic_distribution).toEqual(distribution);
    const multi = await a.get(`/invoices/multi-analytic-plans/${created.body.id}?include_invoice_lines=true`);
    expect(multi.body.lines[0].analytic_distribution).toEqual(distribution);
    const mono = await a.get(`/invoices/${created.body.id}?include_invoice_lines=true`);
    expect(mono.body.lines[0].analytic_account).toBe(dept[0]?.id);
    const listed = await all(
      a,
      '/invoices/multi-analytic-plans/type/customer_invoice?include_invoice_lines=true&date_from=2026-01-15',
    );
    expect(listed.find((i) => i.id === created.body.id).lines[0].analytic_distribution).toEqual(distribution);
    const entry = (await entriesOf('unposted_allowed=false&date_from=2026-01-15')).find(
      (e) => e.name === created.body.invoice_number,
    );
    const revenue = (await a.get(`/journal/entries/${entry.id}`)).body.items[1];
    expect(revenue.analytic_distribution).toEqual(distribution);
    const monoEntries = await entriesOf('unposted_allowed=false&date_from=2026-01-15');
    expect(monoEntries.find((e) => e.id === entry.id).items[1]).toMatchObject({
      analytic_account: dept[0]?.id,
      analytic_account_name: 'Sales department',
    });
  });

  it('takes one analytic account per line in the mono variant', async () => {
    const account = ref.analytic[0];
    const body = invoiceBody(ref, 'customer_invoice', [
      line(ref, { quantity: 1, unit_price: 10, vat: 'V21', analytic_account: account?.id }),
    ]);
    const created = await a.post('/invoices', body);
    expect(created.status, created.text).toBe(200);
    expect(created.body.lines[0].analytic_account).toBe(account?.id);
    const multi = await a.get(`/invoices/multi-analytic-plans/${created.body.id}?include_invoice_lines=true`);
    expect(multi.body.lines[0].analytic_distribution).toEqual([
      {
        analytic_plan: account?.plan_id,
        analytic_accounts: [{ analytic_account: account?.id, percentage: 100 }],
      },
    ]);
    const unknown = await a.post(
      '/invoices',
      invoiceBody(ref, 'customer_invoice', [
        line(ref, { quantity: 1, unit_price: 10, vat: 'V21', analytic_account: 'nope' }),
      ]),
    );
    expectError(unknown, serviceError('analyticAccountNotFound'));
    expect(unknown.body.error_code).toBe('ERROR_ANALYTIC_ACCOUNT_NOT_FOUND');
  });

  it('keeps an attached PDF', async () => {
    const created = await a.post('/invoices', sale({ pdf: TINY_PDF, pdf_name: 'invoice-42.pdf' }));
    expect(created.body.attachments_info).toEqual({
      status: 'yes',
      attachments: [{ filename: 'invoice-42.pdf', url: null }],
    });
  });
});

describe('accounting invoices: rules', () => {
  const mutate = (fn: (body: ReturnType<typeof sale>) => void) => {
    const body = sale();
    fn(body);
    return body;
  };
  const cases: [string, () => object, RegExp][] = [
    ['an unknown partner', () => sale({ partner_id: 'nobody' }), /partner 'nobody' does not exist/],
    [
      'a supplier on a sale',
      () => sale({ partner_id: ref.suppliers.find((s) => !ref.clients.some((c) => c.id === s.id))?.id }),
      /is not a client/,
    ],
    ['no partner', () => sale({ partner_id: null }), /partner_id is required/],
    ['an unknown journal', () => sale({ journal_id: 'nojournal' }), /journal 'nojournal' does not exist/],
    [
      'a purchase journal on a sale',
      () => sale({ journal_id: ref.journals.ACH?.id }),
      /cannot book a customer_invoice/,
    ],
    [
      'an unknown VAT code',
      () =>
        mutate((b) => {
          (b.lines[0] as { tax_code: string }).tax_code = 'X';
        }),
      /VAT code 'X' does not exist/,
    ],
    [
      'a purchase VAT code on a sale',
      () => invoiceBody(ref, 'customer_invoice', [line(ref, { quantity: 1, unit_price: 10, vat: 'A21' })]),
      /purchase code and cannot be used on a sale/,
    ],
    [
      'an inactive VAT code',
      () => invoiceBody(ref, 'customer_invoice', [line(ref, { quantity: 1, unit_price: 10, vat: 'OLD21' })]),
      /is not active/,
    ],
    [
      'an unknown account',
      () =>
        invoiceBody(ref, 'customer_invoice', [
          line(ref, { quantity: 1, unit_price: 10, vat: 'V21', account: '709999' }),
        ]),
      /account number '709999' does not exist/,
    ],
    ['a date in the closed book year', () => sale({ invoice_date: '2024-12-31' }), /closed book year 2024/],
    ['a date outside every book year', () => sale({ invoice_date: '2027-01-02' }), /outside every book year/],
    ['no lines', () => sale({ lines: [], untaxed_amount: 0, tax_amount: 0, total: 0 }), /has no line/],
    [
      'an untaxed amount that is not the sum of the lines',
      () => sale({ untaxed_amount: 441.49, total: 522.21 }),
      /untaxed_amount 441.49 is not the sum/,
    ],
    [
      'a tax amount that is not the sum of the lines',
      () => sale({ tax_amount: 80.71, total: 522.21 }),
      /tax_amount 80.71 is not the sum/,
    ],
    [
      'a total that is not untaxed + tax',
      () => sale({ total: 522.23 }),
      /total 522.23 is not untaxed_amount \+ tax_amount/,
    ],
    [
      'a line rate that is not its VAT code rate',
      () =>
        mutate((b) => {
          (b.lines[0] as { tax_rate: number }).tax_rate = 20;
        }),
      /tax_rate 20 is not the rate 21/,
    ],
    [
      'a wrong line tax',
      () =>
        mutate((b) => {
          const l = b.lines[0] as { tax_amount: number; total: number };
          l.tax_amount += 1;
          l.total += 1;
          b.tax_amount += 1;
          b.total += 1;
        }),
      /is not 21% of/,
    ],
    [
      'a line untaxed amount that is not quantity x price',
      () =>
        mutate((b) => {
          (b.lines[0] as { quantity: number }).quantity = 4;
        }),
      /is not quantity 4 x unit_price/,
    ],
    [
      'a wrong line total',
      () =>
        mutate((b) => {
          (b.lines[0] as { total: number }).total += 0.05;
        }),
      /lines\[0\]: total/,
    ],
    [
      'an untaxed amount of 0',
      () => invoiceBody(ref, 'customer_invoice', [line(ref, { quantity: 0, unit_price: 10, vat: 'V21' })]),
      /untaxed amount of 0/,
    ],
    ['a currency that is not ISO 4217', () => sale({ currency: 'euro' }), /not an ISO 4217 code/],
    [
      'an unknown payment term',
      () => sale({ payment_term_id: 'soon' }),
      /payment term 'soon' does not exist/,
    ],
    [
      'an unknown payment method',
      () => sale({ payment_method_id: 'card' }),
      /payment method 'card' does not exist/,
    ],
    ['a bad forced financial period', () => sale(), /forced financial period/],
    ['a PDF that is not a PDF', () => sale({ pdf: Buffer.from('hello').toString('base64') }), /not a PDF/],
  ];

  /** The cases the service documents, with their error_code; the others answer the generic failure. */
  const documented: Record<string, ApiError> = {
    'an unknown partner': serviceError('partnerNotFound'),
    'a supplier on a sale': serviceError('partnerNotFound'),
    'an unknown journal': serviceError('journalNotFound'),
    'a purchase journal on a sale': serviceError('journalNotGoodScope'),
    'an unknown VAT code': serviceError('taxCodeNotFound'),
    'an unknown account': serviceError('accountNumberNotFound'),
    'a date outside every book year': serviceError('bookyearNotFound'),
    'no lines': serviceError('noInvoiceLine'),
    'an untaxed amount of 0': serviceError('zeroInvoice'),
    'a currency that is not ISO 4217': serviceError('currencyNotFound'),
    'a bad forced financial period': serviceError('invalidFinancialPeriodFormat'),
    'a PDF that is not a PDF': serviceError('invalidBase64'),
  };

  it.each(cases)('refuses %s and leaves nothing behind', async (label, body, detail) => {
    // No seeded year is closed: the cases dated in 2024 need it closed.
    await closeBookYear(a, '2024');
    const before = (await a.get('/invoices/type/customer_invoice')).body.total;
    const entriesBefore = (await a.get('/journal/entries?unposted_allowed=true')).body.total;
    const query = label.includes('forced financial period') ? '?force_financial_period=2026-01' : '';
    const res = await a.post(`/invoices${query}`, body());
    const error = documented[label] ?? failure;
    expectError(res, error);
    expect(res.body.error_code ?? null).toBe(error.errorCode ?? null);
    expect(res.body.detail).toMatch(detail);
    expect((await a.get('/invoices/type/customer_invoice')).body.total).toBe(before);
    expect((await a.get('/journal/entries?unposted_allowed=true')).body.total).toBe(entriesBefore);
  });

  it('books a draft dated in a closed book year (the SDK does), but posts nothing there', async () => {
    await closeBookYear(a, '2024');
    const draft = await a.post('/invoices', sale({ invoice_date: '2024-12-01', status: 'draft' }));
    expect(draft.status, draft.text).toBe(200);
    expect(draft.body.status).toBe('draft');
    const posted = await a.post('/invoices', sale({ invoice_date: '2024-12-01' }));
    expectError(posted, failure);
    expect(posted.body.detail).toMatch(/closed book year 2024/);
  });

  it('books an invoice for an inactive client, as the software does', async () => {
    const inactive = (await all(a, '/clients')).find((c) => !c.active);
    expect(inactive).toBeDefined();
    const res = await a.post('/invoices', sale({ partner_id: inactive.id }));
    expect(res.status, res.text).toBe(200);
    expect(res.body.partner_id).toBe(inactive.id);
  });

  it('books an invoice in another currency at its rate; a journal kept in euros refuses it', async () => {
    const created = await a.post('/invoices', sale({ currency: 'USD', currency_exchange_rate: 0.9 }));
    expect(created.status, created.text).toBe(200);
    expect(created.body.accounting_info).toMatchObject({ main_currency: 'EUR', main_currency_total: 470 });
    const bank = await pay(created.body.id, 100, { currency: 'USD' });
    expectError(bank, failure);
    expect(bank.body.detail).toMatch(/journal 'BNK' only takes EUR, not USD/);
    expect(
      (await pay(created.body.id, 100, { currency: 'USD', payment_method_id: ref.methods.Cash })).status,
    ).toBe(204);
    expect((await a.get(`/invoices/id/${created.body.id}/payments`)).body.items).toMatchObject([
      { currency: 'USD', journal_id: ref.journals.CSH?.id, dedicated_amount: 100 },
    ]);
  });

  it('refuses an invoice number already used in the journal', async () => {
    expect((await a.post('/invoices', sale({ invoice_number: 'INV-1' }))).status).toBe(200);
    const again = await a.post('/invoices', sale({ invoice_number: 'INV-1' }));
    expectError(again, serviceError('invoiceNumberAlreadyUsed'));
    expect(again.status).toBe(409);
    expect(again.body.error_code).toBe('ERROR_INVOICE_NUMBER_ALREADY_USED');
    expect(again.body.detail).toMatch(/'INV-1' is already used in the journal 'VEN'/);
  });

  it('asks for a journal when several can book the type', async () => {
    await a.post('/journal', { code: 'VEN2', name: 'Second sales', journal_type: 'customer_invoice' });
    const res = await a.post('/invoices', sale());
    expectError(res, serviceError('multipleJournals'));
    expect(res.body.error_code).toBe('ERROR_MULTIPLE_JOURNALS');
    expect(res.body.detail).toMatch(/Several journals can book a customer_invoice: give journal_id/);
    expect((await a.post('/invoices', sale({ journal_id: ref.journals.VEN?.id }))).status).toBe(200);
  });

  it.each([
    ['percentages that do not add up to 100', 50, /add up to 50, not 100/],
    ['an account of another plan', 100, /does not exist in the plan/],
  ])('refuses an analytic distribution with %s', async (label, percentage, detail) => {
    const [departments, projects] = ref.plans;
    const account = ref.analytic.find(
      (x) => x.plan_id === (label.includes('another') ? projects?.id : departments?.id),
    );
    const { analytic_account: _none, ...plain } = line(ref, { quantity: 1, unit_price: 10, vat: 'V21' });
    const body = invoiceBody(ref, 'customer_invoice', [
      {
        ...plain,
        analytic_distribution: [
          {
            analytic_plan: departments?.id,
            analytic_accounts: [{ analytic_account: account?.id, percentage }],
          },
        ],
      } as never,
    ]);
    const res = await a.post('/invoices/multi-analytic-plans', body);
    expectError(res, label.includes('another') ? serviceError('analyticAccountNotFound') : failure);
    expect(res.body.detail).toMatch(detail);
  });

  it('refuses an unknown analytic plan (ERROR_ANALYTIC_PLAN_NOT_FOUND)', async () => {
    const { analytic_account: _none, ...plain } = line(ref, { quantity: 1, unit_price: 10, vat: 'V21' });
    const body = invoiceBody(ref, 'customer_invoice', [
      {
        ...plain,
        analytic_distribution: [
          { analytic_plan: 'no-plan', analytic_accounts: [{ analytic_account: 'x', percentage: 100 }] },
        ],
      } as never,
    ]);
    const res = await a.post('/invoices/multi-analytic-plans', body);
    expectError(res, serviceError('analyticPlanNotFound'));
    expect(res.body.error_code).toBe('ERROR_ANALYTIC_PLAN_NOT_FOUND');
  });

  it.each([
    ['an unknown invoice type', { invoice_type: 'sale' }, ['body', 'invoice_type'], 'enum'],
    ['no lines', { lines: undefined }, ['body', 'lines'], 'missing'],
    ['a date that is not a date', { invoice_date: '15/01/2026' }, ['body', 'invoice_date'], undefined],
    ['an unknown status', { status: 'paid' }, ['body', 'status'], undefined],
    [
      'a line without tax code',
      {
        lines: [
          {
            quantity: 1,
            unit_price: 1,
            untaxed_amount: 1,
            tax_rate: 0,
            tax_amount: 0,
            total: 1,
            account_number: '700000',
          },
        ],
      },
      ['body', 'lines', 0, 'tax_code'],
      'missing',
    ],
  ] as [string, Record<string, unknown>, (string | number)[], string | undefined][])(
    'validates an invoice with %s (422)',
    async (_label, overrides, loc, type) => {
      expectValidation(await a.post('/invoices', sale(overrides)), loc, type);
    },
  );
});

describe('accounting invoices: payment rules', () => {
  let invoice: { id: string; total: number };
  beforeEach(async () => {
    invoice = (await a.post('/invoices', sale())).body;
  });

  const cases: [string, () => Record<string, unknown>, RegExp][] = [
    [
      'an unknown payment method',
      () => ({ payment_method_id: 'nope' }),
      /payment method 'nope' does not exist/,
    ],
    [
      'an unknown invoice',
      () => ({ items: [{ invoice_id: 'nope', amount: 1 }] }),
      /invoice 'nope' does not exist/,
    ],
    [
      'another currency than the invoice',
      () => ({ currency: 'USD', payment_method_id: ref.methods.Cash }),
      /is in EUR, not USD/,
    ],
    [
      'the same invoice twice',
      () => ({
        items: [
          { invoice_id: invoice.id, amount: 1 },
          { invoice_id: invoice.id, amount: 1 },
        ],
      }),
      /is paid twice/,
    ],
    ['a date in the closed book year', () => ({ date: '2024-06-30' }), /closed book year 2024/],
    ['no items', () => ({ items: [] }), /at least one item/],
  ];

  it.each(cases)('refuses a payment with %s', async (label, overrides, detail) => {
    // No seeded year is closed: the cases dated in 2024 need it closed.
    await closeBookYear(a, '2024');
    const res = await pay(invoice.id, 10, overrides());
    expectError(res, label === 'an unknown invoice' ? serviceError('accountingInvoiceNotFound') : failure);
    expect(res.body.detail).toMatch(detail);
    expect((await a.get(`/invoices/id/${invoice.id}/payments`)).body.total).toBe(0);
  });

  it('refuses a payment of client and supplier invoices together', async () => {
    const purchase = (
      await a.post(
        '/invoices',
        invoiceBody(ref, 'supplier_invoice', [line(ref, { quantity: 1, unit_price: 10, vat: 'A21' })]),
      )
    ).body;
    const res = await pay(invoice.id, 10, {
      items: [
        { invoice_id: invoice.id, amount: 10 },
        { invoice_id: purchase.id, amount: 10 },
      ],
    });
    expectError(res, failure);
    expect(res.body.detail).toMatch(/cannot settle client and supplier invoices together/);
  });

  it('validates a payment body (422)', async () => {
    expectValidation(await pay(invoice.id, 0), ['body', 'items', 0, 'amount'], 'greater_than');
    expectValidation(await pay(invoice.id, -5), ['body', 'items', 0, 'amount'], 'greater_than');
    expectValidation(
      await a.post('/invoices/payments', { currency: 'EUR', items: [] }),
      ['body', 'date'],
      'missing',
    );
  });

  it('is idempotent with a client request id: one payment only', async () => {
    const headers = { 'x-chift-client-requestid': 'pay-1' };
    const first = await pay(invoice.id, 100);
    expect(first.status).toBe(204);
    const once = await a.post(
      '/invoices/payments',
      {
        date: '2026-01-20',
        payment_method_id: ref.methods['Bank transfer'],
        currency: 'EUR',
        items: [{ invoice_id: invoice.id, amount: 50 }],
      },
      { headers },
    );
    const twice = await a.post(
      '/invoices/payments',
      {
        date: '2026-01-20',
        payment_method_id: ref.methods['Bank transfer'],
        currency: 'EUR',
        items: [{ invoice_id: invoice.id, amount: 50 }],
      },
      { headers },
    );
    expect([once.status, twice.status]).toEqual([204, 204]);
    const payments = (await a.get(`/invoices/id/${invoice.id}/payments`)).body.items;
    expect(payments.map((p: { dedicated_amount: number }) => p.dedicated_amount)).toEqual([100, 50]);
  });
});

describe('accounting invoices: book years follow the sandbox clock', () => {
  const bookyears = async (s: AccountingSandbox) =>
    (await all(s, '/bookyears')).map((y: { name: string; closed: boolean }) => [y.name, y.closed]);
  /** Moves the sandbox clock (tokens expire with it: the sandbox answers with a fresh one). */
  const moveClock = async (to: string) => {
    a.app.services.clock.set(new Date(to));
    return forConsumer(a, await sandboxToken(a), a.consumerId);
  };

  it('opens the new year when the clock enters it: an invoice dated then is booked', async () => {
    const years = await bookyears(a);
    expect(years.at(-1)).toEqual(['2026', false]);
    expect(years.some(([name]) => name === '2027')).toBe(false);
    const later = await moveClock('2027-02-01T09:00:00Z');
    const booked = await later.post(
      '/invoices',
      sale({ invoice_date: '2027-02-01', due_date: '2027-03-03' }),
    );
    expect(booked.status, booked.text).toBe(200);
    expect(booked.body.invoice_number).toMatch(/\/2027\//);
    expect((await bookyears(later)).at(-1)).toEqual(['2027', false]);
    // A date two years ahead of the clock is in no book year yet.
    const ahead = await later.post('/invoices', sale({ invoice_date: '2029-02-01', due_date: '2029-03-03' }));
    expectError(ahead, serviceError('bookyearNotFound'));
    expect(ahead.body.error_code).toBe('ERROR_BOOKYEAR_NOT_FOUND');
  });

  it('opens each year a jump of the clock passes, at the first read', async () => {
    const before = (await bookyears(a)).length;
    const later = await moveClock('2028-06-30T12:00:00Z');
    const years = await bookyears(later);
    expect(years.length).toBe(before + 2);
    expect(years.slice(-2)).toEqual([
      ['2027', false],
      ['2028', false],
    ]);
    // Opened once: reading again adds nothing.
    expect(await bookyears(later)).toEqual(years);
    const journal = (await all(later, '/journals')).find((j: { code: string }) => j.code === 'VEN');
    expect(journal.next_document_numbers.map((n: { bookyear_name: string }) => n.bookyear_name)).toContain(
      '2028',
    );
    const booked = await later.post(
      '/invoices',
      sale({ invoice_date: '2028-06-30', due_date: '2028-07-30' }),
    );
    expect(booked.status, booked.text).toBe(200);
    expectError(
      await later.post('/invoices', sale({ invoice_date: '2030-01-02', due_date: '2030-02-01' })),
      serviceError('bookyearNotFound'),
    );
  });

  it('opens the book years of the clock in a ledger reopened from the world file, storing none', async () => {
    const file = join(tempDir('bookyears-'), 'world.json');
    const first = sandbox({ store: closedAfterTest(await openWorldFile(file, () => seedWorld(SEED))) });
    const one = forConsumer(first, await sandboxToken(first), a.consumerId);
    const before = await bookyears(one);
    first.app.services.clock.set(new Date('2027-03-01T09:00:00Z'));
    const later = forConsumer(first, await sandboxToken(first), a.consumerId);
    expect(await bookyears(later)).toEqual([...before, ['2027', false]]);
    // Reopened with the default clock (January 2026): the ledger follows the clock, whose year 2027
    // has not come yet (the years are opened as the ledger is built, not stored by the read).
    const second = sandbox({ store: closedAfterTest(await openWorldFile(file, () => seedWorld(SEED))) });
    const two = forConsumer(second, await sandboxToken(second), a.consumerId);
    expect(await bookyears(two)).toEqual(before);
  });
});

describe('accounting invoices: the seeded book years are open to past dates', () => {
  // The official SDK's own data: an invoice of December 2022, a financial entry dated 2022-01-01.
  const sdkInvoice = () => sale({ invoice_date: '2022-12-15', due_date: '2023-01-14' });
  const sdkFinancialEntry = () => ({
    date: '2022-01-01',
    journal_id: Object.values(ref.journals).find((j) => j.journal_type === 'financial_operation')?.id,
    currency: 'EUR',
    currency_exchange_rate: 1,
    items: [{ account_type: 'customer_account', account: ref.clients[0]?.id, amount: 10 }],
  });

  it('posts an invoice of December 2022 and a financial entry of 2022-01-01; once 2022 is closed, refuses them', async () => {
    const invoice = await a.post('/invoices', sdkInvoice());
    expect(invoice.status, invoice.text).toBe(200);
    expect(invoice.body).toMatchObject({ invoice_date: '2022-12-15', status: 'posted' });
    const entry = await a.post('/financial-entries', sdkFinancialEntry());
    expect(entry.status, entry.text).toBe(200);
    expect(entry.body.date).toBe('2022-01-01');

    await closeBookYear(a, '2022');
    expect((await all(a, '/bookyears')).find((y) => y.name === '2022')).toMatchObject({ closed: true });
    const invoices = (await a.get('/invoices/type/customer_invoice')).body.total;
    const entries = (await a.get('/journal/entries?unposted_allowed=true')).body.total;
    const refusedInvoice = await a.post('/invoices', sdkInvoice());
    expectError(refusedInvoice, failure);
    expect(refusedInvoice.body.detail).toMatch(/closed book year 2022/);
    const refusedEntry = await a.post('/financial-entries', sdkFinancialEntry());
    expectError(refusedEntry, failure);
    expect(refusedEntry.body.detail).toMatch(/closed book year 2022/);
    expect((await a.get('/invoices/type/customer_invoice')).body.total).toBe(invoices);
    expect((await a.get('/journal/entries?unposted_allowed=true')).body.total).toBe(entries);
  });
});

describe('accounting invoices: reading', () => {
  it('leaves lines, payments and partner out unless asked for', async () => {
    const [first] = (await a.get('/invoices/type/customer_invoice?size=1')).body.items;
    expect(first).toMatchObject({ lines: [], payments: null, partner: null });
    const full = (
      await a.get(
        '/invoices/type/customer_invoice?size=1&include_invoice_lines=true&include_payments=true&include_partner_info=true',
      )
    ).body.items[0];
    expect(full.lines.length).toBeGreaterThan(0);
    expect(Array.isArray(full.payments)).toBe(true);
    expect(full.partner).toMatchObject({ id: full.partner_id, account_number: '400000' });
    const one = await a.get(`/invoices/${first.id}?include_partner_info=true`);
    expect(one.body.partner.id).toBe(first.partner_id);
    expectValidation(
      await a.get('/invoices/type/customer_invoice?include_payments=yes'),
      ['query', 'include_payments'],
      'enum',
    );
  });

  it('has seeded invoices of every kind and payment status', async () => {
    const sales = await all(a, '/invoices/type/customer_invoice');
    const statuses = new Set(sales.map((i) => i.status));
    expect(statuses).toEqual(new Set(['paid', 'posted']));
    const partly = await outstanding('client');
    expect(partly.some((o) => o.open_amount < o.amount && o.open_amount > 0)).toBe(true);
    expect((await all(a, '/invoices/type/supplier_invoice')).length).toBeGreaterThan(10);
    expect(
      (await all(a, '/invoices/type/customer_refund')).length +
        (await all(a, '/invoices/type/supplier_refund')).length,
    ).toBeGreaterThan(0);
    for (const invoice of sales.filter((i) => i.status === 'paid').slice(0, 5)) {
      const payments = (await a.get(`/invoices/id/${invoice.id}/payments`)).body.items as {
        dedicated_amount: number;
      }[];
      const settled = payments.reduce((t, p) => t + Math.round(p.dedicated_amount * 100), 0);
      expect(settled).toBe(Math.round(invoice.total * 100));
    }
  });

  it('filters by dates, journals, payment and approval status', async () => {
    const all2025 = await all(a, '/invoices/type/customer_invoice?date_from=2025-01-01&date_to=2025-12-31');
    expect(all2025.length).toBeGreaterThan(10);
    expect(all2025.every((i) => i.invoice_date >= '2025-01-01' && i.invoice_date <= '2025-12-31')).toBe(true);
    const dates = all2025.map((i) => i.invoice_date);
    expect(dates).toEqual([...dates].sort());
    const everything = await all(a, '/invoices/type/customer_invoice');
    const paid = await all(a, '/invoices/type/customer_invoice?payment_status=paid');
    const unpaid = await all(a, '/invoices/type/customer_invoice?payment_status=unpaid');
    expect(paid.length + unpaid.length).toBe(everything.length);
    expect(paid.every((i) => i.status === 'paid')).toBe(true);
    expect(await all(a, `/invoices/type/customer_invoice?journal_ids=${ref.journals.ACH?.id}`)).toEqual([]);
    expect(
      (
        await all(
          a,
          `/invoices/type/customer_invoice?journal_ids=${ref.journals.ACH?.id},${ref.journals.VEN?.id}`,
        )
      ).length,
    ).toBe(everything.length);
    const pending = await all(a, '/invoices/type/supplier_invoice?approval_status=pending');
    expect(pending.every((i) => i.approval_status === 'pending')).toBe(true);
    const approved = await all(a, '/invoices/type/supplier_invoice?approval_status=approved');
    expect(approved.length).toBeGreaterThan(0);
    expectValidation(
      await a.get('/invoices/type/customer_invoice?payment_status=late'),
      ['query', 'payment_status'],
      'enum',
    );
    expectValidation(await a.get('/invoices/type/customer_invoice?date_from=2025-13-01'), [
      'query',
      'date_from',
    ]);
  });

  it('answers 404 for an unknown invoice and 422 for an unknown type', async () => {
    expectError(await a.get('/invoices/unknown'), serviceError('accountingInvoiceNotFound'));
    expectError(
      await a.get('/invoices/multi-analytic-plans/unknown'),
      serviceError('accountingInvoiceNotFound'),
    );
    expectError(await a.get('/invoices/id/unknown/payments'), serviceError('accountingInvoiceNotFound'));
    expectValidation(await a.get('/invoices/type/sales'), ['path', 'invoice_type'], 'enum');
  });

  it('creates an invoice once per client request id', async () => {
    const headers = { 'x-chift-client-requestid': 'invoice-1' };
    const before = (await a.get('/invoices/type/customer_invoice')).body.total;
    const first = await a.post('/invoices', sale(), { headers });
    const again = await a.post('/invoices', sale(), { headers });
    expect(again.text).toBe(first.text);
    expect((await a.get('/invoices/type/customer_invoice')).body.total).toBe(before + 1);
    const transaction = Object.values(a.app.services.store.world.transactions).find(
      (t) => t.client_request_id === 'invoice-1',
    );
    expect(transaction?.created_entity_id).toBe(first.body.id);
  });
});
