import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { createApp, type SandboxApp } from '../../src/app.js';
import { FixtureError, loadFixtures } from '../../src/control/fixtures.control.js';
import { seedCredentials } from '../../src/platform/credentials.js';
import { StartError, startSandbox } from '../../src/server.js';
import { call, SEED, tokenFor } from '../helpers.js';
import { tempDir } from '../temp-dir.js';
import { invoice, token } from './fixture-helpers.js';

const ACCOUNTING_EXAMPLE = 'examples/fixtures/accounting-world.yaml';
const COMMERCE_EXAMPLE = 'examples/fixtures/commerce-webhooks.json';

/** A consumer on Odoo with a client and the accounting records given. */
const accountingDoc = (accounting: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  consumers: [
    {
      ref: 'books',
      name: 'Books & Co',
      email: 'finance@books.example',
      connections: [
        {
          integration: 1000,
          accounting: { clients: [{ ref: 'client', name: 'Client One', addresses: [] }], ...accounting },
        },
      ],
    },
  ],
  ...extra,
});

async function consumersOf(app: SandboxApp, bearer: string) {
  const res = await call(app, 'GET', '/consumers', { token: bearer });
  expect(res.status).toBe(200);
  return res.body as { consumerid: string; name: string }[];
}

function refusal(load: () => unknown): FixtureError {
  try {
    load();
  } catch (error) {
    expect(error).toBeInstanceOf(FixtureError);
    return error as FixtureError;
  }
  throw new Error('the fixture was not refused');
}

