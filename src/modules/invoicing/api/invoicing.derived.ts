import { round2 } from '../../../platform/seeding/finance-fakes.js';
import type {
  InvoicingBankAccount,
  InvoicingDataset,
  InvoicingInvoice,
  InvoicingInvoiceTypeValue,
  InvoicingPayment,
  InvoicingProduct,
} from '../model/invoicing.records.js';
import type { InvoiceOut } from './invoicing.schemas.js';

/**
 * What the Invoicing vertical computes from its records every time: an invoice's open amount, paid
 * status and last payment, a product's stock, a bank account's balance (see invoicing.domain).
 */

/** Cents of an amount, so that sums of amounts add up exactly. */
export const cents = (amount: number) => Math.round(amount * 100);

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

export function lastPaymentDate(
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
