import { describe, expect, it } from 'vitest';
import type { CreateAppOptions } from '../../src/app.js';
import { MAX_FAULTS } from '../../src/control/faults.js';
import { MAX_WORLD_TIMELINE } from '../../src/control/timeline.js';
import { messages } from '../../src/lib/errors.js';
import { CUSTOMER_MAPPING, seededDatastoreId } from '../../src/modules/datastores/datastores.seed.js';
import { MAX_DATASTORE_ROWS } from '../../src/modules/datastores/index.js';
import {
  MAX_PENDING_DELIVERIES_PER_ACCOUNT,
  MAX_WEBHOOKS_PER_ACCOUNT,
} from '../../src/modules/webhooks/index.js';
import type { World } from '../../src/store/world.js';
import { MAX_SESSIONS, MCP_SESSION_BYTES, type Session } from '../../src/surfaces/mcp/sessions.js';
import { type CallResult, call, sandbox, sandboxToken, type TestSandbox } from '../helpers.js';
import { initializeBody, mcpHeaders, mcpToken } from '../surfaces/mcp/helpers.js';

/**
 * Every list a client can grow has a bound: filled to it, the next item is refused with the
 * documented status and body, and nothing is written. A list of the world (or of what its app keeps
 * for it) answers 413, as the world's bytes do; a capacity that frees itself with time (sessions
 * whose tokens expire, worlds that expire) answers 429 with Retry-After. docs/security.md lists them.
 */

interface Bound {
  list: string;
  options?: CreateAppOptions;
  /** Fills the list to its bound, straight into the app or the world: only the next call is under test. */
  fill(s: TestSandbox): Promise<void>;
  /** One more, as a client asks for it. */
  next(s: TestSandbox): Promise<CallResult>;
  /** What the list holds: the refusal leaves it as it was. */
  held(s: TestSandbox): unknown;
  status: number;
  /** The body answered (a field missing from the answer fails). */
  body: Record<string, unknown>;
}

const FUTURE = '2027-01-01T00:00:00.000Z';
const uuid = (n: number, prefix = '7') => `${prefix}0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const world = (s: TestSandbox): World => s.app.services.store.world;
const fillWorld = (s: TestSandbox, fill: (world: World) => void) =>
  s.app.services.store.transact((write) => fill(write.world));
const full = (what: string, limit: number) => ({ message: messages.listFull(what, limit), status: 'error' });
const mcpInitialize = async (s: TestSandbox) => {
  const token = await mcpToken(s, s.ids.verticalConsumers.ACCOUNTING as string);
  const res = await s.app.request('/mcp', {
    method: 'POST',
    headers: mcpHeaders(token),
    body: JSON.stringify(initializeBody),
  });
  return { status: res.status, body: await res.json(), text: '', headers: res.headers } as CallResult;
};
const sessionsOf = (s: TestSandbox) => s.app.services.mcp?.sessions().length;

/** As many webhook instances as an account may hold, straight into the world. */
const fillWebhooks = (s: TestSandbox) =>
  fillWorld(s, (w) => {
    for (let i = 0; i < MAX_WEBHOOKS_PER_ACCOUNT; i++) {
      w.webhooks[uuid(i)] = {
        webhookid: uuid(i),
        accountid: s.ids.accountId,
        envid: s.ids.sandboxEnvId,
        createdby: null,
        createdon: FUTURE,
        event: 'account.connection.created',
        url: `https://hooks.example.com/${i}`,
        status: 'active',
        integrationid: null,
        signingsecret: null,
      };
    }
  });

