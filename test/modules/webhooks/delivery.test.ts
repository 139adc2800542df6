import { createHmac } from 'node:crypto';
import { z } from '@hono/zod-openapi';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CreateAppOptions } from '../../../src/app.js';
import { unixSeconds } from '../../../src/lib/clock.js';
import { errors } from '../../../src/lib/errors.js';
import {
  deliveryHeaders,
  GIVE_UP_REASONS,
  MAX_ATTEMPTS,
  MAX_ATTEMPTS_IN_FLIGHT,
  MAX_ATTEMPTS_IN_FLIGHT_PER_ACCOUNT,
  MAX_WEBHOOK_LOGS_PER_ACCOUNT,
  NO_ANSWER_HTTPSTATUS,
  postWebhook,
  pruneDeliveries,
  pruneWebhookLogs,
  RETRY_DELAYS_SECONDS,
  recordAttempt,
  SIGNATURE_HEADER,
  signBody,
  WEBHOOK_TIMEOUT_MS,
} from '../../../src/modules/webhooks/delivery.js';
import { eventBody, publishEvent } from '../../../src/modules/webhooks/events.js';
import { WebhookLogItem } from '../../../src/modules/webhooks/webhooks.schemas.js';
import { type RunningSandbox, startSandbox } from '../../../src/server.js';
import type {
  WebhookDeliveryRecord,
  WebhookLogRecord,
  WebhookRecord,
  World,
} from '../../../src/store/world.js';
import {
  type CallOptions,
  call,
  expectError,
  expectValidation,
  sandbox,
  type TestSandbox,
  tokenFor,
} from '../../helpers.js';
import { Receiver } from './receiver.js';

/**
 * Webhook delivery through real HTTP: a receiver listens on a loopback port, the sandbox publishes
 * connection events to it, and the sandbox clock (POST /__sandbox/clock) drives the retries.
 * Attempts run in the background, after the answer of the request that queued them or moved the
 * clock; `settle()` waits for them (the ticker's `idle()`) rather than sleeping.
 */

const Log = WebhookLogItem.strict();
const SECRET = 'whsec-test';
const INVOICING = 7010;
const INVOICING_CREDENTIALS = [{ key: 'api_token', value: 't-1' }];

let s: TestSandbox;
let token: string;
let world: () => World;
const receivers: Receiver[] = [];

async function setup(options: CreateAppOptions = {}) {
  s = sandbox(options);
  token = await tokenFor(s.app, { accountId: s.ids.accountId, ...s.ids.sandbox });
  world = () => s.app.services.store.world;
}

beforeEach(async () => {
  await setup({ webhookTimeoutMs: 300 });
});

afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
});

async function receiver(): Promise<Receiver> {
  const r = await new Receiver().start();
  receivers.push(r);
  return r;
}

const api = (method: string, path: string, options: CallOptions = {}) =>
  call(s.app, method, path, { token, ...options });

/** Waits for the background work (the runs of the ticker and the attempts they started) to end. */
const settle = () => s.app.services.ticker.idle();

/** Moves the clock, then waits for the attempts that came due: the clock answers before them. */
const advance = async (seconds: number) => {
  const res = await call(s.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: seconds } });
  expect(res.status).toBe(200);
  await settle();
};

async function subscribe(url: string, body: Record<string, unknown> = {}, as = token) {
  const res = await call(s.app, 'POST', '/webhooks', {
    token: as,
    body: { event: 'account.connection.created', url, ...body },
  });
  expect(res.status, res.text).toBe(200);
  return res.body.webhookid as string;
}

async function newConsumer(): Promise<string> {
  const res = await api('POST', '/consumers', { body: { name: 'Webhook consumer' } });
  expect(res.status).toBe(200);
  return res.body.consumerid as string;
}

/** POST connections with complete credentials: an active connection, and a created event. */
async function connect(consumerid: string, integrationid = INVOICING) {
  const before = new Set(Object.keys(world().connections));
  const res = await api('POST', `/consumers/${consumerid}/connections`, {
    body: { integrationid, credentials: INVOICING_CREDENTIALS },
  });
  expect(res.status, res.text).toBe(200);
  return Object.keys(world().connections).find((id) => !before.has(id)) as string;
}

/** The logs of an instance, with a fresh token: the clock may have moved past the first one's life. */
async function logs(webhookid: string) {
  const fresh = await tokenFor(s.app, { accountId: s.ids.accountId, ...s.ids.sandbox });
  const res = await call(s.app, 'GET', `/webhooks/${webhookid}/logs`, { token: fresh });
  expect(res.status).toBe(200);
  return z.array(Log).parse(res.body);
}

const deliveries = () => Object.values(world().webhook_deliveries);
const nowSeconds = () => unixSeconds(s.app.services.clock.now());

