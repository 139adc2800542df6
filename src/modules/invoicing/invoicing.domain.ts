import { createHash } from 'node:crypto';
import { instantOf } from '../../lib/clock.js';
import { isCountryCode } from '../../lib/country-codes.js';
import { serviceError } from '../../lib/errors.js';
import { isUuid } from '../../lib/ids.js';
import { own } from '../../lib/own.js';
import { tinyPdf } from '../../lib/pdf.js';
import { connectionDataset } from '../../platform/datasets.js';
import type { WriteContext } from '../../platform/request-context.js';
import { round2 } from '../../platform/seeding/finance-fakes.js';
import { verticalFailure } from '../../platform/vertical-connection.js';
import type { WorldStore } from '../../store/store.js';
import { cloneRecord, rawOf } from '../../store/unit-of-work.js';
import type {
  InvoicingBankAccount,
  InvoicingBankTransaction,
  InvoicingContact,
  InvoicingDataset,
  InvoicingDocument,
  InvoicingInvoice,
  InvoicingInvoiceLine,
  InvoicingInvoiceTypeValue,
  InvoicingOpportunity,
  InvoicingPayment,
  InvoicingPaymentMethod,
  InvoicingProduct,
  InvoicingTax,
} from './invoicing.records.js';
import type {
  ContactInInput,
  ContactOut,
  InvoiceInInput,
  InvoiceOut,
  InvoiceOutSingle,
  PaymentInInput,
  PaymentUpdateInput,
  ProductInInput,
  ProductOut,
  UploadDocumentOut,
} from './invoicing.schemas.js';
import { nextInvoiceNumber, nextSourceId } from './invoicing.seed.js';

/**
 * The Invoicing vertical's rules, as pure functions over one connection's dataset. Derived values (an
 * invoice's open amount, paid status and last payment, a product's stock, a bank account's balance)
 * are computed from the records every time; writes check everything before they change anything.
 */

export type { WriteContext } from '../../platform/request-context.js';

/** The dataset of a connection, built from the seed the first time the connection is used. */
export function invoicingDatasetOf(
  store: WorldStore,
  consumerid: string,
  connectionid: string,
  integrationid: number,
): InvoicingDataset {
  return connectionDataset<InvoicingDataset>(store, 'invoicing_datasets', {
    consumerid,
    connectionid,
    integrationid,
  });
}

const fail = verticalFailure;

const cents = (amount: number) => Math.round(amount * 100);

/** Units of EUR for one unit of a currency, as the seeded software knows them. */
const EXCHANGE_RATES: Record<string, number> = { EUR: 1, USD: 0.92, GBP: 1.17, CHF: 1.06 };

/** Reads a date-time filter: an instant without an offset is UTC. */

// ---- derived values -------------------------------------------------------------------------------

const settles = (payment: InvoicingPayment) =>
  payment.status === 'completed' || payment.status === 'partially_completed';

/**
 * The payments of each invoice, gathered in one pass: what a list of invoices reads for every
 * invoice's open amount, status and last payment (instead of going through all the payments for each).
 */
export type PaymentsByInvoice = ReadonlyMap<string, readonly InvoicingPayment[]>;

export function paymentsByInvoice(data: InvoicingDataset): PaymentsByInvoice {
  const index = new Map<string, InvoicingPayment[]>();
  for (const payment of Object.values(data.payments)) {
    const list = index.get(payment.invoice_id);
    if (list) list.push(payment);
    else index.set(payment.invoice_id, [payment]);
  }
  return index;
}

export function paymentsOf(
  data: InvoicingDataset,
  invoiceId: string,
  index?: PaymentsByInvoice,
): readonly InvoicingPayment[] {
  if (index) return index.get(invoiceId) ?? [];
  return Object.values(data.payments).filter((p) => p.invoice_id === invoiceId);
}

/** Amount left to pay: the total less the settled payments (0 for a cancelled invoice). */
export function outstandingOf(
  data: InvoicingDataset,
  invoice: InvoicingInvoice,
  index?: PaymentsByInvoice,
): number {
  if (invoice.status === 'cancelled') return 0;
  const paid = paymentsOf(data, invoice.id, index)
    .filter(settles)
    .reduce((sum, p) => sum + cents(p.amount), 0);
  return (cents(invoice.total) - paid) / 100;
}

