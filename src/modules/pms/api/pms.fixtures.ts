import { z } from '@hono/zod-openapi';
import { isCountryCode } from '../../../lib/country-codes.js';
import { uuidFrom } from '../../../lib/ids.js';
import { RefTable } from '../../../platform/fixtures/context.js';
import type { PathPart } from '../../../platform/fixtures/errors.js';
import * as kit from '../../../platform/fixtures/kit.js';
import { round2 } from '../../../platform/seeding/vertical-data.js';
import { Source } from '../../pos/index.js';
import type { PmsDataset, PmsOrderLine } from '../model/pms.records.js';
import { pmsProfileOf } from '../world/pms.countries.js';
import { bookStay, nextStay, stayLine } from '../world/pms.stays.js';
import { pmsDatasetOf } from './pms.domain.js';

/**
 * The Property Management System block of a connection in the fixture document
 * (`connections[].pms`): guests and stays, as the seeder builds them (the API creates none): lines
 * totalled as its lines (the city tax adds no VAT), numbered after the seeded ones, invoiced and paid
 * in full at check-out when the sandbox clock has passed it.
 */

// ---------------------------------------------------------------------------------------------
// The block's schema.

const PmsLineFixture = z
  .object({
    description: z.string().min(1),
    quantity: z.number().positive().default(1),
    unit_price: z.number().min(0).describe('Before taxes'),
    tax: z
      .union([z.string().min(1), z.number()])
      .describe(
        "A tax of the property: its id, label or rate (a Belgian hotel's 6, 12, 21; a French one's 10, 20); the city tax adds no VAT",
      ),
    category: z.string().min(1).describe('An accounting category: its id, name or code (ROOM, BRK...)'),
    discount: z.number().min(0).default(0),
  })
  .strict();

export const PmsOrderFixture = z
  .object({
    id: kit.id(),
    location: z.string().optional().describe('A hotel: its id, name or city (default: the first)'),
    room: z
      .string()
      .optional()
      .describe("A room of the hotel: id, name or number (default: the hotel's first)"),
    customer: z
      .string()
      .min(1)
      .describe('A guest of the property: a ref of this block, an id, account number or e-mail'),
    check_in: kit.instant(),
    check_out: kit
      .instant()
      .describe('After check_in; a stay checked out by the sandbox clock is invoiced and paid'),
    booked: kit.instant().optional().describe('When it was booked (default: check_in), not after check_in'),
    guests: z.number().int().min(1).default(1),
    source: Source.default('UNKNOWN'),
    payment_method: z
      .string()
      .optional()
      .describe("A payment method of the hotel: id or name (default: the hotel's first)"),
    lines: z.array(PmsLineFixture).min(1),
  })
  .strict();

export const PmsGuestFixture = z
  .object({
    id: kit.id(),
    ref: kit.ref(),
    first_name: z.string().min(1).nullable().optional(),
    last_name: z.string().min(1).nullable().optional().describe('A person: required (or company_name)'),
    company_name: z
      .string()
      .min(1)
      .nullable()
      .optional()
      .describe('A company guest: its name, without first_name and last_name'),
    phone: z.string().nullable().optional(),
    email: z
      .string()
      .min(3)
      .nullable()
      .optional()
      .describe("Unique among the property's guests: a stay names its guest by it"),
    account_number: z
      .string()
      .min(1)
      .optional()
      .describe(
        "Unique among the property's guests (default: the next one, 400061... in Belgium, 411061... in France)",
      ),
    country: z.string().optional().describe('ISO 3166-1 alpha-2 country of the address'),
    street: z.string().optional(),
    number: z.string().optional(),
    box: z.string().optional(),
    city: z.string().optional(),
    postal_code: z.string().optional(),
  })
  .strict();

export const PmsFixture = z
  .object({
    customers: kit.list(PmsGuestFixture, "Guests of the property (a stay's customer takes their ref)"),
    orders: kit.list(PmsOrderFixture, 'Stays of the property'),
  })
  .strict();