describe('loading a fixture', () => {
  it('createApp({ fixtures }) adds the records, visible through the normal API', async () => {
    const app = createApp({ seed: SEED, fixtures: accountingDoc({ invoices: [invoice()] }) });
    const bearer = await token(app);
    const consumers = await consumersOf(app, bearer);
    const books = consumers.find((c) => c.name === 'Books & Co');
    expect(books).toBeDefined();
    // It adds to the seeded world.
    expect(consumers.length).toBeGreaterThan(10);
    const id = books?.consumerid as string;
    const connections = await call(app, 'GET', `/consumers/${id}/connections`, { token: bearer });
    expect(connections.body).toMatchObject([{ integrationid: 1000, status: 'active' }]);
    const clients = await call(app, 'GET', `/consumers/${id}/accounting/clients?search=Client%20One`, {
      token: bearer,
    });
    expect(clients.body.items).toMatchObject([{ name: 'Client One' }]);
    const invoices = await call(
      app,
      'GET',
      `/consumers/${id}/accounting/invoices/type/customer_invoice?date_from=2026-01-05&date_to=2026-01-05`,
      { token: bearer },
    );
    const ours = (invoices.body.items as { partner_id: string; total: number }[]).filter(
      (i) => i.partner_id === clients.body.items[0].id,
    );
    expect(ours).toMatchObject([{ total: 121 }]);
  });

  it('POST /__sandbox/fixtures answers what was created, with ids the API then finds', async () => {
    const app = createApp({ seed: SEED });
    const res = await call(app, 'POST', '/__sandbox/fixtures', {
      body: accountingDoc(
        { invoices: [invoice({ invoice_number: 'INV-FIX-1' })] },
        {
          webhooks: [{ event: 'account.connection.created', url: 'https://hooks.example/connections' }],
          datastores: [
            {
              name: 'fixture-map',
              columns: [
                { name: 'source_id', type: 'text' },
                { name: 'amount', type: 'number', optional: true },
              ],
              search_column: 'source_id',
              rows: [{ consumer: 'books', data: { source_id: 'S-1', amount: 12.5 } }],
            },
          ],
        },
      ),
    });
    expect(res.status).toBe(200);
    const [consumer] = res.body.consumers;
    expect(consumer).toMatchObject({ name: 'Books & Co', ref: 'books' });
    const [connection] = consumer.connections;
    const [invoiceId] = connection.records.accounting.invoices;
    const bearer = await token(app);
    const got = await call(app, 'GET', `/consumers/${consumer.consumerid}/accounting/invoices/${invoiceId}`, {
      token: bearer,
    });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id: invoiceId, invoice_number: 'INV-FIX-1', total: 121 });
    const [webhook] = res.body.webhooks;
    const hooks = await call(app, 'GET', '/webhooks', { token: bearer });
    expect(hooks.body.map((h: { webhookid: string }) => h.webhookid)).toContain(webhook.webhookid);
    const [store] = res.body.datastores;
    const rows = await call(
      app,
      'GET',
      `/consumers/${consumer.consumerid}/datastore/${store.datastoreid}/data`,
      {
        token: bearer,
      },
    );
    expect(rows.body).toMatchObject([{ data: { source_id: 'S-1', amount: 12.5 } }]);
  });

  it('reads YAML files, and the two examples of docs/fixtures.md load', async () => {
    const app = createApp({ seed: SEED, fixtures: ACCOUNTING_EXAMPLE });
    const bearer = await token(app);
    const consumers = await consumersOf(app, bearer);
    expect(consumers.map((c) => c.name)).toEqual(['Acme Bakery']);
    const id = consumers[0]?.consumerid as string;
    const entries = await call(
      app,
      'GET',
      `/consumers/${id}/accounting/journal/entries?unposted_allowed=true&date_from=2026-01-10&date_to=2026-01-10`,
      { token: bearer },
    );
    expect(entries.status).toBe(200);
    const rent = (entries.body.items as { reference: string | null; items: unknown[] }[]).filter(
      (e) => e.reference === 'Rent January',
    );
    expect(rent).toHaveLength(1);
    // The café paid half of its invoice: 53 of 106.
    const sales = await call(
      app,
      'GET',
      `/consumers/${id}/accounting/invoices/type/customer_invoice?date_from=2026-01-05&date_to=2026-01-05&include_payments=true`,
      { token: bearer },
    );
    const bread = (
      sales.body.items as { invoice_number: string; status: string; payments: unknown[] }[]
    ).find((i) => i.invoice_number === 'BRD/2026/0001');
    expect(bread).toMatchObject({ status: 'posted', payments: [{ dedicated_amount: 53 }] });

    const shop = await loadFixtures(createApp({ seed: SEED }), COMMERCE_EXAMPLE);
    expect(shop.consumers[0]?.connections[0]?.records.commerce).toMatchObject({
      products: [expect.any(String), expect.any(String)],
      customers: [expect.any(String)],
      orders: [expect.any(String)],
    });
    expect(shop.webhooks.map((w) => w.event)).toEqual([
      'commerce.order.created',
      'account.connection.created',
    ]);
  });

  it('the commerce example: products, their stock and an order are seen as the shop sells them', async () => {
    const app = createApp({ seed: SEED });
    const result = await loadFixtures(app, COMMERCE_EXAMPLE);
    const consumer = result.consumers[0]?.consumerid as string;
    const records = result.consumers[0]?.connections[0]?.records.commerce ?? {};
    const bearer = await token(app);
    const candle = await call(
      app,
      'GET',
      `/consumers/${consumer}/commerce/products/${records.products?.[0]}`,
      {
        token: bearer,
      },
    );
    expect(candle.status).toBe(200);
    expect(candle.body).toMatchObject({ name: 'Beeswax candle', sku: 'ML-CANDLE' });
    // 45 in stock, 2 sold by the order.
    expect(candle.body.variants[0].available_quantity).toBe(43);
    const order = await call(app, 'GET', `/consumers/${consumer}/commerce/orders/${records.orders?.[0]}`, {
      token: bearer,
    });
    expect(order.status).toBe(200);
    expect(order.body.customer.id).toBe(records.customers?.[0]);
    expect(order.body.lines).toHaveLength(2);
  });

  it('POS orders and customers: closed orders are paid, an order closing later is open', async () => {
    const app = createApp({ seed: SEED });
    const result = await loadFixtures(app, {
      consumers: [
        {
          name: 'Brasserie',
          connections: [
            {
              integration: 'Zelty',
              pos: {
                customers: [{ ref: 'jan', first_name: 'Jan', last_name: 'Claes' }],
                orders: [
                  {
                    creation_date: '2026-01-14T12:00:00Z',
                    customer_id: 'jan',
                    items: [{ product: 'Steak frites', quantity: 2 }, { product: 'Tomato soup' }],
                    tip: 2,
                  },
                  {
                    creation_date: '2026-01-15T08:50:00Z',
                    closing_date: '2026-01-15T09:30:00Z',
                    items: [{ product: 'Tomato soup' }],
                  },
                ],
              },
            },
          ],
        },
      ],
    });
    const consumer = result.consumers[0]?.consumerid as string;
    const [closed, open] = result.consumers[0]?.connections[0]?.records.pos?.orders ?? [];
    const bearer = await token(app);
    const paid = await call(app, 'GET', `/consumers/${consumer}/pos/orders/${closed}`, { token: bearer });
    expect(paid.status).toBe(200);
    // 2 x 24.50 + 6.50 before taxes, 10% VAT (Zelty's restaurant is French: food eaten in).
    expect(paid.body).toMatchObject({
      total: 61.05,
      tax_amount: 5.55,
      closing_date: '2026-01-14T12:30:00.000Z',
    });
    expect(paid.body.payments).toMatchObject([{ total: 61.05, tip: 2, status: 'Completed' }]);
    const waiting = await call(app, 'GET', `/consumers/${consumer}/pos/orders/${open}`, { token: bearer });
    expect(waiting.body.closing_date).toBeNull();
    await call(app, 'POST', '/__sandbox/clock', { body: { now: '2026-01-15T10:00:00Z' } });
    const done = await call(app, 'GET', `/consumers/${consumer}/pos/orders/${open}`, {
      token: await token(app),
    });
    expect(done.body.closing_date).toBe('2026-01-15T09:30:00.000Z');
  });

  it('banking accounts and transactions: balances computed by the API', async () => {
    const app = createApp({ seed: SEED });
    const result = await loadFixtures(app, {
      consumers: [
        {
          name: 'Bank user',
          connections: [
            {
              integration: 10000,
              banking: {
                accounts: [
                  {
                    ref: 'main',
                    description: 'Fixture account',
                    opening_balance: 1000,
                    transactions: [
                      { amount: 250.5, execution_date: '2026-01-10T10:00:00Z', counterpart_name: 'Client' },
                      { amount: -100, execution_date: '2026-01-12T10:00:00Z', operation_type: 'card' },
                      { amount: -40, execution_date: '2026-01-14T10:00:00Z', status: 'pending' },
                    ],
                  },
                ],
                transactions: [{ account: 'main', amount: -50.5, execution_date: '2026-01-13T08:00:00Z' }],
              },
            },
          ],
        },
      ],
    });
    const consumer = result.consumers[0]?.consumerid as string;
    const records = result.consumers[0]?.connections[0]?.records.banking;
    expect(records?.transactions).toHaveLength(4);
    const accountId = records?.accounts?.[0] as string;
    const bearer = await token(app);
    const accounts = await call(app, 'GET', `/consumers/${consumer}/banking/accounts`, { token: bearer });
    expect(accounts.status).toBe(200);
    const mine = (accounts.body.items as { id: string }[]).find((a) => a.id === accountId);
    expect(mine).toMatchObject({ currency: 'EUR', current_balance: 1100, available_balance: 1060 });
    const transactions = await call(
      app,
      'GET',
      `/consumers/${consumer}/banking/transactions?account_id=${accountId}`,
      { token: bearer },
    );
    expect(transactions.status).toBe(200);
    expect(transactions.body.items).toHaveLength(4);
    const first = (transactions.body.items as { amount: number; opening_balance: number | null }[]).find(
      (t) => t.amount === 250.5,
    );
    expect(first?.opening_balance).toBe(1000);
  });

  it('payment payments and refunds, with their balance movements', async () => {
    const app = createApp({ seed: SEED });
    const result = await loadFixtures(app, {
      consumers: [
        {
          name: 'Merchant',
          connections: [
            {
              integration: 7106,
              payment: {
                payments: [
                  {
                    amount: 100,
                    description: 'Fixture sale',
                    payment_date: '2026-01-10T10:00:00Z',
                    refunds: [{ amount: 30, refund_date: '2026-01-11T10:00:00Z' }],
                  },
                ],
              },
            },
          ],
        },
      ],
    });
    const consumer = result.consumers[0]?.consumerid as string;
    const records = result.consumers[0]?.connections[0]?.records.payment;
    const paymentId = records?.payments?.[0] as string;
    expect(records?.refunds).toHaveLength(1);
    const bearer = await token(app);
    const payment = await call(app, 'GET', `/consumers/${consumer}/payment/payments/${paymentId}`, {
      token: bearer,
    });
    expect(payment.status).toBe(200);
    expect(payment.body).toMatchObject({ amount: 100, status: 'completed', currency: 'EUR' });
    const movements = await call(
      app,
      'GET',
      `/consumers/${consumer}/payment/transactions?date_from=2026-01-10&date_to=2026-01-11&size=100`,
      { token: bearer },
    );
    expect(movements.status).toBe(200);
    const ours = (movements.body.items as { payment_id: string | null }[]).filter(
      (t) => t.payment_id === paymentId,
    );
    expect(ours).toMatchObject([
      { amount: -30, fee: 0, accounting_category: 'payment_cancel' },
      { amount: 100, fee: 1.65, accounting_category: 'payment' },
    ]);
  });

  it('pms orders: lines and totals as the seeder computes them, invoiced at check-out', async () => {
    const app = createApp({ seed: SEED });
    const base = {
      integration: 9503,
      pms: {
        orders: [
          {
            customer: '411001',
            check_in: '2026-01-12T15:00:00Z',
            check_out: '2026-01-14T10:00:00Z',
            guests: 2,
            lines: [
              { description: 'Double room, night', quantity: 2, unit_price: 100, tax: 10, category: 'ROOM' },
              {
                description: 'Taxe de séjour',
                quantity: 4,
                unit_price: 5.2,
                tax: 'Taxe de séjour',
                category: 'CITY',
              },
            ],
          },
        ],
      },
    };
    const result = await loadFixtures(app, { consumers: [{ name: 'Hotelier', connections: [base] }] });
    const consumer = result.consumers[0]?.consumerid as string;
    const orderId = result.consumers[0]?.connections[0]?.records.pms?.orders?.[0] as string;
    const bearer = await token(app);
    const orders = await call(
      app,
      'GET',
      `/consumers/${consumer}/pms/orders?date_from=2026-01-12&date_to=2026-01-12&size=100`,
      { token: bearer },
    );
    expect(orders.status).toBe(200);
    const order = (orders.body.items as { id: string }[]).find((o) => o.id === orderId);
    // Thais's hotels are French: 200 + 10% VAT, and 4 x 5.20 of taxe de séjour without VAT.
    expect(order).toMatchObject({
      total: 240.8,
      tax_amount: 20,
      closing_date: '2026-01-14T10:00:00.000Z',
      guests: 2,
    });
    expect((order as unknown as { bills: unknown[] }).bills).toHaveLength(1);
  });

  it('invoicing contacts, products and invoices, by ref', async () => {
    const app = createApp({ seed: SEED });
    const result = await loadFixtures(app, {
      consumers: [
        {
          name: 'Studio',
          connections: [
            {
              integration: 7010,
              invoicing: {
                contacts: [{ ref: 'acme', company_name: 'Acme SA', is_customer: true }],
                products: [{ ref: 'day', name: 'Consulting day', unit_price: 800 }],
                invoices: [
                  {
                    invoice_type: 'customer_invoice',
                    status: 'posted',
                    currency: 'EUR',
                    invoice_date: '2026-01-07',
                    partner_id: 'acme',
                    untaxed_amount: 1600,
                    tax_amount: 336,
                    total: 1936,
                    lines: [
                      {
                        product_id: 'day',
                        unit_price: 800,
                        quantity: 2,
                        untaxed_amount: 1600,
                        tax_rate: 21,
                        tax_amount: 336,
                        total: 1936,
                      },
                    ],
                  },
                ],
              },
            },
          ],
        },
      ],
    });
    const consumer = result.consumers[0]?.consumerid as string;
    const { contacts, products, invoices } = result.consumers[0]?.connections[0]?.records.invoicing ?? {};
    const bearer = await token(app);
    const got = await call(app, 'GET', `/consumers/${consumer}/invoicing/invoices/${invoices?.[0]}`, {
      token: bearer,
    });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ partner_id: contacts?.[0], total: 1936 });
    expect(got.body.lines[0].product_id).toBe(products?.[0]);
  });

  it('environment: production puts the records in the production environment', async () => {
    const app = createApp({ seed: SEED });
    const result = await loadFixtures(app, { environment: 'production', consumers: [{ name: 'Live one' }] });
    const production = await tokenFor(app, {
      accountId: seedCredentials(SEED).accountId,
      ...seedCredentials(SEED).production,
    });
    expect((await consumersOf(app, production)).map((c) => c.name)).toContain('Live one');
    const sandboxSide = await call(app, 'GET', `/consumers/${result.consumers[0]?.consumerid}`, {
      token: await token(app),
    });
    expect(sandboxSide.status).toBe(401);
  });

  it('replace: true leaves only the consumers of the document', async () => {
    const app = createApp({ seed: SEED });
    const bearer = await token(app);
    expect((await consumersOf(app, bearer)).length).toBeGreaterThan(10);
    const res = await call(app, 'POST', '/__sandbox/fixtures', {
      body: { replace: true, consumers: [{ name: 'Only One' }, { name: 'Only Two' }] },
    });
    expect(res.status).toBe(200);
    expect(res.body.replaced).toBe(true);
    // The keys stay: the token minted before still works.
    const consumers = await consumersOf(app, bearer);
    expect(consumers.map((c) => c.name)).toEqual(['Only One', 'Only Two']);
    expect((await call(app, 'GET', '/webhooks', { token: bearer })).body).toEqual([]);
    expect((await call(app, 'GET', '/syncs', { token: bearer })).body).toEqual([]);
  });

  it('startSandbox({ fixtures }) and sandbox.fixtures.load(doc)', async () => {
    const sandbox = await startSandbox({
      seed: SEED,
      port: 0,
      fixtures: { consumers: [{ name: 'At start' }] },
    });
    try {
      expect(sandbox.fixtures.loaded?.consumers[0]?.name).toBe('At start');
      const more = await sandbox.fixtures.load({ consumers: [{ name: 'Later' }] });
      const bearer = await token(sandbox.app);
      const names = (await consumersOf(sandbox.app, bearer)).map((c) => c.name);
      expect(names).toContain('At start');
      expect(names).toContain(more.consumers[0]?.name);
    } finally {
      await sandbox.close();
    }
    await expect(
      startSandbox({
        seed: SEED,
        port: 0,
        fixtures: { consumers: [{ name: 'x', connections: [{ integration: 'Nope' }] }] },
      }),
    ).rejects.toBeInstanceOf(StartError);
  });

  it('with a world file, the fixtures go into the file it is created with, once', async () => {
    const dir = tempDir('fixtures-');
    const db = join(dir, 'world.json');
    const doc = {
      replace: true,
      consumers: [{ name: 'Persisted', connections: [{ integration: 'Evoliz' }] }],
    };
    const refused = startSandbox({
      seed: SEED,
      port: 0,
      db,
      fixtures: { consumers: [{ email: 'no-name' }] },
    });
    await expect(refused).rejects.toThrow('consumers[0].name');
    // The refused start leaves no file behind: the next one creates it with its fixtures.
    expect(existsSync(db)).toBe(false);
    const first = await startSandbox({ seed: SEED, port: 0, db, fixtures: doc });
    await first.fixtures.load({ consumers: [{ name: 'Added later' }] });
    await first.close();
    const second = await startSandbox({ seed: SEED, port: 0, db, fixtures: doc });
    try {
      expect(second.fixtures.loaded).toBeNull();
      const names = (await consumersOf(second.app, await token(second.app))).map((c) => c.name);
      expect(names).toEqual(['Persisted', 'Added later']);
    } finally {
      await second.close();
    }
  });
});

