import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_WORLD_TIMELINE } from '../../src/control/timeline.js';
import { MAX_EVENTS_PER_RUN } from '../../src/control/timeline-task.js';
import { errors } from '../../src/lib/errors.js';
import { connectionCredentials } from '../../src/modules/connections/index.js';
import type { TimelineRecord } from '../../src/store/world.js';
import { call, expectError, sandbox, sandboxToken, type TestSandbox } from '../helpers.js';

/**
 * The timeline: events declared at instants, applied when the sandbox clock reaches them through
 * the API's own rules (a vertical block of a fixture, or the life of a connection), each whole or
 * not at all.
 */

const HOUR = 3_600;

let s: TestSandbox;
let token: string;
let pos: string;

beforeEach(async () => {
  s = sandbox();
  token = await sandboxToken(s);
  pos = s.ids.verticalConsumers.POS as string;
});

async function advance(seconds: number): Promise<void> {
  const moved = await call(s.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: seconds } });
  expect(moved.status, moved.text).toBe(200);
  token = await sandboxToken(s);
}

async function declare(events: unknown[]) {
  return call(s.app, 'POST', '/__sandbox/timeline', { body: { events } });
}

/** The POS consumer's orders of a day. */
async function ordersOf(day: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (let page = 1; ; page++) {
    const res = await call(
      s.app,
      'GET',
      `/consumers/${pos}/pos/orders?date_from=${day}&date_to=${day}&page=${page}&size=100`,
      {
        token,
      },
    );
    expect(res.status, res.text).toBe(200);
    out.push(...res.body.items);
    if (page * 100 >= res.body.total) return out;
  }
}

async function aProduct(): Promise<string> {
  const res = await call(s.app, 'GET', `/consumers/${pos}/pos/products?page=1&size=1`, { token });
  expect(res.status).toBe(200);
  return res.body.items[0].id as string;
}

/** The first connection of a consumer (and the consumer's id). */
async function connectionOf(
  consumer: string,
): Promise<{ connectionid: string; integrationid: number; name: string; status: string }> {
  const res = await call(s.app, 'GET', `/consumers/${consumer}/connections`, { token });
  expect(res.status).toBe(200);
  return res.body[0];
}

