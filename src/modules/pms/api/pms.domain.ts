import { type CustomerFilters, customerFilter } from '../../../lib/customer-filters.js';
import { serviceError } from '../../../lib/errors.js';
import { own } from '../../../lib/own.js';
import { connectionDataset, type DatasetUse, prepareConnectionDataset } from '../../../platform/datasets.js';
import { mergeTaxTotals, round2, sum2 } from '../../../platform/seeding/vertical-data.js';
import type { WorldStore } from '../../../store/store.js';
import type { ConnectionRecord } from '../../../store/world.js';
import type {
  PmsCustomer,
  PmsDataset,
  PmsInvoice,
  PmsOrder,
  PmsOrderLine,
  PmsPayment,
} from '../model/pms.records.js';
import { pmsProfileOf } from '../world/pms.countries.js';
import type {
  PMSAccountingTransactionOut,
  PMSClosureOut,
  PMSCustomerOut,
  PMSInvoiceOut,
  PMSOrderOut,
  PMSPaymentOut,
} from './pms.schemas.js';

/**
 * Rules of the Property Management System vertical over a connection's dataset. A stay (order) is
 * invoiced at check-out: the invoice bills the stay's lines and its payments add up to its total.
 * Closures, payments lists and accounting transactions are computed from the invoices (and the
 * running stays), never stored. Days are UTC days.
 */

export function pmsDatasetOf(
  store: WorldStore,
  connection: ConnectionRecord,
  how: DatasetUse = 'open',
): PmsDataset {
  return connectionDataset<PmsDataset>(store, 'pms_datasets', connection, how);
}

/** The PMS dataset of a connection built in slices before a read in passing reads it (a cube). */
export function preparePmsDataset(
  store: WorldStore,
  connection: ConnectionRecord,
): Promise<void> | undefined {
  return prepareConnectionDataset(store, 'pms_datasets', connection);
}

const dayOf = (instant: string | null) => (instant ? instant.slice(0, 10) : null);
const inPeriod = (day: string | null, from: string, to: string) => day !== null && day >= from && day <= to;

/*
 * Filters refuse nothing: a location_id that names no hotel of the connection, or a period whose
 * date_to comes before its date_from, matches nothing, and the answer is an empty list, as the
 * service answers.
 */

const customerRef = (dataset: PmsDataset, customerId: string | null) => {
  const customer = customerId ? own(dataset.customers, customerId) : undefined;
  return customer ? { id: customer.id, source_ref: customer.source_ref } : null;
};

function partnerOf(dataset: PmsDataset, customerId: string) {
  const customer = own(dataset.customers, customerId);
  if (!customer) return [];
  return [
    {
      id: customer.id,
      source_ref: customer.source_ref,
      type: 'account' as const,
      address: customer.addresses[0] ?? null,
      first_name: customer.first_name,
      last_name: customer.last_name,
      company_name: customer.company_name,
    },
  ];
}

export function toPaymentItem(dataset: PmsDataset, payment: PmsPayment): PMSPaymentOut {
  const { customer_id, ...wire } = payment;
  return { ...wire, partner_id: customerRef(dataset, customer_id) };
}

export function toOrderItem(dataset: PmsDataset, order: PmsOrder): PMSOrderOut {
  const { invoice_ids, ...wire } = order;
  return {
    ...wire,
    bills: invoice_ids.flatMap((id) => {
      const invoice = own(dataset.invoices, id);
      return invoice
        ? [
            {
              id: invoice.id,
              source_ref: invoice.source_ref,
              invoice_number: invoice.invoice_number,
              creation_date: invoice.creation_date,
              closing_date: invoice.closing_date,
              partners: partnerOf(dataset, invoice.customer_id),
            },
          ]
        : [];
    }),
  };
}