describe('connection events', () => {
  it('created: delivered at once, signed, with the envelope and the connection fields', async () => {
    const r = await receiver();
    const webhookid = await subscribe(r.url(), { signingsecret: SECRET });
    const consumer = await newConsumer();
    const arrived = r.next();
    const connectionid = await connect(consumer);
    const request = await arrived;
    expect(JSON.parse(request.body)).toEqual({
      accountid: s.ids.accountId,
      event: 'account.connection.created',
      consumerid: consumer,
      created: nowSeconds(),
      connectionid,
      integrationid: INVOICING,
      name: 'Evoliz',
      status: 'active',
    });
    expect(request.path).toBe('/hook');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers[SIGNATURE_HEADER.toLowerCase()]).toBe(
      createHmac('sha256', SECRET).update(request.body).digest('hex'),
    );
    await settle();
    const [log] = await logs(webhookid);
    expect(log).toEqual({
      webhooklogid: log?.webhooklogid,
      webhookid,
      event: 'account.connection.created',
      url: r.url(),
      accountid: s.ids.accountId,
      createdon: s.app.services.clock.now().toISOString(),
      httpstatus: 200,
      integrationid: INVOICING,
    });
    expect(deliveries()).toMatchObject([{ state: 'delivered', attempts: 1, next_attempt_at: null }]);
  });

  it('without a signing secret there is no signature header', async () => {
    const r = await receiver();
    await subscribe(r.url());
    const arrived = r.next();
    await connect(await newConsumer());
    const request = await arrived;
    expect(request.headers[SIGNATURE_HEADER.toLowerCase()]).toBeUndefined();
  });

  it('updated (PATCH, link page) and deleted, each to its own subscribers', async () => {
    const r = await receiver();
    for (const kind of ['created', 'updated', 'deleted']) {
      await subscribe(r.url(`/${kind}`), { event: `account.connection.${kind}` });
    }
    const consumer = await newConsumer();
    // Without credentials: created inactive; the link page then completes it (an update).
    const posted = await api('POST', `/consumers/${consumer}/connections`, {
      body: { integrationid: INVOICING },
    });
    expect(posted.status).toBe(200);
    await settle();
    const connectionid = Object.values(world().connections).find((c) => c.consumerid === consumer)
      ?.connectionid as string;
    const linkPath = new URL(posted.body.url).pathname;
    const completed = await call(s.app, 'POST', linkPath, { body: { credentials: { api_token: 'x' } } });
    expect(completed.status, completed.text).toBe(200);
    await settle();
    const patched = await api('PATCH', `/consumers/${consumer}/connections/${connectionid}`, {
      body: { name: 'Renamed' },
    });
    expect(patched.status).toBe(200);
    await settle();
    expect((await api('DELETE', `/consumers/${consumer}/connections/${connectionid}`)).status).toBe(204);
    await settle();

    const seen = r.requests.map((q) => {
      const body = JSON.parse(q.body);
      return [q.path, body.event, body.connectionid, body.status, body.name];
    });
    expect(seen).toEqual([
      ['/created', 'account.connection.created', connectionid, 'inactive', 'Evoliz'],
      ['/updated', 'account.connection.updated', connectionid, 'active', 'Evoliz'],
      ['/updated', 'account.connection.updated', connectionid, 'active', 'Renamed'],
      ['/deleted', 'account.connection.deleted', connectionid, 'active', 'Renamed'],
    ]);
  });

  it('a link page that creates the connection publishes created', async () => {
    const r = await receiver();
    await subscribe(r.url());
    const consumer = await newConsumer();
    const posted = await api('POST', `/consumers/${consumer}/connections`, { body: {} });
    await settle();
    expect(r.requests).toEqual([]);
    const arrived = r.next();
    const completed = await call(s.app, 'POST', new URL(posted.body.url).pathname, {
      body: { integrationid: INVOICING, credentials: { api_token: 'x' } },
    });
    expect(completed.status).toBe(200);
    expect(JSON.parse((await arrived).body)).toMatchObject({
      event: 'account.connection.created',
      connectionid: completed.body.connectionid,
      status: 'active',
    });
  });

  it('a refused request publishes nothing; a replayed client request id publishes once', async () => {
    const r = await receiver();
    await subscribe(r.url());
    const consumer = await newConsumer();
    const refused = await api('POST', `/consumers/${consumer}/connections`, {
      body: { integrationid: INVOICING, credentials: [{ key: 'wrong', value: 'x' }] },
    });
    expect(refused.status).toBe(400);
    expect(deliveries()).toEqual([]);
    await connect(consumer);
    await settle();
    expect(r.requests).toHaveLength(1);
  });

  it('only the active instances of the same account and environment, and of the integration', async () => {
    const r = await receiver();
    await subscribe(r.url('/mine'));
    await subscribe(r.url('/bound-to-it'), { integrationid: INVOICING });
    await subscribe(r.url('/bound-elsewhere'), { integrationid: 1000 });
    const inactive = await subscribe(r.url('/inactive'));
    await api('PATCH', `/webhooks/${inactive}`, { body: { status: 'inactive' } });
    const production = await tokenFor(s.app, { accountId: s.ids.accountId, ...s.ids.production });
    await subscribe(r.url('/production'), {}, production);
    const other = await tokenFor(s.app, s.ids.otherAccount);
    await subscribe(r.url('/other-account'), {}, other);

    await connect(await newConsumer());
    await settle();
    expect(r.requests.map((q) => q.path).sort()).toEqual(['/bound-to-it', '/mine']);
  });

  it('deleting the consumer afterwards does not cancel its pending deliveries', async () => {
    const r = await receiver();
    r.answer([500]);
    const webhookid = await subscribe(r.url());
    const consumer = await newConsumer();
    await connect(consumer);
    await settle();
    expect((await api('DELETE', `/consumers/${consumer}`)).status).toBe(204);
    await advance(RETRY_DELAYS_SECONDS[0]);
    expect((await logs(webhookid)).map((l) => l.httpstatus)).toEqual([200, 500]);
  });

  it('deleting a consumer publishes deleted for each of its connections', async () => {
    const r = await receiver();
    await subscribe(r.url('/deleted'), { event: 'account.connection.deleted' });
    const consumer = await newConsumer();
    await connect(consumer);
    const connectionid = Object.values(world().connections).find((c) => c.consumerid === consumer)
      ?.connectionid as string;
    expect((await api('DELETE', `/consumers/${consumer}`)).status).toBe(204);
    await settle();
    const bodies = r.requests.map((q) => JSON.parse(q.body));
    expect(bodies).toEqual([
      expect.objectContaining({ event: 'account.connection.deleted', consumerid: consumer, connectionid }),
    ]);
  });
});