// ---------------------------------------------------------------------------------------------
// Applying the block.

/** What the block's records are made in: the property's dataset, and the refs of the guests. */
type Pms = kit.Maker<PmsDataset> & { readonly guests: RefTable };

function pmsOrder(pms: Pms, record: z.output<typeof PmsOrderFixture>, path: PathPart[]): string {
  const { context, data, failAt, guests, unknown } = pms;
  const orderId = pms.freshId(record.id, path, data.orders, 'order');
  const location = pms.locationIn(data.locations, record.location, path, 'a hotel of the property');
  const rooms = data.rooms.filter((r) => r.location_id === location.id);
  const room = record.room
    ? (kit.byIdOrName(rooms, record.room) ?? rooms.find((r) => r.identifier === record.room))
    : rooms[0];
  if (!room) {
    return unknown([...path, 'room'], `'${record.room}' is not a room of ${location.name}`);
  }
  const named = guests.resolve(record.customer);
  const wanted = named.toLowerCase();
  const customer = Object.values(data.customers).find(
    (c) => c.id === named || c.account_number === named || c.email?.toLowerCase() === wanted,
  );
  if (!customer) {
    return unknown(
      [...path, 'customer'],
      `'${record.customer}' is not a guest of the property (GET .../pms/customers lists them)`,
    );
  }
  const method = pms.paymentMethodAt(data.payment_methods, location, record.payment_method, path);
  const checkIn = new Date(record.check_in).toISOString();
  const checkOut = new Date(record.check_out).toISOString();
  const booked = record.booked ? new Date(record.booked).toISOString() : checkIn;
  const now = context.now();
  if (checkIn > now) failAt([...path, 'check_in'], `${checkIn} is after the sandbox clock (${now})`);
  if (checkOut <= checkIn) failAt([...path, 'check_out'], `${checkOut} is not after check_in ${checkIn}`);
  if (booked > checkIn) failAt([...path, 'booked'], `${booked} is after check_in ${checkIn}`);

  const { number } = nextStay(data);
  const items: PmsOrderLine[] = record.lines.map((line, index) => {
    const at = [...path, 'lines', index];
    const given = String(line.tax).toLowerCase();
    const tax = data.tax_rates.find(
      (t) =>
        t.id === line.tax ||
        t.label?.toLowerCase() === given ||
        (typeof line.tax === 'number' && !t.is_city_tax && t.rate === line.tax),
    );
    if (!tax) {
      const names = data.tax_rates.map((t) => t.label).join(', ');
      return unknown([...at, 'tax'], `'${line.tax}' is not a tax of the property: ${names}`);
    }
    const key = line.category.toLowerCase();
    const category = data.accounting_categories.find(
      (c) => c.id === line.category || c.name.toLowerCase() === key || c.code?.toLowerCase() === key,
    );
    if (!category) {
      const names = data.accounting_categories.map((c) => `${c.name} (${c.code})`).join(', ');
      return unknown(
        [...at, 'category'],
        `'${line.category}' is not an accounting category of the property: ${names}`,
      );
    }
    if (round2(line.quantity * line.unit_price - line.discount) < 0)
      failAt([...at, 'discount'], `The discount ${line.discount} is more than the line's amount`);
    return stayLine(orderId, number, index, {
      description: line.description,
      quantity: line.quantity,
      unitPrice: line.unit_price,
      tax,
      categoryId: category.id,
      discount: line.discount ? { name: 'Discount', total: line.discount } : null,
    });
  });
  bookStay(data, {
    orderId,
    number,
    locationId: location.id,
    room,
    customerId: customer.id,
    checkIn,
    checkOut,
    booked,
    guests: record.guests,
    lines: items,
    closed: checkOut <= now,
    // Paid in full at check-out, with the stay's payment method.
    payments: (invoiceId, invoiceNumber, total) => [
      {
        id: uuidFrom('pms-payment', invoiceId, 0),
        source_ref: { id: `${invoiceNumber}/1`, model: 'payment' },
        payment_method_id: method.id,
        payment_method_name: method.name,
        total,
        tip: 0,
        status: 'Completed',
        currency: 'EUR',
        date: checkOut,
        invoice_ref: invoiceNumber,
        customer_id: customer.id,
        description: pmsProfileOf(data.integrationid).words.payment(invoiceNumber),
      },
    ],
    source: () => record.source,
  });
  return orderId;
}

