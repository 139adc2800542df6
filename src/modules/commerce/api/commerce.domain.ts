import { instantOf } from '../../../lib/clock.js';
import { isCountryCode } from '../../../lib/country-codes.js';
import { serviceError } from '../../../lib/errors.js';
import { own } from '../../../lib/own.js';
import { connectionDataset, type DatasetUse, prepareConnectionDataset } from '../../../platform/datasets.js';
import { round2, sum2 } from '../../../platform/seeding/vertical-data.js';
import { verticalFailure } from '../../../platform/vertical-connection.js';
import type { WorldStore } from '../../../store/store.js';
import { rawOf } from '../../../store/unit-of-work.js';
import type { ConnectionRecord } from '../../../store/world.js';
import type {
  CommerceAddress,
  CommerceCustomer,
  CommerceDataset,
  CommerceOrder,
  CommerceOrderLine,
  CommerceProduct,
  CommerceVariant,
} from '../model/commerce.records.js';
import { taxOfRate } from '../world/commerce.countries.js';
import { lineAmounts, shippingFee } from '../world/commerce.seed.js';
import type {
  CommerceProductOut,
  OrderItemInInput,
  OrderItemOutValue,
  VariantItemOut,
} from './commerce.schemas.js';

/**
 * Rules of the eCommerce vertical over a connection's dataset. Amounts: a line's untaxed amount is
 * quantity × unit price less its discounts, its tax is rounded per line; an order's total is its
 * lines and fees; refunds lower the current amounts. A variant's available quantity is the sum of
 * its stock at each location; an order takes its quantities off that stock.
 */

export function commerceDatasetOf(
  store: WorldStore,
  connection: ConnectionRecord,
  how: DatasetUse = 'open',
): CommerceDataset {
  return connectionDataset<CommerceDataset>(store, 'commerce_datasets', connection, how);
}

/** The eCommerce dataset of a connection built in slices before a read in passing reads it (a cube). */
export function prepareCommerceDataset(
  store: WorldStore,
  connection: ConnectionRecord,
): Promise<void> | undefined {
  return prepareConnectionDataset(store, 'commerce_datasets', connection);
}

// ---- products and variants ------------------------------------------------------------------

/** What clients moved of a variant's stock, by location id. */
const movedOf = (product: CommerceProduct, variant: CommerceVariant): Record<string, number> =>
  (product.moved && own(product.moved, variant.id)) ?? {};

/** A variant's stock at a location: the shop's own business, and what clients moved there. */
export const stockAt = (product: CommerceProduct, variant: CommerceVariant, locationId: string): number =>
  (own(variant.stock, locationId) ?? 0) + (own(movedOf(product, variant), locationId) ?? 0);

/** A variant's available quantity: its stock at every location. */
export const availableQuantity = (product: CommerceProduct, variant: CommerceVariant): number =>
  [...Object.values(variant.stock), ...Object.values(movedOf(product, variant))].reduce(
    (total, quantity) => total + quantity,
    0,
  );

/** Moves units of a variant's stock at a location by a client's write (negative: taken). */
function moveStock(
  product: CommerceProduct,
  variant: CommerceVariant,
  locationId: string,
  units: number,
): void {
  product.moved ??= {};
  const moved = own(product.moved, variant.id) ?? {};
  moved[locationId] = (own(moved, locationId) ?? 0) + units;
  product.moved[variant.id] = moved;
}

/** When a product was last updated: by the shop's business, or by a client's write, the later. */
export const productUpdatedOn = (product: CommerceProduct): string | null =>
  product.written_on && product.written_on > (product.last_updated_on ?? '')
    ? product.written_on
    : product.last_updated_on;

function categoriesOf(dataset: CommerceDataset, product: CommerceProduct) {
  return product.categories.flatMap((id) => {
    const category = dataset.categories.find((c) => c.id === id);
    return category ? [{ id: category.id, name: category.name }] : [];
  });
}

function variantFields(dataset: CommerceDataset, product: CommerceProduct, variant: CommerceVariant) {
  const { stock: _stock, variant_attributes, variant_images, ...rest } = variant;
  return {
    ...rest,
    categories: categoriesOf(dataset, product),
    available_quantity: availableQuantity(product, variant),
    variant_attributes,
    variant_images,
  };
}

export function toProductItem(dataset: CommerceDataset, product: CommerceProduct): CommerceProductOut {
  const { tax_id: _tax, categories: _ids, variants, written_on: _written, moved: _moved, ...rest } = product;
  return {
    ...rest,
    last_updated_on: productUpdatedOn(product),
    categories: categoriesOf(dataset, product),
    variants: variants.map((variant) => variantFields(dataset, product, variant)),
  };
}

