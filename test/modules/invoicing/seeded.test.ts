import { beforeEach, describe, expect, it } from 'vitest';
import { errors, SERVICE_ERRORS, serviceError } from '../../../src/lib/errors.js';
import {
  ContactItemOut,
  InvoiceItemOut,
  InvoiceItemOutSingle,
  InvoicingBankAccountItem,
  InvoicingBankTransactionItem,
  InvoicingPaymentItem,
  InvoicingVatCode,
  OpportunityItem,
  ProductItemOut,
} from '../../../src/modules/invoicing/api/invoicing.schemas.js';
import { datasetKey } from '../../../src/store/world.js';
import { expectError, expectValidation } from '../../helpers.js';
import {
  addConnection,
  all,
  cents,
  consumerWith,
  forVertical,
  type VerticalSandbox,
  verticalSandbox,
} from '../verticals/finance-helpers.js';
import { type Item, keysOf, reference } from './helpers.js';

/** The Invoicing vertical as seeded: reference data, invoices and payments, opportunities and coverage. */

let v: VerticalSandbox;

beforeEach(async () => {
  v = await verticalSandbox('invoicing');
});

describe('invoicing: seeded reference data', () => {
  it('lists taxes, products, contacts, payment methods and bank accounts with every field', async () => {
    const r = await reference(v);
    expect(r.taxes.length).toBeGreaterThanOrEqual(6);
    for (const t of r.taxes)
      expect(Object.keys(InvoicingVatCode.parse(t)).sort()).toEqual(keysOf(InvoicingVatCode));
    expect(r.taxes.some((t) => t.active === false)).toBe(true);
    expect(r.products.length).toBeGreaterThanOrEqual(10);
    for (const p of r.products) {
      expect(Object.keys(ProductItemOut.parse(p)).sort()).toEqual(keysOf(ProductItemOut));
      expect(r.taxes.map((t) => t.id)).toContain(p.tax_id);
      expect(p.currency).toBe('EUR');
    }
    // Goods keep a stock, services none.
    expect(r.products.some((p) => typeof p.available_quantity === 'number' && p.available_quantity > 0)).toBe(
      true,
    );
    expect(r.products.some((p) => p.available_quantity === null)).toBe(true);
    expect(r.contacts.length).toBeGreaterThan(15);
    for (const c of r.contacts)
      expect(Object.keys(ContactItemOut.parse(c)).sort()).toEqual(keysOf(ContactItemOut));
    expect(r.methods.map((m) => m.name)).toEqual(['Virement', 'Carte bancaire', 'Espèces', 'Prélèvement']);
    const accounts = await all(v, '/bank-accounts');
    expect(accounts).toHaveLength(3);
    for (const a of accounts) {
      expect(Object.keys(InvoicingBankAccountItem.parse(a)).sort()).toEqual(keysOf(InvoicingBankAccountItem));
    }
  });

  it.each([
    ['customer', 'is_customer'],
    ['supplier', 'is_supplier'],
    ['prospect', 'is_prospect'],
  ])('filters contacts by contact_type=%s', async (type, flag) => {
    const every = await all(v, '/contacts');
    const some = await all(v, `/contacts?contact_type=${type}`);
    expect(some.length).toBeGreaterThan(0);
    expect(some.every((c) => c[flag] === true)).toBe(true);
    expect(some.map((c) => c.id)).toEqual(every.filter((c) => c[flag]).map((c) => c.id));
    expect((await all(v, '/contacts?contact_type=all')).length).toBe(every.length);
  });

  it('reads one contact, product, tax and payment method list by id, and 404s the missing ones', async () => {
    const r = await reference(v);
    const contact = r.contacts[0];
    expect((await v.get(`/contacts/${contact.id}`)).body).toEqual(contact);
    expect((await v.get(`/products/${r.products[0].id}`)).body).toEqual(r.products[0]);
    expect((await v.get(`/taxes/${r.taxes[0].id}`)).body).toEqual(r.taxes[0]);
  });

  it.each([
    ['/contacts/nope', 'invoicingContactNotFound'],
    ['/products/nope', 'invoicingProductNotFound'],
    ['/taxes/nope', 'invoicingTaxNotFound'],
    ['/opportunities/nope', 'invoicingOpportunityNotFound'],
    ['/invoices/not-a-uuid', 'invoicingInvoiceIdFormat'],
    ['/invoices/00000000-0000-4000-8000-000000000001', 'invoicingInvoiceNotFound'],
  ] as const)('GET %s answers the documented error (%s)', async (path, name) => {
    const res = await v.get(path);
    expectError(res, serviceError(name));
    const [status, code, message] = SERVICE_ERRORS[name];
    expect({ status: res.status, code: res.body.error_code, message: res.body.message }).toEqual({
      status,
      code,
      message,
    });
  });

  it('is built from the seed alone: another app with the same seed answers the same', async () => {
    const other = await verticalSandbox('invoicing');
    for (const path of ['/contacts?size=100', '/invoices?size=100', '/bank-transactions?size=5']) {
      if (path.startsWith('/bank-transactions')) {
        const account = (await all(v, '/bank-accounts'))[0].id;
        expect((await other.get(`${path}&bank_account_id=${account}`)).body).toEqual(
          (await v.get(`${path}&bank_account_id=${account}`)).body,
        );
      } else {
        expect((await other.get(path)).body).toEqual((await v.get(path)).body);
      }
    }
  });
});