export function toInvoiceItem(dataset: PmsDataset, invoice: PmsInvoice): PMSInvoiceOut {
  const order = own(dataset.orders, invoice.order_id);
  return {
    id: invoice.id,
    source_ref: invoice.source_ref,
    invoice_number: invoice.invoice_number,
    creation_date: invoice.creation_date,
    closing_date: invoice.closing_date,
    partners: partnerOf(dataset, invoice.customer_id),
    items: order?.items ?? [],
    payments: invoice.payments.map((p) => toPaymentItem(dataset, p)),
    service_id: invoice.service_id,
    reservation: order?.reservation ?? null,
    tax_amount: invoice.tax_amount,
    untaxed_amount: invoice.untaxed_amount,
    total: invoice.total,
  };
}

export const toCustomerItem = (customer: PmsCustomer): PMSCustomerOut => customer;

/**
 * Stays of a period: consumed (the default) lists the stays checked in during it, closed the stays
 * checked out (invoiced) during it. Oldest check-in first.
 */
export function listOrders(
  dataset: PmsDataset,
  filters: {
    date_from: string;
    date_to: string;
    location_id?: string | undefined;
    state?: 'consumed' | 'closed' | undefined;
  },
): PmsOrder[] {
  const state = filters.state ?? 'consumed';
  return Object.values(dataset.orders)
    .filter((order) => {
      if (filters.location_id !== undefined && order.location_id !== filters.location_id) return false;
      const day = state === 'closed' ? dayOf(order.closing_date) : dayOf(order.service_date);
      return inPeriod(day, filters.date_from, filters.date_to);
    })
    .sort((a, b) => String(a.service_date).localeCompare(String(b.service_date)) || a.id.localeCompare(b.id));
}

/** Invoices dated in a period, oldest first. */
export function listInvoices(
  dataset: PmsDataset,
  filters: { date_from: string; date_to: string; location_id?: string | undefined },
): PmsInvoice[] {
  return Object.values(dataset.invoices)
    .filter(
      (invoice) =>
        (filters.location_id === undefined || invoice.location_id === filters.location_id) &&
        inPeriod(dayOf(invoice.creation_date), filters.date_from, filters.date_to),
    )
    .sort((a, b) => a.creation_date.localeCompare(b.creation_date) || a.id.localeCompare(b.id));
}

/** Payments made in a period, oldest first. */
export function listPayments(dataset: PmsDataset, from: string, to: string): PmsPayment[] {
  return Object.values(dataset.invoices)
    .flatMap((invoice) => invoice.payments)
    .filter((payment) => inPeriod(dayOf(payment.date), from, to))
    .sort((a, b) => String(a.date).localeCompare(String(b.date)) || a.id.localeCompare(b.id));
}

const displayName = (c: PmsCustomer) =>
  c.company_name ?? [c.first_name, c.last_name].filter(Boolean).join(' ');

export function listCustomers(dataset: PmsDataset, filters: CustomerFilters): PmsCustomer[] {
  const passes = customerFilter(filters);
  return Object.values(dataset.customers)
    .filter((customer) =>
      passes({ name: displayName(customer), email: customer.email, phone: customer.phone }),
    )
    .sort((a, b) => displayName(a).localeCompare(displayName(b)) || a.id.localeCompare(b.id));
}

export function requireCustomer(dataset: PmsDataset, customerId: string): PmsCustomer {
  const customer = own(dataset.customers, customerId);
  if (!customer) throw serviceError('posCustomerNotFound', `No customer has the id '${customerId}'`);
  return customer;
}

export const atLocation = <T extends { location_ids: string[] }>(
  items: readonly T[],
  locationId?: string,
): T[] => items.filter((item) => locationId === undefined || item.location_ids.includes(locationId));

/**
 * The closure of a day: closed once the day is over, with one closure per hotel summing the
 * invoices of that day (their payments per method, their taxes per rate); a day not over is open.
 */
