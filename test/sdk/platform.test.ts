import { API } from '@chift/chift-nodejs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedDirectory } from '../../src/control/seeded-world.js';
import { type RunningSandbox, startSandbox } from '../../src/server.js';

/**
 * The official Node SDK, pointed at a listening sandbox (a fresh one per test) through its baseUrl
 * option, through the platform API: consumers, connections, integrations and webhooks.
 */
let sandbox: RunningSandbox;
let client: InstanceType<typeof API>;
const ids = seedDirectory(11);

beforeEach(async () => {
  sandbox = await startSandbox({ seed: 11, port: 0 });
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

describe('official SDK against the sandbox: platform', () => {
  it('manages consumers', async () => {
    const created = await client.Consumers.createConsumer({
      name: 'SDK consumer',
      email: 'sdk@vendor.example',
      redirect_url: 'https://vendor.example/back',
      internal_reference: 'sdk-ref',
    });
    expect(created.consumerId).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.name).toBe('SDK consumer');
    const all = await client.Consumers.getConsumers();
    expect(all.map((c) => c.consumerId)).toContain(created.consumerId);
    const byRef = await client.Consumers.getConsumers({ internal_reference: 'sdk-ref' } as never);
    expect(byRef.map((c) => c.consumerId)).toEqual([created.consumerId]);
    const byName = await client.Consumers.getConsumersByName('sdk consumer');
    expect(byName.map((c) => c.consumerId)).toContain(created.consumerId);
    const one = await client.Consumers.getConsumerById(created.consumerId);
    expect(one.internal_reference).toBe('sdk-ref');
    const updated = await client.Consumers.updateConsumerById(created.consumerId, { name: 'SDK renamed' });
    expect(updated.name).toBe('SDK renamed');
    const viaConsumer = await one.updateConsumer({ email: 'other@vendor.example' });
    expect(viaConsumer.email).toBe('other@vendor.example');
    await client.Consumers.deleteConsumerById(created.consumerId);
    await expect(client.Consumers.getConsumerById(created.consumerId)).rejects.toMatchObject({
      response: { status: 404, data: { message: 'The consumer does not exist', status: 'error' } },
    });
  });

  it('manages connections and finds a transaction by client request id', async () => {
    const consumer = await client.Consumers.createConsumer({ name: 'SDK connections' });
    const link = await consumer.createConnection({
      integrationid: 7010,
      name: 'Invoicing',
      redirect: false,
      credentials: [{ key: 'api_token', value: 't' }],
    });
    expect(link.url).toMatch(new RegExp(`^${sandbox.url}/link/`));
    const connections = await consumer.getConnections();
    expect(connections).toHaveLength(1);
    const connection = connections[0];
    expect(connection).toMatchObject({ integrationid: 7010, status: 'active', api: 'Invoicing' });
    const connectionId = connection?.connectionid as string;
    const updateLink = await consumer.updateConnection(connectionId, {
      name: 'Renamed connection',
      redirect: false,
    });
    expect(updateLink.url).toMatch(/\/link\//);
    expect((await consumer.getConnections())[0]?.name).toBe('Renamed connection');
    // The SDK sends x-chift-client-requestid on writes that carry a clientRequestId: record one by hand.
    const res = await fetch(`${sandbox.url}/consumers/${consumer.consumerId}/connections/${connectionId}`, {
      method: 'PATCH',
      headers: {
        'content-type': 'application/json',
        'x-chift-client-requestid': 'sdk-req-1',
        authorization: `Bearer ${await token()}`,
      },
      body: JSON.stringify({ name: 'Via raw request' }),
    });
    expect(res.status).toBe(200);
    const transaction = await consumer.getTransactionByClientRequestId(connectionId, {
      client_request_id: 'sdk-req-1',
    });
    expect(transaction).toMatchObject({ method: 'PATCH', status_code: 200 });
    await consumer.deleteConnection(connectionId);
    expect(await consumer.getConnections()).toEqual([]);
  });

  it('lists integrations and fetches a logo', async () => {
    const integrations = await client.Integrations.getIntegrations();
    expect(integrations.length).toBeGreaterThan(5);
    const active = await client.Integrations.getIntegrations({ status: 'active' } as never);
    expect(active.every((i: { status: string }) => i.status === 'active')).toBe(true);
    const logo = await client.Integrations.getIntegrationLogo(1000, 'logo');
    expect(Buffer.from(logo.data, 'base64').subarray(1, 4).toString()).toBe('PNG');
  });

  it('manages webhooks', async () => {
    const types = await client.Webhooks.getWebhookTypes();
    expect(types.map((t: { event: string }) => t.event)).toContain('account.connection.created');
    // The SDK types this answer as a consumer; it is a WebhookInstanceGetItem.
    const webhook = (await client.Webhooks.registerWebhook({
      event: 'account.connection.created',
      url: 'https://vendor.example/hooks/sdk',
      signingsecret: 'shh',
    })) as unknown as { webhookid: string; status: string };
    expect(webhook).toMatchObject({ event: 'account.connection.created', status: 'active' });
    expect(webhook).not.toHaveProperty('signingsecret');
    const listed = await client.Webhooks.getWebhooks();
    expect(listed.map((w: { webhookid: string }) => w.webhookid)).toContain(webhook.webhookid);
    const updated = (await client.Webhooks.updateWebhookById(webhook.webhookid, {
      status: 'inactive',
    })) as unknown as {
      status: string;
    };
    expect(updated.status).toBe('inactive');
    expect(await client.Webhooks.getWebhookById(webhook.webhookid)).toMatchObject({ status: 'inactive' });
    expect(await client.Webhooks.getWebhookLogsByWebhookId(webhook.webhookid)).toEqual([]);
    await client.Webhooks.unRegisterWebhook(webhook.webhookid);
    await expect(client.Webhooks.getWebhookById(webhook.webhookid)).rejects.toMatchObject({
      response: { status: 404 },
    });
  });

  it('reaches the seeded consumers of every vertical', async () => {
    for (const consumerId of Object.values(ids.verticalConsumers)) {
      const consumer = await client.Consumers.getConsumerById(consumerId);
      expect((await consumer.getConnections()).some((c: { status: string }) => c.status === 'active')).toBe(
        true,
      );
    }
  });
});

async function token(): Promise<string> {
  const res = await fetch(`${sandbox.url}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ accountId: sandbox.credentials.accountId, ...sandbox.credentials.sandbox }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}
