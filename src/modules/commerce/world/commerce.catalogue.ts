import type { LocalNames } from '../../../platform/local-names.js';
import type { Faker } from '../../../platform/seeding/fakers.js';
import {
  addDays,
  addMonths,
  type connectionIds,
  type nativeRefs,
  pad,
  pick,
  round2,
} from '../../../platform/seeding/vertical-data.js';
import type {
  CommerceCategory,
  CommerceLocation,
  CommercePaymentMethod,
  CommerceProduct,
  CommerceTaxRate,
  CommerceVariant,
} from '../model/commerce.records.js';
import { numberIn, type ShopProfile, shopPhone, streetIn } from './commerce.countries.js';

/**
 * The catalogue of a seeded eCommerce connection: its two stock locations, its taxes, categories
 * and payment methods, and its products with their variants, prices and stock (see commerce.seed).
 */

/** Units of GBP for one EUR, for the shop's second price list. */
export const GBP_PER_EUR = 0.86;
const CATEGORIES: { key: string; name: string; parent?: string }[] = [
  { key: 'home', name: 'Home decor' },
  { key: 'kitchen', name: 'Kitchen' },
  { key: 'books', name: 'Books' },
  { key: 'candles', name: 'Candles', parent: 'home' },
  { key: 'textiles', name: 'Cushions and throws', parent: 'home' },
  { key: 'tableware', name: 'Tableware', parent: 'kitchen' },
  { key: 'coffee', name: 'Tea and coffee', parent: 'kitchen' },
];

interface ProductSpec {
  name: string;
  category: string;
  price: number;
  /** The shop's standard or reduced rate (21 or 6 % in Belgium, 19 or 7 % in Germany). */
  tax: 'standard' | 'reduced';
  attribute?: { name: string; values: string[] };
  status?: 'published' | 'archived' | 'unpublished';
  weight: number;
}

const PRODUCTS: ProductSpec[] = [
  {
    name: 'Scented candle',
    category: 'candles',
    price: 16.5,
    tax: 'standard',
    attribute: { name: 'Scent', values: ['Fig', 'Cedar', 'Vanilla'] },
    weight: 0.4,
  },
  { name: 'Beeswax taper candles (set of 4)', category: 'candles', price: 12, tax: 'standard', weight: 0.3 },
  {
    name: 'Linen cushion cover',
    category: 'textiles',
    price: 29,
    tax: 'standard',
    attribute: { name: 'Color', values: ['Sand', 'Sage', 'Terracotta', 'Charcoal'] },
    weight: 0.3,
  },
  {
    name: 'Wool throw',
    category: 'textiles',
    price: 89,
    tax: 'standard',
    attribute: { name: 'Color', values: ['Oat', 'Forest'] },
    weight: 1.2,
  },
  {
    name: 'Stoneware mug',
    category: 'tableware',
    price: 14,
    tax: 'standard',
    attribute: { name: 'Color', values: ['White', 'Blue', 'Speckled'] },
    weight: 0.35,
  },
  {
    name: 'Dinner plate',
    category: 'tableware',
    price: 19.5,
    tax: 'standard',
    attribute: { name: 'Size', values: ['24 cm', '27 cm'] },
    weight: 0.6,
  },
  { name: 'Glass carafe', category: 'tableware', price: 32, tax: 'standard', weight: 0.8 },
  { name: 'Pour-over coffee set', category: 'coffee', price: 45, tax: 'standard', weight: 1.1 },
  {
    name: 'Loose-leaf tea',
    category: 'coffee',
    price: 9.9,
    tax: 'reduced',
    attribute: { name: 'Blend', values: ['Earl Grey', 'Sencha', 'Rooibos'] },
    weight: 0.1,
  },
  {
    name: 'Single-origin coffee beans 250 g',
    category: 'coffee',
    price: 11.5,
    tax: 'reduced',
    attribute: { name: 'Grind', values: ['Whole bean', 'Filter', 'Espresso'] },
    weight: 0.25,
  },
  { name: 'Cookbook: slow Sundays', category: 'books', price: 28, tax: 'reduced', weight: 0.9 },
  { name: 'Guide to Flemish design', category: 'books', price: 35, tax: 'reduced', weight: 1 },
  {
    name: 'Rattan tray',
    category: 'home',
    price: 39,
    tax: 'standard',
    attribute: { name: 'Size', values: ['S', 'M', 'L'] },
    weight: 0.7,
  },
  {
    name: 'Ceramic vase',
    category: 'home',
    price: 42,
    tax: 'standard',
    attribute: { name: 'Color', values: ['Ivory', 'Black'] },
    weight: 1.3,
  },
  { name: 'Olive wood board', category: 'kitchen', price: 36, tax: 'standard', weight: 0.9 },
  {
    name: 'Enamel tea kettle',
    category: 'kitchen',
    price: 54,
    tax: 'standard',
    status: 'archived',
    weight: 1.2,
  },
  {
    name: 'Advent candle 2026',
    category: 'candles',
    price: 18,
    tax: 'standard',
    status: 'unpublished',
    weight: 0.5,
  },
];