export function toVariantItem(
  dataset: CommerceDataset,
  product: CommerceProduct,
  variant: CommerceVariant,
): VariantItemOut {
  return {
    ...variantFields(dataset, product, variant),
    inventory_details: dataset.locations.map((location) => ({
      location: { id: location.id, name: location.name },
      available_quantity: stockAt(product, variant, location.id),
    })),
    common_attributes: product.common_attributes,
    common_images: product.common_images,
  };
}

/** Products by creation; updated_after: changed after the instant; sku: the product's or a variant's. */
export function listProducts(
  dataset: CommerceDataset,
  filters: { updated_after?: string | undefined; sku?: string | undefined },
): CommerceProduct[] {
  const after = filters.updated_after ? instantOf(filters.updated_after) : null;
  const sku = filters.sku?.trim().toLowerCase();
  return Object.values(dataset.products)
    .filter((product) => {
      if (after !== null && Date.parse(productUpdatedOn(product) ?? product.created_on ?? '') <= after)
        return false;
      if (
        sku &&
        product.sku?.toLowerCase() !== sku &&
        !product.variants.some((v) => v.sku?.toLowerCase() === sku)
      ) {
        return false;
      }
      return true;
    })
    .sort((a, b) => String(a.created_on).localeCompare(String(b.created_on)) || a.id.localeCompare(b.id));
}

export function requireProduct(dataset: CommerceDataset, productId: string): CommerceProduct {
  const product = own(dataset.products, productId);
  if (!product) throw serviceError('commerceProductNotFound', `No product has the id '${productId}'`);
  return product;
}

export function findVariant(
  dataset: CommerceDataset,
  variantId: string,
): { product: CommerceProduct; variant: CommerceVariant } | undefined {
  const product = own(dataset.products, own(dataset.variant_index, variantId));
  const variant = product?.variants.find((v) => v.id === variantId);
  return product && variant ? { product, variant } : undefined;
}

export function requireVariant(dataset: CommerceDataset, variantId: string) {
  const found = findVariant(dataset, variantId);
  if (!found) throw serviceError('commerceVariantNotFound', `No variant has the id '${variantId}'`);
  return found;
}

/**
 * Sets the stock of a variant at one location. The variant's available quantity (the sum over
 * locations) follows, and the product counts as updated. The quantity is taken as given (the
 * reference documents a number from 0, not a whole one).
 */
export function setAvailableQuantity(
  dataset: CommerceDataset,
  variantId: string,
  locationId: string,
  quantity: number,
  now: string,
) {
  const { product, variant } = requireVariant(dataset, variantId);
  const location = dataset.locations.find((l) => l.id === locationId);
  if (!location) throw serviceError('commerceLocationNotFound', `No location has the id '${locationId}'`);
  moveStock(product, variant, location.id, quantity - stockAt(product, variant, location.id));
  product.written_on = now;
  return { location: { id: location.id, name: location.name }, available_quantity: quantity };
}

// ---- customers ------------------------------------------------------------------------------

export const listCustomers = (dataset: CommerceDataset): CommerceCustomer[] =>
  Object.values(dataset.customers).sort(
    (a, b) => String(a.created_on).localeCompare(String(b.created_on)) || a.id.localeCompare(b.id),
  );

export function requireCustomer(dataset: CommerceDataset, customerId: string): CommerceCustomer {
  const customer = own(dataset.customers, customerId);
  if (!customer) throw serviceError('commerceCustomerNotFound', `No customer has the id '${customerId}'`);
  return customer;
}

// ---- orders ---------------------------------------------------------------------------------

export interface OrderView {
  include_detailed_refunds?: boolean;
  include_product_categories?: boolean;
  include_customer_details?: boolean;
}

/** The customer of an order: who they are, and their details only when asked for. */
function orderCustomer(
  customer: CommerceCustomer,
  withDetails: boolean,
): NonNullable<OrderItemOutValue['customer']> {
  return withDetails
    ? {
        id: customer.id,
        first_name: customer.first_name,
        last_name: customer.last_name,
        phone: customer.phone,
        internal_notes: customer.internal_notes,
        email: customer.email,
      }
    : {
        id: customer.id,
        first_name: null,
        last_name: null,
        phone: null,
        internal_notes: null,
        email: null,
      };
}