describe('retries on the sandbox clock', () => {
  it('a 500 is retried once the backoff has passed on the clock, not before', async () => {
    const r = await receiver();
    r.answer([500]);
    const webhookid = await subscribe(r.url(), { signingsecret: SECRET });
    await connect(await newConsumer());
    await settle();
    const first = deliveries()[0] as WebhookDeliveryRecord;
    const start = s.app.services.clock.now().getTime();
    expect(first).toMatchObject({
      state: 'pending',
      attempts: 1,
      last_httpstatus: 500,
      last_error: 'The receiver answered HTTP 500',
      next_attempt_at: new Date(start + RETRY_DELAYS_SECONDS[0] * 1000).toISOString(),
    });

    await advance(RETRY_DELAYS_SECONDS[0] - 1);
    expect(r.requests).toHaveLength(1);
    await advance(1);
    expect(r.requests).toHaveLength(2);
    expect(r.requests[1]?.body).toBe(r.requests[0]?.body);
    expect(r.requests[1]?.headers[SIGNATURE_HEADER.toLowerCase()]).toBe(
      signBody(SECRET, r.requests[0]?.body ?? ''),
    );

    const list = await logs(webhookid);
    expect(list.map((l) => [l.httpstatus, l.createdon])).toEqual([
      [200, new Date(start + RETRY_DELAYS_SECONDS[0] * 1000).toISOString()],
      [500, new Date(start).toISOString()],
    ]);
    expect(deliveries()[0]).toMatchObject({ state: 'delivered', attempts: 2, next_attempt_at: null });
    await advance(86_400);
    expect(r.requests).toHaveLength(2);
  });

  it('follows the whole schedule, then gives up as failed', async () => {
    const r = await receiver();
    r.answer([], 503);
    const webhookid = await subscribe(r.url());
    await connect(await newConsumer());
    await settle();
    for (const delay of RETRY_DELAYS_SECONDS) {
      const before = r.requests.length;
      await advance(delay - 1);
      expect(r.requests).toHaveLength(before);
      await advance(1);
      expect(r.requests).toHaveLength(before + 1);
    }
    expect(r.requests).toHaveLength(MAX_ATTEMPTS);
    expect(deliveries()[0]).toMatchObject({ state: 'failed', attempts: MAX_ATTEMPTS, next_attempt_at: null });
    await advance(7 * 86_400);
    expect(r.requests).toHaveLength(MAX_ATTEMPTS);
    const list = await logs(webhookid);
    expect(list.map((l) => l.httpstatus)).toEqual(Array(MAX_ATTEMPTS).fill(503));
  });

  it('a jump of the clock past several delays makes one attempt, and the next delay counts from it', async () => {
    const r = await receiver();
    r.answer([], 500);
    await subscribe(r.url());
    await connect(await newConsumer());
    await settle();
    await advance(3600);
    expect(r.requests).toHaveLength(2);
    const delivery = deliveries()[0] as WebhookDeliveryRecord;
    expect(delivery.next_attempt_at).toBe(
      new Date(s.app.services.clock.now().getTime() + RETRY_DELAYS_SECONDS[1] * 1000).toISOString(),
    );
  });

  it('a receiver that never answers times out: httpstatus 0, then retried', async () => {
    const r = await receiver();
    r.answer(['hang']);
    const webhookid = await subscribe(r.url());
    await connect(await newConsumer());
    await settle();
    expect(r.requests).toHaveLength(1);
    const [log] = await logs(webhookid);
    expect(log?.httpstatus).toBe(NO_ANSWER_HTTPSTATUS);
    expect(world().webhook_logs[log?.webhooklogid ?? '']?.error).toBe('No answer within 300 ms');
    expect(deliveries()[0]).toMatchObject({
      state: 'pending',
      last_httpstatus: 0,
      last_error: 'No answer within 300 ms',
    });
    await advance(RETRY_DELAYS_SECONDS[0]);
    expect((await logs(webhookid)).map((l) => l.httpstatus)).toEqual([200, 0]);
  });

  it('a refused connection is logged with httpstatus 0 and retried', async () => {
    const closed = await new Receiver().start();
    const url = closed.url();
    await closed.close();
    const webhookid = await subscribe(url);
    await connect(await newConsumer());
    await settle();
    const [log] = await logs(webhookid);
    expect(log?.httpstatus).toBe(0);
    expect(world().webhook_logs[log?.webhooklogid ?? '']?.error).toMatch(/ECONNREFUSED/);
    expect(deliveries()[0]?.state).toBe('pending');
  });

  it('the time-out defaults to five seconds', () => {
    expect(WEBHOOK_TIMEOUT_MS).toBe(5000);
  });

  it("a retry goes to the instance's current url, signed with its current secret", async () => {
    const r = await receiver();
    r.answer([500]);
    const webhookid = await subscribe(r.url('/old'), { signingsecret: 'first' });
    await connect(await newConsumer());
    await settle();
    await api('PATCH', `/webhooks/${webhookid}`, { body: { url: r.url('/new'), signingsecret: 'second' } });
    await advance(RETRY_DELAYS_SECONDS[0]);
    expect(r.requests.map((q) => q.path)).toEqual(['/old', '/new']);
    expect(r.requests[1]?.headers[SIGNATURE_HEADER.toLowerCase()]).toBe(
      signBody('second', r.requests[1]?.body ?? ''),
    );
    expect((await logs(webhookid)).map((l) => l.url)).toEqual([r.url('/new'), r.url('/old')]);
  });

  it('an instance made inactive gets no retry: the delivery is given up', async () => {
    const r = await receiver();
    r.answer([500]);
    const webhookid = await subscribe(r.url());
    await connect(await newConsumer());
    await settle();
    await api('PATCH', `/webhooks/${webhookid}`, { body: { status: 'inactive' } });
    await advance(RETRY_DELAYS_SECONDS[0]);
    expect(r.requests).toHaveLength(1);
    expect(deliveries()[0]).toMatchObject({
      state: 'failed',
      attempts: 1,
      last_error: 'The webhook instance is inactive',
    });
  });

  it('deleting an instance drops its deliveries', async () => {
    const r = await receiver();
    r.answer([500]);
    const webhookid = await subscribe(r.url());
    await connect(await newConsumer());
    await settle();
    expect(deliveries()).toHaveLength(1);
    await api('DELETE', `/webhooks/${webhookid}`);
    expect(deliveries()).toEqual([]);
    await advance(RETRY_DELAYS_SECONDS[0]);
    expect(r.requests).toHaveLength(1);
  });

  it('a broken delivery is logged and does not stop the others', async () => {
    const r = await receiver();
    const good = await subscribe(r.url());
    const bad = await subscribe(r.url('/bad'), { event: 'account.connection.updated' });
    // A url no request can be made to, as a damaged world file might hold.
    const badRecord = world().webhooks[bad];
    if (badRecord) badRecord.url = 'http://[::1';
    const consumer = await newConsumer();
    publishEvent(s.app.services, {
      accountid: s.ids.accountId,
      envid: s.ids.sandboxEnvId,
      event: 'account.connection.updated',
      consumerid: consumer,
    });
    await connect(consumer);
    await settle();
    expect((await logs(bad)).map((l) => l.httpstatus)).toEqual([0]);
    expect((await logs(good)).map((l) => l.httpstatus)).toEqual([200]);
  });
});

