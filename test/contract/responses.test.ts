import { z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import type { SandboxApp } from '../../src/app.js';
import { MAX_PAGE_SIZE } from '../../src/lib/pagination.js';
import { JournalEntryMultiAnalyticPlan } from '../../src/modules/accounting/api/entries.schemas.js';
import {
  InvoiceItemOutMonoAnalyticPlan,
  InvoiceItemOutMultiAnalyticPlans,
} from '../../src/modules/accounting/api/invoices.schemas.js';
import { MiscellaneousOperationOut } from '../../src/modules/accounting/api/miscellaneous.schemas.js';
import { ClientItemOut, SupplierItemOut } from '../../src/modules/accounting/api/partners.schemas.js';
import { CommerceCustomerItem, OrderItemOut } from '../../src/modules/commerce/api/commerce.schemas.js';
import { ConnectionItem, LinkItem } from '../../src/modules/connections/connections.schemas.js';
import { ConsumerItem } from '../../src/modules/consumers/consumers.schemas.js';
import { DataItemOut } from '../../src/modules/datastores/datastores.schemas.js';
import { INVOICE_STATE, seededDatastoreId } from '../../src/modules/datastores/datastores.seed.js';
import {
  ContactItemOut,
  InvoiceItemOut,
  InvoiceItemOutSingle,
  ProductItemOut,
} from '../../src/modules/invoicing/api/invoicing.schemas.js';
import { POSCustomerItem } from '../../src/modules/pos/api/pos.schemas.js';
import { WebhookInstanceGetItem } from '../../src/modules/webhooks/webhooks.schemas.js';
import {
  type CallResult,
  call,
  everyOperationDocument,
  expectValidation,
  SEED,
  sandbox,
  sandboxToken,
} from '../helpers.js';
import {
  accountingSandbox,
  all as allAccounting,
  invoiceBody,
  line,
  type Reference,
  referenceOf,
} from '../modules/accounting/helpers.js';
import { all as allVertical, verticalSandbox } from '../modules/verticals/finance-helpers.js';
import {
  answerProblems,
  type Json,
  jsonSchemaOf,
  operationsOf,
  paramsOf,
  type Schema,
} from './reference/openapi-facts.js';

/**
 * Responses a client can rely on: created records carry every field the document marks required,
 * amounts and dates come back exactly as sent, numbers stay JSON numbers and ids stable strings, and
 * paged lists page the way the service does.
 */

// ---------------------------------------------------------------------------------------------
// The served document, and a walk of an answer against the schema of an operation's 200 answer.

const documents = new WeakMap<SandboxApp, Json>();
async function documentOf(app: SandboxApp): Promise<Json> {
  if (!documents.has(app)) documents.set(app, await everyOperationDocument(app));
  return documents.get(app);
}

function operation(doc: Json, operationId: string): Schema {
  const found = operationsOf(doc).find((o) => o.op.operationId === operationId);
  if (!found) throw new Error(`no operation ${operationId} in the document`);
  return found.op;
}

/** The disagreements of a 200 answer with the document of the operation. */
function problems(doc: Json, operationId: string, body: unknown): string[] {
  const schema = jsonSchemaOf(operation(doc, operationId).responses?.['200']?.content);
  if (!schema) throw new Error(`${operationId} documents no JSON 200 answer`);
  return answerProblems(doc, schema, body, operationId);
}

/** The keys a zod object schema requires (a default or optional key is not). */
const zodRequired = (schema: z.ZodType): string[] => {
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
  return Object.keys(shape).filter((k) => !shape[k]?.isOptional());
};

// ---------------------------------------------------------------------------------------------
// Sandboxes of the verticals.

// biome-ignore lint/suspicious/noExplicitAny: records are read field by field
type Rec = any;
const find = (list: Rec[], id: unknown, key = 'id') => list.find((r) => r[key] === id);
/** The body of a 200 answer. */
const ok = (res: CallResult) => {
  expect(res.status, res.text).toBe(200);
  return res.body;
};

async function accounting() {
  const a = await accountingSandbox();
  return { a, ref: await referenceOf(a) };
}

async function platform() {
  const s = sandbox();
  const token = await sandboxToken(s);
  const api = (method: string, path: string, body?: unknown) => call(s.app, method, path, { token, body });
  const consumer = async () => (await api('POST', '/consumers', { name: 'Responses' })).body.consumerid;
  const rows = async () =>
    `/consumers/${await consumer()}/datastore/${seededDatastoreId(SEED, s.ids.accountId, INVOICE_STATE.name)}/data`;
  return { s, api, consumer, rows };
}

async function commerce() {
  const p = await platform();
  const base = `/consumers/${p.s.ids.verticalConsumers.ECOMMERCE}/commerce`;
  const get = (path: string) => p.api('GET', `${base}${path}`);
  /** An order of one unit of a published variant per line, at the prices and rates given. */
  const order = async (lines: { unit_price: number; tax_rate: number }[]) => {
    const products = (await get('/products?size=100')).body.items as Rec[];
    const variant = products.find((x) => x.status === 'published')?.variants[0];
    const address = { first_name: 'Ann', last_name: 'Peeters', street: 'Rue Haute', number: '12' };
    const where = { ...address, city: 'Bruxelles', postal_code: '1000', country: 'BE' };
    return p.api('POST', `${base}/orders`, {
      customer: { email: 'ann.peeters@example.be', first_name: 'Ann', last_name: 'Peeters' },
      billing_address: where,
      shipping_address: where,
      currency: 'EUR',
      lines: lines.map((l) => ({ variant_id: variant?.id, quantity: 1, ...l })),
      payment_method: (await get('/payment-methods')).body.items[0].id,
    });
  };
  return { ...p, get, order };
}

// ---------------------------------------------------------------------------------------------
// 1 and 3: every create operation the suite can call with a minimal valid body.

interface Made {
  app: SandboxApp;
  res: CallResult;
  /** Reads the record again by its id (a list answer is searched for it). */
  read: (id: string) => Promise<CallResult>;
  /** The created record, when the answer is not it (or a list of it). */
  record?: Rec;
}
interface Spec {
  op: string;
  schema: z.ZodType;
  readOp: string;
  readSchema?: z.ZodType;
  idKey?: string;
  make: () => Promise<Made>;
}

const inAccounting =
  (path: string, body: (ref: Reference) => unknown, read: (id: string) => string) => async () => {
    const { a, ref } = await accounting();
    return { app: a.app, res: await a.post(path, body(ref)), read: (id: string) => a.get(read(id)) };
  };
const inInvoicing = (path: string, body: unknown) => async () => {
  const v = await verticalSandbox('invoicing');
  return { app: v.app, res: await v.post(path, body), read: (id: string) => v.get(`${path}/${id}`) };
};
const onPlatform =
  (make: (p: Awaited<ReturnType<typeof platform>>) => Promise<Omit<Made, 'app'>>) => async () => {
    const p = await platform();
    return { app: p.s.app, ...(await make(p)) };
  };

const sale = (ref: Reference) =>
  invoiceBody(ref, 'customer_invoice', [line(ref, { quantity: 2, unit_price: 10, vat: 'V21' })]);
const general = (account: string, debit: number, credit: number) => ({
  account_type: 'general_account',
  account,
  debit,
  credit,
});
const legacy = (account: string, debit: number, credit: number) => ({
  account_number: account,
  debit,
  credit,
  currency: 'EUR',
});
const opLine = (account: string, amount: number, line_number: number) => ({
  type: 'general_account',
  account_number: account,
  amount,
  line_number,
});

const SPECS: Spec[] = [
  ...(['client', 'supplier'] as const).map((kind) => ({
    op: `accounting_create_${kind}`,
    schema: kind === 'client' ? ClientItemOut : SupplierItemOut,
    readOp: `accounting_get_${kind}`,
    make: inAccounting(
      `/${kind}s`,
      () => ({ name: 'Minimal SRL', addresses: [] }),
      (id) => `/${kind}s/${id}`,
    ),
  })),
  {
    op: 'accounting_create_invoice',
    schema: InvoiceItemOutMonoAnalyticPlan,
    readOp: 'accounting_get_invoice',
    make: inAccounting('/invoices', sale, (id) => `/invoices/${id}?include_invoice_lines=true`),
  },
  {
    op: 'accounting_create_invoice_multiple_plans',
    schema: InvoiceItemOutMultiAnalyticPlans,
    readOp: 'accounting_get_invoice_multi_analytic_plans',
    make: inAccounting(
      '/invoices/multi-analytic-plans',
      sale,
      (id) => `/invoices/multi-analytic-plans/${id}?include_invoice_lines=true`,
    ),
  },
  {
    op: 'accounting_create_generic_journal_entry',
    schema: JournalEntryMultiAnalyticPlan,
    readOp: 'accounting_get_journal_entry',
    make: inAccounting(
      '/journal-entries',
      (ref) => ({
        journal_id: ref.journals.OD?.id,
        number: 'OD-T-1',
        currency: 'EUR',
        date: '2026-01-15',
        items: [general('612000', 10, 0), general('550000', 0, 10)],
      }),
      (id) => `/journal/entries/${id}`,
    ),
  },
  {
    op: 'accounting_create_journal_entry',
    schema: JournalEntryMultiAnalyticPlan,
    readOp: 'accounting_get_journal_entry',
    make: inAccounting(
      '/journal/entries',
      (ref) => ({
        journal_id: ref.journals.OD?.id,
        name: 'OLD-1',
        date: '2026-01-15',
        items: [legacy('612000', 50, 0), legacy('550000', 0, 50)],
      }),
      (id) => `/journal/entries/${id}`,
    ),
  },
  {
    op: 'accounting_create_miscellaneous_operation',
    schema: MiscellaneousOperationOut,
    readOp: 'accounting_get_miscellaneous_operation',
    make: inAccounting(
      '/miscellaneous-operation',
      () => ({
        currency: 'EUR',
        operation_date: '2026-01-15',
        lines: [opLine('612000', -10, 1), opLine('550000', 10, 2)],
      }),
      (id) => `/miscellaneous-operation/${id}`,
    ),
  },
  {
    op: 'invoicing_post_contacts',
    schema: ContactItemOut,
    readOp: 'invoicing_get_contact',
    make: inInvoicing('/contacts', { company_name: 'Minimal SRL' }),
  },
  {
    op: 'invoicing_post_products',
    schema: ProductItemOut,
    readOp: 'invoicing_get_product',
    make: inInvoicing('/products', { name: 'Desk lamp', unit_price: 49 }),
  },
  {
    op: 'invoicing_post_invoices',
    schema: InvoiceItemOut,
    readOp: 'invoicing_get_invoice',
    readSchema: InvoiceItemOutSingle,
    make: inInvoicing('/invoices', {
      invoice_type: 'supplier_invoice',
      status: 'draft',
      currency: 'EUR',
      invoice_date: '2026-01-10',
      untaxed_amount: 100,
      tax_amount: 21,
      total: 121,
    }),
  },
  {
    op: 'ecommerce_create_order',
    schema: OrderItemOut,
    readOp: 'ecommerce_get_order',
    make: async () => {
      const c = await commerce();
      const res = await c.order([{ unit_price: 10, tax_rate: 21 }]);
      return { app: c.s.app, res, read: (id) => c.get(`/orders/${id}`) };
    },
  },
  {
    op: 'pos_create_pos_customer',
    schema: POSCustomerItem,
    readOp: 'pos_get_customer',
    make: onPlatform(async (p) => {
      const path = `/consumers/${p.s.ids.verticalConsumers.POS}/pos/customers`;
      const res = await p.api('POST', path, { first_name: 'Ann', last_name: 'Peeters' });
      return { res, read: (id) => p.api('GET', `${path}/${id}`) };
    }),
  },
  {
    op: 'consumers_create_consumer',
    schema: ConsumerItem,
    readOp: 'consumers_get_consumer',
    idKey: 'consumerid',
    make: onPlatform(async (p) => ({
      res: await p.api('POST', '/consumers', { name: 'Minimal' }),
      read: (id) => p.api('GET', `/consumers/${id}`),
    })),
  },
  {
    // The answer is the link; the connection it made is read in the consumer's list.
    op: 'connections_create_connection',
    schema: LinkItem,
    readOp: 'connections_get_connections',
    readSchema: z.array(ConnectionItem),
    idKey: 'connectionid',
    make: onPlatform(async (p) => {
      const path = `/consumers/${await p.consumer()}/connections`;
      const credentials = [{ key: 'database_path', value: 'C:/books' }];
      const res = await p.api('POST', path, { integrationid: 90102, credentials });
      const listed = (await p.api('GET', path)).body as Rec[];
      return { res, read: () => p.api('GET', path), record: find(listed, 90102, 'integrationid') };
    }),
  },
  {
    op: 'webhooks_create_webhook',
    schema: WebhookInstanceGetItem,
    readOp: 'webhooks_get_webhook',
    idKey: 'webhookid',
    make: onPlatform(async (p) => {
      const types = (await p.api('GET', '/webhooks/list')).body as { event: string; api: string | null }[];
      const event = types.find((t) => t.api === null)?.event;
      const res = await p.api('POST', '/webhooks', { event, url: 'https://hooks.vendor.example/unified' });
      return { res, read: (id) => p.api('GET', `/webhooks/${id}`) };
    }),
  },
  {
    op: 'datastores_create_consumer_datastoredata',
    schema: z.array(DataItemOut),
    readOp: 'datastores_get_consumer_and_datastoredata',
    make: onPlatform(async (p) => {
      const path = await p.rows();
      const data = { invoice_number: 'INV-1', amount: 12.5, synced_at: '2026-01-10T10:00:00Z' };
      return { res: await p.api('POST', path, [{ data }]), read: () => p.api('GET', path) };
    }),
  },
];

describe('created records: every required field, typed as documented, with a stable id', () => {
  it.each(SPECS.map((spec) => [spec.op, spec] as const))('%s', async (_op, spec) => {
    const made = await spec.make();
    expect(made.res.status, made.res.text).toBe(200);
    spec.schema.parse(made.res.body);
    const doc = await documentOf(made.app);
    expect(problems(doc, spec.op, made.res.body)).toEqual([]);
    for (const key of zodRequired(spec.schema)) expect(made.res.body[key], key).not.toBeUndefined();
    const idKey = spec.idKey ?? 'id';
    const record = made.record ?? (Array.isArray(made.res.body) ? made.res.body[0] : made.res.body);
    const id = record?.[idKey];
    expect(typeof id, `${idKey} of ${JSON.stringify(record)}`).toBe('string');
    expect(id).not.toBe('');
    const reads = [await made.read(id), await made.read(id)].map((res) => {
      expect(res.status, res.text).toBe(200);
      (spec.readSchema ?? spec.schema).parse(res.body);
      expect(problems(doc, spec.readOp, res.body)).toEqual([]);
      return Array.isArray(res.body) ? find(res.body, id, idKey) : res.body;
    });
    expect(reads[0]?.[idKey]).toBe(id);
    expect(reads[1]).toEqual(reads[0]);
  });

  it('the walk finds a number served as a string, a required field missing and an empty id', async () => {
    const { a, ref } = await accounting();
    const res = await a.post('/invoices', sale(ref));
    const doc = await documentOf(a.app);
    expect(problems(doc, 'accounting_create_invoice', res.body)).toEqual([]);
    const { currency: _dropped, ...broken } = structuredClone(res.body);
    broken.lines[0].total = String(broken.lines[0].total);
    broken.id = '';
    expect(problems(doc, 'accounting_create_invoice', broken).sort()).toEqual([
      'accounting_create_invoice.currency: required, missing',
      'accounting_create_invoice.id: empty id',
      `accounting_create_invoice.lines[0].total: "${res.body.lines[0].total}" is a JSON string, typed number`,
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// 2: amounts and dates come back exactly as sent, by id and in the lists.

const cents = (n: number) => Math.round(n * 100);
const sum = (values: number[]) => values.reduce((t, v) => t + cents(v), 0) / 100;
const pick = (record: Rec, keys: string[]) => Object.fromEntries(keys.map((k) => [k, record[k]]));
/** The `i`-th element of `key` in each answer. */
const nth = (answers: Record<string, Rec>, key: string, i: number) =>
  Object.fromEntries(Object.entries(answers).map(([w, r]) => [`${w}.${key}[${i}]`, r?.[key]?.[i]]));

/** Each field of `expected` is exactly (toBe) that field of every answer. */
function expectExact(answers: Record<string, Rec>, expected: Record<string, unknown>): void {
  for (const [where, record] of Object.entries(answers)) {
    expect(record, `${where}: not found`).toBeDefined();
    for (const [key, value] of Object.entries(expected)) expect(record[key], `${where}.${key}`).toBe(value);
  }
}

const AMOUNT_SETS = [
  [0.1, 0.2],
  [1234.56, 99999999.99],
];
const DAY = '2022-12-31';
const AMOUNTS = ['quantity', 'unit_price', 'untaxed_amount', 'tax_amount', 'total'];

describe('amounts and dates round-trip exactly', () => {
  it('accounting invoices, journal entries and miscellaneous operations', async () => {
    const { a, ref } = await accounting();
    const od = ref.journals.OD?.id;
    for (const [n, prices] of AMOUNT_SETS.entries()) {
      const lines = prices.map((unit_price) => line(ref, { quantity: 1, unit_price, vat: 'V0' }));
      const body = invoiceBody(ref, 'customer_invoice', lines, { invoice_date: DAY, due_date: '2023-01-30' });
      expect(body.total).toBe(sum(prices));
      const inv = ok(await a.post('/invoices', body));
      const query = `date_from=${DAY}&date_to=${DAY}&include_invoice_lines=true`;
      const invoices = {
        created: inv,
        byId: ok(await a.get(`/invoices/${inv.id}?include_invoice_lines=true`)),
        listed: find(await allAccounting(a, `/invoices/type/customer_invoice?${query}`), inv.id),
      };
      expectExact(
        invoices,
        pick(body, ['untaxed_amount', 'tax_amount', 'total', 'invoice_date', 'due_date']),
      );
      body.lines.forEach((l, i) => {
        expectExact(nth(invoices, 'lines', i), pick(l, AMOUNTS));
      });

      // The same amounts as debits of a journal entry and of a miscellaneous operation.
      const items = [...prices.map((p) => general('612000', p, 0)), general('550000', 0, sum(prices))];
      const entryBody = { journal_id: od, number: `RT-${n}`, currency: 'EUR', date: DAY, items };
      const entry = ok(await a.post('/journal-entries', entryBody));
      const range = `unposted_allowed=false&date_from=${DAY}&date_to=${DAY}&journal_id=${od}`;
      const entries = {
        created: entry,
        byId: ok(await a.get(`/journal/entries/${entry.id}`)),
        listed: find(await allAccounting(a, `/journal/entries?${range}`), entry.id),
      };
      expectExact(entries, { date: DAY });
      items.forEach((item, i) => {
        expectExact(nth(entries, 'items', i), pick(item, ['debit', 'credit']));
      });

      const opLines = [
        ...prices.map((p, i) => opLine('612000', -p, i + 1)),
        opLine('550000', sum(prices), 3),
      ];
      const opBody = { currency: 'EUR', operation_date: DAY, lines: opLines };
      const op = ok(await a.post('/miscellaneous-operation', opBody));
      const ops = {
        created: op,
        byId: ok(await a.get(`/miscellaneous-operation/${op.id}`)),
        listed: find(
          await allAccounting(a, `/miscellaneous-operation?date_from=${DAY}&date_to=${DAY}`),
          op.id,
        ),
      };
      expectExact(ops, { operation_date: DAY });
      opLines.forEach((l, i) => {
        expectExact(nth(ops, 'lines', i), pick(l, ['line_number', 'amount']));
      });
    }
  });

  it('invoicing invoices and products', async () => {
    const v = await verticalSandbox('invoicing');
    const [customer] = await allVertical(v, '/contacts?contact_type=customer');
    for (const prices of AMOUNT_SETS) {
      const lines = prices.map((p) => ({
        description: 'Line',
        quantity: 1,
        unit_price: p,
        untaxed_amount: p,
        tax_amount: 0,
        total: p,
        tax_rate: 0,
      }));
      const total = sum(prices);
      const amounts = {
        untaxed_amount: total,
        tax_amount: 0,
        total,
        invoice_date: DAY,
        due_date: '2023-01-30',
      };
      const body = { invoice_type: 'customer_invoice', status: 'posted', currency: 'EUR', lines, ...amounts };
      const inv = ok(await v.post('/invoices', { ...body, partner_id: customer.id }));
      const query = `date_from=${DAY}&date_to=${DAY}&include_invoice_lines=true`;
      const invoices = {
        created: inv,
        byId: ok(await v.get(`/invoices/${inv.id}`)),
        listed: find(await allVertical(v, `/invoices?${query}`), inv.id),
      };
      // Posted and unpaid: open for its whole total.
      expectExact(invoices, { ...amounts, outstanding_amount: total });
      lines.forEach((l, i) => {
        expectExact(nth(invoices, 'lines', i), pick(l, AMOUNTS));
      });
      const [cost, unit_price] = prices;
      const product = ok(await v.post('/products', { name: `At ${unit_price}`, unit_price, cost }));
      const products = {
        created: product,
        byId: ok(await v.get(`/products/${product.id}`)),
        listed: find(await allVertical(v, '/products'), product.id),
      };
      expectExact(products, { unit_price, cost });
    }
  });

  it('commerce orders: the line prices as sent, the totals their sums to the cent', async () => {
    const c = await commerce();
    for (const prices of AMOUNT_SETS) {
      const order = ok(await c.order(prices.map((unit_price) => ({ unit_price, tax_rate: 0 }))));
      expect([order.untaxed_amount_without_fees, order.tax_amount_without_fees]).toEqual([sum(prices), 0]);
      const fees = (order.other_fees ?? []).map((f: Rec) => f.total);
      expect(order.total).toBe(sum([order.total_without_fees, ...fees]));
      const orders = {
        created: order,
        byId: ok(await c.get(`/orders/${order.id}`)),
        listed: find(
          (await c.get('/orders?date_from=2026-01-15&date_to=2026-01-15&size=100')).body.items,
          order.id,
        ),
      };
      const totals = ['untaxed_amount_without_fees', 'total_without_fees', 'untaxed_amount', 'tax_amount'];
      expectExact(orders, pick(order, [...totals, 'total', 'current_total']));
      prices.forEach((p, i) => {
        expectExact(nth(orders, 'lines', i), { unit_price: p, untaxed_amount: p, total: p });
      });
      const customer = await c.get(`/customers/${order.customer.id}`);
      CommerceCustomerItem.parse(customer.body);
      expect(problems(await documentOf(c.s.app), 'ecommerce_get_customer', customer.body)).toEqual([]);
    }
  });

  it('datastore rows: a number column stays that number, a date column that day', async () => {
    const p = await platform();
    const path = await p.rows();
    const amounts = [...AMOUNT_SETS.flat(), sum(AMOUNT_SETS[0] as number[])];
    const rows = amounts.map((amount, i) => ({
      data: { invoice_number: `RT-${i}`, amount, lines: i, due_date: DAY, synced_at: '2026-01-10T10:00:00Z' },
    }));
    const added = ok(await p.api('POST', path, rows)) as Rec[];
    const read = ok(await p.api('GET', path)) as Rec[];
    rows.forEach(({ data }, i) => {
      const id = added[i].id;
      expectExact(
        { added: added[i].data, read: find(read, id)?.data },
        pick(data, ['amount', 'lines', 'due_date']),
      );
    });
  });
});

// ---------------------------------------------------------------------------------------------
// 4: paged lists.

/**
 * Pages a list of `listOperation` through `get` (given the page query): the size bounds of the
 * document refused outside and taken at the edge, every page {items, page, size, total} with one
 * total, the pages together the full list once each, a page past the end empty with that total.
 */
async function expectPaging(
  app: SandboxApp,
  listOperation: string,
  get: (query: string) => Promise<CallResult>,
) {
  const doc = await documentOf(app);
  const size = paramsOf(doc, operation(doc, listOperation), 'query').get('size')?.schema ?? {};
  expect([size.minimum, size.maximum]).toEqual([1, MAX_PAGE_SIZE]);
  expectValidation(await get(`page=1&size=${size.maximum + 1}`), ['query', 'size']);
  expectValidation(await get(`page=1&size=${size.minimum - 1}`), ['query', 'size']);
  expectValidation(await get('page=0&size=10'), ['query', 'page']);

  const full: Rec[] = [];
  let total = -1;
  for (let page = 1; total < 0 || (page - 1) * size.maximum < total; page++) {
    const res = await get(`page=${page}&size=${size.maximum}`);
    expect(res.status, res.text).toBe(200);
    total = res.body.total;
    full.push(...res.body.items);
  }
  expect(full).toHaveLength(total);
  expect(total, `${listOperation}: too few items to page`).toBeGreaterThan(3);

  const per = Math.ceil(total / 3) + 1; // three pages or fewer, computed from the total
  const pages = Math.ceil(total / per);
  const union: Rec[] = [];
  for (let page = 1; page <= pages; page++) {
    const res = await get(`page=${page}&size=${per}`);
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['items', 'page', 'size', 'total']);
    expect(problems(doc, listOperation, res.body)).toEqual([]);
    expect({ page: res.body.page, size: res.body.size, total: res.body.total }).toEqual({
      page,
      size: per,
      total,
    });
    expect(res.body.items).toHaveLength(Math.min(per, total - (page - 1) * per));
    union.push(...res.body.items);
  }
  const ids = union.map((item) => item.id);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids).toEqual(full.map((item) => item.id));
  expect(union).toEqual(full);
  const past = await get(`page=${pages + 1}&size=${per}`);
  expect(past.status, past.text).toBe(200);
  expect(past.body).toEqual({ items: [], page: pages + 1, size: per, total });
}

describe('paged lists', () => {
  it('accounting clients', async () => {
    const a = await accountingSandbox();
    await expectPaging(a.app, 'accounting_get_clients', (query) => a.get(`/clients?${query}`));
  });

  it('invoicing invoices', async () => {
    const v = await verticalSandbox('invoicing');
    await expectPaging(v.app, 'invoicing_get_invoices', (query) => v.get(`/invoices?${query}`));
  });

  it('POS orders of a date range', async () => {
    const p = await platform();
    const base = `/consumers/${p.s.ids.verticalConsumers.POS}/pos/orders?date_from=2026-01-05&date_to=2026-01-11`;
    await expectPaging(p.s.app, 'pos_get_orders', (query) => p.api('GET', `${base}&${query}`));
  });
});
