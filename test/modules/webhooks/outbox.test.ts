import { afterEach, describe, expect, it } from 'vitest';
import { errors } from '../../../src/lib/errors.js';
import { publishEvent } from '../../../src/modules/webhooks/index.js';
import { MAX_PENDING_DELIVERIES_PER_ACCOUNT, OUTBOX_FULL } from '../../../src/modules/webhooks/outbox.js';
import type { WebhookRecord } from '../../../src/store/world.js';
import { call, expectError, sandbox, sandboxToken, type TestSandbox } from '../../helpers.js';
import { Receiver } from './receiver.js';

/**
 * The outbox stays bounded whatever the receivers do: the deliveries an account has waiting (a
 * receiver that fails keeps each for its retries), and the attempts themselves, which a world at its
 * bytes still records rather than making them again and again.
 */

const receivers: Receiver[] = [];
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
});

/** A receiver that never answers: the attempt is out until the time-out. */
async function silentReceiver(): Promise<Receiver> {
  const receiver = await new Receiver().start();
  receiver.answer([], 'hang');
  receivers.push(receiver);
  return receiver;
}

async function subscribed(s: TestSandbox, token: string, url: string): Promise<WebhookRecord> {
  const res = await call(s.app, 'POST', '/webhooks', {
    token,
    body: { event: 'account.connection.created', url },
  });
  expect(res.status, res.text).toBe(200);
  return s.app.services.store.world.webhooks[res.body.webhookid] as WebhookRecord;
}

/** A connection made over HTTP: its created event is queued for the instance. */
async function connect(s: TestSandbox, token: string): Promise<void> {
  const consumer = await call(s.app, 'POST', '/consumers', { token, body: { name: 'Outbox' } });
  const res = await call(s.app, 'POST', `/consumers/${consumer.body.consumerid}/connections`, {
    token,
    body: { integrationid: 7010, credentials: [{ key: 'api_token', value: 't-1' }] },
  });
  expect(res.status, res.text).toBe(200);
}

const newest = async (s: TestSandbox) =>
  (await call(s.app, 'GET', '/__sandbox/webhook-deliveries?limit=1')).body[0];

describe('the outbox', () => {
  it(`keeps at most ${MAX_PENDING_DELIVERIES_PER_ACCOUNT} deliveries waiting per account: the next is given up, the write stands`, async () => {
    const s = sandbox({ webhookTimeoutMs: 300 });
    const token = await sandboxToken(s);
    // A receiver that never answers: one attempt out at a time, the rest wait their turn.
    const receiver = await silentReceiver();
    const webhook = await subscribed(s, token, receiver.url());
    const event = {
      accountid: webhook.accountid,
      envid: webhook.envid,
      event: 'account.connection.created',
      consumerid: null,
    };
    await s.app.services.store.transact((write) => {
      for (let i = 0; i < MAX_PENDING_DELIVERIES_PER_ACCOUNT; i++)
        publishEvent({ ...s.app.services, store: write }, event);
    });
    await connect(s, token);
    const dropped = await newest(s);
    expect(dropped).toMatchObject({
      state: 'failed',
      attempts: 0,
      next_attempt_at: null,
      last_error: OUTBOX_FULL,
    });
    const waiting = () =>
      Object.values(s.app.services.store.world.webhook_deliveries).filter((d) => d.state === 'pending');
    expect(waiting()).toHaveLength(MAX_PENDING_DELIVERIES_PER_ACCOUNT);
    // Asking for one more is refused, and queues nothing.
    const redeliver = await call(
      s.app,
      'POST',
      `/__sandbox/webhook-deliveries/${dropped.deliveryid}/redeliver`,
    );
    expectError(
      redeliver,
      errors.listFull('webhook deliveries waiting per account', MAX_PENDING_DELIVERIES_PER_ACCOUNT, ''),
    );
    expect((await newest(s)).deliveryid).toBe(dropped.deliveryid);
    // Deleting the instance drops what waits for it.
    expect((await call(s.app, 'DELETE', `/webhooks/${webhook.webhookid}`, { token })).status).toBe(204);
    await s.app.services.ticker.idle();
    expect(waiting()).toHaveLength(0);
  });

  it('records an attempt in a world at its bytes, and does not make it again', async () => {
    const limit = 256 * 1024;
    // The attempt is held long enough for the world to be filled meanwhile.
    const s = sandbox({ webhookTimeoutMs: 2500, maxWorldBytes: limit });
    const token = await sandboxToken(s);
    const receiver = await silentReceiver();
    const webhook = await subscribed(s, token, receiver.url());
    const arrived = receiver.next();
    await connect(s, token);
    await arrived;
    // While the receiver holds the attempt, a client fills what the world has left, but for less
    // than an attempt's log.
    const used = () => s.app.services.store.world.meta.client_bytes ?? 0;
    const fill = async (chars: number) => {
      const path = `/consumers/${s.ids.customConsumerId}/custom/sandbox-custom/filler`;
      return call(s.app, 'POST', path, { token, body: { blob: 'x'.repeat(chars) } });
    };
    const before = used();
    expect((await fill(0)).status).toBe(200);
    const record = used() - before;
    expect((await fill(limit - used() - record - 40)).status).toBe(200);
    expect(limit - used()).toBeLessThan(100);
    expect((await call(s.app, 'POST', '/consumers', { token, body: { name: 'No room' } })).status).toBe(413);
    // The attempt times out, and is recorded all the same: one attempt, its log, its retry planned.
    await s.app.services.ticker.idle();
    const delivery = await newest(s);
    expect(delivery).toMatchObject({ state: 'pending', attempts: 1, last_httpstatus: 0 });
    expect(delivery.log).toHaveLength(1);
    expect(Date.parse(delivery.next_attempt_at)).toBe(s.app.services.clock.now().getTime() + 10_000);
    const logs = await call(s.app, 'GET', `/webhooks/${webhook.webhookid}/logs`, { token });
    expect(logs.body).toHaveLength(1);
    // Another run of the background work sends nothing: the retry is not due.
    await s.app.services.ticker.run();
    await s.app.services.ticker.idle();
    expect(receiver.requests).toHaveLength(1);
  });
});