/** Where an order is fulfilled from: the address of its location. */
function orderFulfillment(location: CommerceDataset['locations'][number]): OrderItemOutValue['fulfillment'] {
  return {
    fulfillment_type: 'FBM',
    shipping_from_address: {
      address_type: 'main',
      name: location.name,
      number: location.address.number,
      box: location.address.box,
      phone: location.address.phone,
      mobile: null,
      email: location.address.email,
      street: location.address.street,
      city: location.address.city,
      postal_code: location.address.postal_code,
      country: location.address.country,
    },
  };
}

export function toOrderItem(
  dataset: CommerceDataset,
  order: CommerceOrder,
  view: OrderView = {},
): OrderItemOutValue {
  const withCategories = view.include_product_categories ?? false;
  const withCustomer = view.include_customer_details ?? true;
  const variantOf = (variantId: string | null) => {
    const found = variantId ? findVariant(dataset, variantId) : undefined;
    if (!found) return null;
    return {
      id: found.variant.id,
      sku: found.variant.sku,
      name: found.variant.name,
      categories: withCategories ? categoriesOf(dataset, found.product) : [],
    };
  };
  const customer = own(dataset.customers, order.customer_id);
  const location = order.fulfilled_from
    ? dataset.locations.find((l) => l.id === order.fulfilled_from)
    : undefined;
  const untaxedLines = sum2(order.lines.map((l) => l.untaxed_amount));
  const taxLines = sum2(order.lines.map((l) => l.tax_amount));
  const totalLines = sum2(order.lines.map((l) => l.total));
  const fees = order.other_fees.filter((f) => !f.removed);
  const untaxed = round2(untaxedLines + sum2(fees.map((f) => f.untaxed_amount)));
  const tax = round2(taxLines + sum2(fees.map((f) => f.tax_amount)));
  const total = round2(totalLines + sum2(fees.map((f) => f.total)));
  const refunded = sum2(order.refunds.map((r) => r.total));
  const refundedUntaxed = sum2(
    order.refunds.flatMap((r) =>
      [...r.order_lines, ...r.shipping_refunds, ...r.other_fees].map((x) => x.untaxed_amount),
    ),
  );
  const refundedTax = sum2(
    order.refunds.flatMap((r) =>
      [...r.order_lines, ...r.shipping_refunds, ...r.other_fees].map((x) => x.tax_amount),
    ),
  );
  const methods = new Map<string, string | null>();
  for (const t of order.transactions)
    if (t.payment_method_id) methods.set(t.payment_method_id, t.payment_method_name);
  return {
    id: order.id,
    source_ref: order.source_ref,
    order_number: order.order_number,
    customer: customer ? orderCustomer(customer, withCustomer) : null,
    billing_address: order.billing_address,
    shipping_address: order.shipping_address,
    created_on: order.created_on,
    last_updated_on: order.last_updated_on,
    confirmed_on: order.confirmed_on,
    delivery_date: order.delivery_date,
    cancelled_on: order.cancelled_on,
    status: order.status,
    fulfillment: location ? orderFulfillment(location) : null,
    discount_amount: order.discount_amount,
    untaxed_amount_without_fees: untaxedLines,
    tax_amount_without_fees: taxLines,
    total_without_fees: totalLines,
    current_untaxed_amount: round2(untaxed - refundedUntaxed),
    current_tax_amount: round2(tax - refundedTax),
    current_total: round2(total - refunded),
    untaxed_amount: untaxed,
    tax_amount: tax,
    total,
    refunded_amount: refunded,
    currency: order.currency,
    note: order.note,
    tags: order.tags,
    lines: order.lines.map(({ variant_id, ...line }) => ({ ...line, variant: variantOf(variant_id) })),
    other_fees: order.other_fees,
    payment_method_id: order.payment_method_id,
    transactions: order.transactions,
    payment_methods: [...methods].map(([id, name]) => ({ id, name })),
    detailed_refunds: view.include_detailed_refunds
      ? order.refunds.map((refund) => ({
          ...refund,
          order_lines: refund.order_lines.map(({ variant_id, ...line }) => ({
            ...line,
            variant: variantOf(variant_id),
          })),
        }))
      : null,
    returns: [],
  };
}

export interface OrderFilters {
  date_from?: string | undefined;
  date_to?: string | undefined;
  updated_after?: string | undefined;
}

/**
 * Orders by creation, oldest first; dates filter on the day of creation (a date_to before the
 * date_from matches nothing: an empty list, as the service answers).
 */