/**
 * A guest of the property, as the seeder makes one: a person (a last name) or a company (its name
 * only), with an account number and an e-mail each unique among the guests (a stay names its guest
 * by either), and one address (home for a person, invoice for a company) when a country is given.
 */
function pmsGuest(pms: Pms, record: z.output<typeof PmsGuestFixture>, path: PathPart[]): string {
  const { context, data, failAt } = pms;
  const id = pms.freshId(record.id, path, data.customers, 'guest');
  pms.guests.declare(record.ref, id, path);
  const company = record.company_name ?? null;
  if (company !== null && (record.first_name || record.last_name)) {
    failAt([...path, 'company_name'], 'A company guest has no first_name or last_name');
  }
  if (company === null && !record.last_name) {
    failAt([...path, 'last_name'], 'A guest is a person (a last_name) or a company (a company_name)');
  }
  const existing = Object.values(data.customers);
  const email = record.email?.trim() || null;
  const owner = email && existing.find((c) => c.email?.toLowerCase() === email.toLowerCase());
  if (owner) {
    failAt(
      [...path, 'email'],
      `The e-mail '${email}' is the e-mail of the guest ${owner.id}: a stay names its guest by it`,
    );
  }
  const numbers = existing.map((c) => c.account_number).filter((n): n is string => n !== null);
  // After the guests' accounts of the country's chart (400000 in Belgium, 411000 in France).
  const first = Number(`${pmsProfileOf(data.integrationid).guestAccounts}000`);
  const next = Math.max(first, ...numbers.filter((n) => /^\d+$/.test(n)).map(Number)) + 1;
  const accountNumber = record.account_number ?? String(next);
  if (numbers.includes(accountNumber)) {
    failAt([...path, 'account_number'], `The account number '${accountNumber}' is another guest's`);
  }
  if (record.country !== undefined && !isCountryCode(record.country)) {
    failAt([...path, 'country'], `country '${record.country}' is not a valid country code`);
  }
  data.customers[id] = {
    id,
    source_ref: { id: `F${id.slice(0, 8)}`, model: 'guest' },
    first_name: company === null ? (record.first_name ?? null) : null,
    last_name: company === null ? (record.last_name ?? null) : null,
    company_name: company,
    phone: record.phone?.trim() || null,
    email,
    account_number: accountNumber,
    created_on: context.now(),
    addresses:
      record.country === undefined
        ? []
        : [
            {
              address_type: company === null ? 'home' : 'invoice',
              name: company === null ? 'Home' : 'Head office',
              street: record.street ?? null,
              number: record.number ?? null,
              box: record.box ?? null,
              city: record.city ?? null,
              postal_code: record.postal_code ?? null,
              country: record.country.toUpperCase(),
            },
          ],
    is_company: company !== null,
  };
  return id;
}

/** The Property Management System block of a connection in the fixture document. */
export const pmsFixtures = kit.verticalFixtures(PmsFixture, (scope) => {
  const data = pmsDatasetOf(scope.context.store, scope.connection);
  const pms: Pms = { ...kit.makerOf(scope, data), guests: new RefTable(scope.context) };
  return {
    customers: [null, (record, path) => pmsGuest(pms, record, path)],
    orders: [null, (record, path) => pmsOrder(pms, record, path)],
  };
});
