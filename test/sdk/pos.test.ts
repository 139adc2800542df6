import { API } from '@chift/chift-nodejs';
import { posFactory } from '@chift/chift-nodejs/dist/src/modules/pos.js';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedDirectory } from '../../src/control/seeded-world.js';
import { messages, SERVICE_ERRORS } from '../../src/lib/errors.js';
import { type RunningSandbox, startSandbox } from '../../src/server.js';
import { methodTracker } from './coverage.js';

/**
 * Every method of the official SDK's Point of Sale module against a listening sandbox (a fresh one per
 * test), with the seeded POS consumer (Zelty) and a consumer connected to Square for
 * the objectives.
 * The SDK pages through lists by itself (page, size=100) and sends x-chift-client-requestid when a
 * write is given a clientRequestId.
 */
let sandbox: RunningSandbox;
let client: InstanceType<typeof API>;
const ids = seedDirectory(13);

// biome-ignore lint/suspicious/noExplicitAny: the SDK's consumer object is typed loosely
let pos: any;

const { track, missing } = methodTracker();

afterAll(() => {
  // Every method of the SDK's pos module is driven by this file's tests, whatever their order.
  expect(missing(posFactory)).toEqual([]);
});

beforeEach(async () => {
  // The manual clock's default start: a seeded dataset's busy recent months end on the clock's day,
  // and the dates below are of the weeks before it.
  sandbox = await startSandbox({ seed: 13, port: 0, clock: new Date('2026-01-15T09:00:00.000Z') });
  client = new API({
    baseUrl: sandbox.url,
    accountId: sandbox.credentials.accountId,
    clientId: sandbox.credentials.sandbox.clientId,
    clientSecret: sandbox.credentials.sandbox.clientSecret,
  });
  const consumer = await client.Consumers.getConsumerById(ids.verticalConsumers.POS as string);
  pos = track(consumer.pos);
});

afterEach(async () => {
  await sandbox.close();
});

const cents = (n: number) => Math.round(n * 100);
const sum = (values: number[]) => values.reduce((t, v) => t + cents(v), 0) / 100;

describe('official SDK against the sandbox: Point of Sale', () => {
  it('reads the locations, payment methods, categories, accounting categories and products', async () => {
    const locations = await pos.getLocations();
    expect(locations).toHaveLength(2);
    const methods = await pos.getPaymentMethods();
    expect(methods.map((m: { name: string }) => m.name)).toContain('Espèces');
    const second = await pos.getPaymentMethods({ location_id: locations[1].id });
    expect(second.length).toBeLessThan(methods.length);
    const parents = await pos.getProductCategories({ only_parents: 'true' });
    expect(parents.map((c: { name: string }) => c.name)).toEqual(['Cuisine', 'Boissons']);
    expect((await pos.getAccountingCategories()).length).toBe(4);
    const products = await pos.getProducts();
    expect(products.length).toBeGreaterThan(20);
  });

  it('pages through every order by itself, and reads one', async () => {
    const orders = await pos.getOrders({});
    expect(orders.length).toBeGreaterThan(300);
    expect(new Set(orders.map((o: { id: string }) => o.id)).size).toBe(orders.length);
    const day = await pos.getOrders({ date_from: '2026-01-12', date_to: '2026-01-12', state: 'closed' });
    expect(day.every((o: { creation_date: string }) => o.creation_date.startsWith('2026-01-12'))).toBe(true);
    // An order has both `total` and `items`: the SDK's GET helper takes it for a page and returns its
    // lines (and, for a total over 100, asks for "page 2" of the same order). The service answers the
    // same way, so the SDK does the same against it.
    const small = day.find((o: { total: number }) => o.total < 100);
    expect(await pos.getOrder(small.id)).toEqual(small.items);
    await expect(pos.getOrder('nope')).rejects.toMatchObject({
      error: {
        status_code: 404,
        message: SERVICE_ERRORS.posOrderNotFound[2],
        error_code: SERVICE_ERRORS.posOrderNotFound[1],
      },
    });
    // The SDK's own test asks for the orders of a period whose end comes before its start: a list.
    expect(await pos.getOrders({ date_from: '2023-01-08', date_to: '2023-01-01' })).toEqual([]);
  });

  it('reads payments, sales and the closure of a day, which agree', async () => {
    const payments = await pos.getPayments({ date_from: '2026-01-12', date_to: '2026-01-12' });
    const sales = await pos.getSales({ date_from: '2026-01-12', date_to: '2026-01-12' });
    const closure = await pos.getClosure('2026-01-12');
    expect(sum(payments.map((p: { total: number }) => p.total))).toBe(sales.total);
    expect(closure.status).toBe('closed');
    expect(sum(closure.closures.map((c: { total: number }) => c.total))).toBe(sales.total);
  });

  it('creates a customer (idempotent with a client request id), finds and reads it', async () => {
    const body = { first_name: 'Sdk', last_name: 'Customer', email: 'sdk.customer@example.be' };
    const created = await pos.createCustomer(body, { clientRequestId: 'sdk-pos-1' });
    expect(created).toMatchObject({ name: 'Sdk Customer', loyalty: 0 });
    const again = await pos.createCustomer(body, { clientRequestId: 'sdk-pos-1' });
    expect(again.id).toBe(created.id);
    expect(
      (await pos.getCustomers({ email: 'sdk.customer@example.be' })).map((c: { id: string }) => c.id),
    ).toEqual([created.id]);
    expect(await pos.getCustomer(created.id)).toEqual(created);
    const all = await pos.getCustomers();
    expect(all).toHaveLength(31);
  });

  it('links an order to a customer', async () => {
    const [order] = await pos.getOrders({ date_from: '2026-01-13', date_to: '2026-01-13', state: 'closed' });
    await pos.createCustomer({ first_name: 'Sdk', last_name: 'Customer', email: 'sdk.customer@example.be' });
    const [customer] = await pos.getCustomers({ search: 'Sdk' });
    expect(customer.loyalty).toBe(0);
    const updated = await pos.updateOrder(
      order.id,
      { customer_id: customer.id },
      { clientRequestId: 'sdk-pos-2' },
    );
    expect(updated.customer_id).toBe(customer.id);
    expect((await pos.getCustomer(customer.id)).loyalty).toBe(Math.floor(order.total));
  });

  it('reads objectives through a connection that covers them, and is refused by one that does not', async () => {
    const limited = await client.Consumers.getConsumerById(ids.coverageLimitsConsumerId);
    await expect(
      limited.pos.getObjectives({ date_from: '2026-01-01', date_to: '2026-01-07' }),
    ).rejects.toMatchObject({
      error: { status_code: 400, message: messages.accountingFailure },
    });
    // The default consumer's Zelty covers them.
    const own = (await pos.getObjectives({ date_from: '2026-01-01', date_to: '2026-01-07' })) as unknown[];
    expect(own).toHaveLength(7);
    const shop = await client.Consumers.createConsumer({ name: 'SDK retail shop' });
    await shop.createConnection({
      integrationid: 9000,
      name: 'Retail',
      redirect: false,
      credentials: [{ key: 'token', value: 't' }],
    });
    // Typed as a page by the SDK; at run time its helper returns the items of every page.
    const objectives = (await shop.pos.getObjectives({
      date_from: '2026-01-01',
      date_to: '2026-01-31',
    })) as unknown as {
      date: string;
    }[];
    expect(objectives).toHaveLength(31);
    expect(objectives[0]).toMatchObject({
      date: '2026-01-01',
      total: expect.any(Number),
      tax_amount: expect.any(Number),
    });
  });
});
