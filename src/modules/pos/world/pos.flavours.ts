import { COUNTRY_TRAITS, type Country, type CountryTraits } from '../../../platform/countries.js';
import type { PosModeValue } from '../model/pos.records.js';

/**
 * What a point of sale sells and how, by kind (a restaurant, a shop): its taxes, categories,
 * accounting categories, modifiers, products and payment methods, and how each country's tills name
 * and charge them.
 */

export interface CatalogueEntry {
  name: string;
  category: string;
  price: number;
  tax: string;
  /** Second price when taken away (restaurant food), at the takeaway rate. */
  takeaway?: string;
  accounting: string;
  modifiers?: string[];
  line?: 'product' | 'service';
}

export interface Flavour {
  taxes: { key: string; label: string; rate: number; code: string }[];
  categories: { key: string; name: string; description: string; parent?: string }[];
  accounting: { key: string; name: string; code: string; account: string }[];
  modifiers: { key: string; name: string; options: [string, number][] }[];
  products: CatalogueEntry[];
  payments: { name: string; extra: string | null; weight: number; tips: boolean }[];
  locationNames: [string, string];
  modes: { value: PosModeValue; weight: number }[];
  ordersPerDay: [number, number];
  devices: string[];
}

export const RESTAURANT: Flavour = {
  taxes: [
    { key: 'v21', label: 'VAT 21%', rate: 21, code: 'VAT21' },
    { key: 'v12', label: 'VAT 12%', rate: 12, code: 'VAT12' },
    { key: 'v6', label: 'VAT 6%', rate: 6, code: 'VAT6' },
    { key: 'v0', label: 'VAT 0%', rate: 0, code: 'VAT0' },
  ],
  categories: [
    { key: 'food', name: 'Food', description: 'Everything from the kitchen' },
    { key: 'drinks', name: 'Drinks', description: 'Everything from the bar' },
    { key: 'starters', name: 'Starters', description: 'To begin with', parent: 'food' },
    { key: 'mains', name: 'Main courses', description: 'Meat, fish and vegetarian dishes', parent: 'food' },
    { key: 'pizzas', name: 'Pizzas', description: 'Wood-fired pizzas', parent: 'food' },
    { key: 'desserts', name: 'Desserts', description: 'Homemade desserts', parent: 'food' },
    { key: 'softs', name: 'Soft drinks', description: 'Sodas, juices and water', parent: 'drinks' },
    { key: 'beers', name: 'Beers', description: 'Belgian beers on tap and in bottles', parent: 'drinks' },
    { key: 'wines', name: 'Wines', description: 'By the glass or the bottle', parent: 'drinks' },
    { key: 'hot', name: 'Hot drinks', description: 'Coffee and tea', parent: 'drinks' },
  ],
  accounting: [
    { key: 'food', name: 'Food', code: 'FOOD', account: '700100' },
    { key: 'beverages', name: 'Beverages', code: 'BEV', account: '700200' },
    { key: 'alcohol', name: 'Alcoholic beverages', code: 'ALC', account: '700300' },
    { key: 'services', name: 'Services', code: 'SRV', account: '700900' },
  ],
  modifiers: [
    {
      key: 'cooking',
      name: 'Cooking',
      options: [
        ['Rare', 0],
        ['Medium', 0],
        ['Well done', 0],
      ],
    },
    {
      key: 'extras',
      name: 'Extras',
      options: [
        ['Extra cheese', 1.5],
        ['Bacon', 2],
        ['Avocado', 2.5],
      ],
    },
    {
      key: 'sauces',
      name: 'Sauces',
      options: [
        ['Ketchup', 0],
        ['Mayonnaise', 0.5],
        ['Béarnaise', 1.8],
      ],
    },
  ],
  products: [
    { name: 'Tomato soup', category: 'starters', price: 6.5, tax: 'v12', takeaway: 'v6', accounting: 'food' },
    {
      name: 'Shrimp croquettes',
      category: 'starters',
      price: 13.5,
      tax: 'v12',
      takeaway: 'v6',
      accounting: 'food',
    },
    {
      name: 'Caesar salad',
      category: 'starters',
      price: 11,
      tax: 'v12',
      takeaway: 'v6',
      accounting: 'food',
      modifiers: ['extras'],
    },
    {
      name: 'Steak frites',
      category: 'mains',
      price: 24.5,
      tax: 'v12',
      takeaway: 'v6',
      accounting: 'food',
      modifiers: ['cooking', 'sauces'],
    },
    { name: 'Vol-au-vent', category: 'mains', price: 19.5, tax: 'v12', takeaway: 'v6', accounting: 'food' },
    {
      name: 'Mussels and fries',
      category: 'mains',
      price: 26,
      tax: 'v12',
      takeaway: 'v6',
      accounting: 'food',
      modifiers: ['sauces'],
    },
    {
      name: 'Cheeseburger',
      category: 'mains',
      price: 17.5,
      tax: 'v12',
      takeaway: 'v6',
      accounting: 'food',
      modifiers: ['cooking', 'extras', 'sauces'],
    },
    {
      name: 'Vegetable lasagna',
      category: 'mains',
      price: 16,
      tax: 'v12',
      takeaway: 'v6',
      accounting: 'food',
    },
    {
      name: 'Pizza margherita',
      category: 'pizzas',
      price: 12.5,
      tax: 'v12',
      takeaway: 'v6',
      accounting: 'food',
      modifiers: ['extras'],
    },
    {
      name: 'Pizza quattro formaggi',
      category: 'pizzas',
      price: 15,
      tax: 'v12',
      takeaway: 'v6',
      accounting: 'food',
      modifiers: ['extras'],
    },
    {
      name: 'Pizza diavola',
      category: 'pizzas',
      price: 14.5,
      tax: 'v12',
      takeaway: 'v6',
      accounting: 'food',
      modifiers: ['extras'],
    },
    {
      name: 'Chocolate mousse',
      category: 'desserts',
      price: 7.5,
      tax: 'v12',
      takeaway: 'v6',
      accounting: 'food',
    },
    {
      name: 'Dame blanche',
      category: 'desserts',
      price: 8.5,
      tax: 'v12',
      takeaway: 'v6',
      accounting: 'food',
    },
    {
      name: 'Belgian waffle',
      category: 'desserts',
      price: 6,
      tax: 'v12',
      takeaway: 'v6',
      accounting: 'food',
    },
    { name: 'Sparkling water', category: 'softs', price: 3.2, tax: 'v21', accounting: 'beverages' },
    { name: 'Cola', category: 'softs', price: 3.4, tax: 'v21', accounting: 'beverages' },
    { name: 'Fresh orange juice', category: 'softs', price: 4.8, tax: 'v21', accounting: 'beverages' },
    { name: 'Pils 25cl', category: 'beers', price: 3.3, tax: 'v21', accounting: 'alcohol' },
    { name: 'Abbey beer 33cl', category: 'beers', price: 5.2, tax: 'v21', accounting: 'alcohol' },
    { name: 'House red wine (glass)', category: 'wines', price: 6.5, tax: 'v21', accounting: 'alcohol' },
    { name: 'House white wine (glass)', category: 'wines', price: 6.5, tax: 'v21', accounting: 'alcohol' },
    { name: 'Espresso', category: 'hot', price: 2.8, tax: 'v21', accounting: 'beverages' },
    { name: 'Cappuccino', category: 'hot', price: 3.9, tax: 'v21', accounting: 'beverages' },
    { name: 'Tea', category: 'hot', price: 3.2, tax: 'v21', accounting: 'beverages' },
    {
      name: 'Delivery fee',
      category: 'food',
      price: 2.48,
      tax: 'v21',
      accounting: 'services',
      line: 'service',
    },
  ],
  payments: [
    { name: 'Cash', extra: 'Espèces', weight: 20, tips: false },
    { name: 'Bancontact', extra: 'Carte de débit', weight: 35, tips: true },
    { name: 'Visa / Mastercard', extra: 'Carte de crédit', weight: 25, tips: true },
    { name: 'Meal vouchers', extra: 'Titres-repas', weight: 10, tips: false },
    { name: 'Payconiq', extra: null, weight: 10, tips: false },
  ],
  locationNames: ['Centre', 'Gare'],
  modes: [
    { value: 'EAT_IN', weight: 60 },
    { value: 'TAKEAWAY', weight: 25 },
    { value: 'DELIVERY', weight: 15 },
  ],
  ordersPerDay: [2, 5],
  devices: ['till-1', 'till-2', 'kiosk-1'],
};