describe('invoicing: invoices and payments as seeded', () => {
  it('invoices add up: lines, taxes, totals; open amounts follow the payments; statuses follow', async () => {
    const invoices = await all(v, '/invoices');
    const payments = await all(v, '/payments');
    expect(invoices.length).toBeGreaterThan(40);
    const types = new Set(invoices.map((i) => i.invoice_type));
    expect([...types].sort()).toEqual([
      'customer_invoice',
      'customer_refund',
      'supplier_invoice',
      'supplier_refund',
    ]);
    const statuses = new Set(invoices.map((i) => i.status));
    for (const s of ['paid', 'posted', 'draft', 'cancelled']) expect(statuses).toContain(s);
    expect(invoices.some((i) => i.currency === 'USD')).toBe(true);
    for (const invoice of invoices) {
      expect(Object.keys(InvoiceItemOut.parse(invoice)).sort()).toEqual(keysOf(InvoiceItemOut));
      expect(invoice.lines.length).toBeGreaterThan(0);
      const untaxed = invoice.lines.reduce((s: number, l: Item) => s + cents(l.untaxed_amount), 0);
      const tax = invoice.lines.reduce((s: number, l: Item) => s + cents(l.tax_amount), 0);
      expect(untaxed).toBe(cents(invoice.untaxed_amount));
      expect(tax).toBe(cents(invoice.tax_amount));
      expect(cents(invoice.untaxed_amount) + cents(invoice.tax_amount)).toBe(cents(invoice.total));
      for (const line of invoice.lines) {
        expect(cents(line.untaxed_amount) + cents(line.tax_amount)).toBe(cents(line.total));
        expect(
          Math.abs(
            cents(line.unit_price * line.quantity - line.discount_amount) - cents(line.untaxed_amount),
          ),
        ).toBeLessThanOrEqual(1);
      }
      const paid = payments
        .filter((p) => p.invoice_id === invoice.id)
        .reduce((s, p) => s + cents(p.amount), 0);
      if (invoice.status === 'cancelled') {
        expect(invoice.outstanding_amount).toBe(0);
        expect(paid).toBe(0);
      } else {
        expect(cents(invoice.outstanding_amount)).toBe(cents(invoice.total) - paid);
      }
      expect(invoice.status === 'paid').toBe(
        invoice.status !== 'cancelled' && invoice.status !== 'draft' && invoice.outstanding_amount === 0,
      );
      if (paid > 0) expect(invoice.last_payment_date).not.toBeNull();
      else expect(invoice.last_payment_date).toBeNull();
    }
    // Newest first.
    const dates = invoices.map((i) => i.invoice_date);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it('payments refer to existing invoices, in their currency, with their partner', async () => {
    const invoices = new Map((await all(v, '/invoices')).map((i) => [i.id, i]));
    const payments = await all(v, '/payments');
    const methods = new Map((await all(v, '/payment-methods')).map((m) => [m.id, m.name]));
    expect(payments.length).toBeGreaterThan(20);
    for (const payment of payments) {
      expect(Object.keys(InvoicingPaymentItem.parse(payment)).sort()).toEqual(keysOf(InvoicingPaymentItem));
      // payment_date as documented, and again as date, which the official Node client reads.
      expect(payment.date).toBe(payment.payment_date);
      const invoice = invoices.get(payment.invoice_id);
      expect(invoice).toBeDefined();
      expect(payment.invoice_number).toBe(invoice.invoice_number);
      expect(payment.partner_id).toBe(invoice.partner_id);
      expect(payment.currency).toBe(invoice.currency);
      expect(payment.payment_method_name).toBe(methods.get(payment.payment_method_id));
      expect(payment.payment_date.slice(0, 10) >= invoice.invoice_date).toBe(true);
      expect(payment.payment_date < '2026-01-15').toBe(true);
    }
  });

  it('bank statement lines carry the bank-transfer payments; balances add the done lines', async () => {
    const accounts = await all(v, '/bank-accounts');
    const invoices = new Map((await all(v, '/invoices')).map((i) => [i.id, i]));
    const world = v.app.services.store.world;
    const data = Object.values(world.invoicing_datasets).find((d) => d.consumerid === v.consumerId);
    expect(data).toBeDefined();
    for (const account of accounts) {
      const lines = await all(v, `/bank-transactions?bank_account_id=${account.id}`);
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) {
        expect(Object.keys(InvoicingBankTransactionItem.parse(line)).sort()).toEqual(
          keysOf(InvoicingBankTransactionItem),
        );
        expect(line.bank_account_id).toBe(account.id);
        expect(line.currency).toBe(account.currency);
        for (const doc of line.linked_documents.filter((d: Item) => d.type === 'invoice')) {
          expect(invoices.get(doc.id)).toBeDefined();
          expect(Math.abs(line.amount)).toBe(doc.amount);
        }
      }
      const opening = data?.bank_accounts[account.id]?.opening_balance ?? Number.NaN;
      const done = lines.filter((l) => l.status === 'done').reduce((s, l) => s + cents(l.amount), 0);
      expect(cents(account.balance)).toBe(cents(opening) + done);
    }
  });

  it('filters invoices by dates, type, payment status and updated_after', async () => {
    const every = await all(v, '/invoices');
    const between = await all(v, '/invoices?date_from=2025-03-01&date_to=2025-05-31');
    expect(between.length).toBeGreaterThan(0);
    expect(between.map((i) => i.id)).toEqual(
      every.filter((i) => i.invoice_date >= '2025-03-01' && i.invoice_date <= '2025-05-31').map((i) => i.id),
    );
    for (const type of ['customer_invoice', 'customer_refund', 'supplier_invoice', 'supplier_refund']) {
      const some = await all(v, `/invoices?invoice_type=${type}`);
      expect(some.length).toBeGreaterThan(0);
      expect(some.map((i) => i.id)).toEqual(every.filter((i) => i.invoice_type === type).map((i) => i.id));
    }
    expect((await all(v, '/invoices?invoice_type=all')).length).toBe(every.length);
    const paid = await all(v, '/invoices?payment_status=paid');
    const unpaid = await all(v, '/invoices?payment_status=unpaid');
    expect(paid.every((i) => i.status === 'paid')).toBe(true);
    expect(unpaid.every((i) => i.status === 'posted' || i.status === 'draft')).toBe(true);
    expect(paid.length + unpaid.length).toBe(every.filter((i) => i.status !== 'cancelled').length);
    const recent = await all(v, '/invoices?updated_after=2025-12-01T00:00:00Z');
    expect(recent.length).toBeGreaterThan(0);
    expect(recent.length).toBeLessThan(every.length);
    expect(recent.every((i) => i.last_updated_on > '2025-12-01T00:00:00')).toBe(true);
    // Without an offset, the instant is read as UTC.
    expect((await all(v, '/invoices?updated_after=2025-12-01T00:00:00')).length).toBe(recent.length);
  });

  it('fills the analytic distribution only when asked; includes lines where the software does', async () => {
    const plain = await v.get('/invoices?size=5');
    expect(
      plain.body.items.every(
        (i: Item) => i.lines.length > 0 && i.lines.every((l: Item) => l.analytic_distribution.length === 0),
      ),
    ).toBe(true);
    const analytic = await v.get('/invoices?size=5&include_analytic_accounts=true');
    const lines = analytic.body.items.flatMap((i: Item) => i.lines);
    expect(lines.every((l: Item) => l.analytic_distribution[0]?.analytic_plan_code === 'DEPT')).toBe(true);
    for (const l of lines) {
      const total = l.analytic_distribution[0].analytic_accounts.reduce(
        (s: number, a: Item) => s + a.percentage,
        0,
      );
      expect(total).toBe(100);
    }
  });

  it('with Billit (lines on a separate request) lists lines only with include_invoice_lines=true', async () => {
    const { consumerId } = await consumerWith(v, v.token, 7023, { username: 'u', password: 'p' });
    const billbox = forVertical(v, v.token, consumerId, 'invoicing');
    const without = await billbox.get('/invoices?size=10');
    expect(without.status).toBe(200);
    expect(without.body.items.every((i: Item) => i.lines.length === 0)).toBe(true);
    const withLines = await billbox.get('/invoices?size=10&include_invoice_lines=true');
    expect(withLines.body.items.every((i: Item) => i.lines.length > 0)).toBe(true);
    // By id, the lines always come.
    const one = await billbox.get(`/invoices/${without.body.items[0].id}`);
    expect(one.body.lines.length).toBeGreaterThan(0);
  });

  it('reads one invoice, with its PDF when asked', async () => {
    const [first] = (await v.get('/invoices?size=1')).body.items;
    const plain = await v.get(`/invoices/${first.id}`);
    expect(plain.status).toBe(200);
    expect(Object.keys(InvoiceItemOutSingle.parse(plain.body)).sort()).toEqual(keysOf(InvoiceItemOutSingle));
    expect(plain.body.pdf).toBeNull();
    const { pdf: _pdf, ...rest } = plain.body;
    expect(rest).toEqual(first);
    const withPdf = await v.get(`/invoices/${first.id.toUpperCase()}?include_pdf=true`);
    expect(withPdf.status).toBe(200);
    expect(Buffer.from(withPdf.body.pdf, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    expect(Buffer.from(withPdf.body.pdf, 'base64').toString('latin1')).toContain(first.invoice_number);
  });

  it('filters payments by dates and bank lines by dates and status', async () => {
    const every = await all(v, '/payments');
    const some = await all(v, '/payments?date_from=2025-06-01&date_to=2025-08-31');
    expect(some.length).toBeGreaterThan(0);
    expect(some.map((p) => p.id)).toEqual(
      every
        .filter(
          (p) => p.payment_date.slice(0, 10) >= '2025-06-01' && p.payment_date.slice(0, 10) <= '2025-08-31',
        )
        .map((p) => p.id),
    );
    const account = (await all(v, '/bank-accounts'))[0].id;
    const lines = await all(v, `/bank-transactions?bank_account_id=${account}`);
    const drafts = await all(v, `/bank-transactions?bank_account_id=${account}&status=draft`);
    const done = await all(v, `/bank-transactions?bank_account_id=${account}&status=done`);
    expect(drafts.length).toBeGreaterThan(0);
    expect(drafts.length + done.length).toBe(lines.length);
    expect(drafts.every((l) => l.status === 'draft' && l.linked_documents.length === 0)).toBe(true);
    const january = await all(
      v,
      `/bank-transactions?bank_account_id=${account}&date_from=2026-01-01&date_to=2026-01-31`,
    );
    expect(january.map((l) => l.id)).toEqual(lines.filter((l) => l.date >= '2026-01-01').map((l) => l.id));
  });

  it('lists no bank transactions for an unknown account; refuses a request without one', async () => {
    const unknown = await v.get('/bank-transactions?bank_account_id=nope');
    expect(unknown.status, unknown.text).toBe(200);
    expect(unknown.body).toMatchObject({ items: [], total: 0 });
    expectValidation(await v.get('/bank-transactions'), ['query', 'bank_account_id'], 'missing');
  });
});

describe('invoicing: opportunities and coverage', () => {
  it('Sandbox Invoicing Basic does not list opportunities (NOT_SUPPORTED) but reads one', async () => {
    const limited = forVertical(v, v.token, v.ids.coverageLimitsConsumerId, 'invoicing');
    const res = await limited.get('/opportunities');
    expectError(res, errors.accountingFailure(''));
    expect(res.body.detail).toBe(
      'Sandbox Invoicing Basic does not support invoicing_get_opportunities (NOT_SUPPORTED)',
    );
    await limited.get('/contacts');
    const data = Object.values(v.app.services.store.world.invoicing_datasets).find(
      (d) => d.consumerid === v.ids.coverageLimitsConsumerId,
    );
    const id = Object.keys(data?.opportunities ?? {})[0] as string;
    const one = await limited.get(`/opportunities/${id}`);
    expect(one.status).toBe(200);
    expect(Object.keys(OpportunityItem.parse(one.body)).sort()).toEqual(keysOf(OpportunityItem));
    // The default consumer's integration (Evoliz) lists them.
    expect((await v.get('/opportunities')).body.items.length).toBeGreaterThan(0);
  });

  it('Billit lists the pipeline: open ones with a probability, closed ones won or lost', async () => {
    const { consumerId } = await consumerWith(v, v.token, 7023, { username: 'u', password: 'p' });
    const billbox = forVertical(v, v.token, consumerId, 'invoicing');
    const items = await all(billbox, '/opportunities');
    expect(items).toHaveLength(10);
    const contacts = new Set((await all(billbox, '/contacts')).map((c) => c.id));
    for (const o of items) {
      OpportunityItem.parse(o);
      expect(contacts.has(o.partner_id)).toBe(true);
      if (o.status === 'open') expect(o.is_won).toBeNull();
      if (o.status === 'won') expect([o.is_won, o.probability]).toEqual([true, 100]);
      if (o.status !== 'open') expect(o.end_date).not.toBeNull();
    }
    expect((await billbox.get(`/opportunities/${items[0].id}`)).body).toEqual(items[0]);
  });

  it('X-Chift-ConnectionId picks among two Invoicing connections: each has its own data', async () => {
    const billboxConnection = await addConnection(v, v.token, v.consumerId, 7023, {
      username: 'u',
      password: 'p',
    });
    // The newest connection is the default; the header picks the other one.
    const fromBillit = await v.get('/opportunities?size=1');
    expect(fromBillit.status).toBe(200);
    const world = v.app.services.store.world;
    const invoicely = Object.values(world.connections).find(
      (c) => c.consumerid === v.consumerId && c.integrationid === 7010,
    );
    const res = await v.get('/opportunities?size=1', {
      headers: { 'x-chift-connectionid': invoicely?.connectionid ?? '' },
    });
    expect(res.status).toBe(200);
    expect(res.body.items[0].id).not.toBe(fromBillit.body.items[0].id);
    const a = await v.get('/contacts?size=3');
    const b = await v.get('/contacts?size=3', {
      headers: { 'x-chift-connectionid': invoicely?.connectionid ?? '' },
    });
    expect(a.body.items[0].id).not.toBe(b.body.items[0].id);
    expect(world.invoicing_datasets[datasetKey(v.consumerId, billboxConnection)]).toBeDefined();
  });
});
