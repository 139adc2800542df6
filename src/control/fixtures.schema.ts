import { z } from '@hono/zod-openapi';
import { AnalyticAccountItemIn } from '../modules/accounting/analytic-accounts.schemas.js';
import { BankAccountItemIn, BankStatementItemIn } from '../modules/accounting/bank.schemas.js';
import { GenericJournalEntry, MatchingIn } from '../modules/accounting/entries.schemas.js';
import { ExpenseItemIn } from '../modules/accounting/expenses.schemas.js';
import {
  AccountingInvoicePaymentIn,
  InvoiceItemInMonoAnalyticPlan,
} from '../modules/accounting/invoices.schemas.js';
import { ClientItemIn, SupplierItemIn } from '../modules/accounting/partners.schemas.js';
import { JournalIn, LedgerAccountItemIn } from '../modules/accounting/reference.schemas.js';
import { BankingTransactionStatus, OperationType } from '../modules/banking/banking.schemas.js';
import { OrderItemIn, ProductStatus } from '../modules/commerce/commerce.schemas.js';
import { PostConsumerItem } from '../modules/consumers/consumers.schemas.js';
import { COLUMN_TYPES } from '../modules/datastores/datastores.schemas.js';
import {
  ContactItemIn,
  InvoiceItemIn,
  InvoicingPaymentItemIn,
  OpportunityStatus,
  PaymentPaymentStatus,
  ProductItem,
} from '../modules/invoicing/invoicing.schemas.js';
import { DiscountType, Mode, POSCreateCustomerItem, Source } from '../modules/pos/pos.schemas.js';
import {
  CreateConsumerSyncItem,
  CreateSyncItem,
  EnableFlowConsumer,
  ReadSyncMappingItem,
} from '../modules/syncs/syncs.schemas.js';
import { WebhookInstancePostItem } from '../modules/webhooks/webhooks.schemas.js';

/**
 * The fixture document: a world declared in one JSON or YAML file. Each record of a vertical takes
 * the body of the API operation that creates it (the same zod schema), plus an optional `id` (kept,
 * instead of one derived from the seed) and an optional `ref` (a name other records of the document
 * use in place of the id). GET /__sandbox/fixtures/schema serves this schema as a JSON Schema.
 */

const id = () =>
  z.uuid().optional().describe('The id to give the record (a uuid); by default one derived from the seed');
const ref = () =>
  z.string().min(1).optional().describe('A name the other records of the document may use instead of the id');

/** An API body with the fixture's own `id` and `ref`. */
const record = <Shape extends z.ZodRawShape, Config extends z.core.$ZodObjectConfig>(
  body: z.ZodObject<Shape, Config>,
) => body.extend({ id: id(), ref: ref() });
/** An API body with the fixture's own `id` (no record of the document names it). */
const withId = <Shape extends z.ZodRawShape, Config extends z.core.$ZodObjectConfig>(
  body: z.ZodObject<Shape, Config>,
) => body.extend({ id: id() });

// ---------------------------------------------------------------------------------------------
// Verticals.

