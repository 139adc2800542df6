import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { seedWorld } from '../src/control/seeded-world.js';
import { errors, SERVICE_ERRORS, serviceError } from '../src/lib/errors.js';
import { tinyPdf } from '../src/lib/pdf.js';
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
  UploadDocumentItemOut,
} from '../src/modules/invoicing/invoicing.schemas.js';
import { Store } from '../src/store/store.js';
import { datasetKey } from '../src/store/world.js';
import {
  addConnection,
  all,
  cents,
  consumerWith,
  expectFailure,
  forVertical,
  type VerticalSandbox,
  verticalSandbox,
} from './finance-verticals-helpers.js';
import { call, expectError, expectValidation, SEED, sandbox, sandboxToken } from './helpers.js';

/** The Invoicing vertical through HTTP: seeded data, filters, derived values, writes and their rules. */

let v: VerticalSandbox;

beforeEach(async () => {
  v = await verticalSandbox('invoicing');
});

// biome-ignore lint/suspicious/noExplicitAny: items are read field by field
type Item = any;

const keysOf = (schema: { shape: object }) => Object.keys(schema.shape).sort();

async function reference() {
  const taxes: Item[] = await all(v, '/taxes');
  const products: Item[] = await all(v, '/products');
  const contacts: Item[] = await all(v, '/contacts');
  const methods: Item[] = await all(v, '/payment-methods');
  const tax = (code: string) => taxes.find((t) => t.code === code);
  return {
    taxes,
    products,
    contacts,
    methods,
    tax,
    customer: contacts.find((c) => c.is_customer && c.currency === 'EUR'),
    supplier: contacts.find((c) => c.is_supplier && !c.is_customer),
    goods: products.find((p) => p.available_quantity !== null && p.tax_id === tax('V21')?.id),
    service: products.find((p) => p.available_quantity === null),
    transfer: methods.find((m) => m.name === 'Bank transfer')?.id as string,
  };
}

/** A one-line invoice body whose amounts add up. */
function invoiceBody(
  type: string,
  partnerId: string | null,
  line: { product_id?: string; tax_id?: string; unit_price: number; quantity: number; rate: number },
  extra: Record<string, unknown> = {},
) {
  const untaxed = Math.round(line.unit_price * line.quantity * 100) / 100;
  const tax = Math.round(untaxed * line.rate) / 100;
  const total = Math.round((untaxed + tax) * 100) / 100;
  return {
    invoice_type: type,
    status: 'posted',
    currency: 'EUR',
    invoice_date: '2026-01-15',
    due_date: '2026-02-14',
    partner_id: partnerId,
    untaxed_amount: untaxed,
    tax_amount: tax,
    total,
    lines: [
      {
        description: 'Line',
        unit_price: line.unit_price,
        quantity: line.quantity,
        untaxed_amount: untaxed,
        tax_amount: tax,
        total,
        tax_rate: line.rate,
        tax_id: line.tax_id ?? null,
        product_id: line.product_id ?? null,
      },
    ],
    ...extra,
  };
}

