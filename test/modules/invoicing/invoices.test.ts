import { beforeEach, describe, expect, it } from 'vitest';
import { InvoiceItemOut } from '../../../src/modules/invoicing/api/invoicing.schemas.js';
import { expectValidation } from '../../helpers.js';
import { all, expectFailure, type VerticalSandbox, verticalSandbox } from '../verticals/finance-helpers.js';
import { invoiceBody, keysOf, reference, STANDARD } from './helpers.js';

/** The Invoicing vertical: invoices created, and their rules. */

let v: VerticalSandbox;

beforeEach(async () => {
  v = await verticalSandbox('invoicing');
});

describe('invoicing: invoices created', () => {
  it('creates a posted invoice: numbered, open for its total, listed and readable', async () => {
    const r = await reference(v);
    const body = invoiceBody('customer_invoice', r.customer.id, {
      product_id: r.service.id,
      tax_id: r.standard.id,
      unit_price: 95,
      quantity: 3,
      rate: STANDARD.rate,
    });
    // Numbers go on from the last one of the series (the seeded January invoices), as the French
    // software numbers them.
    const numbers = (await all(v, '/invoices?invoice_type=customer_invoice'))
      .map((i) => i.invoice_number as string)
      .filter((n) => n.startsWith('FA2026-'));
    const next = (n: number) => `FA2026-${String(n).padStart(4, '0')}`;
    expect(numbers.length).toBeGreaterThan(0);
    const res = await v.post('/invoices', body, { headers: { 'x-chift-client-requestid': 'inv-1' } });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(InvoiceItemOut.parse(res.body)).sort()).toEqual(keysOf(InvoiceItemOut));
    expect(res.body).toMatchObject({
      invoice_type: 'customer_invoice',
      status: 'posted',
      invoice_number: next(numbers.length + 1),
      untaxed_amount: 285,
      tax_amount: 57,
      total: 342,
      outstanding_amount: 342,
      last_payment_date: null,
      last_updated_on: '2026-01-15T09:00:00.000Z',
      currency_exchange_rate: 1,
    });
    expect(res.body.lines[0]).toMatchObject({
      product_code: r.service.code,
      product_name: r.service.name,
      unit_of_measure: 'heure',
    });
    const again = await v.post('/invoices', body, { headers: { 'x-chift-client-requestid': 'inv-1' } });
    expect(again.body).toEqual(res.body);
    const listed = await all(v, '/invoices?date_from=2026-01-15');
    expect(listed.map((i) => i.id)).toEqual([res.body.id]);
    const { pdf: _pdf, ...one } = (await v.get(`/invoices/${res.body.id}`)).body;
    expect(one).toEqual(res.body);
    const second = await v.post('/invoices', body);
    expect(second.body.invoice_number).toBe(next(numbers.length + 2));
    const credits = (await all(v, '/invoices?invoice_type=customer_refund')).filter((i) =>
      i.invoice_number.startsWith('AV2026-'),
    );
    expect(
      (await v.post('/invoices', { ...body, invoice_type: 'customer_refund' })).body.invoice_number,
    ).toBe(`AV2026-${String(credits.length + 1).padStart(4, '0')}`);
  });

  it('creates an invoice without lines, and one with its own number and Italian fields', async () => {
    const r = await reference(v);
    const bare = await v.post('/invoices', {
      invoice_type: 'supplier_invoice',
      status: 'draft',
      currency: 'EUR',
      invoice_date: '2026-01-10',
      untaxed_amount: 100,
      tax_amount: 20,
      total: 120,
      partner_id: r.supplier.id,
    });
    expect(bare.status, bare.text).toBe(200);
    expect(bare.body).toMatchObject({
      status: 'draft',
      lines: [],
      invoice_number: 'AC2026-0001',
      due_date: null,
    });
    const italian = {
      withholding_tax: { rate: 20, amount: 20, reason: 'RT01', payment_reason: 'A' },
      welfare_fund: null,
      stamp_duty_amount: 2,
      payment_reporting: { method: 'MP05', conditions: 'TP02' },
    };
    const exportBody = {
      invoice_type: 'customer_invoice',
      status: 'posted',
      currency: 'USD',
      invoice_date: '2026-01-10',
      untaxed_amount: 100,
      tax_amount: 0,
      total: 100,
      invoice_number: 'EXPORT-7',
      italian_specificities: italian,
      journal_ref: { id: 'VT', model: 'journal' },
    };
    const own = await v.post('/invoices', exportBody);
    expect(own.status, own.text).toBe(200);
    expect(own.body).toMatchObject({
      invoice_number: 'EXPORT-7',
      currency_exchange_rate: 0.92,
      partner_id: null,
      italian_specificities: italian,
      journal_ref: { id: 'VT', model: 'journal', name: null },
    });
    expectFailure(await v.post('/invoices', exportBody), "The invoice number 'EXPORT-7' is already used");
    // Supplier numbers are the supplier's: two suppliers may use the same one.
    const other = r.contacts.find((c) => c.is_supplier && c.id !== r.supplier.id);
    const bill = {
      ...exportBody,
      invoice_type: 'supplier_invoice',
      currency: 'EUR',
      italian_specificities: null,
    };
    expect((await v.post('/invoices', { ...bill, partner_id: r.supplier.id })).status).toBe(200);
    expect((await v.post('/invoices', { ...bill, partner_id: other.id })).status).toBe(200);
    expectFailure(await v.post('/invoices', { ...bill, partner_id: other.id }), 'is already used');
  });

  it('refuses invoices that break a rule of the software, writing nothing', async () => {
    const r = await reference(v);
    const ok = {
      product_id: r.service.id,
      tax_id: r.standard.id,
      unit_price: 100,
      quantity: 2,
      rate: STANDARD.rate,
    };
    const base = invoiceBody('customer_invoice', r.customer.id, ok);
    const withLine = (change: Record<string, unknown>) => ({
      ...base,
      lines: [{ ...base.lines[0], ...change }],
    });
    const cases: [string, Record<string, unknown>, string][] = [
      [
        'unknown partner',
        { ...base, partner_id: 'nope' },
        "partner_id 'nope' is not a contact of the software",
      ],
      ['unknown product', withLine({ product_id: 'nope' }), "lines[0].product_id 'nope' is not a product"],
      ['unknown tax', withLine({ tax_id: 'nope' }), "lines[0].tax_id 'nope' is not a tax of the software"],
      [
        'negative posted total',
        { ...base, lines: [], untaxed_amount: -10, tax_amount: 0, total: -10 },
        'A posted total must not be negative',
      ],
      [
        'negative paid total',
        { ...base, status: 'paid', lines: [], untaxed_amount: -10, tax_amount: 0, total: -10 },
        'A posted total must not be negative',
      ],
      [
        'beyond computing',
        { ...base, lines: [], untaxed_amount: 1e308, tax_amount: 0, total: 1e308 },
        'untaxed_amount 1e+308 is too large to compute with',
      ],
    ];
    const before = (await v.get('/invoices')).body.total;
    for (const [, body, detail] of cases) expectFailure(await v.post('/invoices', body), detail);
    expect((await v.get('/invoices')).body.total).toBe(before);
  });

  it('takes what the software takes: amounts as sent, any tax of the software, either role, any currency and dates', async () => {
    const r = await reference(v);
    const purchaseOnly = r.taxes.find((t) => t.type === 'purchase');
    const inactive = r.taxes.find((t) => t.active === false);
    const ok = {
      product_id: r.service.id,
      tax_id: r.standard.id,
      unit_price: 100,
      quantity: 2,
      rate: STANDARD.rate,
    };
    const base = invoiceBody('customer_invoice', r.customer.id, ok);
    const withLine = (change: Record<string, unknown>) => ({
      ...base,
      lines: [{ ...base.lines[0], ...change }],
    });
    const cases: [string, Record<string, unknown>][] = [
      ['lower-case currency', { ...base, currency: 'eur' }],
      ['due before date', { ...base, due_date: '2026-01-01' }],
      ['inactive tax', withLine({ tax_id: inactive.id, tax_rate: inactive.rate })],
      ['purchase tax on a sale', withLine({ tax_id: purchaseOnly.id })],
      ['quantity 0', withLine({ quantity: 0 })],
      ['negative discount', withLine({ discount_amount: -5 })],
      ['untaxed off', withLine({ untaxed_amount: 150 })],
      ['line tax off', withLine({ tax_amount: 41 })],
      ['line total off', withLine({ total: 241 })],
      ['sums off', { ...base, untaxed_amount: 199, tax_amount: 41, total: 243 }],
      [
        'negative draft',
        { ...base, status: 'draft', lines: [], untaxed_amount: -10, tax_amount: 0, total: -10 },
      ],
      ['huge line', withLine({ unit_price: 1e300 })],
    ];
    for (const [label, body] of cases) {
      const res = await v.post('/invoices', body);
      expect(res.status, `${label}: ${res.text}`).toBe(200);
      expect(res.body).toMatchObject({
        untaxed_amount: body.untaxed_amount,
        tax_amount: body.tax_amount,
        total: body.total,
        currency: body.currency,
      });
    }
    // A tax named by id gives the line its rate.
    const rated = await v.post('/invoices', withLine({ tax_rate: 6 }));
    expect(rated.body.lines[0]).toMatchObject({ tax_rate: STANDARD.rate, tax_id: r.standard.id });
    // A supplier on a sale becomes a customer too, as the software marks it.
    const supplier = await v.post('/invoices', { ...base, partner_id: r.supplier.id });
    expect(supplier.status, supplier.text).toBe(200);
    expect((await v.get(`/contacts/${r.supplier.id}`)).body).toMatchObject({
      is_supplier: true,
      is_customer: true,
    });
  });

  it('creates an invoice as cancelled, or as paid (posted, with a payment of its total)', async () => {
    const r = await reference(v);
    const base = invoiceBody('customer_invoice', r.customer.id, {
      unit_price: 100,
      quantity: 1,
      rate: STANDARD.rate,
    });
    const cancelled = await v.post('/invoices', { ...base, status: 'cancelled' });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', outstanding_amount: 0 });
    const paid = await v.post('/invoices', { ...base, status: 'paid' });
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body).toMatchObject({
      status: 'paid',
      outstanding_amount: 0,
      last_payment_date: '2026-01-15',
    });
    const payments = (await all(v, '/payments')).filter((p) => p.invoice_id === paid.body.id);
    expect(payments).toEqual([
      expect.objectContaining({
        amount: 120,
        status: 'completed',
        payment_date: '2026-01-15T00:00:00.000Z',
        date: '2026-01-15T00:00:00.000Z',
      }),
    ]);
  });

  it.each([
    ['invoice_type', { invoice_type: 'quote' }],
    ['invoice_type', { invoice_type: 'all' }],
    ['invoice_date', { invoice_date: '15/01/2026' }],
    ['total', { total: 'a lot' }],
  ])('validates the invoice field %s', async (field, change) => {
    const r = await reference(v);
    const body = {
      ...invoiceBody('customer_invoice', r.customer.id, { unit_price: 1, quantity: 1, rate: 0 }),
      ...change,
    };
    expectValidation(await v.post('/invoices', body), ['body', field]);
  });
});
