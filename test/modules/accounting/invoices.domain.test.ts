import { describe, expect, it } from 'vitest';
import { attachmentsOf, toAttachmentItem } from '../../../src/modules/accounting/api/attachments.domain.js';
import * as invoices from '../../../src/modules/accounting/api/invoices.domain.js';
import type * as wire from '../../../src/modules/accounting/api/invoices.schemas.js';
import type * as records from '../../../src/modules/accounting/model/accounting.records.js';
import { type Refusal, refusal } from '../domain-helpers.js';
import { findIn as find, seededLedger } from './seeded-ledger.js';

/** Invoices and their documents: drafts from the API's bodies, the filters, the wire shapes, called directly. */

type Ledger = records.LedgerRecord;
type Invoice = records.LedgerInvoice;
const SEEDED = seededLedger();
const journal = (code: string) => find(SEEDED.journals, (j) => j.code === code).id;
const partner = (code: string) => find(SEEDED.partners, (p) => p.code === code).id;
const analytic = (code: string) => find(SEEDED.analytic_accounts, (a) => a.code === code);
const [VEN, VNC, ACH, BNK] = ['VEN', 'VNC', 'ACH', 'BNK'].map(journal) as [string, string, string, string];
const [CLIENT, SUPPLIER] = [partner('C00001'), partner('S00001')];
const TRANSFER = find(SEEDED.payment_methods, (m) => m.name === 'Bank transfer').id;

const NO_ANALYTIC = "The analytic account doesn't exist in the accounting system.";
const NO_INVOICE = "The invoice doesn't exist in the accounting system.";
const NO_ENTRY = "The entry doesn't exist in the accounting system.";

// biome-ignore format: a record a line
const line = (id: string, account_number: string, debit: number, credit: number, partner_id: string | null = null) => ({
  ...{ id, account_number, partner_id, employee_id: null, description: null, debit, credit },
  ...{ analytic_distribution: [], tax_code: null },
});
// biome-ignore format: a record a line
function addEntry(ledger: Ledger, id: string, journal_id: string, date: string, lines: records.LedgerEntryLine[]) {
  const at = `${date}T09:00:00.000Z`;
  const entry: records.LedgerEntry = {
    ...{ id, journal_id, number: `${id}-no`, date, due_date: null, reference: null, posted: true, currency: 'EUR' },
    ...{ currency_exchange_rate: 1, origin: 'journal_entry', invoice_id: null, payment_method_id: null },
    ...{ start_date: null, end_date: null, lines, created_on: at, last_updated_on: at },
  };
  ledger.entries[id] = entry;
  return entry;
}
// biome-ignore format: a record a line
const invoiceLine = (analytic_distribution: records.LedgerAnalyticDistribution[] = []) => ({
  ...{ line_number: 1, unit_price: 10, unit_of_measure: null, quantity: 1, untaxed_amount: 10, tax_rate: 0 },
  ...{ tax_amount: 0, total: 10, account_number: '700000', tax_code: 'V0', description: 'x', analytic_distribution },
});
/** An invoice with its entry `<id>-e` and its partner line `<id>-p`. */
// biome-ignore format: a record a line
function addInvoice(ledger: Ledger, id: string, type: Invoice['invoice_type'], over: Partial<Invoice>): Invoice {
  const base = { invoice_number: `${id}-no`, invoice_date: '2025-01-10', total: 121, status: 'posted' as const };
  const { invoice_number, invoice_date, total, status } = { ...base, ...over };
  const customer = type.startsWith('customer_');
  const debit = customer === type.endsWith('_invoice');
  const partnerAccount = customer ? '400000' : '440000';
  const entry = addEntry(ledger, `${id}-e`, over.journal_id ?? VEN, invoice_date, [
    line(`${id}-p`, partnerAccount, debit ? total : 0, debit ? 0 : total, over.partner_id ?? CLIENT),
    line(`${id}-r`, '700000', debit ? 0 : total, debit ? total : 0),
  ]);
  Object.assign(entry, { number: invoice_number, posted: status !== 'draft', invoice_id: id });
  const at = `${invoice_date}T09:00:00.000Z`;
  const invoice: Invoice = {
    ...{ id, invoice_type: type, invoice_number, currency: 'EUR', currency_exchange_rate: 1, total, tax_amount: 0 },
    ...{ untaxed_amount: total, reference: null, payment_communication: null, customer_memo: null },
    ...{ payment_term_id: null, withholding_tax: null, invoice_date, due_date: '2025-03-31', partner_id: CLIENT },
    ...{ journal_id: VEN, status, payment_method_id: null, approval_status: 'unknown', start_date: null },
    ...{ end_date: null, shipping_country: null, lines: [invoiceLine()], entry_id: entry.id },
    ...{ partner_line_id: `${id}-p`, created_on: at, last_updated_on: at },
    ...over,
  };
  ledger.invoices[id] = invoice;
  return invoice;
}
/** Paid by an entry `<id>` of the bank journal: `amount` on its partner line, `allocated` of it to the invoice. */
// biome-ignore format: a record a line
function pay(ledger: Ledger, id: string, invoice: Invoice, date: string, amount: number, allocated = amount) {
  const entry = addEntry(ledger, id, BNK, date, [line(`${id}-b`, '550000', amount, 0)]);
  entry.lines.push(line(`${id}-p`, '400000', 0, amount, invoice.partner_id));
  entry.reference = `ref ${id}`;
  const allocations = [
    { entry_id: invoice.entry_id, line_id: invoice.partner_line_id, amount: allocated },
    { entry_id: id, line_id: `${id}-p`, amount },
  ];
  ledger.matchings[`M-${id}`] = { number: `M-${id}`, partner_id: invoice.partner_id, date, allocations, created_on: date };
}