describe('invoicing: seeded reference data', () => {
  it('lists taxes, products, contacts, payment methods and bank accounts with every field', async () => {
    const r = await reference();
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
    expect(r.methods.map((m) => m.name)).toEqual(['Bank transfer', 'Credit card', 'Cash', 'Direct debit']);
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
    const r = await reference();
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

describe('invoicing: who may call', () => {
  it('refuses a consumer without an Invoicing connection, and a missing consumer', async () => {
    const other = forVertical(v, v.token, v.ids.verticalConsumers.BANKING as string, 'invoicing');
    for (const path of ['/contacts', '/invoices', '/taxes/x']) {
      expectFailure(
        await other.get(path),
        'The consumer has no active connection to a Invoicing integration',
      );
    }
    expectFailure(await other.post('/contacts', { company_name: 'X' }), 'no active connection');
    const missing = forVertical(v, v.token, '00000000-0000-4000-8000-000000000009', 'invoicing');
    expectError(await missing.get('/contacts'), errors.consumerNotFound());
  });

  it.each([
    ['size=0', ['query', 'size']],
    ['size=101', ['query', 'size']],
    ['page=0', ['query', 'page']],
    ['contact_type=vip', ['query', 'contact_type']],
  ])('validates the paging and filters of lists (%s)', async (query, loc) => {
    expectValidation(await v.get(`/contacts?${query}`), loc);
  });

  it('pages: a page past the end is empty, with the right total', async () => {
    const first = await v.get('/contacts?size=5');
    expect(first.body).toMatchObject({ page: 1, size: 5 });
    expect(first.body.items).toHaveLength(5);
    const past = await v.get('/contacts?page=99&size=5');
    expect(past.body).toEqual({ items: [], total: first.body.total, page: 99, size: 5 });
    const second = await v.get('/contacts?page=2&size=5');
    expect(second.body.items[0].id).not.toBe(first.body.items[0].id);
  });

  it.each([
    ['/invoices?date_from=2025-13-01', ['query', 'date_from']],
    ['/invoices?invoice_type=quote', ['query', 'invoice_type']],
    ['/invoices?payment_status=late', ['query', 'payment_status']],
    ['/invoices?updated_after=yesterday', ['query', 'updated_after']],
    ['/invoices?include_invoice_lines=yes', ['query', 'include_invoice_lines']],
    ['/payments?date_to=never', ['query', 'date_to']],
  ])('validates %s', async (path, loc) => {
    expectValidation(await v.get(path), loc);
  });

  it('deleting the consumer removes its dataset; deleting the connection too', async () => {
    await v.get('/contacts');
    const world = v.app.services.store.world;
    expect(Object.values(world.invoicing_datasets).some((d) => d.consumerid === v.consumerId)).toBe(true);
    const connection = Object.values(world.connections).find((c) => c.consumerid === v.consumerId);
    const del = await call(
      v.app,
      'DELETE',
      `/consumers/${v.consumerId}/connections/${connection?.connectionid}`,
      {
        token: v.token,
      },
    );
    expect(del.status).toBe(204);
    expect(Object.values(world.invoicing_datasets).some((d) => d.consumerid === v.consumerId)).toBe(false);
    const sync = forVertical(v, v.token, v.ids.syncConsumerId, 'invoicing');
    await sync.get('/contacts');
    expect(Object.values(world.invoicing_datasets).some((d) => d.consumerid === v.ids.syncConsumerId)).toBe(
      true,
    );
    expect(
      (await call(v.app, 'DELETE', `/consumers/${v.ids.syncConsumerId}`, { token: v.token })).status,
    ).toBe(204);
    expect(Object.values(world.invoicing_datasets).some((d) => d.consumerid === v.ids.syncConsumerId)).toBe(
      false,
    );
  });
});

describe('invoicing: contacts and products created', () => {
  it('creates a contact from a company name alone: a customer, every other field null', async () => {
    const res = await v.post('/contacts', { company_name: 'Minimal SRL' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      company_name: 'Minimal SRL',
      is_customer: true,
      is_supplier: false,
      is_prospect: false,
      is_company: true,
      first_name: null,
      email: null,
      vat: null,
      gender: null,
      birthdate: null,
      addresses: [],
      external_reference: null,
      source_ref: { model: 'contact' },
    });
    expect(Object.keys(res.body).sort()).toEqual(keysOf(ContactItemOut));
    expect((await v.get(`/contacts/${res.body.id}`)).body).toEqual(res.body);
    expect((await all(v, '/contacts?contact_type=customer')).map((c) => c.id)).toContain(res.body.id);
    expect((await all(v, '/contacts?contact_type=supplier')).map((c) => c.id)).not.toContain(res.body.id);
  });

  it('creates a supplier person with an address', async () => {
    const res = await v.post('/contacts', {
      first_name: 'Ann',
      last_name: 'Peeters',
      is_supplier: true,
      email: 'ann@peeters.example',
      vat: 'BE0123456749',
      currency: 'EUR',
      birthdate: '1980-04-02',
      gender: 'F',
      addresses: [
        { address_type: 'main', street: 'Meir 1', city: 'Antwerpen', postal_code: '2000', country: 'be' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ is_supplier: true, is_customer: false, is_company: false, gender: 'F' });
    expect(res.body.addresses[0]).toMatchObject({ country: 'BE', street: 'Meir 1', name: null });
    expect(res.body.supplier_account_number).toMatch(/^440\d{3}$/);
  });

  it('takes any e-mail, VAT number and currency text (the reference states no format for them)', async () => {
    const res = await v.post('/contacts', {
      company_name: 'X',
      email: 'not-an-email',
      vat: 'BE 0123.456.789',
      currency: 'euro',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ email: 'not-an-email', vat: 'BE 0123.456.789', currency: 'euro' });
  });

  it.each([
    [{}, 'A contact needs a company_name'],
    [{ company_name: '  ' }, 'A contact needs a company_name'],
    [
      {
        company_name: 'X',
        addresses: [{ address_type: 'main', street: 's', city: 'c', postal_code: '1', country: 'XX' }],
      },
      "addresses[0].country 'XX' is not an ISO 3166-1 alpha-2 country code",
    ],
  ])('refuses the contact %j', async (body, detail) => {
    const before = (await v.get('/contacts')).body.total;
    expectFailure(await v.post('/contacts', body), detail);
    expect((await v.get('/contacts')).body.total).toBe(before);
  });

  it.each([
    [
      {
        company_name: 'X',
        addresses: [{ address_type: 'main', city: 'c', postal_code: '1', country: 'BE' }],
      },
      ['body', 'addresses', 0, 'street'],
    ],
    [{ company_name: 'X', gender: 'M' }, ['body', 'gender']],
    [{ company_name: 'X', birthdate: '1980-02-31' }, ['body', 'birthdate']],
  ])('validates the contact %j', async (body, loc) => {
    expectValidation(await v.post('/contacts', body), loc);
  });

  it('creates a contact once per client request id', async () => {
    const headers = { 'x-chift-client-requestid': 'contact-1' };
    const first = await v.post('/contacts', { company_name: 'Once NV' }, { headers });
    const again = await v.post('/contacts', { company_name: 'Once NV' }, { headers });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect((await all(v, '/contacts')).filter((c) => c.company_name === 'Once NV')).toHaveLength(1);
    const connection = Object.values(v.app.services.store.world.connections).find(
      (c) => c.consumerid === v.consumerId,
    );
    const lookup = await call(
      v.app,
      'GET',
      `/consumers/${v.consumerId}/connections/${connection?.connectionid}/transactions?client_request_id=contact-1`,
      { token: v.token },
    );
    expect(lookup.status).toBe(200);
    expect(lookup.body.created_entity_id).toBe(first.body.id);
  });

  it('creates a product: stock 0, visible in the list, moved by posted invoices only', async () => {
    const r = await reference();
    const created = await v.post('/products', {
      name: 'Desk lamp',
      unit_price: 49,
      tax_id: r.tax('V21').id,
      code: 'GDS-LAMP',
      unit: 'unit',
      currency: 'EUR',
      cost: 20,
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      name: 'Desk lamp',
      available_quantity: 0,
      description: null,
      category: null,
    });
    expect(Object.keys(created.body).sort()).toEqual(keysOf(ProductItemOut));
    expect((await all(v, '/products')).map((p) => p.id)).toContain(created.body.id);
    const line = {
      product_id: created.body.id,
      tax_id: r.tax('V21').id,
      unit_price: 20,
      quantity: 10,
      rate: 21,
    };
    const bought = await v.post('/invoices', invoiceBody('supplier_invoice', r.supplier.id, line));
    expect(bought.status, bought.text).toBe(200);
    expect((await v.get(`/products/${created.body.id}`)).body.available_quantity).toBe(10);
    const sale = { ...line, unit_price: 49, quantity: 3 };
    expect((await v.post('/invoices', invoiceBody('customer_invoice', r.customer.id, sale))).status).toBe(
      200,
    );
    expect((await v.get(`/products/${created.body.id}`)).body.available_quantity).toBe(7);
    const draft = invoiceBody('customer_invoice', r.customer.id, sale, { status: 'draft' });
    expect((await v.post('/invoices', draft)).status).toBe(200);
    expect((await v.get(`/products/${created.body.id}`)).body.available_quantity).toBe(7);
    const credit = invoiceBody('customer_refund', r.customer.id, { ...sale, quantity: 1 });
    expect((await v.post('/invoices', credit)).status).toBe(200);
    expect((await v.get(`/products/${created.body.id}`)).body.available_quantity).toBe(8);
  });

  it('refuses products without a name or with an unknown tax', async () => {
    const r = await reference();
    const cases: [Record<string, unknown>, string][] = [
      [{ name: ' ' }, 'name must not be empty'],
      [{ name: 'P', tax_id: 'nope' }, "tax_id 'nope' is not a tax of the software"],
    ];
    for (const [body, detail] of cases) expectFailure(await v.post('/products', body), detail);
    expect((await v.get('/products')).body.total).toBe(r.products.length);
    expectValidation(await v.post('/products', { unit_price: 3 }), ['body', 'name'], 'missing');
  });

  it('takes what the software takes: an archived tax, a code in use, negative or large amounts, any currency', async () => {
    const r = await reference();
    const inactive = r.taxes.find((t) => t.active === false);
    const bodies: Record<string, unknown>[] = [
      { name: 'P', tax_id: inactive.id },
      { name: 'P', code: r.products[0].code },
      { name: 'P', unit_price: -1, cost: -1 },
      { name: 'P', unit_price: 1e15 },
      { name: 'P', currency: 'EURO' },
    ];
    for (const body of bodies) {
      const res = await v.post('/products', body);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject(body);
    }
    expect((await v.get('/products')).body.total).toBe(r.products.length + bodies.length);
  });
});

describe('invoicing: invoices created', () => {
  it('creates a posted invoice: numbered, open for its total, listed and readable', async () => {
    const r = await reference();
    const body = invoiceBody('customer_invoice', r.customer.id, {
      product_id: r.service.id,
      tax_id: r.tax('V21').id,
      unit_price: 95,
      quantity: 3,
      rate: 21,
    });
    // Numbers go on from the last one of the series (the seeded January invoices).
    const numbers = (await all(v, '/invoices?invoice_type=customer_invoice'))
      .map((i) => i.invoice_number as string)
      .filter((n) => n.startsWith('INV-2026-'));
    const next = (n: number) => `INV-2026-${String(n).padStart(4, '0')}`;
    expect(numbers.length).toBeGreaterThan(0);
    const res = await v.post('/invoices', body, { headers: { 'x-chift-client-requestid': 'inv-1' } });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(InvoiceItemOut.parse(res.body)).sort()).toEqual(keysOf(InvoiceItemOut));
    expect(res.body).toMatchObject({
      invoice_type: 'customer_invoice',
      status: 'posted',
      invoice_number: next(numbers.length + 1),
      untaxed_amount: 285,
      tax_amount: 59.85,
      total: 344.85,
      outstanding_amount: 344.85,
      last_payment_date: null,
      last_updated_on: '2026-01-15T09:00:00.000Z',
      currency_exchange_rate: 1,
    });
    expect(res.body.lines[0]).toMatchObject({
      product_code: r.service.code,
      product_name: r.service.name,
      unit_of_measure: 'hour',
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
      i.invoice_number.startsWith('CN-2026-'),
    );
    expect(
      (await v.post('/invoices', { ...body, invoice_type: 'customer_refund' })).body.invoice_number,
    ).toBe(`CN-2026-${String(credits.length + 1).padStart(4, '0')}`);
  });

  it('creates an invoice without lines, and one with its own number and Italian fields', async () => {
    const r = await reference();
    const bare = await v.post('/invoices', {
      invoice_type: 'supplier_invoice',
      status: 'draft',
      currency: 'EUR',
      invoice_date: '2026-01-10',
      untaxed_amount: 100,
      tax_amount: 21,
      total: 121,
      partner_id: r.supplier.id,
    });
    expect(bare.status, bare.text).toBe(200);
    expect(bare.body).toMatchObject({
      status: 'draft',
      lines: [],
      invoice_number: 'BILL-2026-0001',
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
      journal_ref: { id: 'SAL', model: 'journal' },
    };
    const own = await v.post('/invoices', exportBody);
    expect(own.status, own.text).toBe(200);
    expect(own.body).toMatchObject({
      invoice_number: 'EXPORT-7',
      currency_exchange_rate: 0.92,
      partner_id: null,
      italian_specificities: italian,
      journal_ref: { id: 'SAL', model: 'journal', name: null },
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
    const r = await reference();
    const ok = {
      product_id: r.service.id,
      tax_id: r.tax('V21').id,
      unit_price: 100,
      quantity: 2,
      rate: 21,
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
    const r = await reference();
    const purchaseOnly = r.taxes.find((t) => t.type === 'purchase');
    const inactive = r.taxes.find((t) => t.active === false);
    const ok = {
      product_id: r.service.id,
      tax_id: r.tax('V21').id,
      unit_price: 100,
      quantity: 2,
      rate: 21,
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
      ['line tax off', withLine({ tax_amount: 40 })],
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
    expect(rated.body.lines[0]).toMatchObject({ tax_rate: 21, tax_id: r.tax('V21').id });
    // A supplier on a sale becomes a customer too, as the software marks it.
    const supplier = await v.post('/invoices', { ...base, partner_id: r.supplier.id });
    expect(supplier.status, supplier.text).toBe(200);
    expect((await v.get(`/contacts/${r.supplier.id}`)).body).toMatchObject({
      is_supplier: true,
      is_customer: true,
    });
  });

  it('creates an invoice as cancelled, or as paid (posted, with a payment of its total)', async () => {
    const r = await reference();
    const base = invoiceBody('customer_invoice', r.customer.id, { unit_price: 100, quantity: 1, rate: 21 });
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
        amount: 121,
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
    const r = await reference();
    const body = {
      ...invoiceBody('customer_invoice', r.customer.id, { unit_price: 1, quantity: 1, rate: 0 }),
      ...change,
    };
    expectValidation(await v.post('/invoices', body), ['body', field]);
  });
});

describe('invoicing: payments registered and changed', () => {
  async function openInvoice(total = 121) {
    const r = await reference();
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
      payment_method_name: 'Bank transfer',
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
    const cash = r.methods.find((m) => m.name === 'Cash').id;
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
      payment_method_name: 'Cash',
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

describe('invoicing: documents uploaded', () => {
  it('takes a PDF and answers 201 with a draft waiting to be read', async () => {
    const pdf = tinyPdf('Supplier invoice 42');
    const res = await v.post(
      '/upload-document',
      { base64_string: pdf, document_type: 'supplier_document' },
      {
        headers: { 'x-chift-client-requestid': 'doc-1' },
      },
    );
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(UploadDocumentItemOut.parse(res.body)).sort()).toEqual(keysOf(UploadDocumentItemOut));
    expect(res.body).toMatchObject({
      invoice_type: 'supplier_invoice',
      status: 'draft',
      total: null,
      lines: [],
    });
    const again = await v.post(
      '/upload-document',
      { base64_string: pdf, document_type: 'supplier_document' },
      {
        headers: { 'x-chift-client-requestid': 'doc-1' },
      },
    );
    expect(again.status).toBe(201);
    expect(again.body).toEqual(res.body);
    const data = Object.values(v.app.services.store.world.invoicing_datasets).find(
      (d) => d.consumerid === v.consumerId,
    );
    expect(Object.keys(data?.documents ?? {})).toEqual([res.body.id]);
    const expense = await v.post('/upload-document', {
      base64_string: pdf,
      document_type: 'employee_expense',
    });
    expect(expense.body.invoice_type).toBeNull();
  });

  it.each([
    ['not base64', '%%%'],
    ['empty', ''],
    ['not a PDF', Buffer.from('hello world!').toString('base64')],
  ])(
    'refuses a document that is %s (400 ERROR_INVALID_BASE64_STRING, as the PDF attachments of accounting)',
    async (_, base64) => {
      const res = await v.post('/upload-document', {
        base64_string: base64,
        document_type: 'customer_document',
      });
      expectError(res, serviceError('invalidBase64'));
      expect([res.status, res.body.error_code]).toEqual([400, 'ERROR_INVALID_BASE64_STRING']);
    },
  );

  it('validates the document type', async () => {
    expectValidation(
      await v.post('/upload-document', { base64_string: tinyPdf('x'), document_type: 'receipt' }),
      ['body', 'document_type'],
    );
  });
});

describe('invoicing: storage', () => {
  it('builds no dataset until a connection is used', () => {
    const s = sandbox();
    expect(Object.keys(s.app.services.store.world.invoicing_datasets)).toEqual([]);
  });

  it('keeps writes in a world file: the dataset comes back with them after a restart', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'invoicing-')), 'world.json');
    const store = await Store.file(file, () => seedWorld(SEED));
    const first = sandbox({ store });
    const token = await sandboxToken(first);
    const a = forVertical(first, token, first.ids.verticalConsumers.INVOICING as string, 'invoicing');
    const created = await a.post('/contacts', { company_name: 'Durable BV' });
    expect(created.status).toBe(200);
    const reopened = await Store.file(file, () => seedWorld(SEED));
    const second = sandbox({ store: reopened });
    const b = forVertical(second, await sandboxToken(second), a.consumerId, 'invoicing');
    expect((await b.get(`/contacts/${created.body.id}`)).body).toEqual(created.body);
    expect((await b.get('/invoices?size=100')).body).toEqual((await a.get('/invoices?size=100')).body);
  });
});
