import { z } from '@hono/zod-openapi';
import { own } from '../../../lib/own.js';
import { countryOf } from '../../../platform/countries.js';
import { RefTable } from '../../../platform/fixtures/context.js';
import type { PathPart } from '../../../platform/fixtures/errors.js';
import * as kit from '../../../platform/fixtures/kit.js';
import { localNames } from '../../../platform/local-names.js';
import { round2 } from '../../../platform/seeding/vertical-data.js';
import type { InvoicingDataset } from '../model/invoicing.records.js';
import { OpportunityStatus } from '../model/invoicing.values.js';
import { INVOICING_NAMES } from '../world/invoicing.names.js';
import { closedProbability, opportunityRecord } from '../world/invoicing.opportunities.js';
import { nextSourceId } from '../world/invoicing.seed.js';
import {
  createContact,
  createInvoice,
  createPayment,
  createProduct,
  invoicingDatasetOf,
} from './invoicing.domain.js';
import { ContactItemIn, InvoiceItemIn, InvoicingPaymentItemIn, ProductItem } from './invoicing.schemas.js';

/**
 * The Invoicing block of a connection in the fixture document (`connections[].invoicing`): the
 * connection's dataset, as POST .../invoicing/... writes it, and opportunities of the sales pipeline
 * as the seeder builds them (the API creates none).
 */

// ---------------------------------------------------------------------------------------------
// The block's schema.

const day = kit.day;

export const InvoicingOpportunityFixture = z
  .object({
    id: kit.id(),
    name: z.string().min(1),
    total: z.number().min(0).describe('The expected amount'),
    status: OpportunityStatus.default('open'),
    probability: z
      .number()
      .min(0)
      .max(100)
      .optional()
      .describe('In percent; default 50 while open, 100 won, 0 otherwise (a won one is 100, a lost one 0)'),
    partner_id: z.string().nullable().optional().describe('A contact: its ref or id'),
    comment: z.string().nullable().optional(),
    currency: z.string().default('EUR'),
    description: z.string().nullable().optional(),
    pipe_status: z
      .string()
      .optional()
      .describe('The stage (default: Qualification while open, Won for won, Lost otherwise)'),
    pipe_name: z.string().default('Sales pipeline'),
    created_date: day().optional().describe('Not after the sandbox clock (default: its day)'),
    due_date: day().nullable().optional().describe('Default: 45 days after created_date'),
    end_date: day()
      .optional()
      .describe(
        "When it was closed: not for an open one; not before created_date nor after the clock (default: the clock's day)",
      ),
  })
  .strict();

export const InvoicingFixture = z
  .object({
    contacts: kit.list(kit.record(ContactItemIn), 'POST .../invoicing/contacts'),
    products: kit.list(
      kit.record(ProductItem),
      'POST .../invoicing/products; tax_id takes a tax id or its code',
    ),
    invoices: kit.list(
      kit.record(InvoiceItemIn),
      'POST .../invoicing/invoices; partner_id and lines[].product_id take a ref',
    ),
    payments: kit.list(
      kit.withId(InvoicingPaymentItemIn),
      'POST .../invoicing/payments; invoice_id takes an invoice ref, payment_method_id an id or a name',
    ),
    opportunities: kit.list(
      InvoicingOpportunityFixture,
      'Opportunities of the sales pipeline (the software creates them: the API lists them)',
    ),
  })
  .strict();

// ---------------------------------------------------------------------------------------------
// Applying the block.

/** What the block's records are made in: the connection's dataset, and the refs of the contacts. */
type Invoicing = kit.Maker<InvoicingDataset> & { readonly contacts: RefTable };

/**
 * An opportunity of the sales pipeline, as the seeder builds one: closed ones (won, lost, cancelled,
 * closed) have an end date, not before their creation, and won ones are certain (100%), lost ones
 * hopeless (0%); open ones have neither an end date nor an outcome.
 */