/** The status on the wire: a posted invoice with nothing left to pay is paid. */
export function statusOf(
  data: InvoicingDataset,
  invoice: InvoicingInvoice,
  index?: PaymentsByInvoice,
): InvoiceOut['status'] {
  return invoice.status === 'posted' && outstandingOf(data, invoice, index) <= 0 ? 'paid' : invoice.status;
}

function lastPaymentDate(
  data: InvoicingDataset,
  invoice: InvoicingInvoice,
  index?: PaymentsByInvoice,
): string | null {
  const dates = paymentsOf(data, invoice.id, index)
    .filter(settles)
    .map((p) => p.payment_date.slice(0, 10))
    .sort();
  return dates.at(-1) ?? null;
}

/** Units a posted document moves in or out of stock: bought in, sold out, credit notes the reverse. */
const STOCK_DIRECTION: Record<InvoicingInvoiceTypeValue, number> = {
  supplier_invoice: 1,
  supplier_refund: -1,
  customer_invoice: -1,
  customer_refund: 1,
};

/** A product's stock: its initial stock moved by the lines of the posted (or paid) invoices. */
export function stockOf(data: InvoicingDataset, product: InvoicingProduct): number | null {
  if (product.initial_stock === null) return null;
  let stock = product.initial_stock;
  for (const invoice of Object.values(data.invoices)) {
    if (invoice.status !== 'posted') continue;
    for (const line of invoice.lines) {
      if (line.product_id === product.id) stock += STOCK_DIRECTION[invoice.invoice_type] * line.quantity;
    }
  }
  return round2(stock);
}

/** A bank account's balance: its opening balance and the done statement lines. */
export function balanceOf(data: InvoicingDataset, account: InvoicingBankAccount): number {
  const moved = Object.values(data.bank_transactions)
    .filter((t) => t.bank_account_id === account.id && t.status === 'done')
    .reduce((sum, t) => sum + cents(t.amount), 0);
  return (cents(account.opening_balance) + moved) / 100;
}

// ---- wire shapes ----------------------------------------------------------------------------------

export function toContactItem(contact: InvoicingContact): ContactOut {
  const { created_on: _created, ...wire } = contact;
  return cloneRecord(wire);
}

export function toProductItem(data: InvoicingDataset, product: InvoicingProduct): ProductOut {
  const { initial_stock: _stock, created_on: _created, ...wire } = product;
  return { ...cloneRecord(wire), available_quantity: stockOf(data, product) };
}

export const toTaxItem = (tax: InvoicingTax) => cloneRecord(tax);

export interface InvoiceView {
  /** Fill the lines (otherwise an empty list). */
  lines: boolean;
  /** Fill the analytic distribution of the lines (otherwise an empty list). */
  analytic: boolean;
}

const lineOut = (line: InvoicingInvoiceLine, analytic: boolean) => ({
  ...cloneRecord(line),
  analytic_distribution: analytic ? cloneRecord(line.analytic_distribution) : [],
});

/** An invoice on the wire; `index`: the payments of a list's invoices, gathered once for it. */
export function toInvoiceItem(
  data: InvoicingDataset,
  invoice: InvoicingInvoice,
  view: InvoiceView,
  index?: PaymentsByInvoice,
): InvoiceOut {
  return {
    id: invoice.id,
    source_ref: { ...invoice.source_ref },
    currency: invoice.currency,
    invoice_type: invoice.invoice_type,
    status: statusOf(data, invoice, index),
    invoice_date: invoice.invoice_date,
    tax_amount: invoice.tax_amount,
    untaxed_amount: invoice.untaxed_amount,
    total: invoice.total,
    lines: view.lines ? invoice.lines.map((line) => lineOut(line, view.analytic)) : [],
    partner_id: invoice.partner_id,
    invoice_number: invoice.invoice_number,
    due_date: invoice.due_date,
    reference: invoice.reference,
    payment_communication: invoice.payment_communication,
    customer_memo: invoice.customer_memo,
    journal_ref: invoice.journal_ref ? { ...invoice.journal_ref } : null,
    italian_specificities: invoice.italian_specificities
      ? (cloneRecord(invoice.italian_specificities) as InvoiceOut['italian_specificities'])
      : null,
    last_updated_on: invoice.last_updated_on,
    outstanding_amount: outstandingOf(data, invoice, index),
    last_payment_date: lastPaymentDate(data, invoice, index),
    accounting_date: invoice.accounting_date,
    payment_method_id: invoice.payment_method_id,
    currency_exchange_rate: invoice.currency_exchange_rate,
  };
}

