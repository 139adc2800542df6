import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { seedDirectory } from '../../src/control/seeded-world.js';
import { type RunningProxy, startProxy } from '../../src/proxy/index.js';
import { type Listening, listenOn } from '../helpers.js';
import { Receiver } from '../modules/webhooks/receiver.js';

/**
 * The sandbox world the proxy replays the traffic at publishes events as the service does: its
 * deliveries must never reach the client's receiver, which the service alone delivers to.
 */

const SEED = 7;
const ids = seedDirectory(SEED);

let upstream: Listening;
let proxy: RunningProxy;
let receiver: Receiver;

beforeEach(async () => {
  const app = createApp({ seed: SEED, connectionLife: 'off' });
  upstream = await listenOn(app);
  proxy = await startProxy({ upstream: upstream.origin, seed: SEED });
  receiver = await new Receiver().start();
});

afterEach(async () => {
  await proxy.close();
  await upstream.close();
  await receiver.close();
});

async function call(method: string, path: string, body: unknown, token?: string) {
  const res = await fetch(`${proxy.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('the replay of webhooks', () => {
  it('leaves the client receiver to the service: one delivery of an event, not two', async () => {
    const token = (await call('POST', '/token', { accountId: ids.accountId, ...ids.sandbox })).body
      .access_token as string;
    expect(
      (await call('POST', '/webhooks', { event: 'account.connection.created', url: receiver.url() }, token))
        .status,
    ).toBe(200);
    const consumer = await call('POST', '/consumers', { name: 'Webhook consumer' }, token);
    const arrived = receiver.next();
    const connection = await call(
      'POST',
      `/consumers/${consumer.body.consumerid}/connections`,
      { integrationid: 7010, credentials: [{ key: 'api_token', value: 't-1' }] },
      token,
    );
    expect(connection.status).toBe(200);
    await arrived;
    // Every exchange replayed, and the replay's own publications given the time to go out.
    const report = await proxy.report();
    expect(report.findings).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.requests).toHaveLength(1);
  });
});
