import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { seedWorld } from '../../../src/control/seeded-world.js';
import { instantOf } from '../../../src/lib/clock.js';
import { uuidFrom } from '../../../src/lib/ids.js';
import { tinyPdf } from '../../../src/lib/pdf.js';
import * as domain from '../../../src/modules/invoicing/api/invoicing.domain.js';
import type * as wire from '../../../src/modules/invoicing/api/invoicing.schemas.js';
import type {
  InvoicingDataset as Data,
  InvoicingInvoice,
  InvoicingPayment as Payment,
} from '../../../src/modules/invoicing/model/invoicing.records.js';
import { buildInvoicingDataset } from '../../../src/modules/invoicing/world/invoicing.living.js';
import { datasetKey } from '../../../src/store/world.js';
import { datasetStore, deepFreeze, refusal, refusedUnchanged } from '../domain-helpers.js';

/** The Invoicing vertical's rules called directly, each test on a copy of one seeded connection's dataset. */

const ARGS = { consumerid: 'consumer-a', connectionid: 'connection-a', integrationid: 1000 };

/** Built once and frozen (a write to it throws): every test works on a copy of its own. */
const SEEDED = deepFreeze(buildInvoicingDataset(7, ARGS));
const dataset = (): Data => structuredClone(SEEDED);
const count = (records: object) => Object.keys(records).length;

/** A write context of its own (uuid ids numbered from 1), at a time of the test's choosing. */
function context(now = '2027-06-01T09:00:00.000Z'): domain.WriteContext {
  let minted = 0;
  return { mint: (kind) => uuidFrom('domain-test', kind, ++minted), now };
}
const minted = (kind: string, n: number) => uuidFrom('domain-test', kind, n);

function pick<T>(records: Record<string, T>, test: (record: T) => boolean = () => true): T {
  const found = Object.values(records).find(test);
  if (!found) throw new Error('no such record in the dataset');
  return found;
}
const taxOf = (data: Data, code: string) => pick(data.taxes, (t) => t.code === code);
const productOf = (data: Data, code: string) => pick(data.products, (p) => p.code === code);
const methodOf = (data: Data, name: string) => pick(data.payment_methods, (m) => m.name === name).id;
const customerOf = (data: Data) =>
  pick(data.contacts, (c) => c.is_customer && !c.is_supplier && c.currency === 'EUR');
const supplierOf = (data: Data, index = 0) => {
  const found = Object.values(data.contacts).filter((c) => c.is_supplier && !c.is_customer)[index];
  if (!found) throw new Error('no such supplier');
  return found;
};
const firstOf = (data: Data, type: InvoicingInvoice['invoice_type']) =>
  pick(data.invoices, (i) => i.invoice_type === type);

type InvoiceIn = wire.InvoiceInInput;
type LineIn = NonNullable<InvoiceIn['lines']>[number];
const invoiceIn = (over: Partial<InvoiceIn> = {}): InvoiceIn => ({
  ...{ invoice_type: 'customer_invoice', status: 'posted', currency: 'EUR', invoice_date: '2027-03-01' },
  ...{ untaxed_amount: 100, tax_amount: 21, total: 121, ...over },
});
const lineIn = (over: Partial<LineIn> = {}): LineIn => ({
  ...{ unit_price: 50, quantity: 2, untaxed_amount: 100, tax_amount: 21, total: 121, ...over },
});
const newInvoice = (data: Data, over: Partial<InvoiceIn> = {}, ctx = context()) =>
  domain.createInvoice(data, invoiceIn(over), ctx);
const payIn = (invoice_id: string, amount: number, date = '2027-03-15'): wire.PaymentInInput => ({
  ...{ invoice_id, amount, date, currency: 'EUR' },
});

type Pay = [number, Payment['status'], string];
/** A payment record as the seed stores them, of any status (createPayment only makes completed ones). */
function addPayment(data: Data, invoice: InvoicingInvoice, [amount, status, day]: Pay): void {
  const id = `payment-${count(data.payments) + 1}`;
  const stamp = `${day}T12:00:00.000Z`;
  data.payments[id] = {
    ...{ id, source_ref: { id, model: 'payment' }, status, description: 'x', amount, currency: 'EUR' },
    ...{ payment_date: stamp, payment_method_id: null, invoice_id: invoice.id },
    ...{ created_on: stamp, last_updated_on: stamp },
  };
}

interface Refusal {
  status: number;
  message: string;
  detail: string;
  code: string | undefined;
}
/** The vertical's generic 400: no error code, the detail says what was wrong. */
const failure = (detail: string): Refusal => ({
  ...{ status: 400, message: 'Error while trying to perform your request', detail, code: undefined },
});
/** Refused, and the dataset is left exactly as it was. */
const NOT_TAX = (where: string, id: string) =>
  `${where} '${id}' is not a tax of the software (GET .../invoicing/taxes lists them)`;
const NO_PAYMENT = (id: string) =>
  `The payment '${id}' does not exist (GET .../invoicing/payments lists them)`;
const TOO_LARGE = (where: string, value: string) => `${where} ${value} is too large to compute with`;
const NO_METHOD = "payment_method_id 'nope' is not a payment method of the software";

describe('the dataset of a connection', () => {
  it('is built from the world seed on first use, up to the store day, then kept', () => {
    const store = datasetStore(seedWorld(7));
    const data = domain.invoicingDatasetOf(store, 'consumer-a', 'connection-a', 1000);
    expect(store.today()).toBe('2026-01-15');
    const expected = buildInvoicingDataset(7, { ...ARGS, until: '2026-01-15' });
    expect(JSON.stringify(data)).toBe(JSON.stringify(expected));
    expect(domain.invoicingDatasetOf(store, 'consumer-a', 'connection-a', 1000)).toBe(data);
    expect(store.world.invoicing_datasets[datasetKey('consumer-a', 'connection-a')]).toBe(data);
    const other = domain.invoicingDatasetOf(store, 'consumer-a', 'connection-b', 1000);
    expect([other === data, other.connectionid]).toEqual([false, 'connection-b']);
  });

  it('holds contacts of each role, one cancelled and two draft invoices, payments of one invoice', () => {
    const data = dataset();
    const roles = ['all', 'customer', 'supplier', 'prospect'] as const;
    expect(roles.map((role) => domain.listContacts(data, role).length)).toEqual([26, 17, 7, 3]);
    expect(domain.listContacts(data)).toEqual(Object.values(data.contacts));
    expect(domain.listContacts(data, 'supplier').every((c) => c.is_supplier)).toBe(true);
    const statuses = Object.values(data.invoices).map((i) => domain.statusOf(data, i));
    expect(['cancelled', 'draft'].map((s) => statuses.filter((t) => t === s).length)).toEqual([1, 2]);
    const payment = pick(data.payments);
    const of = domain.paymentsOf(data, payment.invoice_id);
    expect([of.includes(payment), of.every((p) => p.invoice_id === payment.invoice_id)]).toEqual([
      true,
      true,
    ]);
    expect(domain.paymentsOf(data, 'nope')).toEqual([]);
  });
});

