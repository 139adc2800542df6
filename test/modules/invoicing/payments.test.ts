import { beforeEach, describe, expect, it } from 'vitest';
import { InvoicingPaymentItem } from '../../../src/modules/invoicing/api/invoicing.schemas.js';
import { expectValidation } from '../../helpers.js';
import { all, expectFailure, type VerticalSandbox, verticalSandbox } from '../verticals/finance-helpers.js';
import { keysOf, reference } from './helpers.js';

/** The Invoicing vertical: payments registered and changed, and their rules. */

let v: VerticalSandbox;

beforeEach(async () => {
  v = await verticalSandbox('invoicing');
});

describe('invoicing: payments registered and changed', () => {
  async function openInvoice(total = 121) {
    const r = await reference(v);
    const res = await v.post('/invoices', {
      invoice_type: 'customer_invoice',
      status: 'posted',
      currency: 'EUR',
      invoice_date: '2026-01-10',
      untaxed_amount: 100,
      tax_amount: total - 100,
      total,
      partner_id: r.customer.id,
    });
    expect(res.status, res.text).toBe(200);
    return { invoice: res.body, r };
  }

  it('a payment lowers the open amount; paying the rest makes the invoice paid', async () => {
    const { invoice, r } = await openInvoice();
    const first = await v.post(
      '/payments',
      {
        invoice_id: invoice.id,
        amount: 21,
        currency: 'EUR',
        date: '2026-01-12',
        payment_method_id: r.transfer,
      },
      { headers: { 'x-chift-client-requestid': 'pay-1' } },
    );
    expect(first.status, first.text).toBe(201);
    expect(Object.keys(InvoicingPaymentItem.parse(first.body)).sort()).toEqual(keysOf(InvoicingPaymentItem));
    expect(first.body).toMatchObject({
      status: 'completed',
      amount: 21,
      description: `Payment of ${invoice.invoice_number}`,
      payment_date: '2026-01-12T00:00:00.000Z',
      invoice_id: invoice.id,
      invoice_number: invoice.invoice_number,
      partner_id: r.customer.id,
      payment_method_name: 'Virement',
    });
    // Replayed, not paid twice.
    const again = await v.post(
      '/payments',
      {
        invoice_id: invoice.id,
        amount: 21,
        currency: 'EUR',
        date: '2026-01-12',
        payment_method_id: r.transfer,
      },
      { headers: { 'x-chift-client-requestid': 'pay-1' } },
    );
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    let now = (await v.get(`/invoices/${invoice.id}`)).body;
    expect(now).toMatchObject({ status: 'posted', outstanding_amount: 100, last_payment_date: '2026-01-12' });
    expect((await all(v, '/invoices?payment_status=unpaid')).map((i) => i.id)).toContain(invoice.id);
    const rest = await v.post('/payments', {
      invoice_id: invoice.id,
      amount: 100,
      currency: 'EUR',
      date: '2026-01-14',
    });
    expect(rest.status).toBe(201);
    expect(rest.body.payment_method_id).toBeNull();
    now = (await v.get(`/invoices/${invoice.id}`)).body;
    expect(now).toMatchObject({ status: 'paid', outstanding_amount: 0, last_payment_date: '2026-01-14' });
    expect((await all(v, '/invoices?payment_status=paid')).map((i) => i.id)).toContain(invoice.id);
    const ofInvoice = (await all(v, '/payments?date_from=2026-01-12')).filter(
      (p) => p.invoice_id === invoice.id,
    );
    expect(ofInvoice.map((p) => p.id)).toEqual([rest.body.id, first.body.id]);
    expect((await all(v, '/invoices?updated_after=2026-01-15T08:00:00Z')).map((i) => i.id)).toContain(
      invoice.id,
    );
  });

  it('refuses payments that break a rule of the software', async () => {
    const { invoice, r } = await openInvoice();
    const draft = await v.post('/invoices', {
      invoice_type: 'customer_invoice',
      status: 'draft',
      currency: 'EUR',
      invoice_date: '2026-01-10',
      untaxed_amount: 10,
      tax_amount: 0,
      total: 10,
    });
    const pay = { invoice_id: invoice.id, amount: 50, currency: 'EUR', date: '2026-01-12' };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...pay, invoice_id: 'nope' }, "invoice_id 'nope' is not an invoice of the software"],
      [{ ...pay, invoice_id: draft.body.id }, 'is draft: only a posted invoice can be paid'],
      [{ ...pay, amount: -1 }, 'amount must not be negative'],
      [{ ...pay, amount: 1e308 }, 'amount 1e+308 is too large to compute with'],
      [
        { ...pay, payment_method_id: 'nope' },
        "payment_method_id 'nope' is not a payment method of the software",
      ],
    ];
    for (const [body, detail] of cases) expectFailure(await v.post('/payments', body), detail);
    expect((await v.get(`/invoices/${invoice.id}`)).body.outstanding_amount).toBe(121);
    void r;
    expectValidation(
      await v.post('/payments', { amount: 1, currency: 'EUR', date: '2026-01-12' }),
      ['body', 'invoice_id'],
      'missing',
    );
  });

  it('takes another currency, an early date, and more than the open amount (the invoice is overpaid)', async () => {
    const { invoice } = await openInvoice();
    const pay = { invoice_id: invoice.id, currency: 'EUR', date: '2026-01-12' };
    for (const body of [
      { ...pay, amount: 0 },
      { ...pay, amount: 1, currency: 'USD' },
      { ...pay, amount: 1, date: '2026-01-09' },
    ]) {
      const res = await v.post('/payments', body);
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ currency: body.currency, date: `${body.date}T00:00:00.000Z` });
    }
    const over = await v.post('/payments', { ...pay, amount: 200 });
    expect(over.status, over.text).toBe(201);
    expect((await v.get(`/invoices/${invoice.id}`)).body).toMatchObject({
      status: 'paid',
      outstanding_amount: -81,
    });
  });

  it('changes a payment: amount, date, method, description; the invoice follows', async () => {
    const { invoice, r } = await openInvoice();
    const created = (
      await v.post('/payments', { invoice_id: invoice.id, amount: 21, currency: 'EUR', date: '2026-01-12' })
    ).body;
    const cash = r.methods.find((m) => m.name === 'Espèces').id;
    const changed = await v.patch(`/payments/${created.id}`, {
      amount: 121,
      date: '2026-01-13',
      payment_method_id: cash,
      description: 'Paid at the desk',
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({
      id: created.id,
      amount: 121,
      payment_date: '2026-01-13T00:00:00.000Z',
      payment_method_name: 'Espèces',
      description: 'Paid at the desk',
    });
    expect((await v.get(`/invoices/${invoice.id}`)).body).toMatchObject({
      status: 'paid',
      outstanding_amount: 0,
    });
    // Null and absent fields leave the payment as it is.
    const same = await v.patch(`/payments/${created.id}`, { amount: null, description: null });
    expect(same.body).toEqual(changed.body);
    const listed = (await all(v, '/payments')).find((p) => p.id === created.id);
    expect(listed).toEqual(changed.body);
  });

  it('refuses changes that break a rule of the software; takes the others', async () => {
    const { invoice } = await openInvoice();
    const created = (
      await v.post('/payments', { invoice_id: invoice.id, amount: 21, currency: 'EUR', date: '2026-01-12' })
    ).body;
    const cases: [string, Record<string, unknown>, string][] = [
      ['nope', { amount: 1 }, "The payment 'nope' does not exist"],
      [created.id, { amount: -1 }, 'amount must not be negative'],
      [created.id, { payment_method_id: 'nope' }, "payment_method_id 'nope' is not a payment method"],
    ];
    for (const [id, body, detail] of cases) expectFailure(await v.patch(`/payments/${id}`, body), detail);
    expect((await v.get(`/invoices/${invoice.id}`)).body.outstanding_amount).toBe(100);
    const changed = await v.patch(`/payments/${created.id}`, { amount: 121.5, date: '2025-12-31' });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ amount: 121.5, payment_date: '2025-12-31T00:00:00.000Z' });
    expect((await v.get(`/invoices/${invoice.id}`)).body.outstanding_amount).toBe(-0.5);
    expectValidation(await v.patch(`/payments/${created.id}`, { amount: 'ten' }), ['body', 'amount']);
  });
});