export function toInvoiceSingle(
  data: InvoicingDataset,
  invoice: InvoicingInvoice,
  options: { pdf: boolean; analytic: boolean },
): InvoiceOutSingle {
  return {
    ...toInvoiceItem(data, invoice, { lines: true, analytic: options.analytic }),
    pdf: options.pdf ? invoicePdf(data, invoice) : null,
  };
}

/** The invoice as a one-page PDF (base64), drawn from its number, partner and total. */
export function invoicePdf(data: InvoicingDataset, invoice: InvoicingInvoice): string {
  const partner = invoice.partner_id ? own(data.contacts, invoice.partner_id) : undefined;
  const name = partner ? displayName(partner) : 'no partner';
  return tinyPdf(
    `${invoice.invoice_number} - ${invoice.invoice_date} - ${name} - ${invoice.total.toFixed(2)} ${invoice.currency}`,
  );
}

export const displayName = (contact: InvoicingContact): string =>
  contact.company_name ?? ([contact.first_name, contact.last_name].filter(Boolean).join(' ') || contact.id);

export function toPaymentItem(data: InvoicingDataset, payment: InvoicingPayment) {
  const invoice = own(data.invoices, payment.invoice_id);
  const method = payment.payment_method_id ? own(data.payment_methods, payment.payment_method_id) : undefined;
  return {
    id: payment.id,
    source_ref: { ...payment.source_ref },
    status: payment.status,
    description: payment.description,
    amount: payment.amount,
    currency: payment.currency,
    payment_date: payment.payment_date,
    partner_id: invoice?.partner_id ?? null,
    payment_method_id: payment.payment_method_id,
    payment_method_name: method?.name ?? null,
    invoice_id: payment.invoice_id,
    invoice_number: invoice?.invoice_number ?? null,
    date: payment.payment_date,
  };
}

export const toPaymentMethodItem = (method: InvoicingPaymentMethod) => cloneRecord(method);

export function toBankAccountItem(data: InvoicingDataset, account: InvoicingBankAccount) {
  const { opening_balance: _opening, ...wire } = account;
  return { ...cloneRecord(wire), balance: balanceOf(data, account) };
}

export const toBankTransactionItem = (transaction: InvoicingBankTransaction) => cloneRecord(transaction);

export const toOpportunityItem = (opportunity: InvoicingOpportunity) => cloneRecord(opportunity);

// ---- reads ----------------------------------------------------------------------------------------

export type ContactTypeFilter = 'prospect' | 'customer' | 'supplier' | 'all';

/** Contacts of a role, in the software's order (oldest first). */
export function listContacts(data: InvoicingDataset, type: ContactTypeFilter = 'all'): InvoicingContact[] {
  const all = Object.values(data.contacts);
  if (type === 'all') return all;
  const flag = { prospect: 'is_prospect', customer: 'is_customer', supplier: 'is_supplier' } as const;
  return all.filter((c) => c[flag[type]]);
}

export function requireContact(data: InvoicingDataset, id: string): InvoicingContact {
  const contact = own(data.contacts, id);
  if (!contact) throw serviceError('invoicingContactNotFound', `No contact has the id '${id}'`);
  return contact;
}

export function requireProduct(data: InvoicingDataset, id: string): InvoicingProduct {
  const product = own(data.products, id);
  if (!product) throw serviceError('invoicingProductNotFound', `No product has the id '${id}'`);
  return product;
}

export function requireTax(data: InvoicingDataset, id: string): InvoicingTax {
  const tax = own(data.taxes, id);
  if (!tax) throw serviceError('invoicingTaxNotFound', `No tax has the id '${id}'`);
  return tax;
}