export const AccountingFixture = z
  .object({
    folder_id: z
      .string()
      .optional()
      .describe(
        'The folder (company) to write in, by id or name: required when the integration holds several',
      ),
    accounts: z.array(LedgerAccountItemIn).optional().describe('POST .../accounting/accounts'),
    journals: z
      .array(record(JournalIn))
      .optional()
      .describe('POST .../accounting/journal; referred to by ref, id or code'),
    bank_accounts: z
      .array(record(BankAccountItemIn))
      .optional()
      .describe(
        "POST .../accounting/bank-accounts: a bank journal on its own ledger account; referred to by ref, id or code wherever a journal is (a statement's bank_account_id)",
      ),
    analytic_accounts: z
      .array(
        record(AnalyticAccountItemIn).extend({
          analytic_plan: z
            .string()
            .min(1)
            .optional()
            .describe(
              "The plan (POST .../analytic-accounts/multi-analytic-plans/{analytic_plan}), by id or name (Departments); left out, the folder's first active plan (POST .../analytic-accounts)",
            ),
        }),
      )
      .optional()
      .describe(
        "POST .../accounting/analytic-accounts; an invoice line's analytic_account and an analytic distribution take a ref, id or code",
      ),
    clients: z.array(record(ClientItemIn)).optional().describe('POST .../accounting/clients'),
    suppliers: z.array(record(SupplierItemIn)).optional().describe('POST .../accounting/suppliers'),
    invoices: z
      .array(record(InvoiceItemInMonoAnalyticPlan))
      .optional()
      .describe(
        'POST .../accounting/invoices; partner_id and journal_id take a ref, tax_code a VAT code id or its code (V21)',
      ),
    journal_entries: z
      .array(record(GenericJournalEntry))
      .optional()
      .describe(
        'POST .../accounting/journal-entries; journal_id takes a ref or a code, a customer or supplier account a ref',
      ),
    invoice_payments: z
      .array(withId(AccountingInvoicePaymentIn))
      .optional()
      .describe(
        'POST .../accounting/invoices/payments; payment_method_id takes an id or a name (Bank transfer), items[].invoice_id an invoice ref',
      ),
    expenses: z
      .array(withId(ExpenseItemIn))
      .optional()
      .describe(
        'POST .../accounting/expenses; employee_id takes an id, reference (EMP-001) or name, lines[].tax_id a VAT code id or its code (A21)',
      ),
    bank_statements: z
      .array(withId(BankStatementItemIn))
      .optional()
      .describe(
        "POST .../accounting/bank-transactions: a statement of a bank account, one posted entry per transaction; bank_account_id takes a bank account ref, id or code (BNK), a counterpart's id a client or supplier ref (an employee's id, reference or name)",
      ),
    matchings: z
      .array(MatchingIn)
      .optional()
      .describe(
        'POST .../accounting/matching; entries take invoice and journal entry refs (or ids, line ids), partner_id a client or supplier ref',
      ),
  })
  .strict();

const day = () => z.iso.date();

export const InvoicingOpportunityFixture = z
  .object({
    id: id(),
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
    contacts: z.array(record(ContactItemIn)).optional().describe('POST .../invoicing/contacts'),
    products: z
      .array(record(ProductItem))
      .optional()
      .describe('POST .../invoicing/products; tax_id takes a tax id or its code'),
    invoices: z
      .array(record(InvoiceItemIn))
      .optional()
      .describe('POST .../invoicing/invoices; partner_id and lines[].product_id take a ref'),
    payments: z
      .array(withId(InvoicingPaymentItemIn))
      .optional()
      .describe(
        'POST .../invoicing/payments; invoice_id takes an invoice ref, payment_method_id an id or a name',
      ),
    opportunities: z
      .array(InvoicingOpportunityFixture)
      .optional()
      .describe('Opportunities of the sales pipeline (the software creates them: the API lists them)'),
  })
  .strict();

const Stock = z
  .union([z.number().int().min(0), z.record(z.string(), z.number().int().min(0))])
  .describe('Units in stock: a number (at the first location), or units by location id, name or city');

const CommerceVariantFixture = z
  .object({
    id: id(),
    ref: ref(),
    name: z.string().min(1).optional().describe("Default: the product's name and the attribute values"),
    sku: z.string().min(1).optional(),
    price: z.number().min(0).describe("Price before taxes in the shop's main currency"),
    stock: Stock.optional(),
    attributes: z.record(z.string(), z.string()).optional().describe('e.g. {"Size": "M"}'),
  })
  .strict();

export const CommerceProductFixture = z
  .object({
    id: id(),
    ref: ref(),
    name: z.string().min(1),
    sku: z.string().min(1).optional(),
    description: z.string().optional(),
    status: ProductStatus.optional().describe('Default: published'),
    tax_rate: z.number().optional().describe('A tax rate of the shop in percent (default: 21)'),
    categories: z.array(z.string()).optional().describe('Category ids or names of the shop'),
    price: z.number().min(0).optional().describe('For a product of one variant: its price'),
    stock: Stock.optional().describe('For a product of one variant: its stock'),
    variants: z.array(CommerceVariantFixture).min(1).optional(),
  })
  .strict();

export const CommerceCustomerFixture = z
  .object({
    id: id(),
    ref: ref(),
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
    products: z.array(CommerceProductFixture).optional().describe('Products of the shop'),
    customers: z.array(CommerceCustomerFixture).optional().describe('Customers of the shop'),
    orders: z
      .array(withId(OrderItemIn))
      .optional()
      .describe('POST .../commerce/orders; lines[].variant_id takes a variant or product ref, or a sku'),
  })
  .strict();

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
    id: id(),
    creation_date: z.iso.datetime({ offset: true }).describe('When the order was opened'),
    closing_date: z.iso
      .datetime({ offset: true })
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
    customers: z.array(record(POSCreateCustomerItem)).optional().describe('POST .../pos/customers'),
    orders: z.array(PosOrderFixture).optional().describe('Orders of the point of sale'),
  })
  .strict();