/**
 * The seeded folder with invoices of its own only. Customer invoices: a paid by p1 (100) and p2 (21 of its
 * 50), b a draft in USD, c cancelled, z of zero; a customer refund d; a supplier invoice e.
 */
// biome-ignore format: an invoice a line
function ledgerWithInvoices(): Ledger {
  const ledger = structuredClone(SEEDED) as Ledger;
  Object.assign(ledger, { entries: {}, invoices: {}, matchings: {}, attachments: {} });
  const a = addInvoice(ledger, 'a', 'customer_invoice', { approval_status: 'approved', payment_method_id: TRANSFER });
  const feb = { invoice_date: '2025-02-01' };
  const usd = { currency: 'USD', currency_exchange_rate: 1.1, total: 10.05, approval_status: 'pending' as const };
  addInvoice(ledger, 'b', 'customer_invoice', { ...feb, ...usd, status: 'draft', invoice_number: 'VEN/2025/0002' });
  const rejected = { approval_status: 'rejected' as const, invoice_number: 'VEN/2025/0003' };
  addInvoice(ledger, 'c', 'customer_invoice', { ...feb, ...rejected, status: 'cancelled', total: 50 });
  addInvoice(ledger, 'z', 'customer_invoice', { invoice_date: '2025-02-28', total: 0 });
  addInvoice(ledger, 'd', 'customer_refund', { invoice_date: '2025-01-15', journal_id: VNC, total: 30 });
  addInvoice(ledger, 'e', 'supplier_invoice', { journal_id: ACH, partner_id: SUPPLIER, total: 200 });
  pay(ledger, 'p2', a, '2025-01-25', 50, 21);
  pay(ledger, 'p1', a, '2025-01-20', 100);
  return ledger;
}