/** An invoice by id: a malformed id is refused (400) before a missing one (404). */
export function requireInvoice(data: InvoicingDataset, id: string): InvoicingInvoice {
  if (!isUuid(id)) throw serviceError('invoicingInvoiceIdFormat', `'${id}' is not an invoice id (a uuid)`);
  const invoice = own(data.invoices, id.toLowerCase());
  if (!invoice) throw serviceError('invoicingInvoiceNotFound', `No invoice has the id '${id}'`);
  return invoice;
}

export function requireOpportunity(data: InvoicingDataset, id: string): InvoicingOpportunity {
  const opportunity = own(data.opportunities, id);
  if (!opportunity) throw serviceError('invoicingOpportunityNotFound', `No opportunity has the id '${id}'`);
  return opportunity;
}

export interface InvoiceFilters {
  date_from?: string | undefined;
  date_to?: string | undefined;
  invoice_type?: InvoicingInvoiceTypeValue | 'all' | undefined;
  payment_status?: 'all' | 'paid' | 'unpaid' | undefined;
  updated_after?: string | undefined;
}

const newestInvoiceFirst = (a: InvoicingInvoice, b: InvoicingInvoice) =>
  b.invoice_date.localeCompare(a.invoice_date) ||
  b.invoice_number.localeCompare(a.invoice_number) ||
  a.id.localeCompare(b.id);

/** Invoices matching every filter given, newest first. */
export function listInvoices(
  data: InvoicingDataset,
  filters: InvoiceFilters,
  index: PaymentsByInvoice = paymentsByInvoice(data),
): InvoicingInvoice[] {
  const after = filters.updated_after ? instantOf(filters.updated_after) : null;
  return Object.values(data.invoices)
    .filter((invoice) => {
      if (filters.date_from && invoice.invoice_date < filters.date_from) return false;
      if (filters.date_to && invoice.invoice_date > filters.date_to) return false;
      if (
        filters.invoice_type &&
        filters.invoice_type !== 'all' &&
        invoice.invoice_type !== filters.invoice_type
      )
        return false;
      if (after !== null && Date.parse(invoice.last_updated_on) <= after) return false;
      const status = statusOf(data, invoice, index);
      if (filters.payment_status === 'paid' && status !== 'paid') return false;
      if (filters.payment_status === 'unpaid' && status !== 'draft' && status !== 'posted') return false;
      return true;
    })
    .sort(newestInvoiceFirst);
}

/** Payments made between two days (both included), newest first. */
export function listPayments(
  data: InvoicingDataset,
  filters: { date_from?: string | undefined; date_to?: string | undefined },
): InvoicingPayment[] {
  return Object.values(data.payments)
    .filter((p) => {
      const day = p.payment_date.slice(0, 10);
      return (!filters.date_from || day >= filters.date_from) && (!filters.date_to || day <= filters.date_to);
    })
    .sort((a, b) => b.payment_date.localeCompare(a.payment_date) || a.id.localeCompare(b.id));
}

/** Statement lines of one bank account, newest first (an unknown account has none). */
export function listBankTransactions(
  data: InvoicingDataset,
  filters: {
    bank_account_id: string;
    date_from?: string | undefined;
    date_to?: string | undefined;
    status?: 'draft' | 'done' | undefined;
  },
): InvoicingBankTransaction[] {
  return Object.values(data.bank_transactions)
    .filter(
      (t) =>
        t.bank_account_id === filters.bank_account_id &&
        (!filters.status || t.status === filters.status) &&
        (!filters.date_from || t.date >= filters.date_from) &&
        (!filters.date_to || t.date <= filters.date_to),
    )
    .sort((a, b) => b.date.localeCompare(a.date) || a.id.localeCompare(b.id));
}

export function listOpportunities(data: InvoicingDataset): InvoicingOpportunity[] {
  return Object.values(data.opportunities).sort(
    (a, b) => (b.created_date ?? '').localeCompare(a.created_date ?? '') || a.id.localeCompare(b.id),
  );
}

// ---- writes ---------------------------------------------------------------------------------------

/**
 * Text the software stores trimmed: only whitespace counts as empty. The writes below refuse what the
 * software refuses (a record without the name it requires, an id that names no record, an address
 * country that is not an ISO 3166-1 code as documented) and take the rest as given: the reference
 * states no format for e-mail addresses, VAT numbers or currencies, and the software takes any
 * amount, a line whose amounts do not add up (it keeps them as sent), an archived tax, a partner
 * of either role.
 */