export const SHOP: Flavour = {
  taxes: [
    { key: 'v21', label: 'VAT 21%', rate: 21, code: 'VAT21' },
    { key: 'v6', label: 'VAT 6%', rate: 6, code: 'VAT6' },
    { key: 'v0', label: 'VAT 0%', rate: 0, code: 'VAT0' },
  ],
  categories: [
    { key: 'clothing', name: 'Clothing', description: 'Clothes for everyone' },
    { key: 'accessories', name: 'Accessories', description: 'Bags, belts and jewellery' },
    { key: 'books', name: 'Books', description: 'Books and magazines' },
    { key: 'tops', name: 'Tops', description: 'T-shirts, shirts and sweaters', parent: 'clothing' },
    { key: 'trousers', name: 'Trousers', description: 'Jeans and chinos', parent: 'clothing' },
    { key: 'bags', name: 'Bags', description: 'Totes and backpacks', parent: 'accessories' },
    { key: 'jewellery', name: 'Jewellery', description: 'Rings and necklaces', parent: 'accessories' },
  ],
  accounting: [
    { key: 'goods', name: 'Goods', code: 'GDS', account: '700000' },
    { key: 'books', name: 'Books', code: 'BKS', account: '700600' },
    { key: 'services', name: 'Services', code: 'SRV', account: '700900' },
  ],
  modifiers: [
    {
      key: 'wrap',
      name: 'Gift wrapping',
      options: [
        ['Standard wrapping', 0],
        ['Premium wrapping', 3.5],
      ],
    },
    { key: 'engraving', name: 'Engraving', options: [['Engraving (up to 20 characters)', 12]] },
  ],
  products: [
    {
      name: 'Organic cotton T-shirt',
      category: 'tops',
      price: 24.79,
      tax: 'v21',
      accounting: 'goods',
      modifiers: ['wrap'],
    },
    {
      name: 'Linen shirt',
      category: 'tops',
      price: 49.59,
      tax: 'v21',
      accounting: 'goods',
      modifiers: ['wrap'],
    },
    {
      name: 'Merino sweater',
      category: 'tops',
      price: 74.38,
      tax: 'v21',
      accounting: 'goods',
      modifiers: ['wrap'],
    },
    { name: 'Slim jeans', category: 'trousers', price: 66.12, tax: 'v21', accounting: 'goods' },
    { name: 'Chino trousers', category: 'trousers', price: 57.85, tax: 'v21', accounting: 'goods' },
    {
      name: 'Canvas tote bag',
      category: 'bags',
      price: 20.66,
      tax: 'v21',
      accounting: 'goods',
      modifiers: ['wrap'],
    },
    {
      name: 'Leather backpack',
      category: 'bags',
      price: 123.97,
      tax: 'v21',
      accounting: 'goods',
      modifiers: ['wrap', 'engraving'],
    },
    {
      name: 'Silver ring',
      category: 'jewellery',
      price: 41.32,
      tax: 'v21',
      accounting: 'goods',
      modifiers: ['wrap', 'engraving'],
    },
    {
      name: 'Gold-plated necklace',
      category: 'jewellery',
      price: 57.85,
      tax: 'v21',
      accounting: 'goods',
      modifiers: ['wrap', 'engraving'],
    },
    { name: 'City guide: Brussels', category: 'books', price: 18.4, tax: 'v6', accounting: 'books' },
    { name: 'Cookbook: Belgian classics', category: 'books', price: 27.36, tax: 'v6', accounting: 'books' },
    {
      name: 'Alteration service',
      category: 'clothing',
      price: 12.4,
      tax: 'v21',
      accounting: 'services',
      line: 'service',
    },
  ],
  payments: [
    { name: 'Cash', extra: 'Espèces', weight: 15, tips: false },
    { name: 'Bancontact', extra: 'Carte de débit', weight: 45, tips: false },
    { name: 'Visa / Mastercard', extra: 'Carte de crédit', weight: 30, tips: false },
    { name: 'Gift card', extra: 'Carte cadeau', weight: 10, tips: false },
  ],
  locationNames: ['Flagship store', 'Outlet'],
  modes: [
    { value: 'TAKEAWAY', weight: 85 },
    { value: 'DELIVERY', weight: 15 },
  ],
  ordersPerDay: [2, 4],
  devices: ['till-1', 'till-2'],
};