export function closureOf(
  dataset: PmsDataset,
  day: string,
  today: string,
  locationId?: string,
): PMSClosureOut {
  if (day >= today) return { date: day, status: 'open', closures: [] };
  return {
    date: day,
    status: 'closed',
    closures: dataset.locations
      .filter((l) => locationId === undefined || l.id === locationId)
      .map((location) => {
        const invoices = listInvoices(dataset, { date_from: day, date_to: day, location_id: location.id });
        const payments = invoices.flatMap((i) => i.payments);
        const methods = [...new Set(payments.map((p) => p.payment_method_id))];
        return {
          id: `${location.id}:${day}`,
          total: sum2(invoices.map((i) => i.total)),
          tax_amount: sum2(invoices.map((i) => i.tax_amount)),
          payments: methods.map((method) => {
            const mine = payments.filter((p) => p.payment_method_id === method);
            return {
              payment_method_id: method,
              payment_method_name: mine[0]?.payment_method_name ?? null,
              tip: sum2(mine.map((p) => p.tip)),
              total: sum2(mine.map((p) => p.total)),
            };
          }),
          taxes: mergeTaxTotals(invoices.flatMap((i) => own(dataset.orders, i.order_id)?.taxes ?? [])),
        };
      }),
  };
}

const TRANSACTION_TYPES: Record<string, PMSAccountingTransactionOut['transaction_type']> = {
  ROOM: 'room',
  BRK: 'addon',
  FNB: 'addon',
  PARK: 'fee',
  CITY: 'tax',
};

/**
 * The accounting transactions of a period. Each invoice gives one revenue line per (accounting
 * category, rate) with its untaxed amount, one tax line per rate, and one line per payment, negative:
 * the lines of an invoice (its group) add up to zero. Stays still running give draft revenue and tax
 * lines, grouped by stay, dated at check-in.
 */
export function accountingTransactions(
  dataset: PmsDataset,
  filters: { date_from: string; date_to: string; location_id?: string | undefined },
): PMSAccountingTransactionOut[] {
  const out: PMSAccountingTransactionOut[] = [];
  for (const invoice of listInvoices(dataset, filters)) {
    const order = own(dataset.orders, invoice.order_id);
    if (!order) continue;
    const partner = customerRef(dataset, invoice.customer_id);
    const origin = { id: invoice.id, type: 'invoice' as const };
    out.push(
      ...documentLines(dataset, order.items, {
        group: invoice.id,
        date: invoice.creation_date,
        status: 'posted',
        origin,
        partner,
        reference: invoice.invoice_number,
        location: invoice.location_id,
      }),
    );
    for (const payment of invoice.payments) {
      const method = dataset.payment_methods.find((m) => m.id === payment.payment_method_id);
      out.push({
        id: `${payment.id}:payment`,
        source_ref: payment.source_ref,
        group_id: invoice.id,
        date: payment.date ?? invoice.creation_date,
        amount: round2(-payment.total),
        is_tax_line: false,
        sub_group_id: payment.id,
        tax_code: null,
        description: payment.description,
        currency_exchange_rate: 1,
        currency: payment.currency ?? 'EUR',
        transaction_type: 'payment',
        accounting_category_id: null,
        ledger_account_code: method?.ledger_account_code ?? null,
        status: 'posted',
        origin: { id: payment.id, type: 'payment' },
        partner_id: partner,
        reference: invoice.invoice_number,
        location_id: invoice.location_id,
      });
    }
  }
  for (const order of Object.values(dataset.orders)) {
    if (order.closing_date !== null) continue;
    if (filters.location_id !== undefined && order.location_id !== filters.location_id) continue;
    if (!inPeriod(dayOf(order.service_date), filters.date_from, filters.date_to)) continue;
    out.push(
      ...documentLines(dataset, order.items, {
        group: order.id,
        date: order.service_date ?? order.creation_date,
        status: 'draft',
        origin: { id: order.id, type: 'order' },
        partner: customerRef(dataset, order.customer_id),
        reference: order.order_number,
        location: order.location_id,
      }),
    );
  }
  return out.sort(
    (a, b) =>
      a.date.localeCompare(b.date) || a.group_id.localeCompare(b.group_id) || a.id.localeCompare(b.id),
  );
}

