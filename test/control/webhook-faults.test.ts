import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type FaultRule, FaultRuleError, rotatedSecret } from '../../src/control/faults.js';
import { MAX_HELD_DELIVERIES } from '../../src/modules/webhooks/index.js';
import {
  type CallOptions,
  call,
  SEED,
  sandbox,
  type TestSandbox,
  tokenFor,
  type WebhookReceiver,
  webhookReceiver,
} from '../helpers.js';

/**
 * Webhook faults: rules of POST /__sandbox/faults with a webhook match make the matching
 * deliveries misbehave as at-least-once, unordered delivery does. Each misbehaviour is observed by
 * a real receiver on a loopback port; the manual sandbox clock (POST /__sandbox/clock) releases what
 * a fault holds, and `settle()` waits for the attempts rather than sleeping.
 */

const EVENT = 'account.connection.created';
const INVOICING = 7010;
const CREDENTIALS = [{ key: 'api_token', value: 't-1' }];

/** A receiver that keeps the headers and the exact body of each request (to check signatures). */
interface Signed {
  signature: string | undefined;
  body: string;
}

async function signedReceiver(): Promise<{ url: string; received: Signed[]; close(): Promise<void> }> {
  const received: Signed[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const signature = req.headers['x-chift-signature'];
      received.push({
        signature: Array.isArray(signature) ? signature[0] : signature,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A sandbox with a short delivery time-out, its token, and its helpers. */
async function world(seed = SEED) {
  const s: TestSandbox = sandbox({ seed, webhookTimeoutMs: 300 });
  const token = await tokenFor(s.app, { accountId: s.ids.accountId, ...s.ids.sandbox });
  const api = (method: string, path: string, options: CallOptions = {}) =>
    call(s.app, method, path, { token, ...options });
  const settle = () => s.app.services.ticker.idle();
  const consumer = await api('POST', '/consumers', { body: { name: 'Webhook faults' } });
  expect(consumer.status).toBe(200);
  const consumerid = consumer.body.consumerid as string;
  let connections = 0;
  return {
    s,
    settle,
    consumerid,
    async subscribe(url: string, extra: Record<string, unknown> = {}) {
      const res = await api('POST', '/webhooks', { body: { event: EVENT, url, ...extra } });
      expect(res.status, res.text).toBe(200);
      return res.body.webhookid as string;
    },
    /**
     * A new active connection: one account.connection.created event, its first attempt awaited.
     * The first is made for `consumerid`, each later one for a new consumer (one per integration).
     */
    async connect() {
      let owner = consumerid;
      if (connections++ > 0) {
        const created = await api('POST', '/consumers', { body: { name: `Webhook faults ${connections}` } });
        expect(created.status).toBe(200);
        owner = created.body.consumerid as string;
      }
      const res = await api('POST', `/consumers/${owner}/connections`, {
        body: { integrationid: INVOICING, credentials: CREDENTIALS },
      });
      expect(res.status, res.text).toBe(200);
      await settle();
    },
    async arm(rule: Record<string, unknown>) {
      const res = await call(s.app, 'POST', '/__sandbox/faults', { body: rule });
      expect(res.status, res.text).toBe(200);
      return res.body as { id: string };
    },
    async advance(seconds: number) {
      const res = await call(s.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: seconds } });
      expect(res.status).toBe(200);
      await settle();
    },
    /** The deliveries to an instance, oldest first, as the control endpoint shows them. */
    async deliveries(webhookid: string) {
      const res = await call(s.app, 'GET', `/__sandbox/webhook-deliveries?webhookid=${webhookid}`);
      expect(res.status).toBe(200);
      // biome-ignore lint/suspicious/noExplicitAny: read field by field
      return (res.body as any[]).reverse();
    },
  };
}

async function receiver(): Promise<WebhookReceiver> {
  const r = await webhookReceiver();
  closers.push(r.close);
  return r;
}

const connectionsOf = (r: WebhookReceiver) => r.received.map((body) => body.connectionid as string);
const sign = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('hex');

describe('webhook faults: each misbehaviour, as the receiver sees it', () => {
  it('duplicate: the same delivery (same body) arrives N more times, each copy a delivery of its own', async () => {
    const w = await world();
    const r = await receiver();
    const webhookid = await w.subscribe(r.url);
    const fault = await w.arm({
      match: { webhook: { event: 'account.connection.*' } },
      effect: { duplicate: 2 },
      times: 1,
    });
    await w.connect();
    expect(r.received).toHaveLength(3);
    expect(new Set(r.received.map((body) => JSON.stringify(body))).size).toBe(1);
    const [original, ...copies] = await w.deliveries(webhookid);
    expect(original.fault).toMatchObject({ id: fault.id, effect: 'duplicate' });
    expect(copies).toHaveLength(2);
    for (const copy of copies) {
      expect(copy).toMatchObject({
        state: 'delivered',
        body: original.body,
        redelivery_of: original.deliveryid,
      });
      expect(copy.fault).toMatchObject({ id: fault.id, effect: 'duplicate' });
      expect(copy.log[0].fault).toEqual({ id: fault.id, effect: 'duplicate' });
    }
    // The list of faults shows the webhook match and how often it fired.
    const listed = (await call(w.s.app, 'GET', '/__sandbox/faults')).body;
    expect(listed).toEqual([
      expect.objectContaining({
        id: fault.id,
        match: { webhook: { event: 'account.connection.*', webhook_id: null, consumer_id: null } },
        effect: { duplicate: 2 },
        fired: 1,
        remaining: 0,
      }),
    ]);
    // The next event goes once: times is spent.
    await w.connect();
    expect(r.received).toHaveLength(4);
  });

  it('reorder: the delivery is held and sent right after the next one to the same instance', async () => {
    const w = await world();
    const r = await receiver();
    const webhookid = await w.subscribe(r.url);
    const fault = await w.arm({
      match: { webhook: { webhook_id: webhookid } },
      effect: { reorder: true },
      times: 1,
    });
    await w.connect();
    expect(r.received).toHaveLength(0);
    const [held] = await w.deliveries(webhookid);
    expect(held.fault).toMatchObject({ id: fault.id, effect: 'reorder', held: true });
    await w.connect();
    expect(r.received).toHaveLength(2);
    const [first, second] = await w.deliveries(webhookid);
    // The receiver sees the newer event first.
    expect(connectionsOf(r)).toEqual([second.payload.connectionid, first.payload.connectionid]);
    expect(first.fault).toMatchObject({ held: false });
    expect(first.fault.detail).toContain(second.deliveryid);
  });

  it('reorder: with no later delivery within hold_seconds, the held one goes alone', async () => {
    const w = await world();
    const r = await receiver();
    await w.subscribe(r.url);
    await w.arm({ match: { webhook: {} }, effect: { reorder: true, hold_seconds: 30 }, times: 1 });
    await w.connect();
    await w.advance(29);
    expect(r.received).toHaveLength(0);
    await w.advance(1);
    expect(r.received).toHaveLength(1);
  });

  it('delay_seconds: nothing arrives before the sandbox clock reaches it, then the delivery does', async () => {
    const w = await world();
    const r = await receiver();
    const webhookid = await w.subscribe(r.url);
    const fault = await w.arm({
      match: { webhook: { event: EVENT } },
      effect: { delay_seconds: 30 },
      times: 1,
    });
    await w.connect();
    expect(r.received).toHaveLength(0);
    const [delivery] = await w.deliveries(webhookid);
    expect(delivery).toMatchObject({
      state: 'pending',
      attempts: 0,
      fault: { id: fault.id, effect: 'delay_seconds' },
    });
    await w.advance(29);
    expect(r.received).toHaveLength(0);
    await w.advance(1);
    expect(r.received).toHaveLength(1);
    expect((await w.deliveries(webhookid))[0]).toMatchObject({ state: 'delivered', attempts: 1 });
  });

  it('drop_then_redeliver_seconds: the first attempt is lost (logged), the same delivery arrives later', async () => {
    const w = await world();
    const r = await receiver();
    const webhookid = await w.subscribe(r.url);
    const fault = await w.arm({
      match: { webhook: { consumer_id: w.consumerid.toUpperCase() } },
      effect: { drop_then_redeliver_seconds: 20 },
    });
    await w.connect();
    expect(r.received).toHaveLength(0);
    const [lost] = await w.deliveries(webhookid);
    expect(lost).toMatchObject({ state: 'pending', attempts: 1, last_httpstatus: 0 });
    expect(lost.log).toHaveLength(1);
    expect(lost.log[0]).toMatchObject({
      httpstatus: 0,
      fault: { id: fault.id, effect: 'drop_then_redeliver_seconds' },
    });
    expect(lost.log[0].error).toContain(fault.id);
    await w.advance(19);
    expect(r.received).toHaveLength(0);
    await w.advance(1);
    expect(r.received).toHaveLength(1);
    expect(JSON.stringify(r.received[0])).toBe(lost.body);
    expect((await w.deliveries(webhookid))[0]).toMatchObject({ state: 'delivered', attempts: 2 });
  });

  it('stale: after a newer event, the previous one of the same type is sent again', async () => {
    const w = await world();
    const r = await receiver();
    const webhookid = await w.subscribe(r.url);
    await w.connect();
    const fault = await w.arm({ match: { webhook: { event: EVENT } }, effect: { stale: true }, times: 1 });
    await w.connect();
    expect(r.received).toHaveLength(3);
    const [older, newer, stale] = await w.deliveries(webhookid);
    expect(connectionsOf(r)).toEqual([
      older.payload.connectionid,
      newer.payload.connectionid,
      older.payload.connectionid,
    ]);
    expect(stale).toMatchObject({
      body: older.body,
      redelivery_of: older.deliveryid,
      fault: { id: fault.id, effect: 'stale' },
    });
    expect(newer.fault).toMatchObject({ id: fault.id, effect: 'stale' });
  });

  it('rotate_secret without overlap: the delivery is signed with the new secret at once', async () => {
    const w = await world();
    const r = await signedReceiver();
    closers.push(r.close);
    const webhookid = await w.subscribe(r.url, { signingsecret: 'whsec-old' });
    const fault = await w.arm({ match: { webhook: {} }, effect: { rotate_secret: {} }, times: 1 });
    await w.connect();
    const [delivery] = await w.deliveries(webhookid);
    const secret = delivery.fault.signingsecret as string;
    // Drawn from the seed, the fault id and the firing count.
    expect(secret).toBe(rotatedSecret(SEED, fault.id, 1));
    expect(secret).not.toBe('whsec-old');
    const [sent] = r.received;
    expect(sent?.signature).toBe(sign(secret, sent?.body ?? ''));
    expect(sent?.signature).not.toBe(sign('whsec-old', sent?.body ?? ''));
    const listed = (await call(w.s.app, 'GET', `/__sandbox/faults/${fault.id}`)).body;
    expect(listed.effect).toEqual({ rotate_secret: { overlap_seconds: 0 } });
  });

  it('rotate_secret with an overlap: signed with the old secret until it ends, then with the new one', async () => {
    const w = await world();
    const r = await signedReceiver();
    closers.push(r.close);
    const webhookid = await w.subscribe(r.url, { signingsecret: 'whsec-old' });
    await w.arm({ match: { webhook: {} }, effect: { rotate_secret: { overlap_seconds: 60 } }, times: 1 });
    await w.connect();
    const secret = (await w.deliveries(webhookid))[0].fault.signingsecret as string;
    await w.advance(30);
    await w.connect();
    await w.advance(30);
    await w.connect();
    expect(r.received).toHaveLength(3);
    const [during, stillDuring, after] = r.received as [Signed, Signed, Signed];
    expect(during.signature).toBe(sign('whsec-old', during.body));
    expect(stillDuring.signature).toBe(sign('whsec-old', stillDuring.body));
    expect(after.signature).toBe(sign(secret, after.body));
    expect(after.signature).not.toBe(sign('whsec-old', after.body));
  });
});

describe('webhook faults: scope, visibility and rules', () => {
  it('probability: the same seed makes the same deliveries misbehave, run after run', async () => {
    const run = async () => {
      const w = await world();
      const r = await receiver();
      await w.subscribe(r.url);
      const fault = await w.arm({ match: { webhook: {} }, effect: { duplicate: 1 }, probability: 0.5 });
      for (let i = 0; i < 8; i++) await w.connect();
      // How many times each event arrived, in the order of the events.
      const counts = new Map<string, number>();
      for (const id of connectionsOf(r)) counts.set(id, (counts.get(id) ?? 0) + 1);
      const fired = (await call(w.s.app, 'GET', `/__sandbox/faults/${fault.id}`)).body.fired as number;
      return { pattern: [...counts.values()], fired };
    };
    const first = await run();
    const second = await run();
    expect(second).toEqual(first);
    expect(first.pattern).toHaveLength(8);
    expect(first.pattern).toContain(1);
    expect(first.pattern).toContain(2);
    expect(first.fired).toBe(first.pattern.filter((n) => n === 2).length);
  });

  it('shows what a fault did on the console page of webhooks', async () => {
    const w = await world();
    const r = await receiver();
    await w.subscribe(r.url);
    const fault = await w.arm({ match: { webhook: {} }, effect: { delay_seconds: 5 }, times: 1 });
    await w.connect();
    const page = await w.s.app.request('/console/webhooks');
    const text = await page.text();
    expect(page.status).toBe(200);
    expect(text).toContain(`${fault.id} delay_seconds (held)`);
    await w.advance(5);
    expect(await (await w.s.app.request('/console/webhooks')).text()).toContain(
      `${fault.id} delay_seconds</span>`,
    );
  });

  it('documents the webhook match and effects in the served document', async () => {
    const w = await world();
    // biome-ignore lint/suspicious/noExplicitAny: the document is walked as plain JSON
    const doc: any = await (await w.s.app.request('/__sandbox/openapi.json')).json();
    const schemas = doc.components.schemas;
    expect(Object.keys(schemas.SandboxWebhookFaultMatch.properties)).toEqual([
      'event',
      'webhook_id',
      'consumer_id',
    ]);
    expect(Object.keys(schemas.SandboxFaultMatch.properties)).toContain('webhook');
    expect(Object.keys(schemas.SandboxFaultEffect.properties)).toEqual(
      expect.arrayContaining([
        'duplicate',
        'delay_seconds',
        'reorder',
        'hold_seconds',
        'drop_then_redeliver_seconds',
        'stale',
        'rotate_secret',
      ]),
    );
    expect(Object.keys(schemas.SandboxWebhookDelivery.properties)).toContain('fault');
  });

  it(`holds at most ${MAX_HELD_DELIVERIES} deliveries: past the bound, a holding fault lets the delivery go`, async () => {
    const w = await world();
    const r = await receiver();
    const webhookid = await w.subscribe(r.url);
    // As many held deliveries as the app may hold, to an instance of their own, due far later.
    const deliveries = w.s.app.services.store.world.webhook_deliveries;
    const template = {
      webhookid: '70000000-0000-4000-8000-000000000000',
      accountid: w.s.ids.accountId,
      envid: w.s.ids.sandboxEnvId,
      event_consumerid: null,
      event: EVENT,
      url: 'http://127.0.0.1:9/held',
      integrationid: null,
      body: '{}',
      created_on: '2026-01-15T09:00:00.000Z',
      attempts: 0,
      next_attempt_at: '2026-02-15T09:00:00.000Z',
      state: 'pending' as const,
      last_httpstatus: null,
      last_error: null,
      redelivery_of: null,
      fault: { id: 'fault_0', effect: 'delay_seconds' as const, detail: 'held', held: true },
    };
    for (let i = 0; i < MAX_HELD_DELIVERIES; i++) {
      const deliveryid = `71000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      deliveries[deliveryid] = { ...template, deliveryid, fault: { ...template.fault } };
    }
    const fault = await w.arm({ match: { webhook: {} }, effect: { delay_seconds: 60 } });
    await w.connect();
    expect(r.received).toHaveLength(1);
    expect((await call(w.s.app, 'GET', `/__sandbox/faults/${fault.id}`)).body.fired).toBe(0);
    expect((await w.deliveries(webhookid))[0].fault).toBeNull();
    // Room again: the next delivery is held.
    delete deliveries['71000000-0000-4000-8000-000000000000'];
    await w.connect();
    expect(r.received).toHaveLength(1);
    expect((await call(w.s.app, 'GET', `/__sandbox/faults/${fault.id}`)).body.fired).toBe(1);
  });

  it('refuses with 422 a webhook effect with a path match and the reverse, both matches, and none', async () => {
    const w = await world();
    const cases: [FaultRule, string][] = [
      [{ match: { path: '*' }, effect: { duplicate: 1 } }, 'go with a webhook match'],
      [{ match: { path: '*' }, effect: { rotate_secret: {} } }, 'go with a webhook match'],
      [{ match: { webhook: {} }, effect: { status: 500 } }, 'go with a path match'],
      [{ match: { webhook: {} }, effect: { latency_ms: 10 } }, 'go with a path match'],
      [{ match: { path: '*', webhook: {} }, effect: { status: 500 } }, 'Give exactly one of path'],
      [{ match: {}, effect: { duplicate: 1 } }, 'Give exactly one of path'],
      [{ match: { webhook: {} }, effect: { duplicate: 1, stale: true } }, 'Give one of duplicate'],
      [
        { match: { webhook: {} }, effect: { delay_seconds: 5, hold_seconds: 5 } },
        'hold_seconds goes with reorder',
      ],
      [{ match: { webhook: {}, method: 'GET' }, effect: { stale: true } }, 'go with path'],
      [{ match: { webhook: {} }, effect: {} }, 'a webhook match'],
      // A field the match does not know would otherwise be dropped, and the fault match every delivery.
      [
        { match: { webhook: { url: 'http://127.0.0.1:9/hooks' } }, effect: { duplicate: 1 } } as FaultRule,
        'url',
      ],
    ];
    for (const [rule, message] of cases) {
      const res = await call(w.s.app, 'POST', '/__sandbox/faults', { body: rule });
      expect(res.status, JSON.stringify(rule)).toBe(422);
      expect(res.body.message).toBe('Validation error');
      // An unknown field is named by the entry's place, the others by their message.
      const messages = (res.body.detail as { msg: string; loc: string[] }[])
        .map((d) => `${d.loc.join('.')}: ${d.msg}`)
        .join(' | ');
      expect(messages, JSON.stringify(rule)).toContain(message);
      expect(() => w.s.app.services.faults.add(rule)).toThrow(FaultRuleError);
    }
    expect((await call(w.s.app, 'GET', '/__sandbox/faults')).body).toEqual([]);
  });
});
