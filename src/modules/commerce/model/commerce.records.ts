import type { z } from '@hono/zod-openapi';
import type { AddressType } from '../../../platform/wire.js';
import type { SourceRefValue } from '../../../store/world.js';
import type { CommerceTransactionStatus, FeesType, OrderStatus, ProductStatus } from './commerce.values.js';

/**
 * The stored records of the eCommerce vertical: one dataset per (consumer, connection), built from
 * (seed, consumerid, connectionid) the first time the connection is used (commerce.seed.ts) and then
 * changed by writes. Records hold the wire's fields; fields named in comments as internal are kept
 * for the sandbox's own rules and never answered. Enumerations are the wire's (commerce.values.ts,
 * which api/commerce.schemas.ts uses too; the address type is the accounting one).
 */

export type CommerceAddressTypeValue = z.infer<typeof AddressType>;

export interface CommerceAddress {
  address_type: CommerceAddressTypeValue;
  company_name: string | null;
  first_name: string | null;
  last_name: string | null;
  street: string | null;
  number: string | null;
  box: string | null;
  city: string | null;
  postal_code: string | null;
  country: string | null;
  phone: string | null;
  email: string | null;
  vat: string | null;
}

export interface CommerceCustomer {
  id: string;
  source_ref: SourceRefValue;
  first_name: string | null;
  last_name: string | null;
  phone: string | null;
  email: string | null;
  language: string | null;
  internal_notes: string | null;
  currency: string | null;
  addresses: CommerceAddress[];
  created_on: string | null;
}

export interface CommerceLocation {
  id: string;
  name: string;
  source_ref: SourceRefValue;
  /** Internal: the warehouse's address (shipping_from_address of fulfilments). */
  address: CommerceAddress;
}

export interface CommerceTaxRate {
  id: string;
  source_ref: SourceRefValue;
  label: string;
  rate: number;
  country: string | null;
}

export interface CommerceCategory {
  id: string;
  source_ref: SourceRefValue;
  name: string;
  parent_id: string | null;
}

export interface CommercePaymentMethod {
  id: string;
  source_ref: SourceRefValue;
  name: string;
  active: boolean;
}

export interface CommerceImage {
  id: string;
  main_image: boolean;
  url: string;
}

export type CommerceProductStatusValue = z.infer<typeof ProductStatus>;

export interface CommerceVariant {
  id: string;
  source_ref: SourceRefValue;
  parent_id: string;
  name: string;
  description: string | null;
  description_html: string | null;
  created_on: string | null;
  sku: string | null;
  taxable: boolean | null;
  barcode: string | null;
  prices: { currency: string; price: number }[];
  unit_cost: { amount: number; currency: string } | null;
  unit_of_measure: string | null;
  weight: number;
  weight_unit: string | null;
  status: CommerceProductStatusValue;
  variant_attributes: { name: string; value: string }[];
  variant_images: CommerceImage[];
  /** Stock per location id, as the shop's own business moves it (its days' orders and deliveries). */
  stock: Record<string, number>;
}

export interface CommerceProduct {
  id: string;
  source_ref: SourceRefValue;
  name: string;
  description: string | null;
  description_html: string | null;
  /** Category ids. */
  categories: string[];
  created_on: string | null;
  last_updated_on: string | null;
  /** The last instant a client's write changed the product; it was last updated at the later of the two. */
  written_on?: string;
  /**
   * Units clients moved, by variant id and location id (their orders took them, their stock settings
   * changed them): a variant's stock at a location is its `stock` there plus these, so the days after
   * a client's write go on moving it. Kept on the product, not in its variants, so that a write
   * changes these values alone and never the variants the days after move.
   */
  moved?: Record<string, Record<string, number>>;
  variants: CommerceVariant[];
  status: CommerceProductStatusValue;
  sku: string | null;
  common_attributes: { name: string; values: string[] }[];
  variant_attributes_options: { name: string; values: string[] }[];
  common_images: CommerceImage[];
  /** Internal: the tax rate its lines use. */
  tax_id: string;
}

export interface CommerceDiscount {
  name: string;
  description: string;
  amount: number;
}

/** A line: untaxed = quantity × unit_price − discounts; total = untaxed + tax. */
export interface CommerceOrderLine {
  id: string;
  source_ref: SourceRefValue;
  created_on: string | null;
  variant_id: string | null;
  quantity: number;
  current_quantity: number;
  unit_price: number;
  description: string;
  tax_id: string | null;
  tax_rate: number;
  untaxed_amount: number;
  tax_amount: number;
  total: number;
  discounts: CommerceDiscount[];
  gift_card: boolean;
  is_gift: boolean;
}

export interface CommerceFee {
  id: string;
  source_ref: SourceRefValue;
  created_on: string | null;
  type: z.infer<typeof FeesType>;
  removed: boolean;
  tax_rate: number;
  tax_id: string | null;
  discounts: CommerceDiscount[];
  untaxed_amount: number;
  tax_amount: number;
  total: number;
}

export interface CommerceTransaction {
  id: string;
  created_on: string | null;
  payment_method_id: string | null;
  payment_method_name: string | null;
  amount: number;
  status: z.infer<typeof CommerceTransactionStatus>;
}

export interface CommerceAmounts {
  untaxed_amount: number;
  tax_amount: number;
  total: number;
}

export interface CommerceRefund {
  id: string;
  source_ref: SourceRefValue;
  created_on: string | null;
  total: number;
  reason: string | null;
  order_lines: ({ id: string; variant_id: string | null; quantity: number } & CommerceAmounts)[];
  other: number;
  shipping_refunds: ({ id: string; source_ref: SourceRefValue } & CommerceAmounts)[];
  other_fees: ({
    id: string;
    source_ref: SourceRefValue;
    type: z.infer<typeof FeesType>;
  } & CommerceAmounts)[];
  transactions: CommerceTransaction[];
}

export type CommerceOrderStatusValue = z.infer<typeof OrderStatus>;

export interface CommerceOrder {
  id: string;
  source_ref: SourceRefValue;
  order_number: string | null;
  customer_id: string | null;
  billing_address: CommerceAddress | null;
  shipping_address: CommerceAddress | null;
  created_on: string;
  last_updated_on: string;
  confirmed_on: string | null;
  delivery_date: string | null;
  cancelled_on: string | null;
  status: CommerceOrderStatusValue;
  /** Location the order ships from, or null when it is not fulfilled. */
  fulfilled_from: string | null;
  discount_amount: number;
  currency: string;
  note: string | null;
  tags: string[];
  lines: CommerceOrderLine[];
  other_fees: CommerceFee[];
  payment_method_id: string | null;
  transactions: CommerceTransaction[];
  refunds: CommerceRefund[];
}

export interface CommerceDataset {
  consumerid: string;
  connectionid: string;
  integrationid: number;
  counters: Record<string, number>;
  /** Currencies the shop sells in; the first is its main one. */
  currencies: string[];
  locations: CommerceLocation[];
  tax_rates: CommerceTaxRate[];
  categories: CommerceCategory[];
  payment_methods: CommercePaymentMethod[];
  /** Countries the shop ships to. */
  countries: { code: string; name: string }[];
  customers: Record<string, CommerceCustomer>;
  products: Record<string, CommerceProduct>;
  /** Variant id -> product id. */
  variant_index: Record<string, string>;
  orders: Record<string, CommerceOrder>;
}

declare module '../../../store/world.js' {
  interface World {
    /** eCommerce datasets, keyed by datasetKey(consumerid, connectionid); built on first use. */
    commerce_datasets: Record<string, CommerceDataset>;
  }
}