interface DocumentContext {
  group: string;
  date: string;
  status: 'draft' | 'posted';
  origin: { id: string; type: 'invoice' | 'order' };
  partner: { id: string; source_ref: { id: string | null; model: string | null } } | null;
  reference: string | null;
  location: string;
}

/** Revenue lines per (accounting category, tax) and tax lines per tax of a document's lines. */
function documentLines(
  dataset: PmsDataset,
  items: readonly PmsOrderLine[],
  doc: DocumentContext,
): PMSAccountingTransactionOut[] {
  const revenue = new Map<string, PmsOrderLine[]>();
  for (const item of items) {
    const key = `${item.accounting_category_id}:${item.tax_id}`;
    revenue.set(key, [...(revenue.get(key) ?? []), item]);
  }
  const line = (
    fields: Pick<
      PMSAccountingTransactionOut,
      | 'id'
      | 'source_ref'
      | 'amount'
      | 'is_tax_line'
      | 'sub_group_id'
      | 'tax_code'
      | 'description'
      | 'transaction_type'
      | 'accounting_category_id'
      | 'ledger_account_code'
    >,
  ): PMSAccountingTransactionOut => ({
    id: fields.id,
    source_ref: fields.source_ref,
    group_id: doc.group,
    date: doc.date,
    amount: fields.amount,
    is_tax_line: fields.is_tax_line,
    sub_group_id: fields.sub_group_id,
    tax_code: fields.tax_code,
    description: fields.description,
    currency_exchange_rate: 1,
    currency: 'EUR',
    transaction_type: fields.transaction_type,
    accounting_category_id: fields.accounting_category_id,
    ledger_account_code: fields.ledger_account_code,
    status: doc.status,
    origin: doc.origin,
    partner_id: doc.partner,
    reference: doc.reference,
    location_id: doc.location,
  });
  // The words and the VAT account of the hotels' country.
  const { words, vatAccount } = pmsProfileOf(dataset.integrationid);
  const lines: PMSAccountingTransactionOut[] = [];
  for (const [key, group] of revenue) {
    const category = dataset.accounting_categories.find((c) => c.id === group[0]?.accounting_category_id);
    const tax = dataset.tax_rates.find((t) => t.id === group[0]?.tax_id);
    lines.push(
      line({
        id: `${doc.group}:${key}`,
        source_ref: { id: `${doc.reference}/${category?.code ?? 'OTHER'}`, model: 'revenue' },
        amount: sum2(group.map((l) => round2(l.total - l.tax_amount))),
        is_tax_line: false,
        sub_group_id: category?.id ?? null,
        tax_code: tax?.label ?? null,
        description: category ? `${category.name} (${words.lines(group.length)})` : '',
        transaction_type: TRANSACTION_TYPES[category?.code ?? ''] ?? 'other',
        accounting_category_id: category?.id ?? null,
        ledger_account_code: category?.ledger_account_code ?? null,
      }),
    );
  }
  const byTax = new Map<string, PmsOrderLine[]>();
  for (const item of items) {
    if (!item.tax_amount) continue;
    byTax.set(String(item.tax_id), [...(byTax.get(String(item.tax_id)) ?? []), item]);
  }
  for (const [taxId, group] of byTax) {
    const tax = dataset.tax_rates.find((t) => t.id === taxId);
    lines.push(
      line({
        id: `${doc.group}:tax:${taxId}`,
        source_ref: { id: `${doc.reference}/VAT${tax?.rate ?? ''}`, model: 'tax' },
        amount: sum2(group.map((l) => l.tax_amount)),
        is_tax_line: true,
        sub_group_id: null,
        tax_code: tax?.label ?? null,
        description: `${words.vat} ${tax?.rate ?? ''}%`,
        transaction_type: 'tax',
        accounting_category_id: null,
        ledger_account_code: vatAccount,
      }),
    );
  }
  return lines;
}