describe('control endpoints', () => {
  const Delivery = z.object({
    deliveryid: z.string(),
    webhookid: z.string(),
    state: z.string(),
    body: z.string(),
    payload: z.record(z.string(), z.unknown()),
    log: z.array(
      z.object({ webhooklogid: z.string(), httpstatus: z.number(), error: z.string().nullable() }),
    ),
  });

  it('list recent deliveries newest first, with the exact body, the parsed payload and the attempts', async () => {
    const r = await receiver();
    r.answer([500]);
    const webhookid = await subscribe(r.url(), { signingsecret: SECRET });
    const consumer = await newConsumer();
    await connect(consumer);
    await settle();
    const res = await call(s.app, 'GET', '/__sandbox/webhook-deliveries');
    expect(res.status).toBe(200);
    const list = z.array(Delivery.passthrough()).parse(res.body);
    const oldest = list[list.length - 1];
    expect(oldest?.body).toBe(r.requests[0]?.body);
    expect(oldest?.payload).toEqual(JSON.parse(r.requests[0]?.body ?? '{}'));
    expect(oldest).toMatchObject({
      webhookid,
      accountid: s.ids.accountId,
      envid: s.ids.sandboxEnvId,
      consumerid: consumer,
      event: 'account.connection.created',
      integrationid: INVOICING,
      state: 'pending',
      attempts: 1,
      last_httpstatus: 500,
      redelivery_of: null,
    });
    expect(oldest?.log.map((l) => [l.httpstatus, l.error])).toEqual([[500, 'HTTP 500']]);
    const one = await call(s.app, 'GET', `/__sandbox/webhook-deliveries/${oldest?.deliveryid}`);
    expect(one.body).toEqual(res.body[res.body.length - 1]);
  });

  it('filter by webhookid, event, state and account, and limit', async () => {
    const r = await receiver();
    r.answer([500]);
    const created = await subscribe(r.url('/c'));
    const updated = await subscribe(r.url('/u'), { event: 'account.connection.updated' });
    const consumer = await newConsumer();
    const connectionid = await connect(consumer);
    await settle();
    await api('PATCH', `/consumers/${consumer}/connections/${connectionid}`, { body: { name: 'x' } });
    await settle();
    const ids = async (query: string) => {
      const res = await call(s.app, 'GET', `/__sandbox/webhook-deliveries${query}`);
      expect(res.status, res.text).toBe(200);
      return res.body.map((d: { webhookid: string }) => d.webhookid);
    };
    expect(await ids('')).toEqual([updated, created]);
    expect(await ids(`?webhookid=${created}`)).toEqual([created]);
    expect(await ids('?event=account.connection.updated')).toEqual([updated]);
    expect(await ids('?state=pending')).toEqual([created]);
    expect(await ids('?state=delivered')).toEqual([updated]);
    expect(await ids('?limit=1')).toEqual([updated]);
    expect(await ids(`?accountid=${s.ids.otherAccount.accountId}`)).toEqual([]);
    expect(await ids(`?accountid=${s.ids.accountId}`)).toEqual([updated, created]);
  });

  it.each([
    ['?state=lost', ['query', 'state']],
    ['?limit=0', ['query', 'limit']],
    ['?limit=501', ['query', 'limit']],
    ['?webhookid=nope', ['query', 'webhookid']],
  ])('422 for %s', async (query, loc) => {
    expectValidation(await call(s.app, 'GET', `/__sandbox/webhook-deliveries${query}`), loc);
  });

  it('redeliver sends the same bytes again as a new delivery and answers after the attempt', async () => {
    const r = await receiver();
    r.answer([], 500);
    await subscribe(r.url(), { signingsecret: SECRET });
    await connect(await newConsumer());
    await settle();
    const original = deliveries()[0] as WebhookDeliveryRecord;
    r.answer([], 204);
    const res = await call(s.app, 'POST', `/__sandbox/webhook-deliveries/${original.deliveryid}/redeliver`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      redelivery_of: original.deliveryid,
      state: 'delivered',
      attempts: 1,
      last_httpstatus: 204,
      body: original.body,
    });
    expect(res.body.deliveryid).not.toBe(original.deliveryid);
    expect(res.body.log.map((l: { httpstatus: number }) => l.httpstatus)).toEqual([204]);
    expect(r.requests).toHaveLength(2);
    expect(r.requests[1]?.body).toBe(r.requests[0]?.body);
    expect(r.requests[1]?.headers[SIGNATURE_HEADER.toLowerCase()]).toBe(
      r.requests[0]?.headers[SIGNATURE_HEADER.toLowerCase()],
    );
    // The original keeps its own schedule.
    expect(world().webhook_deliveries[original.deliveryid]).toMatchObject({ state: 'pending', attempts: 1 });
  });

  it('404 for an unknown delivery, 422 for a malformed id', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    expectError(
      await call(s.app, 'GET', `/__sandbox/webhook-deliveries/${missing}`),
      errors.webhookDeliveryNotFound(),
    );
    expectError(
      await call(s.app, 'POST', `/__sandbox/webhook-deliveries/${missing}/redeliver`),
      errors.webhookDeliveryNotFound(),
    );
    expectValidation(await call(s.app, 'GET', '/__sandbox/webhook-deliveries/nope'), ['path', 'deliveryid']);
  });

  it('need the admin token when one is configured', async () => {
    await setup({ adminToken: 'admin-secret', webhookTimeoutMs: 300 });
    for (const [method, path] of [
      ['GET', '/__sandbox/webhook-deliveries'],
      ['GET', '/__sandbox/webhook-deliveries/00000000-0000-4000-8000-000000000000'],
      ['POST', '/__sandbox/webhook-deliveries/00000000-0000-4000-8000-000000000000/redeliver'],
    ] as const) {
      expectError(await call(s.app, method, path), errors.adminTokenRequired());
      expectError(await call(s.app, method, path, { token }), errors.adminTokenRequired());
    }
    const ok = await call(s.app, 'GET', '/__sandbox/webhook-deliveries', { token: 'admin-secret' });
    expect(ok.status).toBe(200);
  });
});