describe('drafts of the API bodies', () => {
  type MonoIn = wire.InvoiceMonoInput;
  const lineIn = (over: Partial<MonoIn['lines'][number]> = {}): MonoIn['lines'][number] => ({
    ...{ line_number: null, unit_price: 50, quantity: 2, untaxed_amount: 100, tax_rate: 21, tax_amount: 21 },
    ...{ total: 121, account_number: '700000', tax_code: 'V21', description: '', ...over },
  });
  const monoIn = (over: Partial<MonoIn> = {}): MonoIn => ({
    ...{ invoice_type: 'customer_invoice', currency: 'EUR', untaxed_amount: 200, tax_amount: 42, total: 242 },
    ...{ invoice_date: '2025-03-01', due_date: '2025-03-31', status: null, currency_exchange_rate: null },
    ...{ lines: [lineIn(), lineIn({ line_number: 7, description: 'second' })], ...over },
  });

  it('gives the defaults of what a body leaves out, and numbers unnumbered lines by position', () => {
    const draft = invoices.draftFromMono(SEEDED, monoIn(), {});
    const nulls = {
      reference: null,
      payment_communication: null,
      customer_memo: null,
      payment_term_id: null,
    };
    expect({ ...draft, lines: [] }).toEqual({
      ...{
        invoice_type: 'customer_invoice',
        invoice_number: null,
        currency: 'EUR',
        currency_exchange_rate: 1,
      },
      ...{ untaxed_amount: 200, tax_amount: 42, total: 242, ...nulls, withholding_tax: null },
      ...{ invoice_date: '2025-03-01', due_date: '2025-03-31', partner_id: null, journal_id: null },
      ...{ status: 'posted', pdf: null, pdf_name: null, payment_method_id: null, start_date: null },
      ...{ end_date: null, shipping_country: null, approval_status: 'unknown', force_financial_period: null },
      ...{ regroup_lines: true, lines: [] },
    });
    const shown = draft.lines.map((l) => `${l.line_number} ${l.description} ${l.unit_of_measure}`);
    expect(shown).toEqual(['1  null', '7 second null']);
    expect(draft.lines[0]).toMatchObject({
      unit_price: 50,
      quantity: 2,
      total: 121,
      analytic_distribution: [],
    });
  });

  it.each<[string | undefined, boolean]>([
    [undefined, true],
    ['false', false],
    ['true', true],
    ['FALSE', true],
    ['0', true],
  ])('regroups lines for regroup_lines=%s: %s, and keeps the forced period', (regroup_lines, expected) => {
    const options = { regroup_lines, force_financial_period: '032025' };
    const draft = invoices.draftFromMono(
      SEEDED,
      monoIn({ status: 'draft', currency_exchange_rate: 0 }),
      options,
    );
    const { regroup_lines: regroup, force_financial_period: period, status, currency_exchange_rate } = draft;
    expect([regroup, period, status, currency_exchange_rate]).toEqual([expected, '032025', 'draft', 0]);
  });

  it.each(['SALES', 'PRJ-099'])('gives the analytic account %s of a mono line 100% of its plan', (code) => {
    const account = analytic(code);
    const draft = invoices.draftFromMono(
      SEEDED,
      monoIn({ lines: [lineIn({ analytic_account: account.id })] }),
      {},
    );
    const share = { analytic_account: account.id, percentage: 100 };
    expect(draft.lines[0]?.analytic_distribution).toEqual([
      { analytic_plan: account.plan_id, analytic_accounts: [share] },
    ]);
    const none = [lineIn({ analytic_account: null }), lineIn({ analytic_account: '' })];
    const drafted = invoices.draftFromMono(SEEDED, monoIn({ lines: none }), {}).lines;
    expect(drafted.map((l) => l.analytic_distribution)).toEqual([[], []]);
  });

  it.each(['nope', '__proto__', 'constructor', analytic('SALES').id.toUpperCase()])(
    'refuses the unknown analytic account %s of a mono line',
    (id) => {
      const body = monoIn({ lines: [lineIn(), lineIn({ analytic_account: id })] });
      expect(refusal(() => invoices.draftFromMono(SEEDED, body, {}))).toEqual({
        ...{ status: 404, message: NO_ANALYTIC, code: 'ERROR_ANALYTIC_ACCOUNT_NOT_FOUND' },
        detail: `lines[1]: the analytic account '${id}' does not exist`,
      });
    },
  );

  it('copies the distributions of a multi line, none for null', () => {
    const share = { analytic_account: 'a', percentage: 60 };
    const distribution = [{ analytic_plan: 'p', analytic_accounts: [share] }];
    const lines = [
      { ...lineIn(), analytic_distribution: distribution },
      { ...lineIn(), analytic_distribution: null },
    ];
    const body: wire.InvoiceMultiInput = { ...monoIn(), lines };
    const draft = invoices.draftFromMulti(body, { regroup_lines: 'false' });
    expect(draft.lines.map((l) => l.analytic_distribution)).toEqual([distribution, []]);
    expect(draft.lines[0]?.analytic_distribution[0]).not.toBe(distribution[0]);
    expect(draft.lines[0]?.analytic_distribution[0]?.analytic_accounts[0]).not.toBe(share);
    expect([draft.regroup_lines, draft.lines.map((l) => l.line_number)]).toEqual([false, [1, 2]]);
  });

  it('drafts a payment: rate 1 unless given, nulls for what is left out', () => {
    const items = [{ invoice_id: 'a', amount: 10 }];
    const body = {
      date: '2025-04-01',
      payment_method_id: 'm',
      currency: 'EUR',
      currency_exchange_rate: null,
      items,
    };
    const draft = invoices.draftPayment(body);
    expect(draft).toEqual({ ...body, currency_exchange_rate: 1, reference: null, number: null });
    expect(draft.items[0]).not.toBe(items[0]);
    expect(invoices.draftPayment({ ...body, currency_exchange_rate: 1.2, number: 'N' })).toMatchObject({
      ...{ currency_exchange_rate: 1.2, number: 'N', reference: null },
    });
  });
});