const blank = (value: string | null | undefined) =>
  value === null || value === undefined || value.trim() === '';

/**
 * Amounts are added up in cents: one so large that its cents overflow a double (beyond about
 * 1.8e306) cannot be computed with, and is refused. No other bound is set.
 */
function checkComputable(values: Record<string, number | null | undefined>): void {
  for (const [where, value] of Object.entries(values)) {
    if (value !== null && value !== undefined && !Number.isFinite(value * 100)) {
      throw fail(`${where} ${value} is too large to compute with`);
    }
  }
}

/** A new contact: a name (a company name, or a first or last name) and address countries. */
/** Where a dataset keeps its number of contacts, once a client created one. */
const CONTACTS_COUNTED = 'contacts';

/**
 * The number of contacts once one more is added: counted once, then kept with the dataset's
 * counters (contacts are never removed, and every contact after the seed's is made by
 * createContact), so that a write does not count thousands of contacts again.
 */
function nextContactCount(data: InvoicingDataset): number {
  const next = (own(data.counters, CONTACTS_COUNTED) ?? Object.keys(rawOf(data.contacts)).length) + 1;
  data.counters[CONTACTS_COUNTED] = next;
  return next;
}

export function createContact(
  data: InvoicingDataset,
  input: ContactInInput,
  ctx: WriteContext,
): InvoicingContact {
  const personName = !blank(input.first_name) || !blank(input.last_name);
  if (blank(input.company_name) && !personName) {
    throw fail('A contact needs a company_name, or a first_name or last_name');
  }
  (input.addresses ?? []).forEach((address, index) => {
    if (!isCountryCode(address.country)) {
      throw fail(
        `addresses[${index}].country '${address.country}' is not an ISO 3166-1 alpha-2 country code`,
      );
    }
  });
  const noRole = !input.is_prospect && !input.is_customer && !input.is_supplier;
  const isCustomer = noRole || input.is_customer === true;
  const isSupplier = input.is_supplier === true;
  const sequence = nextContactCount(data);
  const id = ctx.mint('invoicing-contact');
  const contact: InvoicingContact = {
    id,
    source_ref: { id: nextSourceId(data, 'C'), model: 'contact' },
    is_prospect: input.is_prospect === true,
    is_customer: isCustomer,
    is_supplier: isSupplier,
    is_company: input.is_company ?? !blank(input.company_name),
    company_name: input.company_name ?? null,
    first_name: input.first_name ?? null,
    last_name: input.last_name ?? null,
    email: input.email ?? null,
    phone: input.phone ?? null,
    mobile: input.mobile ?? null,
    company_id: input.company_id ?? null,
    vat: input.vat ?? null,
    company_number: input.company_number ?? null,
    currency: input.currency ?? null,
    language: input.language ?? null,
    comment: input.comment ?? null,
    customer_account_number:
      input.customer_account_number ?? (isCustomer ? `400${String(sequence).padStart(3, '0')}` : null),
    supplier_account_number:
      input.supplier_account_number ?? (isSupplier ? `440${String(sequence).padStart(3, '0')}` : null),
    birthdate: input.birthdate ?? null,
    gender: input.gender ?? null,
    addresses: (input.addresses ?? []).map((a) => ({
      address_type: a.address_type,
      name: a.name ?? null,
      number: a.number ?? null,
      box: a.box ?? null,
      phone: a.phone ?? null,
      mobile: a.mobile ?? null,
      email: a.email ?? null,
      street: a.street,
      city: a.city,
      postal_code: a.postal_code,
      country: a.country.toUpperCase(),
    })),
    external_reference: null,
    created_on: ctx.now,
  };
  data.contacts[id] = contact;
  return contact;
}

/** A tax of the software (an archived one too). */
function usableTax(data: InvoicingDataset, id: string, where: string): InvoicingTax {
  const tax = own(data.taxes, id);
  if (!tax) throw fail(`${where} '${id}' is not a tax of the software (GET .../invoicing/taxes lists them)`);
  return tax;
}

