import { z } from '@hono/zod-openapi';
import { uuidFrom } from '../../../lib/ids.js';
import { own } from '../../../lib/own.js';
import { countryOf } from '../../../platform/countries.js';
import { RefTable } from '../../../platform/fixtures/context.js';
import type { PathPart } from '../../../platform/fixtures/errors.js';
import * as kit from '../../../platform/fixtures/kit.js';
import { localNames } from '../../../platform/local-names.js';
import { plusMinutes, round2 } from '../../../platform/seeding/vertical-data.js';
import type { PosDataset, PosOrder, PosOrderLine, PosProduct } from '../model/pos.records.js';
import { DiscountType, Mode, Source } from '../model/pos.values.js';
import { POS_NAMES } from '../world/pos.names.js';
import { linePrice, localPaymentName, modifierLine, orderLine, orderTotals } from '../world/pos.seed.js';
import { createCustomer as createPosCustomer, posDatasetOf } from './pos.domain.js';
import { POSCreateCustomerItem } from './pos.schemas.js';

/**
 * The Point of Sale block of a connection in the fixture document (`connections[].pos`):
 * customers as POST .../pos/customers creates them, orders as the till records them.
 */

// ---------------------------------------------------------------------------------------------
// The block's schema.

export const PosModifierFixture = z
  .object({
    modifier_id: z
      .string()
      .min(1)
      .describe('An option of a modifier group the product takes: its id or name (Medium, Béarnaise)'),
    modifier_group_id: z
      .string()
      .min(1)
      .optional()
      .describe(
        "The option's group: its id or name (Sauces); needed only when two groups of the product name it",
      ),
  })
  .strict()
  .describe("An option chosen on the line: one per unit of the line, at the option's price");

const PosDiscountFixture = z
  .object({
    name: z.string().min(1).nullable().default(null),
    total: z.number().positive().describe('Amount taken off the line, before taxes'),
    type: DiscountType.default('UNKNOWN'),
  })
  .strict()
  .describe(
    "A discount on the line: the line's discounts take off at most what it comes to, options included",
  );

const PosOrderLineFixture = z
  .object({
    product: z.string().min(1).describe('A product of the point of sale: its id or name'),
    quantity: z.number().int().min(1).default(1),
    unit_price: z.number().min(0).optional().describe("Before taxes; default: the product's price"),
    modifiers: z.array(PosModifierFixture).optional(),
    discounts: z.array(PosDiscountFixture).optional(),
  })
  .strict();

export const PosOrderFixture = z
  .object({
    id: kit.id(),
    creation_date: kit.instant().describe('When the order was opened'),
    closing_date: kit
      .instant()
      .nullable()
      .optional()
      .describe(
        'When it was paid and closed (default: 30 minutes after it was opened); after the clock, the order is open and closes then',
      ),
    location: z.string().optional().describe('A location id, name or city (default: the first)'),
    customer_id: z.string().nullable().optional().describe('A customer id or ref'),
    payment_method: z.string().optional().describe('A payment method id or name (default: the first)'),
    tip: z.number().min(0).default(0),
    guests: z.number().int().min(1).nullable().optional(),
    mode: Mode.optional(),
    source: Source.optional(),
    items: z.array(PosOrderLineFixture).min(1),
  })
  .strict();

export const PosFixture = z
  .object({
    customers: kit.list(kit.record(POSCreateCustomerItem), 'POST .../pos/customers'),
    orders: kit.list(PosOrderFixture, 'Orders of the point of sale'),
  })
  .strict();

// ---------------------------------------------------------------------------------------------
// Applying the block.

/** What the block's records are made in: the point of sale's dataset, and the refs of the customers. */
type Pos = kit.Maker<PosDataset> & { readonly customers: RefTable };

/**
 * An option chosen on a line: one of the modifier groups the product takes at the location, by the
 * option's id or name (and its group's, when two of them name it).
 */
function posModifier(
  pos: Pos,
  product: PosProduct,
  locationId: string,
  chosen: z.output<typeof PosModifierFixture>,
  quantity: number,
  path: PathPart[],
) {
  const { context, data, unknown } = pos;
  let groups = data.modifiers.filter(
    (g) => product.modifier_groups_ids.includes(g.id) && g.location_ids.includes(locationId),
  );
  const offered = () =>
    groups.map((g) => `${g.name}: ${g.options.map((o) => o.name).join(', ')}`).join('; ') || 'none';
  if (chosen.modifier_group_id !== undefined) {
    const group = kit.byIdOrName(groups, chosen.modifier_group_id, pos.alias);
    if (!group) {
      return unknown(
        [...path, 'modifier_group_id'],
        `'${chosen.modifier_group_id}' is not a modifier group of '${product.name}' (${offered()})`,
      );
    }
    groups = [group];
  }
  const matches = groups.flatMap((group) => {
    const option = kit.byIdOrName(group.options, chosen.modifier_id, pos.alias);
    return option ? [{ group, option }] : [];
  });
  const [match, other] = matches;
  if (!match) {
    return unknown(
      [...path, 'modifier_id'],
      `'${chosen.modifier_id}' is not an option of the modifier groups of '${product.name}' (${offered()})`,
    );
  }
  if (other) {
    context.fail(
      [...path, 'modifier_group_id'],
      'Field required',
      `'${chosen.modifier_id}' is an option of ${matches.map((m) => m.group.name).join(' and ')}: give its modifier_group_id`,
    );
  }
  return modifierLine(match.group, match.option, quantity);
}

