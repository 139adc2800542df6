import { z } from '@hono/zod-openapi';
import { isCountryCode } from '../../../lib/country-codes.js';
import { serviceError } from '../../../lib/errors.js';
import { uuidFrom } from '../../../lib/ids.js';
import { own } from '../../../lib/own.js';
import { RefTable } from '../../../platform/fixtures/context.js';
import { type PathPart, ruleError } from '../../../platform/fixtures/errors.js';
import * as kit from '../../../platform/fixtures/kit.js';
import { round2 } from '../../../platform/seeding/vertical-data.js';
import { verticalFailure } from '../../../platform/vertical-connection.js';
import type {
  CommerceCustomer,
  CommerceDataset,
  CommerceProduct,
  CommerceVariant,
} from '../model/commerce.records.js';
import { ProductStatus } from '../model/commerce.values.js';
import { shopOf, taxOfRate } from '../world/commerce.countries.js';
import { GBP_PER_EUR, shopNames } from '../world/commerce.seed.js';
import { commerceDatasetOf, createOrder } from './commerce.domain.js';
import { OrderItemIn } from './commerce.schemas.js';

/**
 * The eCommerce block of a connection in the fixture document (`connections[].commerce`): products
 * and customers of the shop, built under the invariants the seeder keeps (the API creates none), and
 * orders as POST .../commerce/orders places them.
 */

// ---------------------------------------------------------------------------------------------
// The block's schema.

const Stock = z
  .union([z.number().int().min(0), z.record(z.string(), z.number().int().min(0))])
  .describe('Units in stock: a number (at the first location), or units by location id, name or city');

const CommerceVariantFixture = z
  .object({
    id: kit.id(),
    ref: kit.ref(),
    name: z.string().min(1).optional().describe("Default: the product's name and the attribute values"),
    sku: z.string().min(1).optional(),
    price: z.number().min(0).describe("Price before taxes in the shop's main currency"),
    stock: Stock.optional(),
    attributes: z.record(z.string(), z.string()).optional().describe('e.g. {"Size": "M"}'),
  })
  .strict();

export const CommerceProductFixture = z
  .object({
    id: kit.id(),
    ref: kit.ref(),
    name: z.string().min(1),
    sku: z.string().min(1).optional(),
    description: z.string().optional(),
    status: ProductStatus.optional().describe('Default: published'),
    tax_rate: z
      .number()
      .optional()
      .describe("A tax rate of the shop in percent (default: the shop's standard rate, 21 in Belgium)"),
    categories: z.array(z.string()).optional().describe('Category ids or names of the shop'),
    price: z.number().min(0).optional().describe('For a product of one variant: its price'),
    stock: Stock.optional().describe('For a product of one variant: its stock'),
    variants: z.array(CommerceVariantFixture).min(1).optional(),
  })
  .strict();

export const CommerceCustomerFixture = z
  .object({
    id: kit.id(),
    ref: kit.ref(),
    first_name: z.string().min(1),
    last_name: z.string().min(1),
    email: z.string().min(3).describe('Unique in the shop: an order names its customer by it'),
    phone: z.string().nullable().optional(),
    language: z.string().nullable().optional(),
    currency: z.string().nullable().optional(),
    internal_notes: z.string().nullable().optional(),
    country: z.string().optional().describe('ISO 3166-1 alpha-2 country of the main address'),
    street: z.string().optional(),
    number: z.string().optional(),
    city: z.string().optional(),
    postal_code: z.string().optional(),
  })
  .strict();

export const CommerceFixture = z
  .object({
    products: kit.list(CommerceProductFixture, 'Products of the shop'),
    customers: kit.list(CommerceCustomerFixture, 'Customers of the shop'),
    orders: kit.list(
      kit.withId(OrderItemIn),
      'POST .../commerce/orders; lines[].variant_id takes a variant or product ref, or a sku',
    ),
  })
  .strict();

// ---------------------------------------------------------------------------------------------
// Applying the block.

/** A phone number as compared, and the international form a new customer's must have (commerce.domain). */
const phoneKey = (phone: string) => phone.replace(/[\s.\-/()]/g, '').replace(/^00/, '+');
const INTERNATIONAL_PHONE = /^\+[1-9]\d{6,14}$/;

/** What the block's records are made in: the shop's dataset, and the refs of its products and variants. */
type Shop = kit.Maker<CommerceDataset> & { readonly products: RefTable; readonly variants: RefTable };

/**
 * The stock of a variant by location: a number is the first location's, an object names locations by
 * id, name or city; the others hold none.
 */
