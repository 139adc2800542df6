import { COUNTRY_TRAITS, type Country } from '../../../platform/countries.js';
import type { LocalNames } from '../../../platform/local-names.js';
import type { Faker } from '../../../platform/seeding/fakers.js';
import {
  addMonths,
  type connectionIds,
  emailOf,
  monthEnd,
  phoneOf,
  pick,
} from '../../../platform/seeding/vertical-data.js';
import type {
  PosAccountingCategory,
  PosCustomer,
  PosModifierGroup,
  PosPaymentMethod,
  PosProduct,
  PosProductCategory,
  PosTaxRate,
} from '../model/pos.records.js';
import { type Flavour, paymentsIn, taxesIn } from './pos.flavours.js';

/**
 * The catalogue and the customers of a seeded Point of Sale connection (see pos.seed): its taxes,
 * accounting categories, product categories, modifiers, products and payment methods as its country's
 * till names them, and its customers.
 */

/** What the catalogue is drawn from: the connection's faker, flavour, country, names and ids. */
export interface CatalogueInput {
  faker: Faker;
  flavour: Flavour;
  country: Country;
  names: LocalNames;
  id: ReturnType<typeof connectionIds>;
  /** The ids of the locations. */
  allLocations: string[];
  /** What only the first location sells or takes. */
  firstOnly: string[];
}

/** The catalogue of a connection, drawn in this order from its faker. */
export function seedCatalogue({
  faker,
  flavour,
  country,
  names,
  id,
  allLocations,
  firstOnly,
}: CatalogueInput) {
  const countryTaxes = taxesIn(flavour, country);
  const taxes: PosTaxRate[] = countryTaxes.map((t) => ({
    id: id('tax', t.key),
    label: t.label,
    rate: t.rate,
    tax_code: t.code,
  }));
  const taxByKey = new Map(countryTaxes.map((t, i) => [t.key, taxes[i] as PosTaxRate]));

  const accounting: PosAccountingCategory[] = flavour.accounting.map((a) => ({
    id: id('accounting-category', a.key),
    name: names(a.name),
    code: a.code,
    ledger_account_code: a.account,
    posting_account_code: a.account.replace(/^70/, '74'),
    location_ids: allLocations,
  }));
  const accountingByKey = new Map(
    flavour.accounting.map((a, i) => [a.key, accounting[i] as PosAccountingCategory]),
  );

  const categories: PosProductCategory[] = flavour.categories.map((cat) => ({
    id: id('category', cat.key),
    name: names(cat.name),
    description: names(cat.description),
    id_parent: cat.parent ? id('category', cat.parent) : null,
    location_ids: allLocations,
  }));

  const modifiers: PosModifierGroup[] = flavour.modifiers.map((group) => ({
    id: id('modifier-group', group.key),
    name: names(group.name),
    options: group.options.map(([name, price], index) => ({
      id: id('modifier', group.key, index),
      name: names(name),
      price,
    })),
    location_ids: allLocations,
  }));
  const modifierByKey = new Map(flavour.modifiers.map((m, i) => [m.key, modifiers[i] as PosModifierGroup]));

  const products: PosProduct[] = flavour.products.map((entry, index) => {
    const tax = taxByKey.get(entry.tax) as PosTaxRate;
    const takeaway = entry.takeaway ? (taxByKey.get(entry.takeaway) as PosTaxRate) : null;
    const category = flavour.categories.find((c) => c.key === entry.category);
    return {
      id: id('product', index),
      categories: [
        id('category', entry.category),
        ...(category?.parent ? [id('category', category.parent)] : []),
      ],
      name: names(entry.name),
      description: faker.datatype.boolean(0.6)
        ? `${names(entry.name)}, ${names.adjective(faker.commerce.productAdjective())}`
        : null,
      prices: [
        { unit_price: entry.price, tax_rate: tax.rate },
        ...(takeaway ? [{ unit_price: entry.price, tax_rate: takeaway.rate }] : []),
      ],
      modifier_groups_ids: (entry.modifiers ?? []).map((key) => modifierByKey.get(key)?.id as string),
      accounting_category_ids: [accountingByKey.get(entry.accounting)?.id as string],
      location_ids: index % 7 === 3 ? firstOnly : allLocations,
      tax_id: tax.id,
      line_type: entry.line ?? 'product',
    };
  });

  const paymentMethods: PosPaymentMethod[] = paymentsIn(flavour, country).map((method, index) => ({
    id: id('payment-method', index),
    name: method.name,
    extra: method.extra,
    location_ids: index === flavour.payments.length - 1 ? firstOnly : allLocations,
  }));
  return { taxes, accounting, categories, modifiers, products, paymentMethods };
}

/** The customers of a connection, drawn in this order from its faker. */
export function drawCustomers({
  faker,
  country,
  names,
  id,
  firstDay,
  lastJoined,
  until,
}: Pick<CatalogueInput, 'faker' | 'country' | 'names' | 'id'> & {
  /** The first day of the history, the last month a customer joins in, and `until`. */
  firstDay: string;
  lastJoined: string;
  until: string;
}) {
  const CITIES = COUNTRY_TRAITS[country].places;
  const customers: Record<string, PosCustomer> = {};
  const customerIds: string[] = [];
  for (let i = 0; i < 30; i++) {
    const first = faker.person.firstName();
    const last = faker.person.lastName();
    const place = pick(faker, CITIES);
    const customer: PosCustomer = {
      id: id('customer', i),
      first_name: first,
      last_name: last,
      name: `${first} ${last}`,
      phone: faker.datatype.boolean(0.8) ? phoneOf(faker, COUNTRY_TRAITS[country]) : null,
      email: faker.datatype.boolean(0.85) ? emailOf(faker, first, last, COUNTRY_TRAITS[country]) : null,
      // Customers since half a year before the history, the last ones a fortnight before the recent window.
      created_on: faker.date
        .between({
          from: `${addMonths(firstDay, -6)}T00:00:00Z`,
          to: `${monthEnd(lastJoined)}T00:00:00Z`,
        })
        .toISOString(),
      addresses: faker.datatype.boolean(0.6)
        ? [
            {
              address_type: 'home',
              name: names('Home'),
              street: faker.location.street(),
              number: faker.location.buildingNumber(),
              box: faker.datatype.boolean(0.2) ? faker.string.alpha({ length: 1, casing: 'upper' }) : null,
              city: place.city,
              postal_code: place.postal_code,
              country,
            },
          ]
        : [],
      loyalty: faker.number.int({ min: 0, max: 450 }),
      birthdate: faker.datatype.boolean(0.4)
        ? faker.date
            .birthdate({
              min: 18,
              max: 80,
              mode: 'age',
              refDate: `${Number(until.slice(0, 4)) - 1}-01-01T00:00:00Z`,
            })
            .toISOString()
            .slice(0, 10)
        : null,
    };
    customers[customer.id] = customer;
    customerIds.push(customer.id);
  }
  return { customers, customerIds };
}
