import { uuidFrom } from '../../../lib/ids.js';
import { type LocalNames, localNames } from '../../../platform/local-names.js';
import type { Faker } from '../../../platform/seeding/fakers.js';
import { pad, pick, plusMinutes, round2, sum2, taxOf } from '../../../platform/seeding/vertical-data.js';
import type {
  CommerceCustomer,
  CommerceDataset,
  CommerceFee,
  CommerceOrder,
  CommerceOrderLine,
  CommerceOrderStatusValue,
  CommercePaymentMethod,
  CommerceProduct,
  CommerceRefund,
  CommerceTaxRate,
  CommerceTransaction,
} from '../model/commerce.records.js';
import { GBP_PER_EUR } from './commerce.catalogue.js';
import type { ShopProfile } from './commerce.countries.js';
import { COMMERCE_NAMES } from './commerce.names.js';

/**
 * The orders of a seeded eCommerce connection, in the history and in the days after it (see
 * commerce.seed): their lines, shipping fee, payment, refunds and status, and what they add up to.
 */

/** Shipping fee (taxes included) and the order amount from which shipping is free. */
export const SHIPPING_FEE = 4.95;
export const FREE_SHIPPING_FROM = 60;

/** What a shop names, in its country's language. */
export const shopNames = (shop: ShopProfile): LocalNames => localNames(COMMERCE_NAMES, shop.country);

/** The reasons a customer gives for sending an order back. */
export const REFUND_REASONS = ['Damaged in transit', 'Changed my mind', 'Wrong size'];

/** A line's amounts from its quantity, unit price (before taxes), discount and tax rate. */
export function lineAmounts(quantity: number, unitPrice: number, discount: number, rate: number) {
  const untaxed = round2(quantity * unitPrice - discount);
  const tax = taxOf(untaxed, rate);
  return { untaxed_amount: untaxed, tax_amount: tax, total: round2(untaxed + tax) };
}

/** The shipping fee of an order of `goods` (taxes included): free from FREE_SHIPPING_FROM. */
export function shippingFee(
  goods: number,
  currency: string,
  tax: CommerceTaxRate,
  id: string,
  created: string,
): CommerceFee | null {
  const threshold = currency === 'GBP' ? round2(FREE_SHIPPING_FROM * GBP_PER_EUR) : FREE_SHIPPING_FROM;
  if (goods >= threshold) return null;
  const gross = currency === 'GBP' ? round2(SHIPPING_FEE * GBP_PER_EUR) : SHIPPING_FEE;
  const untaxed = round2(gross / (1 + tax.rate / 100));
  return {
    id,
    source_ref: { id: id.slice(0, 8), model: 'shipping_line' },
    created_on: created,
    type: 'shipping',
    removed: false,
    tax_rate: tax.rate,
    tax_id: tax.id,
    discounts: [],
    untaxed_amount: untaxed,
    tax_amount: round2(gross - untaxed),
    total: gross,
  };
}

/** What every order draws, in the history and in the days after it: its lines, fee, total and payment. */
export interface OrderBasis {
  id: string;
  number: number;
  /** The order's id in the shop software (its source_ref). */
  ref: string;
  created: string;
  customer: CommerceCustomer;
  currency: string;
  lines: CommerceOrderLine[];
  fees: CommerceFee[];
  total: number;
  method: CommercePaymentMethod;
  /** When its payment went through (or failed). */
  paidOn: string;
  /** What the shop names, in its country's language. */
  names: LocalNames;
}

/**
 * Draws an order's lines (one to four, of published products, in the customer's currency, some
 * discounted), its shipping fee, its payment method and when it was paid.
 */
