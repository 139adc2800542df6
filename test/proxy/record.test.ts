import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { API } from '@chift/chift-nodejs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createApp, type SandboxApp } from '../../src/app.js';
import { seedDirectory } from '../../src/control/seeded-world.js';
import { FakeValues } from '../../src/proxy/fake-values.js';
import { type RunningProxy, startProxy } from '../../src/proxy/index.js';
import { type RunningSandbox, startSandbox } from '../../src/server.js';
import { type Listening, listenOn } from '../helpers.js';
import { sdkClient } from './sdk-client.js';

/**
 * A world recorded through the proxy: what the client read, kept as a fixture document; loaded by a
 * sandbox with --fixtures, it answers the client's reads with the same records (same ids, personal
 * values replaced by generated ones of the same shape, the same each time a value recurs).
 */

const SEED = 13;
const OFFLINE_SEED = 99;
const ids = seedDirectory(SEED);
const INVOICING = ids.verticalConsumers.INVOICING as string;
const ACCOUNTING = ids.verticalConsumers.ACCOUNTING as string;
const BANK = ids.verticalConsumers.BANKING as string;
const SHOP = ids.verticalConsumers.ECOMMERCE as string;

// biome-ignore lint/suspicious/noExplicitAny: records are read field by field
type Item = any;

let upstream: Listening;
let proxy: RunningProxy | undefined;
let offline: RunningSandbox | Listening | undefined;
let folder: string;

beforeEach(async () => {
  upstream = await listenOn(createApp({ seed: SEED, connectionLife: 'off' }));
  folder = mkdtempSync(join(tmpdir(), 'proxy-record-'));
});

afterEach(async () => {
  await proxy?.close();
  await offline?.close();
  await upstream.close();
  proxy = undefined;
  offline = undefined;
  rmSync(folder, { recursive: true, force: true });
});

const clientOf = sdkClient;

/** What the client reads: an invoicing consumer's contacts, an accounting consumer's clients and suppliers. */
async function reads(client: InstanceType<typeof API>) {
  const invoicing = (await client.Consumers.getConsumerById(INVOICING)).invoicing;
  const accounting = (await client.Consumers.getConsumerById(ACCOUNTING)).accounting;
  const contacts: Item[] = await invoicing.getContacts();
  const clients: Item[] = await accounting.getClients();
  const suppliers: Item[] = await accounting.getSuppliers();
  return { contacts, clients, suppliers, contact: await invoicing.getContactById(contacts[0].id) };
}

const byId = (items: Item[]) => new Map(items.map((item) => [item.id as string, item]));