describe('an invoice on the wire', () => {
  it.each(['nope', '__proto__', 'toString', ''])('answers 404 for the invoice id %j', (id) => {
    expect(refusal(() => invoices.requireInvoice(ledgerWithInvoices(), id))).toEqual({
      ...{ status: 404, message: NO_INVOICE, code: 'ERROR_INVOICE_NOT_FOUND' },
      detail: `No invoice with the id '${id}' in the folder`,
    });
  });

  it('finds an invoice whatever the case of its id', () => {
    expect(invoices.requireInvoice(ledgerWithInvoices(), 'A').invoice_number).toBe('a-no');
  });

  it('lists the entries that settled an invoice by date, with the part each gave it', () => {
    const ledger = ledgerWithInvoices();
    const payment = {
      currency: 'EUR',
      journal_type: 'financial_operation',
      journal_id: BNK,
      reconciled: true,
    };
    const bank = { ...payment, journal_name: 'Bank current account' };
    // biome-ignore format: a payment a line
    expect(invoices.paymentsOf(ledger, ledger.invoices.a as Invoice)).toEqual([
      { ...bank, id: 'p1', name: 'p1-no', amount: 100, dedicated_amount: 100, payment_date: '2025-01-20', communication: 'ref p1', matching_number: 'M-p1' },
      { ...bank, id: 'p2', name: 'p2-no', amount: 50, dedicated_amount: 21, payment_date: '2025-01-25', communication: 'ref p2', matching_number: 'M-p2' },
    ]);
    (ledger.entries.p2 as records.LedgerEntry).journal_id = 'gone';
    expect(invoices.paymentsOf(ledger, ledger.invoices.a as Invoice)[1]).toMatchObject({
      ...{ journal_type: 'unknown', journal_id: 'gone', journal_name: '' },
    });
    expect(invoices.paymentsOf(ledger, ledger.invoices.b as Invoice)).toEqual([]);
  });

  it('shows everything asked for: payments, partner, lines, due dates, attachments, main currency', () => {
    const ledger = ledgerWithInvoices();
    const a = ledger.invoices.a as Invoice;
    const dist = { analytic_plan: 'p', analytic_accounts: [{ analytic_account: 'aa', percentage: 100 }] };
    a.lines = [invoiceLine([dist, { ...dist, analytic_plan: 'q' }]), invoiceLine()];
    a.withholding_tax = { tax_rate: 1, tax_code: 'W', tax_amount: 1.21 };
    const file = (id: string, document_type: 'invoice' | 'entry', document_id: string) => ({
      ...{ id, document_type, document_id, filename: `${id}.pdf`, base64_string: 'x', created_on: 'c' },
    });
    Object.assign(ledger.attachments, { f1: file('f1', 'invoice', 'a'), f2: file('f2', 'entry', 'a-e') });
    const all = { lines: true, payments: true, partner: true };
    const multi = invoices.toInvoiceItem(ledger, a, 'multi', all);
    expect(multi).toMatchObject({
      ...{ id: 'a', status: 'paid', payment_method_id: TRANSFER, approval_status: 'approved' },
      due_dates: [
        { due_date: '2025-03-31', payment_method: 'Bank transfer', payment_method_id: TRANSFER, amount: 121 },
      ],
      attachments_info: { status: 'yes', attachments: [{ filename: 'f1.pdf', url: null }] },
      accounting_info: { main_currency: 'EUR', main_currency_total: 121, account_number: '400000' },
      withholding_tax: { tax_rate: 1, tax_code: 'W', tax_amount: 1.21 },
    });
    expect([multi.payments?.map((p) => p.id), multi.partner?.id, multi.partner?.account_number]).toEqual([
      ...[['p1', 'p2'], CLIENT, '400000'],
    ]);
    expect(multi.withholding_tax).not.toBe(a.withholding_tax);
    expect(multi.lines.map((l) => l.analytic_distribution)).toEqual([
      [dist, { ...dist, analytic_plan: 'q' }],
      [],
    ]);
    expect(multi.lines[0]?.analytic_distribution?.[0]).not.toBe(dist);
    const mono = invoices.toInvoiceItem(ledger, a, 'mono', all);
    expect(mono.lines.map((l) => [l.line_number, l.analytic_account, l.total])).toEqual([
      ...[
        [1, 'aa', 10],
        [1, null, 10],
      ],
    ]);
  });

  it('leaves out what is not asked for, and converts to the main currency to the cent', () => {
    const ledger = ledgerWithInvoices();
    const none = { lines: false, payments: false, partner: false };
    const b = invoices.toInvoiceItem(ledger, ledger.invoices.b as Invoice, 'mono', none);
    expect(b).toMatchObject({
      ...{ status: 'draft', payments: null, partner: null, lines: [], approval_status: 'pending' },
      due_dates: [{ due_date: '2025-03-31', payment_method: null, payment_method_id: null, amount: 10.05 }],
      attachments_info: { status: 'no', attachments: [] },
      // 10.05 USD at 1.1 is 11.055000000000001: 11.06.
      accounting_info: { main_currency: 'EUR', main_currency_total: 11.06, account_number: '400000' },
    });
  });

  it("shows a supplier invoice's partner as a supplier, and no partner or account once they are gone", () => {
    const ledger = ledgerWithInvoices();
    const both = ledger.partners[SUPPLIER] as records.LedgerPartner;
    Object.assign(both, { is_client: true, client_account: '400000' });
    const all = { lines: false, payments: true, partner: true };
    const e = ledger.invoices.e as Invoice;
    expect(invoices.toInvoiceItem(ledger, e, 'multi', all).partner?.account_number).toBe('440000');
    Object.assign(e, { partner_id: 'gone', entry_id: 'gone' });
    expect(invoices.toInvoiceItem(ledger, e, 'multi', all)).toMatchObject({
      ...{ partner: null, partner_id: 'gone', status: 'paid', payments: [] },
      accounting_info: { main_currency: 'EUR', main_currency_total: 200, account_number: null },
    });
  });
});