/** The time zone of a point of sale in each country. */
export const TIME_ZONES: Readonly<Record<Country, string>> = {
  BE: 'Europe/Brussels',
  FR: 'Europe/Paris',
  NL: 'Europe/Amsterdam',
  DE: 'Europe/Berlin',
  ES: 'Europe/Madrid',
};

/** The word for VAT on a tax's label, in the country's language. */
const VAT_WORDS: Readonly<Record<Country, string>> = {
  BE: 'VAT',
  FR: 'TVA',
  NL: 'BTW',
  DE: 'MwSt',
  ES: 'IVA',
};

/**
 * The rate of each of a flavour's taxes in a country: the standard rate (v21), food served on the
 * premises (v12), food taken away and reduced goods (v6), none (v0).
 */
function countryRate(traits: CountryTraits, key: string): number {
  if (key === 'v12') return traits.foodRates.onSite;
  if (key === 'v6') return traits.foodRates.takeAway;
  if (key === 'v0') return 0;
  return traits.vatRates[0] as number;
}

/** A flavour's taxes as a point of sale of `country` charges them (Belgium: as drawn). */
export function taxesIn(flavour: Flavour, country: Country): Flavour['taxes'] {
  if (country === 'BE') return flavour.taxes;
  const traits = COUNTRY_TRAITS[country];
  return flavour.taxes.map((tax) => {
    const rate = countryRate(traits, tax.key);
    return {
      ...tax,
      label: `${VAT_WORDS[country]} ${rate}%`,
      rate,
      code: `VAT${String(rate).replace('.', '_')}`,
    };
  });
}