describe('records on the timeline', () => {
  it('a large order happens when the clock reaches it, dated then, and not before', async () => {
    const product = await aProduct();
    const at = '2026-01-15T15:30:00.000Z';
    const declared = await declare([
      {
        at,
        consumer: pos,
        pos: {
          orders: [
            { creation_date: '{{at}}', closing_date: '{{at}}', items: [{ product, quantity: 40 }], tip: 12 },
          ],
        },
      },
    ]);
    expect(declared.status, declared.text).toBe(200);
    expect(declared.body.events).toHaveLength(1);
    expect(declared.body.events[0]).toMatchObject({ at, consumerid: pos, status: 'pending', records: null });
    const before = await ordersOf('2026-01-15');
    await advance(7 * HOUR);
    const timeline = await call(s.app, 'GET', '/__sandbox/timeline');
    const [event] = timeline.body.events;
    expect(event).toMatchObject({ status: 'applied', applied_on: at, error: null });
    const [orderId] = event.records.pos.orders as string[];
    const after = await ordersOf('2026-01-15');
    const order = after.find((o) => o.id === orderId) as Record<string, unknown>;
    expect(before.some((o) => o.id === orderId)).toBe(false);
    expect(order).toMatchObject({ creation_date: at, closing_date: at });
    expect((order.items as { quantity: number }[])[0]?.quantity).toBe(40);
  });

  it('a burst repeats its block every few seconds, each at its own instant', async () => {
    const product = await aProduct();
    const declared = await declare([
      {
        at: '2026-01-17T10:00:00Z',
        repeat: 30,
        every_seconds: 120,
        consumer: pos,
        pos: { orders: [{ creation_date: '{{at}}', closing_date: '{{at}}', items: [{ product }] }] },
      },
    ]);
    expect(declared.status, declared.text).toBe(200);
    expect(declared.body.events).toHaveLength(30);
    await advance(3 * 24 * HOUR);
    const applied = (await call(s.app, 'GET', '/__sandbox/timeline')).body.events;
    expect(applied.every((e: { status: string }) => e.status === 'applied')).toBe(true);
    const ids = applied.flatMap((e: { records: { pos: { orders: string[] } } }) => e.records.pos.orders);
    const saturday = await ordersOf('2026-01-17');
    const burst = saturday.filter((o) => ids.includes(o.id));
    expect(burst).toHaveLength(30);
    expect(new Set(burst.map((o) => o.creation_date)).size).toBe(30);
    expect(burst.map((o) => o.creation_date).sort()[29]).toBe('2026-01-17T10:58:00.000Z');
  });

  it(`more events due at once than one run applies (${MAX_EVENTS_PER_RUN}) all happen by the answer of the clock's move`, async () => {
    const declared = await declare([
      {
        at: '2026-01-15T10:00:00Z',
        repeat: MAX_EVENTS_PER_RUN * 2 + 50,
        every_seconds: 1,
        consumer: pos,
        pos: { customers: [{ first_name: 'Burst', last_name: '{{at}}' }] },
      },
    ]);
    expect(declared.status, declared.text).toBe(200);
    await advance(2 * HOUR);
    const events = (await call(s.app, 'GET', '/__sandbox/timeline')).body.events as { status: string }[];
    expect(events).toHaveLength(MAX_EVENTS_PER_RUN * 2 + 50);
    expect(events.every((event) => event.status === 'applied')).toBe(true);
  });

  it('an event the rules refuse is marked failed with the reason, keeps nothing, and the others happen', async () => {
    const product = await aProduct();
    const declared = await declare([
      {
        at: '2026-01-15T10:00:00Z',
        consumer: pos,
        pos: {
          orders: [
            { creation_date: '{{at}}', closing_date: '{{at}}', items: [{ product }] },
            { creation_date: '{{at}}', closing_date: '{{at}}', items: [{ product: 'no such product' }] },
          ],
        },
      },
      {
        at: '2026-01-15T11:00:00Z',
        consumer: pos,
        pos: { orders: [{ creation_date: '{{at}}', closing_date: '{{at}}', items: [{ product }] }] },
      },
    ]);
    expect(declared.status, declared.text).toBe(200);
    const before = await ordersOf('2026-01-15');
    await advance(3 * HOUR);
    await s.app.services.ticker.idle();
    const [refused, applied] = (await call(s.app, 'GET', '/__sandbox/timeline')).body.events;
    expect(refused.status).toBe('failed');
    expect(refused.error).toContain('no such product');
    expect(refused.records).toBeNull();
    expect(applied.status).toBe('applied');
    const after = await ordersOf('2026-01-15');
    // Only the second event's order was added: nothing of the refused one (its first order neither).
    // The rest of what is new is the day's own business of those three hours, as a world without the
    // timeline has it (its data first used at the same instant).
    const added = after.filter((o) => !before.some((b) => b.id === o.id)).map((o) => o.id);
    const plain = sandbox();
    const plainToken = await sandboxToken(plain);
    const listed = async (bearer: string) =>
      (
        await call(
          plain.app,
          'GET',
          `/consumers/${pos}/pos/orders?date_from=2026-01-15&date_to=2026-01-15&size=100`,
          {
            token: bearer,
          },
        )
      ).body.items as { id: string }[];
    const plainBefore = await listed(plainToken);
    await call(plain.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: 3 * HOUR } });
    const plainAdded = (await listed(await sandboxToken(plain)))
      .filter((o) => !plainBefore.some((b) => b.id === o.id))
      .map((o) => o.id);
    expect(added.sort()).toEqual([...plainAdded, applied.records.pos.orders[0]].sort());
  });

  it('refuses a malformed event with 422 and one that names nothing it can apply to with 400, declaring none', async () => {
    const connection = await connectionOf(pos);
    for (const events of [
      [{ consumer: pos, event: 'credentials_expired' }],
      [{ at: '2026-01-16T00:00:00Z', consumer: pos }],
      [{ at: '2026-01-16T00:00:00Z', consumer: pos, event: 'credentials_expired', pos: { orders: [] } }],
      [{ at: '2026-01-16T00:00:00Z', consumer: pos, event: 'melted', connection: connection.connectionid }],
    ]) {
      const res = await declare(events);
      expect(res.status, JSON.stringify(events)).toBe(422);
    }
    for (const events of [
      [
        {
          at: '2026-01-16T00:00:00Z',
          consumer: '00000000-0000-4000-8000-000000000000',
          event: 'recovered',
          connection: connection.connectionid,
        },
      ],
      [{ at: '2026-01-16T00:00:00Z', consumer: pos, event: 'credentials_expired' }],
      [
        {
          at: '2026-01-16T00:00:00Z',
          consumer: pos,
          event: 'agent_down',
          connection: connection.connectionid,
        },
      ],
      [{ at: '2026-01-16T00:00:00Z', consumer: pos, banking: {} }],
    ]) {
      const res = await declare(events);
      expect(res.status, `${JSON.stringify(events)} ${res.text}`).toBe(400);
      expect(res.body.status).toBe('error');
    }
    expect((await call(s.app, 'GET', '/__sandbox/timeline')).body.events).toEqual([]);
  });

  it('a fixture document declares its timeline with its own consumer refs; DELETE drops what is still to come', async () => {
    const loaded = await call(s.app, 'POST', '/__sandbox/fixtures', {
      body: {
        consumers: [{ ref: 'shop', name: 'Shop', connections: [{ integration: 'Zelty' }] }],
        timeline: [
          {
            at: '2026-01-16T09:00:00Z',
            consumer: 'shop',
            event: 'credentials_expired',
            connection: undefined,
          },
        ],
      },
    });
    // An event of a connection names its connection: the document is refused whole.
    expect(loaded.status, loaded.text).toBe(400);
    const consumers = (await call(s.app, 'GET', '/consumers', { token })).body.length;
    const ok = await call(s.app, 'POST', '/__sandbox/fixtures', {
      body: {
        consumers: [{ ref: 'shop', name: 'Shop', connections: [{ integration: 'Zelty' }] }],
        timeline: [
          {
            at: '2026-01-16T09:00:00Z',
            consumer: 'shop',
            pos: { customers: [{ first_name: 'Ada', last_name: 'L' }] },
          },
          {
            at: '2026-02-16T09:00:00Z',
            consumer: 'shop',
            pos: { customers: [{ first_name: 'Bo', last_name: 'M' }] },
          },
        ],
      },
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.timeline).toHaveLength(2);
    expect((await call(s.app, 'GET', '/consumers', { token })).body.length).toBe(consumers + 1);
    await advance(2 * 24 * HOUR);
    const dropped = await call(s.app, 'DELETE', '/__sandbox/timeline');
    expect(dropped.status).toBe(200);
    expect(dropped.body.events.map((e: { status: string }) => e.status)).toEqual(['applied']);
    expect(dropped.body.events[0].consumerid).toBe(ok.body.consumers[0].consumerid);
  });
});

