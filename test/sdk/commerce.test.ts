import { API } from '@chift/chift-nodejs';
import { ecommerceFactory } from '@chift/chift-nodejs/dist/src/modules/ecommerce.js';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedDirectory } from '../../src/control/seeded-world.js';
import { SERVICE_ERRORS } from '../../src/lib/errors.js';
import { type RunningSandbox, startSandbox } from '../../src/server.js';
import { methodTracker } from './coverage.js';

/** Every method of the official SDK's eCommerce module against a listening sandbox (a fresh one per test). */
let sandbox: RunningSandbox;
let client: InstanceType<typeof API>;
const ids = seedDirectory(14);

// biome-ignore lint/suspicious/noExplicitAny: the SDK's consumer object is typed loosely
let ecommerce: any;

const { track, missing } = methodTracker();

afterAll(() => {
  // Every method of the SDK's ecommerce module is driven by this file's tests, whatever their order.
  expect(missing(ecommerceFactory)).toEqual([]);
});

beforeEach(async () => {
  sandbox = await startSandbox({ seed: 14, port: 0 });
  client = new API({
    baseUrl: sandbox.url,
    accountId: sandbox.credentials.accountId,
    clientId: sandbox.credentials.sandbox.clientId,
    clientSecret: sandbox.credentials.sandbox.clientSecret,
  });
  const consumer = await client.Consumers.getConsumerById(ids.verticalConsumers.ECOMMERCE as string);
  ecommerce = track(consumer.ecommerce);
});

afterEach(async () => {
  await sandbox.close();
});

describe('official SDK against the sandbox: eCommerce', () => {
  it('reads the reference data', async () => {
    expect(await ecommerce.getLocations()).toHaveLength(2);
    expect((await ecommerce.getPaymentMethods()).length).toBe(5);
    const parents = await ecommerce.getProductCategories({ only_parents: 'true' });
    expect(parents.every((c: { parent_id: string | null }) => c.parent_id === null)).toBe(true);
    expect(
      (await ecommerce.getTaxes()).some(
        (t: { rate: number; country: string }) => t.rate === 21 && t.country === 'BE',
      ),
    ).toBe(true);
    expect((await ecommerce.getCountries()).map((c: { code: string }) => c.code)).toContain('FR');
  });

  it('reads customers, products and variants', async () => {
    const customers = await ecommerce.getCustomers();
    // The history's 40, and those who signed up today so far (the sandbox follows the machine's clock).
    const today = new Date().toISOString().slice(0, 10);
    expect(customers.filter((c: { created_on: string }) => c.created_on < today)).toHaveLength(40);
    expect(await ecommerce.getCustomer(customers[0].id)).toEqual(customers[0]);
    const products = await ecommerce.getProducts();
    expect(products.length).toBeGreaterThan(10);
    const product = products.find((p: { variants: unknown[] }) => p.variants.length > 1);
    expect(await ecommerce.getProduct(product.id)).toEqual(product);
    expect((await ecommerce.getProducts({ sku: product.sku })).map((p: { id: string }) => p.id)).toEqual([
      product.id,
    ]);
    const variant = await ecommerce.getProductVariantById(product.variants[0].id);
    expect(variant.inventory_details).toHaveLength(2);
    await expect(ecommerce.getProduct('nope')).rejects.toMatchObject({
      error: {
        status_code: 404,
        message: SERVICE_ERRORS.commerceProductNotFound[2],
        error_code: SERVICE_ERRORS.commerceProductNotFound[1],
      },
    });
  });

  it('sets the stock of a variant and creates an order that takes from it', async () => {
    const products = await ecommerce.getProducts();
    const product = products.find((p: { status: string }) => p.status === 'published');
    const variant = product.variants[0];
    const [warehouse] = await ecommerce.getLocations();
    const set = await ecommerce.updateAvailableQuantity(
      variant.id,
      { location_id: warehouse.id, available_quantity: 25 },
      { clientRequestId: 'sdk-stock-1' },
    );
    expect(set).toEqual({ location: { id: warehouse.id, name: warehouse.name }, available_quantity: 25 });
    const stocked = await ecommerce.getProductVariantById(variant.id);
    const available = stocked.available_quantity;
    const [method] = await ecommerce.getPaymentMethods();
    const address = {
      first_name: 'Sdk',
      last_name: 'Buyer',
      street: 'Meir',
      number: '1',
      city: 'Antwerpen',
      postal_code: '2000',
      country: 'BE',
    };
    const body = {
      customer: { email: 'sdk.buyer@example.be', first_name: 'Sdk', last_name: 'Buyer' },
      billing_address: address,
      shipping_address: address,
      currency: 'EUR',
      lines: [{ variant_id: variant.id, quantity: 3, tax_rate: 21, unit_price: variant.prices[0].price }],
      payment_method: method.id,
    };
    const order = await ecommerce.createOrder(body, { clientRequestId: 'sdk-order-1' });
    expect(order).toMatchObject({ status: 'confirmed', currency: 'EUR' });
    const again = await ecommerce.createOrder(body, { clientRequestId: 'sdk-order-1' });
    expect(again.id).toBe(order.id);
    expect((await ecommerce.getProductVariantById(variant.id)).available_quantity).toBe(available - 3);
    expect(await ecommerce.getOrder(order.id, { include_product_categories: 'true' })).toMatchObject({
      id: order.id,
    });
    // The listening sandbox follows the machine's clock: the order is dated today, with the shop's own
    // orders of the day so far (numbered with the day), which appear as they are placed.
    const day = order.created_on.slice(0, 10);
    const today = await ecommerce.getOrders({ date_from: day, date_to: day });
    const others = today.filter((o: { id: string }) => o.id !== order.id);
    expect(today.length).toBe(others.length + 1);
    for (const other of others) {
      expect(other.order_number.startsWith(`#${day.replaceAll('-', '')}`)).toBe(true);
      expect(other.created_on <= new Date().toISOString()).toBe(true);
    }
    const all = await ecommerce.getOrders({});
    expect(all.length).toBeGreaterThan(100);
    // As the SDK's own tests call them: a period whose end comes before its start (a list), and an
    // order paid with 'bank-transfer', a payment method the shop does not list (taken as given).
    expect(await ecommerce.getOrders({ date_from: '2023-01-08', date_to: '2023-01-01' })).toEqual([]);
    const transfer = await ecommerce.createOrder({
      ...body,
      customer: { email: 'test@test.com' },
      lines: [{ variant_id: variant.id, quantity: 1, tax_rate: 21.0, unit_price: 10.0 }],
      payment_method: 'bank-transfer',
    });
    expect(transfer).toMatchObject({ status: 'confirmed', payment_method_id: 'bank-transfer' });
  });
});