describe('a world recorded through the proxy', () => {
  it('loaded with --fixtures, answers the same reads with the same records, personal values replaced', async () => {
    proxy = await startProxy({ upstream: upstream.origin, seed: SEED, record: {}, har: true });
    const seen = await reads(clientOf(proxy.url, SEED));
    const file = join(folder, 'world.yaml');
    writeFileSync(file, await proxy.worldText(file));
    const document = parse(readFileSync(file, 'utf8'));
    expect(document.replace).toBe(true);
    expect(document.consumers.map((consumer: Item) => consumer.id).sort()).toEqual(
      [ACCOUNTING, INVOICING].sort(),
    );

    offline = await startSandbox({ seed: OFFLINE_SEED, port: 0, fixtures: file });
    const again = await reads(clientOf(offline.url, OFFLINE_SEED));
    const offlineContacts = byId(again.contacts);
    for (const contact of seen.contacts) {
      const replayed = offlineContacts.get(contact.id);
      expect(replayed, `contact ${contact.id}`).toBeDefined();
      // What is not personal is as the service answered it.
      for (const field of ['is_customer', 'is_supplier', 'is_company', 'currency', 'language'])
        expect(replayed[field]).toEqual(contact[field]);
      expect(replayed.addresses?.[0]?.city).toBe(contact.addresses?.[0]?.city);
      // What is personal is another value of the same shape.
      if (contact.email) {
        expect(replayed.email).not.toBe(contact.email);
        expect(replayed.email).toMatch(/^[^@\s]+@[^@\s]+\.example$/);
      }
      if (contact.phone) {
        expect(replayed.phone).not.toBe(contact.phone);
        expect(replayed.phone.replace(/\d/g, '0')).toBe(contact.phone.replace(/\d/g, '0'));
      }
      if (contact.vat) expect(replayed.vat.slice(0, 2)).toBe(contact.vat.slice(0, 2));
    }
    expect(
      await (
        await clientOf(offline.url, OFFLINE_SEED).Consumers.getConsumerById(INVOICING)
      ).invoicing.getContactById(seen.contact.id),
    ).toEqual(offlineContacts.get(seen.contact.id));
    const offlineClients = byId(again.clients);
    for (const client of seen.clients)
      expect(offlineClients.get(client.id)?.account_number).toBe(client.account_number);
    expect(byId(again.suppliers).size).toBeGreaterThanOrEqual(seen.suppliers.length);
  });

  it('keeps the values with keepValues, and the HAR holds the exchanges without a credential', async () => {
    proxy = await startProxy({
      upstream: upstream.origin,
      seed: SEED,
      record: { keepValues: true },
      har: true,
    });
    const seen = await reads(clientOf(proxy.url, SEED));
    const document = (await proxy.world()) as Item;
    const invoicing = document.consumers.find((consumer: Item) => consumer.id === INVOICING);
    const recorded = byId(invoicing.connections[0].invoicing.contacts);
    expect(recorded.get(seen.contacts[0].id).email).toBe(seen.contacts[0].email ?? undefined);
    const har = (await proxy.har()) as Item;
    expect(har.log.version).toBe('1.2');
    expect(har.log.entries.length).toBeGreaterThan(5);
    const text = JSON.stringify(har);
    expect(text).not.toContain(ids.sandbox.clientSecret);
    const token = har.log.entries.find((entry: Item) => entry.request.url.endsWith('/token'));
    expect(token.response.content.text).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/);
    const read = har.log.entries.find((entry: Item) => entry.request.url.includes('/invoicing/contacts'));
    expect(read.request.headers.find((h: Item) => h.name === 'authorization').value).toMatch(
      /^Bearer unsigned\./,
    );
  });
});

describe('the fake values of a recorded world', () => {
  it('replace a value by the same fake wherever it recurs, and by the same one in another recording', () => {
    const one = new FakeValues();
    const other = new FakeValues();
    expect(one.of('company_name', 'Schmidt SAS')).toBe(one.of('company_name', 'Schmidt SAS'));
    expect(one.of('company_name', 'Schmidt SAS')).toBe(other.of('company_name', 'Schmidt SAS'));
    expect(one.of('company_name', 'Schmidt SAS')).toMatch(/ SAS$/);
    expect(one.of('company_name', 'Schmidt SAS')).not.toBe('Schmidt SAS');
    expect(one.of('iban', 'BE81959413800045')).toMatch(/^BE\d{14}$/);
    expect(one.of('phone', '+33 6 48 98 59 48')).toMatch(/^\+33 \d \d\d \d\d \d\d \d\d$/);
    expect(one.of('currency', 'EUR')).toBe('EUR');
    const record = one.record({
      name: 'Schmidt SAS',
      addresses: [{ street: 'rue Voltaire', city: 'Bordeaux' }],
    });
    expect(record.name).toBe(one.of('company_name', 'Schmidt SAS'));
    expect(record.addresses[0]).toEqual({ street: one.of('street', 'rue Voltaire'), city: 'Bordeaux' });
  });
});