describe('the invoice list', () => {
  type Filters = invoices.InvoiceFilters;
  const numbers = (ledger: Ledger, filters: Filters, type: Invoice['invoice_type'] = 'customer_invoice') =>
    invoices.listInvoices(ledger, type, filters).map((i) => i.invoice_number);
  const ALL = ['a-no', 'VEN/2025/0002', 'VEN/2025/0003', 'z-no'];
  // biome-ignore format: one case a line
  it.each<[string, Filters, string[]]>([
    ['nothing (by date, then number)', {}, ALL],
    ['date_from (inclusive)', { date_from: '2025-02-01' }, ['VEN/2025/0002', 'VEN/2025/0003', 'z-no']],
    ['date_to (inclusive)', { date_to: '2025-02-01' }, ['a-no', 'VEN/2025/0002', 'VEN/2025/0003']],
    ['a date_to before date_from', { date_from: '2025-02-02', date_to: '2025-02-01' }, []],
    ['journal ids, trimmed', { journal_ids: ` nope , ${VEN} ` }, ALL],
    ['an unknown journal', { journal_ids: 'nope' }, []],
    ['an empty journal list', { journal_ids: ' , ' }, ALL],
    ['updated_after (strictly, UTC without offset)', { updated_after: '2025-02-01T09:00:00' }, ['z-no']],
    ['updated_after with an offset', { updated_after: '2025-02-01T10:59:59+02:00' }, ['VEN/2025/0002', 'VEN/2025/0003', 'z-no']],
    ['approval_status pending', { approval_status: 'pending' }, ['VEN/2025/0002']],
    ['approval_status rejected', { approval_status: 'rejected' }, ['VEN/2025/0003']],
    ['payment_status paid', { payment_status: 'paid' }, ['a-no']],
    ['payment_status unpaid (drafts, not cancelled, not zero)', { payment_status: 'unpaid' }, ['VEN/2025/0002']],
    ['payment_status all', { payment_status: 'all' }, ALL],
  ])('filters on %s', (_label, filters, expected) => {
    expect(numbers(ledgerWithInvoices(), filters)).toEqual(expected);
  });

  it('lists each type apart, and a partly paid invoice as unpaid', () => {
    const ledger = ledgerWithInvoices();
    expect([numbers(ledger, {}, 'customer_refund'), numbers(ledger, {}, 'supplier_invoice')]).toEqual([
      ...[['d-no'], ['e-no']],
    ]);
    delete ledger.matchings['M-p2'];
    expect(numbers(ledger, { payment_status: 'unpaid' })).toEqual(['a-no', 'VEN/2025/0002']);
    expect(numbers(ledger, { payment_status: 'paid' })).toEqual([]);
  });

  it('breaks ties of date and number by id', () => {
    const ledger = ledgerWithInvoices();
    ledger.invoices.a0 = { ...(ledger.invoices.a as Invoice), id: 'a0' };
    expect(
      invoices.listInvoices(ledger, 'customer_invoice', { date_to: '2025-01-10' }).map((i) => i.id),
    ).toEqual([...['a', 'a0']]);
  });
});

