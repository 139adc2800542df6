import type { SourceRefValue, VerticalAddress, VerticalLocation } from '../../../store/world.js';
import type { PosOrder, PosOrderLine, PosPaymentStatusValue } from '../../pos/index.js';

/**
 * The stored records of the Property Management System vertical: one dataset per (consumer,
 * connection), built from (seed, consumerid, connectionid) the first time the connection is used
 * (pms.seed.ts) and then changed by writes. A stay is a POS order with the stay's own fields, and
 * its lines POS lines: the PMS wire shapes reuse the POS ones (see pms.schemas.ts).
 */

export interface PmsTaxRate {
  id: string;
  source_ref: SourceRefValue;
  label: string | null;
  rate: number | null;
  is_city_tax: boolean;
}

export interface PmsAccountingCategory {
  id: string;
  source_ref: SourceRefValue;
  name: string;
  code: string | null;
  ledger_account_code: string | null;
  posting_account_code: string | null;
}

export interface PmsPaymentMethod {
  id: string;
  source_ref: SourceRefValue;
  name: string;
  extra: string | null;
  ledger_account_code: string | null;
  location_ids: string[];
}

export interface PmsCustomer {
  id: string;
  source_ref: SourceRefValue;
  first_name: string | null;
  last_name: string | null;
  company_name: string | null;
  phone: string | null;
  email: string | null;
  account_number: string | null;
  created_on: string | null;
  addresses: VerticalAddress[];
  is_company: boolean;
}

/**
 * A line: total = quantity × unit_price − discounts + tax_amount (unit prices untaxed). A POS order
 * line, without modifiers, with its source_ref.
 */
export interface PmsOrderLine extends Omit<PosOrderLine, 'modifiers'> {
  source_ref: SourceRefValue;
}

export interface PmsReservation {
  id: string;
  source_ref: SourceRefValue;
  start_date: string | null;
  end_date: string | null;
  creation_date: string | null;
  resource_id: { id: string; source_ref: SourceRefValue } | null;
  resource_name: string | null;
  resource_identifier: string | null;
}

export interface PmsPayment {
  id: string;
  source_ref: SourceRefValue;
  payment_method_id: string | null;
  payment_method_name: string | null;
  total: number;
  tip: number;
  status: PosPaymentStatusValue;
  currency: string | null;
  date: string | null;
  invoice_ref: string | null;
  /** The customer who paid. */
  customer_id: string | null;
  description: string | null;
}

/**
 * A stay: one order per reservation, closed (invoiced) at check-out. It has the fields of a POS
 * order but the payments, and the stay's own.
 */
export interface PmsOrder
  extends Omit<PosOrder, 'payments' | 'items' | 'invoice_id' | 'closes_at' | 'planned_payment'> {
  source_ref: SourceRefValue;
  items: PmsOrderLine[];
  service_id: string | null;
  reservation: PmsReservation | null;
  /** Ids of the invoices (bills) of the stay. */
  invoice_ids: string[];
}

export interface PmsInvoice {
  id: string;
  source_ref: SourceRefValue;
  invoice_number: string;
  creation_date: string;
  closing_date: string | null;
  customer_id: string;
  /** The stay it bills: its lines are the invoice's items. */
  order_id: string;
  location_id: string;
  payments: PmsPayment[];
  service_id: string | null;
  tax_amount: number;
  untaxed_amount: number;
  total: number;
  currency: string;
}

export interface PmsDataset {
  consumerid: string;
  connectionid: string;
  integrationid: number;
  counters: Record<string, number>;
  locations: VerticalLocation[];
  /** Rooms of each location: id, name and number. */
  rooms: { id: string; location_id: string; name: string; identifier: string }[];
  tax_rates: PmsTaxRate[];
  accounting_categories: PmsAccountingCategory[];
  payment_methods: PmsPaymentMethod[];
  customers: Record<string, PmsCustomer>;
  orders: Record<string, PmsOrder>;
  invoices: Record<string, PmsInvoice>;
}

declare module '../../../store/world.js' {
  interface World {
    /** Property Management System datasets, keyed by datasetKey(consumerid, connectionid). */
    pms_datasets: Record<string, PmsDataset>;
  }
}
