import { API } from '@chift/chift-nodejs';
import { paymentFactory } from '@chift/chift-nodejs/dist/src/modules/payment.js';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedDirectory } from '../../src/control/seeded-world.js';
import { SERVICE_ERRORS } from '../../src/lib/errors.js';
import { type RunningSandbox, startSandbox } from '../../src/server.js';
import { methodTracker } from './coverage.js';

/**
 * Every method of the official Node SDK's payment module against a listening sandbox (a fresh one per
 * test), with the seeded Payment consumer. The SDK pages through lists by itself (page and size=100).
 */
let sandbox: RunningSandbox;
const ids = seedDirectory(15);

// biome-ignore lint/suspicious/noExplicitAny: the SDK's consumer object is typed loosely
let payment: any;

const { track, missing } = methodTracker();

afterAll(() => {
  // Every method of the SDK's payment module is driven by this file's tests, whatever their order.
  expect(missing(paymentFactory)).toEqual([]);
});

beforeEach(async () => {
  sandbox = await startSandbox({ seed: 15, port: 0 });
  const client = new API({
    baseUrl: sandbox.url,
    accountId: sandbox.credentials.accountId,
    clientId: sandbox.credentials.sandbox.clientId,
    clientSecret: sandbox.credentials.sandbox.clientSecret,
  });
  const consumer = await client.Consumers.getConsumerById(ids.verticalConsumers.PAYMENT as string);
  payment = track(consumer.payment);
});

afterEach(async () => {
  await sandbox.close();
});

// biome-ignore lint/suspicious/noExplicitAny: items are read field by field
type Item = any;

describe('official SDK against the sandbox: payment', () => {
  it('reads every payment across pages, filtered by dates', async () => {
    const payments: Item[] = await payment.getPayments();
    expect(payments.length).toBeGreaterThan(100);
    expect(new Set(payments.map((p) => p.id)).size).toBe(payments.length);
    const june: Item[] = await payment.getPayments({ date_from: '2025-06-01', date_to: '2025-06-30' });
    expect(june.length).toBeGreaterThan(0);
    expect(june.every((p) => p.payment_date.startsWith('2025-06'))).toBe(true);
  });

  it('reads balances, the movements of each, and refunds', async () => {
    const balances: Item[] = await payment.getBalances();
    expect(balances).toHaveLength(2);
    for (const balance of balances) {
      const movements: Item[] = await payment.getTransactions({ balance_id: balance.id });
      const net = movements.reduce((s, t) => s + Math.round(t.amount * 100) - Math.round(t.fee * 100), 0);
      expect(Math.round(balance.available_amount * 100)).toBe(net);
    }
    const fees: Item[] = await payment.getTransactions({ accounting_category: 'fee' });
    expect(fees.every((t) => t.accounting_category === 'fee')).toBe(true);
    const refunds: Item[] = await payment.getRefunds();
    expect(refunds.length).toBeGreaterThan(0);
    const ofOne: Item[] = await payment.getRefunds({ payment_id: refunds[0].payment_id });
    expect(ofOne.map((r) => r.payment_id)).toContain(refunds[0].payment_id);
  });

  it('getPayment: the SDK leaves {payment_id} in its url and sends the id as a query parameter', async () => {
    const [first] = await payment.getPayments({ date_from: '2025-12-01' });
    const one = await payment.getPayment({ payment_id: first.id });
    expect(one).toEqual(first);
    await expect(
      payment.getPayment({ payment_id: '00000000-0000-4000-8000-000000000000' }),
    ).rejects.toMatchObject({
      error: {
        status_code: 404,
        message: SERVICE_ERRORS.paymentNotFound[2],
        error_code: SERVICE_ERRORS.paymentNotFound[1],
      },
    });
  });
});