describe('instantOf, the reading of updated_after', () => {
  // biome-ignore format: one case a line
  it.each([
    ['2027-03-05T10:00:00', Date.UTC(2027, 2, 5, 10)],
    ['2027-03-05T10:00:00Z', Date.UTC(2027, 2, 5, 10)],
    ['2027-03-05T10:00:00z', Date.UTC(2027, 2, 5, 10)],
    ['2027-03-05T10:00:00+02:00', Date.UTC(2027, 2, 5, 8)],
    ['2027-03-05T10:00:00-0130', Date.UTC(2027, 2, 5, 11, 30)],
    ['2027-03-05T10:00:00.250', Date.UTC(2027, 2, 5, 10, 0, 0, 250)],
    ['2027-03-05', Date.UTC(2027, 2, 5)],
  ])('reads %s (no offset: UTC, whatever the local zone)', (value, expected) => {
    const zone = process.env.TZ;
    process.env.TZ = 'America/New_York';
    try {
      expect(instantOf(value)).toBe(expected);
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
});

describe('the derived values of an invoice', () => {
  const D = '2027-03-10';
  const UNSETTLED = ['pending', 'canceled', 'failed', 'unknown', 'authorized'] as const;
  // label, booked status, total, payments: open amount, wire status, last payment day
  // biome-ignore format: one case a line
  const CASES: [string, 'draft' | 'posted' | 'cancelled', number, Pay[], number, string, string | null][] = [
    ['unpaid', 'posted', 121, [], 121, 'posted', null],
    ['paid in two instalments', 'posted', 121, [[21, 'completed', '2027-03-20'], [100, 'completed', D]], 0, 'paid', '2027-03-20'],
    ['paid to the cent (0.1 + 0.2 of 0.3)', 'posted', 0.3, [[0.1, 'completed', D], [0.2, 'completed', D]], 0, 'paid', D],
    ['partly paid (partially_completed settles)', 'posted', 100, [[40, 'completed', '2027-03-12'], [30, 'partially_completed', D]], 30, 'posted', '2027-03-12'],
    ['overpaid', 'posted', 100, [[150, 'completed', D]], -50, 'paid', D],
    ...UNSETTLED.map((s): (typeof CASES)[number] => [`with a ${s} payment (settles nothing)`, 'posted', 100, [[100, s, D]], 100, 'posted', null]),
    ['cancelled (nothing left to pay)', 'cancelled', 100, [[40, 'completed', D]], 0, 'cancelled', D],
    ['draft', 'draft', 100, [], 100, 'draft', null],
    ['posted of zero', 'posted', 0, [], 0, 'paid', null],
    ['draft of zero', 'draft', 0, [], 0, 'draft', null],
    ['of a total below the cent (counted in cents)', 'posted', 10.004, [[10, 'completed', D]], 0, 'paid', D],
  ];
  it.each(CASES)('%s', (_label, booked, total, payments, outstanding, status, last) => {
    const data = dataset();
    const invoice = newInvoice(data, { status: booked, total });
    for (const payment of payments) addPayment(data, invoice, payment);
    expect(domain.paymentsOf(data, invoice.id).length).toBe(payments.length);
    expect(domain.outstandingOf(data, invoice)).toBe(outstanding);
    expect(domain.statusOf(data, invoice)).toBe(status);
    const item = domain.toInvoiceItem(data, invoice, { lines: false, analytic: false });
    expect([item.outstanding_amount, item.status, item.last_payment_date]).toEqual([
      outstanding,
      status,
      last,
    ]);
  });
});

describe('the stock of a product', () => {
  // biome-ignore format: one case a line
  it.each<[InvoiceIn['invoice_type'], InvoiceIn['status'], number[], number]>([
    ['supplier_invoice', 'posted', [10], 10],
    ['supplier_refund', 'posted', [4], -4],
    ['customer_invoice', 'posted', [3], -3],
    ['customer_refund', 'posted', [2], 2],
    ['customer_invoice', 'paid', [3], -3],
    ['customer_invoice', 'draft', [3], 0],
    ['customer_invoice', 'cancelled', [3], 0],
    ['supplier_invoice', 'posted', [0.1, 0.2], 0.3],
    ['supplier_invoice', 'posted', [0], 0],
  ])('of a new product (0) after a %s %s of %j units is %d', (type, status, quantities, stock) => {
    const data = dataset();
    const ctx = context();
    const product = domain.createProduct(data, { name: 'Widget' }, ctx);
    expect(domain.stockOf(data, product)).toBe(0);
    const lines = [...quantities.map((quantity) => lineIn({ product_id: product.id, quantity })), lineIn()];
    newInvoice(data, { invoice_type: type, status, lines }, ctx);
    expect(domain.stockOf(data, product)).toBe(stock);
    expect(domain.toProductItem(data, product).available_quantity).toBe(stock);
  });

  it('moves a seeded good from its current stock, and keeps none for a service', () => {
    const data = dataset();
    const good = productOf(data, 'GDS-DOCK');
    const before = domain.stockOf(data, good) ?? Number.NaN;
    newInvoice(data, { lines: [lineIn({ product_id: good.id, quantity: 2 })] });
    expect(domain.stockOf(data, good)).toBe(before - 2);
    const service = productOf(data, 'SRV-CONS');
    expect(domain.stockOf(data, service)).toBeNull();
    expect(domain.toProductItem(data, service).available_quantity).toBeNull();
  });
});

describe('bank accounts and their statement lines', () => {
  type Move = [string, number, 'done' | 'draft', string];
  function withAccount(opening: number, moves: Move[]) {
    const data = dataset();
    const account = { id: 'acct', source_ref: { id: 'B9', model: 'bank_account' }, name: 'Test', iban: null };
    data.bank_accounts.acct = { ...account, currency: 'EUR', opening_balance: opening };
    for (const [id, amount, status, date] of moves) {
      data.bank_transactions[id] = {
        ...{ id, source_ref: { id, model: 'bank_statement_line' }, status, amount, date },
        ...{ bank_account_id: id === 'other' ? 'acct-other' : 'acct', description: null, currency: 'EUR' },
        ...{ currency_exchange_rate: 1, accounting_code: null, linked_documents: [] },
      };
    }
    return data;
  }
  // biome-ignore format: one case a line
  const MOVES: Move[] = [['t1', 0.2, 'done', '2027-01-10'], ['t3', 999, 'draft', '2027-01-12'], ['t2', -50, 'done', '2027-01-12'], ['other', 1000, 'done', '2027-01-11']];

  // biome-ignore format: one case a line
  it.each<[number, Move[], number]>([
    [100.1, MOVES, 50.3],
    [0, [], 0],
    [0.1, [['t1', 0.2, 'done', '2027-01-10']], 0.3],
    [1.005, [], 1],
    [-10, [['t1', -0.25, 'done', '2027-01-10']], -10.25],
  ])('opening at %d, with %j: a balance of %d (done lines of the account, in cents)', (opening, moves, balance) => {
    const data = withAccount(opening, moves);
    const account = pick(data.bank_accounts, (a) => a.id === 'acct');
    expect(domain.balanceOf(data, account)).toBe(balance);
    const item = domain.toBankAccountItem(data, account);
    expect([item.balance, 'opening_balance' in item]).toEqual([balance, false]);
  });

  // biome-ignore format: one case a line
  it.each<[Parameters<typeof domain.listBankTransactions>[1], string[]]>([
    [{ bank_account_id: 'acct' }, ['t2', 't3', 't1']],
    [{ bank_account_id: 'acct', status: 'done' }, ['t2', 't1']],
    [{ bank_account_id: 'acct', status: 'draft' }, ['t3']],
    [{ bank_account_id: 'acct', date_from: '2027-01-11' }, ['t2', 't3']],
    [{ bank_account_id: 'acct', date_to: '2027-01-11' }, ['t1']],
    [{ bank_account_id: 'acct', date_from: '2027-01-10', date_to: '2027-01-10' }, ['t1']],
    [{ bank_account_id: 'acct-other' }, ['other']],
    [{ bank_account_id: 'nope' }, []],
  ])('lists the statement lines of %j, newest first, a tie by id', (filters, ids) => {
    expect(domain.listBankTransactions(withAccount(0, MOVES), filters).map((t) => t.id)).toEqual(ids);
  });
});

describe('reads', () => {
  const ABSENT = '00000000-0000-4000-8000-000000000000';
  const missing = (what: string) => `The ${what} doesn't exist in the invoicing system.`;
  const FORMAT = "The ID of the invoice doesn't have the correct format.";
  const { requireContact, requireProduct, requireTax, requireOpportunity, requireInvoice } = domain;
  // biome-ignore format: one case a line
  it.each<[(data: Data, id: string) => unknown, string, number, string, string, string]>([
    [requireContact, 'nope', 404, 'ERROR_CONTACT_NOT_FOUND', missing('contact'), "No contact has the id 'nope'"],
    [requireContact, 'toString', 404, 'ERROR_CONTACT_NOT_FOUND', missing('contact'), "No contact has the id 'toString'"],
    [requireProduct, 'nope', 404, 'ERROR_PRODUCT_NOT_FOUND', missing('product'), "No product has the id 'nope'"],
    [requireTax, '__proto__', 404, 'ERROR_TAX_NOT_FOUND', missing('tax'), "No tax has the id '__proto__'"],
    [requireOpportunity, 'nope', 404, 'ERROR_OPPORTUNITY_NOT_FOUND', missing('opportunity'), "No opportunity has the id 'nope'"],
    [requireInvoice, 'not-a-uuid', 400, 'ERROR_INVOICE_ID_FORMAT', FORMAT, "'not-a-uuid' is not an invoice id (a uuid)"],
    [requireInvoice, '', 400, 'ERROR_INVOICE_ID_FORMAT', FORMAT, "'' is not an invoice id (a uuid)"],
    [requireInvoice, ABSENT, 404, 'ERROR_INVOICE_NOT_FOUND', missing('invoice'), `No invoice has the id '${ABSENT}'`],
  ])('%o refuses %j', (read, id, status, code, message, detail) => {
    expect(refusal(() => read(dataset(), id))).toEqual({ status, message, detail, code });
  });

  it('finds each record by its id, an invoice in any letter case', () => {
    const data = dataset();
    const [contact, opportunity, invoice] = [customerOf(data), pick(data.opportunities), pick(data.invoices)];
    expect(requireContact(data, contact.id)).toBe(contact);
    expect(requireProduct(data, productOf(data, 'SRV-PM').id).code).toBe('SRV-PM');
    expect(requireTax(data, taxOf(data, 'V195').id).active).toBe(false);
    expect(requireOpportunity(data, opportunity.id)).toBe(opportunity);
    expect(requireInvoice(data, invoice.id.toUpperCase())).toBe(invoice);
  });

  /** Five invoices of 2027, after every seeded one, each written on its own day. */
  function fiveInvoices() {
    const data = dataset();
    const ctx = context();
    const make = (over: Partial<InvoiceIn>, date: string) => {
      ctx.now = `${date}T09:00:00.000Z`;
      return newInvoice(data, { invoice_date: date, ...over }, ctx).id;
    };
    const A = make({}, '2027-03-01'); // INV-2027-0001, open
    const E = make({ invoice_type: 'supplier_refund' }, '2027-02-15'); // BCN-2027-0001, open
    const B = make({ status: 'paid', total: 50 }, '2027-03-05'); // INV-2027-0002, paid
    const C = make({ invoice_type: 'supplier_invoice', status: 'draft' }, '2027-03-05'); // BILL-2027-0001
    const D = make({ invoice_type: 'customer_refund', status: 'cancelled' }, '2027-04-01'); // CN-2027-0001
    return { data, names: new Map([A, B, C, D, E].map((id, i) => [id, 'ABCDE'[i]])) };
  }
  const Y = { date_from: '2027-01-01' };
  // biome-ignore format: one case a line
  it.each<[domain.InvoiceFilters, string]>([
    [Y, 'DBCAE'],
    [{ date_from: '2027-03-01', date_to: '2027-03-05' }, 'BCA'],
    [{ date_from: '2027-03-02', date_to: '2027-03-31' }, 'BC'],
    [{ date_from: '2027-02-15', date_to: '2027-02-15' }, 'E'],
    [{ ...Y, invoice_type: 'customer_invoice' }, 'BA'],
    [{ ...Y, invoice_type: 'supplier_refund' }, 'E'],
    [{ ...Y, invoice_type: 'all' }, 'DBCAE'],
    [{ ...Y, payment_status: 'paid' }, 'B'],
    [{ ...Y, payment_status: 'unpaid' }, 'CAE'],
    [{ ...Y, payment_status: 'all' }, 'DBCAE'],
    [{ ...Y, invoice_type: 'supplier_invoice', payment_status: 'unpaid' }, 'C'],
    [{ updated_after: '2027-03-05T09:00:00' }, 'D'],
    [{ updated_after: '2027-03-05T08:59:59.999Z' }, 'DBC'],
    [{ updated_after: '2027-03-05T10:00:00+02:00' }, 'DBC'],
    [{ updated_after: '2027-04-01T09:00:00Z' }, ''],
  ])('lists the invoices of %j newest first', (filters, expected) => {
    const { data, names } = fiveInvoices();
    expect(domain.listInvoices(data, filters).map((i) => names.get(i.id) ?? '?').join('')).toBe(expected);
  });

  it('lists every invoice without filters, and a tie of day and number by id', () => {
    const data = dataset();
    const ctx = context();
    const bill = (n: number) =>
      newInvoice(
        data,
        { invoice_type: 'supplier_invoice', invoice_number: 'S-1', partner_id: supplierOf(data, n).id },
        ctx,
      );
    const ids = [bill(0).id, bill(1).id];
    expect(domain.listInvoices(data, {}).length).toBe(count(SEEDED.invoices) + 2);
    expect(domain.listInvoices(data, Y).map((i) => i.id)).toEqual(ids.sort());
  });

  // biome-ignore format: one case a line
  it.each<[{ date_from?: string; date_to?: string }, string[]]>([
    [Y, ['tie', 'p1']],
    [{ date_from: '2027-03-11' }, ['tie']],
    [{ ...Y, date_to: '2027-03-11' }, ['p1']],
    [{ date_from: '2027-03-10', date_to: '2027-03-10' }, ['p1']],
    [{ date_from: '2027-03-13' }, []],
  ])('lists the payments of %j newest first (by day, a tie by id)', (filters, expected) => {
    const data = dataset();
    const ctx = context();
    const invoice = newInvoice(data, { total: 1000 }, ctx);
    const pay = (date: string) => domain.createPayment(data, payIn(invoice.id, 10, date), ctx).id;
    const p1 = pay('2027-03-10');
    pick(data.payments, (p) => p.id === p1).payment_date = '2027-03-10T23:30:00.000Z'; // its day counts
    const tie = [pay('2027-03-12'), pay('2027-03-12')].sort();
    const ids = expected.flatMap((name) => (name === 'tie' ? tie : [p1]));
    expect(domain.listPayments(data, filters).map((p) => p.id)).toEqual(ids);
    expect(domain.listPayments(data, {}).length).toBe(count(SEEDED.payments) + 3);
  });

  it('lists opportunities by creation day, newest first, undated last, a tie by id', () => {
    const data = dataset();
    const model = pick(data.opportunities);
    data.opportunities = {};
    // biome-ignore format: one case a line
    const days = [['b', '2026-01-01'], ['c', null], ['a', '2026-01-01'], ['d', '2026-02-01']] as const;
    for (const [id, created_date] of days) data.opportunities[id] = { ...model, id, created_date };
    expect(domain.listOpportunities(data).map((o) => o.id)).toEqual(['d', 'a', 'b', 'c']);
  });
});

describe('wire shapes', () => {
  it('copies taxes, payment methods, statement lines and opportunities as stored', () => {
    const data = dataset();
    const [tax, method] = [pick(data.taxes), pick(data.payment_methods)];
    const [line, opportunity] = [pick(data.bank_transactions), pick(data.opportunities)];
    const items: object[] = [domain.toTaxItem(tax), domain.toPaymentMethodItem(method)];
    items.push(domain.toBankTransactionItem(line), domain.toOpportunityItem(opportunity));
    expect(items).toEqual([tax, method, line, opportunity]);
    expect(items.some((item, n) => item === [tax, method, line, opportunity][n])).toBe(false);
  });

  it('leaves out what the wire does not show: created_on, initial_stock', () => {
    const data = dataset();
    const contact = customerOf(data);
    const { created_on: _c, ...wire } = contact;
    expect(domain.toContactItem(contact)).toEqual(wire);
    const product = productOf(data, 'GDS-BOOK');
    const { created_on: _p, initial_stock: _s, ...shown } = product;
    const stock = domain.stockOf(data, product);
    expect(domain.toProductItem(data, product)).toEqual({ ...shown, available_quantity: stock });
  });

  it('fills the lines, and their analytic distribution, only when asked', () => {
    const data = dataset();
    const invoice = pick(data.invoices, (i) => i.lines.length > 0);
    const plans = (view: domain.InvoiceView) =>
      domain.toInvoiceItem(data, invoice, view).lines?.map((l) => l.analytic_distribution?.length);
    expect(plans({ lines: false, analytic: true })).toEqual([]);
    expect(plans({ lines: true, analytic: false })).toEqual(invoice.lines.map(() => 0));
    expect(plans({ lines: true, analytic: true })).toEqual(invoice.lines.map(() => 1));
    const single = domain.toInvoiceSingle(data, invoice, { pdf: false, analytic: true });
    const plan = single.lines?.[0]?.analytic_distribution?.[0]?.analytic_plan_code;
    expect([single.pdf, plan]).toEqual([null, 'DEPT']);
    const pdf = domain.toInvoiceSingle(data, invoice, { pdf: true, analytic: false }).pdf;
    expect(pdf).toBe(domain.invoicePdf(data, invoice));
  });

  it.each<[string, wire.ContactInInput | null, string]>([
    ['a company', { company_name: 'Acme SA' }, 'Acme SA'],
    ['a person', { first_name: 'Ann', last_name: 'Lee' }, 'Ann Lee'],
    ['no partner', null, 'no partner'],
  ])('draws the PDF of an invoice to %s', (_label, partner, name) => {
    const data = dataset();
    const ctx = context();
    const partner_id = partner && domain.createContact(data, partner, ctx).id;
    const invoice = newInvoice(data, { total: 121.5, partner_id }, ctx);
    const pdf = Buffer.from(domain.invoicePdf(data, invoice), 'base64').toString('latin1');
    expect(pdf.startsWith('%PDF-1.4')).toBe(true);
    expect(pdf).toContain(`(INV-2027-0001 - 2027-03-01 - ${name} - 121.50 EUR)`);
  });

  // biome-ignore format: one case a line
  it.each<[string | null, string | null, string | null, string]>([
    ['Acme', 'Ann', 'Lee', 'Acme'],
    [null, 'Ann', 'Lee', 'Ann Lee'],
    [null, null, 'Lee', 'Lee'],
    [null, 'Ann', null, 'Ann'],
    [null, null, null, 'the-id'],
  ])('names the contact %j %j %j: %s', (company_name, first_name, last_name, name) => {
    const contact = { ...customerOf(dataset()), id: 'the-id', company_name, first_name, last_name };
    expect(domain.displayName(contact)).toBe(name);
  });

  it('shows a payment with its invoice, partner and method (null when unknown)', () => {
    const data = dataset();
    const ctx = context();
    const partner_id = customerOf(data).id;
    const invoice_id = newInvoice(data, { partner_id }, ctx).id;
    const cash = methodOf(data, 'Cash');
    const input = { ...payIn(invoice_id, 20, '2027-03-09'), payment_method_id: cash };
    const payment = domain.createPayment(data, input, ctx);
    const day = '2027-03-09T00:00:00.000Z';
    expect(domain.toPaymentItem(data, payment)).toEqual({
      ...{ id: payment.id, source_ref: payment.source_ref, status: 'completed', amount: 20, currency: 'EUR' },
      ...{ description: 'Payment of INV-2027-0001', payment_date: day, date: day, partner_id },
      ...{ payment_method_id: cash, payment_method_name: 'Cash', invoice_id },
      invoice_number: 'INV-2027-0001',
    });
    const orphan = { ...payment, invoice_id: 'gone', payment_method_id: null };
    const unknown = { partner_id: null, invoice_number: null, payment_method_name: null };
    expect(domain.toPaymentItem(data, orphan)).toMatchObject(unknown);
  });
});

describe('createContact', () => {
  const address = { address_type: 'main' as const, street: 'Rue 1', city: 'Brussels', postal_code: '1000' };
  const NO_NAME = 'A contact needs a company_name, or a first_name or last_name';
  const COUNTRY = (at: number, code: string) =>
    `addresses[${at}].country '${code}' is not an ISO 3166-1 alpha-2 country code`;
  const [XX, BE] = [
    { ...address, country: 'XX' },
    { ...address, country: 'BE' },
  ];
  // biome-ignore format: one case a line
  it.each<[string, wire.ContactInInput, string]>([
    ['no name', {}, NO_NAME],
    ['blank names', { company_name: '  ', first_name: '', last_name: null }, NO_NAME],
    ['no name, before a bad country', { addresses: [XX] }, NO_NAME],
    ['an unknown country', { company_name: 'A', addresses: [XX] }, COUNTRY(0, 'XX')],
    ['a three-letter code', { last_name: 'L', addresses: [{ ...address, country: 'BEL' }] }, COUNTRY(0, 'BEL')],
    ['a bad second address', { first_name: 'F', addresses: [BE, { ...address, country: '' }] }, COUNTRY(1, '')],
  ])('refuses %s', (_label, input, detail) => {
    const data = dataset();
    expect(refusedUnchanged(data, () => domain.createContact(data, input, context()))).toEqual(failure(detail));
  });

  const ACME = { company_name: 'Acme' };
  // biome-ignore format: one case a line
  it.each<[wire.ContactInInput, Record<string, unknown>]>([
    [ACME, { is_customer: true, is_supplier: false, is_prospect: false, is_company: true, customer_account_number: '400027', supplier_account_number: null }],
    [{ first_name: 'Ann' }, { is_customer: true, is_company: false, customer_account_number: '400027' }],
    [{ ...ACME, is_customer: false, is_supplier: null }, { is_customer: true, is_supplier: false, customer_account_number: '400027' }],
    [{ last_name: 'Lee', is_supplier: true }, { is_customer: false, is_supplier: true, customer_account_number: null, supplier_account_number: '440027' }],
    [{ ...ACME, is_prospect: true }, { is_prospect: true, is_customer: false, is_supplier: false, customer_account_number: null, supplier_account_number: null }],
    [{ ...ACME, is_customer: true, is_supplier: true }, { customer_account_number: '400027', supplier_account_number: '440027' }],
    [{ ...ACME, is_prospect: true, is_customer: true }, { is_prospect: true, is_customer: true, is_supplier: false }],
    [{ ...ACME, is_company: false }, { is_company: false }],
    [{ first_name: 'Ann', is_company: true }, { is_company: true }],
    [{ ...ACME, customer_account_number: '411000' }, { customer_account_number: '411000' }],
    [{ ...ACME, is_supplier: true, customer_account_number: '411000', supplier_account_number: '' }, { is_customer: false, customer_account_number: '411000', supplier_account_number: '' }],
  ])('creates %j with %j', (input, expected) => {
    expect(domain.createContact(dataset(), input, context())).toMatchObject(expected);
  });

  it('stores the contact with its defaults, numbered after the seeded ones', () => {
    const data = dataset();
    const ctx = context('2027-01-02T03:04:05.000Z');
    const input = { ...ACME, vat: 'any text', addresses: [{ ...address, country: 'be', box: '2' }] };
    const contact = domain.createContact(data, input, ctx);
    const nothing = { name: null, number: null, phone: null, mobile: null, email: null };
    expect(contact).toEqual({
      ...{ id: minted('invoicing-contact', 1), source_ref: { id: 'C1027', model: 'contact' }, ...ACME },
      ...{ is_prospect: false, is_customer: true, is_supplier: false, is_company: true, first_name: null },
      ...{ last_name: null, email: null, phone: null, mobile: null, company_id: null, vat: 'any text' },
      ...{ company_number: null, currency: null, language: null, comment: null, birthdate: null },
      ...{ customer_account_number: '400027', supplier_account_number: null, gender: null },
      ...{ addresses: [{ ...address, ...nothing, box: '2', country: 'BE' }] },
      ...{ external_reference: null, created_on: ctx.now },
    });
    expect(data.contacts[contact.id]).toBe(contact);
    const next = domain.createContact(data, { last_name: 'Lee', is_supplier: true }, ctx);
    expect([next.source_ref.id, next.supplier_account_number]).toEqual(['C1028', '440028']);
  });
});

describe('createProduct', () => {
  // biome-ignore format: one case a line
  it.each<[wire.ProductInInput, string]>([
    [{ name: '' }, 'name must not be empty'],
    [{ name: ' \t' }, 'name must not be empty'],
    [{ name: '', tax_id: 'nope' }, 'name must not be empty'],
    [{ name: 'P', tax_id: 'nope' }, NOT_TAX('tax_id', 'nope')],
    [{ name: 'P', tax_id: 'constructor' }, NOT_TAX('tax_id', 'constructor')],
  ])('refuses %j', (input, detail) => {
    const data = dataset();
    expect(refusedUnchanged(data, () => domain.createProduct(data, input, context()))).toEqual(failure(detail));
  });

  it('stores the product with its defaults and a stock of 0; an archived tax is a tax', () => {
    const data = dataset();
    const ctx = context();
    const product = domain.createProduct(data, { name: 'Widget', tax_id: null }, ctx);
    expect(product).toEqual({
      ...{ id: minted('invoicing-product', 1), source_ref: { id: 'P1015', model: 'product' } },
      ...{ name: 'Widget', unit_price: null, tax_id: null, code: null, unit: null, category: null },
      ...{ currency: 'EUR', description: null, cost: 0, initial_stock: 0, created_on: ctx.now },
    });
    expect(data.products[product.id]).toBe(product);
    const tax_id = taxOf(data, 'V195').id;
    const taxed = domain.createProduct(data, { name: 'Old', tax_id, currency: 'USD', cost: 2.5 }, ctx);
    expect(taxed).toMatchObject({ tax_id, currency: 'USD', cost: 2.5, source_ref: { id: 'P1016' } });
  });
});

describe('createInvoice', () => {
  const NEGATIVE =
    'A posted total must not be negative: a credit note is a customer_refund or supplier_refund';
  const NO_PRODUCT = (id: string) => `lines[0].product_id '${id}' is not a product of the software`;
  const NO_PARTNER = (id: string) => `partner_id '${id}' is not a contact of the software`;
  const USED = 'USED';
  const numberOf = (invoice: InvoicingInvoice) => ({ invoice_number: invoice.invoice_number });
  const ofPartner = (invoice: InvoicingInvoice) => ({ ...numberOf(invoice), partner_id: invoice.partner_id });
  type Over = (data: Data) => Partial<InvoiceIn>;
  // biome-ignore format: one case a line
  it.each<[string, Over, string]>([
    ['a huge untaxed amount', () => ({ untaxed_amount: 1e307, total: 1e307 }), TOO_LARGE('untaxed_amount', '1e+307')],
    ['a huge negative tax', () => ({ tax_amount: -1e307 }), TOO_LARGE('tax_amount', '-1e+307')],
    ['an unknown partner', () => ({ partner_id: 'nope' }), NO_PARTNER('nope')],
    ['an inherited name as partner', () => ({ partner_id: 'toString' }), NO_PARTNER('toString')],
    ['a huge line quantity', () => ({ lines: [lineIn({ quantity: 1e307 })] }), TOO_LARGE('lines[0].quantity', '1e+307')],
    ['an unknown product', () => ({ lines: [lineIn({ product_id: 'nope' })] }), NO_PRODUCT('nope')],
    ['an unknown tax on line 2', (d) => ({ lines: [lineIn({ tax_id: taxOf(d, 'V21').id }), lineIn({ tax_id: 'no' })] }), NOT_TAX('lines[1].tax_id', 'no')],
    ['a negative posted total', () => ({ total: -0.01 }), NEGATIVE],
    ['a negative paid total', () => ({ status: 'paid', total: -5 }), NEGATIVE],
    ['a negative posted credit note', () => ({ invoice_type: 'customer_refund', total: -1 }), NEGATIVE],
    ['a bad line, before a negative total', () => ({ total: -1, lines: [lineIn({ product_id: 'x' })] }), NO_PRODUCT('x')],
    ['a used sales number', (d) => numberOf(firstOf(d, 'customer_invoice')), USED],
    ['the number of a credit note', (d) => numberOf(firstOf(d, 'customer_refund')), USED],
    ['a refund numbered as an invoice', (d) => ({ invoice_type: 'customer_refund', ...numberOf(firstOf(d, 'customer_invoice')) }), USED],
    ['a number the partner used', (d) => ({ invoice_type: 'supplier_refund', ...ofPartner(firstOf(d, 'supplier_invoice')) }), USED],
  ])('refuses %s', (_label, over, detail) => {
    const data = dataset();
    const input = invoiceIn(over(data));
    const expected = detail === USED ? `The invoice number '${input.invoice_number}' is already used` : detail;
    expect(refusedUnchanged(data, () => domain.createInvoice(data, input, context()))).toEqual(failure(expected));
  });

  const otherSupplier = (d: Data, bill: InvoicingInvoice) =>
    supplierOf(d, bill.partner_id === supplierOf(d, 0).id ? 1 : 0).id;
  // biome-ignore format: one case a line
  it.each<[string, Over]>([
    ['a negative draft', () => ({ status: 'draft', total: -10 })],
    ['a negative cancelled invoice', () => ({ status: 'cancelled', total: -10 })],
    ['a posted total of zero', () => ({ total: 0 })],
    ['no partner (null)', () => ({ partner_id: null })],
    ['the number of a bill of another partner', (d) => ({ invoice_type: 'supplier_invoice', ...numberOf(firstOf(d, 'supplier_invoice')), partner_id: otherSupplier(d, firstOf(d, 'supplier_invoice')) })],
    ['a sales invoice numbered as a bill', (d) => numberOf(firstOf(d, 'supplier_invoice'))],
    ['a bill numbered as a sales invoice', (d) => ({ invoice_type: 'supplier_invoice', ...numberOf(firstOf(d, 'customer_invoice')) })],
    ['amounts that do not add up', () => ({ untaxed_amount: 1, tax_amount: 1, total: 5, lines: [lineIn({ total: 7 })] })],
  ])('accepts %s', (_label, over) => {
    const data = dataset();
    const input = invoiceIn(over(data));
    const invoice = domain.createInvoice(data, input, context());
    expect(data.invoices[invoice.id]).toBe(invoice);
    expect([invoice.total, invoice.partner_id]).toEqual([input.total, input.partner_id ?? null]);
    if (input.invoice_number) expect(invoice.invoice_number).toBe(input.invoice_number);
  });

  const seeded = (series: string) =>
    Object.values(SEEDED.invoices).filter((i) => i.invoice_number.startsWith(`${series}-`)).length;
  const next = (series: string) => `${series}-${String(seeded(series) + 1).padStart(4, '0')}`;
  // biome-ignore format: one case a line
  it.each<[InvoiceIn['invoice_type'], string, string | null | undefined, () => string]>([
    ['customer_invoice', '2027-03-01', undefined, () => 'INV-2027-0001'],
    ['customer_refund', '2027-12-31', null, () => 'CN-2027-0001'],
    ['supplier_invoice', '2027-01-01', '   ', () => 'BILL-2027-0001'],
    ['supplier_refund', '2028-02-29', '', () => 'BCN-2028-0001'],
    ['customer_invoice', '2025-06-01', undefined, () => next('INV-2025')],
    ['supplier_invoice', '2025-06-01', undefined, () => next('BILL-2025')],
    ['customer_invoice', '2027-03-01', 'MY-42', () => 'MY-42'],
  ])('numbers a %s of %s given %j', (invoice_type, invoice_date, invoice_number, expected) => {
    const invoice = newInvoice(dataset(), { invoice_type, invoice_date, invoice_number });
    expect(invoice.invoice_number).toBe(expected());
  });

  it('goes on with a series per type and year, which a number given does not move', () => {
    const data = dataset();
    const ctx = context();
    // biome-ignore format: one case a line
    const inputs: [InvoiceIn['invoice_type'], string, string | null][] = [['customer_invoice', '2027-01-05', null], ['customer_invoice', '2027-01-06', 'OWN-1'], ['customer_invoice', '2027-02-01', null], ['customer_refund', '2027-02-01', null], ['customer_invoice', '2028-01-01', null], ['customer_invoice', '2027-03-01', null]];
    const made = inputs.map(([invoice_type, invoice_date, invoice_number]) =>
      newInvoice(data, { invoice_type, invoice_date, invoice_number }, ctx),
    );
    expect(made.map((i) => i.invoice_number)).toEqual([
      ...['INV-2027-0001', 'OWN-1', 'INV-2027-0002', 'CN-2027-0001', 'INV-2028-0001', 'INV-2027-0003'],
    ]);
    const first = 1000 + count(SEEDED.invoices) + 1;
    expect(made.map((i) => i.source_ref.id)).toEqual(made.map((_, n) => `I${first + n}`));
  });

  it('stores what it is given, its defaults and its dates', () => {
    const data = dataset();
    const ctx = context('2027-03-02T10:00:00.000Z');
    const italian_specificities = { stamp_duty_amount: 2 };
    const given = { journal_ref: { id: 'SAL' }, italian_specificities, reference: 'R' };
    const invoice = newInvoice(data, { ...given, due_date: '2027-04-01' }, ctx);
    expect(invoice).toMatchObject({
      ...{ status: 'posted', currency_exchange_rate: 1, accounting_date: '2027-03-01' },
      ...{ due_date: '2027-04-01', journal_ref: { id: 'SAL', model: null, name: null } },
      ...{ italian_specificities, reference: 'R', payment_communication: null, customer_memo: null },
      ...{ payment_method_id: null, partner_id: null, lines: [] },
      ...{ created_on: ctx.now, last_updated_on: ctx.now },
    });
    expect(invoice.italian_specificities).not.toBe(italian_specificities);
    expect(newInvoice(data, {}, ctx)).toMatchObject({ journal_ref: null, due_date: null });
  });

  // biome-ignore format: one case a line
  it.each([['EUR', 1], ['USD', 0.92], ['GBP', 1.17], ['CHF', 1.06], ['JPY', 1], ['toString', 1]])(
    'gives an invoice in %s the exchange rate %d',
    (currency, rate) => {
      expect(newInvoice(dataset(), { currency }).currency_exchange_rate).toBe(rate);
    },
  );

  // biome-ignore format: one case a line
  it.each<[number, number | null]>([[121, 121], [100.004, 100], [0.015, 0.02], [0, null], [0.004, null]])(
    'creates a paid invoice of %d with a completed payment of %j on its day',
    (total, amount) => {
      const data = dataset();
      const ctx = context();
      const invoice = newInvoice(data, { status: 'paid', total, currency: 'USD' }, ctx);
      const derived = [domain.statusOf(data, invoice), domain.outstandingOf(data, invoice)];
      expect([invoice.status, ...derived]).toEqual(['posted', 'paid', 0]);
      const payments = domain.paymentsOf(data, invoice.id);
      const source_ref = { id: `PAY${1000 + count(SEEDED.payments) + 1}`, model: 'payment' };
      const made = { id: minted('invoicing-payment', 2), source_ref, status: 'completed', currency: 'USD' };
      const day = { description: 'Payment of INV-2027-0001', payment_date: '2027-03-01T00:00:00.000Z' };
      const stamps = { payment_method_id: null, invoice_id: invoice.id, created_on: ctx.now, last_updated_on: ctx.now };
      expect(payments).toEqual(amount === null ? [] : [{ ...made, ...day, ...stamps, amount }]);
    },
  );

  // biome-ignore format: one case a line
  it.each<['customer_invoice' | 'supplier_refund', 'customer' | 'supplier' | 'prospect', object]>([
    ['customer_invoice', 'supplier', { is_customer: true, is_supplier: true }],
    ['supplier_refund', 'customer', { is_customer: true, is_supplier: true }],
    ['customer_invoice', 'prospect', { is_prospect: true, is_customer: true, is_supplier: false }],
  ])('makes the partner of a %s, a %s, take on its role', (invoice_type, role, flags) => {
    const data = dataset();
    const prospect = pick(data.contacts, (c) => c.is_prospect);
    const partner = { supplier: supplierOf(data), customer: customerOf(data), prospect }[role];
    newInvoice(data, { invoice_type, partner_id: partner.id });
    expect(partner).toMatchObject(flags);
  });

  it('stores the lines with the rate of their tax and the names of their product', () => {
    const data = dataset();
    const [product, tax, archived] = [productOf(data, 'GDS-BOOK'), taxOf(data, 'V21'), taxOf(data, 'V195')];
    const names = { description: 'D', unit_of_measure: 'kg', product_code: 'C', product_name: 'N' };
    const booked = { tax_rate: 12, discount_amount: 3, account_number: '700000', tax_exemption_reason: 'E' };
    const lines = [
      lineIn({ product_id: product.id, tax_id: tax.id, tax_rate: 5 }),
      lineIn({ product_id: product.id, ...names }),
      lineIn(booked),
      lineIn({ tax_id: archived.id, product_id: '' }),
    ];
    const invoice = newInvoice(data, { lines });
    const bare = {
      ...{ unit_price: 50, quantity: 2, untaxed_amount: 100, tax_amount: 21, total: 121, description: null },
      ...{ discount_amount: 0, tax_rate: null, account_number: null, tax_id: null, product_id: null },
      ...{ tax_exemption_reason: null, unit_of_measure: null, product_code: null, product_name: null },
      analytic_distribution: [],
    };
    const named = { ...bare, product_id: product.id, product_code: 'GDS-BOOK', product_name: product.name };
    expect(invoice.lines).toEqual([
      { ...named, description: product.name, unit_of_measure: 'unit', tax_rate: 21, tax_id: tax.id },
      { ...named, ...names },
      { ...bare, ...booked },
      { ...bare, tax_rate: 19.5, tax_id: archived.id },
    ]);
  });
});

describe('payments', () => {
  function openInvoice(over: Partial<InvoiceIn> = {}) {
    const data = dataset();
    const ctx = context('2027-03-02T00:00:00.000Z');
    const invoice = newInvoice(data, { total: 100, ...over }, ctx);
    ctx.now = '2027-05-05T05:05:05.000Z';
    const pay = (amount: number, more: Partial<wire.PaymentInInput> = {}) =>
      domain.createPayment(data, { ...payIn(invoice.id, amount), ...more }, ctx);
    return { data, ctx, invoice, pay };
  }
  const ONLY_POSTED = (status: string) =>
    `The invoice INV-2027-0001 is ${status}: only a posted invoice can be paid`;
  const NO_INVOICE = "invoice_id 'nope' is not an invoice of the software";
  // biome-ignore format: one case a line
  it.each<[string, Partial<InvoiceIn>, number, Partial<wire.PaymentInInput>, string]>([
    ['an unknown invoice', {}, 10, { invoice_id: 'nope' }, NO_INVOICE],
    ['a draft', { status: 'draft' }, 10, {}, ONLY_POSTED('draft')],
    ['a cancelled invoice', { status: 'cancelled' }, 10, {}, ONLY_POSTED('cancelled')],
    ['a draft, before a negative amount', { status: 'draft' }, -1, {}, ONLY_POSTED('draft')],
    ['a negative amount', {}, -0.01, {}, 'amount must not be negative'],
    ['a huge amount', {}, 1e307, {}, TOO_LARGE('amount', '1e+307')],
    ['an unknown method', {}, 10, { payment_method_id: 'nope' }, NO_METHOD],
  ])('refuses a payment of %s', (_label, over, amount, more, detail) => {
    const { data, pay } = openInvoice(over);
    expect(refusedUnchanged(data, () => pay(amount, more))).toEqual(failure(detail));
  });

  // biome-ignore format: one case a line
  it.each<[number[], number, number, string]>([
    [[40], 40, 60, 'posted'],
    [[100], 100, 0, 'paid'],
    [[120], 120, -20, 'paid'],
    [[0], 0, 100, 'posted'],
    [[10.005], 10.01, 89.99, 'posted'],
    [[33.333, 33.333, 33.333], 33.33, 0.01, 'posted'],
    [[0.1 + 0.2, 99.7], 99.7, 0, 'paid'],
  ])('pays %j of 100: the last kept as %d, %d left, %s', (amounts, last, open, status) => {
    const { data, invoice, pay } = openInvoice();
    const payments = amounts.map((amount) => pay(amount));
    const derived = [domain.outstandingOf(data, invoice), domain.statusOf(data, invoice)];
    expect([payments.at(-1)?.amount, ...derived]).toEqual([last, open, status]);
  });

  it('finds the invoice whatever the case of its id, as reading it does', () => {
    const { data, invoice, pay } = openInvoice();
    const payment = pay(30, { invoice_id: invoice.id.toUpperCase() });
    expect(payment.invoice_id).toBe(invoice.id);
    expect(domain.outstandingOf(data, invoice)).toBe(70);
  });

  it('stores the payment, and marks its invoice changed', () => {
    const { data, ctx, invoice, pay } = openInvoice({ status: 'paid', total: 50 });
    const cash = methodOf(data, 'Cash');
    const payment = pay(5, {
      date: '2026-12-31',
      currency: 'GBP',
      description: '  ',
      payment_method_id: cash,
    });
    expect(payment).toEqual({
      ...{ id: minted('invoicing-payment', 3), status: 'completed', amount: 5, currency: 'GBP' },
      source_ref: { id: `PAY${1000 + count(SEEDED.payments) + 2}`, model: 'payment' },
      ...{ description: 'Payment of INV-2027-0001', payment_date: '2026-12-31T00:00:00.000Z' },
      ...{ payment_method_id: cash, invoice_id: invoice.id, created_on: ctx.now, last_updated_on: ctx.now },
    });
    expect(data.payments[payment.id]).toBe(payment);
    expect([invoice.last_updated_on, domain.outstandingOf(data, invoice)]).toEqual([ctx.now, -5]);
    const described = pay(1, { description: 'Deposit', payment_method_id: null });
    expect([described.description, described.payment_method_id]).toEqual(['Deposit', null]);
  });

  // biome-ignore format: one case a line
  it.each<[string, string | null, wire.PaymentUpdateInput, string]>([
    ['an unknown payment', 'nope', { amount: 1 }, NO_PAYMENT('nope')],
    ['an inherited name', 'hasOwnProperty', {}, NO_PAYMENT('hasOwnProperty')],
    ['a negative amount', null, { amount: -1 }, 'amount must not be negative'],
    ['a huge negative amount (negative first)', null, { amount: -1e307 }, 'amount must not be negative'],
    ['a huge amount', null, { amount: 1e307 }, TOO_LARGE('amount', '1e+307')],
    ['an unknown method', null, { payment_method_id: 'nope' }, NO_METHOD],
  ])('refuses to update %s', (_label, id, input, detail) => {
    const { data, ctx, pay } = openInvoice();
    const paymentId = id ?? pay(10).id;
    expect(refusedUnchanged(data, () => domain.updatePayment(data, paymentId, input, ctx))).toEqual(failure(detail));
  });

  it('refuses to update the payment of a vanished invoice, and deletes it', () => {
    const { data, ctx, invoice, pay } = openInvoice();
    const { id } = pay(10);
    delete data.invoices[invoice.id];
    expect(refusedUnchanged(data, () => domain.updatePayment(data, id, { amount: 1 }, ctx))).toEqual(
      failure(`The invoice of the payment '${id}' no longer exists`),
    );
    domain.deletePaymentRecord(data, id, ctx);
    expect(data.payments[id]).toBeUndefined();
  });

  // biome-ignore format: one case a line
  it.each<[wire.PaymentUpdateInput, Partial<Payment>, number]>([
    [{}, {}, 90],
    [{ amount: null, date: null, description: null, payment_method_id: null }, {}, 90],
    [{ amount: 12.345 }, { amount: 12.35 }, 87.65],
    [{ amount: 0 }, { amount: 0 }, 100],
    [{ amount: 150 }, { amount: 150 }, -50],
    [{ date: '2027-05-01' }, { payment_date: '2027-05-01T00:00:00.000Z' }, 90],
    [{ date: '' }, {}, 90],
    [{ description: ' ' }, {}, 90],
    [{ description: 'New' }, { description: 'New' }, 90],
  ])('updates a payment of 10 of 100 with %j: %j, %d left', (input, changed, open) => {
    const { data, ctx, invoice, pay } = openInvoice();
    const payment = pay(10, { payment_method_id: methodOf(data, 'Credit card') });
    const before = { ...payment };
    ctx.now = '2027-06-06T06:06:06.000Z';
    expect(domain.updatePayment(data, payment.id, input, ctx)).toBe(payment);
    expect(payment).toEqual({ ...before, ...changed, last_updated_on: ctx.now });
    expect([invoice.last_updated_on, domain.outstandingOf(data, invoice)]).toEqual([ctx.now, open]);
  });

  it('changes the method of a payment, and keeps it when given none', () => {
    const { data, ctx, pay } = openInvoice();
    const { id } = pay(10);
    const cash = methodOf(data, 'Cash');
    expect(domain.updatePayment(data, id, { payment_method_id: cash }, ctx).payment_method_id).toBe(cash);
    expect(domain.updatePayment(data, id, { payment_method_id: null }, ctx).payment_method_id).toBe(cash);
  });

  it('deletes a payment: the invoice is open again and marked changed; an unknown one is refused', () => {
    const { data, ctx, invoice, pay } = openInvoice();
    const remove = (id: string) => domain.deletePaymentRecord(data, id, ctx);
    expect(refusedUnchanged(data, () => remove('nope'))).toEqual(failure(NO_PAYMENT('nope')));
    const { id } = pay(100);
    expect(domain.statusOf(data, invoice)).toBe('paid');
    ctx.now = '2027-07-07T07:07:07.000Z';
    remove(id);
    expect(data.payments[id]).toBeUndefined();
    const derived = [domain.outstandingOf(data, invoice), domain.statusOf(data, invoice)];
    expect([...derived, invoice.last_updated_on]).toEqual([100, 'posted', ctx.now]);
    expect(refusal(() => remove(id))).toEqual(failure(NO_PAYMENT(id)));
  });
});

describe('PDF documents', () => {
  const PDF = tinyPdf('scan');
  const bad = (detail: string): Refusal => ({
    ...{ status: 400, message: 'The document is not a valid base64 string representing a PDF.' },
    ...{ detail, code: 'ERROR_INVALID_BASE64_STRING' },
  });
  const TEXT = 'base64_string is not base64 text';
  const NOT_PDF = 'The decoded bytes do not start with %PDF-';
  const base64 = (text: string) => Buffer.from(text).toString('base64');
  // biome-ignore format: one case a line
  it.each([['', TEXT], [' \n ', TEXT], ['abc', TEXT], ['ab!d', TEXT], ['a===', TEXT], ['ab=c', TEXT], [base64('hello'), NOT_PDF], [base64('%PDF'), NOT_PDF]])(
    'refuses %j',
    (base64_string, detail) => {
      expect(refusal(() => domain.decodePdf(base64_string))).toEqual(bad(detail));
      const data = dataset();
      const input = { base64_string, document_type: 'customer_document' } as const;
      expect(refusedUnchanged(data, () => domain.uploadDocument(data, input, context()))).toEqual(bad(detail));
    },
  );

  it('decodes a PDF, whitespace and line breaks left out', () => {
    const bytes = Buffer.from(PDF, 'base64');
    expect(domain.decodePdf(PDF).equals(bytes)).toBe(true);
    const spaced = `  ${PDF.slice(0, 10)}\n${PDF.slice(10, 30)}\t${PDF.slice(30)} \r\n`;
    expect(domain.decodePdf(spaced).equals(bytes)).toBe(true);
  });

  it.each([
    ['customer_document', 'customer_invoice'],
    ['supplier_document', 'supplier_invoice'],
    ['employee_expense', null],
  ] as const)('keeps a %s as a document to read, a draft %s', (document_type, invoice_type) => {
    const data = dataset();
    const ctx = context();
    const out = domain.uploadDocument(data, { base64_string: PDF, document_type }, ctx);
    const bytes = Buffer.from(PDF, 'base64');
    expect(data.documents[out.id]).toEqual({
      ...{ id: minted('invoicing-document', 1), document_type, created_on: ctx.now, bytes: bytes.length },
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
    const source_ref = { id: 'D1001', model: 'document' };
    expect(out).toMatchObject({
      source_ref,
      invoice_type,
      status: 'draft',
      last_updated_on: ctx.now,
      lines: [],
    });
    const nulls = Object.entries(out).filter(([key, value]) => value === null && key !== 'invoice_type');
    expect(nulls.map(([key]) => key).sort()).toEqual(
      [
        ...[
          'currency',
          'invoice_date',
          'tax_amount',
          'untaxed_amount',
          'total',
          'partner_id',
          'invoice_number',
        ],
        ...[
          'due_date',
          'reference',
          'payment_communication',
          'customer_memo',
          'journal_ref',
          'accounting_date',
        ],
        ...['italian_specificities', 'outstanding_amount', 'last_payment_date', 'payment_method_id'],
        'currency_exchange_rate',
      ].sort(),
    );
    expect(domain.uploadDocument(data, { base64_string: PDF, document_type }, ctx).source_ref.id).toBe(
      'D1002',
    );
  });
});