describe("a connection's life on the timeline", () => {
  it('credentials expire: inactive, an issue opens, events fire; new credentials repair it and close the issue', async () => {
    const consumer = s.ids.verticalConsumers.ACCOUNTING as string;
    const connection = await connectionOf(consumer);
    for (const event of ['account.connection.updated', 'account.issue.created']) {
      const hook = await call(s.app, 'POST', '/webhooks', {
        token,
        body: { event, url: 'http://127.0.0.1:9/hooks' },
      });
      expect(hook.status, hook.text).toBe(200);
    }
    const declared = await declare([
      {
        at: '2026-01-15T12:00:00Z',
        consumer,
        connection: connection.connectionid,
        event: 'credentials_expired',
      },
    ]);
    expect(declared.status, declared.text).toBe(200);
    const journals = `/consumers/${consumer}/accounting/journals`;
    expect((await call(s.app, 'GET', journals, { token })).status).toBe(200);
    await advance(4 * HOUR);
    const refused = await call(s.app, 'GET', journals, { token });
    expect(refused.status).toBe(400);
    expect(refused.body.error_code).toBe('ERROR_NO_ACTIVE_CONNECTION');
    expect((await connectionOf(consumer)).status).toBe('inactive');
    const issues = await call(s.app, 'GET', `/consumers/${consumer}/issues`, { token });
    expect(issues.status, issues.text).toBe(200);
    const issue = issues.body.find(
      (i: { error: { error_code: string } }) => i.error.error_code === 'ERROR_AUTHENTICATION_FAILED',
    );
    expect(issue).toMatchObject({ status: 'open', level: 'error', connection_id: connection.connectionid });
    const extended = await call(s.app, 'GET', `/issues/${issue.id}`, { token });
    expect(extended.status, extended.text).toBe(200);

    // The end user reconnects: new credentials through the connection's link.
    const integration = s.app.services.catalogue.get(connection.integrationid);
    if (!integration) throw new Error('no integration');
    const credentials = connectionCredentials(integration)
      .filter((c) => !c.optional)
      .map((c) => ({ key: c.name, value: `new-${c.name}` }));
    const patched = await call(
      s.app,
      'PATCH',
      `/consumers/${consumer}/connections/${connection.connectionid}`,
      {
        token,
        body: { credentials },
      },
    );
    expect(patched.status, patched.text).toBe(200);
    expect((await call(s.app, 'GET', journals, { token })).status).toBe(200);
    const closed = await call(s.app, 'GET', `/consumers/${consumer}/issues`, { token });
    expect(closed.body.find((i: { id: string }) => i.id === issue.id).status).toBe('closed');
    // account.connection.updated for the expiry and for the repair, account.issue.created for the issue.
    const sent = Object.values(s.app.services.store.world.webhook_deliveries)
      .map((d) => ({ event: d.event, body: JSON.parse(d.body) }))
      .filter((d) => d.body.consumerid === consumer);
    expect(sent.filter((d) => d.event === 'account.connection.updated').map((d) => d.body.status)).toEqual([
      'inactive',
      'active',
    ]);
    expect(sent.filter((d) => d.event === 'account.issue.created')).toHaveLength(1);
  });

  it("an unreachable connector answers the service's 502 until it recovers", async () => {
    const connection = await connectionOf(pos);
    const declared = await declare([
      {
        at: '2026-01-15T10:00:00Z',
        until: '2026-01-15T14:00:00Z',
        consumer: pos,
        connection: connection.connectionid,
        event: 'unreachable',
      },
    ]);
    expect(declared.status, declared.text).toBe(200);
    await advance(2 * HOUR);
    const down = await call(s.app, 'GET', `/consumers/${pos}/pos/locations`, { token });
    expect(down.status).toBe(502);
    expect(down.body).toMatchObject({
      status: 'error',
      message: `Error while trying to authenticate to ${connection.name}`,
    });
    await advance(4 * HOUR);
    expect((await call(s.app, 'GET', `/consumers/${pos}/pos/locations`, { token })).status).toBe(200);
  });

  it('a local agent that stops answering shows down, and up again once recovered', async () => {
    const created = await call(s.app, 'POST', '/consumers', { token, body: { name: 'Desk' } });
    const consumer = created.body.consumerid as string;
    const made = await call(s.app, 'POST', `/consumers/${consumer}/connections`, {
      token,
      body: { integrationid: 90102, credentials: [{ key: 'database_path', value: 'C:/books' }] },
    });
    expect(made.status, made.text).toBe(200);
    const connection = await connectionOf(consumer);
    const declared = await declare([
      { at: '2026-01-15T10:00:00Z', consumer, connection: connection.connectionid, event: 'agent_down' },
      { at: '2026-01-15T12:00:00Z', consumer, connection: connection.connectionid, event: 'recovered' },
    ]);
    expect(declared.status, declared.text).toBe(200);
    await advance(2 * HOUR);
    expect((await connectionOf(consumer)) as unknown).toMatchObject({ agent: { status: 'down' } });
    expect((await call(s.app, 'GET', `/consumers/${consumer}/accounting/journals`, { token })).status).toBe(
      502,
    );
    await advance(2 * HOUR);
    expect((await connectionOf(consumer)) as unknown).toMatchObject({ agent: { status: 'up' } });
  });
});