const instant = () => z.iso.datetime({ offset: true });
const Currency = z.string().regex(/^[A-Z]{3}$/, 'An ISO 4217 code: EUR, USD...');

export const BankingTransactionFixture = z
  .object({
    id: id(),
    amount: z.number().describe('Signed, in the currency of the account: positive in, negative out (not 0)'),
    execution_date: instant().describe('When the bank executed it (not after the sandbox clock)'),
    value_date: z.iso
      .date()
      .optional()
      .describe('The day it is valued (default: the day of execution_date), not before it'),
    operation_type: OperationType.optional().describe(
      'Default: incoming_transfer for an amount in, outgoing_transfer for an amount out',
    ),
    status: BankingTransactionStatus.default('completed').describe(
      'completed moves the balance; pending outgoing holds the available balance',
    ),
    currency: Currency.optional().describe("The account's currency (the only one it takes)"),
    description: z.string().nullable().optional(),
    additional_information: z.string().nullable().optional(),
    counterpart_name: z.string().nullable().optional(),
    counterpart_reference: z.string().nullable().optional(),
    remittance_information: z.string().nullable().optional(),
    tax_amount: z.number().nullable().optional(),
    internal_transaction: z.boolean().default(false),
  })
  .strict();

export const BankingAccountFixture = z
  .object({
    id: id(),
    ref: ref(),
    description: z.string().min(1).describe('e.g. Current account'),
    currency: Currency.default('EUR'),
    institution: z
      .string()
      .optional()
      .describe('A financial institution of the connection: its id or name (default: the first)'),
    reference: z
      .string()
      .min(1)
      .optional()
      .describe(
        "The account's IBAN, unique among the connection's accounts (default: one derived from the id)",
      ),
    reference_type: z.string().min(1).default('IBAN'),
    holder_name: z.string().nullable().optional(),
    active: z.boolean().default(true),
    opening_balance: z
      .number()
      .default(0)
      .describe('The balance before its first transaction: the balances add the completed transactions'),
    transactions: z.array(BankingTransactionFixture).optional(),
  })
  .strict();

export const BankingFixture = z
  .object({
    accounts: z.array(BankingAccountFixture).optional().describe('Bank accounts of the connection'),
    transactions: z
      .array(
        BankingTransactionFixture.extend({
          account: z.string().min(1).describe('The account: a ref of this block or an id of the connection'),
        }).strict(),
      )
      .optional()
      .describe('Transactions on an account of the connection (a seeded one, or one of this block)'),
  })
  .strict();

export const PaymentRefundFixture = z
  .object({
    id: id(),
    amount: z
      .number()
      .positive()
      .describe("Default: what the payment's other refunds leave (all of it)")
      .optional(),
    refund_date: instant().describe('Not before the payment, not after the sandbox clock'),
    status: z.enum(['completed', 'pending']).default('completed'),
    description: z.string().optional(),
  })
  .strict();

export const PaymentPaymentFixture = z
  .object({
    id: id(),
    location: z
      .string()
      .optional()
      .describe('A location of the provider: its id or name (default: the first)'),
    amount: z.number().positive(),
    currency: Currency.optional().describe("The balance's currency (the only one it takes)"),
    payment_date: instant().describe('Not after the sandbox clock'),
    status: PaymentPaymentStatus.default('completed').describe(
      'completed brings its amount into the balance',
    ),
    description: z.string().min(1),
    partner_id: z.string().nullable().optional().describe("The provider's customer id (cus_...)"),
    refunds: z.array(PaymentRefundFixture).optional().describe('Refunds of a completed payment'),
  })
  .strict();

export const PaymentPayoutFixture = z
  .object({
    id: id(),
    location: z
      .string()
      .optional()
      .describe('A location of the provider: its id or name (default: the first); its balance is paid out'),
    payment_date: z.iso
      .date()
      .describe(
        "The day it reaches the bank: it is made three days before (not after the sandbox clock) and pays out the balance's movements no payout has paid yet, once two days old (this block's payments included); in transit until the clock's day has come",
      ),
  })
  .strict();