export function drawBasis(
  faker: Faker,
  shop: ShopProfile,
  dataset: CommerceDataset,
  sellable: readonly CommerceProduct[],
  order: { id: string; number: number; ref: string; created: string; customer: CommerceCustomer },
): OrderBasis {
  const { id: orderId, number, created, customer } = order;
  const names = shopNames(shop);
  const currency = customer.currency === 'GBP' ? 'GBP' : 'EUR';
  const lines: CommerceOrderLine[] = [];
  const count = faker.number.int({ min: 1, max: 4 });
  for (let i = 0; i < count; i++) {
    const product = pick(faker, sellable);
    const variant = pick(faker, product.variants);
    const tax = dataset.tax_rates.find((t) => t.id === product.tax_id);
    const unitPrice = variant.prices.find((p) => p.currency === currency)?.price ?? 0;
    const quantity = faker.helpers.weightedArrayElement([
      { weight: 75, value: 1 },
      { weight: 20, value: 2 },
      { weight: 5, value: 3 },
    ]);
    const discount = faker.datatype.boolean(0.1) ? round2(quantity * unitPrice * 0.15) : 0;
    const amounts = lineAmounts(quantity, unitPrice, discount, tax?.rate ?? 0);
    lines.push({
      id: uuidFrom('commerce-line', orderId, i),
      source_ref: { id: `${number}${pad(i + 1, 2)}`, model: 'order_line' },
      created_on: created,
      variant_id: variant.id,
      quantity,
      current_quantity: quantity,
      unit_price: unitPrice,
      description: variant.name,
      tax_id: tax?.id ?? null,
      tax_rate: tax?.rate ?? 0,
      ...amounts,
      discounts: discount
        ? [{ name: 'WELCOME15', description: names('15% off the first order'), amount: discount }]
        : [],
      gift_card: false,
      is_gift: faker.datatype.boolean(0.05),
    });
  }
  const shippingTax = dataset.tax_rates[0] as CommerceTaxRate;
  const goods = sum2(lines.map((l) => l.total));
  const fee = shippingFee(goods, currency, shippingTax, uuidFrom('commerce-fee', orderId), created);
  const fees = fee ? [fee] : [];
  const total = round2(goods + sum2(fees.map((f) => f.total)));
  const method = faker.helpers.weightedArrayElement(
    dataset.payment_methods
      .filter((m) => m.active)
      .map((m) => ({
        value: m,
        weight: shop.paymentMethods.find((p) => names(p.name) === m.name)?.weight ?? 1,
      })),
  );
  const paidOn = plusMinutes(created, faker.number.int({ min: 0, max: 3 }));
  return { ...order, currency, lines, fees, total, method, paidOn, names };
}

/** A payment of an order (its sale, or a refund's), with the order's payment method. */
export const transactionOf = (
  basis: OrderBasis,
  suffix: string,
  amount: number,
  status: CommerceTransaction['status'],
  on: string,
): CommerceTransaction => ({
  id: uuidFrom('commerce-transaction', basis.id, suffix),
  created_on: on,
  payment_method_id: basis.method.id,
  payment_method_name: basis.method.name,
  amount,
  status,
});

/** The refund of a whole order (its lines and its shipping) on `on`: no line is left. */
export function refundAll(basis: OrderBasis, on: string, reason: string): CommerceRefund {
  const refund: CommerceRefund = {
    id: uuidFrom('commerce-refund', basis.id, 0),
    source_ref: { id: `R${basis.number}`, model: 'refund' },
    created_on: on,
    total: basis.total,
    reason,
    order_lines: basis.lines.map((line) => ({
      id: line.id,
      variant_id: line.variant_id,
      quantity: line.quantity,
      untaxed_amount: line.untaxed_amount,
      tax_amount: line.tax_amount,
      total: line.total,
    })),
    other: 0,
    shipping_refunds: basis.fees.map((f) => ({
      id: f.id,
      source_ref: f.source_ref,
      untaxed_amount: f.untaxed_amount,
      tax_amount: f.tax_amount,
      total: f.total,
    })),
    other_fees: [],
    transactions: [transactionOf(basis, 'refund', basis.total, 'success', on)],
  };
  for (const line of basis.lines) line.current_quantity = 0;
  return refund;
}

/** A partial refund on `on`: one unit of the first line came back. */
export function refundOne(basis: OrderBasis, on: string): CommerceRefund {
  const line = basis.lines[0] as CommerceOrderLine;
  const unit = lineAmounts(
    1,
    line.unit_price,
    round2(line.discounts.reduce((t, d) => t + d.amount, 0) / line.quantity),
    line.tax_rate,
  );
  line.current_quantity = line.quantity - 1;
  return {
    id: uuidFrom('commerce-refund', basis.id, 0),
    source_ref: { id: `R${basis.number}`, model: 'refund' },
    created_on: on,
    total: unit.total,
    reason: basis.names('Returned item'),
    order_lines: [{ id: line.id, variant_id: line.variant_id, quantity: 1, ...unit }],
    other: 0,
    shipping_refunds: [],
    other_fees: [],
    transactions: [transactionOf(basis, 'refund', unit.total, 'success', on)],
  };
}

/** Where an order stands: its status and the instants, payments and refunds that go with it. */
export type OrderState = Pick<
  CommerceOrder,
  | 'status'
  | 'last_updated_on'
  | 'confirmed_on'
  | 'delivery_date'
  | 'cancelled_on'
  | 'fulfilled_from'
  | 'payment_method_id'
  | 'transactions'
  | 'refunds'
>;