describe('refusals name the file, the JSON path and the rule', () => {
  it('an unknown integration', () => {
    const error = refusal(() =>
      createApp({
        seed: SEED,
        fixtures: { consumers: [{ name: 'A', connections: [{ integration: 'Nope' }] }] },
      }),
    );
    expect(error.path).toBe('consumers[0].connections[0].integration');
    expect(error.rule).toBe('The specified integrationid is not valid, is not active or does not exist');
    expect(error.status).toBe(400);
  });

  it('a second active connection of the same integration', () => {
    const error = refusal(() =>
      createApp({
        seed: SEED,
        fixtures: {
          consumers: [{ name: 'A', connections: [{ integration: 1000 }, { integration: 'Odoo' }] }],
        },
      }),
    );
    expect(error.path).toBe('consumers[0].connections[1]');
    expect(error.rule).toContain('There is already an active connection for the integrationid 1000');
  });

  it('an unbalanced journal entry', async () => {
    const app = createApp({ seed: SEED });
    const res = await call(app, 'POST', '/__sandbox/fixtures', {
      body: accountingDoc({
        journal_entries: [
          {
            journal_id: 'OD',
            number: 'OD/2026/9999',
            currency: 'EUR',
            date: '2026-01-10',
            items: [
              { account_type: 'general_account', account: '610000', debit: 100, credit: 0 },
              { account_type: 'general_account', account: '550000', debit: 0, credit: 90 },
            ],
          },
        ],
      }),
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      message: 'The entry is not balanced.',
      status: 'error',
      error_code: 'ERROR_ENTRY_NOT_BALANCED',
    });
    expect(res.body.detail).toBe(
      'consumers[0].connections[0].accounting.journal_entries[0]: The entry is not balanced: debit 100, credit 90',
    );
  });

  it('an invoice line on an account that does not exist', async () => {
    const app = createApp({ seed: SEED });
    const res = await call(app, 'POST', '/__sandbox/fixtures', {
      body: accountingDoc({ invoices: [invoice(), invoice({}, { account_number: '799999' })] }),
    });
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe('ERROR_ACCOUNT_NUMBER_NOT_FOUND');
    expect(res.body.message).toBe("A used account number doesn't exist in the accounting system.");
    expect(res.body.detail).toMatch(
      /^consumers\[0\]\.connections\[0\]\.accounting\.invoices\[1\]\.lines\[0\]\.account_number: The account number '799999' does not exist/,
    );
  });

  it('a banking transaction on an account that does not exist', () => {
    const error = refusal(() =>
      createApp({
        seed: SEED,
        fixtures: {
          consumers: [
            {
              name: 'A',
              connections: [
                {
                  integration: 10000,
                  banking: {
                    transactions: [{ account: 'nope', amount: 10, execution_date: '2026-01-10T10:00:00Z' }],
                  },
                },
              ],
            },
          ],
        },
      }),
    );
    expect(error.path).toBe('consumers[0].connections[0].banking.transactions[0].account');
    expect(error.status).toBe(400);
  });

  it('a payment refunded for more than its amount', () => {
    const error = refusal(() =>
      createApp({
        seed: SEED,
        fixtures: {
          consumers: [
            {
              name: 'A',
              connections: [
                {
                  integration: 7106,
                  payment: {
                    payments: [
                      {
                        amount: 20,
                        description: 'Sale',
                        payment_date: '2026-01-10T10:00:00Z',
                        refunds: [{ amount: 25, refund_date: '2026-01-11T10:00:00Z' }],
                      },
                    ],
                  },
                },
              ],
            },
          ],
        },
      }),
    );
    expect(error.path).toBe('consumers[0].connections[0].payment.payments[0].refunds[0].amount');
  });

  it('a pms order checking out before it checks in', () => {
    const error = refusal(() =>
      createApp({
        seed: SEED,
        fixtures: {
          consumers: [
            {
              name: 'A',
              connections: [
                {
                  integration: 9503,
                  pms: {
                    orders: [
                      {
                        customer: '411001',
                        check_in: '2026-01-12T15:00:00Z',
                        check_out: '2026-01-11T10:00:00Z',
                        lines: [{ description: 'Night', unit_price: 100, tax: 10, category: 'ROOM' }],
                      },
                    ],
                  },
                },
              ],
            },
          ],
        },
      }),
    );
    expect(error.path).toBe('consumers[0].connections[0].pms.orders[0].check_out');
  });

  it('a payment with a negative amount is a schema violation', () => {
    const error = refusal(() =>
      createApp({
        seed: SEED,
        fixtures: {
          consumers: [
            {
              name: 'A',
              connections: [
                {
                  integration: 7106,
                  payment: {
                    payments: [{ amount: -5, description: 'Sale', payment_date: '2026-01-10T10:00:00Z' }],
                  },
                },
              ],
            },
          ],
        },
      }),
    );
    expect(error.path).toBe('consumers[0].connections[0].payment.payments[0].amount');
    expect(error.status).toBe(422);
  });

  it('a schema violation (a consumer without a name), in a file', () => {
    const dir = tempDir('fixtures-');
    const file = join(dir, 'world.json');
    writeFileSync(file, JSON.stringify({ consumers: [{ name: 'Fine' }, { email: 'x@example.com' }] }));
    const error = refusal(() => createApp({ seed: SEED, fixtures: file }));
    expect(error.status).toBe(422);
    expect(error.path).toBe('consumers[1].name');
    expect(error.file).toBe(file);
    expect(error.line).toBe(1);
    expect(error.message).toBe(`${file}, line 1, field consumers[1].name: Validation error (Field required)`);
  });

  it('a schema violation over HTTP: 422 with the ServiceError envelope', async () => {
    const app = createApp({ seed: SEED });
    const res = await call(app, 'POST', '/__sandbox/fixtures', { body: { consumers: [{ nam: 'typo' }] } });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('Validation error');
    expect(res.body.detail).toContain('consumers[0].name: Field required');
  });

  it('an error leaves nothing written', async () => {
    const app = createApp({ seed: SEED });
    const bearer = await token(app);
    const before = (await call(app, 'GET', '/consumers', { token: bearer })).text;
    const hooksBefore = (await call(app, 'GET', '/webhooks', { token: bearer })).text;
    const res = await call(app, 'POST', '/__sandbox/fixtures', {
      body: accountingDoc(
        { invoices: [invoice(), invoice({}, { tax_code: 'NOPE' })] },
        { webhooks: [{ event: 'account.connection.created', url: 'https://hooks.example/a' }] },
      ),
    });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(
      /^consumers\[0\]\.connections\[0\]\.accounting\.invoices\[1\]\.lines\[0\]\.tax_code:/,
    );
    expect((await call(app, 'GET', '/consumers', { token: bearer })).text).toBe(before);
    expect((await call(app, 'GET', '/webhooks', { token: bearer })).text).toBe(hooksBefore);
    // Nor did the refusal use up ids: the fixed document gets the ids a fresh app gives it.
    const fixed = accountingDoc({ invoices: [invoice()] });
    const here = await call(app, 'POST', '/__sandbox/fixtures', { body: fixed });
    const fresh = await loadFixtures(createApp({ seed: SEED }), fixed);
    expect(here.body).toEqual(fresh);
    // A refused replace leaves the seeded world in place.
    const replaced = await call(app, 'POST', '/__sandbox/fixtures', {
      body: { replace: true, consumers: [{ name: 'A', connections: [{ integration: 424242 }] }] },
    });
    expect(replaced.status).toBe(400);
    expect((await consumersOf(app, bearer)).length).toBeGreaterThan(10);
  });
});