export function listOrders(dataset: CommerceDataset, filters: OrderFilters): CommerceOrder[] {
  const after = filters.updated_after ? instantOf(filters.updated_after) : null;
  return Object.values(dataset.orders)
    .filter((order) => {
      const day = order.created_on.slice(0, 10);
      if (filters.date_from && day < filters.date_from) return false;
      if (filters.date_to && day > filters.date_to) return false;
      if (after !== null && Date.parse(order.last_updated_on) <= after) return false;
      return true;
    })
    .sort((a, b) => a.created_on.localeCompare(b.created_on) || a.id.localeCompare(b.id));
}

export function requireOrder(dataset: CommerceDataset, orderId: string): CommerceOrder {
  const order = own(dataset.orders, orderId);
  if (!order) throw serviceError('commerceOrderNotFound', `No order has the id '${orderId}'`);
  return order;
}

/** An address's country, documented as an ISO 3166-1 code, must be one. */
function checkAddress(field: string, address: OrderItemInInput['billing_address']) {
  if (!isCountryCode(address.country.trim()))
    throw verticalFailure(`${field}: ${address.country} is not a valid country code`);
}

/** A phone number as compared: without spaces, dots, dashes, slashes and brackets; 00 read as +. */
const phoneKey = (phone: string) => phone.replace(/[\s.\-/()]/g, '').replace(/^00/, '+');

/** A phone number that begins with its country code: + (or 00), then 7 to 15 digits. */
const INTERNATIONAL_PHONE = /^\+[1-9]\d{6,14}$/;

/**
 * The phone of a customer the order creates, as the software checks it: a number that begins with
 * its country code (422 ERROR_PHONE_INVALID), that no other customer has (422 ERROR_PHONE_ALREADY_USED).
 */
function checkNewCustomerPhone(dataset: CommerceDataset, phone: string | null | undefined): void {
  if (phone === null || phone === undefined || phone.trim() === '') return;
  const key = phoneKey(phone);
  if (!INTERNATIONAL_PHONE.test(key)) {
    throw serviceError('phoneInvalid', `customer.phone '${phone}' does not begin with a country code`);
  }
  const owner = Object.values(dataset.customers).find((c) => c.phone && phoneKey(c.phone) === key);
  if (owner) throw serviceError('phoneAlreadyUsed', `customer.phone '${phone}' is the phone of ${owner.id}`);
}

interface PlannedLine {
  product: CommerceProduct;
  variant: CommerceVariant;
  quantity: number;
  unitPrice: number;
  tax: { id: string | null; rate: number };
}

/**
 * Everything a new order needs, checked before anything changes: the countries of its addresses,
 * the phone of a customer it creates, and lines that name existing variants with a quantity of at
 * least 1 and a price that is not negative. The rest is taken as given, as the shop software takes an
 * order placed through its API: any currency and e-mail text, a variant of an unpublished product, a
 * tax rate the shop does not list (the line then names no tax), a payment method the shop does not
 * list or no longer offers (named as given), and more than the stock (which then goes below zero).
 */
function planOrder(dataset: CommerceDataset, input: OrderItemInInput) {
  const currency = input.currency.trim().toUpperCase();
  const email = input.customer.email.trim();
  checkAddress('billing_address', input.billing_address);
  checkAddress('shipping_address', input.shipping_address);
  const known = Object.values(dataset.customers).find((c) => c.email?.toLowerCase() === email.toLowerCase());
  if (!known) checkNewCustomerPhone(dataset, input.customer.phone);
  const listed = input.payment_method
    ? dataset.payment_methods.find((m) => m.id === input.payment_method)
    : undefined;
  const method = input.payment_method
    ? { id: input.payment_method, name: listed ? listed.name : input.payment_method }
    : null;
  const lines: PlannedLine[] = input.lines.map((line, index) => {
    const where = `lines[${index}]`;
    const found = findVariant(dataset, line.variant_id);
    if (!found) throw verticalFailure(`${where}: the variant '${line.variant_id}' does not exist`);
    if (line.quantity < 1) throw verticalFailure(`${where}: the quantity must be at least 1`);
    if (line.unit_price < 0) throw verticalFailure(`${where}: the unit price cannot be negative`);
    const tax = taxOfRate(dataset.tax_rates, line.tax_rate);
    return {
      ...found,
      quantity: line.quantity,
      unitPrice: line.unit_price,
      tax: { id: tax?.id ?? null, rate: line.tax_rate },
    };
  });
  return { currency, email, customer: known, method, lines };
}

/**
 * Takes quantities off a variant's stock, location by location in the shop's order; what the
 * locations lack is taken off the first one, whose stock then goes below zero.
 */
