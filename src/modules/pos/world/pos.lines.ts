import { uuidFrom } from '../../../lib/ids.js';
import { round2, sum2, taxOf, taxTotals } from '../../../platform/seeding/vertical-data.js';
import { verticalFailure } from '../../../platform/vertical-connection.js';
import type {
  PosDataset,
  PosDiscount,
  PosModeValue,
  PosModifierGroup,
  PosModifierLine,
  PosOrder,
  PosOrderLine,
  PosPayment,
  PosPaymentMethod,
  PosProduct,
  PosTaxRate,
} from '../model/pos.records.js';
import { DELIVERY_FEE_NAMES } from './pos.names.js';

/**
 * The lines of an order and what they add up to, as the seed, the living days and the fixtures
 * build them: prices by mode, options, discounts, taxes, totals and the payment that completes it.
 */

/** The price a product sells at in an order of `mode`, and the tax rate of its lines. */
export function linePrice(
  dataset: Pick<PosDataset, 'tax_rates'>,
  product: PosProduct,
  mode: PosModeValue,
): { price: PosProduct['prices'][number]; tax: PosTaxRate | undefined } {
  // Food taken away is taxed at the reduced rate (its second price).
  const price = (mode !== 'EAT_IN' && product.prices[1]) ||
    product.prices[0] || { unit_price: 0, tax_rate: 0 };
  const tax = dataset.tax_rates.find((t) => t.rate === price.tax_rate) ?? dataset.tax_rates[0];
  return { price, tax };
}

/** An option of a modifier group chosen on a line of `quantity`: one option per unit, at its price. */
export function modifierLine(
  group: PosModifierGroup,
  option: PosModifierGroup['options'][number],
  quantity: number,
): PosModifierLine {
  return {
    modifier_id: option.id,
    name: option.name ?? group.name ?? 'Option',
    modifier_group_id: group.id,
    quantity,
    unit_price: option.price,
    total: round2(option.price * quantity),
  };
}

/** What a line comes to before its discounts and taxes: its units and the options chosen on it. */
export const lineGross = (unitPrice: number, quantity: number, modifiers: readonly PosModifierLine[]) =>
  round2(unitPrice * quantity + sum2(modifiers.map((m) => m.total)));

/**
 * A line of an order: quantity × unit_price + modifiers − discounts before taxes, taxed at the
 * product's rate. Discounts take off at most what the line comes to (an offered line is free).
 */
export function orderLine(
  orderId: string,
  index: number,
  product: PosProduct,
  line: {
    unitPrice: number;
    quantity: number;
    tax: PosTaxRate | undefined;
    modifiers: PosModifierLine[];
    discounts: PosDiscount[];
  },
): PosOrderLine {
  const { unitPrice, quantity, tax, modifiers, discounts } = line;
  const gross = lineGross(unitPrice, quantity, modifiers);
  const untaxed = round2(gross - sum2(discounts.map((d) => d.total)));
  if (untaxed < 0) {
    throw verticalFailure(
      `The discounts (${sum2(discounts.map((d) => d.total))}) are more than the line's ${gross}`,
    );
  }
  const taxAmount = taxOf(untaxed, tax?.rate ?? 0);
  return {
    id: `${orderId.slice(0, 8)}-${index + 1}`,
    type: product.line_type,
    menu_id: null,
    quantity,
    unit_price: unitPrice,
    total: round2(untaxed + taxAmount),
    tax_amount: taxAmount,
    tax_rate: tax?.rate ?? 0,
    tax_id: tax?.id ?? null,
    description: product.name,
    discounts,
    product_id: product.id,
    accounting_category_id: product.accounting_category_ids[0] ?? null,
    modifiers,
  };
}

/** An order's figures from its lines: the totals, the discounts, the delivery fee and the taxes by rate. */
export function orderTotals(lines: readonly PosOrderLine[]) {
  return {
    total: sum2(lines.map((l) => l.total)),
    tax_amount: sum2(lines.map((l) => l.tax_amount)),
    total_discount: sum2(lines.flatMap((l) => l.discounts.map((d) => d.total))),
    delivery_fee:
      lines.find((l) => l.type === 'service' && DELIVERY_FEE_NAMES.has(l.description ?? ''))?.total ?? 0,
    taxes: taxTotals(lines),
  };
}

/** The payment of an open order when it completes: one payment of its total, and its tip. */
export function completionPayment(
  order: PosOrder,
  method: PosPaymentMethod | undefined,
  tip: number,
  date: string,
): PosPayment {
  return {
    id: uuidFrom('pos-payment', order.id, 0),
    payment_method_id: method?.id ?? null,
    payment_method_name: method?.name ?? null,
    total: order.total,
    tip,
    status: 'Completed',
    currency: order.currency,
    date,
    invoice_ref: order.invoice_id,
    order_id: order.id,
  };
}