export const PaymentFixture = z
  .object({
    payments: z
      .array(PaymentPaymentFixture)
      .optional()
      .describe('Payments of the provider, with their balance movements and refunds'),
    payouts: z
      .array(PaymentPayoutFixture)
      .optional()
      .describe('Payouts of a balance to the bank (after the payments): their amount is what they pay out'),
  })
  .strict();

const PmsLineFixture = z
  .object({
    description: z.string().min(1),
    quantity: z.number().positive().default(1),
    unit_price: z.number().min(0).describe('Before taxes'),
    tax: z
      .union([z.string().min(1), z.number()])
      .describe('A tax of the property: its id, label or rate (6, 12, 21); the city tax adds no VAT'),
    category: z.string().min(1).describe('An accounting category: its id, name or code (ROOM, BRK...)'),
    discount: z.number().min(0).default(0),
  })
  .strict();

export const PmsOrderFixture = z
  .object({
    id: id(),
    location: z.string().optional().describe('A hotel: its id, name or city (default: the first)'),
    room: z
      .string()
      .optional()
      .describe("A room of the hotel: id, name or number (default: the hotel's first)"),
    customer: z
      .string()
      .min(1)
      .describe('A guest of the property: a ref of this block, an id, account number or e-mail'),
    check_in: instant(),
    check_out: instant().describe(
      'After check_in; a stay checked out by the sandbox clock is invoiced and paid',
    ),
    booked: instant().optional().describe('When it was booked (default: check_in), not after check_in'),
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
    id: id(),
    ref: ref(),
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
      .describe("Unique among the property's guests (default: the next one, 400061...)"),
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
    customers: z
      .array(PmsGuestFixture)
      .optional()
      .describe("Guests of the property (a stay's customer takes their ref)"),
    orders: z.array(PmsOrderFixture).optional().describe('Stays of the property'),
  })
  .strict();

// ---------------------------------------------------------------------------------------------
// The connector's custom routes.

export const CustomCollectionFixture = z
  .object({
    connector: z
      .union([z.number().int(), z.string().min(1)])
      .optional()
      .describe(
        "The connector the records belong to, as a consumer's custom route names it: its integration id or its name in lower case with dashes (sandbox-custom); it must be the connection's. Left out: the connection's",
      ),
    path: z
      .string()
      .min(1)
      .describe(
        "The custom path of the collection, below the route's prefix: products, v2/orders (.../custom/{connector}/products for a Custom connection, .../accounting/custom/products, .../invoicing/custom/products, .../banking/custom/refresh)",
      ),
    records: z
      .array(z.record(z.string(), z.unknown()))
      .default([])
      .describe(
        "Records as a POST to the path takes them: an `id` (a string or a whole number) is kept as the record's id, else one derived from the seed is given; none: an empty collection",
      ),
  })
  .strict();

// ---------------------------------------------------------------------------------------------
// The platform.

export const ConnectionFixture = z
  .object({
    id: id(),
    integration: z
      .union([z.number().int(), z.string().min(1)])
      .describe('The integration: its id (1000) or its name (Odoo)'),
    name: z.string().max(80).optional(),
    status: z
      .enum(['active', 'inactive'])
      .default('active')
      .describe('active: with credentials (sandbox values when none are given); inactive: awaiting them'),
    credentials: z.record(z.string(), z.string()).optional().describe('Credentials by name'),
    post_connections: z.record(z.string(), z.string()).optional().describe('Post connection values by id'),
    accounting: AccountingFixture.optional(),
    invoicing: InvoicingFixture.optional(),
    commerce: CommerceFixture.optional(),
    pos: PosFixture.optional(),
    banking: BankingFixture.optional(),
    payment: PaymentFixture.optional(),
    pms: PmsFixture.optional(),
    custom: z
      .array(CustomCollectionFixture)
      .optional()
      .describe(
        "Records of the connection's custom routes (Custom, Accounting, Invoicing and Banking connections), by custom path",
      ),
  })
  .strict();

export const ConsumerFixture = PostConsumerItem.extend({
  id: id(),
  ref: ref(),
  connections: z.array(ConnectionFixture).optional(),
}).strict();

export const WebhookFixture = WebhookInstancePostItem.extend({ id: id() }).strict();

export const SyncFlowFixture = EnableFlowConsumer.extend({
  flow: z.string().min(1).describe('A flow of the sync: its id or name'),
}).strict();