describe('how many events a world keeps', () => {
  /** Fills the world's timeline with events of `status`, straight into the world. */
  async function filled(status: TimelineRecord['status'], count: number): Promise<void> {
    await s.app.services.store.transact((write) => {
      for (let i = 0; i < count; i++) {
        const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
        write.world.timeline[id] = {
          id,
          // Those to come are due later than the clock: no run applies them meanwhile.
          at: status === 'pending' ? '2026-03-01T00:00:00.000Z' : '2026-01-01T00:00:00.000Z',
          consumerid: pos,
          connectionid: null,
          event: 'recovered',
          until: null,
          blocks: null,
          status,
          declared_on: '2026-01-01T00:00:00.000Z',
          applied_on: status === 'pending' ? null : '2026-01-01T00:00:00.000Z',
          records: null,
          error: null,
        };
      }
    });
  }

  const oneMore = async () => {
    const connection = await connectionOf(pos);
    const at = '2026-02-01T00:00:00Z';
    return declare([{ at, consumer: pos, event: 'recovered', connection: connection.connectionid }]);
  };

  it(`makes room among the ${MAX_WORLD_TIMELINE} kept by dropping the oldest that happened`, async () => {
    await filled('applied', MAX_WORLD_TIMELINE);
    const res = await oneMore();
    expect(res.status, res.text).toBe(200);
    const events = (await call(s.app, 'GET', '/__sandbox/timeline')).body.events as { id: string }[];
    expect(events).toHaveLength(MAX_WORLD_TIMELINE);
    expect(events.some((event) => event.id === '00000000-0000-4000-8000-000000000000')).toBe(false);
    expect(events.at(-1)?.id).toBe(res.body.events[0].id);
  });

  it(`refuses with 413 more than ${MAX_WORLD_TIMELINE} events to come, dropping nothing`, async () => {
    await filled('pending', MAX_WORLD_TIMELINE);
    const res = await oneMore();
    expectError(res, errors.listFull('timeline events', MAX_WORLD_TIMELINE, ''));
    expect(res.body.detail).toContain('DELETE /__sandbox/timeline');
    expect(Object.keys(s.app.services.store.world.timeline)).toHaveLength(MAX_WORLD_TIMELINE);
  });
});
