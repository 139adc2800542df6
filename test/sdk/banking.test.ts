import { API } from '@chift/chift-nodejs';
import { bankingFactory } from '@chift/chift-nodejs/dist/src/modules/banking.js';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedDirectory } from '../../src/control/seeded-world.js';
import { messages } from '../../src/lib/errors.js';
import { type RunningSandbox, startSandbox } from '../../src/server.js';
import { methodTracker } from './coverage.js';

/**
 * Every method of the official Node SDK's banking module against a listening sandbox (a fresh one per
 * test), with the seeded Banking consumer. The SDK pages through lists by itself (page and size=100).
 */
let sandbox: RunningSandbox;
const ids = seedDirectory(14);

// biome-ignore lint/suspicious/noExplicitAny: the SDK's consumer object is typed loosely
let banking: any;

const { track, missing } = methodTracker();

afterAll(() => {
  // Every method of the SDK's banking module is driven by this file's tests, whatever their order.
  expect(missing(bankingFactory)).toEqual([]);
});

beforeEach(async () => {
  sandbox = await startSandbox({ seed: 14, port: 0 });
  const client = new API({
    baseUrl: sandbox.url,
    accountId: sandbox.credentials.accountId,
    clientId: sandbox.credentials.sandbox.clientId,
    clientSecret: sandbox.credentials.sandbox.clientSecret,
  });
  const consumer = await client.Consumers.getConsumerById(ids.verticalConsumers.BANKING as string);
  banking = track(consumer.banking);
});

afterEach(async () => {
  await sandbox.close();
});

// biome-ignore lint/suspicious/noExplicitAny: items are read field by field
type Item = any;

describe('official SDK against the sandbox: banking', () => {
  it('reads institutions and accounts', async () => {
    const banks: Item[] = await banking.getFinancialInstitutions();
    expect(banks).toHaveLength(2);
    const accounts: Item[] = await banking.getAccounts();
    expect(accounts.map((a) => a.currency)).toEqual(['EUR', 'EUR', 'USD']);
  });

  it('reads every transaction of an account across pages, and its counterparts', async () => {
    const [current] = await banking.getAccounts();
    const transactions: Item[] = await banking.getAccountTransactions({ account_id: current.id });
    expect(transactions.length).toBeGreaterThan(100);
    expect(new Set(transactions.map((t) => t.id)).size).toBe(transactions.length);
    const march: Item[] = await banking.getAccountTransactions({
      account_id: current.id,
      date_from: '2025-03-01',
      date_to: '2025-03-31',
    });
    expect(march.length).toBeGreaterThan(0);
    expect(march.every((t) => t.value_date.startsWith('2025-03'))).toBe(true);
    const counterparts: Item[] = await banking.getAccountCounterparts({ account_id: current.id });
    expect(counterparts.length).toBeGreaterThan(5);
    expect(counterparts.every((c) => typeof c.details === 'string')).toBe(true);
  });

  it('reads the attachments of a transaction, and names a missing account', async () => {
    const [current] = await banking.getAccounts();
    const transactions: Item[] = await banking.getAccountTransactions({ account_id: current.id });
    const withReceipt = transactions.find((t) => t.attachments_info.status === 'yes');
    const attachments: Item[] = await banking.getAttachments({ transaction_id: withReceipt.id });
    expect(attachments).toHaveLength(1);
    expect(Buffer.from(attachments[0].base64_string, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    try {
      await banking.getAccountTransactions({ account_id: 'nope' });
      expect.unreachable();
    } catch (e) {
      expect((e as { error: unknown }).error).toMatchObject({
        status_code: 400,
        message: messages.accountingFailure,
      });
    }
  });
});