describe('ids', () => {
  it('the same document and seed give the same ids; given ids are kept', async () => {
    const doc = accountingDoc(
      { invoices: [invoice()] },
      { webhooks: [{ event: 'account.connection.created', url: 'https://hooks.example/b' }] },
    );
    const first = await loadFixtures(createApp({ seed: SEED }), doc);
    const second = await loadFixtures(createApp({ seed: SEED }), doc);
    expect(second).toEqual(first);
    const otherSeed = await loadFixtures(createApp({ seed: SEED + 1 }), doc);
    expect(otherSeed.consumers[0]?.consumerid).not.toBe(first.consumers[0]?.consumerid);
    // Loaded twice into one world, the same document derives new ids.
    const app = createApp({ seed: SEED });
    const once = await loadFixtures(app, { consumers: [{ name: 'Twice' }] });
    const twice = await loadFixtures(app, { consumers: [{ name: 'Twice' }] });
    expect(twice.consumers[0]?.consumerid).not.toBe(once.consumers[0]?.consumerid);

    const given = '0b0c0d0e-0000-4000-8000-000000000001';
    const kept = await loadFixtures(createApp({ seed: SEED }), { consumers: [{ id: given, name: 'Given' }] });
    expect(kept.consumers[0]?.consumerid).toBe(given);
    const clash = createApp({ seed: SEED, fixtures: { consumers: [{ id: given, name: 'Given' }] } });
    await expect(loadFixtures(clash, { consumers: [{ id: given, name: 'Again' }] })).rejects.toMatchObject({
      path: 'consumers[0].id',
      rule: 'The id is already used',
    });
  });
});