/** A new product: a name and, when given, a tax of the software. */
export function createProduct(
  data: InvoicingDataset,
  input: ProductInInput,
  ctx: WriteContext,
): InvoicingProduct {
  if (blank(input.name)) throw fail('name must not be empty');
  if (input.tax_id !== null && input.tax_id !== undefined) usableTax(data, input.tax_id, 'tax_id');
  const id = ctx.mint('invoicing-product');
  const product: InvoicingProduct = {
    id,
    source_ref: { id: nextSourceId(data, 'P'), model: 'product' },
    name: input.name,
    unit_price: input.unit_price ?? null,
    tax_id: input.tax_id ?? null,
    code: input.code ?? null,
    unit: input.unit ?? null,
    category: input.category ?? null,
    currency: input.currency ?? 'EUR',
    description: input.description ?? null,
    cost: input.cost ?? 0,
    initial_stock: 0,
    created_on: ctx.now,
  };
  data.products[id] = product;
  return product;
}

/**
 * One input line: its product and tax, when given, must be records of the software; its amounts
 * are kept as sent (a tax named by id gives the line its rate). Returns the stored line.
 */
function checkLine(
  data: InvoicingDataset,
  line: NonNullable<InvoiceInInput['lines']>[number],
  index: number,
): InvoicingInvoiceLine {
  const where = `lines[${index}]`;
  checkComputable({
    [`${where}.unit_price`]: line.unit_price,
    [`${where}.quantity`]: line.quantity,
    [`${where}.discount_amount`]: line.discount_amount,
    [`${where}.untaxed_amount`]: line.untaxed_amount,
    [`${where}.tax_amount`]: line.tax_amount,
    [`${where}.total`]: line.total,
  });
  const product = line.product_id ? own(data.products, line.product_id) : undefined;
  if (line.product_id && !product) {
    throw fail(`${where}.product_id '${line.product_id}' is not a product of the software`);
  }
  const tax = line.tax_id ? usableTax(data, line.tax_id, `${where}.tax_id`) : undefined;
  const discount = line.discount_amount ?? 0;
  const rate = tax?.rate ?? line.tax_rate ?? null;
  return {
    description: line.description ?? product?.name ?? null,
    unit_price: line.unit_price,
    quantity: line.quantity,
    discount_amount: discount,
    tax_amount: line.tax_amount,
    untaxed_amount: line.untaxed_amount,
    total: line.total,
    tax_rate: rate,
    account_number: line.account_number ?? null,
    tax_id: tax?.id ?? null,
    tax_exemption_reason: line.tax_exemption_reason ?? null,
    unit_of_measure: line.unit_of_measure ?? product?.unit ?? null,
    product_id: product?.id ?? null,
    product_code: line.product_code ?? product?.code ?? null,
    product_name: line.product_name ?? product?.name ?? null,
    analytic_distribution: [],
  };
}

/**
 * A new invoice or credit note, created in the status asked for: draft, posted, cancelled, or paid
 * (posted, with a completed payment of its total on its date). Its partner, products and taxes must
 * be records of the software (a partner of the other role takes on this one, as the software marks
 * it); its amounts are kept as sent. Like the software, it refuses to post an invoice whose total is
 * negative (a credit note is a customer_refund or supplier_refund) and an invoice number already
 * used. Posting moves the stock of the products on its lines.
 */