/** The blurbs of a category's products, in the shop's country. */
const blurbsOf = (shop: ShopProfile, names: LocalNames): Record<string, string[]> => {
  const blurbs: Record<string, string[]> = {
    candles: ['Hand-poured in small batches with natural wax.', 'Burns clean for hours.'],
    textiles: ['Woven from natural fibres.', 'Soft, sturdy and machine washable.'],
    tableware: ['Dishwasher and microwave safe.', 'Glazed by hand, each piece is unique.'],
    coffee: ['Sourced from small producers.', names.format('Roasted in {} every week.', shop.roastedIn)],
    books: ['Hardcover, illustrated.', 'A favourite of our customers.'],
    home: [names.format('Designed in {}.', shop.designedIn), 'Made from natural materials.'],
    kitchen: ['Built to last a lifetime.', 'Oiled by hand before shipping.'],
  };
  return Object.fromEntries(Object.entries(blurbs).map(([key, texts]) => [key, texts.map((t) => names(t))]));
};

/** What the catalogue is drawn from: the connection's faker, shop, ids and days. */
export interface CatalogueInput {
  faker: Faker;
  shop: ShopProfile;
  names: LocalNames;
  id: ReturnType<typeof connectionIds>;
  ref: ReturnType<typeof nativeRefs>;
  brand: string;
  until: string;
  recentStart: string;
  firstDay: string;
}

/** The catalogue of a connection, drawn in this order from its faker. */
export function seedCatalogue(input: CatalogueInput) {
  const { faker, shop, names, id, ref, brand } = input;
  const locations: CommerceLocation[] = [
    { name: `${brand} warehouse`, ...shop.warehouse },
    { name: `${brand} store ${shop.store.city}`, ...shop.store },
  ].map((spec, index) => ({
    id: id('location', index),
    name: spec.name,
    source_ref: ref('location'),
    address: {
      address_type: 'main',
      company_name: brand,
      first_name: null,
      last_name: null,
      street: streetIn(shop, faker.location.street()),
      number: numberIn(shop, faker.location.buildingNumber()),
      box: null,
      city: spec.city,
      postal_code: spec.postal_code,
      country: shop.country,
      phone: shopPhone(faker, shop),
      email: `logistics@${brand.toLowerCase().replace(/[^a-z]/g, '') || 'shop'}.example`,
      vat: null,
    },
  }));

  const taxes: CommerceTaxRate[] = shop.taxes.map((t) => ({
    id: id('tax', t.key),
    source_ref: ref('tax_rate'),
    label: t.label,
    rate: t.rate,
    country: t.country,
  }));
  // A product's tax: the shop's own standard or reduced rate, the first two of its list.
  const taxOfKind = { standard: taxes[0] as CommerceTaxRate, reduced: taxes[1] as CommerceTaxRate };

  const categories: CommerceCategory[] = CATEGORIES.map((c) => ({
    id: id('category', c.key),
    source_ref: ref('collection'),
    name: names(c.name),
    parent_id: c.parent ? id('category', c.parent) : null,
  }));

  const paymentMethods: CommercePaymentMethod[] = shop.paymentMethods.map((m, index) => ({
    id: id('payment-method', index),
    source_ref: ref('payment_gateway'),
    name: names(m.name),
    active: m.active,
  }));

  const { products, variantIndex } = seedProducts(input, locations, taxOfKind);
  return { locations, taxes, categories, paymentMethods, products, variantIndex };
}

