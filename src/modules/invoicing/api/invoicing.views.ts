import { own } from '../../../lib/own.js';
import { tinyPdf } from '../../../lib/pdf.js';
import { cloneRecord } from '../../../store/unit-of-work.js';
import type {
  InvoicingBankAccount,
  InvoicingBankTransaction,
  InvoicingContact,
  InvoicingDataset,
  InvoicingInvoice,
  InvoicingInvoiceLine,
  InvoicingOpportunity,
  InvoicingPayment,
  InvoicingPaymentMethod,
  InvoicingProduct,
  InvoicingTax,
} from '../model/invoicing.records.js';
import {
  balanceOf,
  lastPaymentDate,
  outstandingOf,
  type PaymentsByInvoice,
  statusOf,
  stockOf,
} from './invoicing.derived.js';
import type { ContactOut, InvoiceOut, InvoiceOutSingle, ProductOut } from './invoicing.schemas.js';

/**
 * The Invoicing vertical's records as the wire shows them (see invoicing.domain).
 */

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