const BOUNDS: Bound[] = [
  {
    list: 'armed faults',
    async fill(s) {
      for (let i = 0; i < MAX_FAULTS; i++)
        s.app.services.faults.add({ match: { path: `/faulted/${i}` }, effect: { status: 500 } });
    },
    next: (s) =>
      call(s.app, 'POST', '/__sandbox/faults', {
        body: { match: { path: '/more' }, effect: { status: 500 } },
      }),
    held: (s) => s.app.services.faults.list().length,
    status: 413,
    body: full('armed faults', MAX_FAULTS),
  },
  {
    list: 'timeline events to come',
    fill: (s) =>
      fillWorld(s, (w) => {
        for (let i = 0; i < MAX_WORLD_TIMELINE; i++) {
          w.timeline[uuid(i)] = {
            id: uuid(i),
            at: FUTURE,
            consumerid: s.ids.verticalConsumers.POS as string,
            connectionid: null,
            event: 'recovered',
            until: null,
            blocks: null,
            status: 'pending',
            declared_on: FUTURE,
            applied_on: null,
            records: null,
            error: null,
          };
        }
      }),
    async next(s) {
      const consumer = s.ids.verticalConsumers.POS as string;
      const token = await sandboxToken(s);
      const [connection] = (await call(s.app, 'GET', `/consumers/${consumer}/connections`, { token })).body;
      const event = { at: FUTURE, consumer, event: 'recovered', connection: connection.connectionid };
      return call(s.app, 'POST', '/__sandbox/timeline', { body: { events: [event] } });
    },
    held: (s) => Object.keys(world(s).timeline).length,
    status: 413,
    body: full('timeline events', MAX_WORLD_TIMELINE),
  },
  {
    list: 'webhook instances of an account',
    fill: (s) => fillWebhooks(s),
    next: async (s) =>
      call(s.app, 'POST', '/webhooks', {
        token: await sandboxToken(s),
        body: { event: 'account.connection.created', url: 'https://hooks.example.com/more' },
      }),
    held: (s) => Object.keys(world(s).webhooks).length,
    status: 413,
    body: full('webhook instances per account', MAX_WEBHOOKS_PER_ACCOUNT),
  },
  {
    list: 'webhook instances, from a fixture',
    fill: (s) => fillWebhooks(s),
    next: (s) =>
      call(s.app, 'POST', '/__sandbox/fixtures', {
        body: { webhooks: [{ event: 'account.connection.created', url: 'https://hooks.example.com/more' }] },
      }),
    held: (s) => Object.keys(world(s).webhooks).length,
    status: 413,
    body: full('webhook instances per account', MAX_WEBHOOKS_PER_ACCOUNT),
  },
  {
    list: 'webhook deliveries waiting',
    fill: (s) =>
      fillWorld(s, (w) => {
        for (let i = 0; i < MAX_PENDING_DELIVERIES_PER_ACCOUNT; i++) {
          w.webhook_deliveries[uuid(i)] = {
            deliveryid: uuid(i),
            webhookid: uuid(0, '6'),
            accountid: s.ids.accountId,
            envid: s.ids.sandboxEnvId,
            event_consumerid: null,
            event: 'account.connection.created',
            url: 'https://hooks.example.com/',
            integrationid: null,
            body: '{}',
            created_on: FUTURE,
            attempts: 1,
            next_attempt_at: FUTURE,
            state: 'pending',
            last_httpstatus: 500,
            last_error: 'The receiver answered HTTP 500',
            redelivery_of: null,
          };
        }
      }),
    next: (s) => call(s.app, 'POST', `/__sandbox/webhook-deliveries/${uuid(0)}/redeliver`),
    held: (s) => Object.keys(world(s).webhook_deliveries).length,
    status: 413,
    body: full('webhook deliveries waiting per account', MAX_PENDING_DELIVERIES_PER_ACCOUNT),
  },
  {
    list: 'rows of a consumer in a datastore',
    fill: (s) =>
      fillWorld(s, (w) => {
        const datastoreid = seededDatastoreId(
          s.app.services.config.seed,
          s.ids.accountId,
          CUSTOMER_MAPPING.name,
        );
        for (let i = 0; i < MAX_DATASTORE_ROWS; i++) {
          w.datastore_data[uuid(i)] = {
            datastoredataid: uuid(i),
            datastoreid,
            consumerid: s.ids.pendingConsumerId,
            executionid: null,
            data: { source_id: `s${i}`, target_id: `t${i}` },
            created_on: FUTURE,
            modified_on: FUTURE,
          };
        }
      }),
    next: async (s) => {
      const datastoreid = seededDatastoreId(
        s.app.services.config.seed,
        s.ids.accountId,
        CUSTOMER_MAPPING.name,
      );
      const path = `/consumers/${s.ids.pendingConsumerId}/datastore/${datastoreid}/data`;
      const body = [{ data: { source_id: 'more', target_id: 'more' } }];
      return call(s.app, 'POST', path, { token: await sandboxToken(s), body });
    },
    held: (s) => Object.keys(world(s).datastore_data).length,
    status: 413,
    body: full('rows per consumer in a datastore', MAX_DATASTORE_ROWS),
  },
  {
    list: 'MCP sessions of an app',
    async fill(s) {
      const sessions = s.app.services.mcp as unknown as { add(session: Session): void };
      for (let i = 0; i < MAX_SESSIONS; i++) {
        sessions.add({
          id: `session-${i}`,
          identity: `identity-${i}`,
          world: world(s),
          expiresAt: Date.parse(FUTURE),
          transport: {} as Session['transport'],
          server: { close: async () => undefined } as Session['server'],
          info: { account_id: `account-${i}`, scopes: [] as string[] } as Session['info'],
        });
      }
    },
    next: mcpInitialize,
    held: sessionsOf,
    status: 429,
    body: {
      jsonrpc: '2.0',
      error: { code: -32000, message: messages.mcpSessionsFull(MAX_SESSIONS) },
      id: null,
    },
  },
  {
    list: 'MCP sessions past the world’s bytes',
    options: { maxWorldBytes: MCP_SESSION_BYTES - 1 },
    fill: async () => undefined,
    next: mcpInitialize,
    held: sessionsOf,
    status: 413,
    body: {
      jsonrpc: '2.0',
      error: { code: -32000, message: messages.worldFull(MCP_SESSION_BYTES, MCP_SESSION_BYTES - 1) },
      id: null,
    },
  },
  {
    list: 'OAuth clients past the world’s bytes',
    options: { maxWorldBytes: 1024 },
    fill: async () => undefined,
    next: (s) =>
      call(s.app, 'POST', '/oauth/register', { body: { redirect_uris: ['http://127.0.0.1:9/callback'] } }),
    held: (s) => s.app.services.store.quota.outside,
    status: 413,
    body: { error: 'temporarily_unavailable' },
  },
  {
    list: 'worlds of a server',
    options: { maxWorlds: 2 },
    async fill(s) {
      for (let i = 0; i < 2; i++)
        expect((await call(s.app, 'POST', '/__sandbox/worlds', { body: {} })).status).toBe(201);
    },
    next: (s) => call(s.app, 'POST', '/__sandbox/worlds', { body: {} }),
    held: (s) => s.app.services.worlds?.list().total,
    status: 429,
    body: { message: messages.worldsCountFull(2), status: 'error' },
  },
];

describe('every list a client grows is bounded', () => {
  it.each(BOUNDS)(
    '$list: filled to its bound, the next is refused with $status, nothing written',
    async (bound) => {
      const s = sandbox(bound.options);
      await bound.fill(s);
      // What the filling set going (the background work a write kicks) ends before the count.
      await s.app.services.ticker.idle();
      const store = s.app.services.store;
      const before = {
        held: bound.held(s),
        bytes: store.world.meta.client_bytes,
        outside: store.quota.outside,
      };
      const res = await bound.next(s);
      expect(res.status, JSON.stringify(res.body)).toBe(bound.status);
      expect(res.body).toMatchObject(bound.body);
      if (bound.status === 429)
        expect(res.headers.get('retry-after') ?? bound.list).toEqual(expect.any(String));
      expect({
        held: bound.held(s),
        bytes: store.world.meta.client_bytes,
        outside: store.quota.outside,
      }).toEqual(before);
      await s.app.services.ticker.idle();
      await s.app.services.worlds?.close();
    },
  );
});
