import { API } from '@chift/chift-nodejs';
import { customFactory } from '@chift/chift-nodejs/dist/src/modules/custom.js';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedDirectory } from '../../src/control/seeded-world.js';
import { messages } from '../../src/lib/errors.js';
import { type RunningSandbox, startSandbox } from '../../src/server.js';
import { methodTracker } from './coverage.js';

/**
 * The official Node SDK's consumer object beyond the verticals: picking one of several connections
 * of a vertical (setConnectionId, setIntegrationId: the X-Chift-ConnectionId and
 * X-Chift-IntegrationId headers), and its custom module (the connector-specific pass-throughs).
 */
const SEED = 15;
const ids = seedDirectory(SEED);
let sandbox: RunningSandbox;
let client: InstanceType<typeof API>;
const { track, missing } = methodTracker();

afterAll(() => {
  expect(missing(customFactory)).toEqual([]);
});

beforeEach(async () => {
  sandbox = await startSandbox({ seed: SEED, port: 0 });
  client = new API({
    baseUrl: sandbox.url,
    accountId: sandbox.credentials.accountId,
    clientId: sandbox.credentials.sandbox.clientId,
    clientSecret: sandbox.credentials.sandbox.clientSecret,
  });
});

afterEach(async () => {
  await sandbox.close();
});

type Contact = { id: string };

describe('official SDK: the consumer object', () => {
  it('picks among two Invoicing connections by connection id or by integration id', async () => {
    const consumer = await client.Consumers.getConsumerById(ids.verticalConsumers.INVOICING as string);
    const evoliz = (await consumer.getConnections()).find((c) => c.integrationid === 7010);
    await consumer.createConnection({
      integrationid: 7023,
      redirect: false,
      credentials: [
        { key: 'username', value: 'u' },
        { key: 'password', value: 'p' },
      ],
    } as never);
    const billit = (await consumer.getConnections()).find((c) => c.integrationid === 7023);
    expect(evoliz && billit).toBeTruthy();

    // Without a choice the newest connection (Billit) answers.
    const newest = ((await consumer.invoicing.getContacts()) as Contact[]).map((c) => c.id);
    await consumer.setIntegrationId('7010');
    const byIntegration = ((await consumer.invoicing.getContacts()) as Contact[]).map((c) => c.id);
    expect(byIntegration).not.toEqual(newest);
    await consumer.setConnectionId(billit?.connectionid as string);
    const byConnection = ((await consumer.invoicing.getContacts()) as Contact[]).map((c) => c.id);
    expect(byConnection).toEqual(newest);
    await consumer.setConnectionId(evoliz?.connectionid as string);
    expect(((await consumer.invoicing.getContacts()) as Contact[]).map((c) => c.id)).toEqual(byIntegration);
  });

  // The service hands a custom route to the connector's own API: every path is served (it once
  // refused every one the sandbox did not know).
  it("passes custom routes to the connector: its paths keep the connection's records", async () => {
    const consumer = await client.Consumers.getConsumerById(ids.verticalConsumers.ACCOUNTING as string);
    await consumer.createConnection({
      integrationid: 90901,
      redirect: false,
      credentials: [
        { key: 'base_url', value: 'https://erp.example' },
        { key: 'token', value: 't' },
      ],
    } as never);
    const custom = track(consumer.custom);
    expect(await custom.get('sandbox-custom', 'orders')).toEqual([]);
    const order = (await custom.post('sandbox-custom', 'orders', { a: 1 })) as { id: string; a: number };
    expect(order).toMatchObject({ a: 1 });
    expect(await custom.get('sandbox-custom', 'orders')).toEqual([order]);
    expect(await custom.get('sandbox-custom', `orders/${order.id}`)).toEqual(order);
    expect(await custom.patch('sandbox-custom', `orders/${order.id}`, { a: 2 })).toEqual({ ...order, a: 2 });
    expect(await custom.delete('sandbox-custom', `orders/${order.id}`)).toEqual({ ...order, a: 2 });
    await expect(custom.get('sandbox-custom', `orders/${order.id}`)).rejects.toMatchObject({
      error: { status_code: 404, message: messages.notFound },
    });
    // A connector the consumer has no connection to: no active connection.
    await expect(custom.get('another-connector', 'orders')).rejects.toMatchObject({
      error: { status_code: 400, error_code: 'ERROR_NO_ACTIVE_CONNECTION' },
    });
  });
});
