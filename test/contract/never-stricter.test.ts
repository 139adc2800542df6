import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { FixtureError, loadFixtures } from '../../src/control/fixtures.control.js';
import { openWorldFile, seedDirectory, seedWorld } from '../../src/control/seeded-world.js';
import { errors, messages } from '../../src/lib/errors.js';
import {
  MAX_CUSTOM_BYTES_PER_CONNECTION,
  MAX_CUSTOM_RECORDS_PER_CONNECTION,
  MAX_CUSTOM_RECORDS_PER_PATH,
} from '../../src/modules/custom/custom-records.js';
import {
  type CallResult,
  call,
  expectError,
  SEED,
  sandbox,
  sandboxToken,
  type TestSandbox,
} from '../helpers.js';
import {
  type AccountingSandbox,
  accountingSandbox,
  invoiceBody,
  line,
  type Reference,
  referenceOf,
} from '../modules/accounting/helpers.js';
import { tempDir } from '../temp-dir.js';

/**
 * Requests the service accepts and the sandbox once refused. The sandbox must never be stricter than
 * the service: each case here is a refusal that neither the reference document, nor the spec, nor the
 * software behind the integration would give.
 */

const failure = errors.accountingFailure('');

describe('an exchange rate in the folder’s own currency', () => {
  // The reference asks for currency_exchange_rate only when the currency differs from the folder's:
  // in the folder's currency the amounts need no conversion, so 0 (or null) is no rate to refuse.
  let a: AccountingSandbox;
  let ref: Reference;

  beforeEach(async () => {
    a = await accountingSandbox();
    ref = await referenceOf(a);
  });

  const balanceOf = async (account: string) =>
    (await a.post('/chart-of-accounts/balance', { accounts: [account], end: '202612' })).body.items[0]
      .balance as number;

  it('a journal entry in EUR takes a rate of 0, and books its amounts as they are', async () => {
    const before = await balanceOf('612000');
    const res = await a.post('/journal-entries', {
      journal_id: ref.journals.OD?.id,
      number: 'OD-RATE-0',
      currency: 'EUR',
      currency_exchange_rate: 0,
      date: '2026-01-15',
      items: [
        { account_type: 'general_account', account: '612000', debit: 10, credit: 0 },
        { account_type: 'general_account', account: '550000', debit: 0, credit: 10 },
      ],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.items[0].currency_exchange_rate).toBe(1);
    expect(await balanceOf('612000')).toBeCloseTo(before + 10, 2);
  });

  it('so do an invoice, a payment, a financial entry, a miscellaneous operation and a bank statement', async () => {
    const sale = invoiceBody(
      ref,
      'customer_invoice',
      [line(ref, { quantity: 1, unit_price: 100, vat: 'V21' })],
      { invoice_number: 'RATE-0', currency_exchange_rate: 0 },
    );
    const invoice = await a.post('/invoices', sale);
    expect(invoice.status, invoice.text).toBe(200);
    // Its total in the folder's currency is the total itself, not 0.
    expect(invoice.body.accounting_info.main_currency_total).toBe(invoice.body.total);

    const payment = await a.post('/invoices/payments', {
      date: '2026-01-20',
      payment_method_id: ref.methods['Bank transfer'],
      currency: 'EUR',
      currency_exchange_rate: 0,
      items: [{ invoice_id: invoice.body.id, amount: 10 }],
    });
    expect(payment.status, payment.text).toBe(204);

    const financial = await a.post('/financial-entries', {
      date: '2026-01-15',
      journal_id: ref.journals.BNK?.id,
      currency: 'EUR',
      currency_exchange_rate: 0,
      items: [{ account_type: 'general_account', account: '700000', amount: 25 }],
    });
    expect(financial.status, financial.text).toBe(200);
    expect(financial.body.currency_exchange_rate).toBe(1);

    const operation = await a.post('/miscellaneous-operation', {
      currency: 'EUR',
      currency_exchange_rate: 0,
      operation_date: '2026-01-15',
      lines: [
        { type: 'general_account', account_number: '612000', amount: 5 },
        { type: 'general_account', account_number: '550000', amount: -5 },
      ],
    });
    expect(operation.status, operation.text).toBe(200);
    expect(operation.body.currency_exchange_rate).toBe(1);

    const statement = await a.post('/bank-transactions', {
      bank_statement_date: '2026-01-15',
      bank_account_id: ref.journals.BNK?.id,
      currency: 'EUR',
      external_bank_statement_id: 'RATE-0',
      items: [{ amount: 5, currency_exchange_rate: 0 }],
    });
    expect(statement.status, statement.text).toBe(200);
  });

  it('a null rate in the folder’s currency is no rate either', async () => {
    const res = await a.post('/financial-entries', {
      date: '2026-01-15',
      journal_id: ref.journals.BNK?.id,
      currency: 'EUR',
      currency_exchange_rate: null,
      items: [{ account_type: 'general_account', account: '700000', amount: 25 }],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.currency_exchange_rate).toBe(1);
  });

  it('another currency still needs a rate above 0', async () => {
    const res = await a.post('/journal-entries', {
      journal_id: ref.journals.OD?.id,
      number: 'OD-RATE-USD',
      currency: 'USD',
      currency_exchange_rate: 0,
      date: '2026-01-15',
      items: [
        { account_type: 'general_account', account: '612000', debit: 10, credit: 0 },
        { account_type: 'general_account', account: '550000', debit: 0, credit: 10 },
      ],
    });
    expectError(res, failure);
    expect(res.body.detail).toMatch(/exchange rate must be greater than 0/);
  });
});

// ---------------------------------------------------------------------------------------------
// Custom routes: the service hands them to the connector's own API, whatever the path.

interface Client {
  s: TestSandbox;
  token: string;
  api(method: string, path: string, body?: unknown): Promise<CallResult>;
}

async function client(options: Parameters<typeof sandbox>[0] = {}): Promise<Client> {
  const s = sandbox(options);
  const token = await sandboxToken(s);
  return {
    s,
    token,
    api: (method, path, body) =>
      call(s.app, method, path, { token, ...(body !== undefined ? { body } : {}) }),
  };
}

const notFound = (res: CallResult, detail: RegExp) => {
  expect(res.status, res.text).toBe(404);
  expect(res.body).toMatchObject({ message: messages.notFound, status: 'error' });
  expect(res.body.detail).toMatch(detail);
};

describe('custom routes: every custom path is a collection of the connection', () => {
  it("the custom connector's paths list, create, read, update and delete records", async () => {
    const { s, api } = await client();
    const base = `/consumers/${s.ids.customConsumerId}/custom/sandbox-custom`;
    expect((await api('GET', `${base}/products`)).body).toEqual({ items: [], total: 0, page: 1, size: 50 });

    const brush = await api('POST', `${base}/products`, { name: 'Toothbrush', price_cents: 1000 });
    expect(brush.status, brush.text).toBe(200);
    expect(brush.body).toMatchObject({ name: 'Toothbrush', price_cents: 1000 });
    expect(typeof brush.body.id).toBe('string');
    const paste = await api('POST', `${base}/products`, { id: 'PRD-7', name: 'Paste' });
    expect(paste.body).toEqual({ id: 'PRD-7', name: 'Paste' });
    const again = await api('POST', `${base}/products`, { id: 'PRD-7', name: 'Other' });
    expectError(again, failure);
    expect(again.body.detail).toMatch(/'products' already holds a record 'PRD-7'/);

    const second = await api('GET', `${base}/products?page=2&size=1`);
    expect(second.body).toEqual({ items: [{ id: 'PRD-7', name: 'Paste' }], total: 2, page: 2, size: 1 });
    expect((await api('GET', `${base}/products/PRD-7`)).body).toEqual({ id: 'PRD-7', name: 'Paste' });
    // By the integration id as well: the same connection, the same records.
    expect((await api('GET', `/consumers/${s.ids.customConsumerId}/custom/90901/products`)).body.total).toBe(
      2,
    );

    const patched = await api('PATCH', `${base}/products/PRD-7`, { price_cents: 250, id: 'moved' });
    expect(patched.body).toEqual({ id: 'PRD-7', name: 'Paste', price_cents: 250 });
    const removed = await api('DELETE', `${base}/products/${brush.body.id}`);
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body).toEqual(brush.body);
    notFound(await api('GET', `${base}/products/${brush.body.id}`), /'products' holds no record/);
    notFound(
      await api('PATCH', `${base}/products/nothing`, { a: 1 }),
      /'products' holds no record 'nothing'/,
    );
    notFound(await api('DELETE', `${base}/products/nothing`), /holds no record 'nothing'/);
    notFound(await api('DELETE', `${base}/products`), /names one record/);
    expect((await api('GET', `${base}/products`)).body.items).toEqual([patched.body]);

    // Paths of several segments, and bodies that are no object.
    const line = await api('POST', `${base}/v2/orders/1/lines`, { quantity: 2 });
    expect((await api('GET', `${base}/v2/orders/1/lines`)).body.items).toEqual([line.body]);
    expect((await api('GET', `${base}/v2/orders/1/lines/${line.body.id}`)).body).toEqual(line.body);
    // A path that holds nothing lists nothing: a listing is never refused.
    expect((await api('GET', `${base}/v2/orders/2`)).body).toMatchObject({ items: [], total: 0 });
    const listed = await api('POST', `${base}/tags`, ['a', 'b']);
    expect(listed.body).toMatchObject({ value: ['a', 'b'] });
  });

  it('the vertical routes keep records per connection, apart from the records of the vertical', async () => {
    const { s, api } = await client();
    const accounting = `/consumers/${s.ids.verticalConsumers.ACCOUNTING}/accounting/custom`;
    const move = await api('POST', `${accounting}/erp/moves`, { ref: 'M1', amount: 10 });
    expect(move.status, move.text).toBe(200);
    expect((await api('GET', `${accounting}/erp/moves`)).body.items).toEqual([move.body]);
    expect((await api('GET', `${accounting}/erp/moves/${move.body.id}?folder_id=any`)).body).toEqual(
      move.body,
    );
    // A path named after a unified collection is the connector's too: it starts empty.
    expect((await api('GET', `${accounting}/journals`)).body.total).toBe(0);
    const posted = await api('POST', `${accounting}/journals`, { code: 'X' });
    expect(posted.status, posted.text).toBe(200);
    expect((await api('DELETE', `${accounting}/journals/${posted.body.id}`)).status).toBe(200);
    // Another consumer's connection to the same connector holds its own.
    const other = `/consumers/${s.ids.syncConsumerId}/accounting/custom`;
    expect((await api('GET', `${other}/erp/moves`)).body.total).toBe(0);

    const invoicing = `/consumers/${s.ids.verticalConsumers.INVOICING}/invoicing/custom`;
    const contact = await api('POST', `${invoicing}/contacts`, { name: 'x' });
    expect(contact.status, contact.text).toBe(200);
    const renamed = await api('PATCH', `${invoicing}/contacts/${contact.body.id}`, { name: 'y' });
    expect(renamed.body).toEqual({ ...contact.body, name: 'y' });

    const banking = `/consumers/${s.ids.verticalConsumers.BANKING}/banking`;
    const refresh = await api('POST', `${banking}/custom/refresh/accounts`, {});
    expect(refresh.status, refresh.text).toBe(200);
    expect(Object.keys(refresh.body)).toEqual(['id']);
    expect((await api('POST', `${banking}/synchronize`, { all: true })).body).toMatchObject({ all: true });
  });

  it('paths and ids named after Object.prototype members are data, and survive a reload', async () => {
    const file = join(tempDir('custom-'), 'world.json');
    const firstStore = await openWorldFile(file, () => seedWorld(SEED));
    const first = await client({ store: firstStore });
    const base = `/consumers/${first.s.ids.customConsumerId}/custom/sandbox-custom`;
    const proto = await first.api('POST', `${base}/__proto__`, { id: '__proto__', name: 'kept' });
    expect(proto.status, proto.text).toBe(200);
    expect((await first.api('POST', `${base}/constructor`, { id: 'toString' })).status).toBe(200);
    expect((await first.api('GET', `${base}/__proto__/__proto__`)).body).toEqual({
      id: '__proto__',
      name: 'kept',
    });
    notFound(await first.api('GET', `${base}/__proto__/constructor`), /holds no record 'constructor'/);
    notFound(await first.api('GET', `${base}/constructor/valueOf`), /holds no record 'valueOf'/);
    expect((await first.api('GET', `${base}/toString/valueOf`)).body.total).toBe(0);
    expect((await first.api('GET', `${base}/hasOwnProperty`)).body.total).toBe(0);
    expect((await first.api('PATCH', `${base}/__proto__/__proto__`, { name: 'changed' })).body).toEqual({
      id: '__proto__',
      name: 'changed',
    });
    expect(({} as Record<string, unknown>).name).toBeUndefined();
    await firstStore.close();

    const secondStore = await openWorldFile(file, () => seedWorld(SEED));
    const second = await client({ store: secondStore });
    expect((await second.api('GET', `${base}/__proto__`)).body.items).toEqual([
      { id: '__proto__', name: 'changed' },
    ]);
    expect((await second.api('GET', `${base}/constructor/toString`)).body).toEqual({ id: 'toString' });
    await secondStore.close();
  });

  it('bounds a path, a connection and their weight; a refused write leaves nothing', async () => {
    const many = (n: number, prefix: string) =>
      Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}` }));
    const { s, api } = await client({
      fixtures: {
        consumers: [
          {
            name: 'Full',
            connections: [
              {
                integration: 'Sandbox Custom',
                custom: [0, 1, 2, 3, 4].map((p) => ({
                  path: `p${p}`,
                  records: many(MAX_CUSTOM_RECORDS_PER_PATH, `r${p}-`),
                })),
              },
            ],
          },
        ],
      },
    });
    expect(MAX_CUSTOM_RECORDS_PER_PATH * 5).toBe(MAX_CUSTOM_RECORDS_PER_CONNECTION);
    const consumer = (await api('GET', '/consumers')).body.find((c: { name: string }) => c.name === 'Full');
    const base = `/consumers/${consumer.consumerid}/custom/sandbox-custom`;
    const full = await api('POST', `${base}/p0`, { id: 'more' });
    expect(full.status).toBe(400);
    expect(full.body).toMatchObject({ message: messages.customRecordsFull });
    expect(full.body.detail).toMatch(/at most 1000 records per custom path, and 'p0' holds 1000/);
    const connection = await api('POST', `${base}/p5`, {});
    expect(connection.body.detail).toMatch(/at most 5000 records over the custom paths of a connection/);
    expect((await api('GET', `${base}/p5`)).body.total).toBe(0);
    expect((await api('DELETE', `${base}/p0/r0-0`)).status).toBe(200);
    expect((await api('POST', `${base}/p5`, {})).status).toBe(200);

    // The weight: records near the body limit fill the connection's bytes.
    const heavy = `/consumers/${s.ids.customConsumerId}/custom/sandbox-custom/files`;
    const blob = 'x'.repeat(900_000);
    let refused: CallResult | undefined;
    for (let i = 0; i < 12 && !refused; i++) {
      const res = await api('POST', heavy, { blob });
      if (res.status !== 200) refused = res;
    }
    expect(refused?.status).toBe(400);
    expect(refused?.body.detail).toMatch(
      new RegExp(`weigh at most ${MAX_CUSTOM_BYTES_PER_CONNECTION} bytes`),
    );
    const kept = (await api('GET', `${heavy}?size=100`)).body;
    expect(kept.total).toBe(Math.floor(MAX_CUSTOM_BYTES_PER_CONNECTION / 900_000));
    const holder =
      s.app.services.store.world.custom_records[
        Object.values(s.app.services.store.world.connections).find(
          (c) => c.consumerid === s.ids.customConsumerId,
        )?.connectionid as string
      ];
    expect(holder?.count).toBe(kept.total);
  });
});

describe('custom records declared in a fixture', () => {
  it('a connection’s custom section fills its paths, which the routes then answer', async () => {
    const app = createApp({ seed: SEED });
    const result = await loadFixtures(app, {
      consumers: [
        {
          name: 'Regate user',
          connections: [
            {
              integration: 90901,
              credentials: { base_url: 'https://erp.example' },
              custom: [
                {
                  connector: 'sandbox-custom',
                  path: 'products',
                  records: [{ id: 'PRD-1', name: 'Brush' }, { name: 'Paste' }],
                },
                { path: 'contacts' },
              ],
            },
            { integration: 1000, custom: [{ path: '/erp/moves/', records: [{ id: 7, amount: 1 }] }] },
          ],
        },
      ],
    });
    const [custom, odoo] = result.consumers[0]?.connections ?? [];
    const ids = custom?.records.custom?.products ?? [];
    expect(ids[0]).toBe('PRD-1');
    expect(ids).toHaveLength(2);
    expect(odoo?.records.custom).toEqual({ 'erp/moves': ['7'] });
    const token = await sandboxToken({ app, ids: seedDirectory(SEED) });
    const consumer = result.consumers[0]?.consumerid;
    const get = (path: string) => call(app, 'GET', `/consumers/${consumer}${path}`, { token });
    expect((await get('/custom/sandbox-custom/products')).body.items).toEqual([
      { id: 'PRD-1', name: 'Brush' },
      { name: 'Paste', id: ids[1] },
    ]);
    expect((await get('/custom/sandbox-custom/contacts')).body.total).toBe(0);
    expect((await get('/accounting/custom/erp/moves/7')).body).toEqual({ id: 7, amount: 1 });
  });

  it('refuses another connector, a connection without custom routes, and an id given twice', () => {
    const refused = (connection: Record<string, unknown>) => {
      try {
        createApp({ seed: SEED, fixtures: { consumers: [{ name: 'C', connections: [connection] }] } });
      } catch (error) {
        expect(error).toBeInstanceOf(FixtureError);
        return error as FixtureError;
      }
      throw new Error('the fixture was not refused');
    };
    const other = refused({ integration: 90901, custom: [{ connector: 'regate', path: 'products' }] });
    expect(other.path).toBe('consumers[0].connections[0].custom[0].connector');
    const pos = refused({ integration: 9012, custom: [{ path: 'products' }] });
    expect(pos.path).toBe('consumers[0].connections[0].custom');
    expect(pos.detail).toMatch(/no custom routes/);
    const twice = refused({
      integration: 90901,
      custom: [{ path: 'products', records: [{ id: 'A' }, { id: 'A' }] }],
    });
    expect(twice.path).toMatch(/^consumers\[0\]\.connections\[0\]\.custom\[0\]\.records\[1\]/);
    expect(twice.detail).toMatch(/already holds a record 'A'/);
  });
});
