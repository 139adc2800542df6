import { instantOf } from '../../../lib/clock.js';
import { serviceError } from '../../../lib/errors.js';
import { isUuid } from '../../../lib/ids.js';
import { own } from '../../../lib/own.js';
import type {
  InvoicingBankTransaction,
  InvoicingContact,
  InvoicingDataset,
  InvoicingInvoice,
  InvoicingInvoiceTypeValue,
  InvoicingOpportunity,
  InvoicingPayment,
  InvoicingProduct,
  InvoicingTax,
} from '../model/invoicing.records.js';
import { type PaymentsByInvoice, paymentsByInvoice, statusOf } from './invoicing.derived.js';

/**
 * The Invoicing vertical's lookups and lists over one connection's dataset (see invoicing.domain).
 */

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