export function createInvoice(
  data: InvoicingDataset,
  input: InvoiceInInput,
  ctx: WriteContext,
): InvoicingInvoice {
  checkComputable({ untaxed_amount: input.untaxed_amount, tax_amount: input.tax_amount, total: input.total });
  const sale = input.invoice_type.startsWith('customer');
  const named = input.partner_id !== null && input.partner_id !== undefined;
  const partner =
    named && Object.hasOwn(data.contacts, input.partner_id as string)
      ? own(data.contacts, input.partner_id as string)
      : undefined;
  if (named && !partner) {
    throw fail(`partner_id '${input.partner_id}' is not a contact of the software`);
  }
  const lines = (input.lines ?? []).map((line, index) => checkLine(data, line, index));
  const posting = input.status === 'posted' || input.status === 'paid';
  if (posting && input.total < 0)
    throw fail('A posted total must not be negative: a credit note is a customer_refund or supplier_refund');
  let number = input.invoice_number ?? null;
  if (!blank(number)) {
    const taken = Object.values(data.invoices).some(
      (i) =>
        i.invoice_number === number &&
        i.invoice_type.startsWith(sale ? 'customer' : 'supplier') &&
        (sale || i.partner_id === (input.partner_id ?? null)),
    );
    if (taken) throw fail(`The invoice number '${number}' is already used`);
  } else {
    number = nextInvoiceNumber(data, input.invoice_type, input.invoice_date);
  }
  if (partner && sale) partner.is_customer = true;
  if (partner && !sale) partner.is_supplier = true;
  const id = ctx.mint('invoicing-invoice');
  const invoice: InvoicingInvoice = {
    id,
    source_ref: { id: nextSourceId(data, 'I'), model: 'invoice' },
    invoice_type: input.invoice_type,
    status: input.status === 'paid' ? 'posted' : input.status,
    currency: input.currency,
    currency_exchange_rate: own(EXCHANGE_RATES, input.currency) ?? 1,
    invoice_date: input.invoice_date,
    due_date: input.due_date ?? null,
    accounting_date: input.invoice_date,
    untaxed_amount: input.untaxed_amount,
    tax_amount: input.tax_amount,
    total: input.total,
    lines,
    partner_id: input.partner_id ?? null,
    invoice_number: number as string,
    reference: input.reference ?? null,
    payment_communication: input.payment_communication ?? null,
    customer_memo: input.customer_memo ?? null,
    journal_ref: input.journal_ref
      ? {
          id: input.journal_ref.id ?? null,
          model: input.journal_ref.model ?? null,
          name: input.journal_ref.name ?? null,
        }
      : null,
    italian_specificities: input.italian_specificities
      ? (cloneRecord(input.italian_specificities) as Record<string, unknown>)
      : null,
    payment_method_id: null,
    created_on: ctx.now,
    last_updated_on: ctx.now,
  };
  data.invoices[id] = invoice;
  if (input.status === 'paid' && cents(input.total) > 0) {
    const paymentId = ctx.mint('invoicing-payment');
    data.payments[paymentId] = {
      id: paymentId,
      source_ref: { id: nextSourceId(data, 'PAY'), model: 'payment' },
      status: 'completed',
      description: `Payment of ${invoice.invoice_number}`,
      amount: round2(input.total),
      currency: input.currency,
      payment_date: `${input.invoice_date}T00:00:00.000Z`,
      payment_method_id: null,
      invoice_id: id,
      created_on: ctx.now,
      last_updated_on: ctx.now,
    };
  }
  return invoice;
}

function usableMethod(data: InvoicingDataset, id: string | null | undefined): string | null {
  if (id === null || id === undefined) return null;
  if (!own(data.payment_methods, id)) {
    throw fail(`payment_method_id '${id}' is not a payment method of the software`);
  }
  return id;
}

/**
 * A payment of a posted invoice (the software registers payments on posted invoices only), of an
 * amount that is not negative. It lowers the open amount; the invoice is paid once nothing is left.
 * The software takes the rest as given: another currency, a date before the invoice's, more than
 * the open amount (the invoice is then overpaid: its open amount goes below zero).
 */
export function createPayment(
  data: InvoicingDataset,
  input: PaymentInInput,
  ctx: WriteContext,
): InvoicingPayment {
  // Ids are uuids, in any case: the same invoice GET .../invoices/{invoice_id} finds.
  const invoice = own(data.invoices, input.invoice_id.toLowerCase());
  if (!invoice) throw fail(`invoice_id '${input.invoice_id}' is not an invoice of the software`);
  if (invoice.status !== 'posted') {
    throw fail(
      `The invoice ${invoice.invoice_number} is ${invoice.status}: only a posted invoice can be paid`,
    );
  }
  if (input.amount < 0) throw fail('amount must not be negative');
  checkComputable({ amount: input.amount });
  const methodId = usableMethod(data, input.payment_method_id);
  const id = ctx.mint('invoicing-payment');
  const payment: InvoicingPayment = {
    id,
    source_ref: { id: nextSourceId(data, 'PAY'), model: 'payment' },
    status: 'completed',
    description: blank(input.description)
      ? `Payment of ${invoice.invoice_number}`
      : (input.description as string),
    amount: round2(input.amount),
    currency: input.currency,
    payment_date: `${input.date}T00:00:00.000Z`,
    payment_method_id: methodId,
    invoice_id: invoice.id,
    created_on: ctx.now,
    last_updated_on: ctx.now,
  };
  data.payments[id] = payment;
  invoice.last_updated_on = ctx.now;
  return payment;
}