describe('the documents of an invoice or an entry', () => {
  function ledgerWithFiles(): Ledger {
    const ledger = ledgerWithInvoices();
    // biome-ignore format: one document a line
    const files: [string, 'invoice' | 'entry', string, string][] = [
      ['f3', 'invoice', 'a', '2025-01-12T00:00:00.000Z'],
      ['f1', 'invoice', 'a', '2025-01-11T00:00:00.000Z'],
      ['f0', 'invoice', 'a', '2025-01-11T00:00:00.000Z'],
      ['f2', 'entry', 'a-e', '2025-01-10T00:00:00.000Z'],
      ['f4', 'entry', 'p1', '2025-01-20T00:00:00.000Z'],
      ['f5', 'invoice', 'b', '2025-01-01T00:00:00.000Z'],
    ];
    for (const [id, document_type, document_id, created_on] of files) {
      ledger.attachments[id] = {
        id,
        document_type,
        document_id,
        filename: `${id}.pdf`,
        base64_string: id,
        created_on,
      };
    }
    return ledger;
  }
  // biome-ignore format: one case a line
  it.each<['invoice' | 'entry', string, string[]]>([
    ['invoice', 'A', ['f0', 'f1', 'f3']],
    ['invoice', 'a', ['f0', 'f1', 'f3']],
    ['invoice', 'z', []],
    ['entry', 'A-E', ['f2', 'f0', 'f1', 'f3']],
    ['entry', 'p1', ['f4']],
    ['entry', 'b-E', ['f5']],
  ])('lists those of the %s %s, oldest first', (type, id, expected) => {
    expect(attachmentsOf(ledgerWithFiles(), type, id).map((a) => a.id)).toEqual(expected);
  });

  // biome-ignore format: one case a line
  it.each<['invoice' | 'entry', string, Refusal]>([
    ['invoice', 'a-e', { status: 404, message: NO_INVOICE, detail: "No invoice with the id 'a-e' in the folder", code: 'ERROR_INVOICE_NOT_FOUND' }],
    ['invoice', '__proto__', { status: 404, message: NO_INVOICE, detail: "No invoice with the id '__proto__' in the folder", code: 'ERROR_INVOICE_NOT_FOUND' }],
    ['entry', 'a', { status: 404, message: NO_ENTRY, detail: "No journal entry with the id 'a' in the folder", code: 'ERROR_ENTRY_NOT_FOUND' }],
    ['entry', 'hasOwnProperty', { status: 404, message: NO_ENTRY, detail: "No journal entry with the id 'hasOwnProperty' in the folder", code: 'ERROR_ENTRY_NOT_FOUND' }],
  ])('answers 404 for the %s %s', (type, id, expected) => {
    expect(refusal(() => attachmentsOf(ledgerWithFiles(), type, id))).toEqual(expected);
  });

  it('shows a document as its id and content', () => {
    const [first] = attachmentsOf(ledgerWithFiles(), 'invoice', 'A');
    expect(toAttachmentItem(first as records.LedgerAttachment)).toEqual({ id: 'f0', base64_string: 'f0' });
  });
});