describe('a world recorded from reads of records alone', () => {
  it('holds the consumer of the records, though the client never read the consumer itself', async () => {
    proxy = await startProxy({ upstream: upstream.origin, seed: SEED, record: {} });
    const credentials = { accountId: ids.accountId, ...ids.sandbox };
    const token = (await (
      await fetch(`${proxy.url}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(credentials),
      })
    ).json()) as { access_token: string };
    const res = await fetch(`${proxy.url}/consumers/${INVOICING}/invoicing/contacts?size=3`, {
      headers: { authorization: `Bearer ${token.access_token}` },
    });
    const read = (await res.json()) as { items: Item[] };
    const document = (await proxy.world()) as Item;
    expect(document.consumers).toHaveLength(1);
    expect(document.consumers[0].id).toBe(INVOICING);
    const contacts = document.consumers[0].connections[0].invoicing.contacts as Item[];
    expect(contacts.map((contact) => contact.id)).toEqual(read.items.map((contact) => contact.id));
    // A world the sandbox loads.
    offline = await startSandbox({ seed: OFFLINE_SEED, port: 0, fixtures: document });
    expect(offline.fixtures.loaded?.consumers[0]?.consumerid).toBe(INVOICING);
  });
});

/**
 * The records that name others, recorded: an invoicing consumer's invoices with their contacts,
 * products and taxes, a shop's products, customers and orders, a bank's accounts and transactions,
 * and the connections with the ids the service gave them. Loaded with createApp({ fixtures }), the
 * world answers the same reads with the same records: the same ids and references, personal values
 * replaced, the recorded records alone.
 */

/** What the client reads: invoices with what they name, the shop, the bank. */
async function kindReads(client: InstanceType<typeof API>) {
  const invoicingConsumer = await client.Consumers.getConsumerById(INVOICING);
  const invoicing = invoicingConsumer.invoicing;
  const shop = (await client.Consumers.getConsumerById(SHOP)).ecommerce;
  const bankConsumer = await client.Consumers.getConsumerById(BANK);
  const accounts: Item[] = await bankConsumer.banking.getAccounts();
  return {
    connections: (await invoicingConsumer.getConnections()) as Item[],
    taxes: (await invoicing.getTaxes()) as Item[],
    contacts: (await invoicing.getContacts()) as Item[],
    products: (await invoicing.getProducts()) as Item[],
    invoices: (await invoicing.getInvoices()) as Item[],
    shopProducts: (await shop.getProducts()) as Item[],
    shopCustomers: (await shop.getCustomers()) as Item[],
    orders: (await shop.getOrders({ date_from: '2025-12-01', date_to: '2026-01-15' } as Item)) as Item[],
    accounts,
    transactions: (await bankConsumer.banking.getAccountTransactions({
      account_id: accounts[0].id,
    } as Item)) as Item[],
  };
}

/**
 * A record without what the software sets when it creates it again: its number in the software, its
 * times, and a product's stock (posting the recorded invoices moves it once more).
 */
const stable = ({
  source_ref: _ref,
  last_updated_on: _updated,
  created_on: _created,
  available_quantity: _stock,
  ...rest
}: Item) => rest;

async function listOf(app: SandboxApp, token: string, consumer: string, path: string): Promise<Item[]> {
  const res = await app.request(`/consumers/${consumer}/${path}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status, path).toBe(200);
  const body = (await res.json()) as Item;
  return body.items ?? body;
}

describe('a recorded world of records that name others', () => {
  it('loaded with createApp({ fixtures }), answers the same reads with the same ids and references', async () => {
    proxy = await startProxy({ upstream: upstream.origin, seed: SEED, record: {} });
    const seen = await kindReads(clientOf(proxy.url, SEED));
    const file = join(folder, 'world.yaml');
    writeFileSync(file, await proxy.worldText(file));
    const text = readFileSync(file, 'utf8');
    const document = parse(text);
    const invoicingDoc = document.consumers.find((consumer: Item) => consumer.id === INVOICING);
    expect(invoicingDoc.connections[0]).toMatchObject({
      id: seen.connections[0].connectionid,
      seeded: false,
    });

    const app = createApp({ seed: OFFLINE_SEED, connectionLife: 'off', fixtures: file });
    offline = await listenOn(app);
    const again = await kindReads(clientOf(offline.origin, OFFLINE_SEED));
    // The connection keeps the service's id.
    expect(again.connections.map((connection: Item) => connection.connectionid)).toEqual(
      seen.connections.map((connection: Item) => connection.connectionid),
    );
    // The recorded records alone: no seeded dataset beside them.
    expect([...byId(again.contacts).keys()].sort()).toEqual([...byId(seen.contacts).keys()].sort());
    expect([...byId(again.products).keys()].sort()).toEqual([...byId(seen.products).keys()].sort());
    // Every invoice (each names a contact and products read), with its references and amounts.
    expect(again.invoices).toHaveLength(seen.invoices.length);
    const taxCode = (taxes: Item[], id: string | null) => taxes.find((tax) => tax.id === id)?.code ?? null;
    const replayed = byId(again.invoices);
    for (const invoice of seen.invoices) {
      const copy = replayed.get(invoice.id);
      expect(copy, `invoice ${invoice.id}`).toBeDefined();
      for (const field of ['partner_id', 'invoice_number', 'invoice_type', 'total', 'tax_amount', 'currency'])
        expect(copy[field], field).toEqual(invoice[field]);
      expect(copy.lines.map((line: Item) => line.product_id)).toEqual(
        invoice.lines.map((line: Item) => line.product_id),
      );
      expect(copy.lines.map((line: Item) => taxCode(again.taxes, line.tax_id))).toEqual(
        invoice.lines.map((line: Item) => taxCode(seen.taxes, line.tax_id)),
      );
    }
    // Products: the same, but for the tax, the offline software's of the same code.
    const products = byId(again.products);
    for (const product of seen.products) {
      const copy = products.get(product.id);
      expect(stable({ ...copy, tax_id: taxCode(again.taxes, copy.tax_id) })).toEqual(
        stable({ ...product, tax_id: taxCode(seen.taxes, product.tax_id) }),
      );
    }
    // Contacts: personal values replaced.
    const contacts = byId(again.contacts);
    for (const contact of seen.contacts.filter((contact: Item) => contact.email))
      expect(contacts.get(contact.id).email).not.toBe(contact.email);

    // The shop: products with their variants, customers faked, orders of recorded variants.
    const shopProducts = byId(again.shopProducts);
    for (const product of seen.shopProducts) {
      const copy = shopProducts.get(product.id);
      expect(copy?.name).toBe(product.name);
      expect(copy.variants.map((variant: Item) => [variant.id, variant.sku, variant.prices[0]])).toEqual(
        product.variants.map((variant: Item) => [variant.id, variant.sku, variant.prices[0]]),
      );
    }
    const customers = byId(again.shopCustomers);
    for (const customer of seen.shopCustomers) {
      const copy = customers.get(customer.id);
      expect(copy, `customer ${customer.id}`).toBeDefined();
      expect(copy.last_name).not.toBe(customer.last_name);
      expect(copy.addresses[0]?.city).toBe(customer.addresses[0]?.city);
    }

    // The bank: accounts and the transactions read, with their amounts.
    const token = (await (
      await app.request('/token', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          accountId: seedDirectory(OFFLINE_SEED).accountId,
          ...seedDirectory(OFFLINE_SEED).sandbox,
        }),
      })
    ).json()) as { access_token: string };
    const accounts = await listOf(app, token.access_token, BANK, 'banking/accounts');
    expect(accounts.map((account) => account.id).sort()).toEqual(
      seen.accounts.map((account: Item) => account.id).sort(),
    );
    const transactions = byId(again.transactions);
    for (const transaction of seen.transactions) {
      const copy = transactions.get(transaction.id);
      expect(copy, `transaction ${transaction.id}`).toBeDefined();
      expect([copy.amount, copy.execution_date]).toEqual([transaction.amount, transaction.execution_date]);
    }
  });

  it('leaves out a record that names one the client never read, and counts it', async () => {
    proxy = await startProxy({ upstream: upstream.origin, seed: SEED, record: {} });
    const invoicing = (await clientOf(proxy.url, SEED).Consumers.getConsumerById(INVOICING)).invoicing;
    const invoices: Item[] = await invoicing.getInvoices();
    const file = join(folder, 'world.yaml');
    writeFileSync(file, await proxy.worldText(file));
    const document = parse(readFileSync(file, 'utf8'));
    const connection = document.consumers[0].connections[0];
    expect(connection.invoicing?.invoices).toBeUndefined();
    const named = invoices.filter((invoice) => invoice.partner_id !== null).length;
    expect(named).toBeGreaterThan(0);
    expect((await proxy.world()) as Item).toEqual(document);
    expect(readFileSync(file, 'utf8')).toContain(`#   ${named} invoicing invoices: its contact was not read`);
    // The world still loads: the connection, its records alone (none).
    const app = createApp({ seed: OFFLINE_SEED, fixtures: file });
    const token = (await (
      await app.request('/token', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          accountId: seedDirectory(OFFLINE_SEED).accountId,
          ...seedDirectory(OFFLINE_SEED).sandbox,
        }),
      })
    ).json()) as { access_token: string };
    expect(await listOf(app, token.access_token, INVOICING, 'invoicing/invoices')).toEqual([]);
  });
});