/**
 * Changes a payment's amount (not negative), date, method or description (null or absent:
 * unchanged), with the freedom of createPayment.
 */
export function updatePayment(
  data: InvoicingDataset,
  paymentId: string,
  input: PaymentUpdateInput,
  ctx: WriteContext,
): InvoicingPayment {
  const payment = own(data.payments, paymentId);
  if (!payment)
    throw fail(`The payment '${paymentId}' does not exist (GET .../invoicing/payments lists them)`);
  const invoice = own(data.invoices, payment.invoice_id);
  if (!invoice) throw fail(`The invoice of the payment '${paymentId}' no longer exists`);
  if (input.amount !== null && input.amount !== undefined && input.amount < 0) {
    throw fail('amount must not be negative');
  }
  checkComputable({ amount: input.amount });
  const methodId =
    input.payment_method_id === null || input.payment_method_id === undefined
      ? payment.payment_method_id
      : usableMethod(data, input.payment_method_id);
  if (input.amount !== null && input.amount !== undefined) payment.amount = round2(input.amount);
  if (input.date) payment.payment_date = `${input.date}T00:00:00.000Z`;
  if (!blank(input.description)) payment.description = input.description as string;
  payment.payment_method_id = methodId;
  payment.last_updated_on = ctx.now;
  invoice.last_updated_on = ctx.now;
  return payment;
}

/** The bytes of a base64 PDF, or why it is not one. */
export function decodePdf(base64: string): Buffer {
  const compact = base64.replace(/\s+/g, '');
  if (!compact.length || compact.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) {
    throw serviceError('invalidBase64', 'base64_string is not base64 text');
  }
  const bytes = Buffer.from(compact, 'base64');
  if (!bytes.subarray(0, 5).equals(Buffer.from('%PDF-'))) {
    throw serviceError('invalidBase64', 'The decoded bytes do not start with %PDF-');
  }
  return bytes;
}

const DOCUMENT_INVOICE_TYPE: Record<InvoicingDocument['document_type'], UploadDocumentOut['invoice_type']> = {
  customer_document: 'customer_invoice',
  supplier_document: 'supplier_invoice',
  employee_expense: null,
};

/**
 * A PDF handed to the software: kept (by digest and size) as a document waiting to be read, so the
 * answer only knows its id, the kind of invoice it will become, and that it is a draft.
 */
export function uploadDocument(
  data: InvoicingDataset,
  input: { base64_string: string; document_type: InvoicingDocument['document_type'] },
  ctx: WriteContext,
): UploadDocumentOut {
  const bytes = decodePdf(input.base64_string);
  const id = ctx.mint('invoicing-document');
  data.documents[id] = {
    id,
    document_type: input.document_type,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    bytes: bytes.length,
    created_on: ctx.now,
  };
  return {
    id,
    source_ref: { id: nextSourceId(data, 'D'), model: 'document' },
    currency: null,
    invoice_type: DOCUMENT_INVOICE_TYPE[input.document_type],
    status: 'draft',
    invoice_date: null,
    tax_amount: null,
    untaxed_amount: null,
    total: null,
    lines: [],
    partner_id: null,
    invoice_number: null,
    due_date: null,
    reference: null,
    payment_communication: null,
    customer_memo: null,
    journal_ref: null,
    italian_specificities: null,
    last_updated_on: ctx.now,
    outstanding_amount: null,
    last_payment_date: null,
    accounting_date: null,
    payment_method_id: null,
    currency_exchange_rate: null,
  };
}

/**
 * Deletes a payment (a route the official clients call): an unknown id is the software's refusal;
 * the invoice it paid is marked changed, so that an incremental read finds it.
 */
export function deletePaymentRecord(data: InvoicingDataset, paymentId: string, ctx: WriteContext): void {
  const payment = own(data.payments, paymentId);
  if (!payment) {
    throw fail(`The payment '${paymentId}' does not exist (GET .../invoicing/payments lists them)`);
  }
  const invoice = own(data.invoices, payment.invoice_id);
  delete data.payments[paymentId];
  if (invoice) invoice.last_updated_on = ctx.now;
}