export const SyncConsumerFixture = CreateConsumerSyncItem.omit({ syncid: true })
  .extend({
    consumer: z.string().min(1).describe('The consumer: a consumer ref of the document or an id'),
    flows: z
      .array(SyncFlowFixture)
      .optional()
      .describe(
        'Flows enabled for the consumer: POST /consumers/{consumer_id}/syncs/{syncid}/flows/{flowid}/enable, flow naming the flow',
      ),
    mappings: z
      .array(ReadSyncMappingItem)
      .optional()
      .describe(
        "The consumer's mappings: PATCH /consumers/{consumer_id}/syncs/{syncid} (after a flow is enabled)",
      ),
  })
  .strict();

export const SyncFixture = CreateSyncItem.extend({
  id: id(),
  consumers: z
    .array(SyncConsumerFixture)
    .optional()
    .describe(
      'Consumers set up for the sync: POST /consumers/{consumer_id}/syncs (integrationids, country, link_metadata), then their flows',
    ),
}).strict();

export const DatastoreFixture = z
  .object({
    id: id(),
    name: z.string().min(1).max(255).describe("Unique among the account's datastores"),
    status: z.enum(['active', 'inactive']).default('active'),
    columns: z
      .array(
        z
          .object({
            name: z.string().min(1),
            title: z.string().optional(),
            type: z.enum(COLUMN_TYPES),
            optional: z.boolean().default(false),
          })
          .strict(),
      )
      .min(1),
    search_column: z.string().nullable().optional(),
    rows: z
      .array(
        z
          .object({
            consumer: z.string().min(1).describe('The consumer of the row: a ref or an id'),
            data: z.record(z.string(), z.unknown()),
          })
          .strict(),
      )
      .optional()
      .describe('POST /consumers/{consumer_id}/datastore/{datastoreid}/data, one row each'),
  })
  .strict();

export const FixtureDocument = z
  .object({
    $schema: z.string().optional().describe('Ignored: lets an editor find this schema'),
    replace: z
      .boolean()
      .default(false)
      .describe(
        'true: the document replaces the seeded world (only the accounts, environments and keys stay); false: it adds to it',
      ),
    environment: z
      .enum(['sandbox', 'production'])
      .default('sandbox')
      .describe('The environment of the seeded account the records go to'),
    mcp_scopes: z
      .array(z.string())
      .optional()
      .describe(
        "The MCP scopes the vendor allows on that environment, in place of its list (['*']: every scope): what its MCP tokens may carry and the OAuth consent page offers",
      ),
    consumers: z.array(ConsumerFixture).default([]),
    webhooks: z.array(WebhookFixture).default([]),
    syncs: z.array(SyncFixture).default([]),
    datastores: z.array(DatastoreFixture).default([]),
  })
  .strict();

export type FixtureDocumentInput = z.input<typeof FixtureDocument>;
export type FixtureDocumentValue = z.output<typeof FixtureDocument>;
export type ConsumerFixtureValue = z.output<typeof ConsumerFixture>;
export type ConnectionFixtureValue = z.output<typeof ConnectionFixture>;
export type SyncConsumerFixtureValue = z.output<typeof SyncConsumerFixture>;

/** The JSON Schema of the document (the input it accepts), as GET /__sandbox/fixtures/schema serves it. */
export function fixtureJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(FixtureDocument, { io: 'input', unrepresentable: 'any' });
  return { ...schema, title: 'unified-api-sandbox fixture document' };
}

// ---------------------------------------------------------------------------------------------
// The answer: what was created, with the ids, in the document's order.

const ids = z.array(z.string());

export const FixtureResult = z
  .object({
    replaced: z.boolean().openapi({ description: 'Whether the document replaced the seeded world' }),
    consumers: z.array(
      z.object({
        consumerid: z.string(),
        name: z.string(),
        ref: z.string().nullable(),
        connections: z.array(
          z.object({
            connectionid: z.string(),
            integrationid: z.number().int(),
            status: z.enum(['active', 'inactive']),
            records: z.record(z.string(), z.record(z.string(), ids)).openapi({
              description: 'Ids of the records by vertical and kind: {"accounting": {"invoices": [...]}}',
            }),
          }),
        ),
      }),
    ),
    webhooks: z.array(z.object({ webhookid: z.string(), event: z.string() })),
    syncs: z.array(z.object({ syncid: z.string(), name: z.string(), flows: ids, consumers: ids })),
    datastores: z.array(z.object({ datastoreid: z.string(), name: z.string(), rows: ids })),
  })
  .openapi('SandboxFixtureResult');

export type FixtureResultValue = z.infer<typeof FixtureResult>;
