import type { z } from '@hono/zod-openapi';
import type { VerticalAddress, VerticalLocation, VerticalTaxTotal } from '../../../store/world.js';
import type { DiscountType, Mode, POSLineItemType, POSPaymentStatus, Source } from './pos.values.js';

/**
 * The stored records of the Point of Sale vertical: one dataset per (consumer, connection), built
 * from (seed, consumerid, connectionid) the first time the connection is used (pos.seed.ts) and then
 * changed by writes and by the clock (open orders complete when their time comes). Records hold the
 * wire's fields; fields named in comments as internal are kept for the sandbox's own rules and never
 * answered. Enumerations are the wire's (pos.values.ts, which api/pos.schemas.ts uses too).
 */

export interface PosTaxRate {
  id: string;
  label: string | null;
  rate: number | null;
  tax_code: string | null;
}

export interface PosAccountingCategory {
  id: string;
  name: string;
  code: string | null;
  ledger_account_code: string | null;
  posting_account_code: string | null;
  /** Internal: the locations that use it. */
  location_ids: string[];
}

export interface PosProductCategory {
  id: string;
  name: string;
  description: string | null;
  id_parent: string | null;
  location_ids: string[];
}

export interface PosModifierGroup {
  id: string;
  name: string | null;
  options: { id: string; name: string | null; price: number }[];
  location_ids: string[];
}

export interface PosProduct {
  id: string;
  categories: string[];
  name: string;
  description: string | null;
  prices: { unit_price: number; tax_rate: number | null }[];
  modifier_groups_ids: string[];
  accounting_category_ids: string[];
  location_ids: string[];
  /** Internal: the tax rate its lines use, and whether it is sold as a product or a service. */
  tax_id: string;
  line_type: 'product' | 'service';
}

export interface PosPaymentMethod {
  id: string;
  name: string;
  extra: string | null;
  location_ids: string[];
}

export interface PosCustomer {
  id: string;
  first_name: string | null;
  last_name: string | null;
  name: string;
  phone: string | null;
  email: string | null;
  created_on: string | null;
  addresses: VerticalAddress[];
  loyalty: number | null;
  birthdate: string | null;
}

export interface PosDiscount {
  name: string | null;
  total: number;
  type: z.infer<typeof DiscountType>;
}

export interface PosModifierLine {
  modifier_id: string | null;
  name: string;
  modifier_group_id: string | null;
  quantity: number;
  unit_price: number;
  total: number;
}

/** A line: total = quantity × unit_price + modifiers − discounts (untaxed), plus tax_amount. */
export interface PosOrderLine {
  id: string;
  type: z.infer<typeof POSLineItemType> | null;
  menu_id: string | null;
  quantity: number;
  unit_price: number;
  total: number;
  tax_amount: number;
  tax_rate: number | null;
  tax_id: string | null;
  description: string | null;
  discounts: PosDiscount[];
  product_id: string | null;
  accounting_category_id: string | null;
  modifiers: PosModifierLine[];
}

export type PosPaymentStatusValue = z.infer<typeof POSPaymentStatus>;

export interface PosPayment {
  id: string;
  payment_method_id: string | null;
  payment_method_name: string | null;
  /** Paid towards the order's total; the tip comes on top. */
  total: number;
  tip: number;
  status: PosPaymentStatusValue;
  currency: string | null;
  date: string | null;
  invoice_ref: string | null;
  order_id: string;
}

export type PosModeValue = z.infer<typeof Mode>;
export type PosSourceValue = z.infer<typeof Source>;

/** An order: total = Σ lines' totals; tax_amount = Σ lines' taxes; closed ones are paid in full. */
export interface PosOrder {
  id: string;
  order_number: string | null;
  creation_date: string;
  closing_date: string | null;
  service_date: string | null;
  device_id: string | null;
  total: number;
  tax_amount: number;
  total_discount: number;
  total_refund: number;
  total_tip: number;
  delivery_fee: number;
  mode: PosModeValue;
  source: PosSourceValue;
  currency: string | null;
  country: string | null;
  loyalty: number | null;
  customer_id: string | null;
  location_id: string;
  taxes: VerticalTaxTotal[];
  guests: number | null;
  payments: PosPayment[];
  items: PosOrderLine[];
  invoice_id: string | null;
  /** Internal: when an open order is paid and closed (the clock completes it then), or null. */
  closes_at: string | null;
  /** Internal: how the order will be paid when it closes (method ids and the tip). */
  planned_payment: { payment_method_id: string; tip: number } | null;
}

export interface PosDataset {
  consumerid: string;
  connectionid: string;
  integrationid: number;
  /** Running numbers (orders, customers). */
  counters: Record<string, number>;
  locations: VerticalLocation[];
  tax_rates: PosTaxRate[];
  accounting_categories: PosAccountingCategory[];
  product_categories: PosProductCategory[];
  modifiers: PosModifierGroup[];
  products: PosProduct[];
  payment_methods: PosPaymentMethod[];
  customers: Record<string, PosCustomer>;
  orders: Record<string, PosOrder>;
  /** Ids of the orders still open (the clock completes them), in creation order. */
  open_orders: string[];
  /** Daily sales objective of each location (taxes included), before the weekday factor. */
  daily_objectives: Record<string, number>;
}

declare module '../../../store/world.js' {
  interface World {
    /** Point of Sale datasets, keyed by datasetKey(consumerid, connectionid); built on first use. */
    pos_datasets: Record<string, PosDataset>;
  }
}