function stockOf(
  shop: Shop,
  given: number | Readonly<Record<string, number>> | null | undefined,
  at: PathPart[],
): Record<string, number> {
  const { data } = shop;
  const stock: Record<string, number> = Object.fromEntries(data.locations.map((l) => [l.id, 0]));
  if (typeof given === 'number') {
    const first = data.locations[0];
    if (first) stock[first.id] = given;
  } else if (given) {
    for (const [where, units] of Object.entries(given)) {
      const key = where.toLowerCase();
      const location = data.locations.find(
        (l) => l.id === where || l.name.toLowerCase() === key || l.address.city?.toLowerCase() === key,
      );
      if (!location) {
        const names = data.locations.map((l) => `${l.name} (${l.address.city})`).join(', ');
        shop.unknown([...at, 'stock', where], `'${where}' is not a location of the shop: ${names}`);
      }
      stock[location.id] = units;
    }
  }
  return stock;
}

function commerceProduct(
  shop: Shop,
  record: z.output<typeof CommerceProductFixture>,
  path: PathPart[],
): string {
  const { context, data, failAt } = shop;
  const now = context.now();
  const productId = shop.freshId(record.id, path, data.products, 'product');
  shop.products.declare(record.ref, productId, path);
  // The shop's standard rate by default (the first of its list: 21 % in Belgium, 19 % in Germany).
  const rate = record.tax_rate ?? data.tax_rates[0]?.rate ?? 21;
  const tax = taxOfRate(data.tax_rates, rate);
  if (!tax) {
    failAt(
      [...path, 'tax_rate'],
      `${rate}% is not a tax rate of the shop (${[...new Set(data.tax_rates.map((t) => t.rate))].join(', ')})`,
    );
  }
  const categories = (record.categories ?? []).map((value, index) => {
    const found = kit.byIdOrName(data.categories, value, shop.alias);
    if (!found) {
      const names = data.categories.map((c) => c.name).join(', ');
      shop.unknown([...path, 'categories', index], `'${value}' is not a category of the shop: ${names}`);
    }
    return found.id;
  });
  if (record.variants && (record.price !== undefined || record.stock !== undefined)) {
    context.fail(
      path,
      'Give price and stock per variant',
      'A product with variants takes price and stock in each',
    );
  }
  if (!record.variants && record.price === undefined) {
    context.fail([...path, 'price'], 'Validation error', 'Field required (or give variants)', 422);
  }
  const specs = record.variants ?? [{ price: record.price ?? 0, stock: record.stock, sku: record.sku }];
  const status = record.status ?? 'published';
  const skus = new Set(
    Object.values(data.products).flatMap((p) => p.variants.map((v) => v.sku?.toLowerCase()).filter(Boolean)),
  );
  const variants: CommerceVariant[] = specs.map((spec, index) => {
    const at = record.variants ? [...path, 'variants', index] : path;
    const variantId = record.variants
      ? context.idFor((spec as { id?: string }).id, at)
      : uuidFrom('fixture-variant', productId, 0);
    if (own(data.variant_index, variantId)) kit.assertFree(context, true, variantId, 'variant', at);
    shop.variants.declare((spec as { ref?: string }).ref, variantId, at);
    const sku = spec.sku ?? null;
    if (sku !== null) {
      if (skus.has(sku.toLowerCase())) {
        failAt([...at, 'sku'], `The sku '${sku}' is the sku of another variant of the shop`);
      }
      skus.add(sku.toLowerCase());
    }
    const attributes = Object.entries((spec as { attributes?: Record<string, string> }).attributes ?? {});
    const name =
      (spec as { name?: string }).name ??
      (attributes.length ? `${record.name} - ${attributes.map(([, v]) => v).join(' / ')}` : record.name);
    const stock = stockOf(shop, spec.stock, at);
    return {
      id: variantId,
      source_ref: { id: `F${productId.slice(0, 8)}-${index + 1}`, model: 'product_variant' },
      parent_id: productId,
      name,
      description: null,
      description_html: null,
      created_on: now,
      sku,
      taxable: true,
      barcode: null,
      prices: data.currencies.map((currency) => ({
        currency,
        price: currency === 'GBP' ? round2(spec.price * GBP_PER_EUR) : round2(spec.price),
      })),
      unit_cost: null,
      unit_of_measure: 'unit',
      weight: 0,
      weight_unit: 'kg',
      status,
      variant_attributes: attributes.map(([attribute, value]) => ({ name: attribute, value })),
      variant_images: [],
      stock,
    };
  });
  const options = new Map<string, string[]>();
  for (const variant of variants) {
    for (const { name, value } of variant.variant_attributes) {
      const values = options.get(name) ?? [];
      if (!values.includes(value)) values.push(value);
      options.set(name, values);
    }
  }
  const product: CommerceProduct = {
    id: productId,
    source_ref: { id: `F${productId.slice(0, 8)}`, model: 'product' },
    name: record.name,
    description: record.description ?? null,
    description_html: null,
    categories,
    created_on: now,
    last_updated_on: now,
    variants,
    status,
    sku: record.variants ? (record.sku ?? null) : (variants[0]?.sku ?? null),
    common_attributes: [],
    variant_attributes_options: [...options].map(([name, values]) => ({ name, values })),
    common_images: [],
    tax_id: (tax as { id: string }).id,
  };
  data.products[productId] = product;
  for (const variant of variants) data.variant_index[variant.id] = productId;
  return productId;
}

