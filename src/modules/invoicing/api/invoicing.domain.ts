import { createHash } from 'node:crypto';
import { isCountryCode } from '../../../lib/country-codes.js';
import { serviceError } from '../../../lib/errors.js';
import { own } from '../../../lib/own.js';
import { connectionDataset } from '../../../platform/datasets.js';
import type { WriteContext } from '../../../platform/request-context.js';
import { round2 } from '../../../platform/seeding/finance-fakes.js';
import { verticalFailure } from '../../../platform/vertical-connection.js';
import type { WorldStore } from '../../../store/store.js';
import { cloneRecord, rawOf } from '../../../store/unit-of-work.js';
import type {
  InvoicingContact,
  InvoicingDataset,
  InvoicingDocument,
  InvoicingInvoice,
  InvoicingInvoiceLine,
  InvoicingPayment,
  InvoicingProduct,
  InvoicingTax,
} from '../model/invoicing.records.js';
import { nextInvoiceNumber, nextSourceId } from '../world/invoicing.seed.js';
import type {
  ContactInInput,
  InvoiceInInput,
  PaymentInInput,
  PaymentUpdateInput,
  ProductInInput,
  UploadDocumentOut,
} from './invoicing.schemas.js';

/**
 * The Invoicing vertical's rules, as pure functions over one connection's dataset. Derived values (an
 * invoice's open amount, paid status and last payment, a product's stock, a bank account's balance)
 * are computed from the records every time; writes check everything before they change anything.
 */

export type { WriteContext } from '../../../platform/request-context.js';

import { cents } from './invoicing.derived.js';

export * from './invoicing.derived.js';
export * from './invoicing.reads.js';
export * from './invoicing.views.js';

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

/** Units of EUR for one unit of a currency, as the seeded software knows them. */
const EXCHANGE_RATES: Record<string, number> = { EUR: 1, USD: 0.92, GBP: 1.17, CHF: 1.06 };

/** Reads a date-time filter: an instant without an offset is UTC. */

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