function posOrder(pos: Pos, record: z.output<typeof PosOrderFixture>, path: PathPart[]): string {
  const { context, data, failAt, unknown } = pos;
  const orderId = pos.freshId(record.id, path, data.orders, 'order');
  const location = pos.locationIn(data.locations, record.location, path, 'a location of the point of sale');
  let customerId: string | null = null;
  if (record.customer_id !== null && record.customer_id !== undefined) {
    customerId = pos.customers.resolve(record.customer_id);
    if (!own(data.customers, customerId)) {
      unknown([...path, 'customer_id'], `'${record.customer_id}' is not a customer of the point of sale`);
    }
  }
  const method = pos.paymentMethodAt(data.payment_methods, location, record.payment_method, path);
  const created = new Date(record.creation_date).toISOString();
  const now = context.now();
  if (created > now) failAt([...path, 'creation_date'], `${created} is after the sandbox clock (${now})`);
  const closing =
    record.closing_date === undefined
      ? plusMinutes(created, 30)
      : record.closing_date === null
        ? null
        : new Date(record.closing_date).toISOString();
  if (closing !== null && closing < created) {
    failAt([...path, 'closing_date'], `${closing} is before the order's creation_date ${created}`);
  }
  const mode = record.mode ?? 'EAT_IN';
  const items: PosOrderLine[] = record.items.map((item, index) => {
    const at = [...path, 'items', index];
    const product = kit.byIdOrName(data.products, item.product, pos.alias);
    if (!product) {
      return unknown(
        [...at, 'product'],
        `'${item.product}' is not a product of the point of sale (GET .../pos/products lists them)`,
      );
    }
    if (!product.location_ids.includes(location.id))
      failAt([...at, 'product'], `'${product.name}' is not sold at ${location.name}`);
    const { price, tax } = linePrice(data, product, mode);
    const modifiers = (item.modifiers ?? []).map((chosen, m) =>
      posModifier(pos, product, location.id, chosen, item.quantity, [...at, 'modifiers', m]),
    );
    const line = {
      unitPrice: item.unit_price ?? price.unit_price,
      quantity: item.quantity,
      tax,
      modifiers,
      discounts: (item.discounts ?? []).map((d) => ({ name: d.name, total: round2(d.total), type: d.type })),
    };
    return context.at([...at, 'discounts'], null, () => orderLine(orderId, index, product, line));
  });
  const totals = orderTotals(items);
  const total = totals.total;
  const closed = closing !== null && closing <= now;
  data.counters.order = (data.counters.order ?? 0) + 1;
  const order: PosOrder = {
    id: orderId,
    order_number: String(data.counters.order),
    creation_date: created,
    closing_date: closed ? closing : null,
    service_date: created,
    device_id: null,
    total,
    tax_amount: totals.tax_amount,
    total_discount: totals.total_discount,
    total_refund: 0,
    total_tip: closed ? record.tip : 0,
    delivery_fee: totals.delivery_fee,
    mode,
    source: record.source ?? 'POS',
    currency: 'EUR',
    country: location.address?.country ?? 'BE',
    loyalty: customerId && closed ? Math.floor(total) : null,
    customer_id: customerId,
    location_id: location.id,
    taxes: totals.taxes,
    guests: record.guests ?? null,
    payments: closed
      ? [
          {
            id: uuidFrom('pos-payment', orderId, 0),
            payment_method_id: method.id,
            payment_method_name: method.name,
            total,
            tip: record.tip,
            status: 'Completed',
            currency: 'EUR',
            date: closing,
            invoice_ref: null,
            order_id: orderId,
          },
        ]
      : [],
    items,
    invoice_id: null,
    // An order closing after the clock is open until then (the clock completes it, as a seeded one).
    closes_at: closed ? null : closing,
    planned_payment: closed ? null : { payment_method_id: method.id, tip: record.tip },
  };
  data.orders[orderId] = order;
  if (!closed) data.open_orders.push(orderId);
  const customer = customerId ? own(data.customers, customerId) : undefined;
  if (customer && closed) customer.loyalty = (customer.loyalty ?? 0) + Math.floor(total);
  return orderId;
}

/** The Point of Sale block of a connection in the fixture document. */
export const posFixtures = kit.verticalFixtures(PosFixture, (scope) => {
  const data = posDatasetOf(scope.context.store, scope.connection);
  // Products, options and payment methods by their names in the till's language, or as a Belgian
  // till names them.
  const country = countryOf(scope.integration);
  const names = localNames(POS_NAMES, country);
  const alias = (value: string) => names.alias(value) ?? localPaymentName(country, value);
  const pos: Pos = { ...kit.makerOf(scope, data, alias), customers: new RefTable(scope.context) };
  const { context, customers } = pos;
  return {
    customers: [
      'pos_create_pos_customer',
      (record, path, raw) => {
        const { id, body } = pos.newRecord(record, path, data.customers, 'customer', customers);
        return context.at(path, raw, () => createPosCustomer(data, body, () => id, context.now()).id);
      },
    ],
    orders: [null, (record, path) => posOrder(pos, record, path)],
  };
});