/** The products of the catalogue with their variants, prices and stock at each location. */
function seedProducts(
  input: CatalogueInput,
  locations: CommerceLocation[],
  taxOfKind: Record<ProductSpec['tax'], CommerceTaxRate>,
) {
  const { faker, shop, names, id, ref, brand, until, recentStart, firstDay } = input;
  const products: Record<string, CommerceProduct> = {};
  const variantIndex: Record<string, string> = {};
  const blurbs = blurbsOf(shop, names);
  PRODUCTS.forEach((spec, index) => {
    const productId = id('product', index);
    const name = names(spec.name);
    // In the catalogue since before the first order; last changed in the year before `until`.
    const created = faker.date
      .between({ from: `${addMonths(firstDay, -10)}T00:00:00Z`, to: `${addDays(firstDay, -15)}T00:00:00Z` })
      .toISOString();
    const updated = faker.date
      .between({ from: `${addDays(recentStart, -12)}T00:00:00Z`, to: `${addDays(until, -5)}T00:00:00Z` })
      .toISOString();
    const sku = `${brand.slice(0, 3).toUpperCase()}-${pad(index + 1, 3)}`;
    const values = spec.attribute?.values ?? [null];
    const category = CATEGORIES.find((c) => c.key === spec.category);
    const tax = taxOfKind[spec.tax];
    const status = spec.status ?? 'published';
    const image = (n: number) => `https://cdn.shop.example/${sku.toLowerCase()}/${n}.jpg`;
    const variants: CommerceVariant[] = values.map((value, v) => {
      const variantId = id('variant', index, v);
      variantIndex[variantId] = productId;
      const price = round2(spec.price + (v % 2 === 1 && spec.attribute?.name === 'Size' ? 4 : 0));
      return {
        id: variantId,
        source_ref: ref('product_variant'),
        parent_id: productId,
        name: value ? `${name} - ${names(value)}` : name,
        description: null,
        description_html: null,
        created_on: created,
        sku: value ? `${sku}-${pad(v + 1, 2)}` : sku,
        taxable: true,
        barcode: `${shop.barcodePrefix}${faker.string.numeric(11)}`,
        prices: [
          { currency: 'EUR', price },
          { currency: 'GBP', price: round2(price * GBP_PER_EUR) },
        ],
        unit_cost: { amount: round2(price * faker.number.float({ min: 0.35, max: 0.55 })), currency: 'EUR' },
        unit_of_measure: 'unit',
        weight: spec.weight,
        weight_unit: 'kg',
        status,
        variant_attributes:
          value && spec.attribute ? [{ name: names(spec.attribute.name), value: names(value) }] : [],
        variant_images: value ? [{ id: id('image', index, v), main_image: false, url: image(v + 2) }] : [],
        stock: Object.fromEntries(
          locations.map((l, li) => [
            l.id,
            status === 'archived' ? 0 : faker.number.int({ min: li === 0 ? 0 : 0, max: li === 0 ? 60 : 15 }),
          ]),
        ),
      };
    });
    products[productId] = {
      id: productId,
      source_ref: ref('product'),
      name,
      description: `${name}. ${pick(faker, blurbs[spec.category] ?? blurbs.home ?? [''])}`,
      description_html: null,
      categories: [
        id('category', spec.category),
        ...(category?.parent ? [id('category', category.parent)] : []),
      ],
      created_on: created,
      last_updated_on: updated,
      variants,
      status,
      sku,
      common_attributes: [{ name: names('Brand'), values: [brand] }],
      variant_attributes_options: spec.attribute
        ? [{ name: names(spec.attribute.name), values: spec.attribute.values.map((v) => names(v)) }]
        : [],
      common_images: [{ id: id('image', index, 'main'), main_image: true, url: image(1) }],
      tax_id: tax.id,
    };
  });
  return { products, variantIndex };
}