/**
 * The payment methods a till of a country takes in place of the Belgian ones (a debit card, an app,
 * meal vouchers), and the names it gives cash and gift cards; credit cards are the same everywhere.
 * Only names change: a method keeps its place, weight and tips, so the draws are the same in every
 * country.
 */
const LOCAL_PAYMENTS: Readonly<
  Record<Country, Readonly<Record<string, { name: string; extra: string | null }>>>
> = {
  BE: {},
  FR: {
    Cash: { name: 'Espèces', extra: null },
    'Gift card': { name: 'Carte cadeau', extra: null },
    Bancontact: { name: 'CB', extra: 'Carte bancaire' },
    'Meal vouchers': { name: 'Titres-restaurant', extra: 'Ticket Restaurant' },
    Payconiq: { name: 'Lydia', extra: null },
  },
  NL: {
    Cash: { name: 'Contant', extra: null },
    'Gift card': { name: 'Cadeaukaart', extra: null },
    Bancontact: { name: 'PIN', extra: 'Pinpas' },
    'Meal vouchers': { name: 'Cadeaubon', extra: null },
    Payconiq: { name: 'iDEAL QR', extra: null },
  },
  DE: {
    Cash: { name: 'Bar', extra: null },
    'Gift card': { name: 'Geschenkkarte', extra: null },
    Bancontact: { name: 'girocard', extra: 'EC-Karte' },
    'Meal vouchers': { name: 'Essensgutscheine', extra: null },
    Payconiq: { name: 'PayPal', extra: null },
  },
  ES: {
    Cash: { name: 'Efectivo', extra: null },
    'Gift card': { name: 'Tarjeta regalo', extra: null },
    Bancontact: { name: 'Tarjeta de débito', extra: null },
    'Meal vouchers': { name: 'Ticket Restaurant', extra: 'Cheque gourmet' },
    Payconiq: { name: 'Bizum', extra: null },
  },
};

/** The name a till of `country` gives a payment method a Belgian till names `drawn` (any case). */
export function localPaymentName(country: Country, drawn: string): string | undefined {
  const lowered = drawn.toLowerCase();
  return Object.entries(LOCAL_PAYMENTS[country]).find(([name]) => name.toLowerCase() === lowered)?.[1].name;
}

/** A flavour's payment methods as a till of `country` names them (Belgium: as drawn). */
export function paymentsIn(flavour: Flavour, country: Country): Flavour['payments'] {
  const local = LOCAL_PAYMENTS[country];
  return flavour.payments.map((method) => ({ ...method, ...(local[method.name] ?? {}) }));
}