describe('delivery rules', () => {
  const record = (extra: Partial<WebhookDeliveryRecord> = {}): WebhookDeliveryRecord => ({
    deliveryid: 'd',
    webhookid: 'w',
    accountid: 'a',
    envid: 'e',
    event_consumerid: null,
    event: 'account.connection.created',
    url: 'http://127.0.0.1/',
    integrationid: null,
    body: '{}',
    created_on: '2026-01-15T09:00:00.000Z',
    attempts: 0,
    next_attempt_at: '2026-01-15T09:00:00.000Z',
    state: 'pending',
    last_httpstatus: null,
    last_error: null,
    redelivery_of: null,
    ...extra,
  });

  it('every failure schedules the next delay from the attempt; 2xx delivers', () => {
    const at = new Date('2026-01-15T09:00:00.000Z');
    const delivery = record();
    RETRY_DELAYS_SECONDS.forEach((delay, i) => {
      recordAttempt(delivery, 'http://x/', at, { httpstatus: 302, error: null });
      expect(delivery.attempts).toBe(i + 1);
      expect(delivery.next_attempt_at).toBe(new Date(at.getTime() + delay * 1000).toISOString());
    });
    recordAttempt(delivery, 'http://x/', at, { httpstatus: 0, error: 'boom' });
    expect(delivery).toMatchObject({ state: 'failed', next_attempt_at: null, last_error: 'boom' });

    const ok = record();
    recordAttempt(ok, 'http://y/', at, { httpstatus: 299, error: null });
    expect(ok).toMatchObject({
      state: 'delivered',
      url: 'http://y/',
      last_httpstatus: 299,
      last_error: null,
    });
  });

  it('pruning keeps every pending delivery and the newest finished ones', () => {
    const w = { webhook_deliveries: {} } as World;
    const states = ['delivered', 'pending', 'failed', 'delivered', 'pending', 'delivered'] as const;
    states.forEach((state, i) => {
      w.webhook_deliveries[`d${i}`] = record({ deliveryid: `d${i}`, state });
    });
    pruneDeliveries(w, 2);
    expect(Object.keys(w.webhook_deliveries)).toEqual(['d1', 'd3', 'd4', 'd5']);
  });

  it('the signature is the hex HMAC-SHA256 of the body', () => {
    expect(signBody('key', 'The quick brown fox jumps over the lazy dog')).toBe(
      'f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8',
    );
  });

  it("an event's fields cannot replace the envelope", () => {
    const body = eventBody(
      {
        accountid: 'acc',
        envid: 'env',
        event: 'account.flow.executed',
        consumerid: 'c',
        fields: { accountid: 'forged', created: 1, flowid: 'f' },
      },
      new Date('2026-01-15T09:00:00.000Z'),
    );
    expect(JSON.parse(body)).toEqual({
      accountid: 'acc',
      event: 'account.flow.executed',
      consumerid: 'c',
      created: 1768467600,
      flowid: 'f',
    });
  });

  it('nothing due, nothing sent', async () => {
    const r = await receiver();
    r.answer([500]);
    await subscribe(r.url());
    await connect(await newConsumer());
    await settle();
    await s.app.services.ticker.run();
    await settle();
    expect(r.requests).toHaveLength(1);
  });
});