function invoicingOpportunity(
  invoicing: Invoicing,
  record: z.output<typeof InvoicingOpportunityFixture>,
  path: PathPart[],
): string {
  const { context, data, failAt } = invoicing;
  const id = invoicing.freshId(record.id, path, data.opportunities, 'opportunity');
  const partnerId = invoicing.contacts.resolve(record.partner_id) ?? null;
  if (partnerId !== null && !own(data.contacts, partnerId)) {
    invoicing.unknown(
      [...path, 'partner_id'],
      `'${record.partner_id}' is not a contact of the software (GET .../invoicing/contacts lists them)`,
    );
  }
  const today = context.now().slice(0, 10);
  const created = record.created_date ?? today;
  if (created > today) failAt([...path, 'created_date'], `${created} is after the sandbox clock (${today})`);
  const open = record.status === 'open';
  if (open && record.end_date !== undefined) {
    failAt([...path, 'end_date'], 'An open opportunity has no end_date: it is not closed');
  }
  const end = open ? null : (record.end_date ?? today);
  if (end !== null && end < created) {
    failAt([...path, 'end_date'], `${end} is before created_date ${created}`);
  }
  if (end !== null && end > today)
    failAt([...path, 'end_date'], `${end} is after the sandbox clock (${today})`);
  const certain = closedProbability(record.status);
  if (certain !== null && record.probability !== undefined && record.probability !== certain) {
    failAt(
      [...path, 'probability'],
      `A ${record.status} opportunity has a probability of ${certain}, not ${record.probability}`,
    );
  }
  data.opportunities[id] = opportunityRecord({
    id,
    source_ref: { id: nextSourceId(data, 'O'), model: 'opportunity' },
    name: record.name,
    total: round2(record.total),
    probability: record.probability,
    status: record.status,
    partner_id: partnerId,
    comment: record.comment,
    currency: record.currency,
    description: record.description,
    // A stage of the pipeline names where an open one stands, and so its probability.
    stage: record.pipe_status,
    pipe_status: record.pipe_status,
    pipe_name: record.pipe_name,
    created_date: created,
    due_date: record.due_date,
    end_date: end,
  });
  return id;
}

/** The Invoicing block of a connection in the fixture document. */
export const invoicingFixtures = kit.verticalFixtures(InvoicingFixture, (scope) => {
  const { context } = scope;
  const data = kit.datasetOf(scope, invoicingDatasetOf);
  // Payment methods by their names in the software's language, or as the Belgian one names them.
  const { alias } = localNames(INVOICING_NAMES, countryOf(scope.integration));
  const invoicing: Invoicing = { ...kit.makerOf(scope, data, alias), contacts: new RefTable(context) };
  const { contacts, newRecord, writeAs } = invoicing;
  const products = new RefTable(context);
  const invoices = new RefTable(context);
  /** A tax by id or code. */
  const taxOf = (value: string | null | undefined) => {
    if (value === null || value === undefined || own(data.taxes, value)) return value;
    const code = value.toUpperCase();
    return Object.values(data.taxes).find((t) => t.code?.toUpperCase() === code)?.id ?? value;
  };
  /** A payment method by id or name. */
  const methodOf = (value: string | null | undefined) => {
    if (value === null || value === undefined || own(data.payment_methods, value)) return value;
    return kit.byIdOrName(Object.values(data.payment_methods), value, alias)?.id ?? value;
  };
  return {
    contacts: [
      'invoicing_post_contacts',
      (record, path, raw) => {
        const { id, body } = newRecord(record, path, data.contacts, 'contact', contacts);
        return context.at(path, raw, () => createContact(data, body, writeAs('invoicing-contact', id)).id);
      },
    ],
    products: [
      'invoicing_post_products',
      (record, path) => {
        const { id, body } = newRecord(record, path, data.products, 'product', products);
        const input = { ...body, tax_id: taxOf(body.tax_id) };
        return context.at(path, input, () => createProduct(data, input, writeAs('invoicing-product', id)).id);
      },
    ],
    invoices: [
      'invoicing_post_invoices',
      (record, path) => {
        const { id, body } = newRecord(record, path, data.invoices, 'invoice', invoices);
        const input = {
          ...body,
          partner_id: contacts.resolve(body.partner_id),
          lines: body.lines?.map((line) => ({
            ...line,
            product_id: products.resolve(line.product_id),
            tax_id: taxOf(line.tax_id),
          })),
        };
        return context.at(path, input, () => createInvoice(data, input, writeAs('invoicing-invoice', id)).id);
      },
    ],
    payments: [
      'invoicing_create_payment',
      (record, path) => {
        const { id, body } = newRecord(record, path, data.payments, 'payment');
        const input = {
          ...body,
          invoice_id: invoices.resolve(body.invoice_id),
          payment_method_id: methodOf(body.payment_method_id),
        };
        return context.at(path, input, () => createPayment(data, input, writeAs('invoicing-payment', id)).id);
      },
    ],
    opportunities: [null, (record, path) => invoicingOpportunity(invoicing, record, path)],
  };
});