/** The order of a basis in a state, with the customer's addresses; draws its note and tags. */
export function orderRecord(faker: Faker, basis: OrderBasis, state: OrderState): CommerceOrder {
  const { customer, lines } = basis;
  const shippingAddress =
    customer.addresses.find((a) => a.address_type === 'delivery') ?? customer.addresses[0] ?? null;
  const billing = customer.addresses.find((a) => a.address_type === 'main') ?? null;
  return {
    id: basis.id,
    source_ref: { id: basis.ref, model: 'order' },
    order_number: `#${basis.number}`,
    customer_id: customer.id,
    billing_address: billing ? { ...billing, address_type: 'invoice' } : null,
    shipping_address: shippingAddress ? { ...shippingAddress, address_type: 'delivery' } : null,
    created_on: basis.created,
    last_updated_on: state.last_updated_on,
    confirmed_on: state.confirmed_on,
    delivery_date: state.delivery_date,
    cancelled_on: state.cancelled_on,
    status: state.status,
    fulfilled_from: state.fulfilled_from,
    discount_amount: sum2(lines.flatMap((l) => l.discounts.map((d) => d.amount))),
    currency: basis.currency,
    note: faker.datatype.boolean(0.1) ? basis.names('Please leave the parcel with the neighbours') : null,
    tags: faker.datatype.boolean(0.2) ? [pick(faker, ['gift', 'vip', 'wholesale'])] : [],
    lines,
    other_fees: basis.fees,
    payment_method_id: state.payment_method_id,
    transactions: state.transactions,
    refunds: state.refunds,
  };
}

export function seedOrder(
  faker: Faker,
  shop: ShopProfile,
  dataset: CommerceDataset,
  sellable: readonly CommerceProduct[],
  customer: CommerceCustomer,
  created: string,
  /** The instant the seeded activity stops: nothing happens after it. */
  end: string,
): void {
  dataset.counters.order = (dataset.counters.order ?? 1000) + 1;
  const number = dataset.counters.order;
  const orderId = uuidFrom('commerce', dataset.connectionid, 'order', number);
  const ageDays = (Date.parse(end) - Date.parse(created)) / 86_400_000;
  const status: CommerceOrderStatusValue =
    ageDays < 2
      ? faker.helpers.weightedArrayElement([
          { weight: 60, value: 'confirmed' },
          { weight: 25, value: 'draft' },
          { weight: 15, value: 'cancelled_unpaid' },
        ])
      : faker.helpers.weightedArrayElement([
          { weight: 80, value: 'shipped' },
          { weight: 7, value: 'refunded' },
          { weight: 6, value: 'cancelled' },
          { weight: 4, value: 'cancelled_unpaid' },
          { weight: 3, value: 'confirmed' },
        ]);
  const basis = drawBasis(faker, shop, dataset, sellable, {
    id: orderId,
    number,
    ref: String(5_000_000 + number),
    created,
    customer,
  });
  const { total, paidOn } = basis;
  const transactions: CommerceTransaction[] =
    status === 'draft'
      ? []
      : [transactionOf(basis, 'sale', total, status === 'cancelled_unpaid' ? 'failed' : 'success', paidOn)];
  const refunds: CommerceRefund[] = [];
  // Orders older than two days ship within 40 hours, so before the sandbox starts.
  const shippedOn = plusMinutes(created, faker.number.int({ min: 12 * 60, max: 40 * 60 }));
  const capped = (instant: string) => (instant < end ? instant : end);
  if (status === 'refunded' || status === 'cancelled') {
    const on = capped(plusMinutes(created, faker.number.int({ min: 60, max: 10 * 24 * 60 })));
    const reason = basis.names(
      status === 'cancelled' ? 'Order cancelled by the customer' : pick(faker, REFUND_REASONS),
    );
    refunds.push(refundAll(basis, on, reason));
  } else if (status === 'shipped' && faker.datatype.boolean(0.08)) {
    const on = capped(plusMinutes(shippedOn, faker.number.int({ min: 2 * 24 * 60, max: 14 * 24 * 60 })));
    refunds.push(refundOne(basis, on));
  }
  const cancelled = status === 'cancelled' || status === 'cancelled_unpaid';
  const shipped = status === 'shipped' || status === 'refunded';
  const lastUpdate = [created, ...refunds.map((r) => r.created_on ?? created), shipped ? shippedOn : created]
    .sort()
    .at(-1) as string;
  dataset.orders[orderId] = orderRecord(faker, basis, {
    status,
    last_updated_on: lastUpdate,
    confirmed_on: status === 'draft' || status === 'cancelled_unpaid' ? null : paidOn,
    delivery_date: shipped ? shippedOn : null,
    cancelled_on: cancelled ? (refunds[0]?.created_on ?? plusMinutes(created, 45)) : null,
    fulfilled_from: shipped ? (dataset.locations[0]?.id ?? null) : null,
    payment_method_id: status === 'draft' ? null : basis.method.id,
    transactions,
    refunds,
  });
}