/** Resolves after `ms` of real time: only to show that something does not happen. */
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An active instance written straight into the world, as a fixture or a world file could hold it. */
function injectWebhook(w: World, fields: Partial<WebhookRecord> & Pick<WebhookRecord, 'webhookid' | 'url'>) {
  w.webhooks[fields.webhookid] = {
    accountid: s.ids.accountId,
    envid: s.ids.sandboxEnvId,
    createdby: null,
    createdon: '2026-01-15T09:00:00.000Z',
    event: 'account.connection.created',
    status: 'active',
    integrationid: null,
    signingsecret: null,
    ...fields,
  };
}

const webhookId = (n: number) => `50000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('a receiver that never answers', () => {
  // Long enough that nothing below can be explained by a time-out.
  const TIMEOUT_MS = 2000;

  it('holds back neither the clock endpoint nor the delivery of another account', async () => {
    await setup({ webhookTimeoutMs: TIMEOUT_MS });
    const hanging = await receiver();
    hanging.answer([], 'hang');
    // More instances than one account may hold attempts for, each with deliveries queued behind.
    for (let i = 0; i < 10; i++) await subscribe(hanging.url(`/h${i}`));
    await connect(await newConsumer());
    await connect(await newConsumer());
    await hanging.received(MAX_ATTEMPTS_IN_FLIGHT_PER_ACCOUNT);

    const before = performance.now();
    const moved = await call(s.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: 1 } });
    expect(moved.status).toBe(200);
    expect(performance.now() - before).toBeLessThan(1000);

    const good = await receiver();
    const other = await tokenFor(s.app, s.ids.otherAccount);
    await subscribe(good.url('/other'), {}, other);
    const theirs = await call(s.app, 'POST', '/consumers', { token: other, body: { name: 'Other' } });
    const arrived = good.next();
    const sent = performance.now();
    const connected = await call(s.app, 'POST', `/consumers/${theirs.body.consumerid}/connections`, {
      token: other,
      body: { integrationid: INVOICING, credentials: INVOICING_CREDENTIALS },
    });
    expect(connected.status).toBe(200);
    expect(JSON.parse((await arrived).body)).toMatchObject({ accountid: s.ids.otherAccount.accountId });
    expect(performance.now() - sent).toBeLessThan(TIMEOUT_MS / 2);
    // The hanging account never had more than its share of attempts out.
    expect(hanging.requests).toHaveLength(MAX_ATTEMPTS_IN_FLIGHT_PER_ACCOUNT);
    await hanging.close();
    await settle();
  });

  it("holds back its own instance's later deliveries only, and an attempt out is never started again", async () => {
    await setup({ webhookTimeoutMs: TIMEOUT_MS });
    const hanging = await receiver();
    hanging.answer(['hang'], 204);
    const webhookid = await subscribe(hanging.url());
    const first = await connect(await newConsumer());
    const second = await connect(await newConsumer());
    await hanging.received(1);
    for (let i = 0; i < 5; i++) {
      await s.app.services.ticker.run();
      expect((await call(s.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: 0 } })).status).toBe(
        200,
      );
    }
    await pause(50);
    expect(hanging.requests).toHaveLength(1);
    await settle();
    // The first timed out, then the second went; the first's retry waits for its delay.
    expect(hanging.requests.map((q) => JSON.parse(q.body).connectionid)).toEqual([first, second]);
    expect((await logs(webhookid)).map((l) => l.httpstatus)).toEqual([204, NO_ANSWER_HTTPSTATUS]);
  });

  it(`the app has at most ${MAX_ATTEMPTS_IN_FLIGHT} attempts out, at most ${MAX_ATTEMPTS_IN_FLIGHT_PER_ACCOUNT} per account`, async () => {
    await setup({ webhookTimeoutMs: TIMEOUT_MS });
    const hanging = await receiver();
    hanging.answer([], 'hang');
    const w = world();
    const accounts = ['60000000-0000-4000-8000-000000000001', '60000000-0000-4000-8000-000000000002'];
    const all = [s.ids.accountId, ...accounts];
    for (let i = 0; i < 30; i++) {
      injectWebhook(w, {
        webhookid: webhookId(i),
        url: hanging.url(`/${i}`),
        accountid: all[i % 3] as string,
      });
    }
    for (const accountid of all) {
      const envid = s.ids.sandboxEnvId;
      publishEvent(s.app.services, {
        accountid,
        envid,
        event: 'account.connection.created',
        consumerid: null,
      });
    }
    await s.app.services.ticker.run();
    await hanging.received(MAX_ATTEMPTS_IN_FLIGHT);
    await pause(100);
    expect(hanging.requests).toHaveLength(MAX_ATTEMPTS_IN_FLIGHT);
    const perAccount = new Map<string, number>();
    for (const q of hanging.requests) {
      const accountid = JSON.parse(q.body).accountid as string;
      perAccount.set(accountid, (perAccount.get(accountid) ?? 0) + 1);
    }
    expect(Math.max(...perAccount.values())).toBeLessThanOrEqual(MAX_ATTEMPTS_IN_FLIGHT_PER_ACCOUNT);
    // Once the receiver is gone the attempts fail fast, and the ones that waited go out in turn.
    await hanging.close();
    await settle();
    expect(deliveries().filter((d) => d.attempts === 1)).toHaveLength(30);
  });
});

describe('webhook logs stay bounded', () => {
  const log = (n: number, accountid: string): WebhookLogRecord => ({
    webhooklogid: `l${n}`,
    webhookid: 'w',
    event: 'account.connection.created',
    url: 'http://127.0.0.1/',
    accountid,
    createdon: '2026-01-15T09:00:00.000Z',
    httpstatus: 200,
    integrationid: null,
  });

  it('pruning keeps the newest logs of each account', () => {
    const w = { webhook_logs: {} } as World;
    ['a', 'b', 'a', 'a', 'b', 'a', 'c'].forEach((accountid, i) => {
      w.webhook_logs[`l${i}`] = log(i, accountid);
    });
    pruneWebhookLogs(w, 2);
    expect(Object.keys(w.webhook_logs)).toEqual(['l1', 'l3', 'l4', 'l5', 'l6']);
    pruneWebhookLogs(w, 10);
    expect(Object.keys(w.webhook_logs)).toHaveLength(5);
  });

  it('every attempt prunes: the logs of an account never grow past the bound', async () => {
    const r = await receiver();
    r.answer([], 500);
    await subscribe(r.url());
    const w = world();
    // An account already at the bound.
    for (let i = 0; i < MAX_WEBHOOK_LOGS_PER_ACCOUNT; i++)
      w.webhook_logs[`old-${i}`] = log(i, s.ids.accountId);
    await connect(await newConsumer());
    await settle();
    const logsNow = Object.keys(w.webhook_logs);
    expect(logsNow).toHaveLength(MAX_WEBHOOK_LOGS_PER_ACCOUNT);
    expect(logsNow).not.toContain('old-0');
    expect(logsNow).toContain('old-1');
  });
});

describe('the sandbox itself is never called', () => {
  let running: RunningSandbox;
  let apiToken: string;

  const http = async (method: string, path: string, body?: unknown, bearer = apiToken) => {
    const res = await fetch(`${running.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  beforeEach(async () => {
    running = await startSandbox({ seed: 7, port: 0, clock: new Date('2026-01-15T09:00:00Z') });
    const { accountId, sandbox: key } = running.credentials;
    const res = await fetch(`${running.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ accountId, clientId: key.clientId, clientSecret: key.clientSecret }),
    });
    apiToken = ((await res.json()) as { access_token: string }).access_token;
  });

  afterEach(async () => {
    await running.app.services.ticker.idle();
    await running.close();
  });

  it('creating or changing a webhook to it is refused as an invalid url', async () => {
    const port = running.port;
    for (const url of [
      `${running.url}/__sandbox/reset`,
      `http://localhost:${port}/__sandbox/reset`,
      `http://[::1]:${port}/__sandbox/webhook-deliveries/00000000-0000-4000-8000-000000000000/redeliver`,
      `http://127.0.0.1:${port}/%5F%5Fsandbox/clock`,
      `http://127.0.0.1:${port}/hook`,
    ]) {
      const res = await http('POST', '/webhooks', { event: 'account.connection.created', url });
      expect(res, url).toMatchObject({ status: 400, body: { message: errors.webhookUrlInvalid().message } });
    }
    const elsewhere = `http://127.0.0.1:${port + 1}/hook`;
    const fine = await http('POST', '/webhooks', { event: 'account.connection.created', url: elsewhere });
    expect(fine.status).toBe(200);
    const changed = await http('PATCH', `/webhooks/${fine.body.webhookid}`, {
      url: `http://localhost:${port}/consumers`,
    });
    expect(changed).toMatchObject({ status: 400, body: { message: errors.webhookUrlInvalid().message } });
    expect(Object.values(running.store.world.webhooks).map((w) => w.url)).toEqual([elsewhere]);
  });

  it('a stored one gets no request: the delivery is given up and the world is not reset', async () => {
    const port = running.port;
    const w = running.store.world;
    const { accountId, sandboxEnvId } = running.credentials;
    const urls = [`http://localhost:${port}/__sandbox/reset`, `http://127.0.0.1:${port}/consumers`];
    urls.forEach((url, i) => {
      w.webhooks[webhookId(i)] = {
        webhookid: webhookId(i),
        accountid: accountId,
        envid: sandboxEnvId,
        createdby: null,
        createdon: '2026-01-15T09:00:00.000Z',
        event: 'account.connection.created',
        url,
        status: 'active',
        integrationid: null,
        signingsecret: null,
      };
    });
    const consumer = await http('POST', '/consumers', { name: 'Survives' });
    const connected = await http('POST', `/consumers/${consumer.body.consumerid}/connections`, {
      integrationid: INVOICING,
      credentials: INVOICING_CREDENTIALS,
    });
    expect(connected.status).toBe(200);
    await running.app.services.ticker.idle();
    const world = running.store.world;
    expect(world.consumers[consumer.body.consumerid as string]).toBeDefined();
    expect(Object.values(world.webhook_deliveries)).toEqual([
      expect.objectContaining({
        webhookid: webhookId(0),
        state: 'failed',
        attempts: 0,
        last_error: GIVE_UP_REASONS.ownEndpoint,
      }),
      expect.objectContaining({
        webhookid: webhookId(1),
        state: 'failed',
        attempts: 0,
        last_error: GIVE_UP_REASONS.ownEndpoint,
      }),
    ]);
    expect(Object.values(world.webhook_logs)).toEqual([]);
  });

  it('a host name that resolves to the sandbox is refused before any request is sent', async () => {
    // The guard the worker uses, on a url given straight to the sender (no check on its text first).
    const url = `http://localhost:${running.port}/consumers`;
    const guard = running.app.services.self.endpoints().addressGuard(url);
    const body = '{}';
    const result = await postWebhook(url, body, deliveryHeaders(body, null), 2000, guard);
    expect(result).toEqual({
      httpstatus: NO_ANSWER_HTTPSTATUS,
      error: GIVE_UP_REASONS.ownEndpoint,
      ownEndpoint: true,
    });
    expect((await http('GET', '/__sandbox/clock')).status).toBe(200);
  });

  it('an https url is sent with TLS (the client loaded at the first one): a plain HTTP receiver gets no answer', async () => {
    const url = `https://127.0.0.1:${running.port}/receiver`;
    const body = '{}';
    const result = await postWebhook(url, body, deliveryHeaders(body, null), 2000, null);
    expect(result.httpstatus).toBe(NO_ANSWER_HTTPSTATUS);
    expect(result.error).toEqual(expect.any(String));
    expect(result.error).not.toMatch(/Unsupported protocol/);
  });
});