// ---------------------------------------------------------------------------------------------
// The served JSON Schema: no JSON Schema validator is installed, so a structural check of the subset
// z.toJSONSchema emits (type, properties, required, additionalProperties, items, enum, anyOf).

type Schema = Record<string, unknown>;

function problems(schema: Schema, value: unknown, path: string, root: Schema): string[] {
  if (typeof schema.$ref === 'string') {
    const target = (schema.$ref as string)
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((node, key) => (node as Schema)[key], root);
    return problems(target as Schema, value, path, root);
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key] as Schema[] | undefined;
    if (options && !options.some((option) => problems(option, value, path, root).length === 0)) {
      return [`${path}: matches none of ${key}`];
    }
  }
  const out: string[] = [];
  if (Array.isArray(schema.enum) && !schema.enum.includes(value))
    out.push(`${path}: not one of ${schema.enum}`);
  if ('const' in schema && schema.const !== value) out.push(`${path}: not ${String(schema.const)}`);
  const types = schema.type === undefined ? [] : ([] as unknown[]).concat(schema.type);
  const typeOf = (v: unknown) =>
    v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v;
  if (
    types.length &&
    !types.some((t) => t === typeOf(value) || (t === 'number' && typeOf(value) === 'integer'))
  ) {
    return [`${path}: a ${typeOf(value)}, not ${types.join(' or ')}`];
  }
  if (typeOf(value) === 'object') {
    const object = value as Record<string, unknown>;
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    for (const name of (schema.required ?? []) as string[]) {
      if (!(name in object)) out.push(`${path}.${name}: missing`);
    }
    for (const [name, child] of Object.entries(object)) {
      const sub = properties[name];
      if (sub) out.push(...problems(sub, child, `${path}.${name}`, root));
      else if (schema.additionalProperties === false) out.push(`${path}.${name}: not allowed`);
      else if (typeof schema.additionalProperties === 'object') {
        out.push(...problems(schema.additionalProperties as Schema, child, `${path}.${name}`, root));
      }
    }
  }
  if (Array.isArray(value) && schema.items) {
    value.forEach((item, i) => {
      out.push(...problems(schema.items as Schema, item, `${path}[${i}]`, root));
    });
  }
  return out;
}

describe('GET /__sandbox/fixtures/schema', () => {
  it('serves a JSON Schema the example documents satisfy, and which refuses a broken one', async () => {
    const res = await call(createApp({ seed: SEED }), 'GET', '/__sandbox/fixtures/schema');
    expect(res.status).toBe(200);
    const schema = res.body as Schema;
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    const examples = [
      parseYaml(readFileSync(ACCOUNTING_EXAMPLE, 'utf8')),
      JSON.parse(readFileSync(COMMERCE_EXAMPLE, 'utf8')),
    ];
    for (const example of examples) expect(problems(schema, example, '$', schema)).toEqual([]);
    // docs/fixtures.md shows the same two files, word for word.
    const guide = readFileSync('docs/fixtures.md', 'utf8');
    for (const file of [ACCOUNTING_EXAMPLE, COMMERCE_EXAMPLE])
      expect(guide).toContain(readFileSync(file, 'utf8'));
    expect(problems(schema, { consumers: [{ email: 'x' }], extra: 1 }, '$', schema)).toEqual([
      '$.consumers[0].name: missing',
      '$.extra: not allowed',
    ]);
  });
});