function commerceCustomer(
  shop: Shop,
  record: z.output<typeof CommerceCustomerFixture>,
  path: PathPart[],
): string {
  const { context, data } = shop;
  const id = shop.freshId(record.id, path, data.customers, 'customer');
  const email = record.email.trim();
  const owner = Object.values(data.customers).find((c) => c.email?.toLowerCase() === email.toLowerCase());
  if (owner) {
    ruleError(
      verticalFailure(
        `The e-mail '${email}' is the e-mail of the customer ${owner.id}: an order names its customer by it`,
      ),
      record,
      path,
      context.file,
    );
  }
  const phone = record.phone?.trim() ? record.phone : null;
  if (phone !== null) {
    const key = phoneKey(phone);
    if (!INTERNATIONAL_PHONE.test(key)) {
      ruleError(
        serviceError('phoneInvalid', `phone '${phone}' does not begin with a country code`),
        record,
        path,
        context.file,
      );
    }
    const other = Object.values(data.customers).find((c) => c.phone && phoneKey(c.phone) === key);
    if (other) {
      ruleError(
        serviceError('phoneAlreadyUsed', `phone '${phone}' is the phone of ${other.id}`),
        record,
        path,
        context.file,
      );
    }
  }
  if (record.country !== undefined && !isCountryCode(record.country)) {
    ruleError(
      verticalFailure(`country '${record.country}' is not a valid country code`),
      record,
      path,
      context.file,
    );
  }
  const customer: CommerceCustomer = {
    id,
    source_ref: { id: `F${id.slice(0, 8)}`, model: 'customer' },
    first_name: record.first_name,
    last_name: record.last_name,
    phone,
    email,
    language: record.language ?? null,
    internal_notes: record.internal_notes ?? null,
    currency: record.currency ?? data.currencies[0] ?? null,
    addresses:
      record.country === undefined
        ? []
        : [
            {
              address_type: 'main',
              company_name: null,
              first_name: record.first_name,
              last_name: record.last_name,
              street: record.street ?? null,
              number: record.number ?? null,
              box: null,
              city: record.city ?? null,
              postal_code: record.postal_code ?? null,
              country: record.country.toUpperCase(),
              phone,
              email,
              vat: null,
            },
          ],
    created_on: context.now(),
  };
  data.customers[id] = customer;
  return id;
}

/** The eCommerce block of a connection in the fixture document. */
export const commerceFixtures = kit.verticalFixtures(CommerceFixture, (scope) => {
  const { context, connection } = scope;
  const data = commerceDatasetOf(context.store, connection);
  // Categories by their names in the shop's language, or as the Belgian shop names them.
  const shop: Shop = {
    ...kit.makerOf(scope, data, shopNames(shopOf(scope.integration.integrationid)).alias),
    products: new RefTable(context),
    variants: new RefTable(context),
  };
  /** A variant by ref or id, a product of one variant by ref or id, or a sku. */
  const variantOf = (value: string) => {
    const variant = shop.variants.get(value);
    if (variant) return variant;
    const productId = shop.products.get(value) ?? (own(data.products, value) ? value : undefined);
    const product = productId ? own(data.products, productId) : undefined;
    if (product && product.variants.length === 1) return product.variants[0]?.id ?? value;
    if (own(data.variant_index, value)) return value;
    const sku = value.toLowerCase();
    for (const candidate of Object.values(data.products)) {
      const found = candidate.variants.find((v) => v.sku?.toLowerCase() === sku);
      if (found) return found.id;
    }
    return value;
  };
  return {
    products: [null, (record, path) => commerceProduct(shop, record, path)],
    customers: [null, (record, path) => commerceCustomer(shop, record, path)],
    orders: [
      'ecommerce_create_order',
      (record, path) => {
        const { id, body } = shop.newRecord(record, path, data.orders, 'order');
        const input = {
          ...body,
          lines: body.lines.map((line) => ({ ...line, variant_id: variantOf(line.variant_id) })),
        };
        const mint = (kind: string) => () => context.services.ids.next(kind);
        return context.at(path, input, () => {
          const { order } = createOrder(
            data,
            input,
            {
              order: () => id,
              customer: mint('commerce-customer'),
              line: mint('commerce-line'),
              fee: mint('commerce-fee'),
              transaction: mint('commerce-transaction'),
            },
            context.now(),
          );
          return order.id;
        });
      },
    ],
  };
});
