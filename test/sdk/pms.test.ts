import { API } from '@chift/chift-nodejs';
import { pmsFactory } from '@chift/chift-nodejs/dist/src/modules/pms.js';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedDirectory } from '../../src/control/seeded-world.js';
import { SERVICE_ERRORS } from '../../src/lib/errors.js';
import { type RunningSandbox, startSandbox } from '../../src/server.js';
import { methodTracker } from './coverage.js';

/**
 * Every method of the official SDK's Property Management System module against a listening sandbox (a
 * fresh one per test).
 */
let sandbox: RunningSandbox;
let client: InstanceType<typeof API>;
const ids = seedDirectory(15);

// biome-ignore lint/suspicious/noExplicitAny: the SDK's consumer object is typed loosely
let pms: any;

const { track, missing } = methodTracker();

afterAll(() => {
  // Every method of the SDK's pms module is driven by this file's tests, whatever their order.
  expect(missing(pmsFactory)).toEqual([]);
});

beforeEach(async () => {
  // The manual clock's default start: a seeded dataset's busy recent months end on the clock's day,
  // and the dates below are of the weeks before it.
  sandbox = await startSandbox({ seed: 15, port: 0, clock: new Date('2026-01-15T09:00:00.000Z') });
  client = new API({
    baseUrl: sandbox.url,
    accountId: sandbox.credentials.accountId,
    clientId: sandbox.credentials.sandbox.clientId,
    clientSecret: sandbox.credentials.sandbox.clientSecret,
  });
  const consumer = await client.Consumers.getConsumerById(ids.verticalConsumers.PMS as string);
  pms = track(consumer.pms);
});

afterEach(async () => {
  await sandbox.close();
});

const cents = (n: number) => Math.round(n * 100);
const sum = (values: number[]) => values.reduce((t, v) => t + cents(v), 0) / 100;

describe('official SDK against the sandbox: Property Management System', () => {
  it('reads hotels, payment methods, accounting categories and taxes', async () => {
    const locations = await pms.getLocations();
    expect(locations).toHaveLength(2);
    expect((await pms.getPaymentMethods()).length).toBe(6);
    expect((await pms.getPaymentMethods({ location_id: locations[1].id })).length).toBe(5);
    expect((await pms.getAccountingCategories()).map((c: { code: string }) => c.code)).toContain('ROOM');
    expect((await pms.getTaxes()).some((t: { is_city_tax: boolean }) => t.is_city_tax)).toBe(true);
  });

  it('reads customers and one customer', async () => {
    const customers = await pms.getCustomers();
    expect(customers).toHaveLength(60);
    expect(await pms.getCustomer(customers[0].id)).toEqual(customers[0]);
    await expect(pms.getCustomer('nobody')).rejects.toMatchObject({
      error: {
        status_code: 404,
        message: SERVICE_ERRORS.posCustomerNotFound[2],
        error_code: SERVICE_ERRORS.posCustomerNotFound[1],
      },
    });
  });

  it('reads stays, invoices, payments and the closure of a day, which agree', async () => {
    const period = { date_from: '2025-11-01', date_to: '2026-01-14' };
    const orders = await pms.getOrders(period);
    expect(orders.length).toBeGreaterThan(100);
    const invoices = await pms.getInvoices(period);
    const payments = await pms.getPayments(period);
    expect(sum(payments.map((p: { total: number }) => p.total))).toBe(
      sum(invoices.map((i: { total: number }) => i.total)),
    );
    const day = invoices[invoices.length - 1].creation_date.slice(0, 10);
    const closure = await pms.getClosure(day);
    const ofDay = invoices.filter((i: { creation_date: string }) => i.creation_date.startsWith(day));
    expect(closure.status).toBe('closed');
    expect(sum(closure.closures.map((c: { total: number }) => c.total))).toBe(
      sum(ofDay.map((i: { total: number }) => i.total)),
    );
  });
});