function takeFromStock(
  dataset: CommerceDataset,
  product: CommerceProduct,
  variant: CommerceVariant,
  quantity: number,
): void {
  let left = quantity;
  for (const location of dataset.locations) {
    const taken = Math.max(0, Math.min(stockAt(product, variant, location.id), left));
    if (taken > 0) moveStock(product, variant, location.id, -taken);
    left -= taken;
  }
  const first = dataset.locations[0];
  if (left > 0 && first) moveStock(product, variant, first.id, -left);
}

const toAddress = (
  address: OrderItemInInput['billing_address'],
  type: 'invoice' | 'delivery',
): CommerceAddress => ({
  address_type: type,
  company_name: null,
  first_name: address.first_name,
  last_name: address.last_name,
  street: address.street,
  number: address.number,
  box: address.box ?? null,
  city: address.city,
  postal_code: address.postal_code ?? null,
  country: address.country.trim().toUpperCase(),
  phone: address.phone ?? null,
  email: address.email ?? null,
  vat: null,
});

export interface OrderIds {
  order: () => string;
  customer: () => string;
  line: () => string;
  fee: () => string;
  transaction: () => string;
}

/**
 * Creates an order (checked by planOrder). The customer is found by e-mail or created; the stock of
 * the lines' variants is taken at once. With a payment method the order is paid (confirmed, one
 * successful transaction of its total); without, a draft.
 */
export function createOrder(
  dataset: CommerceDataset,
  input: OrderItemInInput,
  ids: OrderIds,
  now: string,
): { order: CommerceOrder; customerCreated: boolean } {
  const plan = planOrder(dataset, input);
  let customer = plan.customer;
  const customerCreated = !customer;
  if (!customer) {
    customer = {
      id: ids.customer(),
      source_ref: { id: String(900_000 + Object.keys(rawOf(dataset.customers)).length), model: 'customer' },
      first_name: input.customer.first_name ?? input.billing_address.first_name,
      last_name: input.customer.last_name ?? input.billing_address.last_name,
      phone: input.customer.phone ?? null,
      email: plan.email,
      language: null,
      internal_notes: input.customer.internal_notes ?? null,
      currency: plan.currency,
      addresses: [{ ...toAddress(input.billing_address, 'invoice'), address_type: 'main' }],
      created_on: now,
    };
    dataset.customers[customer.id] = customer;
  }
  dataset.counters.order = (dataset.counters.order ?? 1000) + 1;
  const number = dataset.counters.order;
  const lines: CommerceOrderLine[] = plan.lines.map((line, index) => {
    takeFromStock(dataset, line.product, line.variant, line.quantity);
    return {
      id: ids.line(),
      source_ref: { id: `${number}${String(index + 1).padStart(2, '0')}`, model: 'order_line' },
      created_on: now,
      variant_id: line.variant.id,
      quantity: line.quantity,
      current_quantity: line.quantity,
      unit_price: line.unitPrice,
      description: line.variant.name,
      tax_id: line.tax.id,
      tax_rate: line.tax.rate,
      ...lineAmounts(line.quantity, line.unitPrice, 0, line.tax.rate),
      discounts: [],
      gift_card: false,
      is_gift: false,
    };
  });
  for (const line of plan.lines) line.product.written_on = now;
  const shippingTax = dataset.tax_rates[0];
  const goods = sum2(lines.map((l) => l.total));
  const fee = shippingTax ? shippingFee(goods, plan.currency, shippingTax, ids.fee(), now) : null;
  const total = round2(goods + (fee?.total ?? 0));
  const order: CommerceOrder = {
    id: ids.order(),
    source_ref: { id: String(5_000_000 + number), model: 'order' },
    order_number: `#${number}`,
    customer_id: customer.id,
    billing_address: toAddress(input.billing_address, 'invoice'),
    shipping_address: toAddress(input.shipping_address, 'delivery'),
    created_on: now,
    last_updated_on: now,
    confirmed_on: plan.method ? now : null,
    delivery_date: null,
    cancelled_on: null,
    status: plan.method ? 'confirmed' : 'draft',
    fulfilled_from: null,
    discount_amount: 0,
    currency: plan.currency,
    note: input.note ?? null,
    tags: [],
    lines,
    other_fees: fee ? [fee] : [],
    payment_method_id: plan.method?.id ?? null,
    transactions: plan.method
      ? [
          {
            id: ids.transaction(),
            created_on: now,
            payment_method_id: plan.method.id,
            payment_method_name: plan.method.name,
            amount: total,
            status: 'success',
          },
        ]
      : [],
    refunds: [],
  };
  dataset.orders[order.id] = order;
  return { order, customerCreated };
}
